package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
  /** A command line made with one subcommand only tells its usage as the whole one does. */
  @Test
  void oneSubcommandHelpsAsTheWholeCommandLine() {
    Map<String, CommandLine> all = new CommandLine(Main.class).getSubcommands();
    int seen = 0;
    for (Map.Entry<String, CommandLine> e : all.entrySet()) {
      if (e.getKey().equals("help")) {
        assertNull(Main.only("help"), "help lists every subcommand: the whole command line");
        continue;
      }
      CommandLine one = Main.only(e.getKey());
      assertNotNull(one, e.getKey());
      assertEquals(1, one.getSubcommands().size(), e.getKey());
      assertEquals(e.getValue().getUsageMessage(), one.getSubcommands().get(e.getKey()).getUsageMessage(), e.getKey());
      assertEquals(e.getValue().getCommandSpec().qualifiedName(), one.getSubcommands().get(e.getKey()).getCommandSpec().qualifiedName());
      seen++;
    }
    assertEquals(all.size() - 1, seen);
    assertNull(Main.only("--help"));
    assertNull(Main.only("nosuch"));
  }

  @Test
  void aSubcommandsUsageErrorIsStillTwo() {
    CliRun r = CliRun.of("check", "--bogus");
    assertEquals(2, r.code());
    assertEquals(true, r.err().contains("Usage: nvimpam check"), r.err());
  }
}
