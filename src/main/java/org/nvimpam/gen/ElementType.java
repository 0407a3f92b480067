package org.nvimpam.gen;

/**
 * The element cards the generator writes: the 8-byte header, how many node ids the header line
 * holds after IDEL and IDPRT, the node ids on each further line of the card (FOLDS.md §4), and the
 * blanks before them (SOLID and BSHEL list their eight nodes from column 17, as the card-layout
 * table says).
 */
enum ElementType {
  SHELL("SHELL / ", 4),
  MEMBR("MEMBR / ", 4),
  TSHEL("TSHEL / ", 4),
  TETR4("TETR4 / ", 4),
  SOLID("SOLID / ", 16, 0, 8),
  BSHEL("BSHEL / ", 16, 0, 8),
  // The second line is the orientation node, the third the end-release node.
  BEAM("BEAM  / ", 8, 2, 1, 1),
  BAR("BAR   / ", 2),
  SPRING("SPRING/ ", 2),
  JOINT("JOINT / ", 2);

  final byte[] header;
  final int headerNodes;
  final int extraLineIndent;
  final int[] extraLineNodes;

  ElementType(String header, int headerNodes) {
    this(header, 0, headerNodes);
  }

  ElementType(String header, int extraLineIndent, int headerNodes, int... extraLineNodes) {
    this.header = DeckLineWriter.ascii(header);
    this.headerNodes = headerNodes;
    this.extraLineIndent = extraLineIndent;
    this.extraLineNodes = extraLineNodes;
  }
}
