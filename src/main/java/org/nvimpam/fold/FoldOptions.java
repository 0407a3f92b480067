package org.nvimpam.fold;

/**
 * How folds are computed (FOLDS.md §1).
 *
 * @param genericCards true for generic mode (unknown card headers start folds, the default); false
 *     for compatible mode (the fold set of the earlier Rust plugin nvimpam, with fixes D3–D7)
 */
public record FoldOptions(boolean genericCards) {
  public static final FoldOptions GENERIC = new FoldOptions(true);
  public static final FoldOptions COMPATIBLE = new FoldOptions(false);
}
