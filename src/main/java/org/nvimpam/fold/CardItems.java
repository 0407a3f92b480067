package org.nvimpam.fold;

import org.nvimpam.deck.Keywords;

/**
 * The lines each known keyword takes after its header (FOLDS.md §4), as a small program of item
 * opcodes that {@link CardWalker} runs. Opcodes with a column range are followed by its byte bounds
 * {@code from, to} (columns from+1 … to).
 */
final class CardItems {
  private CardItems() {}

  /** One ordinary line (also NAME lines). */
  static final int L = 0;
  /** One line that sets flag c = (column 81 is {@code &}). */
  static final int L_SET_C_AMP81 = 1;
  /** One line, only when flag c is set. */
  static final int L_IF_C = 2;
  /** One line that sets flag c = (number in the column range equals 1); two operands. */
  static final int L_SET_C_EQ1 = 3;
  /** One line that sets the count n from the column range; two operands. */
  static final int L_SET_N = 4;
  /** Up to n lines. */
  static final int N_LINES = 5;
  /** A General Entity Selection (§5.3). */
  static final int GES = 6;
  /** The OTMCO block (§5.6). */
  static final int OTMCO_BLOCK = 7;
  /** The optional GROUP META block (§5.7). */
  static final int META_BLOCK = 8;

  private static final int[][] PROGRAMS = new int[Keywords.COUNT][];

  static {
    for (int id = 0; id < Keywords.COUNT; id++) PROGRAMS[id] = build(Keywords.name(id));
  }

  static int[] program(int id) {
    return PROGRAMS[id];
  }

  private static int[] build(String name) {
    if (name.startsWith("Part")) {
      // §5.5: [RMAT if IDMAT = 0], NAME, DTELIM row, TCONT row, type-specific lines, END_PART line.
      int[] specific = partSpecific(name);
      int[] p = new int[4 + specific.length + 1];
      p[0] = L_IF_C;
      p[1] = L;
      p[2] = L;
      p[3] = L;
      System.arraycopy(specific, 0, p, 4, specific.length);
      p[p.length - 1] = L;
      return p;
    }
    return switch (name) {
      case "Node", "Cnode", "Penta6", "Tetr4", "Tshel", "Shell", "Shel6", "Membr", "Sprgbm", "Bar",
          "Spring", "Joint", "Sphel", "Sphelo", "Gap" -> new int[] {};
      case "Solid", "Bshel", "Shel8", "Kjoin", "Mtojnt" -> new int[] {L};
      case "Pent15", "Tetr10", "Beam" -> new int[] {L, L};
      case "Hexa20" -> new int[] {L, L, L};
      case "Impma" -> new int[] {L, L};
      case "Mass" -> new int[] {L, L, L_SET_C_AMP81, L_IF_C, GES};
      case "Nsmas", "Nsmas2", "Rbody0" -> new int[] {L, GES};
      case "Elink", "Llink", "Slink", "Plink" -> new int[] {GES};
      case "Tied" -> new int[] {L, GES, GES};
      case "Mtoco" -> new int[] {L, L_IF_C, GES}; // c comes from the header, columns 42-49
      case "Otmco" -> new int[] {L, OTMCO_BLOCK};
      case "Rbody1", "Rbody2", "Rbody3" -> new int[] {L, L, GES};
      case "Group" -> new int[] {META_BLOCK, GES};
      default -> throw new IllegalStateException("no items for keyword " + name);
    };
  }

  private static int[] partSpecific(String name) {
    return switch (name) {
      case "PartSolid", "PartTetra", "PartShell", "PartMembr" -> new int[] {L, L};
      case "PartBshel", "PartCos3d", "PartTshel" -> new int[] {L};
      case "PartSphel" -> new int[] {L_SET_N, 46, 51, N_LINES};
      case "PartBeam" -> new int[] {L, L, L, L, L_SET_N, 6, 11, N_LINES};
      case "PartTied", "PartSlink", "PartElink" -> new int[] {L_SET_C_EQ1, 71, 81, L_IF_C};
      case "PartBar", "PartSpring", "PartSprgbm", "PartMbspr", "PartJoint", "PartKjoin",
          "PartMbkjn", "PartMtojnt", "PartLlink", "PartPlink", "PartGap" -> new int[] {L};
      default -> throw new IllegalStateException("no items for keyword " + name);
    };
  }
}
