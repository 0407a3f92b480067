" nvimpam: VimL side of the plugin.
"
" nvimpam#apply() is the `viml` fold strategy. The JVM first stages the plan in Lua (see
" lua/nvimpam/fold/plan.lua for the format; it is what the fold texts and the saved fold states are
" read from), then hands this function the plan's folds as prebuilt `S,Efold` commands, which
" nvimpam#execute_lines() runs from C: as fast as Neovim runs commands at all. Where Lua can call
" Neovim's foldCreate() (lua/nvimpam/fold/native.lua), that creates the folds from the staged plan
" instead, and the JVM leaves the commands out once an answer has said so. Saving and restoring
" views and fold states is shared with the Lua side.

" Returns {'ok': folds per window, 'native': whether the next plan can come without its commands},
" or {'error': value} (see lua/nvimpam/contract.properties) with no folds left behind: a value
" reaches the JVM whole, where a thrown one is a string.
"
" {cmds} is one string of newline-separated lines of '|'-joined commands (what the JVM sends), a
" list of such lines, or empty.
function! nvimpam#apply(buf, cmds) abort
  let l:wins = luaeval('require("nvimpam.fold").prepare_staged(_A)', a:buf)
  let l:cmds = a:cmds
  let l:left = l:wins
  try
    let l:left = luaeval('require("nvimpam.fold").create_natively_in(_A[1], _A[2])', [a:buf, l:wins])
    if !empty(l:left)
      if empty(l:cmds)
        let l:cmds = luaeval('require("nvimpam.fold").commands(_A)', a:buf)
      endif
      for l:win in l:left
        call win_execute(l:win, 'call nvimpam#execute_lines(l:cmds)')
      endfor
    endif
  catch
    " Which fold failed: execute() does not say, so Lua makes the plan's folds again one by one.
    let l:error = luaeval('require("nvimpam.fold").failing_fold(_A[1], _A[2], _A[3])',
          \ [a:buf, l:left, v:exception])
    call luaeval('require("nvimpam.fold").finish(_A[1], _A[2])', [a:buf, v:true])
    return {'error': l:error}
  endtry
  call luaeval('require("nvimpam.fold").finish(_A[1], _A[2])', [a:buf, v:false])
  return {'ok': luaeval('require("nvimpam.fold").applied(_A).n', a:buf),
        \ 'native': luaeval('require("nvimpam.fold").creates_natively()')}
endfunction

" Runs newline-separated lines of commands (or a list of them) from C, stopping at the first
" error: how the `viml` and `lua` strategies create their folds where they cannot call
" foldCreate() (lua/nvimpam/fold/native.lua). Their lines join a few commands by '|'
" (SingleCallStrategy.DEFAULT_PER_LINE has the measurements): then split() and execute() cost
" about what execute() of a ready list of single commands costs.
function! nvimpam#execute_lines(cmds) abort
  call execute(type(a:cmds) == v:t_list ? a:cmds : split(a:cmds, "\n"))
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
  return join(luaeval('require("nvimpam.core.config").strategies'), "\n")
endfunction

" The manifest's commands hold the channel of the JVM that first served them (see
" remote#define#CommandOnChannel). When that JVM exits, lua/nvimpam/host/init.lua calls this: the host
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
