" nvimpam: PAM-CRASH decks in Neovim. It starts here with the options of g:nvimpam (or the
" defaults); require('nvimpam').setup({...}) only changes them. Users of :UpdateRemotePlugins get
" the commands from the rplugin manifest too, through the `java` remote-plugin host below.
if exists('g:loaded_nvimpam')
  finish
endif
let g:loaded_nvimpam = 1

" rplugin/java/*.nvimpam files are plugins of the `java` host; nvimpam#rplugin_host starts it.
call remote#host#Register('java', '*.nvimpam', function('nvimpam#rplugin_host'))

" Commands, the autocmds that fold pamcrash buffers, their mappings and cells; nothing runs until
" a deck opens (the JVM starts then). let g:nvimpam_no_start = 1 leaves it to setup().
if !get(g:, 'nvimpam_no_start', 0)
  lua require('nvimpam').start()
endif
