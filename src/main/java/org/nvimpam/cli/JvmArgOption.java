package org.nvimpam.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --jvm-arg ARG}, the plugin's {@code jvm_args}: declared once for every command that calls setup{}. */
final class JvmArgOption {
  @Option(names = "--jvm-arg", paramLabel = "ARG", description = "A jvm_args entry for setup{}; repeatable.")
  List<String> args = new ArrayList<>();
}
