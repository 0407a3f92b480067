package org.nvimpam.deck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The card-layout table (docs/CARDS.md), as the JVM reads it from the jar's copy of
 * lua/nvimpam/layout/, and its lookup of a card header line's layout. Immutable.
 *
 * <p>Entries with the same key form a group, sorted by version. A header line finds its group by
 * its word and, where the base entry has {@code select=}, the trimmed text of those columns.
 */
public final class CardLayouts {
  static final String RESOURCE_DIR = "/runtime/lua/nvimpam/layout/";

  /**
   * The id kinds, in the order of lua/nvimpam/layout/KINDS (one {@code NAME | description} a line),
   * which the Lua side reads too: the one list of them.
   */
  public static final List<String> KINDS = kinds(resource("KINDS"));

  private static volatile CardLayouts bundled;

  private final List<CardLayout> entries;
  private final RowCheck[][] checks; // by entry, then row
  private final int[] endRows; // by entry: the index of its end row, or -1
  private final boolean[] readsRows; // by entry: whether it has if or repeat rows
  private final int[][] groups; // entry indices by group, ascending version
  private final Map<Long, Integer> byWord = new HashMap<>();
  private final LongIntMap words = new LongIntMap(); // byWord without boxing, for the hot path
  private final Map<Long, Integer>[] variants; // by group of a base entry: packed variant -> group
  private final int newest;

  @SuppressWarnings("unchecked")
  private CardLayouts(List<CardLayout> entries) {
    this.entries = entries;
    Map<String, List<Integer>> byKey = new java.util.LinkedHashMap<>();
    for (int e = 0; e < entries.size(); e++) {
      byKey.computeIfAbsent(entries.get(e).key(), k -> new ArrayList<>()).add(e);
    }
    groups = new int[byKey.size()][];
    variants = new Map[byKey.size()];
    Map<String, Integer> groupByKey = new HashMap<>();
    int g = 0;
    int newestVersion = 0;
    for (var en : byKey.entrySet()) {
      int[] members = en.getValue().stream().mapToInt(Integer::intValue).toArray();
      Integer[] boxed = Arrays.stream(members).boxed().toArray(Integer[]::new);
      Arrays.sort(boxed, (x, y) -> Integer.compare(entries.get(x).version(), entries.get(y).version()));
      members = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
      groups[g] = members;
      for (int m : members) {
        newestVersion = Math.max(newestVersion, entries.get(m).version());
      }
      groupByKey.put(en.getKey(), g);
      g++;
    }
    newest = newestVersion;
    for (var en : groupByKey.entrySet()) {
      String key = en.getKey();
      int colon = key.indexOf(':');
      if (colon < 0) {
        byWord.put(wordKey(key), en.getValue());
      }
    }
    for (var en : groupByKey.entrySet()) {
      String key = en.getKey();
      int colon = key.indexOf(':');
      if (colon < 0) continue;
      Integer base = groupByKey.get(key.substring(0, colon));
      if (base == null || entries.get(groups[base][0]).selectFrom() == 0) {
        throw new IllegalArgumentException("card-layout table: variant " + key + " has no base entry "
            + key.substring(0, colon) + " with select=");
      }
      byte[] v = key.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
      long packed = pack(v, 0, v.length);
      if (packed == 0) throw new IllegalArgumentException("card-layout table: variant " + key + " is longer than 7 bytes");
      if (variants[base] == null) variants[base] = new HashMap<>();
      variants[base].put(packed, en.getValue());
    }
    checks = new RowCheck[entries.size()][];
    endRows = new int[entries.size()];
    readsRows = new boolean[entries.size()];
    for (int e = 0; e < entries.size(); e++) {
      CardLayout c = entries.get(e);
      checks[e] = new RowCheck[c.rows().size()];
      endRows[e] = -1;
      for (int r = 0; r < c.rows().size(); r++) {
        checks[e][r] = new RowCheck(c, r);
        RowLayout.Kind k = c.rows().get(r).kind();
        if (endRows[e] < 0 && k == RowLayout.Kind.END) endRows[e] = r;
        readsRows[e] |= k == RowLayout.Kind.IF || k == RowLayout.Kind.REPEAT;
      }
    }
    for (var en : byWord.entrySet()) words.put(en.getKey(), en.getValue());
  }

  /** The table bundled with the plugin (read once). */
  public static CardLayouts bundled() {
    CardLayouts b = bundled;
    if (b == null) {
      synchronized (CardLayouts.class) {
        b = bundled;
        if (b == null) bundled = b = load();
      }
    }
    return b;
  }

  private static CardLayouts load() {
    String index = resource("INDEX");
    List<LayoutParser.Source> sources = new ArrayList<>();
    for (String line : index.split("\n")) {
      String name = line.trim();
      if (name.isEmpty() || name.startsWith("#")) continue;
      sources.add(new LayoutParser.Source(name, resource(name)));
    }
    return of(sources);
  }

  private static String resource(String name) {
    try (InputStream in = CardLayouts.class.getResourceAsStream(RESOURCE_DIR + name)) {
      if (in == null) {
        throw new IllegalStateException("the jar has no " + RESOURCE_DIR + name + ": rebuild it with mvn package");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + RESOURCE_DIR + name, e);
    }
  }

  static List<String> kinds(String text) {
    List<String> out = new ArrayList<>();
    int n = 0;
    for (String line : text.split("\n")) {
      n++;
      int bar = line.indexOf('|');
      String name = (bar < 0 ? line : line.substring(0, bar)).trim();
      if (name.isEmpty() || name.startsWith("#")) continue;
      if (!name.matches("[a-z][a-z0-9_]*") || out.contains(name)) {
        throw new IllegalStateException(RESOURCE_DIR + "KINDS:" + n + ": \"" + name + "\" is no new kind name");
      }
      out.add(name);
    }
    return List.copyOf(out);
  }

  static CardLayouts of(List<LayoutParser.Source> sources) {
    return new CardLayouts(LayoutParser.parse(sources));
  }

  /** A table from one text, for tests. */
  public static CardLayouts parse(String name, String text) {
    return of(List.of(new LayoutParser.Source(name, text)));
  }

  public List<CardLayout> entries() {
    return entries;
  }

  public CardLayout entry(int e) {
    return entries.get(e);
  }

  RowCheck check(int entry, int row) {
    return checks[entry][row];
  }

  /** The number of rows of entry {@code entry}'s layout. */
  public int rowCount(int entry) {
    return checks[entry].length;
  }

  int endRow(int entry) {
    return endRows[entry];
  }

  /**
   * Whether entry {@code entry}'s body is opaque: its layout is its header row and its end word
   * only, so the lines between are the card's own data in no layout (SECURE's encrypted input),
   * never checked. lua/nvimpam/model/layout/init.lua's opaque_body says the same.
   */
  boolean opaqueBody(int entry) {
    return checks[entry].length == 2 && endRows[entry] == 1;
  }

  boolean readsRows(int entry) {
    return readsRows[entry];
  }

  /** The greatest version any layout names: the version of a deck that names none. */
  public int newestVersion() {
    return newest;
  }

  /** The entries of a group, by ascending version. */
  public int[] group(int g) {
    return groups[g];
  }

  /**
   * The group of a card header line ({@code len} without a final CR), or -1 when the table has no
   * entry for it (or it is no card header line).
   */
  public int groupOf(byte[] a, int off, int len) {
    return groupOf(LineBytes.headerWord(a, off, len), a, off, len);
  }

  /** {@link #groupOf(byte[], int, int)} for a line whose header word is known already (0: none). */
  int groupOf(long word, byte[] a, int off, int len) {
    if (word == 0) return -1;
    int g = words.get(word);
    if (g < 0) return -1;
    Map<Long, Integer> v = variants[g];
    if (v == null) return g;
    CardLayout base = entries.get(groups[g][0]);
    int from = base.selectFrom() - 1;
    int to = Math.min(base.selectTo(), len);
    while (from < to && a[off + from] == ' ') from++;
    while (to > from && a[off + to - 1] == ' ') to--;
    if (from >= to) return g;
    Integer variant = v.get(pack(a, off + from, to - from));
    return variant == null ? g : variant;
  }

  /** Whether a card header's {@code word} alone decides its group (no type column tells variants apart). */
  boolean wordDecides(long word) {
    int g = words.get(word);
    return g >= 0 && variants[g] == null;
  }

  /** Whether the table has a card whose header word is bytes {@code [off, off + len)}. */
  public boolean knows(byte[] a, int off, int len) {
    if (len > 6) return false;
    long k = 0;
    for (int i = 0; i < len; i++) k = (k << 8) | (a[off + i] & 0xFF);
    return k != 0 && words.get(k) >= 0;
  }

  /**
   * The entry of group {@code g} for a deck of {@code version}: the greatest version at or below
   * it; -1 when the deck is older than every entry of the group (checked leniently).
   */
  public int pick(int g, int version) {
    int[] m = groups[g];
    for (int i = m.length - 1; i >= 0; i--) {
      if (entries.get(m[i]).version() <= version) return m[i];
    }
    return -1;
  }

  /** The entry of every group for one version, as {@link #pick} gives them. */
  private record Picks(int version, int[] entries) {}

  private volatile Picks picks; // the last version asked: a deck is checked and scanned at one version

  /**
   * {@link #pick} of every group for {@code version} (-1 where every layout is newer), by group;
   * made once per version asked, shared and not to be changed.
   */
  public int[] picks(int version) {
    Picks p = picks;
    if (p == null || p.version() != version) {
      int[] e = new int[groups.length];
      for (int g = 0; g < e.length; g++) e[g] = pick(g, version);
      picks = p = new Picks(version, e);
    }
    return p.entries();
  }

  /** Open addressing from non-zero longs to ints >= 0; -1 for a missing key. */
  private static final class LongIntMap {
    private long[] keys = new long[256];
    private int[] values = new int[256];
    private int size;

    int get(long k) {
      int mask = keys.length - 1;
      for (int s = slot(k, mask); keys[s] != 0; s = (s + 1) & mask) {
        if (keys[s] == k) return values[s];
      }
      return -1;
    }

    void put(long k, int v) {
      if (2 * (size + 1) > keys.length) grow();
      int mask = keys.length - 1;
      int s = slot(k, mask);
      while (keys[s] != 0 && keys[s] != k) s = (s + 1) & mask;
      if (keys[s] == 0) size++;
      keys[s] = k;
      values[s] = v;
    }

    private void grow() {
      long[] ok = keys;
      int[] ov = values;
      keys = new long[ok.length * 2];
      values = new int[ok.length * 2];
      size = 0;
      for (int i = 0; i < ok.length; i++) {
        if (ok[i] != 0) put(ok[i], ov[i]);
      }
    }

    private static int slot(long k, int mask) {
      return (int) ((k * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }
  }

  /** The header word of a key, packed as {@link LineBytes#headerWord} packs it. */
  private static long wordKey(String word) {
    long k = 0;
    for (int i = 0; i < word.length(); i++) k = (k << 8) | word.charAt(i);
    return k;
  }

  /** Up to 7 bytes with their count in the top byte; 0 when longer. */
  private static long pack(byte[] a, int off, int len) {
    if (len > 7) return 0;
    long k = (long) len << 56;
    for (int i = 0; i < len; i++) k |= (a[off + i] & 0xFFL) << (8 * (6 - i));
    return k;
  }

  /** The canonical text of the table (docs/CARDS.md and lua/nvimpam/model/layout/init.lua's dump()). */
  public String dump() {
    StringBuilder sb = new StringBuilder();
    for (CardLayout c : entries) {
      if (!sb.isEmpty()) sb.append('\n');
      sb.append("card ").append(c.key()).append(' ').append(c.category()).append(' ').append(c.version()).append(' ')
          .append(c.selectFrom() == 0 ? "-" : c.selectFrom() + "-" + c.selectTo()).append('|').append(c.description());
      for (RowLayout r : c.rows()) {
        sb.append("\nrow ").append(r.kind().token()).append(' ').append(dash(r.arg())).append(' ').append(dash(r.label()));
        for (FieldLayout f : r.fields()) {
          sb.append("\nfield ").append(f.from()).append(' ').append(f.to()).append(' ').append(f.type().token())
              .append(' ').append(f.name()).append(' ').append(dash(f.defaultValue())).append(' ')
              .append(dash(f.defines())).append(' ').append(dash(f.references())).append(' ')
              .append(f.values().isEmpty() ? "-" : String.join(",", f.values())).append(' ')
              .append(f.alignRight() ? "right" : "left").append('|').append(f.description());
        }
      }
    }
    return sb.toString();
  }

  private static String dash(String s) {
    return s == null ? "-" : s;
  }
}
