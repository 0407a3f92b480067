package org.nvimpam.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The directory to put on Neovim's 'runtimepath' so that it finds nvimpam's Lua and VimL side
 * ({@code lua/nvimpam/fold/init.lua}, {@code autoload/nvimpam.vim}).
 *
 * <p>Looked for, in order: the checkout the jar or classes were built in ({@code <root>/target/
 * nvimpam.jar} or {@code <root>/target/classes}); the copy the build put on the class path under
 * {@code runtime/} when that is a directory; else the files of {@code runtime/} in the jar,
 * extracted into a temporary directory that {@link #close} deletes.
 *
 * @param root the directory holding {@code lua/} and {@code autoload/}
 * @param temporary whether {@code root} was extracted and is deleted by {@link #close}
 */
public record PluginRuntime(Path root, boolean temporary) implements AutoCloseable {
  /** Where the build puts the runtime files inside the jar. */
  static final String RESOURCE_DIR = "runtime/";
  /** The file that marks a runtime directory. */
  static final String MARKER = "lua/nvimpam/fold/init.lua";

  /** Finds or extracts the runtime. */
  public static PluginRuntime locate() throws IOException {
    Path codeSource = codeSource();
    if (codeSource != null) {
      // <root>/target/nvimpam.jar or <root>/target/classes
      Path target = codeSource.getParent();
      Path root = target == null ? null : target.getParent();
      if (root != null && Files.isRegularFile(root.resolve(MARKER))) {
        return new PluginRuntime(root, false);
      }
      Path copied = codeSource.resolve(RESOURCE_DIR);
      if (Files.isDirectory(codeSource) && Files.isRegularFile(copied.resolve(MARKER))) {
        return new PluginRuntime(copied, false);
      }
      if (Files.isRegularFile(codeSource)) {
        return extract(codeSource);
      }
    }
    throw new IOException("cannot find nvimpam's Neovim runtime (" + MARKER + ") next to "
        + (codeSource == null ? "the classes" : codeSource) + " nor inside the jar");
  }

  /** The jar or class directory this class was loaded from, or null when unknown. */
  private static Path codeSource() {
    var source = PluginRuntime.class.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return null;
    }
    try {
      return Path.of(source.getLocation().toURI()).toAbsolutePath();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** Copies the jar's {@code runtime/} entries into a new temporary directory. */
  static PluginRuntime extract(Path jar) throws IOException {
    Path dir = Files.createTempDirectory("nvimpam-runtime");
    PluginRuntime runtime = new PluginRuntime(dir, true);
    try (JarFile file = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        JarEntry e = entries.nextElement();
        String name = e.getName();
        if (e.isDirectory() || !name.startsWith(RESOURCE_DIR) || name.contains("..")) {
          continue;
        }
        Path to = dir.resolve(name.substring(RESOURCE_DIR.length()));
        Files.createDirectories(to.getParent());
        try (InputStream in = file.getInputStream(e)) {
          Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      runtime.close();
      throw e;
    }
    if (!Files.isRegularFile(dir.resolve(MARKER))) {
      runtime.close();
      throw new IOException(jar + " holds no " + RESOURCE_DIR + MARKER + "; rebuild it with `mvn package`");
    }
    return runtime;
  }

  /** Deletes an extracted runtime; leaves a checkout alone. */
  @Override
  public void close() {
    if (!temporary) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is not worth failing a finished benchmark for
    }
  }
}
