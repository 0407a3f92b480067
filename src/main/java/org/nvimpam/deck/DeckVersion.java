package org.nvimpam.deck;

import org.nvimpam.lines.LineSource;
/**
 * The PAM-CRASH version a deck declares (docs/CARDS.md, "Versions"): the first integer after
 * {@code INPUTVERSION} at the start of a line among its first {@link #SCAN_LINES} lines.
 */
public final class DeckVersion {
  /** How far the declaration is looked for; lua/nvimpam/model/version.lua looks as far. */
  public static final int SCAN_LINES = 200;
  private static final byte[] WORD = LineBytes.ascii("INPUTVERSION");
  private static final byte[] RUNEND = LineBytes.ascii("RUNEND");

  private DeckVersion() {}

  /** The declared version, or -1 when the deck declares none. */
  public static int declared(LineSource src) {
    int n = Math.min(SCAN_LINES, src.lineCount());
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (LineBytes.startsWith(a, off, len, WORD)) {
        return LineBytes.number(a, off, len, WORD.length, len);
      }
    }
    return -1;
  }

  /**
   * The version a file's cards are read as: its own, else the including deck's ({@code inherited},
   * when above 0), else the newest the bundled table knows.
   */
  public static int readAs(LineSource src, int inherited) {
    return readAs(src, inherited, CardLayouts.bundled().newestVersion());
  }

  /** As {@link #readAs(LineSource, int)}, with {@code newest} the newest version of the table in use. */
  public static int readAs(LineSource src, int inherited, int newest) {
    int own = declared(src);
    return own > 0 ? own : inherited > 0 ? inherited : newest;
  }

  /**
   * Whether the deck has no control section (neither INPUTVERSION nor RUNEND among its first
   * {@link #SCAN_LINES} lines): an include fragment, whose references may point to ids the decks
   * that include it define.
   */
  public static boolean fragment(LineSource src) {
    int n = Math.min(SCAN_LINES, src.lineCount());
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (LineBytes.startsWith(a, off, len, WORD) || LineBytes.startsWith(a, off, len, RUNEND)) return false;
    }
    return true;
  }
}
