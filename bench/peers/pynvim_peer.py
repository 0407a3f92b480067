#!/usr/bin/env python3
"""pynvim doing nvimpam's fold strategies the obvious way, for `bench --peers`.

Usage: pynvim_peer.py NVIM DECK PLAN STRATEGIES WARMUP RUNS PIPE_CHUNK ATOMIC_BATCH
PIPE_CHUNK and ATOMIC_BATCH are nvimpam's sizes for pipe and call-atomic.
PLAN holds one fold per line, "start end", in creation order (children before parents).
Prints one line per strategy: "name median_ms min_ms max_ms". Each run starts from no folds
(cleared in a request of its own) and is checked afterwards, as nvimpam's own runs are.
"""
import statistics
import sys
import time

import pynvim

from peer_common import CHECK_LUA, CLEAR, LUA_LOOP, VIML_LOOP, atomic_batches, pipe_lines


def main():
    nvim_path, deck, plan_file, strategies, warmup, runs, pipe_chunk, atomic_batch = sys.argv[1:9]
    folds = [tuple(map(int, line.split())) for line in open(plan_file) if line.strip()]
    cmds = ["%d,%dfold" % f for f in folds]
    nvim = pynvim.attach("child", argv=[nvim_path, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n"])
    nvim.command("silent edit " + deck.replace(" ", "\\ "))
    nvim.command("setlocal foldmethod=manual")
    nvim.command(VIML_LOOP)
    flat = [x for f in folds for x in f]

    def per_command():
        for c in cmds[:-1]:
            nvim.command(c, async_=True)  # pipelined: pynvim's way to not wait for each reply
        nvim.command(cmds[-1])

    def call_atomic():
        for batch in atomic_batches(cmds, int(atomic_batch)):
            nvim.api.call_atomic(batch)

    def pipe():
        for line in pipe_lines(cmds, int(pipe_chunk)):
            nvim.command(line)

    def lua():
        nvim.exec_lua(LUA_LOOP, flat)

    def viml():
        nvim.call("PeerFold", flat)

    apply = {"per-command": per_command, "call-atomic": call_atomic, "pipe": pipe, "lua": lua, "viml": viml}
    for name in strategies.split(","):
        ms = []
        for r in range(int(warmup) + int(runs)):
            nvim.command(CLEAR)
            t0 = time.perf_counter()
            apply[name]()
            t1 = time.perf_counter()
            found = nvim.exec_lua(CHECK_LUA, flat)
            if found != len(folds):
                sys.exit("pynvim %s left %s of %d folds" % (name, found, len(folds)))
            if r >= int(warmup):
                ms.append((t1 - t0) * 1000)
        print("%s %.4f %.4f %.4f" % (name, statistics.median(ms), min(ms), max(ms)), flush=True)
    nvim.close()


if __name__ == "__main__":
    main()
