package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The buffer-local mappings of pamcrash buffers, and how setup() turns them off or moves them. */
class MappingsTest extends WritingTestBase {

  private String map(String key, String mode) {
    return (String) lua("local m = vim.fn.maparg((...), select(2, ...), false, true) "
        + "return (m.buffer == 1 and m.desc) or ''", key, mode);
  }

  @Test
  void aPamcrashBufferHasTheFieldAndCardMappings() {
    open("INPUTVERSION 2011");
    assertEquals("nvimpam: next field start", map("<Tab>", "n"));
    assertEquals("nvimpam: previous field start", map("<S-Tab>", "n"));
    assertEquals("nvimpam: next field start (Insert and Replace mode)", map("<Tab>", "i"));
    assertEquals("nvimpam: next card", map("]]", "o"));
    assertEquals("nvimpam: the card under the cursor", map("ic", "x"));
  }

  @Test
  void anotherBufferHasNone() {
    lua("vim.cmd('enew!') vim.bo.filetype = 'text'");
    assertEquals("", map("<Tab>", "n"));
    assertEquals("", map("af", "o"));
  }

  @Test
  void mappingsFalseSetsNone() {
    setup("auto_attach = false, mappings = false");
    open("INPUTVERSION 2011");
    assertEquals("", map("<Tab>", "n"));
    assertEquals("", map("]]", "n"));
    assertEquals("", map("if", "x"));
  }

  @Test
  void aMappingCanMoveToAnotherKeyAndTheOthersStay() {
    setup("auto_attach = false, mappings = { field_next = '<C-n>' }");
    open("INPUTVERSION 2011");
    assertEquals("nvimpam: next field start", map("<C-N>", "n"));
    assertEquals("", map("<Tab>", "n"));
    assertEquals("nvimpam: previous field start", map("<S-Tab>", "n"));
  }

  @Test
  void aMappingSetToFalseIsLeftOut() {
    setup("auto_attach = false, mappings = { insert_field_next = false }");
    open("INPUTVERSION 2011");
    assertEquals("", map("<Tab>", "i"));
    assertEquals("nvimpam: next field start", map("<Tab>", "n"));
  }

  @Test
  void anUnknownMappingNameIsAnErrorNamingTheValidOnes() {
    Object e = lua("local ok, e = pcall(require('nvimpam').setup, { mappings = { feild_next = '<Tab>' } }) return e");
    assertTrue(((String) e).contains("unknown mapping 'feild_next'") && ((String) e).contains("field_next"), (String) e);
  }

  @Test
  void formatexprIsSetOnlyInPamcrashBuffersAndCanBeTurnedOff() {
    open("INPUTVERSION 2011");
    assertEquals("v:lua.require'nvimpam.edit.align'.formatexpr()", lua("return vim.bo.formatexpr"));
    setup("auto_attach = false, formatexpr = false");
    open("INPUTVERSION 2011");
    assertEquals("", lua("return vim.bo.formatexpr"));
  }

  @Test
  void theCommandsAreDefinedBySetup() {
    assertEquals(List.of(2L, 2L, 2L),
        lua("return { vim.fn.exists(':NvimpamCard'), vim.fn.exists(':NvimpamHeader'), vim.fn.exists(':NvimpamAlign') }"));
  }
}
