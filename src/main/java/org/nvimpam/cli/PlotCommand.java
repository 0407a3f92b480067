package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.CurveSvg;
import org.nvimpam.model.Curves;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam plot DECK --function ID[,ID...] -o FILE.svg}: FUNCT curves as an SVG, headless. */
@Command(
    name = "plot",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Plots FUNCT curves of a PAM-CRASH deck (found in it or in the files it includes, as check finds "
          + "them) as an SVG: axes, ticks, minimum and maximum, a title and a colour per curve. The points are "
          + "drawn as the solver uses them: x * SCALX + SHIFTX, y * SCALY + SHIFTY (:help nvimpam-plot)."},
    footer = {
      "",
      "Exit status: 0 the SVG was written; 1 a FUNCT asked for is not in the deck or has no point (nothing is "
          + "written); 2 bad usage, or a deck or FILE that cannot be read or written."})
public final class PlotCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..1", description = "The deck.")
  private Path deck;

  @Option(names = "--function", paramLabel = "ID[,ID...]", split = ",", description = "The FUNCT ids to plot.")
  private List<String> functions = new ArrayList<>();

  @Option(names = {"-o", "--output"}, paramLabel = "FILE.svg", description = "Where the SVG goes.")
  private Path output;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) return usage(err, "no DECK given");
    if (functions.isEmpty()) return usage(err, "no --function ID given");
    if (output == null) return usage(err, "no -o FILE.svg given");
    Set<Integer> ids = new LinkedHashSet<>();
    for (String f : functions) {
      String t = f.strip();
      int id;
      try {
        id = Integer.parseInt(t.startsWith("+") ? t.substring(1) : t);
      } catch (NumberFormatException e) {
        id = -1;
      }
      if (id <= 0) return usage(err, "--function: \"" + f + "\" is no FUNCT id (a positive integer)");
      ids.add(id);
    }
    Curves.Found found;
    try {
      found = new Curves(CardLayouts.bundled()).find(deck, ids);
    } catch (IncludeFiles.Unreadable e) {
      return fail(err, 2, deck + " " + e.getMessage());
    } catch (IOException e) {
      return fail(err, 2, deck + " cannot be read (" + e.getMessage() + ")");
    }
    for (Curves.Problem p : found.problems()) {
      err.println("nvimpam plot: " + CheckCommand.display(deck, deck.toAbsolutePath().normalize(), p.file()) + ":"
          + (p.line() + 1) + ": " + p.message());
    }
    List<Curves.Curve> curves = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (int id : ids) {
      Curves.Curve c = found.curves().get(id);
      if (c == null) missing.add("FUNCT " + id + " is not defined in " + deck + " or the files it includes");
      else if (c.size() == 0) missing.add("FUNCT " + id + " has no point");
      else curves.add(c);
    }
    if (!missing.isEmpty()) {
      for (String m : missing) err.println("nvimpam plot: " + m);
      err.println("nvimpam plot: nothing written");
      err.flush();
      return 1;
    }
    try {
      Files.writeString(output, CurveSvg.render(curves), StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      return fail(err, 2, output + " cannot be written (no such folder)");
    } catch (java.nio.file.AccessDeniedException e) {
      return fail(err, 2, output + " cannot be written (permission denied)");
    } catch (IOException e) {
      return fail(err, 2, output + " cannot be written (" + e.getMessage() + ")");
    }
    err.flush();
    return 0;
  }

  private static int fail(PrintWriter err, int status, String why) {
    err.println("nvimpam plot: " + why);
    err.flush();
    return status;
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam plot: " + why);
    err.println("Usage: java -jar nvimpam.jar plot DECK --function ID[,ID...] -o FILE.svg  (help plot: the options)");
    err.flush();
    return 2;
  }
}
