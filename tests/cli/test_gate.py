# SPDX-License-Identifier: GPL-2.0-or-later
"""The release gate: rtlat compare --gate, rtlat suite --gate and rtlat db
baseline (docs/report.md, "Release gate").

The synthetic tests write result files of rtlat's shape whose samples are
drawn from known distributions (fixed seeds): what the verdicts must be
follows from the figures. The end-to-end tests measure on this machine
and assert only what must hold whatever its noise: a stall of D ms shows
as a latency >= D - period, and a verdict is asserted only where the
baseline's measured limit leaves room for it (else the test says why it
cannot tell)."""
import csv
import datetime
import io
import json
import math
import os
import random
import re
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import RTLAT, ROOT, TEST_DB, db_query, needs_root, run, sqlite_only

HERE = ROOT / "tests" / "cli"


def result(path, lat_ns, *, test="latency", load=None, overruns=0,
           period_ns=1000000, host="board1", minute=0, hist=True, cpus=None):
    """Write a result file of rtlat's shape whose samples are @lat_ns (a
    linear histogram of 1 us buckets up to 1 ms, overflow above); with
    @cpus, a thread per CPU of the list (each with the whole figures)."""
    lat = sorted(int(v) for v in lat_ns)
    n = len(lat)
    buckets, over = {}, 0
    for v in lat:
        if v >= 1_000_000:
            over += 1
            continue
        lo = v // 1000 * 1000
        buckets[lo] = buckets.get(lo, 0) + 1
    s = {"samples": n, "overruns": overruns, "min_ns": lat[0],
         "max_ns": lat[-1], "avg_ns": sum(lat) / n}
    if hist:
        s["histogram"] = {
            "layout": "linear", "lo_ns": 0, "width_ns": 1000,
            "nbuckets": 1000, "underflow": 0, "overflow": over,
            "buckets": [[lo, lo + 999, c]
                        for lo, c in sorted(buckets.items())]}
    doc = {"schema": "rtlat-result", "schema_version": 1,
           "tool": {"name": "rtlat", "version": "0.1.0"},
           "test": test, "status": "complete",
           "start_time": "2026-11-30T10:%02d:%02d.000Z" % (minute // 60,
                                                           minute % 60),
           "duration_actual_ns": n * period_ns,
           "host": {"hostname": host, "release": "6.1.0",
                    "machine": "x86_64"},
           "config": {"period_ns": period_ns},
           "loads": [{"name": load}] if load else [],
           "unit": "ns", "summary": {"latency": s}}
    if cpus:
        doc["threads"] = [{"id": i, "cpu": c, "series": {"latency": s}}
                          for i, c in enumerate(cpus)]
    path.write_text(json.dumps(doc))
    return path


def gauss(seed, n=20000, mean=20000, sd=2000):
    rnd = random.Random(seed)
    return [max(1000, rnd.gauss(mean, sd)) for _ in range(n)]


def baseline(tmp_path, runs=3, **kw):
    d = tmp_path / "base"
    d.mkdir()
    for i in range(runs):
        result(d / ("base%d.json" % i), gauss(i), minute=i, **kw)
    return d


def verdicts(out):
    """{"lat max": ("worse", reason), ...} from the text output."""
    v = {}
    for line in out.splitlines():
        if line.startswith("gate ") and ": " in line:
            metric, rest = line[5:].split(": ", 1)
            verdict, reason = rest.split(": ", 1)
            v[metric] = (verdict, reason)
    return v


def gate(*args, check=None):
    return run(["compare", "--gate"] + [str(a) for a in args], check=check)


# ---- synthetic: known distributions ----

def test_worse_tail_beyond_the_noise_fails_naming_the_metric(tmp_path):
    """50 samples of 500 us among 20000 of N(20 us, 2 us): max and p99.9
    are far beyond the spread of three baseline runs; the avg moves by
    1.2 us, within the 10 % margin."""
    base = baseline(tmp_path)
    new = result(tmp_path / "new.json",
                 gauss(10, 19950) + [500000] * 50, minute=10)
    p = gate(base, new, check=2)
    v = verdicts(p.stdout)
    assert v["lat max"][0] == "worse"
    assert v["p99.9"][0] == "worse"
    assert v["lat avg"][0] == "same"
    assert v["overrun"][0] == "same"
    assert "the spread of 3 baseline runs" in v["lat max"][1]
    assert "worse by 47" in v["lat max"][1]       # 500 - ~28 us
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith("gate: fail") and "lat max" in last
    # the same verdicts in the JSON document and the CSV columns
    doc = json.loads(gate("--json", base, new, check=2).stdout)
    assert doc["schema"] == "rtlat-gate" and doc["verdict"] == "fail"
    (t,) = doc["tables"]
    assert (t["baseline_runs"], t["new_runs"]) == (3, 1)
    ms = {m["metric"]: m for m in t["metrics"]}
    assert ms["lat max"]["verdict"] == "worse"
    assert ms["lat max"]["new"] == 500000
    assert ms["lat max"]["new"] - ms["lat max"]["baseline"] > \
        ms["lat max"]["limit"]
    assert ms["lat avg"]["verdict"] == "same" and ms["lat avg"]["noise_known"]
    rows = list(csv.DictReader(io.StringIO(
        gate("--csv", base, new, check=2).stdout)))
    g = {r["metric"]: r["gate"] for r in rows}
    assert g == {"lat min": "", "lat avg": "same", "lat max": "worse",
                 "p99.9": "worse", "overrun": "same"}


def test_change_within_the_noise_passes(tmp_path):
    """A fourth draw of the same distribution passes on every metric; an
    avg 20 % higher (4 us: beyond the 10 % margin and the spread) fails on
    the avg."""
    base = baseline(tmp_path)
    same = result(tmp_path / "same.json", gauss(11), minute=11)
    p = gate(base, same, check=0)
    v = verdicts(p.stdout)
    assert {k: x[0] for k, x in v.items()} == {
        "lat avg": "same", "lat max": "same", "p99.9": "same",
        "overrun": "same"}
    assert p.stdout.strip().splitlines()[-1].startswith("gate: pass")
    slower = result(tmp_path / "slower.json", gauss(12, mean=24000),
                    minute=12)
    v = verdicts(gate(base, slower, check=2).stdout)
    assert v["lat avg"][0] == "worse"
    # --gate-metrics: only what is asked is gated
    p = gate("--gate-metrics", "p99.9,overruns", base, slower)
    assert set(verdicts(p.stdout)) == {"p99.9", "overrun"}


def test_a_one_run_baseline_falls_back_to_the_margin(tmp_path):
    """One baseline run: the noise is unknown, the margin decides and the
    reason says so; an avg 5 % higher passes at 10 %, fails at 2 %."""
    base = baseline(tmp_path, runs=1)
    new = result(tmp_path / "new.json", gauss(20, mean=21000), minute=20)
    v = verdicts(gate(base, new, check=0).stdout)
    avg = v["lat avg"]
    assert avg[0] == "same"
    assert "noise unknown: the baseline has 1 run" in avg[1]
    assert "margin 10 %" in avg[1]
    v = verdicts(gate("--margin", "2%", base, new, check=2).stdout)
    assert v["lat avg"][0] == "worse" and "margin 2 %" in v["lat avg"][1]
    for bad in ("-1%", "ten", "10%%", "2000"):
        p = gate("--margin", bad, base, new, check=1)
        assert "--margin" in p.stderr


def test_mismatched_test_kinds_loads_and_periods_are_refused(tmp_path):
    base = baseline(tmp_path)
    cases = {
        "same load": dict(load="hell"),
        "same test kind": dict(test="switch"),
        "sampled every 100 us, its baseline every 1000 us": dict(period_ns=100000),
    }
    for why, kw in cases.items():
        new = result(tmp_path / "new.json", gauss(30), minute=30, **kw)
        p = gate(base, new, check=1)
        assert "gate refused" in p.stderr and why in p.stderr, p.stderr
        assert "gate " not in p.stdout       # nothing compared
    # --gate needs two sides
    assert "two sides" in gate(new, check=1).stderr
    assert "--json needs --gate" in run(["compare", "--json", base, new],
                                        check=1).stderr


def test_a_longer_run_is_compared_at_equal_samples(tmp_path):
    """The same exponential tail, 100x the samples: the new run's raw max
    is higher (beyond the noise, as plain compare says), but its quantile
    at the baseline's sample count is not worse: pass. Without histograms
    the verdict can only be weak."""
    def expo(seed, n):
        rnd = random.Random(seed)
        return [10000 + rnd.expovariate(1 / 5000) for _ in range(n)]

    for hist in (True, False):
        d = tmp_path / ("h%d" % hist)
        (d / "base").mkdir(parents=True)
        for i in range(3):
            result(d / "base" / ("b%d.json" % i), expo(i, 2000), minute=i,
                   hist=hist)
        new = result(d / "long.json", expo(9, 200000), minute=9, hist=hist)
        plain = list(csv.DictReader(io.StringIO(run(
            ["compare", "--csv", d / "base", new], check=0).stdout)))
        mx = [r for r in plain if r["metric"] == "lat max"][0]
        assert mx["beyond_noise"] == "yes" and float(mx["delta"]) > 0
        p = gate(d / "base", new, check=0)
        verdict, reason = verdicts(p.stdout)["lat max"]
        assert "100.0x the baseline's samples" in reason
        if hist:
            assert verdict == "same"
            assert "compared at equal samples" in reason
        else:
            assert verdict == "cannot tell" and "not like for like" in reason


def test_overruns_are_compared_as_rates_over_the_run_lengths(tmp_path):
    """A baseline of three runs of 5000 samples with 10, 12 and 11
    overruns; a run ten times as long at the same rate (110) passes, as
    the 33 overruns in 15033 periods give 110.0 expected in its 50110;
    twice that rate (220) fails. The reason gives the counts and the
    lengths."""
    d = tmp_path / "base"
    d.mkdir()
    for i, o in enumerate((10, 12, 11)):
        result(d / ("b%d.json" % i), gauss(i, n=5000), overruns=o, minute=i)
    same = result(tmp_path / "same.json", gauss(7, n=50000), overruns=110,
                  minute=7)
    p = gate("--gate-metrics", "overruns", d, same, check=0)
    verdict, reason = verdicts(p.stdout)["overrun"]
    assert verdict == "same", reason
    assert reason.startswith("110 in 50110 periods against 33 in 15033 "
                             "periods of the baseline (3 runs): at the "
                             "baseline's rate 110.0 expected, +0.0: within")
    doc = json.loads(gate("--json", "--gate-metrics", "overruns", d, same,
                          check=0).stdout)
    m = doc["tables"][0]["metrics"][0]
    assert m["compared"] == 110 and m["expected"] == 110.0
    worse = result(tmp_path / "worse.json", gauss(8, n=50000), overruns=220,
                   minute=8)
    verdict, reason = verdicts(gate("--gate-metrics", "overruns", d, worse,
                                    check=2).stdout)["overrun"]
    assert verdict == "worse" and "more than the limit" in reason, reason
    assert "220 in 50220 periods" in reason


def test_a_refused_table_keeps_the_other_verdicts(tmp_path):
    """New runs of latency (with a baseline) and switch (without): switch
    is refused, latency gated all the same; exit 1 (the gate is not
    whole), the refusal in the text summary and the JSON."""
    base = baseline(tmp_path)
    new = tmp_path / "new"
    new.mkdir()
    result(new / "lat.json", gauss(30), minute=30)
    result(new / "sw.json", gauss(31), minute=31, test="switch")
    p = gate(base, new, check=1)
    assert "gate refused: SWITCH" in p.stderr
    assert verdicts(p.stdout)["lat max"][0] == "same"
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith("gate: refused:") and \
        "1 table refused, not compared" in last
    doc = json.loads(gate("--json", base, new, check=1).stdout)
    assert doc["verdict"] == "refused"
    assert [t["title"] for t in doc["tables"]] == ["LATENCY without load"]
    (r,) = doc["refused"]
    assert r["title"].startswith("SWITCH") and "same test kind" in r["reason"]
    # a failing table stays a failure, and the exit status says so (2):
    # a regression found is one whatever else was refused (a CI reading 1
    # as an infrastructure error must not misfile it)
    bad = new / "lat.json"
    result(bad, gauss(32, 19950) + [500000] * 50, minute=32)
    doc = json.loads(gate("--json", base, new, check=2).stdout)
    assert doc["verdict"] == "fail" and doc["refused"]
    p = gate(base, new, check=2)
    assert "gate refused: SWITCH" in p.stderr
    assert verdicts(p.stdout)["lat max"][0] == "worse"


def test_gate_options_need_gate_and_the_notes(tmp_path):
    """--margin and --gate-metrics without --gate are refused (a CI job
    that forgot --gate would always pass); a new run on other CPUs than
    the baseline's, and one that is itself in the baseline, are noted."""
    base = baseline(tmp_path)
    new = result(tmp_path / "new.json", gauss(30), minute=30)
    for opt in (["--margin", "5"], ["--gate-metrics", "max"]):
        p = run(["compare"] + opt + [base, new], check=1)
        assert "%s goes with --gate" % opt[0] in p.stderr
    p = gate(base, base / "base1.json", check=0)
    assert "note: the new run base1 is itself in the baseline" in p.stdout
    cb = tmp_path / "cb"
    cb.mkdir()
    for i in range(2):
        result(cb / ("c%d.json" % i), gauss(i), minute=i, cpus=[1])
    two = result(tmp_path / "two.json", gauss(5), minute=5, cpus=[0, 1])
    p = gate(cb, two, check=0)
    assert "note: the new runs sampled with 2 threads on CPU 0-1, the " \
        "baseline with 1 on CPU 1: not the same placement" in p.stdout
    doc = json.loads(gate("--json", cb, two, check=0).stdout)
    assert "not the same placement" in doc["tables"][0]["note"]
    assert "A = c0 and 1 more run," in p.stdout


def test_one_selector_over_the_history_and_files(tmp_path):
    """compare --gate --db H board=...,baseline=yes NEW/ (the CI recipe):
    the baseline from the history, the new runs from the files. A run in
    the files and in the history counts once (by identity, as db add)."""
    db = tmp_path / "h.db"
    base = baseline(tmp_path)
    new = tmp_path / "new"
    new.mkdir()
    worse = result(new / "worse.json", gauss(40, 19950) + [500000] * 50,
                   minute=40)
    run(["db", "add", "--db", db, base, worse], check=0)
    run(["db", "baseline", "set", "--db", db, "label=base*"], check=0)
    for b in (new, worse):
        p = run(["compare", "--gate", "--db", db,
                 "board=board1,baseline=yes", b], check=2)
        assert verdicts(p.stdout)["lat max"][0] == "worse"
        assert "A = base0 and 2 more runs, B = worse" in p.stdout, p.stdout
    # the selector after the files: they are the baseline
    p = run(["compare", "--gate", "--db", db, new, "label=worse"], check=0)
    assert "A = worse, B = worse" in p.stdout
    # worse.json is in the history and given: one run, not two
    p = run(["compare", "--gate", "--db", db, new,
             "board=board1,baseline=yes", "label=worse"], check=2)
    assert "B = worse\n" in p.stdout or "B = worse " in p.stdout, p.stdout
    assert "(2 runs)" not in p.stdout
    p = run(["compare", "--gate", "--db", db, "label=nothing*", new],
            check=1)
    assert "selector 'label=nothing*' picks no run of the history" in p.stderr
    p = run(["compare", "--gate", "--db", db, "label=worse"], check=1)
    assert "one selector ('label=worse') and no file" in p.stderr


# ---- the history: baseline set, show, clear; migration ----

def test_db_baseline_set_show_clear_and_gate(tmp_path):
    db = tmp_path / "h.db"
    base = baseline(tmp_path)
    worse = result(tmp_path / "worse.json", gauss(40, 19950) + [500000] * 50,
                   minute=40)
    other = result(tmp_path / "other.json", gauss(41), minute=41,
                   host="board2")
    run(["db", "add", "--db", db, base, worse, other], check=0)
    assert "give a SELECTOR" in run(["db", "baseline", "set", "--db", db],
                                    check=1).stderr
    p = run(["db", "baseline", "set", "--db", db, "label=base*"], check=0)
    assert len(p.stdout.splitlines()) == 3
    assert "3 runs marked" in p.stderr
    show = run(["db", "baseline", "show", "--db", db], check=0).stdout
    assert [l.split("|")[5].strip() for l in show.splitlines()[1:]] == \
        ["base0", "base1", "base2"]
    # the baseline of a board: a selector over the history
    p = run(["compare", "--gate", "--db", db, "board=board1,baseline=yes",
             "label=worse"], check=2)
    assert verdicts(p.stdout)["lat max"][0] == "worse"
    assert "A = base0 and 2 more runs" in p.stdout
    # marking one run replaces the board's baseline of that table; another
    # board's is its own
    p = run(["db", "baseline", "set", "--db", db, "label=base1"], check=0)
    assert "3 earlier marks" in p.stderr
    run(["db", "baseline", "set", "--db", db, "board=board2"], check=0)
    show = run(["db", "baseline", "show", "--db", db], check=0).stdout
    assert [l.split("|")[5].strip() for l in show.splitlines()[1:]] == \
        ["base1", "other"]
    # a removed run takes its mark with it
    ((rid,),) = db_query(db, "SELECT id FROM runs WHERE label = 'other'")
    run(["db", "remove", "--db", db, rid], check=0)
    assert db_query(db, "SELECT COUNT(*) FROM baselines") == [(1,)]
    p = run(["db", "baseline", "clear", "--db", db, "board=board1"], check=0)
    assert "1 run unmarked" in p.stderr
    p = run(["db", "baseline", "show", "--db", db], check=0)
    assert p.stdout == "" and "no run is marked" in p.stderr
    assert run(["db", "baseline", "drop", "--db", db], check=1).stderr
    # a run without a board cannot be a board's baseline
    nob = tmp_path / "nob.json"
    doc = json.loads(worse.read_text())
    del doc["host"]
    doc["start_time"] = "2026-11-30T11:00:00.000Z"
    nob.write_text(json.dumps(doc))
    run(["db", "add", "--db", db, nob], check=0)
    p = run(["db", "baseline", "set", "--db", db, "label=nob"], check=1)
    assert "no board" in p.stderr


@sqlite_only
def test_a_version_6_database_is_migrated(tmp_path):
    """A history of schema version 6 (no baselines table) is migrated to
    8 on open: its runs are kept and can be marked."""
    db = tmp_path / "v6.db"
    base = baseline(tmp_path)
    run(["db", "add", "--db", db, base], check=0)
    con = sqlite3.connect(db)
    con.execute("DROP TABLE baselines")
    con.execute("PRAGMA user_version = 6")
    con.commit()
    con.close()
    p = run(["db", "list", "--db", db], check=0)
    assert "schema migrated from version 6 to 9" in p.stderr
    assert len(p.stdout.splitlines()) == 4
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 9
    cols = [r[1] for r in con.execute("PRAGMA table_info(baselines)")]
    assert cols == ["run_id", "set_at"]
    con.close()
    run(["db", "baseline", "set", "--db", db, "label=base0"], check=0)
    show = run(["db", "baseline", "show", "--db", db], check=0).stdout
    assert len(show.splitlines()) == 2


# ---- suite --gate ----

def suite_base(tmp_path, **kw):
    """A baseline no real run can match: every latency 100 ns, none
    missed, at the suite latency's period (100 us)."""
    d = tmp_path / "sbase"
    d.mkdir()
    for i in range(3):
        result(d / ("b%d.json" % i), [100] * 20000, period_ns=100000,
               minute=i, **kw)
    return d


@needs_root
def test_suite_gate_fails_with_verdicts_in_json_lava_and_junit(tmp_path):
    out, junit = tmp_path / "out", tmp_path / "j.xml"
    kcidb = tmp_path / "k.json"
    base = suite_base(tmp_path)
    p = run(["suite", "-T", "1", "--warmup", "0.2s", "--tests", "latency",
             "--loads", "none", "-q", "-o", out, "--gate", "--baseline",
             base, "--gate-metrics", "avg,max", "--lava",
             "--junit", junit, "--kcidb", kcidb], check=2, timeout=120)
    v = verdicts(p.stdout)
    assert v["lat avg"][0] == "worse" and v["lat max"][0] == "worse"
    assert "release gate failed" in p.stderr
    assert "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=latency-none-latency-gate-avg RESULT=fail" in p.stdout
    assert json.loads((out / "suite.json").read_text())["gate"] == {
        "baseline": str(base),
        "baseline_from": "path", "verdict": "fail", "file": "gate.json"}
    doc = json.loads((out / "gate.json").read_text())
    assert doc["verdict"] == "fail" and doc["metrics"] == ["avg", "max"]
    x = junit.read_text()
    assert 'name="latency-none-latency-gate-avg"' in x
    assert '<failure message="worse: worse by' in x
    # each case's message is the verdict's whole reason, not cut short
    import xml.etree.ElementTree as ET
    msgs = {c.get("name"): (c.find("failure") if c.find("failure") is not
                            None else c.find("skipped"))
            for c in ET.parse(junit).iter("testcase")}
    for m in doc["tables"][0]["metrics"]:
        el = msgs["latency-none-latency-gate-%s" % m["key"]]
        assert el is not None and el.get("message") == \
            "%s: %s" % (m["verdict"], m["reason"]), el.get("message")
    report = (out / "report.txt").read_text()
    assert "gate lat avg: worse" in report
    # what changed in the system: the synthetic baseline's kernel
    assert "\nsystem: kernel: 6.1.0 -> " in report
    # the exit status line says why, after the verdicts
    lines = [l for l in report.splitlines() if l]
    assert lines[-1] == "Exit status: 2 (the release gate failed: a gated " \
        "metric is worse than the baseline beyond its limit)"
    assert lines[-2].startswith("gate: fail: worse than the baseline")
    assert not lines[-2].endswith(";")
    # KCIDB: the gate cases under their table's path, every test with its
    # start time
    tests = json.loads(kcidb.read_text())["tests"]
    paths = {t["path"] for t in tests}
    assert {"rtlat.latency.none.latency.gate.avg",
            "rtlat.latency.none.latency.gate.max",
            "rtlat.latency.none.latency.max"} <= paths, paths
    assert all(t.get("start_time", "").startswith("20") for t in tests)
    start = json.loads((out / "01-latency-none.json").read_text())[
        "start_time"]
    iso = lambda t: datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
    for t in tests:     # the run's start: before its measurement began
        d = (iso(start) - iso(t["start_time"])).total_seconds()
        assert 0 <= d < 30, (t["start_time"], start)


@needs_root
def test_suite_gate_refuses_another_load_and_needs_a_baseline(tmp_path):
    """What the baseline lacks (a load state, a test) is found before the
    first run: exit 1, nothing run. A table refused only once its runs
    are there (another period) is said in the report, gate.json and the
    exit status line, with the other tables gated all the same."""
    out = tmp_path / "out"
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency",
             "--loads", "none", "-q", "-o", out, "--gate", "--baseline",
             suite_base(tmp_path, load="hell")], check=1, timeout=120)
    assert "has no matching run for: latency none (only under other loads)" \
        in p.stderr and "nothing was run" in p.stderr
    assert not out.exists()
    (tmp_path / "b2").mkdir()
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency,switch",
             "--loads", "none", "-q", "-o", out, "--gate", "--baseline",
             suite_base(tmp_path / "b2")], check=1, timeout=120)
    assert "has no matching run for: switch none;" in p.stderr
    assert not out.exists()
    # refused after the runs: sampled at another period than the baseline
    base = tmp_path / "b3"
    base.mkdir()
    for i in range(3):
        result(base / ("b%d.json" % i), [100] * 20000, minute=i)
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency",
             "--loads", "none", "-q", "-o", out, "--gate", "--baseline",
             base], check=1, timeout=120)
    assert "gate refused" in p.stderr and \
        "sampled every 100 us, its baseline every 1000 us" in p.stderr
    assert json.loads((out / "suite.json").read_text())["gate"]["verdict"] \
        == "refused"
    doc = json.loads((out / "gate.json").read_text())
    assert doc["verdict"] == "refused" and doc["tables"] == []
    (r,) = doc["refused"]
    assert r["title"] == "LATENCY without load" and "1000 us" in r["reason"]
    last = (out / "report.txt").read_text().rstrip().splitlines()[-1]
    assert last == "Exit status: 1 (the release gate refused 1 table: no " \
        "baseline of the same test kind, load and period)"
    # before any run: the baseline is missing or not said
    p = run(["suite", "--tests", "latency", "--gate"], check=1)
    assert "--gate needs the baseline" in p.stderr
    # --baseline and --db: gated against the files, stored in the history
    xdb = tmp_path / "x.db"
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency",
             "--loads", "none", "-q", "-o", tmp_path / "both", "--gate",
             "--baseline", tmp_path / "b2" / "sbase", "--db", xdb],
            check=2, timeout=120)
    assert "Release gate against the baseline %s" % (tmp_path / "b2" / "sbase") \
        in p.stdout
    assert "1 run of the suite stored" in p.stderr or \
        "1 runs of the suite stored" in p.stderr, p.stderr
    p = run(["suite", "--tests", "latency", "--margin", "5%"], check=1)
    assert "go with --gate" in p.stderr
    p = run(["suite", "--tests", "latency", "--gate", "--db",
             tmp_path / "none.db"], check=1)
    assert ("no such database" if TEST_DB == "sqlite" else
            "no rtlat history in this database") in p.stderr


@needs_root
def test_suite_gate_against_the_history(tmp_path):
    """The CI recipe: a first suite into the history, marked as the
    board's baseline; the next suite is gated against it (--db). Its
    verdict depends on this machine's noise: assert that the gate was
    made against that baseline and that the exit status is its verdict."""
    db, first, second = tmp_path / "h.db", tmp_path / "s1", tmp_path / "s2"
    args = ["suite", "-T", "1", "--warmup", "0.2s", "--tests", "latency",
            "--loads", "none", "-q"]
    run(args + ["-o", first], check=0, timeout=120)
    run(["db", "add", "--db", db, first], check=0)
    run(["db", "baseline", "set", "--db", db, "label=*"], check=0)
    p = run(args + ["-o", second, "--gate", "--db", db], timeout=120)
    assert p.returncode in (0, 2), p.stderr
    doc = json.loads((second / "gate.json").read_text())
    assert (doc["verdict"] == "fail") == (p.returncode == 2)
    (t,) = doc["tables"]
    assert t["baseline_runs"] == 1 and t["new_runs"] == 1
    avg = [m for m in t["metrics"] if m["key"] == "avg"][0]
    assert not avg["noise_known"]
    assert "noise unknown: the baseline has 1 run" in avg["reason"]


@needs_root
def test_suite_gate_db_fails_before_the_first_run(tmp_path):
    """suite --gate --db: a history without a baseline for this board, or
    a --db that cannot be reached or written, is found before the first
    run: exit 1 at once, nothing run, the message says what to do."""
    db, out = tmp_path / "h.db", tmp_path / "out"
    run(["db", "add", "--db", db, suite_base(tmp_path, host="board0")],
        check=0)
    run(["db", "baseline", "set", "--db", db, "board=board0"], check=0)
    args = ["suite", "-T", "1", "--warmup", "0", "--tests", "latency",
            "--loads", "none", "-q", "-o", out]
    p = run(args + ["--gate", "--db", db], check=1, timeout=30)
    assert "has no baseline for board %s" % os.uname().nodename in p.stderr
    assert "boards with a baseline: board0" in p.stderr
    assert "nothing was run" in p.stderr and not out.exists()
    # a server that is not there, a file that is no database
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"no database here" * 100)
    for bad in ("postgresql://x@127.0.0.1:1/x", junk):
        for gate_args in ([], ["--gate"]):
            p = subprocess.run([RTLAT] + [str(a) for a in args] + gate_args
                               + ["--db", str(bad)], capture_output=True,
                               text=True, timeout=30)
            assert p.returncode == 1, p.stderr
            assert "nothing was run" in p.stderr or \
                "cannot connect" in p.stderr, p.stderr
            assert not out.exists()


@needs_root
@sqlite_only
def test_suite_db_store_failing_at_the_end_says_where_the_runs_are(tmp_path):
    """The history reachable before the runs and gone when they end: exit
    1, the results are in the suite directory and the message gives the
    db add command; the exit status line says so."""
    db, out = tmp_path / "h.db", tmp_path / "out"
    p = subprocess.Popen([RTLAT, "suite", "-T", "2", "--warmup", "0",
                          "--tests", "latency", "--loads", "none",
                          "-o", str(out), "--db", str(db)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    for _ in range(300):            # the checks are done: the suite runs
        if (out / "suite.json").exists():
            break
        time.sleep(0.05)
    assert db.exists() and (out / "suite.json").exists()
    db.unlink()
    db.mkdir()                       # no database can be opened there now
    so, se = p.communicate(timeout=60)
    assert p.returncode == 1, se
    assert re.search(r"note: 1 run of [^,]+ each, about", se), se
    assert "the results are kept in %s/; store them later with: rtlat db " \
        "add --db %s %s" % (out, db, out) in se
    assert (out / "01-latency-none.json").exists()
    assert "Exit status: 1 (the runs could not be stored in %s)" % db in \
        (out / "report.txt").read_text()


# ---- end to end: a stall is gated, a clean run is not ----

PERIOD_NS = 1_000_000
STALL_MS, STALLS = 150, 5


def latency_run(path, cpu, stall=False):
    """rtlat latency -T 3 at 1 ms on @cpu; with @stall, STALLS busy loops
    of STALL_MS at a higher priority on the same CPU once it warmed up."""
    lat = subprocess.Popen(
        [RTLAT, "latency", "-T", "3", "--warmup", "0.5s", "-p", "1000",
         "-P", "80", "-c", str(cpu), "--json", str(path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = ""
    while "warming up" not in err:
        line = lat.stderr.readline()
        assert line, err
        err += line
    if stall:
        st = subprocess.run([sys.executable, str(HERE / "stall.py"),
                             str(cpu), "90", str(STALL_MS), "250", "0.6",
                             str(STALLS)],
                            capture_output=True, text=True, timeout=30)
        assert st.returncode == 0 and "done %d" % STALLS in st.stdout
    rest, _ = lat.communicate(timeout=30)
    assert lat.returncode == 0, err + rest
    return path


def gate_doc(*args):
    p = gate("--json", *args)
    assert p.returncode in (0, 2), p.stderr
    doc = json.loads(p.stdout)
    (t,) = doc["tables"]
    return p.returncode, {m["key"]: m for m in t["metrics"]}


@needs_root
def test_a_stall_is_gated_a_clean_run_is_not(tmp_path):
    """Three runs of 3 s at 1 ms make the baseline. A run with five stalls
    of 150 ms on the sampled CPU: its max is >= 149 ms and it misses >= 5
    * 148 periods, so wherever the baseline's limit leaves room below those
    bounds the gate must fail on max and overruns; its avg is at least
    5 * 149 ms / samples. A clean run is gated on the avg only, with a
    margin of 500 %: a run whose avg is six times the baseline's is no
    clean run, whatever the noise; the stall run must fail that gate too
    where its avg's bound is above the limit. Other RT tasks on this
    shared machine (other test runs' stall injectors and hogs) can stall
    the clean run too: then its max or overruns fail the default gate, it
    is no clean run, and the test says so instead of asserting a pass."""
    cpu = max(os.sched_getaffinity(0))
    base = tmp_path / "base"
    base.mkdir()
    for i in range(3):
        latency_run(base / ("r%d.json" % i), cpu)
    stalled = latency_run(tmp_path / "stall.json", cpu, stall=True)
    s = json.loads(stalled.read_text())["summary"]["latency"]
    assert s["max_ns"] >= STALL_MS * 1e6 - PERIOD_NS     # the stall is seen

    rc, m = gate_doc(base, stalled)
    first = m
    max_bound = STALL_MS * 1e6 - PERIOD_NS
    miss_bound = STALLS * (STALL_MS - 2)
    asserted = 0
    if m["max"]["baseline"] + m["max"]["limit"] < max_bound:
        assert m["max"]["verdict"] == "worse", m["max"]["reason"]
        asserted += 1
    if m["overruns"]["baseline"] + m["overruns"]["limit"] < miss_bound:
        assert m["overruns"]["verdict"] == "worse", m["overruns"]["reason"]
        asserted += 1
    if asserted:
        assert rc == 2

    narrow = ("--gate-metrics", "avg", "--margin", "500%")
    rc, m = gate_doc(*narrow, base, stalled)
    avg_bound = STALLS * max_bound / s["samples"]
    if m["avg"]["baseline"] + m["avg"]["limit"] < avg_bound:
        assert rc == 2 and m["avg"]["verdict"] == "worse"
        asserted += 1
    if not asserted:
        pytest.skip("this machine's noise now exceeds %d ms stalls: "
                    "baseline max %s ns, limit %s ns" %
                    (STALL_MS, first["max"]["baseline"],
                     first["max"]["limit"]))

    clean = latency_run(tmp_path / "clean.json", cpu)
    rc, m = gate_doc(*narrow, base, clean)
    _, full = gate_doc(base, clean)
    if rc == 2 and "worse" in (full["max"]["verdict"],
                              full["overruns"]["verdict"]):
        # the premise failed, not the gate: something else on this shared
        # machine (the host, another RT task above ours) stalled the
        # "clean" run beyond the baseline's noise
        pytest.skip("the clean run was stalled from elsewhere: %s" %
                    full["max"]["reason"])
    assert rc == 0 and m["avg"]["verdict"] == "same", m["avg"]["reason"]


def readme_hog():
    """The hog of README's CI recipe (step 3), as the user runs it (its
    output redirection kept: it writes hog.log)."""
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("( for i in $(seq") and "chrt -f 99" in line:
            return line.split(" & hog=$!")[0]
    raise AssertionError("README has no hog line in its CI recipe")


def utc_ns(stamp):
    """A result's start_time (UTC, milliseconds) in ns since the epoch."""
    t = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    t = t.replace(tzinfo=datetime.timezone.utc)
    return (int(t.timestamp()) * 1000 + t.microsecond // 1000) * 1000000


def holds_inside(log, res):
    """The hog's holds (hog.log: start and length in us, on CLOCK_REALTIME)
    that lay wholly within the result's measured time, as (start_ns,
    held_ns). start_time is the measurement's start cut to the
    millisecond: the window is taken as [start_time + 1 ms, start_time +
    duration], inside the real one."""
    lo = utc_ns(res["start_time"]) + 1000000
    hi = utc_ns(res["start_time"]) + res["duration_actual_ns"]
    holds = [(int(a) * 1000, int(b) * 1000)
             for a, b in (l.split() for l in log.read_text().splitlines())]
    assert holds, "the README's hog logged no hold"
    return [(a, b) for a, b in holds if a >= lo and a + b <= hi]


@needs_root
def test_the_readme_recipe_proves_the_gate_bites(tmp_path):
    """README's CI recipe on this machine: three short suites into the
    history as the board's baseline, then a suite while the README's hog
    holds CPU 1 for 100 ms every second: the CPU 1 sampler's latency max
    is >= the longest hold within the measured time - one period (the hog
    times each hold itself, from when it runs on CPU 1: the time its start
    takes, which load stretches, is not in it), and where the baseline's
    limit leaves room below that, compare --gate against the baseline from
    the history fails on it (exit 2)."""
    if os.cpu_count() < 2:
        pytest.skip("the recipe's hog holds CPU 1")
    db = tmp_path / "lab.db"
    # 5 s: on a loaded machine the hog's holds come every 1.2 s or more
    # (its start is not real-time); at least one must lie wholly inside
    args = ["suite", "-T", "5", "--warmup", "0.5s", "--tests", "latency",
            "--loads", "none", "-q"]
    for i in range(3):
        p = run(args + ["-o", tmp_path / ("base-%d" % i), "--db", db],
                timeout=120)
        assert p.returncode in (0, 2), p.stderr
    board = os.uname().nodename
    run(["db", "baseline", "set", "--db", db, "board=" + board], check=0)
    hog = subprocess.Popen(["bash", "-c", readme_hog()], cwd=tmp_path,
                           start_new_session=True)
    try:
        p = run(args + ["-o", tmp_path / "bites"], timeout=120)
    finally:
        os.killpg(hog.pid, 9)
        hog.wait()
    assert p.returncode in (0, 2), p.stderr
    res = json.loads((tmp_path / "bites" / "01-latency-none.json")
                     .read_text())
    assert res["status"] == "complete"
    # each hold is the 100 ms the README says, by the hog's clock
    holds = holds_inside(tmp_path / "hog.log", res)
    assert holds, "no hold of the hog lay within the measured time"
    assert all(b >= 100000000 for _, b in holds), holds
    (cpu1,) = [t for t in res["threads"] if t["cpu"] == 1]
    period = res["config"]["period_ns"]
    held = max(b for _, b in holds)
    # the hog is seen: the sampler's first deadline in a hold waits for
    # its end
    assert cpu1["series"]["latency"]["max_ns"] >= held - period, holds
    p = run(["compare", "--gate", "--json", "--db", db,
             "board=%s,baseline=yes" % board, tmp_path / "bites"])
    assert p.returncode in (0, 2), p.stderr
    (t,) = json.loads(p.stdout)["tables"]
    assert t["baseline_runs"] == 3 and t["new_runs"] == 1
    m = {x["key"]: x for x in t["metrics"]}["max"]
    if m["baseline"] + m["limit"] >= res["summary"]["latency"]["max_ns"]:
        pytest.skip("this machine's noise now exceeds the hog's stall: "
                    "baseline max %s ns, limit %s ns" % (m["baseline"],
                                                         m["limit"]))
    assert m["verdict"] == "worse" and p.returncode == 2, m["reason"]


def test_boards_apart_and_strict_gate_arguments(tmp_path):
    """A baseline that pools several boards, or new runs of another board
    than the baseline's, is noted (its noise would be the spread between
    boards); a margin, metric list or selector that is not what it looks
    like is refused, not read as something else ("0x10" was 16 %, "max,"
    max, "label=a,label=b" only b); an unchanged figure reads "the same"."""
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for i, host in enumerate(("board1", "board2", "board1")):
        result(mixed / ("m%d.json" % i), gauss(i), minute=i, host=host)
    new = result(tmp_path / "new.json", gauss(30), minute=30, host="board1")
    p = gate(mixed, new, check=0)
    assert "note: the baseline pools 2 boards (board1, board2): its noise " \
        "is the spread between boards" in p.stdout
    base = baseline(tmp_path)            # board1's
    other = result(tmp_path / "other.json", gauss(31), minute=31, host="board7")
    p = gate(base, other, check=None)
    assert "the new runs are of board board7, the baseline of board board1:" \
        " not like for like" in p.stdout
    same = gate(base, new, check=None).stdout
    assert not [l for l in same.splitlines() if "note:" in l and "board" in l]
    for bad in ("0x10", "1e3", "1..2", "ten", "-5"):
        p = run(["compare", "--gate", "--margin", bad, base, new], check=1)
        assert "invalid value '%s' for --margin" % bad in p.stderr
    for bad in ("max,", ",max", "max,,avg"):
        p = run(["compare", "--gate", "--gate-metrics", bad, base, new], check=1)
        assert "invalid value '%s' for --gate-metrics" % bad in p.stderr
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, base], check=0)
    p = run(["db", "baseline", "set", "--db", db, "label=base0,label=base1"],
            check=1)
    assert "label= given twice" in p.stderr
    p = run(["db", "baseline", "set", "--db", db, "label=base0,,board=board1"],
            check=1)
    assert "an empty KEY=GLOB between commas" in p.stderr
    assert run(["db", "baseline", "show", "--db", db], check=0).stdout == ""
    # the same figures on both sides: "the same", not "better by 0.000 us"
    p = gate(base / "base0.json", base / "base0.json", check=0)
    assert "better by 0.000" not in p.stdout and "the same: within" in p.stdout


@needs_root
def test_suite_db_stores_the_load_states_by_name(tmp_path):
    """suite --db stores its runs with the load state's name, as db add of
    the suite directory does ("hell", not its mix cpu+cache+...): the
    README's recipe (a baseline from suite --db, then suite --gate --db)
    gated nothing, every hell table refused for "only under other loads"."""
    db, dirdb, out = tmp_path / "h.db", tmp_path / "d.db", tmp_path / "s"
    run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
         "-o", out, "--db", db], check=0, timeout=120)
    run(["db", "add", "-q", "--db", dirdb, out], check=0)
    def loads(h):
        rows = run(["db", "list", "--db", h], check=0).stdout.splitlines()[1:]
        return [r.split("|")[4].strip() for r in rows]
    assert loads(db) == loads(dirdb) == ["none", "hell"]
    # a mix in another order is named in the generators' order, and
    # --load-cmd is part of the name (hell with a command is no longer
    # hell: a baseline without it must refuse it), as db add names them
    db2, dirdb2, out2 = tmp_path / "m.db", tmp_path / "md.db", tmp_path / "m"
    run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
         "--loads", "io+cpu,hell", "--load-cmd", "sleep 100", "-o", out2,
         "--db", db2], check=0, timeout=120)
    run(["db", "add", "-q", "--db", dirdb2, out2], check=0)
    assert loads(db2) == loads(dirdb2) == [
        "cpu+io+cmd", "cpu+cache+fork+io+net+msg+cmd"]
    # the gate sees it before the first run: hell with --load-cmd has no
    # baseline in h.db (hell without it)
    run(["db", "baseline", "set", "--db", db, "test=latency"], check=0)
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
             "--loads", "hell", "--load-cmd", "sleep 100", "-o",
             tmp_path / "g", "--gate", "--db", db], check=1, timeout=120)
    assert "latency cpu+cache+fork+io+net+msg+cmd (only under other " \
        "loads)" in p.stderr and "nothing was run" in p.stderr, p.stderr
    assert not (tmp_path / "g").exists()


@needs_root
def test_suite_load_mix_order_and_an_unwritable_gate_json(tmp_path):
    """--loads io+cpu against a baseline stored as cpu+io passes the check
    before the runs and is gated (it was refused after all the runs, "no
    baseline of the same load"); an OUT/gate.json that is a directory is
    found before the first run (it was found after them all)."""
    db, out = tmp_path / "h.db", tmp_path / "s"
    run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
         "--loads", "cpu+io", "-o", out, "--db", db], check=0, timeout=120)
    run(["db", "baseline", "set", "--db", db, "test=latency"], check=0)
    out2 = tmp_path / "s2"
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
             "--loads", "io+cpu", "-o", out2, "--gate", "--db", db,
             "--gate-metrics", "min"], timeout=120)
    assert p.returncode in (0, 2), p.stderr
    assert "refused" not in p.stderr, p.stderr
    doc = json.loads((out2 / "gate.json").read_text())
    assert [t["title"] for t in doc["tables"]] == ["LATENCY with load cpu+io"]
    out3 = tmp_path / "s3"
    (out3 / "gate.json").mkdir(parents=True)
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
             "--loads", "cpu+io", "-o", out3, "--gate", "--db", db],
            check=1, timeout=120)
    assert "gate.json is not a regular file" in p.stderr and \
        "nothing was run" in p.stderr
    assert not (out3 / "suite.json").exists()


# ---- the fourth trial's findings ----

def test_filters_that_match_nothing_are_an_error(tmp_path):
    """compare --gate (and plain compare) with a filter option that keeps
    no run of a side exits 1 and says so: it passed silently (exit 0, no
    output), so a typo in a CI job let every kernel through."""
    base = baseline(tmp_path)
    new = result(tmp_path / "new.json", gauss(30), minute=30)
    for flt in (["--test", "nosuch"], ["--load", "nosuch"],
                ["--board", "nosuch"], ["--label", "nosuch"],
                ["--since", "2030-01-01"], ["--until", "2000-01-01"]):
        for extra in (["--gate"], ["--gate", "--json"], []):
            p = run(["compare"] + extra + flt + [base, new], check=1)
            assert "no run passes the filter options" in p.stderr, p.stderr
            assert p.stdout == ""
    # one file: the same
    p = run(["compare", "--test", "nosuch", base / "base0.json"], check=1)
    assert "no run passes the filter options" in p.stderr


def test_a_partial_new_run_is_never_gated(tmp_path):
    """A new run that did not complete (interrupted, a checkpoint) is
    refused, not gated: it passed the gate (exit 0) on its partial
    figures. With another table failing, the failure wins (exit 2)."""
    base = baseline(tmp_path)
    new = tmp_path / "new"
    new.mkdir()
    part = result(new / "lat.json", gauss(30), minute=30)
    doc = json.loads(part.read_text())
    for status, why in (("interrupted", "has only interrupted runs among "
                         "the new runs"),
                        ("running", "has a new run that did not complete "
                         "(checkpoint: "),
                        ("break", "has a new run that did not complete "
                         "(break: ")):
        doc["status"] = status
        part.write_text(json.dumps(doc))
        p = gate(base, new, check=1)
        assert why in p.stderr, p.stderr
        assert "not gated" in p.stderr or "never gated" in p.stderr
        assert "baseline only" not in p.stderr
        assert "gate: pass" not in p.stdout
        assert json.loads(gate("--json", base, new,
                               check=1).stdout)["verdict"] == "refused"
    # a switch table that fails beside the partial latency run: exit 2
    sw = tmp_path / "swbase"
    sw.mkdir()
    for i in range(3):
        result(sw / ("s%d.json" % i), gauss(i), minute=i, test="switch")
    result(new / "sw.json", gauss(40, 19950) + [500000] * 50, minute=40,
           test="switch")
    both = tmp_path / "both"
    both.mkdir()
    for f in list(base.iterdir()) + list(sw.iterdir()):
        (both / f.name).write_text(f.read_text())
    p = gate(both, new, check=2)
    assert verdicts(p.stdout)["lat max"][0] == "worse", p.stdout
    assert "has a new run that did not complete (break: " in p.stderr


def test_the_new_runs_spread_never_widens_the_limit(tmp_path):
    """Three new runs with max 10, 60 and 110 ms, each worse than every
    baseline run (max about 28 us): they passed, the limit widened to the
    new runs' own 100 ms spread. The limit is the baseline's spread."""
    base = baseline(tmp_path)
    new = tmp_path / "new"
    new.mkdir()
    for i, mx in enumerate((10_000_000, 60_000_000, 110_000_000)):
        result(new / ("n%d.json" % i), gauss(50 + i, 19999) + [mx],
               minute=50 + i)
    p = gate("--gate-metrics", "max", base, new, check=2)
    verdict, reason = verdicts(p.stdout)["lat max"]
    assert verdict == "worse", reason
    assert "the spread of 3 baseline runs;" in reason
    assert "new ones" not in reason
    doc = json.loads(gate("--json", "--gate-metrics", "max", base, new,
                          check=2).stdout)
    m = doc["tables"][0]["metrics"][0]
    assert m["limit"] < 1_000_000        # the baseline's spread, not 100 ms


def test_overruns_come_in_bursts(tmp_path):
    """At a 100 us period a stall of 3.8 ms costs 38 overruns at once: a
    baseline of three runs with max 3.8 ms and 38, 76 and 38 overruns
    (one, two and one stall) against a new run of the same length with
    114 (three stalls) is within the noise of bursts of 38, where counting
    overruns one by one (Poisson, 2*sqrt(A+B)) failed it; 40 stalls (1520)
    fail. Overruns where the baseline had none fail, however few."""
    def runs(d, counts, mx=3_800_000):
        d.mkdir()
        for i, o in enumerate(counts):
            result(d / ("r%d.json" % i), gauss(i, 19999) + [mx],
                   overruns=o, period_ns=100000, minute=i)
        return d
    base = runs(tmp_path / "base", (38, 76, 38))
    for count, want in ((114, "same"), (1520, "worse")):
        new = result(tmp_path / "new.json", gauss(9, 19999) + [3_800_000],
                     overruns=count, period_ns=100000, minute=9)
        p = gate("--gate-metrics", "overruns", base, new,
                 check=0 if want == "same" else 2)
        verdict, reason = verdicts(p.stdout)["overrun"]
        assert verdict == want, reason
        assert "in bursts of up to 38 (the baseline's max / its period " \
            "of 100 us)" in reason, reason
    clean = runs(tmp_path / "clean", (0, 0, 0), mx=50_000)
    one = result(tmp_path / "one.json", gauss(9, 20000), overruns=1,
                 period_ns=100000, minute=9)
    verdict, reason = verdicts(gate("--gate-metrics", "overruns", clean, one,
                                    check=2).stdout)["overrun"]
    assert verdict == "worse"
    assert reason == "1 where the 3 baseline runs had none: they appeared"
    none = result(tmp_path / "none.json", gauss(8, 20000), period_ns=100000,
                  minute=8)
    verdict, reason = verdicts(gate("--gate-metrics", "overruns", clean,
                                    none, check=0).stdout)["overrun"]
    assert (verdict, reason) == ("same", "0, as in the 3 baseline runs")


def test_margin_wording_and_sub_ns_changes(tmp_path):
    """--margin 5.5% reads "5.5 %" (it read "6 %"); a margin of 0 over a
    one-run baseline says that any worsening fails; an avg that moved by
    0.9 ns reads "the same" (it read "worse by 0.001 us")."""
    base = baseline(tmp_path, runs=1)
    new = result(tmp_path / "new.json", gauss(20, mean=21000), minute=20)
    v = verdicts(gate("--margin", "5.5%", base, new, check=0).stdout)
    assert "margin 5.5 % = " in v["lat avg"][1], v["lat avg"][1]
    v = verdicts(gate("--margin", "0", base, new, check=2).stdout)
    assert "(no margin: any worsening fails)" in v["lat avg"][1]
    a = result(tmp_path / "a.json", [20000] * 10, minute=1)
    b = result(tmp_path / "b.json", [20000] * 9 + [20009], minute=2)
    v = verdicts(gate("--gate-metrics", "avg", a, b, check=0).stdout)
    assert v["lat avg"] [1].startswith("the same: within the limit"), v
    c = result(tmp_path / "c.json", [20000] * 9 + [20011], minute=3)
    v = verdicts(gate("--gate-metrics", "avg", a, c, check=0).stdout)
    assert v["lat avg"][1].startswith("worse by 0.001 us"), v


def test_refusal_and_note_wording(tmp_path):
    """A table refused for its period is not also "baseline only"; a load
    refusal lists every load the baseline has the test under; two of
    three new runs that are in the baseline are counted, not "the new
    run X is itself in the baseline"."""
    base = tmp_path / "base"
    base.mkdir()
    for i in range(2):
        result(base / ("n%d.json" % i), gauss(i), minute=i)
        result(base / ("h%d.json" % i), gauss(i + 5), minute=i + 5,
               load="hell")
    new = result(tmp_path / "p.json", gauss(9), minute=9, period_ns=100000)
    p = gate(base, new, check=1)
    assert "sampled every 100 us" in p.stderr
    assert "baseline only (no new run of it): LATENCY without load" \
        not in p.stderr, p.stderr
    io_ = result(tmp_path / "io.json", gauss(9), minute=9, load="io")
    p = gate(base, io_, check=1)
    assert "(the baseline has LATENCY with load hell; LATENCY without " \
        "load)" in p.stderr or "(the baseline has LATENCY without load; " \
        "LATENCY with load hell)" in p.stderr, p.stderr
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for i in range(2):
        (mixed / ("n%d.json" % i)).write_text(
            (base / ("n%d.json" % i)).read_text())
    result(mixed / "x.json", gauss(7), minute=7)
    p = gate(base, mixed)
    assert "2 of the 3 new runs (" in p.stdout and \
        "are in the baseline themselves" in p.stdout, p.stdout


def test_nothing_measured_is_never_a_pass(tmp_path):
    """A complete run without a sample (a starved sampler: every period
    missed) passed the gate with every metric n/a (exit 0); so did a table
    with no gated metric known on both sides. Both are refused."""
    base = baseline(tmp_path)
    new = result(tmp_path / "new.json", gauss(30), minute=30)
    doc = json.loads(new.read_text())
    s = doc["summary"]["latency"]
    for k in ("min_ns", "max_ns", "avg_ns", "histogram"):
        s.pop(k, None)
    for overruns in (0, 20000):
        s.update(samples=0, overruns=overruns)
        new.write_text(json.dumps(doc))
        p = gate(base, new, check=1)
        assert "has a new run without a sample" in p.stderr, p.stderr
        assert "gate: pass" not in p.stdout
    # min only gated, and the new run does not know it: nothing compared
    doc = json.loads(result(tmp_path / "x.json", gauss(31), minute=31)
                     .read_text())
    doc["summary"]["latency"].pop("min_ns")
    new.write_text(json.dumps(doc))
    p = gate("--gate-metrics", "min", base, new, check=1)
    assert "has no gated metric known on both sides" in p.stderr, p.stderr


def test_samples_without_figures_are_never_a_pass(tmp_path):
    """A complete run of 20000 samples whose min/avg/max are missing, null
    or NaN passed the gate ("gate lat max: n/a: not known in the new runs
    ... gate: pass", exit 0): only its overrun count was compared. It is
    refused like a run without a sample."""
    base = baseline(tmp_path)
    new = result(tmp_path / "new.json", gauss(30), minute=30)
    doc = json.loads(new.read_text())
    s = doc["summary"]["latency"]
    s.pop("histogram")
    for how in ("missing", "null", "NaN"):
        for k in ("min_ns", "max_ns", "avg_ns"):
            s.pop(k, None)
            if how == "null":
                s[k] = None
        text = json.dumps(doc)
        if how == "NaN":
            text = text.replace('"samples": 20000,', '"samples": 20000, '
                                '"min_ns": NaN, "max_ns": NaN, '
                                '"avg_ns": NaN,')
            assert "NaN" in text
        new.write_text(text)
        p = gate(base, new, check=1)
        assert "has a new run without latency figures (%s: 20000 samples, " \
            "no min/avg/max): nothing measured is never gated" % new \
            in p.stderr, (how, p.stderr)
        assert "gate: pass" not in p.stdout
        doc2 = json.loads(gate("--json", base, new, check=1).stdout)
        assert doc2["verdict"] == "refused" and not doc2["tables"]
        assert "without latency figures" in doc2["refused"][0]["reason"]


@needs_root
def test_a_dangling_gate_json_link_is_found_before_the_runs(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    (out / "gate.json").symlink_to("/nonexistent/gate.json")
    p = run(["suite", "-T", "1", "--warmup", "0", "--tests", "latency", "-q",
             "--loads", "none", "-o", out, "--gate", "--baseline",
             suite_base(tmp_path)], check=1, timeout=60)
    assert "is a symbolic link to nothing there is" in p.stderr, p.stderr
    assert "nothing was run" in p.stderr
    assert not (out / "suite.json").exists()
