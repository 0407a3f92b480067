package org.nvimpam.gen;

/**
 * The PART types the generator writes: the ATYPE word, the type-specific lines of FOLDS.md §5.5
 * (with their {@code $#} column comments, which the walker skips), and what the part holds.
 *
 * <p>The numbers of non-comment type lines match §4, so that a PART card ends at its END_PART line
 * both by the END_PART search and by counting. Flags and counts read from columns (the BEAM count in
 * columns 7–11, the TIED/SLINK/ELINK flag in columns 72–81) are 0, so no further lines are due.
 */
enum PartType {
  SHELL("SHELL", ElementType.SHELL, 1.0, 50,
      "$#       H NINT    OFFSETNINTh",
      "        1.    3               ",
      "$#ORTBLANK      XDIR      YDIR      ZDIR",
      "    0                                   "),
  MEMBR("MEMBR", ElementType.MEMBR, 1.0, 3,
      "$#       H NINT",
      "       0.5    1",
      "$#ORTBLANK      XDIR      YDIR      ZDIR",
      "    0"),
  TSHEL("TSHEL", ElementType.TSHEL, 0.8, 3,
      "$#   ISTRAT",
      "         0"),
  SOLID("SOLID", ElementType.SOLID, 0.8, 10,
      "$#   ISINT    ISHG  ISTRAT",
      "       0       0       0",
      "$#   ELFOR",
      "       0"),
  TETRA("TETRA", ElementType.TETR4, 1.5, 8,
      "$#   ISINT    ISHG  ISTRAT",
      "       1       0       0",
      "$#   ELFOR",
      "       0"),
  BSHEL("BSHEL", ElementType.BSHEL, 0.8, 3,
      "$#       H NINT",
      "        2.    3"),
  BEAM("BEAM", ElementType.BEAM, 0.3, 8,
      "$#       A       IYY       IZZ       ILL",
      "       25.      120.      120.      240.",
      "$#     ASY       ASZ",
      "       20.       20.",
      "$#   SECTION",
      "         0",
      "$#   INTEG",
      "         0",
      "$#NPT  NPTS",
      "          0"),
  SPRING("SPRING", ElementType.SPRING, 0.05, 4,
      "$#   IFUNC     STIFF",
      "         0     1000."),
  BAR("BAR", ElementType.BAR, 0.1, 2,
      "$#       A",
      "       10."),
  JOINT("JOINT", ElementType.JOINT, 0.02, 2,
      "$#   IFUNC",
      "         0"),
  PLINK("PLINK", null, 0.05, 4,
      "$#   RSEAR     NLAYR     SPWLG     NGESP    SPOTRA     THETA   IRADBEN",
      "        2.         0        0.         0        0.        5.          "),
  ELINK("ELINK", null, 0.02, 3,
      "$#   IFUNC                                                            IFLAG",
      "         0");

  /** The ATYPE right-aligned in columns 17–24 of the header. */
  final byte[] atypeField;
  /** The element cards of the part; null for link parts, whose link cards carry a GES. */
  final ElementType elements;
  /** Elements per node of the component the part belongs to. */
  final double elementsPerNode;
  /** How often the generator picks this type, relative to the others; shells dominate. */
  final int weight;
  final byte[][] typeLines;

  PartType(String atype, ElementType elements, double elementsPerNode, int weight,
      String... typeLines) {
    this.atypeField = DeckLineWriter.ascii(" ".repeat(8 - atype.length()) + atype);
    this.elements = elements;
    this.elementsPerNode = elementsPerNode;
    this.weight = weight;
    this.typeLines = new byte[typeLines.length][];
    for (int i = 0; i < typeLines.length; i++) this.typeLines[i] = DeckLineWriter.ascii(typeLines[i]);
  }
}
