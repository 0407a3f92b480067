package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/** {@link Transform#hunks} is the change {@link Transform#write} makes: random lines and edits. */
class TransformHunksTest {
  @Test
  void hunksMakeWhatWriteWrites() throws IOException {
    Random r = new Random(35);
    for (int round = 0; round < 2000; round++) {
      int count = 1 + r.nextInt(20);
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < count; i++) lines.add("NODE  / " + i + " ".repeat(r.nextInt(12)) + "1.5 2.5 " + (r.nextBoolean() ? "\r" : ""));
      List<Transform.Edit> edits = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int len = lines.get(i).replace("\r", "").length();
        int from = 0;
        while (from < len && r.nextInt(3) == 0) { // some edits, left to right, not overlapping
          int a = from + r.nextInt(len - from);
          int b = a + r.nextInt(len - a + 1);
          byte[] text = ("v" + r.nextInt(1000)).getBytes(StandardCharsets.ISO_8859_1);
          edits.add(new Transform.Edit(i, a, b, text, lines.get(i).substring(a, b).getBytes(StandardCharsets.ISO_8859_1)));
          from = b + 1;
        }
      }
      Lines src = Lines.ofLatin1(lines.toArray(String[]::new));
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      Transform.write(src, edits, false, o);
      List<String> want = List.of(o.toString(StandardCharsets.ISO_8859_1).split("\n", -1));
      assertEquals(want, ExtractHunksTest.applied(lines, Transform.hunks(src, edits)), "round " + round + ": " + edits.size() + " edits");
    }
  }
}
