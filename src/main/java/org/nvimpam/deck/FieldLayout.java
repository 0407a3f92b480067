package org.nvimpam.deck;

import java.util.List;

/**
 * One field of a row: 1-based byte columns {@code from..to}, both inclusive (docs/CARDS.md).
 *
 * @param defaultValue what the solver reads for a blank field, or null
 * @param defines the kind of id the field defines, or null
 * @param references the kind of id the field references, or null
 * @param values the words of a {@link FieldType#CHOICE} field, else empty
 */
public record FieldLayout(int from, int to, FieldType type, String name, String defaultValue, String defines,
    String references, List<String> values, boolean alignRight, String description) {
  public FieldLayout {
    values = List.copyOf(values);
  }
}
