#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A lab's history at scale (issue 34): db add, the summary and a board's
drill-down over a synthetic history of --runs distinct runs.

Builds the history itself: copies of one real latency result (--from,
default tests/fixtures/report/suite-vm-01-latency-none.json) with distinct
start times spread over a year, --boards host names, --kernels kernel
releases over the year (each board's in turn) and a max of its own each (the summary has something
to rank), written --batch files at a time into a temporary directory and
added with one `rtlat db add` each (the files are removed after each
batch: 100 000 of them would take GBs). Then times, --repeat times each:

  summary    rtlat report --db H             (more than 200 runs: the summary)
  drill      rtlat report --db H --board B   (one board's summary)
  latest     rtlat report --db H --board B --limit 20   (its 20 latest runs)
  longterm   rtlat report --db H --longterm --html P --html-runs 0
             (only with --longterm: the long-term page, its size too)

On SQLite by default; --pg runs the same on a PostgreSQL server started
for it (tests/cli/pgserver.py: initdb, a private socket, removed after).
Prints figures; nothing here is a test. Usage, from the source tree after
make:
    python3 bench/history-scale.py [--runs 100000] [--pg] [--longterm]
"""
import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
YEAR_S = 365 * 86400
T0 = 1767225600          # 2026-01-01T00:00:00Z


def timed(cmd, out=subprocess.DEVNULL):
    """Elapsed and CPU seconds of @cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL, check=True)
    el = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return el, cpu


def show(label, runs):
    best = min(runs)
    print("%-9s best %.2f s (cpu %.2f s), median %.2f s, of %d"
          % (label, best[0], best[1],
             statistics.median(r[0] for r in runs), len(runs)), flush=True)


def template(src):
    """The result @src as text with placeholders for what each copy
    changes."""
    d = json.load(open(src))
    d["start_time"] = "@@START@@"
    d["end_time"] = "@@END@@"
    d["host"]["hostname"] = "@@HOST@@"
    d["host"]["release"] = "@@KERNEL@@"
    s = d["summary"]["latency"]
    base = s["max_ns"]
    s["max_ns"] = "@@MAX@@"
    return json.dumps(d), base


def iso(t, ms=0):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % ms


def build(a, rtlat, db, tmp):
    """Add a.runs distinct runs to @db, a.batch files a db add; returns
    (seconds adding, runs added)."""
    text, base = template(a.src)
    rnd = random.Random(1)
    spent, done, k = 0.0, 0, 0
    d = os.path.join(tmp, "batch")
    while done < a.runs:
        os.mkdir(d)
        n = min(a.batch, a.runs - done)
        for i in range(n):
            # distinct start times over a year, in no particular order
            t = T0 + (k * 7919) % YEAR_S
            board = "board-%02d" % (k % a.boards)
            # a board's kernel changes over the year, --kernels in turn
            kernel = "6.%d.0-rt" % (1 + (t - T0) * a.kernels // YEAR_S)
            mx = base + int(rnd.expovariate(1 / 20000.0))
            x = (text.replace("@@START@@", iso(t, k % 1000), 1)
                 .replace("@@END@@", iso(t + 1, k % 1000), 1)
                 .replace("\"@@HOST@@\"", json.dumps(board), 1)
                 .replace("\"@@KERNEL@@\"", json.dumps(kernel), 1)
                 .replace("\"@@MAX@@\"", str(mx), 1))
            with open(os.path.join(d, "r%07d.json" % k), "w") as f:
                f.write(x)
            k += 1
        el, _ = timed([rtlat, "db", "add", "-q", "--db", db, d])
        spent += el
        done += n
        shutil.rmtree(d)
        if done % (10 * a.batch) == 0 or done == a.runs:
            print("  %d runs added, %.0f runs/s so far" % (done, done / spent),
                  flush=True)
    return spent, done


def measure(a, rtlat, db, tmp):
    print("history: %s" % (db if not db.startswith("postgres") else
                            db.split("@")[-1]), flush=True)
    if a.keep and os.path.exists(db):
        con = sqlite3.connect(db)
        n = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        con.close()
        print("kept      %d runs (no db add)" % n)
    else:
        spent, n = build(a, rtlat, db, tmp)
        print("db add    %d runs in %.1f s: %.0f runs/s (batches of %d files)"
              % (n, spent, n / spent, a.batch), flush=True)
    if not db.startswith("postgres"):
        print("size      %.0f MB, %.1f KB a run"
              % (os.path.getsize(db) / 1e6, os.path.getsize(db) / n / 1e3))
    out = os.path.join(tmp, "out.txt")
    with open(out, "w") as f:
        subprocess.run([rtlat, "report", "-q", "--db", db], stdout=f,
                       check=True)
    rows = sum(1 for _ in open(out))
    print("summary   %d lines of output" % rows)
    show("summary", [timed([rtlat, "report", "-q", "--db", db])
                     for _ in range(a.repeat)])
    show("drill", [timed([rtlat, "report", "-q", "--db", db, "--board",
                          "board-07"]) for _ in range(a.repeat)])
    show("latest", [timed([rtlat, "report", "-q", "--db", db, "--board",
                           "board-07", "--limit", "20"])
                    for _ in range(a.repeat)])
    if a.longterm:
        page = os.path.join(tmp, "page.html")
        show("longterm", [timed([rtlat, "report", "-q", "--db", db,
                                 "--longterm", "--html", page,
                                 "--html-runs", "0"])
                          for _ in range(a.repeat)])
        print("page      %.2f MB" % (os.path.getsize(page) / 1e6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtlat", default=os.path.join(ROOT, "build", "rtlat"))
    ap.add_argument("--from", dest="src", default=os.path.join(
        ROOT, "tests", "fixtures", "report", "suite-vm-01-latency-none.json"))
    ap.add_argument("--runs", type=int, default=100000)
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--kernels", type=int, default=4)
    ap.add_argument("--batch", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pg", action="store_true",
                    help="on a PostgreSQL server started for it")
    ap.add_argument("--longterm", action="store_true",
                    help="time the long-term HTML page too")
    ap.add_argument("--keep", metavar="FILE",
                    help="the SQLite history: built when FILE does not "
                    "exist, else measured as it is; kept afterwards")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="rtlat-scale-")
    server = None
    try:
        if a.pg:
            sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
            import pgserver
            why = pgserver.why_not()
            if why:
                sys.exit("no PostgreSQL: %s" % why)
            server = pgserver.Server()
            db = server.new_db()
        else:
            db = a.keep or os.path.join(tmp, "history.db")
        measure(a, a.rtlat, db, tmp)
        print("load average: %.2f %.2f %.2f, %d CPUs"
              % (os.getloadavg() + (os.cpu_count(),)))
    finally:
        if server:
            server.close()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
