package org.nvimpam.plugin;

import java.util.List;
import java.util.Map;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.strategy.FoldStrategies;
import org.nvimpam.strategy.FoldStrategy;

/**
 * The options the JVM acts on, as sent by lua/nvimpam/core/config.lua (the {@code setup} call). Replaced
 * whole, so that a refresh never sees half of an update.
 */
record Settings(String strategy, boolean genericCards, boolean oneLineFolds, long debounceMs, long notifyLines,
    boolean checks, long maxDiagnostics) {
  /** The defaults of lua/nvimpam/contract.properties, which the Lua side reads too. */
  static final Settings DEFAULTS = new Settings(Contract.option("strategy"), Contract.booleanOption("generic_cards"),
      Contract.booleanOption("one_line_folds"), Contract.longOption("debounce_ms"),
      Contract.longOption("notify_lines"), Contract.booleanOption("checks"), Contract.longOption("max_diagnostics"));

  /** How many problems Neovim shows (the {@code max_diagnostics} option), as an int. */
  int diagnosticsCap() {
    return (int) Math.min(Integer.MAX_VALUE, maxDiagnostics);
  }

  /** The keys of a setup map: the {@code option.*} names of the contract. */
  static final List<String> KEYS = List.of("strategy", "generic_cards", "one_line_folds", "debounce_ms",
      "notify_lines", "checks", "max_diagnostics");

  /**
   * Settings from a setup map; absent keys keep the current value, a bad strategy name or an
   * unknown key throws (a Lua side that disagrees with the contract shows up at once).
   */
  Settings merge(Map<?, ?> m) {
    for (Object key : m.keySet()) {
      if (!KEYS.contains(String.valueOf(key))) {
        throw new IllegalArgumentException("nvimpam: the JVM has no option '" + key + "'; its options: "
            + String.join(", ", KEYS));
      }
    }
    String s = m.get("strategy") instanceof String v ? v : strategy;
    FoldStrategies.byName(s); // validates, with the list of valid names in the message
    return new Settings(s,
        m.get("generic_cards") instanceof Boolean b ? b : genericCards,
        m.get("one_line_folds") instanceof Boolean b ? b : oneLineFolds,
        m.get("debounce_ms") instanceof Number n ? Math.max(0, n.longValue()) : debounceMs,
        m.get("notify_lines") instanceof Number n ? n.longValue() : notifyLines,
        m.get("checks") instanceof Boolean b ? b : checks,
        m.get("max_diagnostics") instanceof Number n ? Math.max(0, n.longValue()) : maxDiagnostics);
  }

  FoldOptions foldOptions() {
    return new FoldOptions(genericCards);
  }

  FoldStrategy newStrategy() {
    return FoldStrategies.byName(strategy);
  }
}
