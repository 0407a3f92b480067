package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectOutTest {
  @TempDir Path dir;

  /** Files of sizes around a block and the buffer, written in random pieces, direct and plain: the bytes as given. */
  @Test
  void aFileHoldsExactlyWhatWasWritten() throws Exception {
    Random rnd = new Random(35);
    int buffer = 8 << 20;
    int[] sizes = {0, 1, 511, 512, 513, 4095, 4096, 4097, 3 * 4096 + 17, buffer - 1, buffer, buffer + 1, 2 * buffer + 4096, 2 * buffer + 4099,
        1 + rnd.nextInt(3 * buffer)};
    for (boolean direct : new boolean[] {true, false}) {
      for (int size : sizes) {
        byte[] want = new byte[size];
        rnd.nextBytes(want);
        Path f = dir.resolve("f" + direct + size);
        Files.write(f, new byte[2 * buffer + 5000]); // longer than anything written: it must be cut
        try (DirectOut o = new DirectOut(f, direct)) {
          int at = 0;
          while (at < size) {
            if (rnd.nextInt(8) == 0) {
              o.write(want[at++]);
              continue;
            }
            int n = Math.min(size - at, rnd.nextInt(rnd.nextBoolean() ? 100 : 3 << 20) + 1);
            o.write(want, at, n);
            at += n;
          }
        }
        byte[] got = Files.readAllBytes(f);
        assertEquals(size, got.length, direct + " " + size);
        assertArrayEquals(want, got, direct + " " + size);
      }
    }
  }
}
