package org.nvimpam.deck;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** One row of one entry, compiled for the walk and the checks: its fields as arrays. */
final class RowCheck {
  final RowLayout.Kind kind;
  final int count;
  /** 0-based first byte and exclusive end byte of each field. */
  final int[] from;
  final int[] to;
  final FieldType[] types;
  /** {@link #types} as their ordinals, for a switch without the enum's lookup table. */
  final int[] codes;
  /** Whether field f and the next are adjacent numbers: the runs-into test applies to f. */
  final boolean[] runs;
  /**
   * The byte ranges of columns 1–80 outside every field whose own test rejects a tab (kw, fixed
   * and str fields, and columns of no field), as pairs [from, to): a row whose fields all pass
   * can hold a tab only there.
   */
  final int[] tabRanges;
  final byte[][][] choices; // the values of choice fields
  /** Past-80 text starts at this byte (81 when the row has a cont field at column 81). */
  final int limit;
  // if / repeat: the earlier row and field the condition reads, and an if's value.
  final int condRow;
  final int condFrom; // the field's 0-based first byte and exclusive end
  final int condTo;
  final boolean condInt; // an int or int_or_blank field: compared as FOLDS.md §5.2 reads it
  final int[] condNumbers; // an int field's values, -2 for a value that is no integer
  final byte[][] condTexts;
  final boolean condNegated; // the row holds when the field has none of the values
  final byte[] startWord; // block START, end, when, until and key WORD
  final byte[] endWord; // block END

  RowCheck(CardLayout card, int row) {
    RowLayout r = card.rows().get(row);
    kind = r.kind();
    List<FieldLayout> f = r.fields();
    count = f.size();
    from = new int[count];
    to = new int[count];
    types = new FieldType[count];
    codes = new int[count];
    choices = new byte[count][][];
    runs = new boolean[count];
    int lim = 80;
    for (int i = 0; i < count; i++) {
      FieldLayout x = f.get(i);
      from[i] = x.from() - 1;
      to[i] = x.to();
      types[i] = x.type();
      codes[i] = x.type().ordinal();
      if (x.type() == FieldType.CHOICE) {
        choices[i] = x.values().stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
      }
      if (x.type() == FieldType.CONT && x.from() == 81) lim = 81;
    }
    limit = lim;
    java.util.List<Integer> ranges = new java.util.ArrayList<>();
    int at = 0;
    for (int i = 0; i < count && at < 80; i++) {
      FieldType t = types[i];
      boolean rejectsTab = t != FieldType.KW && t != FieldType.FIXED && t != FieldType.STR;
      if (!rejectsTab) continue;
      int a = Math.min(from[i], 80);
      if (a > at) {
        ranges.add(at);
        ranges.add(a);
      }
      at = Math.max(at, Math.min(to[i], 80));
    }
    if (at < 80) {
      ranges.add(at);
      ranges.add(80);
    }
    tabRanges = ranges.stream().mapToInt(Integer::intValue).toArray();
    for (int i = 0; i + 1 < count; i++) {
      runs[i] = kind != RowLayout.Kind.KEY && types[i].numeric() && types[i + 1].numeric() && from[i + 1] == to[i];
    }
    int cr = -1;
    int cFrom = 0;
    int cTo = 0;
    boolean cInt = false;
    int[] numbers = null;
    byte[][] texts = null;
    if (kind == RowLayout.Kind.IF || kind == RowLayout.Kind.REPEAT) {
      String name = kind == RowLayout.Kind.IF ? r.condField() : r.arg();
      for (int k = row - 1; k >= 0 && cr < 0; k--) {
        int j = card.rows().get(k).field(name);
        if (j >= 0) {
          cr = k;
          FieldLayout x = card.rows().get(k).fields().get(j);
          cFrom = x.from() - 1;
          cTo = x.to();
          cInt = x.type() == FieldType.INT || x.type() == FieldType.INT_OR_BLANK;
        }
      }
      if (kind == RowLayout.Kind.IF) {
        List<String> vs = r.condValues();
        numbers = new int[vs.size()];
        texts = new byte[vs.size()][];
        for (int k = 0; k < vs.size(); k++) {
          texts[k] = vs.get(k).getBytes(StandardCharsets.UTF_8);
          try {
            numbers[k] = Integer.parseInt(vs.get(k));
          } catch (NumberFormatException e) {
            numbers[k] = -2;
          }
        }
      }
    }
    condRow = cr;
    condFrom = cFrom;
    condTo = cTo;
    condInt = cInt;
    condNumbers = numbers;
    condTexts = texts;
    condNegated = kind == RowLayout.Kind.IF && r.condNegated();
    if (kind == RowLayout.Kind.BLOCK) {
      startWord = r.argHead(',').getBytes(StandardCharsets.UTF_8);
      endWord = r.argTail(',').getBytes(StandardCharsets.UTF_8);
    } else if (kind == RowLayout.Kind.END || kind == RowLayout.Kind.WHEN || kind == RowLayout.Kind.UNTIL
        || kind == RowLayout.Kind.KEY) {
      startWord = r.arg().getBytes(StandardCharsets.UTF_8);
      endWord = null;
    } else {
      startWord = null;
      endWord = null;
    }
  }
}
