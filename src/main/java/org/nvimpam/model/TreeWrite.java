package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the files of a deck's tree go when a headless command writes a new tree (under OUTDIR with
 * their paths relative to the deck's folder, or over themselves with {@code --in-place}), why one
 * cannot go there, and the write itself: every file to a temporary file beside its target, all
 * moved into place only when all are written (a streaming command stages and places them itself,
 * a file at a time). Every headless command that writes a tree shares these.
 */
final class TreeWrite {
  /** A file that cannot be written: its index in the tree and why. */
  record Refusal(int file, String message) {}

  /** Writes one file's new bytes. */
  interface Content {
    void write(int file, OutputStream out) throws IOException;
  }

  private TreeWrite() {}

  /**
   * The target of each of {@code files} (the deck first); the reasons one cannot be written go to
   * {@code refusals} (its target then null); {@code verb}: what {@code --in-place} does to a file
   * outside the deck's folder.
   */
  static List<Path> targets(List<Path> files, Path outDir, boolean inPlace, String verb, List<Refusal> refusals) {
    Path rootDir = files.get(0).getParent();
    Path out = outDir == null ? rootDir : outDir.toAbsolutePath().normalize();
    List<Path> inputs = new ArrayList<>();
    for (Path f : files) inputs.add(real(f));
    List<Path> targets = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path f = files.get(i);
      Path rel = rootDir.relativize(f);
      Path target;
      if (rel.startsWith("..") || rel.isAbsolute()) {
        if (!inPlace) {
          refusals.add(new Refusal(i, f + " lies outside the deck's folder, so it has no place under " + out
              + " (--in-place " + verb + " it where it is)"));
          targets.add(null);
          continue;
        }
        target = f;
      } else {
        target = out.resolve(rel).normalize();
      }
      targets.add(target);
      if (!inPlace && inputs.contains(real(target))) {
        refusals.add(new Refusal(i, target + " is a file of the deck's tree: --in-place is needed to overwrite it"));
        continue;
      }
      String why = unwritable(target);
      if (why != null) refusals.add(new Refusal(i, target + " cannot be written: " + why));
    }
    return targets;
  }

  static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p;
    }
  }

  /** Why {@code target} cannot be written (null: it can): the file, or the first folder of its path that exists. */
  static String unwritable(Path target) {
    if (Files.isDirectory(target)) return "it is a folder";
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(target)) return "no permission to write it";
    Path d = target.getParent();
    while (d != null && !Files.exists(d)) d = d.getParent();
    if (d == null) return "no folder of its path exists";
    if (!Files.isDirectory(d)) return d + " is a file, not a folder";
    if (!Files.isWritable(d)) return "no permission to write in " + d;
    return null;
  }

  /** The temporary file {@code target} is written to first, beside it; {@code tag} names the command. */
  static Path temp(Path target, String tag) {
    return target.resolveSibling("." + target.getFileName() + ".nvimpam-" + tag);
  }

  /**
   * The temporary file of {@code target}, its folders made: those that did not exist go to
   * {@code made} (for {@link #unmake} when the run ends without moving it into place).
   */
  static Path stage(Path target, String tag, List<Path> made) throws IOException {
    for (Path d = target.getParent(); d != null && !Files.exists(d); d = d.getParent()) made.add(d);
    Files.createDirectories(target.getParent());
    return temp(target, tag);
  }

  /** Removes the folders {@link #stage} made, the deepest first, those that hold nothing else. */
  static void unmake(List<Path> made) throws IOException {
    made.sort((x, y) -> y.getNameCount() - x.getNameCount());
    for (Path d : made) {
      try {
        Files.deleteIfExists(d);
      } catch (java.nio.file.DirectoryNotEmptyException e) {
        // a folder that holds something else now: not ours to remove
      }
    }
  }

  /** Gives {@code tmp} the permissions {@code target} has, when it exists. */
  static void keepPermissions(Path target, Path tmp) throws IOException {
    if (!Files.exists(target)) return;
    PosixFileAttributeView from = Files.getFileAttributeView(target, PosixFileAttributeView.class);
    PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
    if (from != null && to != null) to.setPermissions(from.readAttributes().permissions());
  }

  /** Moves written temporary file {@code tmp} into place at {@code target}, with the permissions the target had. */
  static void place(Path tmp, Path target) throws IOException {
    keepPermissions(target, tmp);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Writes every file to a temporary file beside its target, then moves them all into place; the targets written. */
  static List<Path> write(List<Path> targets, String tag, Content content) throws IOException {
    List<Path> temps = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    try {
      for (int i = 0; i < targets.size(); i++) {
        Path target = targets.get(i);
        Files.createDirectories(target.getParent());
        Path tmp = temp(target, tag);
        temps.add(tmp);
        try (OutputStream o = Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
          content.write(i, o);
        }
        keepPermissions(target, tmp);
      }
      for (int i = 0; i < targets.size(); i++) {
        Files.move(temps.get(i), targets.get(i), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        written.add(targets.get(i));
      }
      temps.clear();
    } finally {
      for (Path t : temps) Files.deleteIfExists(t);
    }
    return written;
  }
}
