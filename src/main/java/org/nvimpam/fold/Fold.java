package org.nvimpam.fold;

/**
 * One fold as Neovim sees it: lines {@code start..end}, 1-based and inclusive, its level (1 or 2)
 * and its fold text (FOLDS.md §9).
 */
public record Fold(int start, int end, int level, String text) {}
