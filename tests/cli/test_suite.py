# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat suite end to end, with short runs."""
import csv
import io
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from conftest import (RTLAT, fake_lava_test_case, fill_fs, load_json_strict,
                      mount_tmpfs, needs_root, run, umount)
from procs import children, session_procs, start, stop, wait_session_empty

HEADER = ["Board      :", "Processor  :", "CPU-Clk    :", "Caches     :",
          "Memory     :", "Linux      :", "RT         :"]
SNAPSHOT = ["cmdline", "cpuinfo", "meminfo", "uname", "interrupts.before",
            "interrupts.after", "check.txt", "check.json"]


def check_findings(out, idx, report, results):
    """rtlat check ran first: system/check.txt and check.json, its counts
    and items in the report, its compact form in suite.json and in every
    result file (the same items, each with a verdict and what was found)."""
    full = load_json_strict(out / "system" / "check.json")
    assert full["root"] == "/" and full["interval_ns"] == 1000000000
    c = full["counts"]
    counts = "%d bad, %d warning%s, %d ok, %d n/a" % (
        c["bad"], c["warning"], "" if c["warning"] == 1 else "s",
        c["ok"], c["n/a"])
    assert "Check      : %s (rtlat check before the runs, " \
        "system/check.txt)" % counts in report
    text = (out / "system" / "check.txt").read_text()
    assert text.splitlines()[-1] == "# " + counts
    ids = [i["id"] for i in full["items"]]
    for i in full["items"]:
        assert ("  %-16s %-8s %s" % (i["id"], i["verdict"], i["found"])) \
            in report
    assert idx["check"]["worst"] == full["worst"]
    assert idx["check"]["counts"] == c
    assert [(i["id"], i["verdict"], i["found"]) for i in idx["check"]["items"]] \
        == [(i["id"], i["verdict"], i["found"]) for i in full["items"]]
    for res in results:
        ck = res["check"]
        assert [i["id"] for i in ck["items"]] == ids
        for i in ck["items"]:
            assert set(i) == {"id", "verdict", "found"}
            assert i["verdict"] in ("ok", "warning", "bad", "n/a")
        assert sum(ck["counts"].values()) == len(ids)
        assert ck["worst"] in ("ok", "warning", "bad", "n/a")


TESTS = ["latency", "switch", "handshake", "cruncher", "noise"]
LOADS = [("none", "without load"), ("hell", "with load (hell)")]


def us3(ns):
    """fmt_us3(): ns as us with three decimals, exactly (None: n/a)."""
    if ns is None:
        return "n/a"
    return "%s%d.%03d" % ("-" if ns < 0 else "", abs(ns) // 1000,
                          abs(ns) % 1000)


def avg(a):
    return "%.3f" % (a["avg_ns"] / 1000.0)


def pct(a):
    """p99.9 as the reports show it: none below 1000 samples (its rank is
    the last sample: only the max again)."""
    v = a["percentiles_ns"]["p99.9"]
    return v if a["samples"] >= 1000 else None


# Per test: the columns of its table and, from its result file, what each
# must show (res is the result JSON, sm its summary).
EXPECT = {
    "latency": [
        ("lat min", lambda res, sm: us3(sm["latency"]["min_ns"])),
        ("lat avg", lambda res, sm: avg(sm["latency"])),
        ("lat max", lambda res, sm: us3(sm["latency"]["max_ns"])),
        ("overrun", lambda res, sm: str(sm["latency"]["overruns"])),
        ("p99.9", lambda res, sm: us3(pct(sm["latency"]))),
        ("test-time", lambda res, sm: "00:00:01"),
    ],
    "switch": [
        ("lat min", lambda res, sm: us3(sm["latency"]["min_ns"])),
        ("lat avg", lambda res, sm: avg(sm["latency"])),
        ("lat max", lambda res, sm: us3(sm["latency"]["max_ns"])),
        ("lost", lambda res, sm: str(sm["latency"]["lost"])),
        ("p99.9", lambda res, sm: us3(pct(sm["latency"]))),
        ("test-time", lambda res, sm: "00:00:01"),
    ],
    "handshake": [
        ("a->b min", lambda res, sm: us3(sm["a_to_b"]["min_ns"])),
        ("a->b avg", lambda res, sm: avg(sm["a_to_b"])),
        ("a->b max", lambda res, sm: us3(sm["a_to_b"]["max_ns"])),
        ("a->b p99.9", lambda res, sm: us3(pct(sm["a_to_b"]))),
        ("b->a max", lambda res, sm: us3(sm["b_to_a"]["max_ns"])),
        ("rtt max", lambda res, sm: us3(sm["round_trip"]["max_ns"])),
        ("lost", lambda res, sm: str(sm["round_trip"]["lost"])),
        ("test-time", lambda res, sm: "00:00:01"),
    ],
    "cruncher": [
        ("ideal", lambda res, sm: us3(res["test_data"]["ideal_ns"])),
        ("calibrated",
         lambda res, sm: us3(res["test_data"]["cpus"][0]["calibrated_ns"])),
        ("dev min", lambda res, sm: us3(sm["deviation"]["min_ns"])),
        ("dev avg", lambda res, sm: avg(sm["deviation"])),
        ("dev max", lambda res, sm: us3(sm["deviation"]["max_ns"])),
        ("dev max %", None),            # checked below
        ("sleep max", lambda res, sm: us3(sm["sleep"]["max_ns"])),
        ("test-time", lambda res, sm: "00:00:01"),
    ],
    "noise": [
        ("max gap", lambda res, sm: us3(sm["gap"]["max_ns"])),
        # from the integers, as rtlat computes it: the JSON's 6-decimal
        # noise_pct rounded again to 4 can differ in the last digit
        ("noise %", lambda res, sm: "%.4f" % max(
            100.0 * c["noise_ns"] / c["measured_ns"]
            for c in res["test_data"]["cpus"] if c["measured_ns"] > 0)),
        ("on CPU", lambda res, sm: str(res["test_data"]["cpus"][0]["cpu"])),
        ("max w/o RT thr.", lambda res, sm: us3(
            res["test_data"]["max_gap_unthrottled_ns"])
         if "max_gap_unthrottled_ns" in res["test_data"] else "n/a"),
        ("RT throttled",
         lambda res, sm: us3(res["test_data"]["throttled_ns"])),
        ("events", lambda res, sm: str(sm["gap"]["samples"])),
        ("p99.9", lambda res, sm: us3(pct(sm["gap"]))),
        ("test-time", lambda res, sm: "00:00:01"),
    ],
}


def report_tables(report, label):
    """{title line: {column: cell}} of every table of a suite report."""
    lines = report.splitlines()
    tables = {}
    for i, ln in enumerate(lines):
        if not (ln.endswith(":") and " load" in ln and i + 2 < len(lines)
                and lines[i + 2].startswith(label + " |")):
            continue
        heads = [h.lstrip("-") for h in lines[i + 1].split("|")[1:]]
        cells = [c.strip() for c in lines[i + 2].split("|")[1:]]
        assert len(heads) == len(cells), (lines[i + 1], lines[i + 2])
        tables[ln] = dict(zip(heads, cells))
        tables[ln]["_heads"] = heads
    return tables


@needs_root
def test_suite_end_to_end(tmp_path):
    """The default suite: five tests without load and with hell, each table
    showing its result file's figures."""
    out = tmp_path / "res"
    p = run(["suite", "-T", "1", "--warmup", "500ms", "--out", out,
             "--label", "Test Board 1.0", "--load-workers", "1",
             "--load-io-dir", tmp_path], timeout=180)
    assert p.returncode == 0, p.stderr
    report = p.stdout
    assert (out / "report.txt").read_text() == report
    for h in HEADER:
        assert h in report, h
    assert "LATENCY without load, latencies in us, test-time hh:mm:ss:" \
        in report
    assert "|-----lat min|-----lat avg|-----lat max|-overrun|-------p99.9|---test-time" in report
    assert "|-----lat min|-----lat avg|-----lat max|----lost|-------p99.9|---test-time" in report
    assert "CRUNCHER without load, times in us, dev = computation time - " \
        "ideal, sleep max = latest wake-up from the sleep between " \
        "computations, test-time hh:mm:ss:" in report
    # under each row, how it measured
    assert report.count("\n  measured: ") == 10
    rows = [ln for ln in report.splitlines() if ln.startswith("Test Board 1.0 |")]
    assert len(rows) == 10, rows
    assert "Loads achieved" in report
    for unit in ("ops/s", "MB/s", "forks/s", "packets/s", "msgs/s"):
        assert unit in report, unit
    # progress on stderr (not a terminal: a line per run at least)
    assert "run 1 of 10" in p.stderr and "run 10 of 10" in p.stderr
    assert "remaining" in p.stderr

    idx = load_json_strict(out / "suite.json")
    assert idx["schema"] == "rtlat-suite" and idx["status"] == "complete"
    assert idx["label"] == "Test Board 1.0" and idx["exit_status"] == 0
    assert idx["system"]["kernel_release"] == os.uname().release
    assert [(r["test"], r["load"]) for r in idx["runs"]] == \
        [(t, l) for t in TESTS for l, _ in LOADS]
    tables = report_tables(report, "Test Board 1.0")
    assert len(tables) == 10, list(tables)
    check_findings(out, idx, report,
                   [load_json_strict(out / r["file"]) for r in idx["runs"]])
    for r in idx["runs"]:
        test = r["test"]
        assert r["status"] == "complete" and r["exit_status"] == 0, r
        assert (r["policy"], r["priority"]) == ("fifo", 98 if test == "switch"
                                                else 99)
        res = load_json_strict(out / r["file"])
        assert res["schema"] == "rtlat-result" and res["status"] == "complete"
        assert res["test"] == test
        sm = res["summary"]
        # the index holds the result file's figures
        assert set(r["summary"]) == set(sm)
        for name, s in r["summary"].items():
            for k in ("samples", "min_ns", "max_ns"):
                assert s[k] == sm[name][k], (test, name, k)
            assert s["p99.9_ns"] == pct(sm[name])
        # and so does its table
        title = "%s %s, " % (test.upper(), dict(LOADS)[r["load"]])
        t = [v for k, v in tables.items() if k.startswith(title)]
        assert len(t) == 1, (title, list(tables))
        t = t[0]
        assert t["_heads"] == [c for c, _ in EXPECT[test]]
        for col, want in EXPECT[test]:
            if want:
                assert t[col] == want(res, sm), (test, r["load"], col)
        if test == "cruncher":
            td = res["test_data"]
            assert td["ideal_ns"] == 10000000       # the default
            assert r["params"] == {
                "ideal_ns": td["ideal_ns"],
                "calibrated_ns": td["cpus"][0]["calibrated_ns"],
                "dev_max_pct": float(t["dev max %"])}
            assert abs(float(t["dev max %"]) - 100.0 *
                       sm["deviation"]["max_ns"] / td["ideal_ns"]) < 0.0051
        elif test == "switch":
            td = res["test_data"]
            assert r["params"] == {
                "events": td["events"],
                "event_missed_periods": td["event_missed_periods"]}
        elif test == "noise":
            td = res["test_data"]
            c = td["cpus"][0]
            want = {
                "noise_pct": float(t["noise %"]), "noise_cpu": c["cpu"],
                "events": c["events"], "noise_ns": c["noise_ns"],
                "measured_ns": c["measured_ns"],
                "throttled_ns": c["rt_throttling"]["time_ns"]
                if c["rt_throttling"] else 0}
            if c["unthrottled"]["events"]:
                want["max_gap_unthrottled_ns"] = \
                    c["unthrottled"]["max_gap_ns"]
            assert r["params"] == want
            # noise's words under the row: events (gaps above the
            # threshold), not cyclictest's samples, overruns and cycles
            lines = report.splitlines()
            [i] = [k for k, ln in enumerate(lines) if ln.startswith(title)]
            measured = lines[i + 3]
            assert measured.startswith("  measured: fifo 99, CPU %d, gap: "
                                       "%d events above the threshold"
                                       % (c["cpu"], c["events"])), measured
            for w in ("samples", "overrun", "cycles", "periods"):
                assert w not in measured, measured
        else:
            assert r["params"] == {}
        if test == "handshake":
            assert res["config"]["period_ns"] == 1000000    # suite args
        assert (out / r["log"]).exists()
        assert len(r["loads"]) == (0 if r["load"] == "none" else 6)
        assert all(ld["rate"] > 0 for ld in r["loads"])
    for f in SNAPSHOT:
        assert (out / "system" / f).stat().st_size > 0, f
        assert "system/" + f in idx["snapshot"]
    assert not [f for f in os.listdir(tmp_path) if f != "res"]
    check_report_of_suite_dir(out, idx, tables, "Test Board 1.0")


def check_report_of_suite_dir(out, idx, tables, label):
    """rtlat report OUT (suite.json and the result files it lists) shows
    the figures of report.txt: same label, loads and values."""
    if "report" not in run(["--help"], check=0).stdout:
        return                          # built without the host side
    p = run(["report", "--csv", out], check=0)
    series = {}
    for row in csv.DictReader(io.StringIO(p.stdout)):
        assert row["label"] == label and row["status"] == "complete", row
        series.setdefault((row["test"], row["load"]), {})[row["series"]] = {
            "samples": int(row["samples"]),
            "min_ns": int(row["min_ns"]), "avg_ns": float(row["avg_ns"]),
            "max_ns": int(row["max_ns"]), row["miss_kind"]: int(row["misses"]) if row["misses"] else None,
            "percentiles_ns": {"p99.9": int(row["p99.9_ns"])
                               if row["p99.9_ns"] else None}}
    assert sorted(series) == sorted((r["test"], r["load"])
                                    for r in idx["runs"])
    for r in idx["runs"]:
        sm = series[(r["test"], r["load"])]
        assert set(sm) == set(r["summary"]), (r["test"], list(sm))
        title = "%s %s, " % (r["test"].upper(), dict(LOADS)[r["load"]])
        [t] = [v for k, v in tables.items() if k.startswith(title)]
        for col, want in EXPECT[r["test"]]:
            # the figures of test_data are not in the report's CSV
            if want and col not in ("ideal", "calibrated", "test-time",
                                    "noise %", "on CPU", "max w/o RT thr.",
                                    "RT throttled"):
                assert t[col] == want(None, sm), (r["test"], r["load"], col)


@needs_root
def test_suite_file_threshold_and_quiet(tmp_path):
    conf = tmp_path / "suite.conf"
    conf.write_text("""# a suite file
[suite]
duration = 1s          
warmup = 0
tests = latency
loads = none, cpu
label = From File
out = %s
max-latency = 1ns
load-workers = 1
quiet = yes

[latency]
args = -p 200
""" % (tmp_path / "res"))
    p = run(["suite", "-f", conf], timeout=120)
    assert p.returncode == 2, p.stderr          # 1 ns is always exceeded
    assert "run 1 of" not in p.stderr           # quiet
    assert "LATENCY with load (cpu)" in p.stdout
    assert "From File |" in p.stdout and "exceeded --max-latency" in p.stdout
    idx = load_json_strict(tmp_path / "res" / "suite.json")
    assert idx["threshold_exceeded"] is True and idx["exit_status"] == 2
    assert idx["config"]["max_latency_ns"] == 1
    res = load_json_strict(tmp_path / "res" / idx["runs"][0]["file"])
    assert res["config"]["period_ns"] == 200000
    assert res["threshold_exceeded"] is True
    # the command line overrides the file
    p = run(["suite", "-f", conf, "--loads", "none", "--max-latency", "1s",
             "--out", tmp_path / "res2"], timeout=120)
    assert p.returncode == 0, p.stderr
    assert len(load_json_strict(tmp_path / "res2" / "suite.json")["runs"]) == 1


@needs_root
def test_suite_threshold_per_series(tmp_path):
    """--max-latency applies to the series the test applies it to:
    handshake's one-way latencies, not its round trip."""
    p = run(["suite", "--tests", "handshake", "--loads", "none", "-T", "1",
             "--warmup", "0", "--max-latency", "1ns", "-q",
             "--out", tmp_path / "res"], timeout=60)
    assert p.returncode == 2, p.stderr
    notes = p.stdout.split("Notes:\n", 1)[1]
    assert "a_to_b max" in notes and "b_to_a max" in notes
    assert "round_trip" not in notes
    idx = load_json_strict(tmp_path / "res" / "suite.json")
    assert idx["threshold_exceeded"] is True
    assert set(idx["runs"][0]["summary"]) == {"a_to_b", "b_to_a", "round_trip"}


def test_suite_option_errors(tmp_path):
    p = run(["suite", "--tests", "nope"], check=1)
    assert "nope" in p.stderr and "latency" in p.stderr
    p = run(["suite", "--loads", "none,bogus"], check=1)
    assert "bogus" in p.stderr
    p = run(["suite", "-T", "0"], check=1)
    assert "-T/--duration" in p.stderr
    conf = tmp_path / "bad.conf"
    conf.write_text("[suite]\nno-such-key = 1\n")
    p = run(["suite", "-f", conf], check=1)
    assert "bad.conf:2" in p.stderr and "no-such-key" in p.stderr
    p = run(["suite", "--load-net-dest", "1.2.3.4"], check=1)
    assert "loopback" in p.stderr
    # an existing result is never overwritten
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "suite.json").write_text("{}")
    p = run(["suite", "--out", tmp_path / "old"], check=1)
    assert "already holds" in p.stderr


@pytest.mark.parametrize("loads,why", [
    ("none,,hell", "empty element at position 6"),
    ("none,", "empty element at position 6"),
    ("", "empty list of load states"),
    ("cpu+", 'empty element at position 5 in "cpu+"'),
    ("none,cpu++io", 'empty element at position 5 in "cpu++io"'),
])
def test_suite_empty_load_states_are_refused(tmp_path, loads, why):
    """(An old result in --out: should the list pass, nothing runs.)"""
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "suite.json").write_text("{}")
    p = run(["suite", "--loads", loads, "--out", tmp_path / "old"], check=1)
    assert "error: invalid value '%s' for --loads: %s (none: no load)" % (
        loads, why) in p.stderr, p.stderr


def test_suite_out_must_name_a_directory(tmp_path):
    """-o '' would write into / (/suite.json); a file is no directory. (A
    bad --loads after it: should -o pass, nothing runs.)"""
    p = run(["suite", "-o", "", "--loads", "bogus"], check=1)
    assert "invalid value '' for -o/--out: expected a directory, not an " \
        "empty name" in p.stderr, p.stderr
    f = tmp_path / "file"
    f.write_text("x")
    p = run(["suite", "--out", f, "--loads", "bogus"], check=1)
    assert "invalid value '%s' for -o/--out: exists and is not a " \
        "directory" % f in p.stderr, p.stderr
    assert f.read_text() == "x"
    conf = tmp_path / "s.conf"
    conf.write_text("[suite]\nout =\nloads = bogus\n")
    p = run(["suite", "-f", conf], check=1)
    assert "invalid value '' for -o/--out" in p.stderr, p.stderr
    assert "s.conf line 2" in p.stderr


def test_suite_lab_files_clashing_with_its_own_refused(tmp_path):
    """--junit/--kcidb FILE that is one of the suite's own files in -o DIR
    (suite.json, report.txt, a run's result file or log, the snapshot), DIR
    itself, or the other option's file: refused before anything is made."""
    d = tmp_path / "D"
    d.mkdir()
    base = ["suite", "-T", "1", "--tests", "latency", "--loads", "none",
            "-q", "-o", d]
    same = "are the same file: one would overwrite the other"
    for args, msg in [
            (["--junit", d / "suite.json"],
             "the suite's suite.json '%s' and --junit" % (d / "suite.json")),
            (["--kcidb", d / "report.txt"], same),
            (["--junit", d / "." / "01-latency-none.json"], same),
            (["--kcidb", d / "01-latency-none.log"], same),
            (["--junit", d / "system" / "cpuinfo"],
             "is in the suite's system snapshot directory"),
            (["--junit", tmp_path / "j.xml", "--kcidb", tmp_path / "j.xml"],
             "--junit '%s' and --kcidb '%s' %s" % (
                 tmp_path / "j.xml", tmp_path / "j.xml", same))]:
        p = run(base + args, check=1)
        assert msg in p.stderr, (args, p.stderr)
        assert os.listdir(d) == [], args
        assert not (tmp_path / "j.xml").exists()
    # in a new -o DIR: only DIR itself is made by the suite
    new = tmp_path / "new"
    p = run(base[:-1] + [new, "--junit", new / "sub" / "j.xml"], check=1)
    assert "the suite makes -o/--out %s, not the directories below it" % \
        new in p.stderr, p.stderr
    assert not new.exists()


@needs_root
def test_suite_lab_files_in_the_out_dir_it_makes(tmp_path):
    """-o NEWDIR --junit NEWDIR/j.xml: accepted (the suite makes NEWDIR
    before it writes there), also through NEWDIR/../NEWDIR."""
    import junitparser
    out = tmp_path / "new"
    p = run(["suite", "-T", "0.3", "--warmup", "0", "--tests", "latency",
             "--loads", "none", "-q", "-o", out, "--junit", out / "j.xml",
             "--kcidb", out / ".." / "new" / "k.json"], timeout=120)
    assert p.returncode == 0, p.stderr
    names = [c.name for s in junitparser.JUnitXml.fromfile(
        str(out / "j.xml")) for c in s]
    assert "latency-none" in names
    k = load_json_strict(out / "k.json")
    assert "latency-none" in [t["misc"]["rtlat_case"] for t in k["tests"]]
    assert load_json_strict(out / "suite.json")["status"] == "complete"


@needs_root
def test_suite_miss_header_of_runs_without_figures(tmp_path):
    """A table whose run failed without figures, or did not run, still
    has its test's miss column: lost for switch and handshake."""
    p = run(["suite", "--tests", "switch,handshake,latency", "--loads",
             "none", "-T", "1", "-q", "-o", tmp_path / "res",
             "--test-args", "switch:--ipc bogus",
             "--test-args", "handshake:--ipc bogus",
             "--test-args", "latency:--ipc bogus"], check=1)
    rows = p.stdout.splitlines()
    for title, miss in (("SWITCH", "----lost"), ("HANDSHAKE", "----lost"),
                        ("LATENCY", "-overrun")):
        i = [k for k, ln in enumerate(rows) if ln.startswith(title + " ")]
        assert len(i) == 1, (title, p.stdout)
        assert "|" + miss + "|" in rows[i[0] + 1], rows[i[0] + 1]
        assert "| failed: " in rows[i[0] + 2]
    # not run: the suite interrupted during its first run
    out = tmp_path / "res2"
    p = start(["suite", "--tests", "latency,switch,handshake", "--loads",
               "none", "-T", "30", "--warmup", "0", "-o", out])
    _first_run_child(p, out)
    stdout, err = stop(p, signal.SIGINT)
    assert p.returncode == 1, err      # interrupted: not every run done
    for title in ("SWITCH", "HANDSHAKE"):
        [t] = [k for k, ln in enumerate(stdout.splitlines())
               if ln.startswith(title + " ")]
        assert "|----lost|" in stdout.splitlines()[t + 1]
        assert "| not run" in stdout.splitlines()[t + 2]


@needs_root
def test_suite_interrupted_cleanly(tmp_path):
    out = tmp_path / "res"
    p = start(["suite", "-T", "30", "--out", out, "--load-workers", "1",
               "--tests", "latency", "--loads", "hell,none",
               "--load-io-dir", tmp_path])
    end = time.monotonic() + 30
    while not (out / "01-latency-hell.json").exists() and \
            time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(1.0)
    stdout, err = stop(p, signal.SIGINT)
    # not every run done: exit status 1, said the same way everywhere
    assert p.returncode == 1, err
    assert wait_session_empty(p.pid) == []
    assert not [f for f in os.listdir(tmp_path) if f != "res"]
    idx = load_json_strict(out / "suite.json")
    assert idx["status"] == "interrupted" and idx["exit_status"] == 1
    assert [r["status"] for r in idx["runs"]] == ["interrupted", "not run"]
    assert load_json_strict(out / "01-latency-hell.json")["status"] == \
        "interrupted"
    assert "not run" in stdout and (out / "report.txt").read_text() == stdout
    assert "Exit status: 1 (the suite was interrupted by signal 2 " \
        "(Interrupt): 1 of 2 runs not run)" in stdout
    assert "the suite was interrupted by signal 2 (Interrupt)" in err


@needs_root
def test_suite_interrupted_fails_everywhere(tmp_path):
    """SIGTERM in the first run: the rest not run, and nothing says
    pass: exit status 1, the report's and suite.json's exit status, the
    LAVA, JUnit and KCIDB cases of the runs not run fail (KCIDB ERROR)."""
    import junitparser
    out, xml, kc = tmp_path / "res", tmp_path / "j.xml", tmp_path / "k.json"
    env = dict(os.environ, PATH="/usr/bin:/bin")     # no lava-test-case
    p = start(["suite", "--tests", "latency,switch,handshake", "--loads",
               "none", "-T", "30", "--warmup", "0", "-q", "-o", out,
               "--lava", "--junit", xml, "--kcidb", kc], env=env)
    _first_run_child(p, out)
    stdout, err = stop(p, signal.SIGTERM)
    assert p.returncode == 1, err
    assert "Exit status: 1 (the suite was interrupted by signal 15 " \
        "(Terminated): 2 of 3 runs not run)" in stdout
    idx = load_json_strict(out / "suite.json")
    assert idx["status"] == "interrupted" and idx["exit_status"] == 1
    cases = _lava_cases(stdout)
    for t in ("switch-none", "handshake-none"):
        assert cases[t]["result"] == "fail", cases[t].string
    got = {c.name: c for s in junitparser.JUnitXml.fromfile(str(xml))
           for c in s}
    for t in ("switch-none", "handshake-none"):
        [f] = got[t].result
        assert isinstance(f, junitparser.Failure)
        assert f.message == "not run: the suite was interrupted"
    st = {t["misc"]["rtlat_case"]: t["status"]
          for t in load_json_strict(kc)["tests"]}
    assert st["switch-none"] == st["handshake-none"] == "ERROR"


@needs_root
def test_suite_gate_never_passes_an_interrupted_suite(tmp_path):
    """--gate over an interrupted suite: not made (verdict interrupted, no
    gate.json), exit status 1, whatever the runs done would have given."""
    base = tmp_path / "base"
    run(["suite", "--tests", "latency,switch", "--loads", "none", "-T",
         "0.5", "--warmup", "0", "-q", "-o", base], check=0, timeout=120)
    out = tmp_path / "res"
    p = start(["suite", "--tests", "latency,switch", "--loads", "none",
               "-T", "30", "--warmup", "0", "-q", "-o", out, "--gate",
               "--baseline", base])
    _first_run_child(p, out)
    stdout, err = stop(p, signal.SIGINT)
    assert p.returncode == 1, err
    idx = load_json_strict(out / "suite.json")
    assert idx["exit_status"] == 1
    assert idx["gate"]["verdict"] == "interrupted"
    assert idx["gate"]["file"] is None
    assert not (out / "gate.json").exists()
    assert "the release gate was not made" in stdout
    assert "gate: pass" not in stdout and "Exit status: 1 (" in stdout


# --- --test-args: what the suite sets itself is refused ------------------

MANAGED = [
    ("latency:--json /tmp/x", "--json"),
    ("latency:--json=/tmp/x", "--json"),
    ("latency:--js /tmp/x", "--json"),          # getopt abbreviation
    ("latency:-T 5", "-T/--duration"),
    ("latency:-qT5", "-T/--duration"),          # a cluster of flags
    ("latency:-p 200 --duration=5", "-T/--duration"),
    ("latency:--headline-fd 1", "--headline-fd"),
    ("latency:--warmup 0", "--warmup"),
    ("latency:--max-latency 10", "--max-latency"),
    ("switch:--load cpu", "--load"),
    ("handshake:--load-cmd true", "--load-cmd"),
    ("cruncher:--load-workers 2", "--load-workers"),
]


@pytest.mark.parametrize("targ,opt", MANAGED)
def test_suite_refuses_managed_test_args(tmp_path, targ, opt):
    out = tmp_path / "res"
    p = run(["suite", "--test-args", targ, "--out", out], check=1)
    err = p.stderr
    assert "--test-args" in err and targ in err, err
    assert "%s is set by the suite" % opt in err, err
    assert not out.exists()


def test_suite_test_args_values_are_not_options(tmp_path):
    """Values and options the tests own pass; a --loads error is then the
    first one reported."""
    for targ in ("latency:-p 200 -w abs", "latency:-c 0 -l 0",
                 "latency:--cpus=0 -h", "switch:--ipc pipe -p 500",
                 "latency:-P 80 --policy fifo", "handshake:--process"):
        p = run(["suite", "--test-args", targ, "--loads", "bogus"], check=1)
        assert "--test-args" not in p.stderr, (targ, p.stderr)
        assert "--loads" in p.stderr


def test_suite_refuses_unknown_test_in_args(tmp_path):
    p = run(["suite", "--test-args", "foo:-p 200"], check=1)
    assert "'foo' is not a suite test" in p.stderr
    assert "latency, switch, handshake, cruncher, noise" in p.stderr
    conf = tmp_path / "s.conf"
    conf.write_text("[suite]\nduration = 1\n\n[foo]\nargs = -p 200\n")
    p = run(["suite", "-f", conf], check=1)
    assert "'foo' is not a suite test" in p.stderr
    assert "s.conf line 5" in p.stderr and "[foo]" in p.stderr
    conf.write_text("[latency]\nargs = -p 200 --json /tmp/x\n")
    p = run(["suite", "-f", conf], check=1)
    assert "--json is set by the suite" in p.stderr
    assert "s.conf line 2" in p.stderr


# --- privileges: named once, before anything starts ----------------------

def _nobody(args, cwd, timeout=120):
    from conftest import nobody_cmd
    return subprocess.run(
        nobody_cmd("--bounding-set=-all") + [str(a) for a in args], capture_output=True, text=True,
        timeout=timeout, cwd=cwd)


@needs_root
def test_suite_unprivileged_names_the_fix():
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) not installed")
    d = tempfile.mkdtemp(prefix="rtlat-suite-nobody-")
    try:
        os.chmod(d, 0o777)
        out = os.path.join(d, "res")
        p = _nobody(["suite", "-T", "1", "--tests", "latency", "--loads",
                     "none", "--out", out], d)
        assert p.returncode == 1, p.stderr
        for fix in ("root", "CAP_SYS_NICE", "RLIMIT_RTPRIO"):
            assert fix in p.stderr, p.stderr
        assert "run 1 of" not in p.stderr       # failed before any run
        assert not os.path.exists(out)
        # the test arguments choose the scheduling: each run fails with
        # its own error, named in the progress, the notes and suite.json
        p = _nobody(["suite", "-T", "1", "--warmup", "0", "--tests",
                     "latency", "--loads", "none", "--out", out,
                     "--test-args", "latency:-P 1"], d)
        assert p.returncode == 1, p.stderr
        assert "run 1 of 1 (latency without load) failed: not permitted" \
            in p.stderr, p.stderr
        assert "RLIMIT_RTPRIO" in p.stdout.split("Notes:\n", 1)[1]
        [r] = load_json_strict(os.path.join(out, "suite.json"))["runs"]
        assert r["status"] == "error" and "CAP_SYS_NICE" in r["error"]
    finally:
        shutil.rmtree(d)


# --- runs stopped from outside the suite are failed runs ------------------

@needs_root
@pytest.mark.parametrize("sig,text", [
    (signal.SIGTERM, "interrupted by signal 15 (Terminated)"),
    (signal.SIGINT, "interrupted by signal 2 (Interrupt)"),
    (signal.SIGKILL, "killed by signal 9 (Killed)"),
])
def test_suite_run_signalled_from_outside_fails(tmp_path, sig, text):
    out = tmp_path / "res"
    p = start(["suite", "-T", "3", "--warmup", "0", "--tests", "latency",
               "--loads", "none,cpu", "--load-workers", "1", "-q",
               "--out", out])
    end = time.monotonic() + 30
    while not (out / "01-latency-none.json").exists() and \
            time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    [child] = children(p.pid)
    os.kill(child, sig)
    stdout, err = p.communicate(timeout=60)
    assert p.returncode == 1, err
    assert "run 1 of 2 (latency without load) failed: " + text in err
    assert wait_session_empty(p.pid) == []
    idx = load_json_strict(out / "suite.json")
    assert idx["status"] == "complete" and idx["exit_status"] == 1
    r1, r2 = idx["runs"]
    assert r1["status"] == "error" and text in r1["error"]
    assert r1["signal"] == (9 if sig == signal.SIGKILL else None)
    assert "Killed by Killed" not in r1["error"]
    assert r2["status"] == "complete" and r2["error"] is None
    assert "(failed: " + text in stdout or "| failed: " + text in stdout
    assert "Exit status: 1 (a run failed)" in stdout


# --- memory: nothing leaks (AddressSanitizer build) -----------------------

ASAN = os.environ.get("RTLAT_ASAN")


@needs_root
@pytest.mark.skipif(not ASAN or not os.access(ASAN, os.X_OK),
                    reason="RTLAT_ASAN not set (make check builds it)")
def test_suite_no_leak_under_asan(tmp_path):
    conf = tmp_path / "s.conf"
    conf.write_text("[suite]\nload-workers = 1\nlabel = asan\n"
                    "[latency]\nargs = -p 200\n")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:exitcode=99",
               UBSAN_OPTIONS="halt_on_error=1:exitcode=98")
    for args in (["-f", conf, "-T", "1", "--warmup", "0", "--tests",
                  "latency", "--loads", "none,cpu", "--test-args",
                  "latency:-p 300", "--load-nice", "5", "-q",
                  "--out", tmp_path / "res"],
                 ["-f", conf, "--test-args", "foo:-p 1"]):
        p = subprocess.run([ASAN, "suite"] + [str(a) for a in args],
                           capture_output=True, text=True, timeout=120,
                           env=env)
        for w in ("LeakSanitizer", "AddressSanitizer", "runtime error:"):
            assert w not in p.stderr, p.stderr[-4000:]
        assert p.returncode in (0, 1), (p.returncode, p.stderr[-2000:])


# --- runs that would never end: stopped or hung ----------------------------

def _first_run_child(p, out, name="01-latency-none.json"):
    end = time.monotonic() + 30
    while not (out / name).exists() and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    [child] = children(p.pid)
    return child


@needs_root
def test_suite_stopped_run_is_killed_and_fails(tmp_path):
    """A run whose process is stopped (SIGSTOP) would never end: the suite
    notices it, kills it, records it as failed with the signal, and goes
    on with the next run."""
    out = tmp_path / "res"
    p = start(["suite", "-T", "2", "--warmup", "0", "--tests",
               "latency,cruncher", "--loads", "none", "-o", out])
    child = None
    try:
        child = _first_run_child(p, out)
        os.kill(child, signal.SIGSTOP)
        stdout, err = p.communicate(timeout=120)     # a hang detector
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            os.kill(child, signal.SIGKILL)
    text = "stopped by signal 19 (Stopped (signal)), not sent by the suite"
    assert p.returncode == 1, err
    assert "run 1 of 2 (latency without load) failed: " + text in err
    assert wait_session_empty(p.pid) == []
    idx = load_json_strict(out / "suite.json")
    assert idx["status"] == "complete" and idx["exit_status"] == 1
    r1, r2 = idx["runs"]
    assert r1["status"] == "error" and r1["error"].startswith(text + ": killed")
    assert r1["signal"] == 9
    assert r2["status"] == "complete" and r2["error"] is None
    assert "| failed: " + text in stdout


def _ptrace(req, pid):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                            ctypes.c_void_p]
    return libc.ptrace(req, pid, None, None)


# its one run held in a ptrace stop for 30 s: no load, no hog
@pytest.mark.measures
@needs_root
def test_suite_hung_run_is_killed_after_its_time(tmp_path):
    """A run that does not end and is not stopped either (here: its main
    thread held in a ptrace stop, as a debugger does) is killed once it has
    run 30 s past its warm-up and duration, and fails saying so."""
    PTRACE_SEIZE, PTRACE_INTERRUPT, WALL = 0x4206, 0x4207, 0x40000000
    out = tmp_path / "res"
    p = start(["suite", "-T", "1", "--warmup", "0", "--tests", "latency",
               "--loads", "none,cpu", "--load-workers", "1", "-o", out])
    child = None
    try:
        child = _first_run_child(p, out)
        if _ptrace(PTRACE_SEIZE, child) != 0:
            pytest.skip("ptrace not permitted")
        assert _ptrace(PTRACE_INTERRUPT, child) == 0
        os.waitpid(child, WALL)                 # in its ptrace stop
        end = time.monotonic() + 120            # a hang detector
        while p.poll() is None and time.monotonic() < end:
            # reap it for the suite once killed (we trace it)
            try:
                os.waitpid(child, os.WNOHANG | WALL)
            except ChildProcessError:
                pass
            time.sleep(0.1)
        stdout, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    text = "did not end in time (still running after 00:00:31; warm-up " \
        "and duration 00:00:01): killed by the suite"
    assert p.returncode == 1, err
    assert "run 1 of 2 (latency without load) failed: " + text in err
    assert wait_session_empty(p.pid) == []
    r1, r2 = load_json_strict(out / "suite.json")["runs"]
    assert r1["status"] == "error" and r1["error"].startswith(text)
    assert r2["status"] == "complete" and r2["error"] is None


@needs_root
def test_suite_stopped_run_and_its_stopped_load_cmd_are_killed(tmp_path):
    """The run and its --load-cmd guard both stopped: the guard cannot act
    on its parent-death signal, and the test cannot stop it. The suite (a
    child subreaper) kills and reaps all that is left, the command too."""
    from test_load import _procs_with, _wait_gone
    tag = "39.%d" % (os.getpid() % 1000)
    out = tmp_path / "res"
    p = start(["suite", "-T", "30", "--warmup", "0", "--tests", "latency",
               "--loads", "cmd", "--load-cmd", "sleep %s; true" % tag,
               "-o", out])
    child = None
    try:
        child = _first_run_child(p, out, "01-latency-cmd.json")
        [guard] = [pid for pid, st, c in session_procs(p.pid)
                   if c == "rtlat-load-cmd"]
        assert _procs_with("sleep\0" + tag)
        os.kill(guard, signal.SIGSTOP)
        os.kill(child, signal.SIGSTOP)
        stdout, err = p.communicate(timeout=120)     # a hang detector
        assert _wait_gone("sleep\0" + tag, timeout=5) == []
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            os.kill(child, signal.SIGKILL)
        for pid in _procs_with("sleep\0" + tag):
            os.kill(pid, signal.SIGKILL)
    assert p.returncode == 1, err
    assert "run 1 of 1 (latency with load (cmd)) failed: stopped by " \
        "signal 19" in err
    assert wait_session_empty(p.pid) == []
    notes = stdout.split("Notes:\n", 1)[1]
    assert "run 1 (01-latency-cmd): " in notes
    assert "it left behind killed by the suite" in notes


@needs_root
def test_full_disk_leaves_no_truncated_files(tmp_path):
    """On a full disk the system snapshot and report.txt are warned about
    or an error, never left as empty or truncated files (they were written
    in place, errors ignored: config.gz and sysinfo.txt of 0 bytes)."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    mount_tmpfs(mnt, "size=256k")
    try:
        (mnt / "o").mkdir()
        fill_fs(mnt / "fill")
        p = run(["suite", "--tests", "latency", "--loads", "none", "-T",
                 "0.5", "--warmup", "0.1s", "--out", mnt / "o"], timeout=120)
        assert p.returncode == 1, p.stderr
        assert "system snapshot: cannot write" in p.stderr
        assert "No space left on device" in p.stderr
        assert "report.txt: cannot write" in p.stderr
        system = mnt / "o" / "system"
        assert [f.name for f in system.iterdir()] == []
        assert not (mnt / "o" / "report.txt").exists()
        assert not [f for f in (mnt / "o").rglob("*.tmp")]
    finally:
        umount(mnt)


def _suite_with_hog(args, cpu, count):
    """A 3 s suite run without load (@args) while a SCHED_FIFO hog at the
    samplers' priority takes 20 ms of every 40 ms of @cpu, @count times,
    from 1 s on. Returns the suite's stdout (exit status 0 checked)."""
    from rt_helpers import stall
    p = start(["suite", "--loads", "none", "-T", "3", "--warmup", "200ms"] +
              args)
    time.sleep(1.0)
    hog = stall(cpu, 99, 20, 0, count=count, gap=0.02)
    stdout, stderr = p.communicate(timeout=120)
    hog.wait(timeout=60)
    assert p.returncode == 0, stderr
    return stdout


@needs_root
def test_report_says_how_it_measured_and_a_starved_cpu(tmp_path):
    """Under each row: period, scheduling, CPUs, samples and misses, the
    CPU of the max; a CPU starved by a SCHED_FIFO hog at the samplers'
    priority (20 ms of every 40 ms) shows in a per-CPU line and a note
    that the max is a starvation (it showed only with report --threads)."""
    from rt_helpers import need_cpus
    need_cpus(2)
    cpus = sorted(os.sched_getaffinity(0))
    out = tmp_path / "res"
    stdout = _suite_with_hog(["--tests", "latency", "--out", str(out)],
                             cpus[1], 50)
    lines = stdout.splitlines()
    [i] = [k for k, ln in enumerate(lines)
           if ln.startswith("LATENCY without load")]
    measured = lines[i + 3]
    assert measured.startswith("  measured: period 100 us, fifo 99, "
                               "CPUs %d-%d, latency: " % (cpus[0], cpus[1])) \
        or measured.startswith("  measured: period 100 us, fifo 99, "
                               "CPUs %d,%d, latency: " % (cpus[0], cpus[1])), \
        measured
    d = load_json_strict(next(out.glob("01-latency-none.json")))
    lat = d["summary"]["latency"]
    assert "%d samples + %d overruns" % (lat["samples"], lat["overruns"]) \
        in measured
    per = lines[i + 4]
    assert per.startswith("  per CPU (they differ beyond the noise): CPU "), \
        stdout
    note = [ln for ln in lines[i + 4:i + 7] if ln.startswith("  note: ")]
    assert note and "the max is that of a starved task, not a latency" \
        in note[0], stdout
    assert "|" not in measured + per      # rows of pasted tables only


# LAVA's test-case signal as LAVA reads it from the console: an id of
# [A-Za-z0-9_.-], a result, and optionally a measurement and its units.
LAVA_SIGNAL = re.compile(
    r"^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(?P<id>[A-Za-z0-9_.-]+) "
    r"RESULT=(?P<result>pass|fail|skip|unknown)"
    r"(?: MEASUREMENT=(?P<m>-?[0-9]+(?:\.[0-9]+)?) UNITS=(?P<u>[A-Za-z]+))?>$")


def _lava_cases(stdout):
    cases = {}
    for ln in stdout.splitlines():
        if ln.startswith("<LAVA_SIGNAL"):
            m = LAVA_SIGNAL.match(ln)
            assert m, ln
            cases[m["id"]] = m
    return cases


@needs_root
def test_lava_and_junit(tmp_path):
    """--lava: one LAVA test case per figure that matters, from the run's
    own figures, the max failing over --max-latency; --junit: the same
    cases as JUnit XML (read by junitparser)."""
    out, junit = tmp_path / "res", tmp_path / "j.xml"
    env = dict(os.environ, PATH="/usr/bin:/bin")     # no lava-test-case
    p = run(["suite", "--tests", "latency", "--loads", "none", "-T", "1",
             "--warmup", "200ms", "--out", out, "--lava", "--junit", junit,
             "--max-latency", "0.001"], timeout=120, env=env)
    assert p.returncode == 2, p.stderr     # a max above 1 ns: exceeded
    cases = _lava_cases(p.stdout)
    d = load_json_strict(out / "01-latency-none.json")
    lat = d["summary"]["latency"]
    assert cases["latency-none"]["result"] == "fail"
    mx = cases["latency-none-latency-max"]
    assert mx["result"] == "fail" and mx["u"] == "us"
    assert mx["m"] == us3(lat["max_ns"])
    assert cases["latency-none-latency-min"]["m"] == us3(lat["min_ns"])
    assert cases["latency-none-latency-avg"]["result"] == "pass"
    ov = cases["latency-none-latency-overruns"]
    assert ov["m"] == str(lat["overruns"]) and ov["u"] == "count"
    cpus = [t["cpu"] for t in d["threads"]]
    if len(cpus) > 1:
        for c in cpus:
            cm = cases["latency-none-latency-cpu%d-max" % c]
            assert cm["u"] == "us"
            # over --max-latency: fails as the run's max does
            assert cm["result"] == "fail", cm.string
    # JUnit: the same cases, the same failures
    import junitparser
    xml = junitparser.JUnitXml.fromfile(str(junit))
    got = {}
    for suite in xml:
        for case in suite:
            got[case.name] = case
    assert set(got) == set(cases)
    failed = {n for n, c in got.items()
              if any(isinstance(r, junitparser.Failure) for r in c.result)}
    assert failed == {i for i, m in cases.items() if m["result"] == "fail"}
    assert "measurement %s us" % us3(lat["max_ns"]) in \
        got["latency-none-latency-max"].system_out


@needs_root
def test_lava_through_lava_test_case(tmp_path):
    """Inside a LAVA test shell (lava-test-case on PATH) each case goes
    through it, with --result, --measurement and --units."""
    env, log = fake_lava_test_case(tmp_path)
    p = run(["suite", "--tests", "latency", "--loads", "none", "-T", "0.5",
             "--warmup", "100ms", "--out", tmp_path / "res", "--lava"],
            timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert "<LAVA_SIGNAL" not in p.stdout
    calls = log.read_text().splitlines()
    assert "latency-none --result pass" in calls
    assert any(c.startswith("latency-none-latency-max --result pass "
                            "--measurement ") and c.endswith(" --units us")
               for c in calls), calls


@needs_root
def test_shipped_lava_definition_runs(tmp_path):
    """contrib/lava/rtlat-suite.yaml is a valid LAVA test definition whose
    steps, run as LAVA runs them (one shell script, the params exported,
    lava-test-case on PATH), run the suite and record its test cases."""
    yaml = pytest.importorskip("yaml")
    from conftest import RTLAT, ROOT
    d = yaml.safe_load((ROOT / "contrib" / "lava" / "rtlat-suite.yaml")
                       .read_text())
    assert d["metadata"]["format"] == "Lava-Test Test Definition 1.0"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls"
    helper = bindir / "lava-test-case"
    helper.write_text("#!/bin/sh\necho \"$*\" >> %s\n" % log)
    helper.chmod(0o755)
    params = dict(d["params"], RTLAT=RTLAT, DURATION="0.3s",
                  LABEL="lava board")
    script = "".join("%s='%s'\n" % kv for kv in params.items()) + \
        "\n".join(d["run"]["steps"]) + "\n"
    p = subprocess.run(["sh", "-c", script], capture_output=True, text=True,
                       timeout=300, cwd=tmp_path,
                       env=dict(os.environ,
                                PATH="%s:/usr/bin:/bin" % bindir))
    calls = log.read_text().splitlines()
    assert "rtlat-suite-exit-status --result pass --measurement 0 " \
        "--units status" in calls, (p.stdout[-2000:], p.stderr[-2000:])
    for t in TESTS:
        assert "%s-none --result pass" % t in calls, calls
    assert (tmp_path / "rtlat-junit.xml").exists()
    assert list((tmp_path / "rtlat-results").glob("*/report.txt"))


@needs_root
@pytest.mark.parametrize("size", ["16k", "24k", "32k", "40k"])
def test_disk_filling_during_the_snapshot_is_an_error_not_a_crash(tmp_path,
                                                                   size):
    """A disk that fills while the system snapshot is written (a 16 KiB
    fwrite of config.gz into a full tmpfs) is an error, exit 1: the stream's
    write function returned -1, and glibc then overflowed its buffer
    (SIGSEGV, exit 139, no report)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    mount_tmpfs(mnt, "size=" + size)
    try:
        p = run(["suite", "-T", "0.3", "--warmup", "0.1s", "--tests",
                 "latency", "--loads", "none", "-q", "--out", mnt / "s"],
                timeout=120)
        assert p.returncode in (0, 1), (p.returncode, p.stderr)
        assert not [f for f in mnt.rglob("*.tmp")]
    finally:
        umount(mnt)


@needs_root
def test_report_names_a_starved_event_thread(tmp_path):
    """switch: the periods the event thread missed are not in the lost
    count; a starved event thread (a SCHED_FIFO hog at its priority on its
    CPU) is said under the row ("the event thread ... missed N periods")
    with a note, where the row showed 0.0 % and no note."""
    from rt_helpers import need_cpus
    need_cpus(2)
    cpu = sorted(os.sched_getaffinity(0))[1]
    stdout = _suite_with_hog(["--tests", "switch", "--out",
                              str(tmp_path / "res"), "--test-args",
                              "switch:-c %d" % cpu], cpu, 25)
    d = load_json_strict(next((tmp_path / "res").glob("01-switch-none.json")))
    td = d["test_data"]
    assert td["event_missed_periods"] > 0
    measured = [ln for ln in stdout.splitlines()
                if ln.startswith("  measured: ")][0]
    assert "the event thread posted %d events and missed %d periods" % (
        td["events"], td["event_missed_periods"]) in measured, stdout
    share = 100.0 * td["event_missed_periods"] / (
        td["events"] + td["event_missed_periods"])
    if share >= 1.0:
        assert "  note: the event thread missed %.1f %% of its periods" \
            % share in stdout, stdout


@needs_root
def test_suite_db_counts_irq_series_and_results(tmp_path):
    """irq's result holds three series (t1-t0, t2-t1, t2-t0), each a run of
    the history: the note says so, instead of "3 runs" after a suite of
    one run."""
    p = run(["suite", "--tests", "irq", "--irq-source", "net", "--loads",
             "none", "-T", "1", "--out", tmp_path / "o", "--db",
             tmp_path / "h.db"], timeout=120)
    assert p.returncode == 0, p.stderr
    assert "3 runs of the suite stored, 0 already there (a history run per" \
        " measured series of the 1 result file)" in p.stderr, p.stderr
    rows = run(["db", "list", "--db", tmp_path / "h.db"],
               check=0).stdout.splitlines()[1:]
    assert len(rows) == 3


@needs_root
def test_suite_db_stores_its_runs(tmp_path):
    """--db stores the suite's runs in the history when it ends (without
    --gate too), labelled as the suite; a second suite adds its own; --url
    reads the same history (a PostgreSQL URL) where that is one."""
    db = tmp_path / "lab.db"
    for k in (1, 2):
        out = tmp_path / ("s%d" % k)
        p = run(["suite", "--tests", "latency", "--loads", "none", "-T", "1",
                 "--label", "board-%d" % k, "--out", out, "--db", db],
                timeout=120)
        assert p.returncode == 0, p.stderr
        assert "1 run of the suite stored, 0 already there (a history run" \
            " per measured series of the 1 result file)" in p.stderr
        rows = run(["db", "list", "--db", db], check=0).stdout.splitlines()[1:]
        assert len(rows) == k
        assert [r.split("|")[5].strip() for r in rows] == \
            ["board-%d" % i for i in range(1, k + 1)]
    # the runs are the result files' own
    stored = run(["report", "--csv", "--db", db, "--label", "board-1"],
                 check=0).stdout
    direct = run(["report", "--csv", "--set-label", "board-1",
                  tmp_path / "s1" / "01-latency-none.json"], check=0).stdout
    strip = lambda t: [l.rsplit(",", 4)[0] for l in t.splitlines()]  # noqa: E731
    assert strip(stored)[1:] == strip(direct)[1:]


@needs_root
@pytest.mark.alone
def test_suite_no_rt_throttling_restores(tmp_path):
    """rtlat suite --no-rt-throttling: sched_rt_runtime_us is -1 while
    the suite runs and as it was after it, also after SIGKILL (the
    guard)."""
    path = "/proc/sys/kernel/sched_rt_runtime_us"

    def get():
        with open(path) as f:
            return int(f.read())

    def put(v):
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, b"%d\n" % v)
        finally:
            os.close(fd)
    saved = get()
    try:
        if saved < 0:
            put(950000)
        before = get()
        for sig in (None, 9):
            q = subprocess.Popen(
                [RTLAT, "suite", "--tests", "noise", "--loads", "none",
                 "-T", "30" if sig else "1", "--warmup", "0", "-q",
                 "--no-rt-throttling", "--out", str(tmp_path / str(sig))],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)
            deadline = time.monotonic() + 30
            while get() != -1 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert get() == -1
            if sig:     # the suite and its run, as a job's time-out does
                os.killpg(q.pid, sig)
            q.wait(timeout=120)
            deadline = time.monotonic() + 10
            while get() != before and time.monotonic() < deadline:
                time.sleep(0.05)
            assert get() == before, sig
    finally:
        put(saved)
