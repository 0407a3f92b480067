package org.nvimpam.gen;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.LineBytes;

/**
 * A generated deck split over include files: the deck's lines are cut into {@code includes + 1}
 * parts at card header lines; the first part stays in the main file, each other part goes to
 * {@code NAME_k.inc} next to it, and the main file gets an {@code INCLU / NAME_k.inc} line where
 * that part was. The ids stay consistent across the files (elements in one name nodes of another),
 * as in a model split by subassembly. The line count grows by the INCLU lines.
 */
public final class IncludeSplit {
  private IncludeSplit() {}

  /** Writes the deck of {@code generator} with {@code lines} lines as {@code main} and its include files; returns them. */
  public static List<Path> write(DeckGenerator generator, long lines, Path main, int includes) throws IOException {
    Path whole = main.resolveSibling(main.getFileName() + ".whole");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(whole), 1 << 16)) {
      generator.write(out, lines);
    }
    String base = main.getFileName().toString();
    int dot = base.lastIndexOf('.');
    if (dot > 0) base = base.substring(0, dot);
    List<Path> files = new ArrayList<>();
    files.add(main);
    OutputStream mainOut = new BufferedOutputStream(Files.newOutputStream(main), 1 << 16);
    OutputStream out = mainOut;
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(whole), 1 << 16)) {
      byte[] line = new byte[256];
      long n = 0;
      int part = 0;
      while (true) {
        int len = 0;
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
          if (len == line.length) line = java.util.Arrays.copyOf(line, len * 2);
          line[len++] = (byte) b;
        }
        if (b < 0 && len == 0) break;
        if (part < includes && n >= lines * (part + 1) / (includes + 1) && LineBytes.headerWord(line, 0, len) != 0) {
          part++;
          String name = base + "_" + part + ".inc";
          Path inc = main.resolveSibling(name);
          files.add(inc);
          mainOut.write(("INCLU / " + name + "\n").getBytes(StandardCharsets.US_ASCII));
          if (out != mainOut) out.close();
          out = new BufferedOutputStream(Files.newOutputStream(inc), 1 << 16);
        }
        out.write(line, 0, len);
        out.write('\n');
        n++;
        if (b < 0) break;
      }
    } finally {
      if (out != mainOut) out.close();
      mainOut.close();
      Files.deleteIfExists(whole);
    }
    return files;
  }
}
