package org.nvimpam.nvim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;

/**
 * What tells one state of a file from another without reading it: its size, modification time
 * (to the nanosecond, as Neovim's libuv reports it) and inode. Two reads of a file with equal
 * stamps read the same bytes, short of a writer that restores all three.
 */
public record FileStamp(long size, long mtimeSec, long mtimeNsec, long inode) {
  /** The stamp of {@code file} now. */
  public static FileStamp of(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    Instant m = a.lastModifiedTime().toInstant();
    return new FileStamp(a.size(), m.getEpochSecond(), m.getNano(), inode(a.fileKey()));
  }

  /** The inode of a Unix file key, {@code (dev=…,ino=N)}; -1 where the platform has none. */
  private static long inode(Object key) {
    if (key == null) return -1;
    String k = key.toString();
    int i = k.indexOf("ino=");
    if (i < 0) return -1;
    long v = 0;
    for (int j = i + 4; j < k.length() && Character.isDigit(k.charAt(j)); j++) v = v * 10 + (k.charAt(j) - '0');
    return v;
  }

  /** Whether both stamps describe the same state; an unknown inode matches any. */
  public boolean sameAs(FileStamp o) {
    return o != null && size == o.size && mtimeSec == o.mtimeSec && mtimeNsec == o.mtimeNsec
        && (inode < 0 || o.inode < 0 || inode == o.inode);
  }
}
