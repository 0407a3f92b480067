package org.nvimpam.gen;

import static org.nvimpam.gen.DeckLineWriter.ascii;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldType;
import org.nvimpam.deck.RowLayout;

/**
 * Writes whole cards as the card-layout table lays them out for one deck version (docs/CARDS.md):
 * the entry of a key, row by row, each value in its field's columns, so that the columns are the
 * table's by construction (gen's decks from version 2 on).
 *
 * <p>A field without a value is left blank (the solver reads its default). {@code if} rows are
 * written when the value of their field holds, {@code repeat} rows as often as their count field
 * says (an {@code until} row as often as the value named by its label, then its word's line),
 * {@code ges} and {@code block} rows by the caller; {@code when} rows are left out.
 */
final class TableCards {
  /** The lines of a card that the caller writes. */
  @FunctionalInterface
  interface Selections {
    /** The selection lines and END line of the card's {@code index}-th GES row (from 0). */
    void write(int index) throws IOException;

    /** The optional block that starts with {@code start} (its lines, END line included), if any. */
    default void block(String start) throws IOException {}
  }

  /** For cards without GES rows: a GES row is then the caller's bug; blocks are left out. */
  static final Selections NONE = index -> {
    throw new IllegalArgumentException("a card with a GES row needs its selections");
  };

  private final CardLayouts table;
  private final int version;
  private final Map<String, CardLayout> entries = new HashMap<>();
  private final byte[] line = new byte[80];

  TableCards(CardLayouts table, int version) {
    this.table = table;
    this.version = version;
  }

  /** The entry of {@code key} for this version: the greatest version at or below it. */
  CardLayout entry(String key) {
    return entries.computeIfAbsent(key, k -> {
      CardLayout best = null;
      for (CardLayout c : table.entries()) {
        if (c.key().equals(k) && c.version() <= version && (best == null || c.version() > best.version())) best = c;
      }
      if (best == null) throw new IllegalArgumentException("the card-layout table has no " + k + " for " + version);
      return best;
    });
  }

  /**
   * Writes the card of {@code key}: {@code values} holds field values by name (a {@code NAME} row
   * takes {@code TITLE}); GES rows are written by {@code selections}.
   */
  void write(DeckLineWriter w, String key, Map<String, String> values, Selections selections) throws IOException {
    CardLayout e = entry(key);
    int ges = 0;
    for (int r = 0; r < e.rows().size(); r++) {
      RowLayout row = e.rows().get(r);
      switch (row.kind()) {
        case ROW -> row(w, e, row, values);
        case IF -> {
          if (holds(e, row, values)) row(w, e, row, values);
        }
        case REPEAT -> {
          for (long n = count(e, row, values); n > 0; n--) row(w, e, row, values);
        }
        case NAME -> {
          String title = values.get("TITLE");
          w.text(ascii("NAME " + (title == null ? "" : title))).endLine();
        }
        case GES -> selections.write(ges++);
        case END -> w.text(ascii(row.arg())).endLine();
        case BLOCK -> selections.block(row.arg().substring(0, row.arg().indexOf(',')));
        case WHEN, KEY -> { } // optional: left out
        case UNTIL -> {
          for (long n = count(values, row.label()); n > 0; n--) row(w, e, row, values);
          int indent = row.fields().isEmpty() ? 0 : row.fields().get(0).from() - 1;
          w.spaces(indent).text(ascii(row.arg())).endLine();
        }
        default -> throw new AssertionError(row.kind());
      }
    }
  }

  private void row(DeckLineWriter w, CardLayout e, RowLayout row, Map<String, String> values) throws IOException {
    Arrays.fill(line, (byte) ' ');
    int len = 0;
    for (FieldLayout f : row.fields()) {
      String text;
      if (f.type() == FieldType.KW) {
        text = (e.word() + "      ").substring(0, 6) + "/ ";
      } else if (f.type() == FieldType.FIXED) {
        text = f.name();
      } else {
        text = values.get(f.name());
        if (text == null) continue;
      }
      int width = Math.min(f.to(), 80) - f.from() + 1;
      if (text.length() > width) {
        throw new IllegalArgumentException(e.key() + " / " + f.name() + ": \"" + text + "\" is wider than " + width);
      }
      int at = f.from() - 1 + (f.alignRight() && f.type() != FieldType.KW ? width - text.length() : 0);
      byte[] b = ascii(text);
      System.arraycopy(b, 0, line, at, b.length);
      len = Math.max(len, at + b.length);
    }
    while (len > 0 && line[len - 1] == ' ') len--;
    w.text(line, len).endLine();
  }

  /** The text of the field named {@code name} as written: its value, or blank. */
  private static String text(Map<String, String> values, String name) {
    String v = values.get(name);
    return v == null ? "" : v.strip();
  }

  private static boolean holds(CardLayout e, RowLayout row, Map<String, String> values) {
    String have = text(values, row.condField());
    boolean numeric = numeric(e, row.condField());
    boolean any = false;
    for (String want : row.condValues()) {
      any |= numeric ? !have.isEmpty() && Long.parseLong(have) == Long.parseLong(want) : have.equals(want);
    }
    return any != row.condNegated();
  }

  private static long count(CardLayout e, RowLayout row, Map<String, String> values) {
    return count(values, row.arg());
  }

  /** The number the value of {@code name} holds, 0 for none. */
  private static long count(Map<String, String> values, String name) {
    String have = text(values, name);
    return have.isEmpty() ? 0 : Long.parseLong(have);
  }

  /** Whether the field named {@code name} in an earlier row of {@code e} is an integer field. */
  private static boolean numeric(CardLayout e, String name) {
    for (RowLayout r : e.rows()) {
      int i = r.field(name);
      if (i >= 0) {
        FieldType t = r.fields().get(i).type();
        return t == FieldType.INT || t == FieldType.INT_OR_BLANK;
      }
    }
    return false;
  }

}
