package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.model.Renumber.Refusal;
import org.nvimpam.model.Renumber.Result;

/**
 * A renumber by offsets from files, streamed: an offset needs no definitions before it rewrites,
 * so each file is read in pieces of whole cards, rewritten on the workers and written to its
 * temporary file piece by piece, in order (direct writes), each piece dropped once written; the
 * files are moved into place when nothing is refused.
 */
final class RenumberStream {
  private final RenumberPlanner ids;

  RenumberStream(RenumberPlanner ids) {
    this.ids = ids;
  }

  /** Offsets the ids of the tree of {@code root} and writes it, as {@link Renumber#run} does. */
  Result stream(Path root) throws IOException {
    List<Refusal> refusals = new ArrayList<>();
    List<RenumberFile> files = new ArrayList<>();
    RenumberPlanner.Maps maps = ids.offsets();
    ExecutorService pool = ids.pool();
    Path rootDir = root.getParent();
    Path out = ids.options.outDir() == null ? rootDir : ids.options.outDir().toAbsolutePath().normalize();
    List<Path> temps = new ArrayList<>();
    List<Path> made = new ArrayList<>(); // folders made for the temporary files
    long[] lines = {0};
    try {
      RenumberFile top = new RenumberFile(root, null, true, false);
      files.add(top);
      TreeWalk.walk(top, files, new TreeWalk.Members<RenumberFile>() {
        @Override
        public Path path(RenumberFile f) {
          return f.path;
        }

        @Override
        public List<IncludeLine> includes(RenumberFile f) throws IOException {
          Path rel = rootDir.relativize(f.path);
          Path target = rel.startsWith("..") || rel.isAbsolute() ? (ids.options.inPlace() ? f.path : null) : out.resolve(rel).normalize();
          Path tmp = null;
          if (target != null && TreeWrite.unwritable(target) == null) {
            tmp = TreeWrite.stage(target, Renumber.TAG, made);
            temps.add(tmp);
          }
          lines[0] += streamFile(f, top.version, tmp, pool, maps);
          return f.includes;
        }

        @Override
        public RenumberFile open(Path p) {
          return new RenumberFile(p, null, true, false);
        }

        @Override
        public void problem(RenumberFile in, IncludeLine at, ProblemCode code, String message) {
          refusals.add(new Refusal(in.path, at.line(), at.from(), message + ": the ids of the tree cannot all be renumbered without it"));
        }
      });
      ids.targets(files, refusals);
      ids.undescribed(files, ids.maps(files, null, refusals), refusals);
      long[] changed = ids.changed(files, refusals);
      List<Path> paths = new ArrayList<>();
      for (RenumberFile f : files) paths.add(f.path);
      if (!refusals.isEmpty()) return new Result(root, paths, List.of(), changed, refusals, lines[0]);
      List<Path> written = new ArrayList<>();
      for (RenumberFile f : files) {
        Path tmp = TreeWrite.temp(f.target, Renumber.TAG);
        TreeWrite.place(tmp, f.target);
        temps.remove(tmp);
        written.add(f.target);
      }
      made.clear();
      return new Result(root, paths, written, changed, List.of(), lines[0]);
    } finally {
      pool.shutdownNow();
      for (Path t : temps) Files.deleteIfExists(t);
      TreeWrite.unmake(made);
    }
  }

  /**
   * Reads {@code f} in pieces of whole cards, rewrites them on {@code pool} and writes them in
   * order to {@code tmp} (nothing written when null); its lines.
   */
  private long streamFile(RenumberFile f, int topVersion, Path tmp, ExecutorService pool, RenumberPlanner.Maps maps) throws IOException {
    long size = FileBytes.size(f.path);
    f.lastTerminated = FileBytes.lastTerminated(f.path, size);
    int window = 2 * ids.options.threads() + 1;
    java.util.ArrayDeque<Future<RenumberPiece>> ahead = new java.util.ArrayDeque<>();
    long[] base = {0};
    long[] bytes = {0};
    try (OutputStream o = tmp == null ? OutputStream.nullOutputStream() : new DirectOut(tmp)) {
      CardPieces pieces = new CardPieces(l -> {
        int n = l.lineCount();
        RenumberPiece p = new RenumberPiece(ids, f, l, (int) base[0], 0, n, false);
        List<IncludeLine> found = new ArrayList<>();
        IncludeLine.read(l, 0, n, found);
        for (IncludeLine il : found) f.includes.add(new IncludeLine(il.line() + p.base, il.from(), il.to(), il.name()));
        base[0] += n;
        p.maps = maps;
        f.pieces.add(p);
        ahead.add(pool.submit(() -> {
          p.pass2(true);
          return p;
        }));
        if (ids.progress != null) ids.progress.read(f.path, bytes[0], base[0]);
        try {
          while (ahead.size() > window) put(ahead.poll(), o, false);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      try {
        DeckFile.read(f.path, size, false, c -> {
          if (f.version < 0) f.version = DeckVersion.readAs(ChunkLines.of(c), topVersion, ids.table.newestVersion());
          bytes[0] += c.byteSize();
          pieces.take(c);
        });
        pieces.end();
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      if (f.version < 0) f.version = topVersion > 0 ? topVersion : ids.table.newestVersion();
      while (!ahead.isEmpty()) put(ahead.poll(), o, ahead.isEmpty() && !f.lastTerminated);
    } finally {
      for (Future<RenumberPiece> x : ahead) x.cancel(true);
    }
    return base[0];
  }

  /** Writes a rewritten piece and drops its lines; {@code unterminated}: the file's last line has no newline. */
  private static void put(Future<RenumberPiece> x, OutputStream o, boolean unterminated) throws IOException {
    RenumberPiece p;
    try {
      p = x.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) throw io;
      if (c instanceof RuntimeException r) throw r;
      if (c instanceof Error er) throw er;
      throw new IllegalStateException(c);
    }
    int n = p.out.size;
    if (unterminated && n > 0 && p.out.a[n - 1] == '\n') n--;
    o.write(p.out.a, 0, n);
    p.drop();
  }
}
