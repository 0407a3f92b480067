package org.nvimpam.plugin;

/**
 * The project version Maven wrote into the jar's manifest. It lives here, below cli, because the
 * host reports it too (:NvimpamFoldInfo) and must not depend on the command line.
 */
public final class Version {
  private Version() {}

  /** The project version, or "dev" when running from classes outside the jar. */
  public static String current() {
    String v = Version.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
