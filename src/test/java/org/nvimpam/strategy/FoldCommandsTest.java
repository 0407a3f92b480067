package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;

class FoldCommandsTest {
  // Enough folds for several output blocks, with line numbers of 1 to 6 digits.
  private static final FoldPlan PLAN =
      FoldParser.parse(Lines.split(DeckGenerator.foldCountDeck(30_000)), FoldOptions.GENERIC).plan(false);

  /** Plain string building: {@code perLine} commands per line, joined by '|', lines by newlines. */
  private static String expected(FoldPlan plan, int from, int to, int perLine) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      if (i > from) {
        b.append((i - from) % perLine == 0 ? '\n' : '|');
      }
      b.append(plan.start(i)).append(',').append(plan.end(i)).append("fold");
    }
    return b.toString();
  }

  private static String unpackOne(MessageBufferPacker out) throws IOException {
    out.flush();
    try (MessageUnpacker in = MessagePack.newDefaultUnpacker(out.toByteArray())) {
      String s = in.unpackString();
      assertEquals(false, in.hasNext(), "one string, nothing after it");
      return s;
    }
  }

  private static String packLines(int from, int to, int perLine) throws IOException {
    MessageBufferPacker out = MessagePack.newDefaultBufferPacker();
    new FoldCommands().packLines(out, PLAN, from, to, perLine);
    return unpackOne(out);
  }

  private static String packJoined(int from, int to) throws IOException {
    MessageBufferPacker out = MessagePack.newDefaultBufferPacker();
    new FoldCommands().packJoined(out, PLAN, from, to);
    return unpackOne(out);
  }

  @Test
  void linesOfCommandsCrossBlocksIntact() throws IOException {
    assertEquals(30_000, PLAN.size());
    for (int perLine : new int[] {1, 7, 20, 29_999, 30_000}) {
      assertEquals(expected(PLAN, 0, PLAN.size(), perLine), packLines(0, PLAN.size(), perLine), "per line " + perLine);
    }
    assertEquals(expected(PLAN, 12_345, 12_500, Integer.MAX_VALUE), packJoined(12_345, 12_500));
  }

  @Test
  void theLastLineMayBeShortAndEveryLineHasItsCount() throws IOException {
    String s = packLines(0, 45, 20);
    String[] lines = s.split("\n", -1);
    assertEquals(3, lines.length, s);
    assertEquals(List.of(20, 20, 5), List.of(lines[0].split("\\|").length, lines[1].split("\\|").length,
        lines[2].split("\\|").length));
    assertEquals(PLAN.start(20) + "," + PLAN.end(20) + "fold", lines[1].substring(0, lines[1].indexOf('|')));
  }

  @Test
  void oneAndNoCommand() throws IOException {
    assertEquals(PLAN.start(7) + "," + PLAN.end(7) + "fold", packJoined(7, 8));
    assertEquals(PLAN.start(7) + "," + PLAN.end(7) + "fold", packLines(7, 8, 1));
    assertEquals("", packJoined(3, 3));
  }

  @Test
  void eachCommandAfterItsFramingAcrossBlocks() throws IOException {
    byte[] first = FoldCommands.msgpack(out -> out.packArrayHeader(2).packString("first"));
    byte[] rest = FoldCommands.msgpack(out -> out.packArrayHeader(3).packInt(2).packString("rest"));
    MessageBufferPacker out = MessagePack.newDefaultBufferPacker();
    int from = 100;
    int to = 5_100; // more than one block
    new FoldCommands().packEach(out, PLAN, from, to, first, rest);
    out.flush();
    try (MessageUnpacker in = MessagePack.newDefaultUnpacker(out.toByteArray())) {
      for (int i = from; i < to; i++) {
        if (i == from) {
          assertEquals(2, in.unpackArrayHeader());
          assertEquals("first", in.unpackString());
        } else {
          assertEquals(3, in.unpackArrayHeader());
          assertEquals(2, in.unpackInt());
          assertEquals("rest", in.unpackString());
        }
        assertEquals(expected(PLAN, i, i + 1, 1), in.unpackString(), "fold " + i);
      }
      assertEquals(false, in.hasNext());
    }
  }

  @Test
  void singleCommands() throws IOException {
    FoldCommands commands = new FoldCommands();
    MessageBufferPacker out = MessagePack.newDefaultBufferPacker();
    int last = PLAN.size() - 1;
    commands.pack(out, PLAN, 0);
    commands.pack(out, PLAN, last);
    out.flush();
    try (MessageUnpacker in = MessagePack.newDefaultUnpacker(out.toByteArray())) {
      assertEquals(expected(PLAN, 0, 1, 1), in.unpackString());
      assertEquals(expected(PLAN, last, last + 1, 1), in.unpackString());
    }
  }
}
