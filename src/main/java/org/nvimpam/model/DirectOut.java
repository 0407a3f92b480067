package org.nvimpam.model;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A new file written through one reused buffer in block-aligned writes that pass the page cache by
 * (direct I/O), where the file system takes them; elsewhere in plain writes. Writing a 600 MB deck
 * through the cache costs the kernel a copy into as many freshly allocated pages: most of the
 * system time of a streamed renumber. The last part of a block is written plainly.
 */
final class DirectOut extends OutputStream {
  private static final int BUFFER = 8 << 20; // a multiple of any block size direct writes take
  private final Path path;
  private final ByteBuffer buf;
  private final int block; // 0: plain writes
  private FileChannel ch;
  private long written;

  DirectOut(Path path) throws IOException {
    this(path, true);
  }

  /** With {@code tryDirect} false, plain writes only. */
  DirectOut(Path path, boolean tryDirect) throws IOException {
    this.path = path;
    FileChannel c = null;
    int b = 0;
    try {
      long size = tryDirect ? Files.getFileStore(path.getParent()).getBlockSize() : 0;
      if (size > 0 && size <= BUFFER && Long.bitCount(size) == 1) {
        c = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
            ExtendedOpenOption.DIRECT);
        b = (int) size;
      }
    } catch (IOException | UnsupportedOperationException e) {
      // no direct writes here (tmpfs, some network file systems): plain ones; a real failure comes again below
    }
    if (c == null) c = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    ch = c;
    block = b;
    buf = ByteBuffer.allocateDirect(BUFFER + Math.max(b, 1)).alignedSlice(Math.max(b, 1)).limit(BUFFER);
  }

  @Override
  public void write(int b) throws IOException {
    if (!buf.hasRemaining()) drain();
    buf.put((byte) b);
  }

  @Override
  public void write(byte[] a, int off, int n) throws IOException {
    while (n > 0) {
      if (!buf.hasRemaining()) drain();
      int k = Math.min(n, buf.remaining());
      buf.put(a, off, k);
      off += k;
      n -= k;
    }
  }

  /** Writes the full buffer. */
  private void drain() throws IOException {
    buf.flip();
    while (buf.hasRemaining()) written += ch.write(buf);
    buf.clear();
  }

  @Override
  public void close() throws IOException {
    if (ch == null) return;
    try {
      buf.flip();
      int end = buf.limit();
      if (block > 0) { // the whole blocks directly, the rest plainly
        buf.limit(end / block * block);
        while (buf.hasRemaining()) written += ch.write(buf);
        buf.limit(end);
        if (buf.hasRemaining()) {
          ch.close();
          ch = FileChannel.open(path, StandardOpenOption.WRITE);
        }
      }
      while (buf.hasRemaining()) written += ch.write(buf, written);
    } finally {
      ch.close();
      ch = null;
    }
  }
}
