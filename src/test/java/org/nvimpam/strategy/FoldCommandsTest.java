package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.gen.DeckGenerator;

class FoldCommandsTest {
  // Enough folds for several output blocks, with line numbers of 1 to 6 digits.
  private static final FoldPlan PLAN =
      FoldParser.parse(Lines.split(DeckGenerator.foldCountDeck(30_000)), FoldOptions.GENERIC).plan(false);

  private static String expected(FoldPlan plan, int from, int to, String separator) {
    StringJoiner j = new StringJoiner(separator);
    for (int i = from; i < to; i++) {
      j.add(plan.start(i) + "," + plan.end(i) + "fold");
    }
    return j.toString();
  }

  private static String packJoined(int from, int to, byte separator) throws IOException {
    MessageBufferPacker out = MessagePack.newDefaultBufferPacker();
    new FoldCommands().packJoined(out, PLAN, from, to, separator);
    out.flush();
    try (MessageUnpacker in = MessagePack.newDefaultUnpacker(out.toByteArray())) {
      String s = in.unpackString();
      assertEquals(false, in.hasNext(), "one string, nothing after it");
      return s;
    }
  }

  @Test
  void joinedCommandsCrossBlocksIntact() throws IOException {
    assertEquals(30_000, PLAN.size());
    assertEquals(expected(PLAN, 0, PLAN.size(), "\n"), packJoined(0, PLAN.size(), (byte) '\n'));
    assertEquals(expected(PLAN, 12_345, 12_500, "|"), packJoined(12_345, 12_500, (byte) '|'));
  }

  @Test
  void oneAndNoCommand() throws IOException {
    assertEquals(expected(PLAN, 7, 8, "|"), packJoined(7, 8, (byte) '|'));
    assertEquals("", packJoined(3, 3, (byte) '|'));
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
        assertEquals(expected(PLAN, i, i + 1, ""), in.unpackString(), "fold " + i);
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
      assertEquals(expected(PLAN, 0, 1, ""), in.unpackString());
      assertEquals(expected(PLAN, last, last + 1, ""), in.unpackString());
    }
  }
}
