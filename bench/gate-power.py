#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How often the release gate cries wolf, and how often it catches a real
change (docs/report.md, "Verdicts"). Not a CI test: figures.

    sudo python3 bench/gate-power.py [--trials N] [--duration S] [--cpu C]
                                     [--rtlat PATH] [--keep DIR]

1. A baseline: --base-runs plain runs of `rtlat latency -c CPU -T S`.
2. A/A trials: N more plain runs of the same command, each gated with
   `rtlat compare --gate --json BASELINE RUN` (the default gate): the
   false-alarm rate is the share of trials whose gated table fails.
3. Stall trials: N runs with 20 ms stalls injected on the measured CPU
   (a SCHED_FIFO busy loop above the sampler, tests/cli/stall.py, as the
   README's recipe): the detection rate is the share that fails.
4. Average trials: N plain runs whose result file is rewritten with every
   latency 1.3 times as high (summary, percentiles, histogram, intervals):
   a run whose average rose by 30 %; the share that fails.

Each rate is printed with its 95 % confidence interval (Wilson score
interval), and the verdicts per metric. A "cannot tell" does not fail
(the default --cannot-tell pass); the count of trials with one is shown.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STALL = ROOT / "tests" / "cli" / "stall.py"


def wilson(k, n, z=1.96):
    """95 % Wilson score interval of k successes in n trials."""
    if not n:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def latency(args, path, stall_ms=0, stalls=0):
    cmd = [args.rtlat, "latency", "-c", str(args.cpu), "-T",
           str(args.duration), "--json", str(path)]
    lat = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    err = ""
    if stalls:
        while "warming up" not in err:
            line = lat.stderr.readline()
            if not line:
                break
            err += line
        gap = max(stall_ms * 2, 1000 * args.duration / (stalls + 1))
        subprocess.run([sys.executable, str(STALL), str(args.cpu), "99",
                        str(stall_ms), str(int(gap)), "1.2", str(stalls)],
                       capture_output=True, text=True, timeout=120)
    rest = lat.communicate(timeout=120)[1]
    if lat.returncode != 0:
        print("run failed (%d): %s" % (lat.returncode, (err + rest)[-300:]),
              file=sys.stderr)
        return None
    return path


def scale(path, out, f):
    """Rewrite result @path into @out with every latency times @f."""
    d = json.loads(Path(path).read_text())

    def series(s):
        for k in ("min_ns", "avg_ns", "max_ns", "stddev_ns"):
            if isinstance(s.get(k), (int, float)):
                s[k] = round(s[k] * f, 1) if k in ("avg_ns", "stddev_ns") \
                    else int(round(s[k] * f))
        for k, v in (s.get("percentiles_ns") or {}).items():
            if isinstance(v, (int, float)):
                s["percentiles_ns"][k] = int(round(v * f))
        h = s.get("histogram")
        if isinstance(h, dict) and h.get("buckets"):
            # a linear layout of 1 us buckets (2^20 of them: the most a
            # result may have), the rest in its overflow
            w, nb = 1000, 1 << 20
            b, over = {}, h.get("overflow", 0)
            for lo, hi, c in h["buckets"]:
                v = int(round((lo + hi) / 2 * f)) // w * w
                if v >= w * nb:
                    over += c
                    continue
                b[v] = b.get(v, 0) + c
            s["histogram"] = {"layout": "linear", "lo_ns": 0,
                              "width_ns": w, "nbuckets": nb,
                              "underflow": h.get("underflow", 0),
                              "overflow": over,
                              "buckets": [[v, v + w - 1, c] for v, c in
                                          sorted(b.items())]}
        iv = s.get("intervals")
        if isinstance(iv, dict):
            cols = iv["columns"]
            for row in iv["data"]:
                for k in ("min_ns", "avg_ns", "max_ns"):
                    if k in cols and isinstance(row[cols.index(k)],
                                                (int, float)):
                        x = row[cols.index(k)] * f
                        row[cols.index(k)] = int(round(x))
    for s in d["summary"].values():
        series(s)
    for t in d.get("threads") or []:
        for s in t["series"].values():
            series(s)
    Path(out).write_text(json.dumps(d))
    return out


def gate(args, base, run):
    p = subprocess.run([args.rtlat, "compare", "--gate", "--json", str(base),
                        str(run)], capture_output=True, text=True,
                       timeout=120)
    if p.returncode not in (0, 2):
        print("gate error: %s" % p.stderr[-300:], file=sys.stderr)
        return None
    doc = json.loads(p.stdout)
    t = doc["tables"][0]
    return (t["verdict"] == "fail",
            {m["key"]: m["verdict"] for m in t["metrics"]})


def trials(args, base, tmp, kind):
    fails = done = tell = 0
    per = {}
    for i in range(args.trials):
        p = tmp / ("%s-%02d.json" % (kind, i))
        if kind == "stall":
            r = latency(args, p, stall_ms=20, stalls=args.stalls)
        else:
            r = latency(args, p)
        if r and kind == "avg30":
            r = scale(r, tmp / ("%s-%02d-x1.3.json" % (kind, i)), 1.3)
        g = gate(args, base, r) if r else None
        if g is None:
            continue
        done += 1
        fails += g[0]
        tell += "cannot tell" in g[1].values()
        for k, v in g[1].items():
            per.setdefault(k, {}).setdefault(v, 0)
            per[k][v] += 1
        print("  %s %2d: %s %s" % (kind, i, "FAIL" if g[0] else "pass",
                                   " ".join("%s=%s" % kv for kv in
                                            sorted(g[1].items()))),
              flush=True)
    return fails, done, tell, per


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--base-runs", type=int, default=3)
    ap.add_argument("--duration", type=int, default=3, help="s per run")
    ap.add_argument("--stalls", type=int, default=2,
                    help="20 ms stalls per stalled run")
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    ap.add_argument("--rtlat", default=str(ROOT / "build" / "rtlat"))
    ap.add_argument("--keep", help="keep the result files in this directory")
    ap.add_argument("--kinds", default="aa,stall,avg30")
    args = ap.parse_args()
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="gate-power."))
    base = tmp / "base"
    base.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    print("# rtlat latency -c %d -T %d; baseline of %d runs; %d trials each"
          % (args.cpu, args.duration, args.base_runs, args.trials), flush=True)
    for i in range(args.base_runs):
        if not latency(args, base / ("base-%d.json" % i)):
            sys.exit("a baseline run failed")
    rows = []
    names = {"aa": "false alarms (A/A: plain runs)",
             "stall": "detection: %d x 20 ms stalls" % args.stalls,
             "avg30": "detection: avg +30 % (latencies x 1.3)"}
    for kind in args.kinds.split(","):
        fails, n, tell, per = trials(args, base, tmp, kind)
        lo, hi = wilson(fails, n)
        rows.append((names[kind], fails, n, lo, hi, tell, per))
    print("\n# %.0f s; files in %s" % (time.time() - t0, tmp))
    for name, k, n, lo, hi, tell, per in rows:
        print("%-42s %2d/%-2d failed = %5.1f %% (95 %% CI %.1f-%.1f %%); "
              "%d with a 'cannot tell'" % (name, k, n, 100 * k / max(n, 1),
                                           100 * lo, 100 * hi, tell))
        for m, v in sorted(per.items()):
            print("    %-9s %s" % (m, ", ".join("%s %d" % x for x in
                                               sorted(v.items()))))


if __name__ == "__main__":
    main()
