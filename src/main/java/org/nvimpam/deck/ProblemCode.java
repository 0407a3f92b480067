package org.nvimpam.deck;

import java.util.Locale;

/**
 * Every problem nvimpam finds in a deck, by a stable code name: {@code check}'s output (text, JSON,
 * SARIF rules), {@code check --list-codes} and {@code :help nvimpam-codes} (DocCodesTest keeps the
 * two in step) all come from here. A new kind of problem gets a constant here, and the check that
 * finds it says which.
 */
public enum ProblemCode {
  FIELD_INT("A field that holds an integer holds something else.",
      "Write an optional sign and digits, with blanks around them only, inside the field's columns (the card's `$#` header shows them)."),
  FIELD_FLOAT("A field that holds a number holds something else.",
      "Write a number (1, -2.5, 1.5E3) inside the field's columns."),
  FIELD_FLAGS("A field of 0/1 flags holds another character.",
      "Write only 0 and 1 in the field."),
  FIELD_CHOICE("A field that takes one of a few words holds another.",
      "Write one of the values the message lists (the cell hint shows them too)."),
  FIELD_CONT("A continuation column holds something other than & or -.",
      "Write & or - in the continuation column, or leave it blank."),
  FIELD_RUNS_INTO("A number fills its field and goes on into the next one.",
      "The solver reads fixed columns: the two fields would read one number cut in two. Shorten the value or move it into its own columns."),
  FIELD_BLANK("Text in columns this card's layout leaves blank.",
      "The solver ignores these columns, so the text is probably in the wrong place: move it into the field it belongs to, or remove it."),
  TAB("A tab in a line of the deck (comment lines aside).",
      "The solver counts a tab as one column, so every field after it is read shifted: replace it with spaces."),
  PAST_80("Text past column 80.",
      "The solver reads 80 columns (81 for a continuation mark): the text is lost. Continue the card on a new row instead."),
  HEADER("A line that starts with a card's keyword but is no card header: its / is not in column 7, not followed by a blank, or missing.",
      "Write the keyword padded to 6 columns, / in column 7 and a blank after it, as the message shows (NODE  / )."),
  HEADER_UNKNOWN("A line shaped like a card header, with its / out of place, whose word nvimpam's card table does not know (a hint: the solver may know it).",
      "If it is meant as a card header, put / in column 7 and a blank after it; otherwise leave it."),
  ID_UNDEFINED("A reference to an id that no deck of the include tree defines.",
      "Define the id (a NODE, PART, MATER, ... with that number), fix the number, or include the file that defines it."),
  ID_DUPLICATE("An id defined more than once in the include tree.",
      "Each id of a kind is defined once: renumber one of them (:NvimpamRename) or remove the duplicate."),
  INCLUDE_MISSING("An INCLU file that is not found.",
      "A relative name is looked for next to the file that names it, then next to the top deck: fix the name or the file's place."),
  INCLUDE_UNREADABLE("An INCLU file that cannot be read (a folder, no permission, too big).",
      "Make the name point to a readable deck file."),
  INCLUDE_BINARY("An INCLU file that is binary, not a deck.",
      "The file holds NUL bytes: the name probably points to a result or a compressed file; point it to the deck."),
  INCLUDE_CYCLE("An INCLU file that includes, directly or through others, the file that includes it.",
      "The solver would read the files forever: remove the INCLU line that closes the cycle.");

  private final String description;
  private final String help;

  ProblemCode(String description, String help) {
    this.description = description;
    this.help = help;
  }

  /** The stable name: {@code field-int}, {@code id-undefined}, {@code include-cycle}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** One sentence: what the problem is. */
  public String description() {
    return description;
  }

  /** What to do about it. */
  public String help() {
    return help;
  }

  /** The constant of a code name, or null. */
  public static ProblemCode of(String code) {
    for (ProblemCode c : values()) {
      if (c.code().equals(code)) return c;
    }
    return null;
  }
}
