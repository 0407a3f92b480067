package org.nvimpam.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Looks at another JVM from outside, so that the product needs no test hook: its thread count
 * from /proc, its heap after a full GC through {@code jcmd <pid> GC.run} and {@code GC.heap_info}.
 */
final class JvmProbe {
  private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

  private final long pid;
  private final Path jcmd;

  JvmProbe(long pid, Path jcmd) {
    this.pid = pid;
    this.jcmd = jcmd;
  }

  /** jcmd of the JDK running this process. */
  static Path defaultJcmd() {
    Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
    Path parent = java.getParent();
    return parent == null ? Path.of("jcmd") : parent.resolve("jcmd");
  }

  long pid() {
    return pid;
  }

  /** Threads: from /proc/PID/status. */
  int threads() throws IOException {
    return (int) statusField(pid, "Threads:");
  }

  /** Resident memory in KiB (VmRSS), of any process. */
  static long residentKib(long pid) throws IOException {
    return statusField(pid, "VmRSS:");
  }

  private static long statusField(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.ISO_8859_1)) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
      }
    }
    throw new IOException("no " + field + " in /proc/" + pid + "/status");
  }

  /** Bytes in use on the Java heap right after a full collection. */
  long heapAfterGc() throws IOException {
    jcmd("GC.run");
    String info = jcmd("GC.heap_info");
    long kib = 0;
    boolean found = false;
    for (String line : info.split("\n")) {
      Matcher m = USED.matcher(line);
      if (m.find()) { // the generations (serial, parallel) or the G1 heap; not Metaspace
        kib += Long.parseLong(m.group(1));
        found = true;
      }
    }
    if (!found) {
      throw new IOException("cannot read the heap from jcmd " + pid + " GC.heap_info:\n" + info);
    }
    return kib * 1024;
  }

  private String jcmd(String command) throws IOException {
    Process p = new ProcessBuilder(List.of(jcmd.toString(), String.valueOf(pid), command))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(jcmd + " " + pid + " " + command + " failed:\n" + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running jcmd", e);
    }
    return out;
  }
}
