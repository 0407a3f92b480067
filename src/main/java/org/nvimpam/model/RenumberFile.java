package org.nvimpam.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Renumber.Refusal;

/** One file of a renumber's tree, read whole or streamed; or, for a plan, a source's lines: its pieces and where it goes. */
final class RenumberFile {
  final Path path;
  final LineSource deck; // null while a file is streamed
  boolean lastTerminated;
  final boolean plan; // only the changed lines are kept, each with its terminator
  int index;
  int version = -1;
  Path target;
  final List<RenumberPiece> pieces = new ArrayList<>();
  final List<IncludeLine> includes = new ArrayList<>(); // a streamed file's

  RenumberFile(Path path, LineSource deck, boolean lastTerminated, boolean plan) {
    this.path = path;
    this.deck = deck;
    this.lastTerminated = lastTerminated;
    this.plan = plan;
  }

  Refusal refusal(int line, int col, String message) {
    return new Refusal(path, line, col, message, index);
  }
}
