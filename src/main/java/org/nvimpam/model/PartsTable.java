package org.nvimpam.model;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link PartsModel} found: a row per PART (and per part id elements name without a PART
 * card), a row per point mass, the masses the solver adds that the table does not include, and
 * the model's total. Values are in the deck's own units, never converted.
 */
public record PartsTable(List<Part> parts, List<PointMass> masses, List<NotIncluded> notIncluded, double totalMass,
    double[] totalCog, long lines) {

  /**
   * One part. {@code material}: the material's id as text ({@code IDMAT}, or the RMAT line's
   * reading), empty when none; {@code thickness}: the PART's, NaN when it has none; {@code mass}
   * NaN and {@code reason} non-null when the mass cannot be computed; {@code cog} null then;
   * {@code bbox} {@code [xmin, ymin, zmin, xmax, ymax, zmax]} of its elements' nodes, null when it
   * has none; {@code file} and 0-based {@code line} of its PART card (null and -1 without one).
   */
  public record Part(int id, String name, String type, String material, long elements, long nodes, double thickness,
      double mass, String reason, double[] cog, double[] bbox, Path file, int line) {}

  /**
   * A MASS card: {@code node} the node it is put on, {@code mass} its translational mass (NaN with
   * a {@code reason}), {@code cog} where it sits.
   */
  public record PointMass(int node, String name, double mass, String reason, double[] cog, Path file, int line) {}

  /** A mass the solver adds or imposes that the table leaves out: what, where, and its line's text. */
  public record NotIncluded(String what, String text, Path file, int line) {}
}
