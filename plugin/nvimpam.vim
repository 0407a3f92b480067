" nvimpam: PAM-CRASH folding. Commands come from require('nvimpam').setup(), or, for users of
" :UpdateRemotePlugins, from the rplugin manifest through the `java` remote-plugin host below.
if exists('g:loaded_nvimpam')
  finish
endif
let g:loaded_nvimpam = 1

" rplugin/java/*.nvimpam files are plugins of the `java` host; nvimpam#rplugin_host starts it.
call remote#host#Register('java', '*.nvimpam', function('nvimpam#rplugin_host'))
