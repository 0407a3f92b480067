package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file reader against a byte-at-a-time split, on the bytes its eight-at-a-time scan could get wrong. */
class DeckFileTest {
  @TempDir Path dir;

  /** The lines as Neovim reads them: split on LF; with {@code dos} a CR before the LF is dropped. */
  private static List<byte[]> naive(byte[] b, boolean dos) {
    List<byte[]> out = new ArrayList<>();
    int s = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i] != '\n') continue;
      int e = dos && i > s && b[i - 1] == '\r' ? i - 1 : i;
      out.add(Arrays.copyOfRange(b, s, e));
      s = i + 1;
    }
    if (s < b.length) out.add(Arrays.copyOfRange(b, s, b.length));
    return out;
  }

  private Deck read(byte[] b, boolean dos) throws IOException {
    Path f = dir.resolve("d.pc");
    Files.write(f, b);
    return DeckFile.read(f, DeckFile.estimateLines(f, b.length), b.length, dos);
  }

  private void assertReads(byte[] b) throws IOException {
    for (boolean dos : new boolean[] {false, true}) {
      List<byte[]> want = naive(b, dos);
      Deck got = read(b, dos);
      assertEquals(want.size(), got.lineCount(), "line count, dos " + dos);
      long bytes = 0;
      for (int i = 0; i < want.size(); i++) {
        assertArrayEquals(want.get(i), got.line(i), "line " + i + ", dos " + dos);
        bytes += want.get(i).length;
      }
      assertEquals(bytes, got.byteSize(), "bytes, dos " + dos);
    }
  }

  @Test
  void bytesNextToANewlineAreNoNewlines() throws IOException {
    // 0x0B and 0x8A differ from LF in one bit: a borrow between bytes would take them for one
    byte[] b = new byte[4096];
    Random r = new Random(7);
    byte[] alphabet = {'\n', '\r', 0x0B, 0x09, (byte) 0x8A, (byte) 0x0A, 'A', ' ', 0, (byte) 0xFF};
    for (int i = 0; i < b.length; i++) b[i] = alphabet[r.nextInt(alphabet.length)];
    assertReads(b);
  }

  @Test
  void aNewlineAtEveryPositionOfAWord() throws IOException {
    for (int len = 0; len < 40; len++) {
      for (int lf = 0; lf < len; lf++) {
        byte[] b = new byte[len];
        Arrays.fill(b, (byte) 'x');
        b[lf] = '\n';
        if (lf > 0) b[lf - 1] = '\r';
        assertReads(b);
      }
    }
  }

  @Test
  void linesCutBySegmentsAndLongerThanASegment() throws IOException {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    Random r = new Random(3);
    while (o.size() < 3 * Deck.SEGMENT_BYTES) {
      int n = r.nextInt(10) == 0 ? r.nextInt(300) : 80;
      for (int i = 0; i < n; i++) o.write('a' + i % 26);
      o.write(r.nextBoolean() ? '\r' : 'z');
      o.write('\n');
    }
    byte[] huge = new byte[Deck.SEGMENT_BYTES + 12345];
    Arrays.fill(huge, (byte) 'h');
    o.write(huge, 0, huge.length);
    o.write('\r');
    o.write('\n');
    o.write('t'); // no final newline
    assertReads(o.toByteArray());
  }

  @Test
  void droppingFinalCrsLaterEqualsReadingAsDos() throws IOException {
    byte[] b = "NODE  /        1\r\n\r\nSHELL /        2\r\nlone\rcr\n\rlast\r".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Deck later = read(b, false);
    later.dropFinalCrs(false);
    Deck dos = read(b, true);
    assertEquals(dos.lineCount(), later.lineCount());
    for (int i = 0; i < dos.lineCount(); i++) assertArrayEquals(dos.line(i), later.line(i), "line " + i);
    assertEquals(dos.byteSize(), later.byteSize());
    assertEquals("\rlast\r", new String(later.line(later.lineCount() - 1), java.nio.charset.StandardCharsets.ISO_8859_1),
        "the unterminated last line keeps its CR, as Neovim's dos read does");
  }

  @Test
  void theEstimateIsNearTheLineCount() throws IOException {
    byte[] line = "NODE  /        1              0.              0.              0.\n".getBytes();
    byte[] b = new byte[line.length * 400_000];
    for (int i = 0; i < 400_000; i++) System.arraycopy(line, 0, b, i * line.length, line.length);
    Path f = dir.resolve("e.pc");
    Files.write(f, b);
    int est = DeckFile.estimateLines(f, b.length);
    assertTrue(est >= 400_000 && est < 420_000, "estimate " + est);
  }
}
