package org.nvimpam.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process spoken to over its stdin and stdout; its stderr goes straight to ours (inherited,
 * so it never blocks the child and needs no thread).
 */
public final class ChildProcessTransport implements Transport {
  /** Neovim without UI, user config, shada or swap files. */
  public static final List<String> DEFAULT_NVIM =
      List.of("nvim", "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n");

  private final Process process;
  private final String program;

  private ChildProcessTransport(Process process, List<String> argv) {
    this.process = process;
    this.program = argv.get(0);
  }

  /** Starts {@code argv} (program and arguments). */
  public static ChildProcessTransport start(List<String> argv) throws IOException {
    if (argv.isEmpty()) throw new IllegalArgumentException("empty command line");
    ProcessBuilder pb = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT);
    return new ChildProcessTransport(pb.start(), List.copyOf(argv));
  }

  /** {@link #DEFAULT_NVIM} with the program replaced by {@code nvim} (a path or a name). */
  public static List<String> nvimArgv(String nvim) {
    List<String> argv = new java.util.ArrayList<>(DEFAULT_NVIM);
    argv.set(0, nvim);
    return argv;
  }

  public Process process() {
    return process;
  }

  @Override
  public InputStream input() {
    return process.getInputStream();
  }

  @Override
  public OutputStream output() {
    return process.getOutputStream();
  }

  /** e.g. {@code "nvim child process (pid 4242)"}, then {@code "(pid 4242, exited with 137)"}. */
  @Override
  public String describe() {
    String status = process.isAlive() ? "" : ", exited with " + process.exitValue();
    return program + " child process (pid " + process.pid() + status + ")";
  }

  /** Closes the child's stdin (Neovim exits on that), then waits briefly before killing it. */
  @Override
  public void close() throws IOException {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // a dead child's pipe fails to flush on close: it is closed all the same
    }
    try {
      if (!process.waitFor(1, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(1, TimeUnit.SECONDS)) process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
