package org.nvimpam.deck;

import java.util.List;

/**
 * One known keyword: one row of the tables of FOLDS.md §4.
 *
 * @param header bytes 0–5 of its header line (bytes 6–7 are always {@code "/ "})
 * @param type the ATYPE word of a PART keyword (columns 17–24), the digit of an RBODY keyword
 *     (columns 25–32), empty for the others
 * @param name the keyword's name, as fold texts show it
 * @param gathered whether consecutive cards of the keyword form one fold (§5.8)
 * @param items what its card takes after the header line, in order (§4, §5)
 */
public record Keyword(String header, String type, String name, boolean gathered, List<CardItem> items) {
  public Keyword {
    if (header.length() != 6) throw new IllegalArgumentException("header of " + name + " is not 6 bytes: " + header);
    items = List.copyOf(items);
  }
}
