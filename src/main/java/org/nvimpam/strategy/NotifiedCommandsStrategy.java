package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.NvimErrorEvent;
import org.nvimpam.rpc.NvimErrorException;

/**
 * Notifications of {@code S,Efold} commands, each run by {@code win_execute()} in its window: one fold each ({@code
 * per-command}) or a bounded {@code |}-chain of them ({@code pipe}: Neovim moves the rest of the
 * line after every command of a chain, so one unbounded line is quadratic). Neovim sends no reply
 * to a notification, and up to {@value #NOTIFICATIONS_PER_WRITE} notifications leave in one write,
 * so neither side pays a message round per command. A request after the last one waits for Neovim to
 * have run them all. A failed notification shows only as an {@code nvim_error_event}; then the
 * folds are made again with one request per fold, whose error names the fold.
 */
final class NotifiedCommandsStrategy implements FoldStrategy {
  static final String PER_COMMAND = "per-command";
  static final String PIPE = "pipe";
  /**
   * Folds per pipe command line, from {@code bench --folds 10000,100000 --sweep pipe=25,50,100,200}
   * (x floor, 10k / 100k folds, two runs each): 0.7.2: 25 → 1.57-1.62 / 1.38, 50 → 1.53-1.66 /
   * 1.38-1.39, 100 → 1.60-1.65 / 1.48-1.49, 200 → 1.81-1.86 / 1.67; 0.10.4: 50 → 1.43-1.56 /
   * 1.17-1.19, 100 → 1.38 / 1.16-1.17; 0.12.4: 50 → 1.46-1.49 / 1.20-1.21, 100 → 1.65-1.72 / 1.20.
   * 0.7.2 moves the rest of a line after each command of it, so long lines cost more there.
   */
  static final int DEFAULT_CHUNK = 50;
  /** Folds per write at most: Neovim starts on the first batch while the next is encoded. */
  static final int BATCH = 1000;
  /**
   * Notifications per write at most. Neovim 0.12 runs a notification the slower the more of them
   * are queued: per-command at 10k / 100k folds (bench, medians) took 26.3 / 172 ms with 1000 per
   * write, 19.6 / 132 with 200, 15.9 / 114 with 100, 15.4 / 107 with 50; on 0.7.2 it makes no
   * difference beyond noise (14.3 / 121, 12.2 / 120, 12.8 / 130, 14.1 / 125).
   */
  static final int NOTIFICATIONS_PER_WRITE = 100;
  /**
   * Writes per window; the JVM waits for the window before last to be done before sending more.
   * per-command, medians of three runs at 10k / 100k folds with 8 → 4: 0.7.2 13.7 → 14.3 / 134 →
   * 129 ms, 0.10.4 16.5 → 15.3 / 121 → 116, 0.12.4 16.1 → 15.0 / 115 → 109 (2: worse on 0.7.2,
   * 15.3 / 142, mixed elsewhere); pipe alike within noise.
   */
  static final int WINDOW = 4;

  private final String name;
  private final int chunk;

  NotifiedCommandsStrategy(String name, int chunk) {
    if (chunk < 1) {
      throw new IllegalArgumentException("folds per command must be at least 1, got " + chunk);
    }
    this.name = name;
    this.chunk = chunk;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    List<Long> windows = RefreshFrame.prepare(nvim, name, buffer);
    FoldStrategyException failure;
    try {
      NvimErrorEvent before = last(nvim.rpc().errorEvents());
      for (long window : windows) {
        send(nvim, window, plan);
      }
      RefreshFrame.Behind behind = RefreshFrame.sendBehind(nvim, name, buffer, plan);
      // Not Nvim.sync(): nvim_get_api_info is a fast call, answered before queued notifications
      // run. An ordinary request waits its turn behind them, and its reply follows their error
      // events; completing in order, it sees them handled.
      Await.call(nvim.rpc().requestInOrder("nvim_eval", out -> {
        out.packArrayHeader(1);
        out.packString("0");
      }, Decoders.nil()), "the fold commands");
      failure = behind.failure();
      if (failure == null && last(nvim.rpc().errorEvents()) != before) {
        // A notification failed, and only an error event says so: the folds are made again one
        // request per fold, in a frame of their own, to name the fold.
        RefreshFrame.prepare(nvim, name, buffer);
        RefreshFrame.finish(nvim, name, buffer, again(nvim, windows, plan));
        return;
      }
    } catch (FoldStrategyException e) {
      throw e; // from that frame of its own, which cleaned up after itself
    } catch (RuntimeException e) {
      Throwable cause = RefreshFrame.cause(e);
      failure = new FoldStrategyException(name, -1, String.valueOf(cause.getMessage()), cause);
    }
    if (failure != null) {
      RefreshFrame.undo(nvim, name, buffer, failure);
    }
  }

  /**
   * The plan's commands for one window, in writes of at most {@value #BATCH} folds and {@value
   * #NOTIFICATIONS_PER_WRITE} notifications.
   */
  private void send(Nvim nvim, long window, FoldPlan plan) {
    FoldCommands commands = new FoldCommands();
    byte[] params = winExecuteParams(window);
    byte[] next = FoldCommands.concat(NOTIFICATION, params);
    int perWrite = foldsPerWrite(chunk);
    WritePacer pacer = new WritePacer(nvim);
    for (int from = 0; from < plan.size(); from += perWrite) {
      pacer.beforeWrite();
      int first = from;
      int to = Math.min(plan.size(), from + perWrite);
      // The first notification's params, then the others whole, back to back: one write.
      nvim.rpc().notify("nvim_call_function", out -> {
        if (chunk == 1) {
          commands.packEach(out, plan, first, to, params, next);
          return;
        }
        for (int i = first; i < to; i += chunk) {
          out.writePayload(i == first ? params : next);
          commands.packJoined(out, plan, i, Math.min(to, i + chunk));
        }
      });
    }
  }

  /** Folds per write for {@code chunk} folds per notification (per-command has 1). */
  static int foldsPerWrite(int chunk) {
    return Math.max(1, Math.min(BATCH / chunk, NOTIFICATIONS_PER_WRITE)) * chunk;
  }

  /**
   * The params of a notification up to its command: {@code ["win_execute", [window, }. win_execute()
   * targets the window by id: should it close meanwhile, the commands fail instead of folding
   * whatever window is current then.
   */
  static byte[] winExecuteParams(long window) {
    return FoldCommands.msgpack(out -> out.packArrayHeader(2).packString("win_execute").packArrayHeader(2)
        .packLong(window));
  }

  /** A notification's framing up to its params: {@code [2, "nvim_call_function", }. */
  static final byte[] NOTIFICATION = FoldCommands.notification("nvim_call_function");

  private static NvimErrorEvent last(List<NvimErrorEvent> events) {
    return events.isEmpty() ? null : events.get(events.size() - 1);
  }

  /**
   * After an error event: clears each window and makes its folds with one request per fold
   * (pipelined), so that the failing fold is known. Null when all succeed (the error event was
   * not ours).
   */
  private FoldStrategyException again(Nvim nvim, List<Long> windows, FoldPlan plan) {
    FoldCommands commands = new FoldCommands();
    for (long window : windows) {
      Object found = Await.call(nvim.eval("win_gotoid(" + window + ")"), "win_gotoid()");
      if (!(found instanceof Number ok) || ok.longValue() != 1) {
        continue; // closed meanwhile: nothing to fold there
      }
      Await.call(nvim.command("normal! zE"), "clearing the folds");
      List<CompletableFuture<?>> replies = new ArrayList<>();
      for (int i = 0; i < plan.size(); i++) {
        int fold = i;
        replies.add(nvim.call("nvim_command", out -> {
          out.packArrayHeader(1);
          commands.pack(out, plan, fold);
        }, Decoders.nil()));
      }
      for (int i = 0; i < replies.size(); i++) {
        try {
          Await.call(replies.get(i), "fold " + (i + 1));
        } catch (CompletionException e) {
          String why = e.getCause() instanceof NvimErrorException n ? n.nvimMessage() : String.valueOf(e.getCause());
          return FoldStrategyException.atFold(name, plan, i, why, e.getCause());
        }
      }
    }
    return null;
  }
}
