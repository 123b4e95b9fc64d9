# SPDX-License-Identifier: GPL-2.0-or-later
"""Inject known stalls on a CPU: a SCHED_FIFO busy loop of D ms every
PERIOD ms, at a priority above the sampler's, pinned to the sampler's CPU.

Usage: python3 stall.py CPU PRIO STALL_MS EVERY_MS START_S COUNT

Waits START_S seconds, then performs COUNT stalls and prints one line per
stall: "stall <start_ns> <end_ns>" (CLOCK_MONOTONIC), then "done N".
"""
import os
import sys
import time


def main():
    cpu, prio = int(sys.argv[1]), int(sys.argv[2])
    stall_ns = int(float(sys.argv[3]) * 1e6)
    every_s = float(sys.argv[4]) / 1e3
    start_s, count = float(sys.argv[5]), int(sys.argv[6])
    os.sched_setaffinity(0, {cpu})
    time.sleep(start_s)
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
    done = 0
    for _ in range(count):
        t0 = time.monotonic_ns()
        while time.monotonic_ns() - t0 < stall_ns:
            pass
        t1 = time.monotonic_ns()
        print("stall %d %d" % (t0, t1), flush=True)
        done += 1
        time.sleep(every_s)
    print("done %d" % done, flush=True)


if __name__ == "__main__":
    main()
