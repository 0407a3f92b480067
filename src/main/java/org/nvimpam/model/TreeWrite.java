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
 * moved into place only when all are written.
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
   * {@code refusals} (its target then null).
   */
  static List<Path> targets(List<Path> files, Path outDir, boolean inPlace, List<Refusal> refusals) {
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
              + " (--in-place writes it where it is)"));
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

  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p;
    }
  }

  /** Why {@code target} cannot be written (null: it can): the file, or the first folder of its path that exists. */
  private static String unwritable(Path target) {
    if (Files.isDirectory(target)) return "it is a folder";
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(target)) return "no permission to write it";
    Path d = target.getParent();
    while (d != null && !Files.exists(d)) d = d.getParent();
    if (d == null) return "no folder of its path exists";
    if (!Files.isDirectory(d)) return d + " is a file, not a folder";
    if (!Files.isWritable(d)) return "no permission to write in " + d;
    return null;
  }

  /** Writes every file to a temporary file beside its target, then moves them all into place; the targets written. */
  static List<Path> write(List<Path> targets, String tag, Content content) throws IOException {
    List<Path> temps = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    try {
      for (int i = 0; i < targets.size(); i++) {
        Path target = targets.get(i);
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling("." + target.getFileName() + ".nvimpam-" + tag);
        temps.add(tmp);
        try (OutputStream o = Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
          content.write(i, o);
        }
        if (Files.exists(target)) {
          PosixFileAttributeView from = Files.getFileAttributeView(target, PosixFileAttributeView.class);
          PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
          if (from != null && to != null) to.setPermissions(from.readAttributes().permissions());
        }
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
