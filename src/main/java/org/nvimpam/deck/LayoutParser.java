package org.nvimpam.deck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the card-layout table's text (docs/CARDS.md, "Format") into {@link CardLayout}s, with
 * fragments expanded and implicit fields added. A malformed line is an error naming its file and
 * line: the table ships with the plugin, so it must never be half read.
 */
final class LayoutParser {
  /** One file of the table: its name (for messages) and text. */
  record Source(String name, String text) {}

  /** docs/CARDS.md's categories and the id kinds of the table's KINDS file; a word outside them is a typo. */
  static final Set<String> CATEGORIES = Set.of("Node", "Element", "Link", "Part", "Material", "Contact",
      "Constraint", "Load", "Auxiliary", "Output", "Control", "Safety", "Other");
  static final Set<String> KINDS = Set.copyOf(CardLayouts.KINDS);

  private final List<CardLayout> cards = new ArrayList<>();
  private final Map<String, List<RowLayout>> fragments = new HashMap<>();
  private final Set<String> seen = new HashSet<>();

  // The card or fragment being read.
  private String file;
  private int lineNo;
  private String cardLine;
  private int cardLineNo;
  private String[] cardHead;
  private String cardDescription;
  private String fragment;
  private List<RowLayout> rows;
  private RowLayout.Kind rowKind;
  private String rowArg;
  private String rowLabel;
  private List<FieldLayout> rowFields;

  static List<CardLayout> parse(List<Source> sources) {
    LayoutParser p = new LayoutParser();
    for (Source s : sources) p.read(s);
    return List.copyOf(p.cards);
  }

  private void read(Source s) {
    file = s.name();
    lineNo = 0;
    for (String raw : s.text().split("\n", -1)) {
      lineNo++;
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      String body = line;
      String description = "";
      int bar = line.indexOf('|');
      if (bar >= 0) {
        body = line.substring(0, bar);
        description = line.substring(bar + 1).trim();
      }
      String trimmed = body.trim();
      if (trimmed.isEmpty()) {
        if (bar >= 0) throw error("a description with nothing before it");
        continue;
      }
      if (trimmed.startsWith("#")) continue;
      String[] t = trimmed.split("\\s+");
      switch (t[0]) {
        case "card" -> startCard(t, description, trimmed);
        case "fragment" -> startFragment(t);
        case "use" -> use(t);
        case "row", "ges", "block", "end" -> startRow(t);
        default -> field(t, description);
      }
    }
    finish();
    file = null;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("card-layout table " + file + ":" + lineNo + ": " + what);
  }

  private void finish() {
    finishRow();
    if (cardHead != null) {
      lineNo = cardLineNo; // what is wrong with a card as a whole is reported at its card line
      String[] t = cardHead;
      String key = t[1];
      int colon = key.indexOf(':');
      String word = colon < 0 ? key : key.substring(0, colon);
      int version = number(t[3], "version");
      int selectFrom = 0;
      int selectTo = 0;
      for (int i = 4; i < t.length; i++) {
        if (t[i].startsWith("select=")) {
          int[] range = range(t[i].substring("select=".length()));
          selectFrom = range[0];
          selectTo = range[1];
        } else {
          throw error("unknown card attribute '" + t[i] + "' (in: " + cardLine + ")");
        }
      }
      if (rows.isEmpty()) throw error("card " + key + " has no rows");
      RowLayout head = rows.get(0);
      if (head.kind() != RowLayout.Kind.ROW || head.fields().isEmpty() || head.fields().get(0).type() != FieldType.KW) {
        throw error("card " + key + ": its first row must be a row whose first field is kw");
      }
      for (int i = 0; i < rows.size(); i++) {
        RowLayout row = rows.get(i);
        if (row.kind() != RowLayout.Kind.IF && row.kind() != RowLayout.Kind.REPEAT) continue;
        String name = row.kind() == RowLayout.Kind.IF ? row.condField() : row.arg();
        boolean found = false;
        for (int k = 0; k < i; k++) found |= rows.get(k).field(name) >= 0;
        if (!found) throw error("card " + key + ": row " + row.kind().token() + "=" + row.arg() + ": no earlier row has a field " + name);
      }
      if (!seen.add(key + "@" + version)) throw error("card " + key + " version " + version + " is defined twice");
      cards.add(new CardLayout(key, word, t[2], version, selectFrom, selectTo, cardDescription, rows));
    } else if (fragment != null) {
      fragments.put(fragment, List.copyOf(rows));
    }
    cardHead = null;
    fragment = null;
    rows = null;
  }

  private void startCard(String[] t, String description, String line) {
    finish();
    if (t.length < 4) throw error("expected: card KEY CATEGORY VERSION [select=A-B] | DESCRIPTION");
    String key = t[1];
    if (!key.matches("[A-Z][A-Z0-9_]{0,5}(:[^\\s:]+)?")) throw error("bad card key '" + key + "'");
    if (description.isEmpty()) throw error("card " + key + " has no description");
    if (!CATEGORIES.contains(t[2])) throw error("unknown category '" + t[2] + "'; one of " + new java.util.TreeSet<>(CATEGORIES));
    cardHead = t;
    cardLine = line;
    cardLineNo = lineNo;
    cardDescription = description;
    rows = new ArrayList<>();
  }

  private void startFragment(String[] t) {
    finish();
    if (t.length != 2) throw error("expected: fragment NAME");
    if (fragments.containsKey(t[1])) throw error("fragment " + t[1] + " is defined twice");
    fragment = t[1];
    rows = new ArrayList<>();
  }

  private void use(String[] t) {
    if (rows == null) throw error("use outside a card");
    if (fragment != null) throw error("a fragment cannot use another fragment");
    if (t.length != 2) throw error("expected: use NAME");
    List<RowLayout> f = fragments.get(t[1]);
    if (f == null) throw error("no fragment " + t[1] + " (fragments must come before their use)");
    finishRow();
    rows.addAll(f);
  }

  private void startRow(String[] t) {
    if (rows == null) throw error("a row outside a card or fragment");
    finishRow();
    rowFields = new ArrayList<>();
    rowLabel = null;
    rowArg = null;
    int i = 1;
    switch (t[0]) {
      case "row" -> {
        rowKind = RowLayout.Kind.ROW;
        if (i < t.length && t[i].equals("name")) {
          rowKind = RowLayout.Kind.NAME;
          i++;
        } else if (i < t.length && t[i].startsWith("if=")) {
          rowKind = RowLayout.Kind.IF;
          rowArg = t[i++].substring(3);
          if (!rowArg.matches("[^:!,]+[:!][^:!,]+(,[^:!,]+)*")) {
            throw error("expected if=FIELD:VALUE (or FIELD:V1,V2 for any of them, FIELD!V1,V2 for none of them)");
          }
        } else if (i < t.length && (t[i].startsWith("when=") || t[i].startsWith("until="))) {
          rowKind = t[i].startsWith("when=") ? RowLayout.Kind.WHEN : RowLayout.Kind.UNTIL;
          rowArg = t[i].substring(t[i].indexOf('=') + 1);
          i++;
          if (!rowArg.matches("[A-Z][A-Z0-9_]*")) throw error("expected when=WORD or until=WORD (a word in capitals)");
        } else if (i < t.length && t[i].startsWith("key=")) {
          rowKind = RowLayout.Kind.KEY;
          rowArg = t[i++].substring(4);
          if (!rowArg.matches("[A-Z][A-Z0-9_]*")) throw error("expected key=WORD (a word in capitals)");
        } else if (i < t.length && t[i].startsWith("repeat=")) {
          rowKind = RowLayout.Kind.REPEAT;
          rowArg = t[i++].substring(7);
          if (rowArg.isEmpty()) throw error("expected repeat=FIELD");
        }
      }
      case "ges" -> {
        rowKind = RowLayout.Kind.GES;
        if (i < t.length && !t[i].startsWith("label=")) rowArg = t[i++];
      }
      case "block" -> {
        rowKind = RowLayout.Kind.BLOCK;
        if (t.length < 3) throw error("expected: block START END");
        rowArg = t[1] + "," + t[2];
        i = 3;
      }
      case "end" -> {
        rowKind = RowLayout.Kind.END;
        if (t.length != 2) throw error("expected: end WORD");
        rowArg = t[1];
        i = 2;
      }
      default -> throw new IllegalStateException(t[0]);
    }
    for (; i < t.length; i++) {
      if (t[i].startsWith("label=")) {
        rowLabel = t[i].substring(6);
      } else {
        throw error("unknown row attribute '" + t[i] + "'");
      }
    }
  }

  private void finishRow() {
    if (rowFields == null) return;
    List<FieldLayout> f = rowFields;
    switch (rowKind) {
      case NAME -> {
        if (f.isEmpty()) {
          f = List.of(new FieldLayout(1, 4, FieldType.FIXED, "NAME", null, null, null, List.of(), false, "Fixed text NAME"),
              new FieldLayout(5, 80, FieldType.STR, "TITLE", null, null, null, List.of(), false, "Title"));
        }
      }
      case END -> {
        if (!f.isEmpty()) throw error("an end row lists no fields");
        f = List.of(new FieldLayout(1, rowArg.length(), FieldType.FIXED, rowArg, null, null, null, List.of(), false,
            "Fixed text " + rowArg));
      }
      case GES -> {
        if (!f.isEmpty()) throw error("a ges row has no fields");
      }
      default -> {}
    }
    rows.add(new RowLayout(rowKind, rowArg, rowLabel, f));
    rowFields = null;
  }

  private void field(String[] t, String description) {
    if (rowFields == null) throw error("a field outside a row: '" + String.join(" ", t) + "'");
    if (t.length < 3) throw error("expected: FROM-TO TYPE NAME [attr=value ...] | DESCRIPTION");
    boolean free = rowKind == RowLayout.Kind.KEY; // a key row's fields are the values of its value line, by place
    int[] r = free ? place(t[0]) : range(t[0]);
    FieldType type = FieldType.of(t[1]);
    if (type == null) throw error("unknown field type '" + t[1] + "'");
    String name = t[2];
    String dflt = null;
    String def = null;
    String ref = null;
    List<String> values = List.of();
    Boolean right = null;
    for (int i = 3; i < t.length; i++) {
      String a = t[i];
      int eq = a.indexOf('=');
      if (eq <= 0) throw error("expected attr=value, got '" + a + "'");
      String k = a.substring(0, eq);
      String v = a.substring(eq + 1);
      switch (k) {
        case "default" -> dflt = v;
        case "def" -> def = kind(v);
        case "ref" -> ref = kind(v);
        case "values" -> values = List.of(v.split(","));
        case "align" -> {
          if (!v.equals("left") && !v.equals("right")) throw error("align is left or right");
          right = v.equals("right");
        }
        default -> throw error("unknown field attribute '" + k + "'");
      }
    }
    if (free && (type != FieldType.INT && type != FieldType.FLOAT || def != null || ref != null)) {
      throw error("a key row's field is int or float, without def= or ref=");
    }
    if (type == FieldType.CHOICE && values.isEmpty()) throw error("choice field " + name + " has no values=");
    if (type != FieldType.CHOICE && !values.isEmpty()) throw error("values= on a field that is not a choice");
    if (type == FieldType.CONT ? r[1] > 81 : r[1] > 80) throw error("field " + name + " ends past column 80");
    if (type == FieldType.KW && (r[0] != 1 || r[1] != 8)) throw error("a kw field is 1-8");
    if (!rowFields.isEmpty() && rowFields.get(rowFields.size() - 1).to() >= r[0]) {
      throw error("field " + name + " overlaps or precedes the field before it");
    }
    rowFields.add(new FieldLayout(r[0], r[1], type, name, dflt, def, ref, values,
        right == null ? type.rightByDefault : right, description));
  }

  private String kind(String v) {
    if (!KINDS.contains(v)) throw error("unknown id kind '" + v + "'; one of " + new java.util.TreeSet<>(KINDS));
    return v;
  }

  /** A key row's field: its place N on the value line, the next after the fields before it. */
  private int[] place(String s) {
    int n = number(s, "value place");
    if (n != rowFields.size() + 1) throw error("expected value place " + (rowFields.size() + 1) + ", got '" + s + "'");
    return new int[] {n, n};
  }

  private int[] range(String s) {
    int dash = s.indexOf('-');
    if (dash <= 0) throw error("expected a column range FROM-TO, got '" + s + "'");
    int a = number(s.substring(0, dash), "column");
    int b = number(s.substring(dash + 1), "column");
    if (a < 1 || b < a) throw error("bad column range " + s);
    return new int[] {a, b};
  }

  private int number(String s, String what) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw error("expected a " + what + " number, got '" + s + "'");
    }
  }
}
