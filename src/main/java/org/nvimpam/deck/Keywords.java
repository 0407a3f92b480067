package org.nvimpam.deck;

/**
 * The 63 known keywords of FOLDS.md §4 and their recognition on a line's bytes.
 *
 * <p>A keyword is identified by its id, {@code 0 <= id < COUNT}, in the order of the §4 tables.
 * Recognition looks at bytes 0–7 only, plus columns 17–24 for PART and 25–32 for RBODY.
 */
public final class Keywords {
  private Keywords() {}

  /** Rows: header bytes 0–5 (bytes 6–7 are always "/ "), keyword name, gathered fold. */
  private static final Object[][] PLAIN = {
    {"NODE  ", "Node", true}, {"CNODE ", "Cnode", true}, {"MASS  ", "Mass", false},
    {"NSMAS ", "Nsmas", false}, {"NSMAS2", "Nsmas2", false},
    {"SOLID ", "Solid", true}, {"HEXA20", "Hexa20", true}, {"PENT15", "Pent15", true},
    {"PENTA6", "Penta6", true}, {"TETR10", "Tetr10", true}, {"TETR4 ", "Tetr4", true},
    {"BSHEL ", "Bshel", true}, {"TSHEL ", "Tshel", true}, {"SHELL ", "Shell", true},
    {"SHEL6 ", "Shel6", true}, {"SHEL8 ", "Shel8", true}, {"MEMBR ", "Membr", true},
    {"BEAM  ", "Beam", true}, {"SPRGBM", "Sprgbm", true}, {"BAR   ", "Bar", true},
    {"SPRING", "Spring", true}, {"JOINT ", "Joint", true}, {"KJOIN ", "Kjoin", true},
    {"MTOJNT", "Mtojnt", true}, {"SPHEL ", "Sphel", true}, {"SPHELO", "Sphelo", true},
    {"GAP   ", "Gap", true}, {"IMPMA ", "Impma", true},
    {"ELINK ", "Elink", true}, {"LLINK ", "Llink", true}, {"SLINK ", "Slink", true},
    {"PLINK ", "Plink", true}, {"TIED  ", "Tied", true},
    {"MTOCO ", "Mtoco", false}, {"OTMCO ", "Otmco", false},
  };

  /** ATYPE words of PART cards, in the order of their keyword ids. */
  private static final String[] ATYPES = {
    "SOLID", "TETRA", "BSHEL", "COS3D", "SPHEL", "SHELL", "MEMBR", "TSHEL", "BEAM", "TIED",
    "SLINK", "ELINK", "BAR", "SPRING", "SPRGBM", "MBSPR", "JOINT", "KJOIN", "MBKJN", "MTOJNT",
    "LLINK", "PLINK", "GAP",
  };

  public static final int RBODY0 = PLAIN.length; // Rbody0..Rbody3 follow
  public static final int GROUP = RBODY0 + 4;
  public static final int PART_FIRST = GROUP + 1;
  public static final int COUNT = PART_FIRST + ATYPES.length;

  private static final String[] NAMES = new String[COUNT];
  private static final boolean[] GATHERED = new boolean[COUNT];

  private static final long RBODY_KEY = key6("RBODY ");
  private static final long PART_KEY = key6("PART  ");
  private static final long GROUP_KEY = key6("GROUP ");
  private static final int RBODY_MARK = -2;
  private static final int PART_MARK = -3;

  // Open addressing: header key (bytes 0-5 packed) -> id, or one of the marks above.
  private static final int HEADER_BITS = 7;
  private static final long[] HEADER_KEYS = new long[1 << HEADER_BITS];
  private static final int[] HEADER_IDS = new int[1 << HEADER_BITS];
  private static final int ATYPE_BITS = 6;
  private static final long[] ATYPE_KEYS = new long[1 << ATYPE_BITS];
  private static final int[] ATYPE_IDS = new int[1 << ATYPE_BITS];

  static {
    for (int i = 0; i < PLAIN.length; i++) {
      NAMES[i] = (String) PLAIN[i][1];
      GATHERED[i] = (Boolean) PLAIN[i][2];
      put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, key6((String) PLAIN[i][0]), i);
    }
    for (int d = 0; d < 4; d++) NAMES[RBODY0 + d] = "Rbody" + d;
    NAMES[GROUP] = "Group";
    put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, RBODY_KEY, RBODY_MARK);
    put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, PART_KEY, PART_MARK);
    put(HEADER_KEYS, HEADER_IDS, HEADER_BITS, GROUP_KEY, GROUP);
    for (int i = 0; i < ATYPES.length; i++) {
      String w = ATYPES[i];
      NAMES[PART_FIRST + i] = "Part" + w.charAt(0) + w.substring(1).toLowerCase(java.util.Locale.ROOT);
      long k = 0;
      for (int j = 0; j < w.length(); j++) k = (k << 8) | w.charAt(j);
      put(ATYPE_KEYS, ATYPE_IDS, ATYPE_BITS, k, PART_FIRST + i);
    }
  }

  private static long key6(String s) {
    long k = 0;
    for (int i = 0; i < 6; i++) k = (k << 8) | s.charAt(i);
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

  private static int get(long[] keys, int[] ids, int bits, long key) {
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
    return id >= PART_FIRST;
  }

  public static boolean isRbody(int id) {
    return id >= RBODY0 && id < RBODY0 + 4;
  }

  /** The id of a keyword by its name, or -1; for tests and generators, not for hot paths. */
  public static int byName(String name) {
    for (int i = 0; i < COUNT; i++) if (NAMES[i].equals(name)) return i;
    return -1;
  }

  /**
   * The keyword id of a line, or -1 when it is not a known keyword line. {@code len} is the length
   * without a final CR (FOLDS.md §2.3). A comment never matches, since no header starts with $ or #.
   */
  public static int of(byte[] a, int off, int len) {
    if (len < 8 || a[off + 6] != '/' || a[off + 7] != ' ') return -1;
    long k = 0;
    for (int i = 0; i < 6; i++) k = (k << 8) | (a[off + i] & 0xFF);
    int id = get(HEADER_KEYS, HEADER_IDS, HEADER_BITS, k);
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
    return get(ATYPE_KEYS, ATYPE_IDS, ATYPE_BITS, k);
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
    return digit < 0 ? -1 : RBODY0 + digit;
  }
}
