package org.nvimpam.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.nvimpam.ids.IncludeFiles;

/** What the commands that write a tree need to know of its files before they read their lines. */
public final class FileBytes {
  private FileBytes() {}

  /** The size of {@code p}, once {@link IncludeFiles#attributes} finds it readable; why not, thrown. */
  static long size(Path p) throws IOException {
    try {
      return IncludeFiles.attributes(p).size();
    } catch (IncludeFiles.Unreadable e) {
      throw new IOException(p + " " + e.getMessage());
    }
  }

  /**
   * Whether the last of the {@code size} bytes of {@code p} is a line feed (an empty file counts
   * as ended): a last line without one is written back without one.
   */
  public static boolean lastTerminated(Path p, long size) throws IOException {
    if (size <= 0) return true;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, size - 1);
      return b.get(0) == '\n';
    }
  }
}
