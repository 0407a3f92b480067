" PAM-CRASH input decks: comment lines and card header words. Two single-line matches and no
" regions, so that no line's colours depend on the lines above it and syncing costs nothing.
" After require('nvimpam').setup(), nvimpam's decoration provider draws these two itself, on
" the lines drawn only, together with the fields of known cards (lua/nvimpam/view/cells/init.lua): any
" syntax item costs a redraw more than the provider does, so then none is defined here.
if exists('b:current_syntax')
  finish
endif

lua require('nvimpam.view.cells').define_highlights()

if !luaeval("require('nvimpam.view.cells').provides_syntax()")
  syntax match NvimpamComment /^[$#].*/
  syntax match NvimpamKeyword /^[A-Z][A-Z0-9_ ]\{5}\/\%( \|$\)/
  syntax sync minlines=1 maxlines=1
endif

let b:current_syntax = 'pamcrash'
