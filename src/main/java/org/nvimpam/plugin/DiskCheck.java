package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.deck.Deck;
import org.nvimpam.nvim.FileStamp;
import org.nvimpam.nvim.LuaEntry;

/**
 * A buffer's state as {@link LuaEntry#FILESTATE_CHECK} reports it, in one request: its
 * size, and either why its file may not stand in for it, or the file and sample lines (raw
 * bytes) to verify a read of the file against.
 */
record DiskCheck(int lines, long bytes, String refused, String path, long size, boolean eol, int[] at,
    byte[][] samples, FileStamp stamp, boolean dos) {
  /** First, last and lines spread between: enough to catch a file that is not the buffer. */
  static final int SAMPLES = 32;

  static DiskCheck read(MessageUnpacker in) throws IOException {
    int n = in.unpackArrayHeader();
    if (n < 3) throw new IOException("a buffer state of " + n + " values");
    int lines = Math.toIntExact(in.unpackLong());
    long bytes = in.unpackLong();
    String refused = in.tryUnpackNil() ? null : in.unpackString();
    if (refused != null || n < 8) {
      for (int i = 3; i < n; i++) in.skipValue();
      return new DiskCheck(lines, bytes, refused != null ? refused : "no file state", null, 0, false, new int[0],
          new byte[0][], null, false);
    }
    String path = new String(in.readPayload(in.unpackRawStringHeader()), StandardCharsets.UTF_8);
    long size = in.unpackLong();
    boolean eol = in.unpackBoolean();
    int k = in.unpackArrayHeader();
    int[] at = new int[k];
    for (int i = 0; i < k; i++) at[i] = in.unpackInt();
    int m = in.unpackArrayHeader();
    byte[][] samples = new byte[m][];
    for (int i = 0; i < m; i++) samples[i] = in.readPayload(in.unpackRawStringHeader());
    FileStamp stamp = null;
    boolean dos = false;
    if (n >= 12) {
      stamp = new FileStamp(size, in.unpackLong(), in.unpackLong(), in.unpackLong());
      dos = in.unpackBoolean();
    }
    for (int i = 12; i < n; i++) in.skipValue();
    return new DiskCheck(lines, bytes, null, path, size, eol, at, samples, stamp, dos);
  }

  /** Why a deck read from the file is not the buffer's text, or null when it is. */
  String differs(Deck d) {
    if (d.lineCount() != lines) return "the file has " + d.lineCount() + " lines, the buffer " + lines;
    long withNewlines = d.byteSize() + lines; // nvim_buf_get_offset counts the last one if it would be written
    if (withNewlines != bytes && withNewlines - 1 != bytes) {
      return "the file has " + withNewlines + " bytes with newlines, the buffer " + bytes;
    }
    for (int i = 0; i < at.length && i < samples.length; i++) {
      if (at[i] < 0 || at[i] >= lines || !Arrays.equals(d.line(at[i]), samples[i])) {
        return "line " + (at[i] + 1) + " differs from the file";
      }
    }
    return null;
  }
}
