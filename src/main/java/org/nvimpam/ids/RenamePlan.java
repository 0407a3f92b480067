package org.nvimpam.ids;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.LineSource;

/**
 * The text edits that renumber (or, for a group, retitle) one id in one deck: each field that
 * defines or references it gets the new digits in its own columns (right-aligned, or left where
 * the old value was), a title field the new title where the old one began; each GES item the new
 * text in its place (a title inside its quotes). Refused, with the reason, when the new text does
 * not fit a field or a GES line would pass column 80. GES ranges that hold the id are left alone
 * (counted).
 */
public record RenamePlan(int[] at, byte[][] texts, int count, int lines, boolean defines, int ranges, String refusal) {
  /** The plan that gives the id of {@code key} the new {@code text}: its digits, or a group's title. */
  static RenamePlan make(LineSource deck, int version, IdScanner sc, long key, String text) {
    int kind = IdKinds.kindOf(key);
    int id = IdKinds.idOf(key);
    int[][] at = {new int[48]};
    byte[][][] texts = {new byte[16][]};
    int[] n = {0};
    int[] lines = {0};
    int[] lastLine = {-1};
    int[] gesGrowth = {0};
    boolean[] def = {false};
    int[] ranges = {0};
    String[] refusal = {null};
    boolean named = IdKinds.named(kind);
    byte[] d = text.getBytes(StandardCharsets.UTF_8);
    String shown = named ? "'" + text + "'" : text;
    sc.scan(deck, 0, deck.lineCount(), version, true, 1 << kind, (line, from, to, k, lo, hi, isDef) -> {
      if (refusal[0] != null || k != kind || id < lo || id > hi) return;
      if (lo != hi) {
        ranges[0]++;
        return;
      }
      int len = deck.contentLength(line);
      if (line != lastLine[0]) {
        lastLine[0] = line;
        gesGrowth[0] = 0;
        lines[0]++;
      }
      int s;
      int e;
      byte[] put;
      if (sc.field() < 0) { // a GES item: the new text in its place
        gesGrowth[0] += d.length - (to - from);
        if (len + gesGrowth[0] > 80) {
          refusal[0] = "line " + (line + 1) + " would pass column 80 with " + shown;
          return;
        }
        s = from;
        e = to;
        put = d;
      } else {
        FieldLayout f = sc.table().entry(sc.entry()).rows().get(sc.row()).fields().get(sc.field());
        int fs = f.from() - 1;
        int fe = f.to();
        int width = fe - fs;
        if (d.length > width) {
          refusal[0] = shown + " does not fit the " + width + " columns of " + sc.table().entry(sc.entry()).word()
              + " / " + f.name() + " (line " + (line + 1) + ")";
          return;
        }
        e = Math.min(fe, len);
        int w;
        boolean left;
        if (named) { // where the old title began, unless it does not fit there; the field's end stays put
          s = from + d.length <= fe ? from : fs;
          w = e == len ? d.length : e - s;
          left = true;
        } else {
          left = from == fs && to < fe;
          s = fs;
          w = left ? Math.max(d.length, e - s) : width;
        }
        put = new byte[w];
        java.util.Arrays.fill(put, (byte) ' ');
        if (left) System.arraycopy(d, 0, put, 0, d.length);
        else System.arraycopy(d, 0, put, w - d.length, d.length);
      }
      if (isDef) def[0] = true;
      if (3 * n[0] + 3 > at[0].length) at[0] = java.util.Arrays.copyOf(at[0], at[0].length * 2);
      if (n[0] == texts[0].length) texts[0] = java.util.Arrays.copyOf(texts[0], n[0] * 2);
      at[0][3 * n[0]] = line;
      at[0][3 * n[0] + 1] = s;
      at[0][3 * n[0] + 2] = e;
      texts[0][n[0]++] = put;
    });
    return new RenamePlan(at[0], texts[0], n[0], lines[0], def[0], ranges[0], refusal[0]);
  }

  /** A flat {@code [lnum, start_col, end_col, text, …]} (0-based, end exclusive), in line order. */
  void pack(MessagePacker out) throws IOException {
    out.packArrayHeader(4 * count);
    for (int i = 0; i < count; i++) {
      out.packInt(at[3 * i]).packInt(at[3 * i + 1]).packInt(at[3 * i + 2]);
      out.packRawStringHeader(texts[i].length).writePayload(texts[i]);
    }
  }
}
