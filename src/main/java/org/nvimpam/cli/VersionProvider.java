package org.nvimpam.cli;

import org.nvimpam.plugin.Version;
import picocli.CommandLine.IVersionProvider;

/** What {@code --version} prints. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"nvimpam " + Version.current(), "Java " + Runtime.version()};
  }
}
