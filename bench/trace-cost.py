#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cost of --trace on the measured latency.

Runs `rtlat latency` on one CPU in pairs, without and with --trace,
alternating so that drifts of the machine's load hit both alike, and prints
the mean latency of each run, the per-pair difference and its median.

Usage: bench/trace-cost.py [--rtlat build/rtlat] [--cpu N] [--pairs 6]
                           [--seconds 5] [--period 100]
As root (SCHED_FIFO, tracefs). Prints a table on stdout; exit 1 on error.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def one(rtlat, cpu, secs, period, trace):
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        cmd = [rtlat, "latency", "-q", "-c", str(cpu), "-T", str(secs),
               "--warmup", "0.5s", "-p", str(period), "--json", j]
        if trace:
            cmd.append("--trace")
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("rtlat failed (%d): %s" % (p.returncode, p.stderr))
        d = json.load(open(j))
    s = d["summary"]["latency"]
    return s["avg_ns"], s["percentiles_ns"]["p99"], s["max_ns"], \
        d["trace"]["traced"] if trace else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtlat", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "rtlat"))
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--period", type=int, default=100)
    a = ap.parse_args()
    print("# rtlat --trace cost: CPU %d, period %d us, %g s per run, "
          "%d pairs (off, on)" % (a.cpu, a.period, a.seconds, a.pairs))
    print("# pair  avg_off_ns  avg_on_ns  diff_ns  p99_off_ns  p99_on_ns  "
          "traced")
    diffs, offs, ons = [], [], []
    for i in range(a.pairs):
        off = one(a.rtlat, a.cpu, a.seconds, a.period, False)
        on = one(a.rtlat, a.cpu, a.seconds, a.period, True)
        diffs.append(on[0] - off[0])
        offs.append(off[0])
        ons.append(on[0])
        print("%6d  %10.1f  %9.1f  %7.1f  %10d  %9d  %6d" %
              (i, off[0], on[0], on[0] - off[0], off[1], on[1], on[3]))
    q = statistics.quantiles(diffs, n=4) if len(diffs) > 1 else diffs * 3
    print("median avg without --trace: %.1f ns, with: %.1f ns; difference "
          "(on - off): median %.1f ns (%.1f %%), quartiles %.1f .. %.1f ns, "
          "range %.1f .. %.1f ns" %
          (statistics.median(offs), statistics.median(ons),
           statistics.median(diffs),
           100 * statistics.median(diffs) / statistics.median(offs),
           q[0], q[2], min(diffs), max(diffs)))


if __name__ == "__main__":
    main()
