package org.nvimpam.deck;

import static org.nvimpam.deck.CardItem.END_PART_SEARCH;
import static org.nvimpam.deck.CardItem.GES;
import static org.nvimpam.deck.CardItem.L;
import static org.nvimpam.deck.CardItem.L_IF_C;
import static org.nvimpam.deck.CardItem.L_SETS_C_AMP81;
import static org.nvimpam.deck.CardItem.META_BLOCK;
import static org.nvimpam.deck.CardItem.NAME;
import static org.nvimpam.deck.CardItem.N_LINES;
import static org.nvimpam.deck.CardItem.OTMCO_BLOCK;
import static org.nvimpam.deck.CardItem.headerSetsC;
import static org.nvimpam.deck.CardItem.lineSetsC;
import static org.nvimpam.deck.CardItem.lineSetsN;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The 63 known keywords of FOLDS.md §4 and their recognition on a line's bytes.
 *
 * <p>A keyword is identified by its id, {@code 0 <= id < COUNT}, its row in the table below.
 * Recognition looks at bytes 0–7 only, plus columns 17–24 for PART and 25–32 for RBODY. Each row
 * also holds the card's items, which fold's walker runs ({@link CardItem} says why they are here).
 */
public final class Keywords {
  private Keywords() {}

  private static final String PART = "PART  ";
  private static final String RBODY = "RBODY ";

  /** The tables of §4, one row per keyword, in their order. */
  private static final Keyword[] TABLE = {
    gathered("NODE  ", "Node"),
    gathered("CNODE ", "Cnode"),
    own("MASS  ", "Mass", NAME, L, L_SETS_C_AMP81, L_IF_C, GES),
    own("NSMAS ", "Nsmas", NAME, GES),
    own("NSMAS2", "Nsmas2", NAME, GES),
    gathered("SOLID ", "Solid", L),
    gathered("HEXA20", "Hexa20", L, L, L),
    gathered("PENT15", "Pent15", L, L),
    gathered("PENTA6", "Penta6"),
    gathered("TETR10", "Tetr10", L, L),
    gathered("TETR4 ", "Tetr4"),
    gathered("BSHEL ", "Bshel", L),
    gathered("TSHEL ", "Tshel"),
    gathered("SHELL ", "Shell"),
    gathered("SHEL6 ", "Shel6"),
    gathered("SHEL8 ", "Shel8", L),
    gathered("MEMBR ", "Membr"),
    gathered("BEAM  ", "Beam", L, L),
    gathered("SPRGBM", "Sprgbm"),
    gathered("BAR   ", "Bar"),
    gathered("SPRING", "Spring"),
    gathered("JOINT ", "Joint"),
    gathered("KJOIN ", "Kjoin", L),
    gathered("MTOJNT", "Mtojnt", L),
    gathered("SPHEL ", "Sphel"),
    gathered("SPHELO", "Sphelo"),
    gathered("GAP   ", "Gap"),
    gathered("IMPMA ", "Impma", NAME, L),
    gathered("ELINK ", "Elink", GES),
    gathered("LLINK ", "Llink", GES),
    gathered("SLINK ", "Slink", GES),
    gathered("PLINK ", "Plink", GES),
    gathered("TIED  ", "Tied", NAME, GES, GES),
    own("MTOCO ", "Mtoco", headerSetsC(42, 49, 1), NAME, L_IF_C, GES),
    own("OTMCO ", "Otmco", NAME, OTMCO_BLOCK),
    rbody(0, NAME, GES),
    rbody(1, NAME, L, GES),
    rbody(2, NAME, L, GES),
    rbody(3, NAME, L, GES),
    own("GROUP ", "Group", META_BLOCK, GES),
    part("SOLID", L, L),
    part("TETRA", L, L),
    part("BSHEL", L),
    part("COS3D", L),
    part("SPHEL", lineSetsN(47, 51), N_LINES),
    part("SHELL", L, L),
    part("MEMBR", L, L),
    part("TSHEL", L),
    part("BEAM", L, L, L, L, lineSetsN(7, 11), N_LINES),
    part("TIED", lineSetsC(72, 81, 1), L_IF_C),
    part("SLINK", lineSetsC(72, 81, 1), L_IF_C),
    part("ELINK", lineSetsC(72, 81, 1), L_IF_C),
    part("BAR", L),
    part("SPRING", L),
    part("SPRGBM", L),
    part("MBSPR", L),
    part("JOINT", L),
    part("KJOIN", L),
    part("MBKJN", L),
    part("MTOJNT", L),
    part("LLINK", L),
    part("PLINK", L),
    part("GAP", L),
  };

  public static final int COUNT = TABLE.length;

  private static final String[] NAMES = new String[COUNT];
  private static final boolean[] GATHERED = new boolean[COUNT];

  private static final long RBODY_KEY = key(RBODY);
  private static final long PART_KEY = key(PART);
  private static final int RBODY_MARK = -2;
  private static final int PART_MARK = -3;

  // Open addressing: header key (bytes 0-5 packed) -> id, or one of the marks above.
  private static final int HEADER_BITS = 7;
  private static final long[] HEADER_KEYS = new long[1 << HEADER_BITS];
  private static final int[] HEADER_IDS = new int[1 << HEADER_BITS];
  private static final int ATYPE_BITS = 6;
  private static final long[] ATYPE_KEYS = new long[1 << ATYPE_BITS];
  private static final int[] ATYPE_IDS = new int[1 << ATYPE_BITS];
  private static final int[] RBODY_IDS = {-1, -1, -1, -1}; // by digit

  static {
    put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, RBODY_KEY, RBODY_MARK);
    put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, PART_KEY, PART_MARK);
    for (int id = 0; id < COUNT; id++) {
      Keyword k = TABLE[id];
      NAMES[id] = k.name();
      GATHERED[id] = k.gathered();
      if (k.header().equals(PART)) {
        put(ATYPE_KEYS, ATYPE_IDS, ATYPE_BITS, key(k.type()), id);
      } else if (k.header().equals(RBODY)) {
        RBODY_IDS[k.type().charAt(0) - '0'] = id;
      } else {
        put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, key(k.header()), id);
      }
    }
  }

  private static Keyword gathered(String header, String name, CardItem... items) {
    return new Keyword(header, "", name, true, List.of(items));
  }

  private static Keyword own(String header, String name, CardItem... items) {
    return new Keyword(header, "", name, false, List.of(items));
  }

  private static Keyword rbody(int digit, CardItem... items) {
    return new Keyword(RBODY, Integer.toString(digit), "Rbody" + digit, false, List.of(items));
  }

  /**
   * A PART keyword (§5.5): the END_PART search, then [RMAT if IDMAT = 0], NAME, the DTELIM row, the
   * TCONT row, the type-specific lines and the END_PART line.
   */
  private static Keyword part(String atype, CardItem... specific) {
    List<CardItem> items = new ArrayList<>(
        List.of(END_PART_SEARCH, headerSetsC(25, 32, 0), L_IF_C, NAME, L, L));
    items.addAll(List.of(specific));
    items.add(L);
    String name = "Part" + atype.charAt(0) + atype.substring(1).toLowerCase(Locale.ROOT);
    return new Keyword(PART, atype, name, false, items);
  }

  /** The keyword with this id. */
  public static Keyword get(int id) {
    return TABLE[id];
  }

  /** A word of up to 8 bytes packed into a long, as {@link #of} reads a line. */
  private static long key(String word) {
    long k = 0;
    for (int j = 0; j < word.length(); j++) k = (k << 8) | word.charAt(j);
    return k;
  }

  private static int slot(long key, int bits) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - bits));
  }

  private static void put(long[] keys, int[] ids, int bits, long key, int id) {
    int mask = keys.length - 1;
    int s = slot(key, bits);
    while (keys[s] != 0) s = (s + 1) & mask;
    keys[s] = key;
    ids[s] = id;
  }

  private static int lookup(long[] keys, int[] ids, int bits, long key) {
    int mask = keys.length - 1;
    for (int s = slot(key, bits); keys[s] != 0; s = (s + 1) & mask) {
      if (keys[s] == key) return ids[s];
    }
    return -1;
  }

  public static String name(int id) {
    return NAMES[id];
  }

  /** Whether consecutive cards of this keyword form one fold (FOLDS.md §5.8). */
  public static boolean gathered(int id) {
    return GATHERED[id];
  }

  public static boolean isPart(int id) {
    return TABLE[id].header().equals(PART);
  }

  /**
   * The keyword id of a line, or -1 when it is not a known keyword line. {@code len} is the length
   * without a final CR (FOLDS.md §2.3). A comment never matches, since no header starts with $ or #.
   */
  public static int of(byte[] a, int off, int len) {
    if (len < 8 || a[off + 6] != '/' || a[off + 7] != ' ') return -1;
    long k = 0;
    for (int i = 0; i < 6; i++) k = (k << 8) | (a[off + i] & 0xFF);
    int id = lookup(HEADER_KEYS, HEADER_IDS, HEADER_BITS, k);
    if (id == PART_MARK) return partType(a, off, len);
    if (id == RBODY_MARK) return rbodyType(a, off, len);
    return id;
  }

  /** Columns 17–24 hold exactly one ATYPE word, padded with spaces. */
  private static int partType(byte[] a, int off, int len) {
    if (len < 24) return -1;
    int i = off + 16;
    int end = off + 24;
    while (i < end && a[i] == ' ') i++;
    long k = 0;
    int n = 0;
    while (i < end && a[i] != ' ') {
      k = (k << 8) | (a[i] & 0xFF);
      n++;
      i++;
    }
    while (i < end && a[i] == ' ') i++;
    if (n == 0 || n > 6 || i != end) return -1;
    return lookup(ATYPE_KEYS, ATYPE_IDS, ATYPE_BITS, k);
  }

  /** Columns 25–32 hold one digit 0–3 and otherwise spaces. */
  private static int rbodyType(byte[] a, int off, int len) {
    if (len < 32) return -1;
    int digit = -1;
    for (int i = off + 24; i < off + 32; i++) {
      byte b = a[i];
      if (b == ' ') continue;
      if (digit >= 0 || b < '0' || b > '3') return -1;
      digit = b - '0';
    }
    return digit < 0 ? -1 : RBODY_IDS[digit];
  }
}
