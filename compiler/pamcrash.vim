" Compiler: PAM-CRASH decks, checked by nvimpam's `check` (:help nvimpam-compiler).
" `:compiler pamcrash | make` checks the current deck and the files it includes into the
" quickfix list, errors, warnings and hints apart; `:make --top` adds options.
if exists('current_compiler')
  finish
endif
let current_compiler = 'pamcrash'

" The Java and the jar the plugin starts its JVM with (setup()'s `java` and `jar`).
let s:cmd = luaeval("(function() local j = require('nvimpam.host.java') "
      \ . "return vim.fn.shellescape(j.java()) .. ' -jar ' .. vim.fn.shellescape(j.jar()) end)()")
execute 'CompilerSet makeprg=' . escape(s:cmd . ' check %:S', ' \|"')
unlet s:cmd

" FILE:LINE:COL: error|warning|info: MESSAGE [CODE]; the summary on stderr is left out.
CompilerSet errorformat=%f:%l:%c:\ %trror:\ %m,%f:%l:%c:\ %tarning:\ %m,%f:%l:%c:\ %tnfo:\ %m,%-G%.%#
