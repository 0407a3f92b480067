package org.nvimpam.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;

/**
 * The include tree as the model commands read it from disk: {@link IncludeWalk}'s order and rules,
 * each file reached checked to be readable, made a member and added to the list of files after the
 * top's. An INCLU line that cannot be followed goes to the members' {@code problem}; an I/O error of
 * a member ends the walk and is thrown as it is.
 */
public final class TreeWalk {
  private TreeWalk() {}

  /** What the walk reads of its members. */
  public interface Members<F> {
    Path path(F f);

    /** The INCLU lines of {@code f}, in order (a member read as it is met is read now). */
    List<IncludeLine> includes(F f) throws IOException;

    /** The member for file {@code p}, which can be read. */
    F open(Path p) throws IOException;

    /** INCLU line {@code at} of {@code in} cannot be followed, for {@code message}. */
    void problem(F in, IncludeLine at, ProblemCode code, String message);
  }

  /** Walks the tree of {@code top}, which {@code files} holds already; the files reached are added. */
  public static <F> void walk(F top, List<F> files, Members<F> members) throws IOException {
    try {
      IncludeWalk.walk(top, new IncludeWalk.Members<F>() {
        @Override
        public Path path(F f) {
          return members.path(f);
        }

        @Override
        public List<IncludeLine> includes(F f) {
          try {
            return members.includes(f);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public F open(Path p) throws IncludeFiles.Unreadable {
          IncludeFiles.readable(p);
          try {
            F f = members.open(p);
            files.add(f);
            return f;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public void problem(F in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
          members.problem(in, at, code, message);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
