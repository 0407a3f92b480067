package org.nvimpam.nvim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;

/**
 * What tells one state of a file from another without reading it: its size, modification time
 * (to the nanosecond, as Neovim's libuv reports it) and inode. Two reads of a file with equal
 * stamps read the same bytes, short of a writer that restores all three.
 */
public record FileStamp(long size, long mtimeSec, long mtimeNsec, long inode) {
  /** The stamp of {@code file} now; the inode -1 where the file system has no Unix attributes. */
  public static FileStamp of(Path file) throws IOException {
    try {
      Map<String, Object> a = Files.readAttributes(file, "unix:size,lastModifiedTime,ino");
      return stamp((Long) a.get("size"), (FileTime) a.get("lastModifiedTime"), (Long) a.get("ino"));
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return stamp(a.size(), a.lastModifiedTime(), -1);
    }
  }

  private static FileStamp stamp(long size, FileTime mtime, long inode) {
    Instant m = mtime.toInstant();
    return new FileStamp(size, m.getEpochSecond(), m.getNano(), inode);
  }

  /** Whether both stamps describe the same state; an unknown inode matches any. */
  public boolean sameAs(FileStamp o) {
    return o != null && size == o.size && mtimeSec == o.mtimeSec && mtimeNsec == o.mtimeNsec
        && (inode < 0 || o.inode < 0 || inode == o.inode);
  }
}
