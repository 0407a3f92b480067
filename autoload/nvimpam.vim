" nvimpam: VimL side of the plugin.
"
" nvimpam#apply() is the `viml` fold strategy: the JVM hands it one plan (see
" lua/nvimpam/folds.lua for the format) and it creates the folds with a VimL
" loop. Saving and restoring views and fold states is shared with the Lua side.

function! nvimpam#apply(plan) abort
  let l:wins = luaeval('require("nvimpam.folds").prepare(_A)', a:plan)
  try
    for l:win in l:wins
      call win_execute(l:win, 'call s:create_folds(a:plan.folds)')
    endfor
  catch
    call luaeval('require("nvimpam.folds").finish(_A[1], _A[2])', [a:plan.buf, v:true])
    throw 'nvimpam: ' . substitute(v:exception, '^Vim(\a*):', '', '')
  endtry
  call luaeval('require("nvimpam.folds").finish(_A[1], _A[2])', [a:plan.buf, v:false])
  return len(a:plan.folds) / 4
endfunction

" Creates the folds of a flat plan list (4 numbers per fold) in the current window.
function! s:create_folds(folds) abort
  let l:i = 0
  let l:n = len(a:folds)
  try
    while l:i < l:n
      execute a:folds[l:i] . ',' . a:folds[l:i + 1] . 'fold'
      let l:i += 4
    endwhile
  catch
    " Same form as the Lua side, so the JVM reads the failing fold the same way.
    throw printf('fold %d of %d (lines %d-%d): %s', l:i / 4 + 1, l:n / 4,
          \ a:folds[l:i], a:folds[l:i + 1], v:exception)
  endtry
endfunction

" Factory of the `java` remote-plugin host (see plugin/nvimpam.vim). Commands from the rplugin
" manifest share the JVM that setup()'s commands use; :UpdateRemotePlugins gets a JVM of its own,
" since it stops the host it asked for the specs.
function! nvimpam#rplugin_host(host) abort
  let l:shared = a:host.name ==# 'java'
  let l:chan = luaeval('require("nvimpam.host").channel_for_rplugin(_A)', l:shared)
  if l:chan <= 0
    throw 'nvimpam: ' . luaeval('require("nvimpam.host").last_error()')
  endif
  return l:chan
endfunction

" Completion of :NvimpamFoldStrategy for the rplugin manifest's command.
function! nvimpam#strategies(...) abort
  return join(luaeval('require("nvimpam.config").strategies'), "\n")
endfunction

" The manifest's commands hold the channel of the JVM that first served them (see
" remote#define#CommandOnChannel). When that JVM exits, lua/nvimpam/host.lua calls this: the host
" and its commands go back to starting a JVM on first use. Commands setup() defined stay.
function! nvimpam#rplugin_reset() abort
  call remote#host#Register('java', '*.nvimpam', function('nvimpam#rplugin_host'))
  let l:defined = nvim_get_commands({})
  for l:plugin in remote#host#PluginsForHost('java')
    if l:plugin.path !~# '\.nvimpam$'
      continue
    endif
    for l:spec in l:plugin.specs
      let l:cmd = get(l:defined, l:spec.name, {})
      if l:spec.type ==# 'command' && (empty(l:cmd) || stridx(l:cmd.definition, l:plugin.path) >= 0)
        call remote#define#CommandOnHost('java', l:plugin.path . ':command:' . l:spec.name, l:spec.sync,
              \ l:spec.name, l:spec.opts)
      endif
    endfor
  endfor
endfunction
