package org.nvimpam.plugin;

import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.lines.LineSource;

/**
 * The field checks of one live buffer: the whole deck once after its first folds, then only what
 * each edit touches, and the capped list Neovim shows as diagnostics. Guarded by its
 * {@link LiveBuffer}'s lock, like the deck it reads.
 */
final class BufferChecks {
  private DeckProblems problems; // made at the first check: a buffer that is never checked never reads the table
  private boolean checked;
  private int declared = -1; // the deck's own INPUTVERSION
  private int inherited = -1; // the version of an open deck that includes this one
  private ProblemItems sent;
  private long sentGeneration; // of the problems that made `sent`, and the cap it was made with
  private int sentCap;

  boolean checked() {
    return checked;
  }

  /** The version the deck is checked as (docs/CARDS.md, "Versions"). */
  int version() {
    if (declared > 0) return declared;
    if (inherited > 0) return inherited;
    return CardLayouts.bundled().newestVersion();
  }

  /** The version the deck declares, -1 for none. */
  int declared() {
    return declared;
  }

  /** Whether a whole check begun by {@link #checkMore} is under way. */
  boolean checking() {
    return !checked && problems != null && problems.checking();
  }

  /**
   * About {@code lines} more lines of the whole check, begun first if none is under way (as a deck
   * an open deck including it checks as {@code inherited}, -1: none); true once the deck is
   * checked. Edits between two calls are followed.
   */
  boolean checkMore(LineSource deck, int inherited, int lines) {
    if (checked) return true;
    if (!checking()) {
      inherit(inherited, deck);
      if (problems == null) problems = new DeckProblems(CardLayouts.bundled());
      declared = DeckVersion.declared(deck);
      problems.beginCheck(version());
    }
    if (problems.checkStep(deck, lines)) checked = true;
    return checked;
  }

  /** Lines {@code [first, last)} were replaced by {@code count} lines (the deck holds the new ones). */
  void edited(LineSource deck, int first, int last, int count) {
    if (!checked && !checking()) return;
    if (first < DeckVersion.SCAN_LINES) {
      int v = version();
      declared = DeckVersion.declared(deck);
      if (version() != v) {
        again(deck);
        return;
      }
    }
    problems.edit(deck, first, last, count, version());
  }

  /** An including deck's version; true when it changed what the deck is checked as. */
  boolean inherit(int version, LineSource deck) {
    int before = version();
    inherited = version;
    if (version() == before || (!checked && !checking())) return false;
    again(deck);
    return checked;
  }

  /** The deck is checked as another version: all again, in steps if it was being checked in steps. */
  private void again(LineSource deck) {
    if (checked) {
      problems.checkAll(deck, version());
    } else {
      problems.beginCheck(version());
    }
  }

  /** Forgets the checks (they were turned off); a later {@link #checkMore} starts anew. */
  void drop() {
    checked = false;
    if (problems != null) problems.clear();
    sent = null;
  }

  /** The first {@code cap} problems and the total, as Neovim is to show them. */
  ProblemItems snapshot(LineSource deck, int cap) {
    return problems.snapshot(deck, cap);
  }

  /** The snapshot to send, or null when Neovim already shows exactly it. */
  ProblemItems changedSnapshot(LineSource deck, int cap) {
    // An edit that touched no problem: nothing to build (most edits, keystroke by keystroke).
    if (sent != null && problems.generation() == sentGeneration && cap == sentCap) return null;
    ProblemItems s = snapshot(deck, cap);
    sentGeneration = problems.generation();
    sentCap = cap;
    if (s.equals(sent)) return null;
    sent = s;
    return s;
  }
}
