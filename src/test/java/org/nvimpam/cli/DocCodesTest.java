package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.ProblemCode;

/** {@code :help nvimpam-codes} lists exactly the codes of {@link ProblemCode}, with their text. */
class DocCodesTest {
  @Test
  void theHelpListsEveryCodeWithItsDescriptionAndHelp() throws IOException {
    List<String> doc = Files.readAllLines(Path.of("doc/nvimpam.txt"));
    int at = 0;
    while (!doc.get(at).contains("*nvimpam-codes*")) at++;
    Map<String, StringBuilder> entries = new LinkedHashMap<>();
    StringBuilder cur = null;
    for (int i = at + 1; i < doc.size(); i++) {
      String l = doc.get(i);
      if (l.startsWith("=====") || l.startsWith(" vim:")) break;
      if (!l.isEmpty() && Character.isLowerCase(l.charAt(0)) && l.contains("\t")) {
        cur = new StringBuilder();
        entries.put(l.substring(0, l.indexOf('\t')), cur);
        cur.append(l.substring(l.indexOf('\t')).strip());
      } else if (cur != null && l.startsWith("\t")) {
        cur.append(' ').append(l.strip());
      } else if (cur != null) {
        cur = null;
      }
    }
    assertEquals(java.util.Arrays.stream(ProblemCode.values()).map(ProblemCode::code).toList(), List.copyOf(entries.keySet()));
    for (ProblemCode c : ProblemCode.values()) {
      assertEquals(c.description() + " " + c.help(), entries.get(c.code()).toString(), c.code());
    }
    assertTrue(String.join("\n", doc).contains("*nvimpam-check*"));
  }
}
