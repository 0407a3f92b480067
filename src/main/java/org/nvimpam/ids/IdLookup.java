package org.nvimpam.ids;

/** How many times the decks a check sees (a deck and its include files) define a key. */
@FunctionalInterface
public interface IdLookup {
  int count(long key);
}
