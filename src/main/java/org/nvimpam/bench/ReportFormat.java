package org.nvimpam.bench;

import java.io.IOException;

/** The ways a {@link BenchReport} can be written. */
public enum ReportFormat {
  /** Aligned columns for people, with each strategy's ratio to the floor. */
  TABLE {
    @Override
    void write(BenchReport report, Appendable out) throws IOException {
      ReportTable.write(report, out);
    }
  },
  /** One header row and one row per result, for spreadsheets. */
  CSV {
    @Override
    void write(BenchReport report, Appendable out) throws IOException {
      ReportCsv.write(report, out);
    }
  },
  /** {@code {"nvim": …, "java": …, "results": [{…}, …]}}, for scripts. */
  JSON {
    @Override
    void write(BenchReport report, Appendable out) throws IOException {
      ReportJson.write(report, out);
    }
  };

  abstract void write(BenchReport report, Appendable out) throws IOException;
}
