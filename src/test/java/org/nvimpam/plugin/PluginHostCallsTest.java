package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The JVM serves exactly the calls and notifications that contract.properties declares for Lua
 * (ContractIT checks the Lua side against the same declaration).
 */
class PluginHostCallsTest {

  @Test
  void theJvmServesEveryDeclaredCallAndNoOther() {
    assertEquals(Contract.names("call."), new TreeSet<>(PluginHost.CALLS.keySet()));
  }

  @Test
  void theJvmHandlesEveryDeclaredNotificationAndNoOther() {
    assertEquals(Contract.names("notify."), new TreeSet<>(PluginHost.NOTIFICATIONS.keySet()));
  }
}
