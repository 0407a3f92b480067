package org.nvimpam.strategy;

import java.util.List;

/** The strategies by name: the one place that knows them all. */
public final class FoldStrategies {
  /** The fastest strategy on the benchmark (see README), used when none is configured. */
  public static final String DEFAULT = LuaStrategy.NAME;

  private static final List<String> NAMES = List.of(
      NotifiedCommandsStrategy.PER_COMMAND, CallAtomicStrategy.NAME, NotifiedCommandsStrategy.PIPE, LuaStrategy.NAME, VimlStrategy.NAME);

  private FoldStrategies() {}

  /** Every strategy name, in the order users see them listed. */
  public static List<String> names() {
    return NAMES;
  }

  /** The default size of a strategy that has one ({@link #withSize}), e.g. for peers to use too. */
  public static int defaultSize(String name) {
    return switch (name == null ? "" : name.trim()) {
      case NotifiedCommandsStrategy.PIPE -> NotifiedCommandsStrategy.DEFAULT_CHUNK;
      case CallAtomicStrategy.NAME -> CallAtomicStrategy.DEFAULT_BATCH;
      case LuaStrategy.NAME, VimlStrategy.NAME -> SingleCallStrategy.DEFAULT_PER_LINE;
      default -> throw noSize(name);
    };
  }

  /**
   * A strategy with another size than its default, for tuning it with a sweep: pipe, lua and viml
   * have folds per command line, call-atomic folds per call.
   *
   * @throws IllegalArgumentException for a strategy without a size, or a size below 1
   */
  public static FoldStrategy withSize(String name, int size) {
    return switch (name == null ? "" : name.trim()) {
      case NotifiedCommandsStrategy.PIPE -> new NotifiedCommandsStrategy(NotifiedCommandsStrategy.PIPE, size);
      case CallAtomicStrategy.NAME -> new CallAtomicStrategy(size);
      case LuaStrategy.NAME -> new LuaStrategy(size);
      case VimlStrategy.NAME -> new VimlStrategy(size);
      default -> throw noSize(name);
    };
  }

  private static IllegalArgumentException noSize(String name) {
    return new IllegalArgumentException("only " + String.join(", ", NotifiedCommandsStrategy.PIPE, CallAtomicStrategy.NAME,
        LuaStrategy.NAME, VimlStrategy.NAME) + " have a size; got '" + name + "'");
  }

  /**
   * A new strategy instance for a name.
   *
   * @throws IllegalArgumentException for an unknown name; the message lists the valid ones
   */
  public static FoldStrategy byName(String name) {
    return switch (name == null ? "" : name.trim()) {
      case NotifiedCommandsStrategy.PER_COMMAND -> new NotifiedCommandsStrategy(NotifiedCommandsStrategy.PER_COMMAND, 1);
      case CallAtomicStrategy.NAME -> new CallAtomicStrategy(CallAtomicStrategy.DEFAULT_BATCH);
      case NotifiedCommandsStrategy.PIPE -> new NotifiedCommandsStrategy(NotifiedCommandsStrategy.PIPE,
          NotifiedCommandsStrategy.DEFAULT_CHUNK);
      case LuaStrategy.NAME -> new LuaStrategy(SingleCallStrategy.DEFAULT_PER_LINE);
      case VimlStrategy.NAME -> new VimlStrategy(SingleCallStrategy.DEFAULT_PER_LINE);
      default -> throw new IllegalArgumentException(
          "unknown fold strategy '" + name + "'; valid names: " + String.join(", ", NAMES));
    };
  }
}
