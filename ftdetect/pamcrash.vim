" PAM-CRASH input decks. Neovim calls *.pc Pro*C, so the type is forced; *.inc files are many
" languages' includes, so they count only when they hold a PAM-CRASH card header line.
autocmd BufRead,BufNewFile *.pc set filetype=pamcrash
autocmd BufRead,BufNewFile *.inc
      \ if match(getline(1, 200), '^\(INPUTVERSION\|[A-Z][A-Z0-9_ ]\{5}/\( \|$\)\)') >= 0 |
      \   set filetype=pamcrash |
      \ endif
