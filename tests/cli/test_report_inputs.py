# SPDX-License-Identifier: GPL-2.0-or-later
"""What rtlat report, compare and db read, and how: suite directories (each
run once, with its label and load), the load of result files, unit
statements in table headings, directory walks (symbolic link loops, depth,
FIFOs), options after the operands, duplicate detection by run identity,
date filters, one-sided comparisons, read-only database commands, and the
marks of runs that did not complete."""
import csv
import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess

import pytest

from conftest import FIXTURES, ROOT, RTLAT, needs_root, run, sqlite_only

OWN = ROOT / "tests" / "fixtures" / "report"
RTLAT_JSON = OWN / "rtlat-2cpu.json"


def csv_rows(args, check=0, env=None):
    p = run(["report", "--csv"] + [str(a) for a in args], check=check, env=env)
    return list(csv.DictReader(io.StringIO(p.stdout))), p


def result(tmp_path, name, **changes):
    """A copy of the 2-CPU result fixture with top-level keys changed."""
    d = json.loads(RTLAT_JSON.read_text())
    d.update(changes)
    f = tmp_path / name
    f.write_text(json.dumps(d))
    return f


def us3(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def make_suite(d, label="Ocotea iPipe 1.0-01", extra_runs=()):
    """A suite directory as rtlat suite leaves it (docs/suite.md): two runs
    (none, cpu), their logs, report.txt in the suite's layout, system/."""
    d.mkdir()
    src = json.loads(RTLAT_JSON.read_text())
    runs, table = [], []
    for i, (load, loads) in enumerate((("none", []),
                                       ("cpu", [{"name": "cpu", "workers": 2}])),
                                      start=1):
        r = dict(src, loads=loads,
                 start_time="2026-11-29T20:3%d:00.000Z" % i)
        s = r["summary"]["latency"] = dict(src["summary"]["latency"])
        s["max_ns"] += i * 1000         # runs differ
        base = "%02d-latency-%s" % (i, load)
        (d / (base + ".json")).write_text(json.dumps(r))
        shutil.copy(OWN / "rtlat-2cpu.txt", d / (base + ".log"))
        runs.append({"index": i, "test": "latency", "load": load, "ran": True,
                     "file": base + ".json", "log": base + ".log",
                     "status": "complete"})
        title = "without load" if load == "none" else "with load (%s)" % load
        table += ["%s %s, latencies in us, test-time hh:mm:ss:" % ("LATENCY", title),
                  "%-20s|-----lat min|-----lat avg|-----lat max|-overrun|-------p99.9|---test-time" % "",
                  "%-20s|%12s|%12.3f|%12s|%8d|%12s|    00:00:03" % (
                      label, us3(s["min_ns"]), s["avg_ns"] / 1000, us3(s["max_ns"]),
                      s["overruns"], us3(s["percentiles_ns"]["p99.9"])),
                  ""]
    runs += list(extra_runs)
    (d / "suite.json").write_text(json.dumps({
        "schema": "rtlat-suite", "schema_version": 1, "label": label,
        "status": "complete", "runs": runs}))
    (d / "report.txt").write_text(
        "rtlat suite report: %s\n=====\nBoard      : n/a\nLinux      : 6.18\n\n" % label
        + "\n".join(table) + "\nExit status: 0 (ok)\n")
    (d / "system").mkdir()
    (d / "system" / "cmdline").write_text("quiet\n")
    return d


# ---- suite directories (issue: runs counted 2-3 times) ----

def test_suite_directory_each_run_once(tmp_path):
    d = make_suite(tmp_path / "suite")
    rs, p = csv_rows([d])
    assert len(rs) == 2, p.stdout
    assert [r["load"] for r in rs] == ["none", "cpu"]
    assert {r["label"] for r in rs} == {"Ocotea iPipe 1.0-01"}
    for r, i in zip(rs, (1, 2)):
        src = json.loads((d / r["file"].split("/")[-1]).read_text())
        assert int(r["max_ns"]) == src["summary"]["latency"]["max_ns"]
        assert r["file"].endswith("%02d-latency-%s.json" % (i, r["load"]))
    # no table "load not recorded", one table per load
    text = run(["report", d], check=0).stdout
    assert "LATENCY without load (us):" in text
    assert "LATENCY with load cpu (us):" in text
    assert "not recorded" not in text
    # suite.json given by name stands for its directory
    rs2, _ = csv_rows([d / "suite.json"])
    assert rs2 == rs


def test_suite_report_txt_in_us(tmp_path):
    """report.txt says "latencies in us": read as us, not ns."""
    d = make_suite(tmp_path / "suite")
    rs, p = csv_rows([d / "report.txt"])
    assert len(rs) == 2, p.stderr
    src = json.loads((d / "01-latency-none.json").read_text())["summary"]["latency"]
    r = rs[0]
    assert (r["load"], r["label"]) == ("none", "Ocotea iPipe 1.0-01")
    assert int(r["min_ns"]) == src["min_ns"]
    assert int(r["max_ns"]) == src["max_ns"]
    assert abs(float(r["avg_ns"]) - src["avg_ns"]) <= 0.5
    assert int(r["p99.9_ns"]) == src["percentiles_ns"]["p99.9"]
    assert rs[1]["load"] == "cpu"


def test_suite_runs_not_run_or_missing(tmp_path):
    d = make_suite(tmp_path / "s1", extra_runs=[
        {"index": 3, "test": "latency", "load": "hell", "ran": False,
         "file": None, "status": "not run"}])
    rs, p = csv_rows([d])
    assert len(rs) == 2 and "run 3 has no result file (not run)" in p.stderr
    # a complete run whose result file is gone: exit 1, the others read
    (d / "02-latency-cpu.json").unlink()
    rs, p = csv_rows([d], check=1)
    assert len(rs) == 1
    assert "02-latency-cpu.json: missing" in p.stderr
    # a file outside the suite directory is not followed
    idx = json.loads((d / "suite.json").read_text())
    idx["runs"][0]["file"] = "../elsewhere.json"
    (d / "suite.json").write_text(json.dumps(idx))
    _, p = csv_rows([d], check=1)
    assert "must name a file in the suite directory" in p.stderr


def test_suite_load_from_index(tmp_path):
    """Result files without "loads" (older rtlat) take the load of their
    run entry in suite.json."""
    d = make_suite(tmp_path / "suite")
    for f in d.glob("0*.json"):
        r = json.loads(f.read_text())
        del r["loads"]
        f.write_text(json.dumps(r))
    rs, _ = csv_rows([d])
    assert [r["load"] for r in rs] == ["none", "cpu"]


def test_suite_report_interrupted_row(tmp_path):
    """rtlat suite writes "(interrupted)" after the figures of such a run."""
    f = tmp_path / "report.txt"
    f.write_text("LATENCY with load (hell), latencies in us, test-time hh:mm:ss:\n"
                 "     |-----lat min|-----lat avg|-----lat max|-overrun|-------p99.9|---test-time\n"
                 "vm   |       9.479|      25.259|    1358.752|      53|     107.007|    00:00:01  (interrupted)\n"
                 "vm2  | failed: the run died (see 02-latency-hell.log)\n")
    rs, p = csv_rows([f])
    assert len(rs) == 1
    assert (rs[0]["status"], rs[0]["load"], rs[0]["max_ns"]) == ("interrupted", "hell", "1358752")


def test_suite_db_and_compare(tmp_path):
    d1 = make_suite(tmp_path / "su1")
    d2 = make_suite(tmp_path / "su2", label="other board")
    db = tmp_path / "h.db"
    p = run(["db", "add", "--db", db, d1], check=0)
    assert len(p.stdout.splitlines()) == 2
    assert "2 runs added" in p.stderr
    lst = run(["db", "list", "--db", db], check=0).stdout
    assert "latencies in us" not in lst and "(cpu)" not in lst
    # compare counts one run per side and table, noise not from "runs"
    p = run(["compare", "--csv", d1, d2], check=0)
    cmp = list(csv.DictReader(io.StringIO(p.stdout)))
    assert {r["table"] for r in cmp} == {"LATENCY without load", "LATENCY with load cpu"}
    for r in cmp:
        assert (r["a"], r["b"]) == ("Ocotea iPipe 1.0-01", "other board")
        assert r["noise_from"] != "runs"


@needs_root
def test_real_suite_directory(tmp_path):
    """A directory written by rtlat suite itself."""
    d = tmp_path / "x"
    run(["suite", "-T", "1", "--tests", "latency", "--loads", "none,cpu",
         "--out", d, "-q"], check=0,
        timeout=120)
    index = json.loads((d / "suite.json").read_text())
    rs, p = csv_rows([d])
    assert len(rs) == 2, (p.stdout, p.stderr)
    assert [r["load"] for r in rs] == ["none", "cpu"]
    assert {r["label"] for r in rs} == {index["label"]}
    for r, e in zip(rs, index["runs"]):
        s = e["summary"]["latency"]
        assert int(r["min_ns"]) == s["min_ns"] and int(r["max_ns"]) == s["max_ns"]
        assert int(r["samples"]) == s["samples"]
    # report.txt: the same figures, read in us
    txt, p = csv_rows([d / "report.txt"])
    assert [(r["load"], r["min_ns"], r["max_ns"]) for r in txt] == \
        [(r["load"], r["min_ns"], r["max_ns"]) for r in rs], p.stderr
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, d], check=0)
    assert "runs: 2" in run(["db", "info", "--db", db], check=0).stdout
    # the result files again, by another path: already there
    p = run(["db", "add", "--db", db] + sorted(d.glob("0*.json")), check=0)
    assert "0 runs added, 2 already there" in p.stderr


# ---- the load of a result file ----

@pytest.mark.parametrize("loads,expect", [
    ([], "none"),
    ([{"name": "cpu"}], "cpu"),
    ([{"name": "cpu"}, {"name": "io"}, {"name": "cmd"}, {"name": "cmd"}], "cpu+io+cmd"),
    ([{"name": n} for n in ("cpu", "cache", "fork", "io", "net", "msg")], "hell"),
])
def test_result_loads(tmp_path, loads, expect):
    f = result(tmp_path, "r.json", loads=loads)
    rs, _ = csv_rows([f])
    assert rs[0]["load"] == expect


def test_result_load_key_and_label(tmp_path):
    f = result(tmp_path, "r.json", loads=[{"name": "cpu"}], load="hell",
               label="Ocotea")
    rs, _ = csv_rows([f])
    assert (rs[0]["load"], rs[0]["label"]) == ("hell", "Ocotea")
    # loaded and unloaded runs are separate tables
    a = result(tmp_path, "a.json", loads=[])
    b = result(tmp_path, "b.json", loads=[{"name": "cpu"}])
    out = run(["report", a, b], check=0).stdout
    assert "LATENCY without load (us):" in out and "LATENCY with load cpu (us):" in out


# ---- directory walks ----

def test_symlink_loop_read_once(tmp_path):
    d = tmp_path / "d"
    (d / "a" / "b").mkdir(parents=True)
    shutil.copy(RTLAT_JSON, d / "r.json")
    os.symlink(".", d / "self")
    os.symlink("../..", d / "a" / "b" / "up")
    os.symlink("r.json", d / "alias.json")
    rs, p = csv_rows([d])
    assert len(rs) == 1, p.stdout
    assert "self: skipped (the same directory" in p.stderr
    # alias.json sorts first: r.json is the file read twice
    assert "r.json: skipped (the same file as %s" % (d / "alias.json") in p.stderr


def test_deep_directory_is_read(tmp_path):
    deep = tmp_path / "d"
    for i in range(12):
        deep = deep / ("l%d" % i)
    deep.mkdir(parents=True)
    shutil.copy(RTLAT_JSON, deep / "r.json")
    rs, _ = csv_rows([tmp_path / "d"])
    assert len(rs) == 1 and rs[0]["file"].endswith("l11/r.json")


def test_unreadable_entry_fails(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    shutil.copy(RTLAT_JSON, d / "r.json")
    os.symlink("nowhere.json", d / "dangling.json")
    rs, p = csv_rows([d], check=1)
    assert len(rs) == 1
    assert "dangling.json: cannot read: a symbolic link to a file that does not exist" in p.stderr


def test_fifo_is_not_waited_for(tmp_path):
    f = tmp_path / "fifo"
    os.mkfifo(f)
    p = run(["report", f], check=1, timeout=10)
    assert "without a writer" in p.stderr
    d = tmp_path / "d"
    d.mkdir()
    os.mkfifo(d / "fifo")
    shutil.copy(RTLAT_JSON, d / "r.json")
    rs, p = csv_rows([d], check=0)
    assert len(rs) == 1 and "fifo: skipped (a FIFO" in p.stderr
    p = run(["report", "/dev/null"], check=1, timeout=10)
    assert "a character device" in p.stderr
    # a pipe with a writer is read
    p = subprocess.run([RTLAT, "report", "--csv", "/dev/stdin"],
                       input=(OWN / "rtlat-2cpu.txt").read_text(),
                       capture_output=True, text=True, timeout=10)
    assert p.returncode == 0 and "rtlat (text output)" in p.stdout


def test_same_file_twice(tmp_path):
    rs, p = csv_rows([RTLAT_JSON, OWN / ".." / "report" / RTLAT_JSON.name])
    assert len(rs) == 1 and "read before" in p.stderr


# ---- options after the operands ----

@sqlite_only
def test_options_after_operands(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"))
    db = tmp_path / "x.db"
    p = run(["db", "add", RTLAT_JSON, "--db", db], check=0, env=env)
    assert "x.db: 1 run added" in p.stderr
    assert not (tmp_path / "xdg").exists()
    assert "runs: 1" in run(["db", "info", "--db", db], check=0).stdout
    assert "runs: 1" in run(["db", "--db", db, "info"], check=0).stdout
    # report FILE --csv, compare A B --markdown
    out = run(["report", RTLAT_JSON, "--csv"], check=0).stdout
    assert out.startswith("test,series,load,label")
    a = result(tmp_path, "a.json")
    b = result(tmp_path, "b.json", start_time="2026-11-29T20:40:00.000Z")
    out = run(["compare", a, b, "--markdown"], check=0).stdout
    assert out.startswith("### LATENCY")
    # a bad option after the files: refused before anything is done
    db2 = tmp_path / "y.db"
    p = run(["db", "add", RTLAT_JSON, "--bogus", "--db", db2], check=1, env=env)
    assert "unknown option '--bogus'" in p.stderr
    assert not db2.exists() and not (tmp_path / "xdg").exists()
    # inputs that all fail: no database is made
    p = run(["db", "add", tmp_path / "missing.json", "--db", db2], check=1, env=env)
    assert "missing.json" in p.stderr and not db2.exists()
    # "--" ends the options: a file named like an option
    odd = tmp_path / "--csv"
    shutil.copy(RTLAT_JSON, odd)
    p = run(["report", "--markdown", "--", odd.name], check=0, cwd=tmp_path)
    assert p.stdout.startswith("### LATENCY")


def test_compare_operand_errors_are_clear(tmp_path):
    a = result(tmp_path, "a.json")
    p = run(["compare", a, a, a], check=1)
    assert "three or more files" in p.stderr and "--" not in p.stderr.split("'")[1]


@needs_root
def test_compare_missing_inputs_stop_before_any_output(tmp_path):
    """compare --db FILE A B with A and B not there: their errors, exit 1,
    and nothing compared (not the history against itself, which each side
    alone would be); so for one missing side, and beside selectors."""
    res, db = tmp_path / "r.json", tmp_path / "h.db"
    run(["latency", "-T", "1", "--warmup", "0", "--json", res], check=0)
    run(["db", "add", res, "--db", db], check=0)
    # the history alone compares (the run against itself): there is output
    assert run(["compare", "--db", db, res, res], check=0).stdout
    a, b = tmp_path / "nonexist1", tmp_path / "nonexist2"
    for args in ([a, b], [res, b], [a, res], [a],
                 [a, "label=*", "label=*"]):
        for fmt in ([], ["--csv"], ["--markdown"]):
            p = run(["compare", "--db", db] + fmt + args, check=1)
            assert p.stdout == "", (args, fmt)
            for x in (a, b):
                assert (("%s: No such file or directory" % x in p.stderr)
                        == (x in args)), (args, p.stderr)


# ---- duplicates by run identity ----

def test_db_dedup_by_identity(tmp_path):
    db = tmp_path / "h.db"
    copy = tmp_path / "copy-of-run.json"
    shutil.copy(RTLAT_JSON, copy)
    link = tmp_path / "link.json"
    os.symlink(RTLAT_JSON, link)
    sdir = tmp_path / "suite"
    sdir.mkdir()
    shutil.copy(RTLAT_JSON, sdir / "01-latency-none.json")
    (sdir / "suite.json").write_text(json.dumps({
        "schema": "rtlat-suite", "label": "board X",
        "runs": [{"index": 1, "file": "01-latency-none.json", "status": "complete"}]}))
    run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    for path in (copy, link, sdir):
        p = run(["db", "add", "--db", db, path], check=0)
        assert "0 runs added, 1 already there" in p.stderr, (path, p.stderr)
    p = run(["db", "add", "--db", db, "--set-label", "renamed", copy], check=0)
    assert "already stored as run 1" in p.stderr
    assert "runs: 1" in run(["db", "info", "--db", db], check=0).stdout
    # another run (another start time) is stored
    other = result(tmp_path, "other.json", start_time="2026-11-29T20:50:00.000Z")
    assert "1 run added" in run(["db", "add", "--db", db, other], check=0).stderr
    # rows of a summary table are told apart by their label
    seed = FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"
    n = len(csv_rows([seed])[0])
    assert "%d runs added" % n in run(["db", "add", "--db", db, seed], check=0).stderr


@sqlite_only
def test_db_migrates_version_2_duplicates(tmp_path):
    """Version 2 hashed the label: copies were stored twice. Version 3
    rehashes by identity and names the duplicates; they are not deleted."""
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    con = sqlite3.connect(db)
    con.execute("DROP INDEX runs_content_hash")     # as version 2 had it
    cols = [r[1] for r in con.execute("PRAGMA table_info(runs)") if r[1] != "id"]
    con.execute("INSERT INTO runs (%s) SELECT %s FROM runs WHERE id = 1" %
                (", ".join(cols), ", ".join(cols)))
    con.execute("UPDATE runs SET label = 'copy-of-run', file = '/x/copy-of-run.json',"
                " content_hash = 'old' WHERE id = 2")
    con.execute("INSERT INTO series SELECT 2, thread, cpu, samples, min_ns, avg_ns,"
                " max_ns, stddev_ns, misses, p50_ns, p90_ns, p99_ns, p99_9_ns,"
                " p99_99_ns, p99_999_ns, p99_9999_ns, hist_layout, hist_lo_ns,"
                " hist_width_ns, hist_nbuckets, hist_quantized, hist_abs_folded,"
                " hist_underflow, hist_overflow, pct_lower_bounds, hist_buckets"
                " FROM series WHERE run_id = 1")
    con.execute("INSERT INTO buckets SELECT 2, thread, lo_ns, hi_ns, count"
                " FROM buckets WHERE run_id = 1")
    con.execute("INSERT INTO intervals SELECT 2, thread, idx, start_ns, len_ns,"
                " samples, min_ns, avg_ns, max_ns, misses FROM intervals WHERE run_id = 1")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    p = run(["db", "info", "--db", db], check=0)
    assert "migrated from version 2 to 9" in p.stderr
    assert "1 stored run is the same as an earlier one: 2 (as 1)" in p.stderr
    assert "runs: 2" in p.stdout
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 9
    assert con.execute("SELECT id FROM runs WHERE content_hash IS NULL").fetchall() == [(2,)]
    con.close()
    p = run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    assert "0 runs added, 1 already there" in p.stderr


# ---- dates, read-only database commands, option values ----

@pytest.mark.parametrize("opt,value", [("--since", "2026-13-45"), ("--until", "2026-02-30"),
                                       ("--since", "2026-11-29T24:00"), ("--since", "2026-1")])
def test_invalid_dates_refused(tmp_path, opt, value):
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    p = run(["db", "list", "--db", db, opt, value], check=1)
    assert p.stdout == ""
    assert "invalid value '%s' for %s" % (value, opt) in p.stderr
    p = run(["compare", "--db", db, "since=%s" % value, "label=x"], check=1)
    assert "bad selector date" in p.stderr


def test_valid_dates(tmp_path):
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    for since in ("2026", "2026-11", "2026-11-29", "2026-11-29 20:37", "2024-02-29"):
        lst = run(["db", "list", "--db", db, "--since", since], check=0).stdout
        assert len(lst.splitlines()) == 2, since
    lst = run(["db", "list", "--db", db, "--since", "2026-11-29T20:38"], check=0).stdout
    assert len(lst.splitlines()) == 1


@sqlite_only
@pytest.mark.parametrize("cmd", [["db", "info"], ["db", "list"], ["report"],
                                 ["db", "remove", "1"]])
def test_read_only_commands_leave_an_empty_file(tmp_path, cmd):
    f = tmp_path / "empty.db"
    f.write_bytes(b"")
    p = run(cmd + ["--db", f], check=1)
    assert "an empty file, not a history database" in p.stderr
    assert f.stat().st_size == 0
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    p = run(cmd + ["--db", other], check=1)
    assert "not an rtlat history" in p.stderr
    assert other.read_bytes() == before
    # db add may make a database of an empty file, not of another one's
    run(["db", "add", "--db", f, RTLAT_JSON], check=0)
    assert "runs: 1" in run(["db", "info", "--db", f], check=0).stdout
    p = run(["db", "add", "--db", other, RTLAT_JSON], check=1)
    assert "not an rtlat history" in p.stderr
    assert other.read_bytes() == before


@pytest.mark.parametrize("opt,value", [("--set-test", ""), ("--set-test", "two words"),
                                       ("--set-label", ""), ("--set-load", ""),
                                       ("--set-load", "a|b")])
def test_empty_overrides_refused(opt, value):
    p = run(["report", opt, value, RTLAT_JSON], check=1)
    assert "invalid value '%s' for %s" % (value, opt) in p.stderr
    assert p.stdout == ""


# ---- compare: a metric one side lacks ----

def test_compare_run_without_samples_is_no_data(tmp_path):
    """A run with 0 samples (its 5 overruns are periods missed before it
    was stopped) is no side to score: no metric is compared, not even the
    overruns (issue 12: "overrun 93961 | 0 | -100.0 % | beyond noise")."""
    src = json.loads(RTLAT_JSON.read_text())
    empty = dict(src, threads=[], start_time="2026-11-29T21:00:00.000Z")
    empty["summary"] = {"latency": {"samples": 0, "overruns": 5, "min_ns": None,
                                    "avg_ns": None, "max_ns": None,
                                    "percentiles_ns": {}}}
    a = tmp_path / "empty.json"
    a.write_text(json.dumps(empty))
    out = run(["compare", a, RTLAT_JSON], check=0).stdout
    assert out.splitlines()[0].endswith(": nothing to compare (A has no samples)")
    assert len(out.splitlines()) == 1
    p = run(["compare", "--csv", a, RTLAT_JSON], check=0)
    assert p.stdout.splitlines()[1:] == []
    assert "nothing to compare (A has no samples)" in p.stderr


# ---- labels with '|', runs that did not complete ----

def test_label_with_bar_reads_back(tmp_path):
    f = result(tmp_path, "r.json", label="A|B board")
    txt = run(["report", f], check=0).stdout
    back = tmp_path / "back.txt"
    back.write_text(txt)
    rs, _ = csv_rows([back])
    assert len(rs) == 1 and rs[0]["label"] == "A|B board"
    assert int(rs[0]["max_ns"]) == json.loads(RTLAT_JSON.read_text())["summary"]["latency"]["max_ns"]


def test_checkpoint_and_interrupted_marked(tmp_path):
    ck = result(tmp_path, "ck.json", status="running", label="ck")
    it = result(tmp_path, "it.json", status="interrupted", label="it",
                start_time="2026-11-29T20:40:00.000Z")
    ok = result(tmp_path, "ok.json", label="ok", start_time="2026-11-29T20:41:00.000Z")
    txt = run(["report", ck, it, ok], check=0).stdout
    lines = txt.splitlines()
    assert lines[1].endswith("|-------note")
    assert lines[2].startswith("ck ") and lines[2].endswith("| checkpoint")
    assert lines[3].endswith("|interrupted")
    assert lines[4].endswith("|           ")
    assert lines[5].startswith("# note: checkpoint: the run did not end")
    rs, _ = csv_rows([ck, it, ok])
    assert [r["status"] for r in rs] == ["running", "interrupted", "complete"]
    back = tmp_path / "back.txt"
    back.write_text(txt)
    rs, _ = csv_rows([back])
    assert [r["status"] for r in rs] == ["running", "interrupted", ""]
    md = run(["report", "--markdown", ck], check=0).stdout
    assert "| checkpoint |" in md and "checkpoint: the run did not end" in md
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, ck, ok], check=0)
    lst = run(["db", "list", "--db", db], check=0).stdout.splitlines()
    assert "|checkpoint|" in lst[1] and "|note" in lst[0]
    # a complete table has no note column
    assert "note" not in run(["report", ok], check=0).stdout


@sqlite_only
def test_db_rehash_matches_import(tmp_path):
    """The identity recomputed from stored runs (migration) is the one
    computed at import: after a migration, every fixture is still known."""
    db = tmp_path / "h.db"
    files = sorted(p for p in list(FIXTURES.glob("*/*")) + list(OWN.glob("*"))
                   if p.name != "README.md")
    p = run(["db", "add", "--db", db] + files, check=0)
    n = len(p.stdout.splitlines())
    con = sqlite3.connect(db)
    con.execute("DROP INDEX runs_content_hash")     # as version 2 had it
    con.execute("UPDATE runs SET content_hash = 'old'")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    p = run(["db", "add", "--db", db] + files, check=0)
    assert "migrated from version 2 to 9" in p.stderr
    assert "0 runs added, %d already there" % n in p.stderr, p.stderr
    assert "same as an earlier one" not in p.stderr


def _blob_buckets(blob):
    """Decode series.hist_buckets (docs/db-schema.md): (lo, hi, count)."""
    vals, v, shift = [], 0, 0
    for b in blob:
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            vals.append(v)
            v, shift = 0, 0
    out, prev = [], 0
    for i in range(0, len(vals), 3):
        d, w, n = vals[i:i + 3]
        lo = prev + ((d >> 1) ^ -(d & 1))
        out.append((lo, lo + w, n))
        prev = lo + w + 1
    return out


@sqlite_only
def test_db_version_5_bucket_rows_still_read(tmp_path):
    """Version 6 stores a series' buckets in series.hist_buckets; a version
    5 database keeps its rows in buckets, which are read as before, and
    runs added after the migration go into the BLOB."""
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    want, _ = csv_rows(["--threads", RTLAT_JSON])
    con = sqlite3.connect(db)
    rows = con.execute("SELECT run_id, thread, hist_buckets FROM series"
                       " WHERE hist_buckets IS NOT NULL").fetchall()
    assert rows
    for rid, th, blob in rows:
        for lo, hi, n in _blob_buckets(blob):
            con.execute("INSERT INTO buckets VALUES (?,?,?,?,?)", (rid, th, lo, hi, n))
    con.execute("ALTER TABLE series DROP COLUMN hist_buckets")
    con.execute("PRAGMA user_version = 5")
    con.commit()
    con.close()
    got, p = csv_rows(["--threads", "--db", db])
    assert "migrated from version 5 to 9" in p.stderr
    assert got == want
    other = result(tmp_path, "other.json", start_time="2026-11-30T10:00:00.000Z")
    run(["db", "add", "--db", db, other], check=0)
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM buckets WHERE run_id = 2").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM series WHERE run_id = 2 AND"
                       " hist_buckets IS NOT NULL").fetchone()[0] > 0
    con.close()
    got, _ = csv_rows(["--threads", "--db", db, "--label", "other"])
    assert [r["max_ns"] for r in got] == [r["max_ns"] for r in csv_rows(["--threads", other])[0]]


def test_suite_rows_without_figures_read_quietly(tmp_path):
    """A suite report.txt with a run that did not run, failed or was
    interrupted before any sample: its row has no figures and says why, and
    is passed over without a warning (it said "row with 1 values for 6
    columns skipped", "row without figures skipped"); the others are read."""
    f = tmp_path / "report.txt"
    f.write_text(
        "LATENCY without load, latencies in us, test-time hh:mm:ss:\n"
        "         |-----lat min|-----lat avg|-----lat max|-overrun|"
        "-------p99.9|---test-time\n"
        "vm       |       7.098|      16.643|     494.991|      12|"
        "      81.407|    00:00:01\n\n"
        "SWITCH without load, latencies in us, test-time hh:mm:ss:\n"
        "         |-----lat min|-----lat avg|-----lat max|----lost|"
        "-------p99.9|---test-time\n"
        "vm       | not run (the suite was interrupted)\n\n"
        "CRUNCHER without load, times in us:\n"
        "         |-------ideal|--calibrated|-----dev min|-----dev avg|"
        "-----dev max\n"
        "vm       | failed: not permitted\n\n"
        "HANDSHAKE without load, latencies in us, test-time hh:mm:ss:\n"
        "         |----a->b min|----a->b avg|----a->b max|----lost|"
        "---test-time\n"
        "vm       |         n/a|         n/a|         n/a|       0|"
        "    00:00:00  (interrupted)\n\n"
        "LATENCY with load (hell), latencies in us, test-time hh:mm:ss:\n"
        "         |-----lat min|-----lat avg|-----lat max|-overrun|"
        "---test-time\n"
        "vm       |         n/a|         n/a|         n/a|       0|"
        "    00:00:00  (failed: interrupted by signal 2 (Interrupt), not "
        "sent by the suite (see 01-latency-none.log))\n")
    p = run(["report", f], check=0)
    assert p.stderr == "", p.stderr
    assert "494.991" in p.stdout and "SWITCH" not in p.stdout


def test_row_without_figures_or_reason_is_warned(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text(
        "LATENCY without load, latencies in us, test-time hh:mm:ss:\n"
        "         |-----lat min|-----lat avg|-----lat max|---test-time\n"
        "a        |       7.098|      16.643|     494.991|    00:00:01\n"
        "b        |         n/a|         n/a|         n/a|    00:00:01\n")
    p = run(["report", f], check=0)
    assert "t.txt:4: row without figures skipped" in p.stderr, p.stderr


def test_a_json_document_above_32_mib_is_refused(tmp_path):
    """A 239 MB rtlat result (a long run's interval series) took 4.2 GB and
    17 s to report, 14 MB took 264 MB: cJSON's tree is about 19 times the
    document. A JSON document above 32 MiB is refused before it is parsed,
    with the bound and what to do; one below it is read. Both are made
    from a real result: its interval rows repeated (refused) and padded
    with blanks (read: blanks cost nothing to parse)."""
    src = OWN / "rtlat-2cpu.json"
    doc = json.loads(src.read_text())
    s = doc["summary"]["latency"]
    rows = s["intervals"]["data"]
    s["intervals"]["data"] = [[i] + rows[i % len(rows)][1:]
                              for i in range(900000)]
    big = tmp_path / "big.json"
    big.write_text(json.dumps(doc))
    size = big.stat().st_size
    assert size > 32 << 20
    p = run(["report", big], check=1)
    assert "%s: a JSON document of %.1f MiB: rtlat report reads at most " \
        "32 MiB of JSON" % (big, size / 2**20) in p.stderr, p.stderr
    assert "jq 'del(.. | .intervals?)'" in p.stderr
    assert "LATENCY" not in p.stdout
    # at the bound, and one byte above it
    text = src.read_text()
    for pad, rc in (((32 << 20) - len(text.encode()), 0),
                    ((32 << 20) - len(text.encode()) + 1, 1)):
        f = tmp_path / "padded.json"
        f.write_text(text + " " * pad)
        p = run(["report", "--csv", f], check=rc)
        assert (str(f) in p.stdout) == (rc == 0), p.stderr
