package org.nvimpam.ids;

import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.CardLayouts;

/**
 * The id kinds of the card-layout table (docs/CARDS.md, "Id kinds") as small codes, and the key
 * an id of a kind is held under: {@code kind << 32 | id}, id a positive int. A group is named by
 * its title, not a number: its id is the title's number in {@link IdNames}.
 */
public final class IdKinds {
  /** The kinds, by code (lua/nvimpam/layout/KINDS, in order, from 1); code 0 is no kind. */
  public static final List<String> NAMES = names();
  public static final int NODE = NAMES.indexOf("node");
  public static final int ELEMENT = NAMES.indexOf("element");
  public static final int PART = NAMES.indexOf("part");
  public static final int GROUP = NAMES.indexOf("group");

  private IdKinds() {}

  private static List<String> names() {
    List<String> n = new ArrayList<>(List.of(""));
    n.addAll(CardLayouts.KINDS);
    return List.copyOf(n);
  }

  /** The code of a kind's name, 0 for none (null or unknown). */
  public static int code(String name) {
    if (name == null) return 0;
    int c = NAMES.indexOf(name);
    return Math.max(c, 0);
  }

  public static String name(int code) {
    return code > 0 && code < NAMES.size() ? NAMES.get(code) : "id";
  }

  /**
   * The bit of a kind in the kind masks of the scans and the definition blocks ({@code int}s):
   * bit {@code kind mod 32}. There are more kinds than bits, so a mask is a filter that may let
   * another kind through, never one that drops its own: every user compares the whole key after it.
   */
  public static int bit(int kind) {
    return 1 << (kind & 31);
  }

  /** Whether ids of the kind are names (text fields, quoted GES items), not numbers. */
  public static boolean named(int code) {
    return code == GROUP;
  }

  /** The key as messages name it: {@code part 12}, {@code group 'doors'}. */
  public static String describe(long key) {
    int kind = kindOf(key);
    return name(kind) + " " + (named(kind) ? "'" + IdNames.text(idOf(key)) + "'" : Integer.toString(idOf(key)));
  }

  /**
   * The id of named kind {@code k} that a user typed: the title, blanks around it dropped; not
   * empty, and no quote inside, as GES items quote it.
   */
  public static int titleId(int k, String typed) {
    String title = typed.strip();
    if (title.isEmpty() || title.indexOf('\'') >= 0) {
      throw new IllegalArgumentException("nvimpam: a " + name(k) + " title is not empty and holds no quote ('), not \"" + title + "\"");
    }
    return IdNames.intern(title);
  }

  /** The id of numbered kind {@code k} that a user gave: a positive int. */
  public static int numberId(int k, long id) {
    if (id <= 0 || id > Integer.MAX_VALUE) throw new IllegalArgumentException("nvimpam: " + id + " is no " + name(k) + " id");
    return (int) id;
  }

  public static long key(int kind, int id) {
    return ((long) kind << 32) | (id & 0xFFFFFFFFL);
  }

  public static int kindOf(long key) {
    return (int) (key >>> 32);
  }

  public static int idOf(long key) {
    return (int) key;
  }

  /**
   * The kind a GES selection word selects ({@code PART}, {@code NOD}, {@code ELE>NOD}, {@code
   * GRP}…) in bytes {@code [s, e)}: the kind of its items, 0 for words whose items are no ids of a
   * kind we index.
   */
  static int gesKind(byte[] a, int s, int e) {
    int n = e - s;
    int p = s;
    if (n > 3 && a[p] == 'D' && a[p + 1] == 'E' && a[p + 2] == 'L') p += 3; // DELNOD, DELELE, DELPART, DELGRP
    if (p < e && a[p] == 'O') p++; // OGRP
    if (e - p >= 4 && a[p] == 'P' && a[p + 1] == 'A' && a[p + 2] == 'R' && a[p + 3] == 'T') return PART;
    if (e - p >= 3 && a[p] == 'N' && a[p + 1] == 'O' && a[p + 2] == 'D') return NODE;
    if (e - p >= 3 && a[p] == 'E' && a[p + 1] == 'L' && a[p + 2] == 'E') return ELEMENT;
    if (e - p >= 3 && a[p] == 'G' && a[p + 1] == 'R' && a[p + 2] == 'P') return GROUP; // GRP, OGRP, DELGRP, GRP>NOD
    return 0;
  }
}
