package org.nvimpam.gen;

import static org.nvimpam.gen.DeckLineWriter.ascii;

import java.io.IOException;

/**
 * Writes the cards of a PAM-CRASH deck in the fixed 8- and 16-column layout of real decks
 * (FOLDS.md §3–§6), one card at a time through a {@link DeckLineWriter}.
 *
 * <p>Every method writes one whole card (or comment block) and returns false, writing nothing, when
 * it does not fit into the remaining line budget. Ids must stay below 10,000,000 so that each fits
 * its 8-column field with a blank in front, which GES selection lines need (§5.3).
 */
final class CardWriter {
  private static final byte[] DASHES =
      ascii("$----------------------------------------------------------------");
  private static final byte[] BANNER_INDENT = ascii("$     ");
  private static final byte[] NAME = ascii("NAME ");
  private static final byte[] TITLE_COMMENT = ascii(
      "$#                                                                         TITLE");
  private static final byte[] NODE = ascii("NODE  / ");
  private static final byte[] SELECTION_INDENT = ascii("        ");
  private static final byte[] GES_END = ascii("        END");
  private static final byte[] END_PART = ascii("END_PART");
  private static final byte[] PART = ascii("PART  / ");
  private static final byte[] PART_COLUMNS =
      ascii("$#         IDPRT   ATYPE   IDMAT IDVAMAT IDTHMAT  IDPMAT");
  private static final byte[] PART_ZEROS = ascii("       0       0       0");
  private static final byte[] DTELIM_COMMENT = ascii("$#  DTELIM    TSCALF");
  private static final byte[] DTELIM_ROW = ascii("        0.          ");
  private static final byte[] TCONT_COMMENT = ascii("$#   TCONT    EPSINI  COULFRIC");
  private static final byte[] TCONT_ROW = ascii("                              ");
  private static final byte[] EMPTY_COMMENT = ascii("$#");
  private static final byte[] RBODY = ascii("RBODY / ");
  private static final byte[] RBODY_COLUMNS = ascii(
      "$#          IDRB   BLANK    ITRBIDNODcog  IDNOD1  IDNOD2   ISENS    IFRA     HRB");
  private static final byte[] RBODY_INERTIA_COMMENT =
      ascii("$# IT3FL     Mrb      I1      I2      I3");
  private static final byte[] RBODY_INERTIA = ascii("       0     10.   0.001   0.001   0.001");
  private static final byte[] GROUP = ascii("GROUP / ");
  private static final byte[] META = ascii("META");
  private static final byte[] META_OWNER = ascii("  owner = body in white");
  private static final byte[] END_META = ascii("END_META");
  private static final byte[] MASS = ascii("MASS  / ");
  private static final byte[] MASS_COLUMNS = ascii("$#         IDNOD    IFRA   Xtran   Ytran   Ztran");
  private static final byte[] MASS_ROW_1 = ascii("$#            MX              MY              MZ");
  private static final byte[] MASS_ROW_2 = ascii("$#            IX              IY              IZ");
  private static final byte[] NSMAS = ascii("NSMAS / ");
  private static final byte[] NSMAS_COLUMNS = ascii("$#        IDNSM            MASS  MLEN    MTYP");
  private static final byte[] MATER = ascii("MATER / ");
  private static final byte[] MATER_COLUMNS =
      ascii("$#         IDMAT   MATYP             RHO   ISINT    ISHG  ISTRAT   IFROZ");
  private static final byte[] MATER_ZEROS = ascii("       0       0       0       0");
  private static final byte[] MATER_QVM_COMMENT = ascii(
      "$# BLANK                                                     QVM   THDID   IDMPD");
  private static final byte[] MATER_QVM_ROW = ascii(
      "                                                              1.       0       0");
  private static final byte[] MATER_ELASTIC_COMMENT =
      ascii("$#       E    SIGMAy        NU     ALPHA       HGM       HGW       HGQ        As");
  private static final byte[] MATER_ELASTIC_ROW =
      ascii("      210.       0.2       0.3                0.01      0.01      0.01      0.83");
  private static final byte[] THIC_ROW = ascii("THIC             0.9");
  private static final byte[] END_MATER = ascii("END_MATER");
  private static final byte[] CNTAC = ascii("CNTAC / ");
  private static final byte[] CNTAC_COLUMNS = ascii("$#         IDCTC   NTYPE");
  private static final byte[] CNTAC_ROWS_COMMENT =
      ascii("$#    T1SL      T2SL     ISENS     Hcont                         IEDGE");
  private static final byte[] CNTAC_ROWS =
      ascii("        0.        0.         0        1.                             0");
  private static final byte[] CNTAC_FRICTION_COMMENT =
      ascii("$#   FRICT    IDFRIC     XDMP1              ICOUFR");
  private static final byte[] CNTAC_FRICTION = ascii("       0.1         0       0.1");
  private static final byte[] BOUNC = ascii("BOUNC / ");
  private static final byte[] BOUNC_COLUMNS = ascii("$#         IDNOD  XYZUVW    IFRA   ISENS");
  private static final byte[] BOUNC_FIXED = ascii("  111111       0       0");
  private static final byte[] ELEMENT_COLUMNS = ascii("$#          IDEL   IDPRT  IDNODS");
  private static final byte[] NODE_COLUMNS =
      ascii("$#         IDNOD               X               Y               Z");
  private static final byte[] LINK_COLUMNS = ascii("$#          IDEL   IDPRT   IDNOD    MORE   NLAYR");
  private static final byte[] PLINK = ascii("PLINK / ");
  private static final byte[] ELINK = ascii("ELINK / ");

  static final byte[] SELECT_PART = ascii("PART");
  static final byte[] SELECT_NODES = ascii("NOD");
  static final byte[] SELECT_PART_NODES = ascii("PART>NOD");

  /** Solver settings before the first card; neither known keywords nor card headers. */
  private static final byte[][] PROLOGUE = lines(
      "INPUTVERSION 2011",
      "ANALYSIS EXPLICIT",
      "SOLVER    CRASH",
      "$",
      "$----------------------------------------------------------------",
      "$     PAM-SOLID SOLVER CONTROLS",
      "$----------------------------------------------------------------",
      "UNIT       MM       KG       MS   KELVIN",
      "SIGNAL      YES",
      "$",
      "TITLE /  Synthetic vehicle model (nvimpam gen)",
      "RUNEND/  ",
      " TIME      120.0",
      "END_RUNEND",
      "$",
      "OCTRL /  ",
      " THPOUTPUT    POINT     1000",
      " DSYOUTPUT    STATE       10",
      " RSTOUTPUT       NO",
      " GLBTHP DFLT",
      " SHLTHP    DFLT",
      "NODPLOT    DFLT",
      "SOLPLOT     ALL",
      "END_OCTRL",
      "$");

  /** Selection ids per GES line, as in real decks. */
  private static final int IDS_PER_SELECTION = 6;

  private final DeckLineWriter w;

  CardWriter(DeckLineWriter w) {
    this.w = w;
  }

  private static byte[][] lines(String... lines) {
    byte[][] bytes = new byte[lines.length][];
    for (int i = 0; i < lines.length; i++) bytes[i] = ascii(lines[i]);
    return bytes;
  }

  /** The prologue with the one-line TITLE card and the RUNEND and OCTRL generic cards. */
  boolean prologue() throws IOException {
    w.beginCard();
    for (byte[] line : PROLOGUE) line(line);
    return w.endCard();
  }

  /** A three-line comment banner such as {@code $     FRONT RAIL 12} between dashes. */
  boolean banner(byte[] title, long number) throws IOException {
    w.beginCard();
    line(DASHES);
    w.text(BANNER_INDENT).text(title).spaces(1).integer(number, 0).endLine();
    line(DASHES);
    return w.endCard();
  }

  boolean blank() throws IOException {
    w.beginCard();
    w.endLine();
    return w.endCard();
  }

  /** The {@code $#} column comment above a NODE block. */
  boolean nodeColumns() throws IOException {
    return comment(NODE_COLUMNS);
  }

  /** The {@code $#} column comment above an element or link block. */
  boolean elementColumns(boolean link) throws IOException {
    return comment(link ? LINK_COLUMNS : ELEMENT_COLUMNS);
  }

  /** A node; coordinates in nanometres, written in millimetres with 6 decimals. */
  boolean node(long id, long xNano, long yNano, long zNano) throws IOException {
    w.beginCard();
    w.text(NODE).integer(id, 8).decimal(xNano, 6, 16).decimal(yNano, 6, 16).decimal(zNano, 6, 16);
    w.endLine();
    return w.endCard();
  }

  /** An element whose node ids are {@code nodes[0..]}: header line first, then its further lines. */
  boolean element(ElementType type, long id, long part, long[] nodes) throws IOException {
    w.beginCard();
    w.text(type.header).integer(id, 8).integer(part, 8);
    int next = 0;
    for (int i = 0; i < type.headerNodes; i++) w.integer(nodes[next++], 8);
    w.endLine();
    for (int count : type.extraLineNodes) {
      w.spaces(type.extraLineIndent);
      for (int i = 0; i < count; i++) w.integer(nodes[next++], 8);
      w.endLine();
    }
    return w.endCard();
  }

  /**
   * A link element with its GES: a PLINK spot weld at {@code node} joining the parts {@code ids},
   * or an ELINK between {@code node} and the nodes {@code ids}.
   */
  boolean link(boolean plink, long id, long part, long node, long[] ids, int count)
      throws IOException {
    w.beginCard();
    w.text(plink ? PLINK : ELINK).integer(id, 8).integer(part, 8).integer(node, 8);
    w.integer(0, 8).endLine();
    ges(plink ? SELECT_PART : SELECT_NODES, ids, count);
    return w.endCard();
  }

  /** A PART card of FOLDS.md §5.5 ending at END_PART, with its column comment in front. */
  boolean part(PartType type, long id, long material, byte[] name) throws IOException {
    w.beginCard();
    line(PART_COLUMNS);
    w.text(PART).integer(id, 8).text(type.atypeField).integer(material, 8).text(PART_ZEROS);
    w.endLine();
    line(TITLE_COMMENT);
    name(name, id);
    line(DTELIM_COMMENT);
    line(DTELIM_ROW);
    line(TCONT_COMMENT);
    line(TCONT_ROW);
    for (byte[] line : type.typeLines) line(line);
    line(EMPTY_COMMENT);
    line(END_PART);
    return w.endCard();
  }

  /** A rigid body of type 0–3 (columns 25–32) holding the entities of its GES. */
  boolean rbody(long id, int type, long cogNode, byte[] name, byte[] word, long[] ids, int count)
      throws IOException {
    w.beginCard();
    line(RBODY_COLUMNS);
    w.text(RBODY).integer(id, 8).spaces(8).integer(type, 8).integer(cogNode, 8);
    w.integer(0, 8).integer(0, 8).integer(0, 8).integer(0, 8).endLine();
    line(TITLE_COMMENT);
    name(name, id);
    if (type != 0) {
      line(RBODY_INERTIA_COMMENT);
      line(RBODY_INERTIA);
    }
    ges(word, ids, count);
    return w.endCard();
  }

  /** A GROUP card, optionally with a META block (FOLDS.md §5.7), selecting {@code ids}. */
  boolean group(long id, byte[] name, boolean meta, byte[] word, long[] ids, int count)
      throws IOException {
    w.beginCard();
    w.text(GROUP).integer(id, 8).spaces(1).text(name).endLine();
    if (meta) meta();
    ges(word, ids, count);
    return w.endCard();
  }

  /** A META block of three lines (FOLDS.md §5.7). */
  void meta() throws IOException {
    line(META);
    line(META_OWNER);
    line(END_META);
  }

  /** A MASS card: NAME, two rows without the continuation mark in column 81, the nodes' GES. */
  boolean mass(long id, byte[] name, long[] nodes, int count) throws IOException {
    w.beginCard();
    line(MASS_COLUMNS);
    w.text(MASS).integer(id, 8).integer(0, 8).endLine();
    name(name, id);
    line(MASS_ROW_1);
    w.decimal(5, 3, 16).decimal(5, 3, 16).decimal(5, 3, 16).endLine();
    line(MASS_ROW_2);
    w.decimal(0, 1, 16).decimal(0, 1, 16).decimal(0, 1, 16).endLine();
    ges(SELECT_NODES, nodes, count);
    return w.endCard();
  }

  /** A non-structural mass spread over the parts of its GES. */
  boolean nsmas(long id, byte[] name, long[] parts, int count) throws IOException {
    w.beginCard();
    line(NSMAS_COLUMNS);
    w.text(NSMAS).integer(id, 8).decimal(1_250, 3, 16).endLine();
    name(name, id);
    ges(SELECT_PART, parts, count);
    return w.endCard();
  }

  /**
   * A MATER generic card (FOLDS.md §6): ends at END_MATER when {@code endLine}, else at its last
   * data row, followed by {@code trailingBlanks} blank lines that stay outside its fold.
   */
  boolean mater(long id, int model, byte[] density, byte[] name, boolean endLine, int trailingBlanks)
      throws IOException {
    w.beginCard();
    line(MATER_COLUMNS);
    w.text(MATER).integer(id, 8).integer(model, 8).spaces(16 - density.length).text(density);
    w.text(MATER_ZEROS).endLine();
    line(MATER_QVM_COMMENT);
    line(MATER_QVM_ROW);
    line(TITLE_COMMENT);
    name(name, id);
    line(MATER_ELASTIC_COMMENT);
    line(MATER_ELASTIC_ROW);
    w.endLine();
    line(THIC_ROW);
    if (endLine) line(END_MATER);
    for (int i = 0; i < trailingBlanks; i++) w.endLine();
    return w.endCard();
  }

  /** A CNTAC generic card with a blank row and two GES blocks inside, as in real decks. */
  boolean cntac(long id, int type, byte[] name, long slavePart, long masterPart) throws IOException {
    w.beginCard();
    line(CNTAC_COLUMNS);
    w.text(CNTAC).integer(id, 8).integer(type, 8).endLine();
    line(TITLE_COMMENT);
    name(name, id);
    line(CNTAC_ROWS_COMMENT);
    line(CNTAC_ROWS);
    line(CNTAC_FRICTION_COMMENT);
    line(CNTAC_FRICTION);
    w.endLine();
    w.text(SELECTION_INDENT).text(SELECT_PART).integer(slavePart, 8).endLine();
    line(GES_END);
    w.text(SELECTION_INDENT).text(SELECT_PART).integer(masterPart, 8).endLine();
    line(GES_END);
    return w.endCard();
  }

  /** A BOUNC generic card fixing the nodes of its GES. */
  boolean bounc(long id, byte[] name, long[] nodes, int count) throws IOException {
    w.beginCard();
    line(BOUNC_COLUMNS);
    w.text(BOUNC).integer(0, 8).text(BOUNC_FIXED).endLine();
    line(TITLE_COMMENT);
    name(name, id);
    ges(SELECT_NODES, nodes, count);
    return w.endCard();
  }

  private boolean comment(byte[] text) throws IOException {
    w.beginCard();
    line(text);
    return w.endCard();
  }

  private void line(byte[] text) throws IOException {
    w.text(text).endLine();
  }

  private void name(byte[] name, long number) throws IOException {
    w.text(NAME).text(name).spaces(1).integer(number, 0).endLine();
  }

  /** Selection lines of up to 6 ids each, then the END line (FOLDS.md §5.3). */
  void ges(byte[] word, long[] ids, int count) throws IOException {
    ges(word, ids, 0, count);
  }

  /** {@link #ges(byte[], long[], int)} of {@code ids[from..from+count)}. */
  void ges(byte[] word, long[] ids, int from, int count) throws IOException {
    for (int i = from; i < from + count; i += IDS_PER_SELECTION) {
      w.text(SELECTION_INDENT).text(word);
      for (int j = i; j < Math.min(from + count, i + IDS_PER_SELECTION); j++) w.integer(ids[j], 8);
      w.endLine();
    }
    line(GES_END);
  }
}
