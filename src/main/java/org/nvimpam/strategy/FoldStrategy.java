package org.nvimpam.strategy;

import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * One way of pushing a fold plan into Neovim. Every strategy produces the same fold tree in every
 * window that shows the buffer, keeps the user's 'foldlevel', view and open folds, installs the
 * fold texts, and on failure clears the partial folds and throws {@link FoldStrategyException}.
 */
public interface FoldStrategy {
  /** The name users select it by, e.g. {@code "lua"}. */
  String name();

  /** Replaces the folds of {@code buffer} with {@code plan}; returns when Neovim has them all. */
  void apply(Nvim nvim, Buffer buffer, FoldPlan plan);
}
