package org.nvimpam.deck;

import java.util.List;

/**
 * One row of a card layout: how many lines it takes (its {@link Kind}) and its fields. The
 * fields' columns are also held as arrays, for the checks' hot path.
 *
 * @param arg the kind's argument: {@code FIELD:VALUE} (if), {@code FIELD} (repeat), the GES's
 *     label, {@code START,END} (block), the word (end, when, until, key); null when there is none
 */
public record RowLayout(Kind kind, String arg, String label, List<FieldLayout> fields) {
  /** The row kinds of docs/CARDS.md, "Rows". */
  public enum Kind {
    ROW, NAME, IF, REPEAT, GES, BLOCK, END, WHEN, UNTIL, KEY;

    public String token() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public RowLayout {
    fields = List.copyOf(fields);
  }

  /** The field named {@code name}, or -1. */
  public int field(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) return i;
    }
    return -1;
  }

  /** The field an {@code if} row reads: {@code FIELD} of {@code FIELD:VALUES} or {@code FIELD!VALUES}. */
  public String condField() {
    int i = condSep();
    return i < 0 ? arg : arg.substring(0, i);
  }

  /** Whether an {@code if} row holds when the field has none of its values ({@code FIELD!VALUES}). */
  public boolean condNegated() {
    int i = condSep();
    return i >= 0 && arg.charAt(i) == '!';
  }

  /** The values of an {@code if} row, any of which its field may have. */
  public List<String> condValues() {
    int i = condSep();
    return i < 0 ? List.of() : List.of(arg.substring(i + 1).split(",", -1));
  }

  private int condSep() {
    for (int i = 0; i < arg.length(); i++) {
      if (arg.charAt(i) == ':' || arg.charAt(i) == '!') return i;
    }
    return -1;
  }

  /** The part of {@link #arg} before {@code sep} ({@code START} of {@code START,END}). */
  String argHead(char sep) {
    int i = arg.indexOf(sep);
    return i < 0 ? arg : arg.substring(0, i);
  }

  /** The part of {@link #arg} after {@code sep}. */
  String argTail(char sep) {
    int i = arg.indexOf(sep);
    return i < 0 ? "" : arg.substring(i + 1);
  }
}
