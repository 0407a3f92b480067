package org.nvimpam.ids;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.ProblemCode;

/**
 * Include files read from disk, with the ids they define: read once, read again when their size
 * or modification time changed. A file that cannot be read (missing, a folder, no permission,
 * binary) is remembered with why. Thread-safe: an entry is immutable once made.
 */
public final class IncludeFiles {
  /** Files beyond this are not read (a deck that includes a core dump is no reason to run out of heap). */
  static final long MAX_BYTES = 4L << 30;

  /**
   * One file as last read: its deck, definitions and INCLU lines, or {@code error} saying why it
   * could not be read.
   */
  public record Entry(Path path, long modified, long bytes, Deck deck, DefTable defs, int version,
      List<IncludeLine> includes, Unreadable error) {}

  /** Why a file of the tree cannot be read as a deck, with the code of that problem. */
  public static final class Unreadable extends Exception {
    private final ProblemCode code;

    Unreadable(ProblemCode code, String why) {
      super(why, null, false, false);
      this.code = code;
    }

    public ProblemCode code() {
      return code;
    }
  }

  private final Map<Path, Entry> cache = new ConcurrentHashMap<>();

  /** The file as it is on disk now, read again if it changed; {@code version} when it declares none. */
  public Entry get(Path p, int version) {
    BasicFileAttributes at;
    try {
      at = attributes(p);
    } catch (Unreadable e) {
      cache.remove(p);
      return failed(p, 0, 0, e);
    }
    long mtime = at.lastModifiedTime().toMillis();
    Entry e = cache.get(p);
    if (e != null && e.modified == mtime && e.bytes == at.size() && (e.error != null || e.version == versionOf(e, version))) {
      return e;
    }
    e = read(p, mtime, at.size(), version);
    cache.put(p, e);
    return e;
  }

  /**
   * The attributes of a file that may be a deck: a regular file of at most {@link #MAX_BYTES}, or
   * why it is none (a FIFO would block the read, a core dump would fill the heap).
   */
  public static BasicFileAttributes attributes(Path p) throws Unreadable {
    BasicFileAttributes at;
    try {
      at = Files.readAttributes(p, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new Unreadable(ProblemCode.INCLUDE_MISSING, "not found");
    } catch (IOException | SecurityException e) {
      throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "cannot be read (" + e.getMessage() + ")");
    }
    if (at.isDirectory()) throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "is a folder, not a file");
    if (!at.isRegularFile()) throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "is not a regular file");
    if (at.size() > MAX_BYTES) throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "is too big to read (" + at.size() + " bytes)");
    return at;
  }

  /** {@link #attributes}, then a read of the file's first bytes: binary, or no permission to read. */
  public static BasicFileAttributes readable(Path p) throws Unreadable {
    BasicFileAttributes at = attributes(p);
    try {
      if (binary(p)) throw new Unreadable(ProblemCode.INCLUDE_BINARY, "is a binary file, not a deck");
    } catch (AccessDeniedException e) {
      throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "cannot be read (permission denied)");
    } catch (IOException e) {
      throw new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "cannot be read (" + e.getMessage() + ")");
    }
    return at;
  }

  private static int versionOf(Entry e, int inherited) {
    int own = DeckVersion.declared(e.deck);
    return own > 0 ? own : inherited;
  }

  private static Entry failed(Path p, long mtime, long size, Unreadable why) {
    return new Entry(p, mtime, size, null, null, 0, List.of(), why);
  }

  private static Entry read(Path p, long mtime, long size, int version) {
    try {
      readable(p);
      Deck deck = DeckFile.read(p, (int) Math.min(1 << 20, size / 40 + 16), size);
      int own = DeckVersion.declared(deck);
      int v = own > 0 ? own : version;
      DefTable defs = new DefTable();
      defs.build(deck, v, new IdScanner(CardLayouts.bundled()));
      return new Entry(p, mtime, size, deck, defs, v, IncludeLine.of(deck), null);
    } catch (Unreadable e) {
      return failed(p, mtime, size, e);
    } catch (AccessDeniedException e) {
      return failed(p, mtime, size, new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "cannot be read (permission denied)"));
    } catch (IOException e) {
      return failed(p, mtime, size, new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "cannot be read (" + e.getMessage() + ")"));
    } catch (OutOfMemoryError e) {
      return failed(p, mtime, size, new Unreadable(ProblemCode.INCLUDE_UNREADABLE, "is too big for the JVM's heap"));
    }
  }

  /** A NUL byte in the first 8 KiB: no text file. */
  static boolean binary(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      byte[] b = in.readNBytes(8192);
      for (byte x : b) {
        if (x == 0) return true;
      }
      return false;
    }
  }

  /** Forgets every file (for tests). */
  public void clear() {
    cache.clear();
  }
}
