package org.nvimpam.gen;

import static org.nvimpam.gen.DeckLineWriter.ascii;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Writes one synthetic vehicle model: the prologue, then components (a body part such as a door or
 * a rail) until the line budget is spent, then NODE lines for the few lines no card fitted into.
 *
 * <p>A component is laid out like a subassembly of a real model: a banner, sometimes a material,
 * 1–3 PART cards, a NODE block, one element (or link) block per part, then now and then rigid
 * bodies, a group, masses, a contact or a boundary condition. Block sizes grow with the deck, so a
 * 10M-line deck has a few thousand components, as vehicle models have.
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

  private long nextNode = 1;
  private long nextElement = 1;
  private long nextPart = 1;
  private long nextMaterial = 1;
  private long nextCard = 1;
  private long component = 0;
  /** Set when a card did not fit: the deck is then topped up with NODE lines. */
  private boolean full;

  VehicleDeck(DeckLineWriter w, SplittableRandom random, long lines) {
    this.w = w;
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
    if (random.nextInt(10) < 4) material(name);
    long material = Math.max(1, nextMaterial - 1 - random.nextInt(3));

    int partCount = 1 + random.nextInt(3);
    PartType[] types = new PartType[partCount];
    long firstPart = nextPart;
    for (int i = 0; i < partCount && !full; i++) {
      types[i] = randomPartType();
      fits(cards.part(types[i], nextPart++, material, name));
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
      fits(cards.link(plink, nextElement++, part, node, ids, selected));
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
        fits(cards.rbody(nextCard++, type, cog, name, word, ids, count));
      }
    }
    if (random.nextInt(10) < 2) {
      for (int k = 0; k < parts; k++) ids[k] = firstPart + k;
      fits(cards.group(nextCard++, name, random.nextBoolean(), CardWriter.SELECT_PART, ids, parts));
    }
    if (random.nextInt(10) == 0) {
      int count = 1 + random.nextInt(12);
      for (int k = 0; k < count; k++) ids[k] = firstNode + random.nextInt(nodes);
      fits(cards.mass(nextCard++, name, ids, count));
    }
    if (random.nextInt(10) == 0) {
      for (int k = 0; k < parts; k++) ids[k] = firstPart + k;
      fits(cards.nsmas(nextCard++, name, ids, parts));
    }
    if (random.nextInt(10) == 0) {
      long other = 1 + random.nextLong(nextPart - 1);
      fits(cards.cntac(nextCard++, 33 + random.nextInt(4), name, firstPart, other));
    }
    if (random.nextInt(20) == 0) {
      int count = 6 + random.nextInt(40);
      for (int k = 0; k < count; k++) ids[k] = firstNode + random.nextInt(nodes);
      fits(cards.bounc(nextCard++, name, ids, count));
    }
  }

  private void fits(boolean written) {
    if (!written) full = true;
  }
}
