package org.nvimpam.gen;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;

/**
 * Synthetic PAM-CRASH decks for benchmarks and tests.
 *
 * <p>{@link #write} streams a realistic deck: the card mix of a vehicle model (prologue with
 * TITLE/RUNEND/OCTRL, NODE blocks, SHELL/SOLID/TETR4/BEAM/… element blocks, PART cards of 12 ATYPEs
 * with END_PART, RBODY/GROUP/MASS/NSMAS cards with GES blocks, PLINK/ELINK links, generic
 * MATER/CNTAC/BOUNC cards, comment banners, blank lines) in the fixed-width columns of real decks.
 * The same seed and line count always give the same bytes. Lines are written through a 64 KiB
 * buffer, so memory use does not grow with the deck.
 *
 * <p>{@link #foldCountDeck} builds a deck with an exact number of folds instead.
 */
public final class DeckGenerator {
  private static final int BUFFER_BYTES = 1 << 16;
  /** A generous average line length, to size in-memory decks. */
  private static final int BYTES_PER_LINE = 64;

  /** The newest generator version, the default: decks the field and id checks find no problem in. */
  public static final int VERSION = 2;

  private final long seed;
  private final int version;

  /** The generator of {@link #VERSION}. */
  public DeckGenerator(long seed) {
    this(seed, VERSION);
  }

  /**
   * The generator of {@code version}: 1 writes the decks of the first generator, byte for byte (for
   * figures measured on them), 2 the decks whose cards all follow the card-layout table.
   */
  public DeckGenerator(long seed, int version) {
    if (version < 1 || version > VERSION) {
      throw new IllegalArgumentException("gen version must be 1 to " + VERSION + ", was " + version);
    }
    this.seed = seed;
    this.version = version;
  }

  /**
   * Writes a deck of exactly {@code lines} LF-terminated lines of at most 80 bytes. The stream is
   * flushed, not closed. Ids stay in their 8-column fields for decks of up to about 20M lines.
   */
  public void write(OutputStream out, long lines) throws IOException {
    DeckLineWriter w = new DeckLineWriter(out, lines, BUFFER_BYTES);
    new VehicleDeck(w, new SplittableRandom(seed), lines, version).write();
    w.flush();
  }

  /** The deck of {@link #write} as bytes, for tests and benchmarks. */
  public byte[] generate(int lines) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(initialSize(lines));
    try {
      write(bytes, lines);
    } catch (IOException e) {
      throw new UncheckedIOException("a ByteArrayOutputStream does not fail", e);
    }
    return bytes.toByteArray();
  }

  /**
   * A deck with exactly {@code folds} folds sent by default (FOLDS.md §10: level-1 folds of more
   * than one line, plus level-2 folds), the same in compatible and in generic mode: it holds only
   * known cards (NODE, SHELL, RBODY type 0) and {@code $} comments, no card headers of unknown cards
   * and no one-line folds.
   *
   * <p>The deck repeats a block of 7 folds: a run of 4 NODE lines (1 gathered fold), a run of 4
   * SHELL lines (1 gathered fold), and 4 RBODY cards of 4 non-comment lines each (header, NAME,
   * {@code PART} selection, {@code END}; 4 own folds plus 1 level-2 fold {@code " 4 Rbody0s "}). Runs of the same
   * name are never adjacent, so there are no other level-2 folds. With {@code folds = 7q + r}, the
   * last r folds (0 ≤ r ≤ 6) are a shortened block:
   *
   * <table>
   *   <caption>The last block</caption>
   *   <tr><th>r</th><th>cards</th><th>level 1 + level 2</th></tr>
   *   <tr><td>1</td><td>NODE run</td><td>1 + 0</td></tr>
   *   <tr><td>2</td><td>NODE run, SHELL run</td><td>2 + 0</td></tr>
   *   <tr><td>3</td><td>NODE run, SHELL run, 1 RBODY</td><td>3 + 0</td></tr>
   *   <tr><td>4</td><td>NODE run, SHELL run, 1 RBODY, NODE run</td><td>4 + 0</td></tr>
   *   <tr><td>5</td><td>NODE run, SHELL run, 2 RBODYs</td><td>4 + 1</td></tr>
   *   <tr><td>6</td><td>NODE run, SHELL run, 3 RBODYs</td><td>5 + 1</td></tr>
   * </table>
   *
   * <p>So the deck has {@code q + (r >= 5 ? 1 : 0)} level-2 folds and {@code folds} minus that many
   * level-1 folds, about 5 lines per fold (comments included).
   */
  public static byte[] foldCountDeck(int folds) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(initialSize(5 * folds));
    try {
      DeckLineWriter w = new DeckLineWriter(bytes, Long.MAX_VALUE, BUFFER_BYTES);
      FoldCountDeck.write(w, folds);
      w.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("a ByteArrayOutputStream does not fail", e);
    }
    return bytes.toByteArray();
  }

  private static int initialSize(long lines) {
    return (int) Math.min(1L << 30, Math.max(32, lines * BYTES_PER_LINE));
  }
}
