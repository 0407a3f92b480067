package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.nvimpam.nvim.ApiInfo;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * call-atomic is made of nvim_call_atomic, deprecated since Neovim 0.10: the JVM reads from the
 * API info whether the connected Neovim still serves it, and if not says what to choose instead.
 */
class CallAtomicAvailabilityTest extends SharedNvimTestBase {
  @Test
  void theApiInfoKnowsTheFunctionsNeovimItselfLists() {
    ApiInfo info = nvim.apiInfo();
    Object listed = nvim.execLua("for _, f in ipairs(vim.fn.api_info().functions) do "
        + "if f.name == 'nvim_call_atomic' then return true end end return false", out -> out.packArrayHeader(0)).join();

    assertEquals(listed, info.hasFunction("nvim_call_atomic"));
    assertTrue(info.hasFunction("nvim_get_api_info"));
    assertEquals(false, info.hasFunction("nvim_no_such_function"));
  }

  @Test
  void aNeovimThatServesNvimCallAtomicCanRunIt() {
    assumeTrue(nvim.apiInfo().hasFunction("nvim_call_atomic"), "this Neovim has no nvim_call_atomic");
    assertNull(CallAtomicStrategy.unavailableIn(nvim.apiInfo()));
  }

  @Test
  void withoutNvimCallAtomicTheErrorNamesTheVersionAndTheAlternatives() {
    ApiInfo later = new ApiInfo(1, 1, 0, 0, 99, ExtTypes.STANDARD, Set.of("nvim_command", "nvim_exec_lua"));

    String why = CallAtomicStrategy.unavailableIn(later);

    for (String part : List.of("Neovim 1.0.0", "nvim_call_atomic", ":NvimpamFoldStrategy lua", "pipe")) {
      assertTrue(why.contains(part), part + " in: " + why);
    }
  }
}
