package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.lines.Lines;

/** The id kinds as the solver numbers them (docs/CARDS.md, "Id kinds"). */
class IdKindsTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  /** Duplicated keys of a 2011 deck, described: {@code material 1050 x2}. */
  private static List<String> duplicates(String... lines) {
    Lines deck = Lines.ofLatin1(lines);
    DefTable t = new DefTable();
    t.build(deck, 2011, new IdScanner(TABLE));
    Map<String, Integer> seen = new TreeMap<>();
    for (int d = 0; d < t.size(); d++) seen.merge(IdKinds.describe(t.key(d)), 1, Integer::sum);
    List<String> out = new ArrayList<>();
    seen.forEach((k, n) -> {
      if (n > 1) out.add(k + " x" + n);
    });
    assertEquals(out.size(), t.duplicated());
    return out;
  }

  /** Undefined references of a 2011 deck, described. */
  private static List<String> undefined(String... lines) {
    Lines deck = Lines.ofLatin1(lines);
    DefTable t = new DefTable();
    t.build(deck, 2011, new IdScanner(TABLE));
    RefProblems p = new RefProblems();
    p.checkAll(deck, 2011, new IdScanner(TABLE), t::count);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < p.size(); i++) out.add(IdKinds.describe(p.key(i)));
    return out;
  }

  private static String[] card(String header) {
    return new String[] {header, "NAME " + header.substring(0, 5).trim()};
  }

  private static String[] concat(String[]... parts) {
    List<String> out = new ArrayList<>();
    out.add("INPUTVERSION 2011");
    for (String[] p : parts) out.addAll(List.of(p));
    return out.toArray(String[]::new);
  }

  @Test
  void aMaterialAndAThermalVibroAcousticOrPorousMaterialMayShareANumber() {
    String[] deck = concat(card("MATER /     1050     100"), card("THMAT /     1050"), card("VAMAT /     1050"),
        card("PFMAT /     1050"));
    assertEquals(List.of(), duplicates(deck));
  }

  @Test
  void twoCardsOfOneKindWithOneNumberAreStillDuplicates() {
    assertEquals(List.of("material 1050 x2"), duplicates(concat(card("MATER /     1050     100"),
        card("MATER /     1050     103"))));
    assertEquals(List.of("thmat 7 x2"), duplicates(concat(card("THMAT /        7"), card("THMAT /        7"))));
  }

  @Test
  void partReferencesEachMaterialInItsOwnField() {
    String part = "PART  /        1   SHELL      11      12      13      14";
    String[] rest = {"NAME p", "        0.", "", "        1.    3", "", "END_PART"};
    String[] p = new String[rest.length + 1];
    p[0] = part;
    System.arraycopy(rest, 0, p, 1, rest.length);
    assertEquals(List.of("material 11", "vamat 12", "thmat 13", "pfmat 14"), undefined(concat(p)));
    // each field is satisfied by its own card only
    assertEquals(List.of(), undefined(concat(p, card("MATER /       11     100"), card("VAMAT /       12"),
        card("THMAT /       13"), card("PFMAT /       14"))));
    assertEquals(List.of("vamat 12", "thmat 13", "pfmat 14"), undefined(concat(p, card("MATER /       11     100"),
        card("MATER /       12     100"), card("MATER /       13     100"), card("MATER /       14     100"))));
  }

  @Test
  void everyHeaderRowWhoseColumns9To16HoldAnIdDefinesOrReferencesIt() {
    List<String> missing = new ArrayList<>();
    for (CardLayout c : TABLE.entries()) {
      for (FieldLayout f : c.rows().get(0).fields()) {
        // SUBDF's IDEFNOD is a flag, whatever its name says
        if (f.from() == 9 && f.type() == org.nvimpam.deck.FieldType.INT && f.name().startsWith("ID")
            && !f.name().equals("IDEFNOD") && f.defines() == null && f.references() == null) {
          missing.add(c.key() + "@" + c.version() + " " + f.name());
        }
      }
    }
    assertEquals(List.of(), missing);
  }

  @Test
  void cardsOnceWithoutAnIdKindNowDefineTheirOwn() {
    // FRICT 3 and LOOKU 3 are two numberings; two FRICTs with one number are a duplicate
    assertEquals(List.of("frict 3 x2"), duplicates(concat(new String[] {"FRICT /        3", "NAME f"},
        new String[] {"FRICT /        3", "NAME f"}, new String[] {"LOOKU /        3", "NAME l"})));
    // a CNTAC's IDFRIC names a FRICT
    String[] cntac = {"CNTAC /        1      33", "NAME c", "", "", String.format("%10s%10s", "0.1", "4"), "", "", "",
        "        PART 1", "        END", "        PART 1", "        END"};
    assertEquals(List.of("frict 4"), undefined(concat(cntac, card("PART  /        1   SHELL       0"))).stream()
        .filter(k -> !k.startsWith("part")).toList());
  }

  @Test
  void everyKindTheTableNamesIsDefinedByACardAndTheCardsOfAKindAreTheDocumentedOnes() {
    Map<String, java.util.Set<String>> definers = new TreeMap<>();
    for (CardLayout c : TABLE.entries()) {
      for (RowLayout r : c.rows()) {
        for (FieldLayout f : r.fields()) {
          if (f.defines() != null) definers.computeIfAbsent(f.defines(), k -> new java.util.TreeSet<>()).add(c.key().split(":")[0]);
        }
      }
    }
    assertEquals(CardLayouts.KINDS, IdKinds.NAMES.subList(1, IdKinds.NAMES.size()));
    for (String k : CardLayouts.KINDS) assertTrue(definers.containsKey(k), "no card defines kind " + k);
    assertEquals(java.util.Set.of("MATER"), definers.get("material"));
    assertEquals(java.util.Set.of("THMAT"), definers.get("thmat"));
    assertEquals(java.util.Set.of("VAMAT"), definers.get("vamat"));
    assertEquals(java.util.Set.of("PFMAT"), definers.get("pfmat"));
    assertEquals(java.util.Set.of("MMAT"), definers.get("mmat"));
    assertEquals(java.util.Set.of("NODE", "CNODE"), definers.get("node"));
  }
}
