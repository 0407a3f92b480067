package org.nvimpam.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * lua/nvimpam/contract.properties as the JVM reads it (from the jar's copy of the Neovim side):
 * strategy names, option defaults and the error shape that Lua and Java share.
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
