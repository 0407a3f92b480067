-- PAM-CRASH decks: what belongs to the filetype itself. nvimpam's own part of a pamcrash buffer
-- (live folds, cells, mappings, 'formatexpr', 'omnifunc') comes from its FileType handler
-- (lua/nvimpam/live.lua), which plugin/nvimpam.vim sets up when Neovim starts.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

-- `$` starts a comment line (so do `#` lines): gc and 'comments' use it.
vim.bo.commentstring = '$ %s'
vim.bo.comments = ':$,:#'
-- Columns are fixed and the solver counts a tab as one column: never type one ('autoindent'
-- would turn the 8 blanks of a GES line into a tab).
vim.bo.expandtab = true
vim.b.undo_ftplugin = 'setlocal commentstring< comments< expandtab<'
