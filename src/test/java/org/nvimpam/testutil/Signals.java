package org.nvimpam.testutil;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Signals to a process the test started (a JVM stopped and resumed, say), through kill(1). */
public final class Signals {
  private static final long STOP_WAIT_MS = 10_000;

  private Signals() {}

  /** Sends {@code kill -NAME pid}; after STOP, returns once every thread of the process is stopped. */
  public static void send(String name, long pid) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertEquals(0, p.waitFor(), "kill -" + name + " " + pid);
    if (name.equals("STOP")) {
      awaitStopped(pid);
    }
  }

  /**
   * Waits until every thread of the process is stopped: they stop one by one, and a JVM thread
   * was seen answering a call a few ms after kill -STOP returned.
   */
  private static void awaitStopped(long pid) throws IOException, InterruptedException {
    long end = System.currentTimeMillis() + STOP_WAIT_MS;
    while (System.currentTimeMillis() < end) {
      boolean all = true;
      try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
        for (Path t : tasks.toList()) {
          String stat = Files.readString(t.resolve("stat"));
          char state = stat.charAt(stat.lastIndexOf(')') + 2);
          all &= state == 'T' || state == 't';
        }
      }
      if (all) {
        return;
      }
      Thread.sleep(1);
    }
    throw new AssertionError("process " + pid + " did not stop");
  }
}
