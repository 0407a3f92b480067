package org.nvimpam.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version Maven wrote into the jar's manifest. */
public final class VersionProvider implements IVersionProvider {
  /** The project version, or "dev" when running from classes outside the jar. */
  public static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"nvimpam " + version(), "Java " + Runtime.version()};
  }
}
