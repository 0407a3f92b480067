package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.strategy.FoldStrategyException;

/** Errors as values: the map Lua reads, and what a failed call reports. */
class ErrorValueTest {
  private static Map<?, ?> packed(ErrorValue e) throws IOException {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      e.pack(p);
      return (Map<?, ?>) Decoders.object().read(MessagePack.newDefaultUnpacker(p.toByteArray()));
    }
  }

  @Test
  void aFailingFoldTravelsWithItsIndexCountLinesAndStrategy() throws IOException {
    ErrorValue e = new ErrorValue(ErrorValue.Code.FOLD_FAILED, "E16: Invalid range", 3, 23, 759, 800, "pipe");

    Map<?, ?> m = packed(e);

    assertEquals("fold_failed", m.get("code"));
    assertEquals(3L, m.get("fold"));
    assertEquals(23L, m.get("of"));
    assertEquals(List.of(759L, 800L), m.get("lines"));
    assertEquals("pipe", m.get("strategy"));
    assertEquals(e, ErrorValue.from(m));
    assertTrue(ErrorValue.KEYS.containsAll(m.keySet().stream().map(String::valueOf).toList()));
  }

  @Test
  void anErrorOfNoFoldCarriesOnlyCodeAndMessage() throws IOException {
    Map<?, ?> m = packed(ErrorValue.of(ErrorValue.Code.TIMEOUT, "late"));

    assertEquals(Map.of("code", "timeout", "message", "late"), m);
  }

  @Test
  void aFailedCallSaysWhatKindOfFailureItWas() {
    assertEquals(ErrorValue.Code.BAD_ARGUMENT,
        PluginHost.errorValue(new CompletionException(new IllegalArgumentException("no buffer"))).code());
    assertEquals(ErrorValue.Code.TIMEOUT,
        PluginHost.errorValue(new Await.DeadlineException("nvim_buf_line_count: no answer", null)).code());
    ErrorValue fold = PluginHost.errorValue(new FoldStrategyException("lua", 4, "E490", null));
    assertEquals(ErrorValue.Code.FOLD_FAILED, fold.code());
    assertEquals(5, fold.fold());
    assertEquals("lua", fold.strategy());
    assertEquals(ErrorValue.Code.FAILED, PluginHost.errorValue(new IllegalStateException("x")).code());
  }

  @Test
  void aWaitPastItsDeadlineNamesTheCall() {
    CompletableFuture<Long> never = new CompletableFuture<>();

    Await.DeadlineException e = assertThrows(Await.DeadlineException.class,
        () -> Await.within(never, Duration.ofMillis(1), "nvim_buf_line_count"));

    assertTrue(e.getMessage().startsWith("nvim_buf_line_count: no answer from Neovim within 1 ms"), e.getMessage());
  }

  @Test
  void aFailedCallIsRethrownAsJoinWould() {
    CompletableFuture<Long> failed = CompletableFuture.failedFuture(new IllegalStateException("gone"));

    CompletionException e = assertThrows(CompletionException.class,
        () -> Await.within(failed, Duration.ofSeconds(1), "x"));

    assertEquals("gone", e.getCause().getMessage());
  }

  @Test
  void anUnknownOptionIsRejectedWithTheValidOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Settings.DEFAULTS.merge(Map.of("stratgy", "lua")));

    assertTrue(e.getMessage().contains("'stratgy'") && e.getMessage().contains("strategy, generic_cards"),
        e.getMessage());
  }
}
