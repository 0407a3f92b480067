package org.nvimpam.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * lua/nvimpam/contract.properties as the JVM reads it (from the jar's copy of the Neovim side):
 * strategy names, option defaults, the error shape, and Lua's calls and notifications into the
 * JVM, which Lua and Java share.
 */
final class Contract {
  static final String RESOURCE = "/runtime/lua/nvimpam/contract.properties";
  private static final Properties PROPERTIES = load();

  private Contract() {}

  private static Properties load() {
    try (InputStream in = Contract.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the jar has no " + RESOURCE + ": rebuild it with mvn package");
      }
      Properties p = new Properties();
      p.load(in);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + RESOURCE, e);
    }
  }

  static String get(String key) {
    String v = PROPERTIES.getProperty(key);
    if (v == null) {
      throw new IllegalStateException(RESOURCE + " has no " + key);
    }
    return v.trim();
  }

  static List<String> list(String key) {
    return Arrays.stream(get(key).split(",")).map(String::trim).toList();
  }

  /** The keys that start with {@code prefix}, without it, sorted. */
  static java.util.SortedSet<String> names(String prefix) {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String key : PROPERTIES.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        out.add(key.substring(prefix.length()));
      }
    }
    return out;
  }

  static String option(String name) {
    return get("option." + name);
  }

  static boolean booleanOption(String name) {
    return Boolean.parseBoolean(option(name));
  }

  static long longOption(String name) {
    return Long.parseLong(option(name));
  }
}
