# SPDX-License-Identifier: GPL-2.0-or-later
"""Inject known stalls on a CPU: a SCHED_FIFO busy loop of D ms every
PERIOD ms, at a priority above the sampler's, pinned to the sampler's CPU.

Usage: python3 stall.py CPU PRIO STALL_MS EVERY_MS START_S COUNT [cpu]

Waits START_S seconds, then performs COUNT stalls and prints one line per
stall: "stall <start_ns> <end_ns> <cpu_ns>" (CLOCK_MONOTONIC, and the CPU
time the stall took), then "done N". A stall lasts STALL_MS of wall time;
with "cpu", STALL_MS of the task's own CPU time (CLOCK_THREAD_CPUTIME_ID):
RT throttling, or the host stopping the VM, then lengthen the stall instead
of taking the CPU time from it.
"""
import os
import sys
import time


def main():
    cpu, prio = int(sys.argv[1]), int(sys.argv[2])
    stall_ns = int(float(sys.argv[3]) * 1e6)
    every_s = float(sys.argv[4]) / 1e3
    start_s, count = float(sys.argv[5]), int(sys.argv[6])
    clock = time.monotonic_ns
    if len(sys.argv) > 7 and sys.argv[7] == "cpu":
        clock = time.thread_time_ns
    os.sched_setaffinity(0, {cpu})
    # real-time before the first sleep: woken as SCHED_OTHER on a CPU a
    # real-time task keeps busy, the first stall would wait for that task
    # to block (the same point of its cycle every time)
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
    time.sleep(start_s)
    done = 0
    for _ in range(count):
        t0, c0 = time.monotonic_ns(), time.thread_time_ns()
        s0 = clock()
        while clock() - s0 < stall_ns:
            pass
        t1, c1 = time.monotonic_ns(), time.thread_time_ns()
        print("stall %d %d %d" % (t0, t1, c1 - c0), flush=True)
        done += 1
        time.sleep(every_s)
    print("done %d" % done, flush=True)


if __name__ == "__main__":
    main()
