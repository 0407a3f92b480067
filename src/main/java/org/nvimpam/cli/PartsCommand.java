package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.ReportJson;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.PartsFormat;
import org.nvimpam.model.PartsModel;
import org.nvimpam.model.PartsTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam parts DECK}: mass, centre of gravity and bounding box per PART, headless. */
@Command(
    name = "parts",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "The parts table of a PAM-CRASH deck and the files it includes, as :NvimpamParts shows it: per PART "
          + "its id, NAME, type, material, elements, nodes, thickness, mass, centre of gravity and bounding "
          + "box; the point masses (MASS cards); the model's total mass and centre of gravity.",
      "Mass: shells area x thickness x density (a non-zero thickness on the element wins over the PART's), "
          + "solids volume x density, beams and bars length x section area x density. Values are in the "
          + "deck's own units, never converted. A part whose mass cannot be computed says why instead; "
          + "masses the solver adds (NSMAS, RBODY types 3 and 4) are listed as not included."},
    footer = {
      "",
      "--format json: {\"parts\": [{id, name, type, material, elements, nodes, thickness, mass, reason, cog: "
          + "[x, y, z], bbox: [[xmin, ymin, zmin], [xmax, ymax, zmax]]}], \"masses\": [{node, name, mass, reason, "
          + "cog}], \"not_included\": [{file, line, what, text}], \"total\": {mass, cog}}; null where there is no value.",
      "--format csv: one row per part, point mass and the total, the first column saying which.",
      "",
      "Exit status: 0 every mass computed; 1 some part or point mass has none (its row says why); 2 bad "
          + "usage or a deck that cannot be read."})
public final class PartsCommand implements Callable<Integer> {
  enum Format { text, csv, json }

  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..1", description = "The deck (its include files are read too).")
  private Path deck;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, csv or json; default: ${DEFAULT-VALUE}.")
  private Format format;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) {
      err.println("nvimpam parts: no DECK given");
      err.println("Usage: java -jar nvimpam.jar parts [--format text|csv|json] DECK");
      err.flush();
      return 2;
    }
    PartsTable t;
    List<String> problems = new ArrayList<>();
    try (CheckProgress progress = CheckProgress.start(err)) {
      try {
        t = PartsModel.read(deck, progress, problems);
      } catch (IncludeFiles.Unreadable e) {
        progress.clear();
        err.println("nvimpam parts: " + deck + " " + e.getMessage());
        err.flush();
        return 2;
      } catch (IOException e) {
        progress.clear();
        err.println("nvimpam parts: " + deck + " cannot be read (" + e.getMessage() + ")");
        err.flush();
        return 2;
      }
      progress.clear();
    }
    Path root = deck.toAbsolutePath().normalize();
    switch (format) {
      case text -> {
        for (String l : PartsFormat.lines(t, f -> CheckCommand.display(deck, root, f)).all()) out.println(l);
      }
      case csv -> csv(out, t);
      case json -> json(out, t, root);
    }
    out.flush();
    for (String p : problems) err.println("nvimpam parts: " + p + " (left out)");
    err.flush();
    boolean missing = false;
    for (PartsTable.Part p : t.parts()) missing |= p.reason() != null;
    for (PartsTable.PointMass m : t.masses()) missing |= m.reason() != null;
    return missing || !problems.isEmpty() ? 1 : 0;
  }

  private static void csv(PrintWriter out, PartsTable t) {
    out.println("row,id,name,type,material,elements,nodes,thickness,mass,cog_x,cog_y,cog_z,xmin,ymin,zmin,xmax,ymax,zmax,reason");
    for (PartsTable.Part p : t.parts()) {
      StringBuilder sb = new StringBuilder("part,").append(p.id()).append(',').append(csv(p.name())).append(',')
          .append(csv(p.type())).append(',').append(csv(p.material())).append(',').append(p.elements()).append(',')
          .append(p.nodes()).append(',').append(num(p.thickness())).append(',').append(num(p.mass()));
      triple(sb, p.cog());
      triple(sb, p.bbox() == null ? null : new double[] {p.bbox()[0], p.bbox()[1], p.bbox()[2]});
      triple(sb, p.bbox() == null ? null : new double[] {p.bbox()[3], p.bbox()[4], p.bbox()[5]});
      out.println(sb.append(',').append(csv(p.reason() == null ? "" : p.reason())));
    }
    for (PartsTable.PointMass m : t.masses()) {
      StringBuilder sb = new StringBuilder("mass,").append(m.node()).append(',').append(csv(m.name())).append(",MASS,,,1,,")
          .append(num(m.mass()));
      triple(sb, m.cog());
      out.println(sb.append(",,,,,,,").append(csv(m.reason() == null ? "" : m.reason())));
    }
    StringBuilder sb = new StringBuilder("total,,,,,,,,").append(num(t.totalMass()));
    triple(sb, t.totalCog());
    out.println(sb.append(",,,,,,,"));
  }

  private static void triple(StringBuilder sb, double[] v) {
    for (int k = 0; k < 3; k++) sb.append(',').append(v == null ? "" : num(v[k]));
  }

  private static String csv(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) return s;
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  /** A number in full precision (what a script reads back is what nvimpam computed); empty or null for none. */
  private static String num(double d) {
    return Double.isNaN(d) ? "" : Double.toString(d);
  }

  private static String json(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? "null" : Double.toString(d);
  }

  private static String json(double[] v) {
    if (v == null) return "null";
    return "[" + json(v[0]) + ", " + json(v[1]) + ", " + json(v[2]) + "]";
  }

  private static String jsonString(String s) {
    return s == null ? "null" : ReportJson.quoted(s);
  }

  private void json(PrintWriter out, PartsTable t, Path root) {
    out.println("{");
    out.print("  \"parts\": [");
    int n = 0;
    for (PartsTable.Part p : t.parts()) {
      out.print(n++ == 0 ? "\n" : ",\n");
      String mat = p.material();
      String material = mat.isEmpty() ? "null" : mat.chars().allMatch(Character::isDigit) ? mat : jsonString(mat);
      double[] b = p.bbox();
      out.print("    {\"id\": " + p.id() + ", \"name\": " + jsonString(p.name()) + ", \"type\": " + jsonString(p.type())
          + ", \"material\": " + material + ", \"elements\": " + p.elements() + ", \"nodes\": " + p.nodes()
          + ", \"thickness\": " + json(p.thickness()) + ", \"mass\": " + json(p.mass()) + ", \"reason\": "
          + jsonString(p.reason()) + ", \"cog\": " + json(p.cog()) + ", \"bbox\": "
          + (b == null ? "null" : "[" + json(new double[] {b[0], b[1], b[2]}) + ", " + json(new double[] {b[3], b[4], b[5]}) + "]")
          + "}");
    }
    out.println(n == 0 ? "]," : "\n  ],");
    out.print("  \"masses\": [");
    n = 0;
    for (PartsTable.PointMass m : t.masses()) {
      out.print(n++ == 0 ? "\n" : ",\n");
      out.print("    {\"node\": " + m.node() + ", \"name\": " + jsonString(m.name()) + ", \"mass\": " + json(m.mass())
          + ", \"reason\": " + jsonString(m.reason()) + ", \"cog\": " + json(m.cog()) + "}");
    }
    out.println(n == 0 ? "]," : "\n  ],");
    out.print("  \"not_included\": [");
    n = 0;
    for (PartsTable.NotIncluded x : t.notIncluded()) {
      out.print(n++ == 0 ? "\n" : ",\n");
      out.print("    {\"file\": " + jsonString(CheckCommand.display(deck, root, x.file())) + ", \"line\": " + (x.line() + 1)
          + ", \"what\": " + jsonString(x.what()) + ", \"text\": " + jsonString(x.text()) + "}");
    }
    out.println(n == 0 ? "]," : "\n  ],");
    out.println("  \"total\": {\"mass\": " + json(t.totalMass()) + ", \"cog\": " + json(t.totalCog()) + "}");
    out.println("}");
  }
}
