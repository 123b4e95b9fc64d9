#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Speed of rtlat report and rtlat db add on many result files (issue 14).

Makes one result file with `rtlat latency -T 2 --json` (or takes --from
FILE), writes --files copies of it into a temporary directory, each with
its own start time (so that db add stores every one), then times
`rtlat report DIR` and `rtlat db add DIR` (a new database each time),
--repeat times each, and prints the best and the median elapsed time with
the CPU time (user + sys) of that run. The directory and databases are
removed afterwards.

Usage (from the source tree, after make):
    python3 bench/report-speed.py [--files 1000] [--repeat 5]
Prints figures; nothing here is a test.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd):
    """Elapsed and CPU seconds of @cmd (stdout discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    el = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return el, cpu


def series(label, runs):
    els = sorted(r[0] for r in runs)
    best = min(runs)
    print("%-8s best %.2f s (cpu %.2f s), median %.2f s, of %d"
          % (label, best[0], best[1], statistics.median(els), len(runs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtlat", default=os.path.join(ROOT, "build", "rtlat"))
    ap.add_argument("--from", dest="src", help="a result file to copy")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="rtlat-speed-")
    try:
        src = a.src
        if not src:
            src = os.path.join(tmp, "base.json")
            subprocess.run([a.rtlat, "latency", "-T", "2", "--json=" + src],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True)
        text = open(src).read()
        m = re.search(r'"start_time": "([^"]+)"', text)
        if not m:
            sys.exit("%s: no start_time" % src)
        d = os.path.join(tmp, "results")
        os.mkdir(d)
        for i in range(a.files):
            st = "2026-11-%02dT%02d:%02d:%02d.000Z" % (
                1 + i % 28, i // 60 % 24, i % 60, (i * 7) % 60)
            with open(os.path.join(d, "r%05d.json" % i), "w") as f:
                f.write(text.replace(m.group(1), st, 1))
        print("%d files of %d bytes (%s)" % (a.files, len(text), src))
        rep = [timed([a.rtlat, "report", "-q", d]) for _ in range(a.repeat)]
        add = []
        for k in range(a.repeat):
            db = os.path.join(tmp, "h%d.db" % k)
            add.append(timed([a.rtlat, "db", "add", "-q", "--db", db, d]))
            os.unlink(db)
        series("report", rep)
        series("db add", add)
        print("load average: %.2f %.2f %.2f, %d CPUs"
              % (os.getloadavg() + (os.cpu_count(),)))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
