package org.nvimpam.testutil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.nvimpam.fold.Fold;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.lines.Lines;

/** The fold test vectors of spec/fold-vectors.json (FOLDS.md §13), read from the classpath. */
public final class Vectors {
  private Vectors() {}

  /** One edit step: replace lines [first, last) by {@code lines}; the folds expected after it. */
  public record Edit(int first, int last, Lines lines, List<Fold> compatible, List<Fold> generic) {
    public List<Fold> expected(FoldOptions o) {
      return o.genericCards() ? generic : compatible;
    }
  }

  /** One vector; {@code deckSha256} is null for inline lines. */
  public record Vector(
      String id, String category, Lines lines, String deckSha256, byte[] deckBytes,
      List<Fold> compatible, List<Fold> generic, List<Edit> edits) {
    public List<Fold> expected(FoldOptions o) {
      return o.genericCards() ? generic : compatible;
    }

    @Override
    public String toString() {
      return id;
    }
  }

  private static List<Vector> all;

  public static synchronized List<Vector> all() {
    if (all == null) all = load();
    return all;
  }

  @SuppressWarnings("unchecked")
  private static List<Vector> load() {
    String text = new String(resource("/spec/fold-vectors.json"), StandardCharsets.UTF_8);
    Map<String, Object> root = (Map<String, Object>) Json.parse(text);
    List<Vector> out = new ArrayList<>();
    for (Object o : (List<Object>) root.get("vectors")) {
      Map<String, Object> v = (Map<String, Object>) o;
      Lines lines;
      byte[] deckBytes = null;
      if (v.containsKey("deck")) {
        deckBytes = resource("/" + v.get("deck"));
        lines = Lines.split(deckBytes);
      } else {
        lines = lines((List<Object>) v.get("lines"));
      }
      Map<String, Object> exp = (Map<String, Object>) v.get("expected");
      List<Edit> edits = new ArrayList<>();
      for (Object e : (List<Object>) v.getOrDefault("edits", List.of())) {
        Map<String, Object> m = (Map<String, Object>) e;
        Map<String, Object> ee = (Map<String, Object>) m.get("expected");
        edits.add(new Edit(
            ((Long) m.get("first")).intValue(), ((Long) m.get("last")).intValue(),
            lines((List<Object>) m.get("lines")), folds(ee.get("compatible")), folds(ee.get("generic"))));
      }
      out.add(new Vector(
          (String) v.get("id"), (String) v.get("category"), lines, (String) v.get("deck_sha256"),
          deckBytes, folds(exp.get("compatible")), folds(exp.get("generic")), edits));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Lines lines(List<Object> entries) {
    String[] s = new String[entries.size()];
    for (int i = 0; i < s.length; i++) {
      Object e = entries.get(i);
      if (e instanceof String str) {
        s[i] = str;
      } else {
        Map<String, Object> m = (Map<String, Object>) e;
        s[i] = m.get("prefix") + ((String) m.get("fill")).repeat(((Long) m.get("count")).intValue())
            + m.get("suffix");
      }
    }
    return Lines.ofLatin1(s);
  }

  @SuppressWarnings("unchecked")
  private static List<Fold> folds(Object list) {
    List<Fold> out = new ArrayList<>();
    for (Object o : (List<Object>) list) {
      List<Object> f = (List<Object>) o;
      out.add(new Fold(((Long) f.get(0)).intValue(), ((Long) f.get(1)).intValue(),
          ((Long) f.get(2)).intValue(), (String) f.get(3)));
    }
    return out;
  }

  public static byte[] resource(String path) {
    try (InputStream in = Vectors.class.getResourceAsStream(path)) {
      if (in == null) throw new IllegalStateException("missing classpath resource " + path);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
