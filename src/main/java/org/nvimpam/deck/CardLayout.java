package org.nvimpam.deck;

import java.util.List;

/**
 * One entry of the card-layout table: a card (or one variant of it) as one PAM-CRASH version
 * lays it out (docs/CARDS.md). Fragments are expanded: {@link #rows} is what the walk applies.
 *
 * @param key {@code WORD} or {@code WORD:VARIANT}
 * @param word the header word (bytes 1–6 of the header line, trailing blanks removed)
 * @param version the first PAM-CRASH version (a year) whose decks this layout describes
 * @param selectFrom with {@code selectTo}, the 1-based columns whose text picks a variant; 0 when
 *     the entry has no variants
 */
public record CardLayout(String key, String word, String category, int version, int selectFrom, int selectTo,
    String description, List<RowLayout> rows) {
  public CardLayout {
    rows = List.copyOf(rows);
  }
}
