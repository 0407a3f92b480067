package org.nvimpam.gen;

/**
 * The element cards the generator writes: the 8-byte header, how many node ids the header line
 * holds after IDEL and IDPRT, and the node ids on each further line of the card (FOLDS.md §4).
 */
enum ElementType {
  SHELL("SHELL / ", 4),
  MEMBR("MEMBR / ", 4),
  TSHEL("TSHEL / ", 4),
  TETR4("TETR4 / ", 4),
  SOLID("SOLID / ", 0, 8),
  BSHEL("BSHEL / ", 0, 8),
  // The second line is the orientation node, the third the end-release node.
  BEAM("BEAM  / ", 2, 1, 1),
  BAR("BAR   / ", 2),
  SPRING("SPRING/ ", 2),
  JOINT("JOINT / ", 2);

  final byte[] header;
  final int headerNodes;
  final int[] extraLineNodes;

  ElementType(String header, int headerNodes, int... extraLineNodes) {
    this.header = DeckLineWriter.ascii(header);
    this.headerNodes = headerNodes;
    this.extraLineNodes = extraLineNodes;
  }
}
