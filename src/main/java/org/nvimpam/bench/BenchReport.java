package org.nvimpam.bench;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * The results of a benchmark run and where they were measured.
 *
 * @param nvimVersion Neovim's version, as {@code nvim --version} gives it
 * @param javaVersion the JVM's version
 * @param machine what the machine is (CPU, cores, OS), for the reader of a table
 * @param results one entry per deck and strategy
 */
public record BenchReport(
    String nvimVersion, String javaVersion, String machine, List<BenchResult> results) {

  public BenchReport {
    Objects.requireNonNull(nvimVersion, "nvimVersion");
    Objects.requireNonNull(javaVersion, "javaVersion");
    Objects.requireNonNull(machine, "machine");
    results = List.copyOf(results);
  }

  /** Writes the report in {@code format}; the caller flushes and closes {@code out}. */
  public void write(ReportFormat format, Appendable out) throws IOException {
    format.write(this, out);
  }
}
