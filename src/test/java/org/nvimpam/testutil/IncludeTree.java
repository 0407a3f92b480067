package org.nvimpam.testutil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The include tree the tests of the tree commands share, written to disk: main.pc includes a.inc,
 * which includes b.inc (each test gives the lines of each file; a tree of two files has no
 * b.inc), each file its lines with a newline after each.
 */
public final class IncludeTree {
  private static final List<String> NAMES = List.of("main.pc", "a.inc", "b.inc");

  public final Path main;
  public final Path a;
  public final Path b; // null in a tree of two files
  private final List<Path> files = new ArrayList<>();
  private final List<byte[]> bytes = new ArrayList<>();

  private IncludeTree(Path dir, String[][] lines) throws IOException {
    if (lines.length < 2 || lines.length > NAMES.size()) throw new IllegalArgumentException("a tree of 2 or 3 files: " + lines.length);
    for (int i = 0; i < lines.length; i++) {
      Path p = dir.resolve(NAMES.get(i));
      byte[] d = deck(lines[i]);
      Files.write(p, d);
      files.add(p);
      bytes.add(d);
    }
    main = files.get(0);
    a = files.get(1);
    b = files.size() > 2 ? files.get(2) : null;
  }

  /** Writes the tree into {@code dir}: the lines of main.pc, of a.inc and (when given) of b.inc. */
  public static IncludeTree write(Path dir, String[]... lines) throws IOException {
    return new IncludeTree(dir, lines);
  }

  /** A file of {@code lines}, each with a newline. */
  public static byte[] deck(String... lines) {
    return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Asserts every file of the tree holds the bytes written: nothing was written behind the user's back. */
  public void assertOnDisk() throws IOException {
    for (int i = 0; i < files.size(); i++) assertArrayEquals(bytes.get(i), Files.readAllBytes(files.get(i)), files.get(i).toString());
  }
}
