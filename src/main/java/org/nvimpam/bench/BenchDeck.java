package org.nvimpam.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.nvimpam.gen.DeckGenerator;

/**
 * A deck to benchmark: a name for the report and its bytes, made only when the deck's turn comes,
 * so that a run over several large synthetic decks holds one at a time.
 *
 * @param name the deck's name in the report
 * @param content makes the deck's bytes
 */
public record BenchDeck(String name, Content content) {
  /** Seed of the realistic decks of {@link #lines}: the same deck in every run and on every machine. */
  public static final long SEED = 1;
  /** The example deck shipped in the jar. */
  public static final String EXAMPLE_RESOURCE = "/decks/example.pc";

  /** Makes a deck's bytes. */
  @FunctionalInterface
  public interface Content {
    byte[] bytes() throws IOException;
  }

  public BenchDeck {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(content, "content");
  }

  public byte[] bytes() throws IOException {
    return content.bytes();
  }

  /** The example deck shipped as a resource. */
  public static BenchDeck example() {
    return new BenchDeck("example.pc", () -> {
      try (InputStream in = BenchDeck.class.getResourceAsStream(EXAMPLE_RESOURCE)) {
        if (in == null) {
          throw new IOException("resource " + EXAMPLE_RESOURCE + " is missing from the class path");
        }
        return in.readAllBytes();
      }
    });
  }

  /** A synthetic deck with exactly {@code folds} folds ({@link DeckGenerator#foldCountDeck}). */
  public static BenchDeck folds(int folds) {
    return new BenchDeck(folds + " folds", () -> DeckGenerator.foldCountDeck(folds));
  }

  /** A realistic synthetic deck of {@code lines} lines ({@link DeckGenerator#generate}, seed {@link #SEED}). */
  public static BenchDeck lines(int lines) {
    return new BenchDeck(lines + " lines", () -> new DeckGenerator(SEED).generate(lines));
  }

  /** A deck file, named by its file name. */
  public static BenchDeck file(Path file) {
    Path name = file.getFileName();
    return new BenchDeck(name == null ? file.toString() : name.toString(), () -> Files.readAllBytes(file));
  }
}
