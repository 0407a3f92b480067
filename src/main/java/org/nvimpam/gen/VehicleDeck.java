package org.nvimpam.gen;

import static org.nvimpam.gen.DeckLineWriter.ascii;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.nvimpam.deck.CardLayouts;

/**
 * Writes one synthetic vehicle model: the prologue, then components (a body part such as a door or
 * a rail) until the line budget is spent, then NODE lines for the few lines no card fitted into.
 *
 * <p>A component is laid out like a subassembly of a real model: a banner, sometimes a material,
 * 1–3 PART cards, a NODE block, one element (or link) block per part, then now and then rigid
 * bodies, a group, masses, a contact or a boundary condition. Block sizes grow with the deck, so a
 * 10M-line deck has a few thousand components, as vehicle models have.
 *
 * <p>Version 1 writes the decks of the first generator (hand-made card texts, some with text in
 * columns the format leaves blank); version 2, the default, writes every card other than nodes and
 * elements from the card-layout table ({@link TableCards}) with values that fit their fields, and
 * only ids that the deck defines.
 */
final class VehicleDeck {
  private static final byte[][] COMPONENTS = names(
      "FRONT_RAIL", "B_PILLAR", "ROOF_PANEL", "FLOOR_PAN", "DOOR_INNER", "DOOR_OUTER", "HOOD",
      "BUMPER_BEAM", "CRASH_BOX", "SEAT_FRAME", "ENGINE_BLOCK", "WHEEL", "DASHBOARD", "FENDER",
      "TRUNK_LID", "CROSSMEMBER", "SUBFRAME", "A_PILLAR", "SILL", "FIREWALL");
  private static final byte[][] DENSITIES = names("7.85E-6", "2.70E-6", "1.10E-6", "1.80E-6");
  private static final PartType[] PART_TYPES = PartType.values();
  private static final int PART_WEIGHT_TOTAL =
      Arrays.stream(PART_TYPES).mapToInt(t -> t.weight).sum();

  /** The INPUTVERSION of the prologue, whose layouts version 2 writes. */
  private static final int DECK_VERSION = 2011;
  /** The contact types version 2 writes: those of the sample decks and their kin (no type 35). */
  private static final int[] CONTACT_TYPES = {33, 34, 36};
  private static final int MIN_NODES = 30;
  private static final int MAX_NODES = 3000;
  /** Lines per component node, roughly: node, element and card lines together. */
  private static final int LINES_PER_NODE = 400;
  /** Grid columns of a component's mesh, so that quads join neighbouring nodes. */
  private static final int MESH_COLUMNS = 20;
  /** Mesh pitch: 10 mm, in nanometres like all coordinates. */
  private static final long PITCH = 10_000_000;

  private final CardWriter cards;
  private final DeckLineWriter w;
  private final SplittableRandom random;
  private final int meanNodes;
  private final long[] ids = new long[64];
  /** The table's cards (version 2 on), null for version 1. */
  private final TableCards table;

  private long nextNode = 1;
  private long nextElement = 1;
  private long nextPart = 1;
  private long nextMaterial = 1;
  private long nextCard = 1;
  private long component = 0;
  /** Set when a card did not fit: the deck is then topped up with NODE lines. */
  private boolean full;

  VehicleDeck(DeckLineWriter w, SplittableRandom random, long lines, int version) {
    this.w = w;
    this.table = version >= 2 ? new TableCards(CardLayouts.bundled(), DECK_VERSION) : null;
    this.cards = new CardWriter(w);
    this.random = random;
    this.meanNodes = (int) Math.max(MIN_NODES, Math.min(MAX_NODES, lines / LINES_PER_NODE));
  }

  private static byte[][] names(String... names) {
    byte[][] bytes = new byte[names.length][];
    for (int i = 0; i < names.length; i++) bytes[i] = ascii(names[i]);
    return bytes;
  }

  void write() throws IOException {
    fits(cards.prologue());
    while (!full) component();
    // Fewer lines are left than the card that did not fit: top up with one-line NODE cards.
    while (w.left() > 0) cards.node(nextNode++, 0, 0, 0);
  }

  private void component() throws IOException {
    component++;
    byte[] name = COMPONENTS[random.nextInt(COMPONENTS.length)];
    fits(cards.banner(name, component));
    // Version 2: the first PART's material must exist.
    if (random.nextInt(10) < 4 || (table != null && nextMaterial == 1)) material(name);
    long material = Math.max(1, nextMaterial - 1 - random.nextInt(3));

    int partCount = 1 + random.nextInt(3);
    PartType[] types = new PartType[partCount];
    long firstPart = nextPart;
    for (int i = 0; i < partCount && !full; i++) {
      types[i] = randomPartType();
      fits(table != null ? part(types[i], nextPart++, material, name) : cards.part(types[i], nextPart++, material, name));
    }

    long firstNode = nextNode;
    int nodes = MIN_NODES / 2 + random.nextInt(2 * meanNodes);
    nodeBlock(nodes);
    for (int i = 0; i < partCount && !full; i++) {
      int count = (int) Math.ceil(nodes * types[i].elementsPerNode / partCount);
      if (types[i].elements == null) linkBlock(types[i], firstPart + i, firstNode, nodes, count);
      else elementBlock(types[i].elements, firstPart + i, firstNode, nodes, count);
    }
    extras(name, firstPart, partCount, firstNode, nodes);
    if (random.nextInt(4) == 0) fits(cards.blank());
  }

  private PartType randomPartType() {
    int pick = random.nextInt(PART_WEIGHT_TOTAL);
    for (PartType type : PART_TYPES) {
      pick -= type.weight;
      if (pick < 0) return type;
    }
    throw new AssertionError("pick below the total weight");
  }

  /** A MATER card ending at END_MATER, or at its last row with blank lines after it. */
  private void material(byte[] name) throws IOException {
    if (table != null) {
      boolean elastic = random.nextBoolean();
      Map<String, String> v = values("IDMAT", nextMaterial, "MATYP", elastic ? 101 : 100,
          "RHO", new String(DENSITIES[random.nextInt(DENSITIES.length)], StandardCharsets.US_ASCII),
          "TITLE", title(name, nextMaterial), "E", "210.", "NU", "0.3");
      if (elastic) v.putAll(values("HGM", "0.01", "HGW", "0.01", "HGQ", "0.01", "AS", "0.83"));
      nextMaterial++;
      fits(card("MATER:" + v.get("MATYP"), v, TableCards.NONE));
      return;
    }
    boolean endLine = random.nextBoolean();
    int blanks = endLine ? 0 : random.nextInt(4);
    byte[] density = DENSITIES[random.nextInt(DENSITIES.length)];
    fits(cards.mater(nextMaterial++, 100 + random.nextInt(4), density, name, endLine, blanks));
  }

  /** Nodes on a grid around a random place in the car, one NODE run. */
  private void nodeBlock(int count) throws IOException {
    long x0 = random.nextLong(4_500_000_000L);
    long y0 = random.nextLong(-900_000_000L, 900_000_000L);
    long z0 = random.nextLong(1_500_000_000L);
    fits(cards.nodeColumns());
    for (int i = 0; i < count && !full; i++) {
      long jitter = random.nextLong(500_000);
      long x = x0 + (i % MESH_COLUMNS) * PITCH + jitter;
      long y = y0 + (i / MESH_COLUMNS) * PITCH;
      long z = z0 + 3 * jitter;
      fits(cards.node(nextNode++, x, y, z));
    }
  }

  /** {@code count} elements of one part joining neighbouring nodes of the component's mesh. */
  private void elementBlock(ElementType type, long part, long firstNode, int nodes, int count)
      throws IOException {
    fits(cards.elementColumns(false));
    for (int i = 0; i < count && !full; i++) {
      long corner = firstNode + i % nodes;
      for (int k = 0; k < 8; k++) {
        // Quad corners on the grid, wrapped into the component's node range.
        long offset = (k & 1) + ((k >> 1) & 1) * MESH_COLUMNS + (k >> 2) * 2 * MESH_COLUMNS;
        ids[k] = firstNode + (corner - firstNode + offset) % nodes;
      }
      fits(cards.element(type, nextElement++, part, ids));
    }
  }

  /** Spot welds (PLINK) or elastic links (ELINK), each with the GES it connects. */
  private void linkBlock(PartType type, long part, long firstNode, int nodes, int count)
      throws IOException {
    boolean plink = type == PartType.PLINK;
    fits(cards.elementColumns(true));
    for (int i = 0; i < count && !full; i++) {
      long node = firstNode + random.nextInt(nodes);
      int selected = 1 + random.nextInt(2);
      for (int k = 0; k < selected; k++) {
        ids[k] = plink ? 1 + random.nextLong(nextPart - 1) : firstNode + random.nextInt(nodes);
      }
      if (table == null) {
        fits(cards.link(plink, nextElement++, part, node, ids, selected));
        continue;
      }
      Map<String, String> v = plink ? values("IDEL", nextElement++, "IDPRT", part, "IDNOD", node)
          : values("IDEL", nextElement++, "IDPRT", part, "IDNOD1", node);
      byte[] word = plink ? CardWriter.SELECT_PART : CardWriter.SELECT_NODES;
      fits(card(plink ? "PLINK" : "ELINK", v, g -> cards.ges(word, ids, selected)));
    }
  }

  /** Rigid bodies, groups, masses, contacts and boundary conditions, each now and then. */
  private void extras(byte[] name, long firstPart, int parts, long firstNode, int nodes)
      throws IOException {
    if (full) return;
    if (random.nextInt(10) < 3) {
      int bodies = 1 + random.nextInt(5);
      for (int i = 0; i < bodies && !full; i++) {
        int type = random.nextInt(4);
        long cog = firstNode + random.nextInt(nodes);
        boolean byPart = random.nextBoolean();
        int count = byPart ? 1 : 1 + random.nextInt(18);
        for (int k = 0; k < count; k++) {
          ids[k] = byPart ? firstPart + random.nextInt(parts) : firstNode + random.nextInt(nodes);
        }
        byte[] word = byPart ? CardWriter.SELECT_PART_NODES : CardWriter.SELECT_NODES;
        if (table == null) {
          fits(cards.rbody(nextCard++, type, cog, name, word, ids, count));
          continue;
        }
        Map<String, String> v = values("IDRB", nextCard, "ITRB", type, "IDNODcog", cog, "TITLE", title(name, nextCard));
        if (type == 3) v.putAll(values("Mrb", "10.", "I1", "0.001", "I2", "0.001", "I3", "0.001"));
        nextCard++;
        int n = count;
        fits(card("RBODY:" + type, v, g -> cards.ges(word, ids, n)));
      }
    }
    if (random.nextInt(10) < 2) {
      for (int k = 0; k < parts; k++) ids[k] = firstPart + k;
      boolean meta = random.nextBoolean();
      if (table == null) {
        fits(cards.group(nextCard++, name, meta, CardWriter.SELECT_PART, ids, parts));
      } else {
        fits(card("GROUP", values("TITLE", title(name, nextCard++)), new TableCards.Selections() {
          @Override
          public void write(int index) throws IOException {
            cards.ges(CardWriter.SELECT_PART, ids, parts);
          }

          @Override
          public void block(String start) throws IOException {
            if (meta) cards.meta();
          }
        }));
      }
    }
    if (random.nextInt(10) == 0) {
      int count = 1 + random.nextInt(12);
      for (int k = 0; k < count; k++) ids[k] = firstNode + random.nextInt(nodes);
      if (table == null) {
        fits(cards.mass(nextCard++, name, ids, count));
      } else {
        fits(card("MASS", values("IDNOD", 0, "IFRA", 0, "TITLE", title(name, nextCard++), "Mx", "5.000", "My", "5.000", "Mz", "5.000",
            "Ix", "0.0", "Iy", "0.0", "Iz", "0.0"), g -> cards.ges(CardWriter.SELECT_NODES, ids, count)));
      }
    }
    if (random.nextInt(10) == 0) {
      for (int k = 0; k < parts; k++) ids[k] = firstPart + k;
      if (table == null) {
        fits(cards.nsmas(nextCard++, name, ids, parts));
      } else {
        fits(card("NSMAS", values("IDNODMS", nextCard, "MASS", "1.250", "TITLE", title(name, nextCard++)),
            g -> cards.ges(CardWriter.SELECT_PART, ids, parts)));
      }
    }
    if (random.nextInt(10) == 0) {
      long other = 1 + random.nextLong(nextPart - 1);
      if (table == null) {
        fits(cards.cntac(nextCard++, 33 + random.nextInt(4), name, firstPart, other));
      } else {
        ids[0] = firstPart;
        ids[1] = other;
        int type = CONTACT_TYPES[random.nextInt(CONTACT_TYPES.length)];
        fits(card("CNTAC:" + type, values("IDCTC", nextCard, "NTYPE", type, "TITLE", title(name, nextCard++),
            "HCONT", "1.", "FRICT", "0.1", "XDMP1", "0.1"), g -> cards.ges(CardWriter.SELECT_PART, ids, g, 1)));
      }
    }
    if (random.nextInt(20) == 0) {
      int count = 6 + random.nextInt(40);
      for (int k = 0; k < count; k++) ids[k] = firstNode + random.nextInt(nodes);
      if (table == null) {
        fits(cards.bounc(nextCard++, name, ids, count));
      } else {
        fits(card("BOUNC", values("IDNOD", 0, "XYZUVW", "111111", "IFRA", 0, "ISENS", 0, "TITLE", title(name, nextCard++)),
            g -> cards.ges(CardWriter.SELECT_NODES, ids, count)));
      }
    }
  }

  /** A PART of the table's layout for its type, with values that make it a plausible part. */
  private boolean part(PartType type, long id, long material, byte[] name) throws IOException {
    Map<String, String> v = values("IDPRT", id, "ATYPE", type.name(), "IDMAT", material, "TITLE", title(name, id),
        "DTELIM", "0.");
    switch (type) {
      case SHELL, TSHEL -> v.putAll(values("H", "1.", "NINT", 3));
      case MEMBR -> v.putAll(values("H", "0.5"));
      case BEAM -> v.putAll(values("A", "25.", "Is", "120.", "It", "120.", "Ir", "240."));
      case BAR -> v.putAll(values("A", "10."));
      case PLINK -> v.putAll(values("RSEAR", "2.", "THETA", "5."));
      default -> { }
    }
    return card("PART:" + type.name(), v, TableCards.NONE);
  }

  /** One card of the table (version 2), or false when it does not fit. */
  private boolean card(String key, Map<String, String> values, TableCards.Selections selections) throws IOException {
    w.beginCard();
    table.write(w, key, values, selections);
    return w.endCard();
  }

  /** Field values from name, value pairs (numbers as their decimal text). */
  private static Map<String, String> values(Object... pairs) {
    Map<String, String> v = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) v.put((String) pairs[i], String.valueOf(pairs[i + 1]));
    return v;
  }

  /** The NAME title of a card: the component's name and a number, as in real decks. */
  private static String title(byte[] name, long number) {
    return new String(name, StandardCharsets.US_ASCII) + " " + number;
  }

  private void fits(boolean written) {
    if (!written) full = true;
  }
}
