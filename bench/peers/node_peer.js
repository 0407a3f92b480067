#!/usr/bin/env node
// The Node client (npm `neovim`) doing nvimpam's fold strategies the obvious way, for
// `bench --peers`. Same arguments and output as pynvim_peer.py; the Lua and VimL code sent is
// read from peer_common.py, so that both peers send the same.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { attach } = require('neovim');

function common(name) {
  const src = fs.readFileSync(path.join(__dirname, 'peer_common.py'), 'utf8');
  const m = src.match(new RegExp('^' + name + ' = (?:"""([\\s\\S]*?)"""|"([^"]*)"|(\\d+))', 'm'));
  if (!m) throw new Error('peer_common.py has no ' + name);
  return m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : Number(m[3]);
}

async function main() {
  const [nvimPath, deck, planFile, strategies, warmup, runs, pipeChunk, atomicBatch] = process.argv.slice(2);
  const folds = fs.readFileSync(planFile, 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => l.split(' ').map(Number));
  const cmds = folds.map(([s, e]) => `${s},${e}fold`);
  const flat = folds.flat();
  const LUA_LOOP = common('LUA_LOOP');
  const VIML_LOOP = common('VIML_LOOP');
  const CLEAR = common('CLEAR');
  const CHECK_LUA = common('CHECK_LUA');
  const BATCH = Number(atomicBatch);
  const CHUNK = Number(pipeChunk);
  const proc = spawn(nvimPath, ['--embed', '--headless', '-u', 'NONE', '-i', 'NONE', '-n'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const nvim = attach({ proc });
  await nvim.command('silent edit ' + deck.replace(/ /g, '\\ '));
  await nvim.command('setlocal foldmethod=manual');
  await nvim.command(VIML_LOOP);

  const apply = {
    // Every request written at once, then every reply awaited: the client's pipelining.
    'per-command': () => Promise.all(cmds.map((c) => nvim.command(c))),
    'call-atomic': async () => {
      for (let i = 0; i < cmds.length; i += BATCH) {
        await nvim.callAtomic(cmds.slice(i, i + BATCH).map((c) => ['nvim_command', [c]]));
      }
    },
    pipe: async () => {
      for (let i = 0; i < cmds.length; i += CHUNK) {
        await nvim.command(cmds.slice(i, i + CHUNK).join('|'));
      }
    },
    lua: () => nvim.lua(LUA_LOOP, [flat]),
    viml: () => nvim.call('PeerFold', [flat]),
  };
  for (const name of strategies.split(',')) {
    const ms = [];
    for (let r = 0; r < Number(warmup) + Number(runs); r++) {
      await nvim.command(CLEAR);
      const t0 = process.hrtime.bigint();
      await apply[name]();
      const t1 = process.hrtime.bigint();
      const found = await nvim.lua(CHECK_LUA, [flat]);
      if (found !== folds.length) throw new Error(`node ${name} left ${found} of ${folds.length} folds`);
      if (r >= Number(warmup)) ms.push(Number(t1 - t0) / 1e6);
    }
    ms.sort((a, b) => a - b);
    const n = ms.length;
    const median = n % 2 ? ms[(n - 1) / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    process.stdout.write(`${name} ${median.toFixed(4)} ${ms[0].toFixed(4)} ${ms[n - 1].toFixed(4)}\n`);
  }
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  nvim.quit();
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
