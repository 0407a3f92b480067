package org.nvimpam.deck;

import java.util.Locale;

/** What a field of the card-layout table holds (docs/CARDS.md, "Fields"). */
public enum FieldType {
  KW(false),
  FIXED(false),
  INT(true),
  INT_OR_BLANK(true),
  FLOAT(true),
  STR(false),
  BLANK(false),
  FLAGS(true),
  CHOICE(true),
  CONT(false);

  /** Whether the value sits right-justified unless the table says otherwise. */
  final boolean rightByDefault;

  FieldType(boolean rightByDefault) {
    this.rightByDefault = rightByDefault;
  }

  /** The word the table spells it with. */
  public String token() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the runs-into test applies (an integer or a float). */
  public boolean numeric() {
    return this == INT || this == INT_OR_BLANK || this == FLOAT;
  }

  static FieldType of(String token) {
    for (FieldType t : values()) {
      if (t.token().equals(token)) return t;
    }
    return null;
  }
}
