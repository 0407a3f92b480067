package org.nvimpam.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes deck lines as bytes into a buffer that is flushed to an {@link OutputStream}, with a fixed
 * budget of lines.
 *
 * <p>Fields are formatted straight into the buffer (no String per line), so that generating a
 * 10M-line deck costs little more than copying its bytes. A multi-line card is written between
 * {@link #beginCard()} and {@link #endCard()}; if the card does not fit into the remaining budget,
 * {@code endCard} drops it, so that the deck never ends in a cut-off card.
 */
final class DeckLineWriter {
  /** Enough for any line this package writes; decks have at most 80 columns. */
  private static final int MAX_LINE = 128;

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
  }

  private final OutputStream out;
  private final long budget;
  private byte[] buf;
  private int pos;
  private long lines;
  // While a card is open: where it starts in buf, and the line count before it; -1 otherwise.
  private int cardStart = -1;
  private long linesBeforeCard;
  private final byte[] digits = new byte[20];

  DeckLineWriter(OutputStream out, long budget, int bufferSize) {
    if (budget < 0) throw new IllegalArgumentException("line count must be >= 0, was " + budget);
    this.out = out;
    this.budget = budget;
    this.buf = new byte[Math.max(bufferSize, 4 * MAX_LINE)];
  }

  /** Bytes of an ASCII constant, for the literals that callers keep in static fields. */
  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Lines that may still be written (cards still open count as written). */
  long left() {
    return budget - lines;
  }

  DeckLineWriter text(byte[] literal) throws IOException {
    ensure(literal.length);
    System.arraycopy(literal, 0, buf, pos, literal.length);
    pos += literal.length;
    return this;
  }

  /** The first {@code len} bytes of {@code bytes}. */
  DeckLineWriter text(byte[] bytes, int len) throws IOException {
    ensure(len);
    System.arraycopy(bytes, 0, buf, pos, len);
    pos += len;
    return this;
  }

  DeckLineWriter spaces(int n) throws IOException {
    ensure(n);
    Arrays.fill(buf, pos, pos + n, (byte) ' ');
    pos += n;
    return this;
  }

  /** {@code value} as a decimal integer, right-aligned in {@code width} columns (wider if needed). */
  DeckLineWriter integer(long value, int width) throws IOException {
    int n = toDigits(Math.abs(value));
    int len = n + (value < 0 ? 1 : 0);
    spaces(Math.max(0, width - len));
    ensure(len);
    if (value < 0) buf[pos++] = '-';
    System.arraycopy(digits, digits.length - n, buf, pos, n);
    pos += n;
    return this;
  }

  /**
   * The fixed-point number {@code scaled / 10^decimals} right-aligned in {@code width} columns, with
   * all its decimals and a point, as in {@code "  -12.500"}.
   */
  DeckLineWriter decimal(long scaled, int decimals, int width) throws IOException {
    long abs = Math.abs(scaled);
    long whole = abs / POWERS_OF_TEN[decimals];
    long fraction = abs % POWERS_OF_TEN[decimals];
    int n = toDigits(whole);
    int len = (scaled < 0 ? 1 : 0) + n + 1 + decimals;
    spaces(Math.max(0, width - len));
    ensure(len);
    if (scaled < 0) buf[pos++] = '-';
    System.arraycopy(digits, digits.length - n, buf, pos, n);
    pos += n;
    buf[pos++] = '.';
    for (int i = decimals - 1; i >= 0; i--) {
      buf[pos + i] = (byte) ('0' + fraction % 10);
      fraction /= 10;
    }
    pos += decimals;
    return this;
  }

  /** Ends the current line with LF. Outside a card, a line beyond the budget is a caller's bug. */
  void endLine() throws IOException {
    if (cardStart < 0 && lines >= budget) {
      throw new IllegalStateException("line budget of " + budget + " exceeded");
    }
    ensure(1);
    buf[pos++] = '\n';
    lines++;
  }

  /** Starts a card that {@link #endCard()} keeps only if it fits the budget. */
  void beginCard() throws IOException {
    if (cardStart >= 0) throw new IllegalStateException("card already open");
    ensure(MAX_LINE);
    cardStart = pos;
    linesBeforeCard = lines;
  }

  /** Closes the card; drops it and returns false if it went beyond the budget. */
  boolean endCard() {
    if (cardStart < 0) throw new IllegalStateException("no card open");
    boolean fits = lines <= budget;
    if (!fits) {
      pos = cardStart;
      lines = linesBeforeCard;
    }
    cardStart = -1;
    return fits;
  }

  /** Writes out what is buffered; the caller owns the stream and closes it. */
  void flush() throws IOException {
    if (cardStart >= 0) throw new IllegalStateException("card still open");
    drain(pos);
    out.flush();
  }

  /**
   * Room for {@code n} more bytes: outside a card the buffer is written out, inside one only the
   * part before the card is (the card may still be dropped), and the buffer grows for a huge card.
   */
  private void ensure(int n) throws IOException {
    if (pos + n <= buf.length) return;
    if (cardStart < 0) {
      drain(pos);
    } else if (cardStart > 0) {
      drain(cardStart);
      cardStart = 0;
    }
    if (pos + n > buf.length) buf = Arrays.copyOf(buf, Math.max(2 * buf.length, pos + n));
  }

  /** Writes {@code buf[0, upTo)} and moves the rest to the front. */
  private void drain(int upTo) throws IOException {
    out.write(buf, 0, upTo);
    System.arraycopy(buf, upTo, buf, 0, pos - upTo);
    pos -= upTo;
  }

  /** Writes the digits of {@code v >= 0} at the end of {@link #digits}; returns how many. */
  private int toDigits(long v) {
    int i = digits.length;
    do {
      digits[--i] = (byte) ('0' + v % 10);
      v /= 10;
    } while (v != 0);
    return digits.length - i;
  }
}
