# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat report over a large history (issue 34): a summary per board,
kernel, test and load computed by the database, with known answers on a
small synthetic history; the runs on request (--runs, --limit); a history
of 200 runs or fewer as before."""
import csv
import io
import json
import os
import shutil
import sqlite3

import pytest

from conftest import ROOT, TEST_DB, run, sqlite_only

pytestmark = pytest.mark.host

SRC = ROOT / "tests" / "fixtures" / "report" / "rtlat-2cpu.json"
BASE = 10000000          # ns; above the fixture's own max (9672938)

# board, kernel, the maxima above BASE (ns) in time order
GROUPS = [
    ("b1", "k1", [0, 1000, 2000, 3000, 4000, 5000]),
    ("b1", "k2", [9000, 9000, 3000, 1000]),
    ("b2", "k1", [10000, 11000, 12000, 2000, 1000, 0]),
    ("b3", "k1", [0, 5000, 1000, 4000, 2000, 3000, 0]),
]


def make_history(tmp_path, groups=GROUPS):
    """The result files of @groups, one run each maximum, start times a
    day apart in the order given (run ids in that order too), added to a
    new history: (db, [(board, kernel, max, start, id)])."""
    src = json.loads(SRC.read_text())
    d = tmp_path / "res"
    d.mkdir()
    files, runs, k = [], [], 0
    for board, kernel, maxima in groups:
        for m in maxima:
            x = json.loads(json.dumps(src))
            k += 1
            start = "2026-%02d-%02dT08:00:00.000Z" % (1 + k // 28, 1 + k % 28)
            x["start_time"] = start
            x["host"]["hostname"] = board
            x["host"]["release"] = kernel
            x["summary"]["latency"]["max_ns"] = BASE + m
            f = d / ("r%03d.json" % k)
            f.write_text(json.dumps(x))
            files.append(f)
            runs.append((board, kernel, BASE + m, start, k))
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db] + files, check=0)
    return db, runs


def summary_csv(db, *extra):
    p = run(["report", "--db", db, "--summary", "--csv"] + list(extra), check=0)
    return {(r["board"], r["kernel"]): r for r in csv.DictReader(io.StringIO(p.stdout))}


def test_summary_figures_known_answers(tmp_path):
    db, runs = make_history(tmp_path)
    rows = summary_csv(db)
    assert sorted(rows) == [("b1", "k1"), ("b1", "k2"), ("b2", "k1"), ("b3", "k1")]
    start = {(b, k, i): s for i, (b, k, _, s, _) in enumerate(runs)}
    first = {}
    for i, (b, k, _, _, _) in enumerate(runs):
        first.setdefault((b, k), i)

    def at(b, k, j):
        """start time of the j-th run of group (b, k)"""
        return start[(b, k, first[(b, k)] + j)]

    r = rows[("b1", "k1")]
    assert (r["test"], r["series"], r["load"]) == ("latency", "latency", "unknown")
    assert r["runs"] == "6" and r["runs_with_max"] == "6"
    assert r["worst_max_ns"] == str(BASE + 5000)
    assert r["worst_at"] == at("b1", "k1", 5)
    assert r["worst_id"] == str(first[("b1", "k1")] + 6)
    assert r["max_median_ns"] == "%.1f" % (BASE + 2500)
    assert (r["max_q1_ns"], r["max_q3_ns"]) == (str(BASE + 1000), str(BASE + 4000))
    assert r["p99_9_ns"] == "127487"           # the fixture's, every run
    assert r["misses"] == str(6 * 332) and r["miss_kind"] == "overruns"
    assert r["last_run"] == at("b1", "k1", 5)
    # older half 0,1,2 us (median 1, range 2), newer 3,4,5 (median 4)
    assert r["trend"] == "worse"

    r = rows[("b1", "k2")]
    assert r["runs"] == "4"
    assert r["worst_max_ns"] == str(BASE + 9000)
    # two runs share the worst max: the first one is named
    assert r["worst_at"] == at("b1", "k2", 0)
    assert r["worst_id"] == str(first[("b1", "k2")] + 1)
    assert r["max_median_ns"] == "%.1f" % (BASE + 6000)
    assert (r["max_q1_ns"], r["max_q3_ns"]) == (str(BASE + 1000), str(BASE + 9000))
    assert r["trend"] == "cannot tell"          # 2 runs a half

    r = rows[("b2", "k1")]
    assert r["worst_at"] == at("b2", "k1", 2)
    assert r["max_median_ns"] == "%.1f" % (BASE + 6000)
    assert r["trend"] == "better"

    r = rows[("b3", "k1")]
    assert r["runs"] == "7"
    assert r["max_median_ns"] == "%.1f" % (BASE + 2000)
    assert (r["max_q1_ns"], r["max_q3_ns"]) == (str(BASE + 0), str(BASE + 4000))
    # halves 0,5,1 (median 1, range 5) and 4,2,3,0 (median 2.5): within
    assert r["trend"] == "same"
    assert r["worst_at"] == at("b3", "k1", 1)


def test_summary_follows_the_filters(tmp_path):
    db, _ = make_history(tmp_path)
    assert sorted(summary_csv(db, "--board", "b1")) == [("b1", "k1"), ("b1", "k2")]
    assert sorted(summary_csv(db, "--kernel", "*2")) == [("b1", "k2")]
    assert sorted(summary_csv(db, "--board", "b[23]")) == [("b2", "k1"), ("b3", "k1")]
    assert sorted(summary_csv(db, "--board", "b?", "--kernel", "k1")) == [
        ("b1", "k1"), ("b2", "k1"), ("b3", "k1")]
    # the filter counts before the ranks: b1 k1 from its 3rd run on
    r = summary_csv(db, "--board", "b1", "--kernel", "k1",
                    "--since", "2026-01-04")[("b1", "k1")]
    assert r["runs"] == "4" and r["max_q1_ns"] == str(BASE + 2000)
    assert summary_csv(db, "--load", "unknown").keys() == summary_csv(db).keys()
    p = run(["report", "--db", db, "--summary", "--load", "none"], check=1)
    assert "no run matches the filters" in p.stderr and not p.stdout


def test_summary_text_and_markdown(tmp_path):
    db, _ = make_history(tmp_path)
    out = run(["report", "--db", db, "--summary"], check=0).stdout.splitlines()
    assert out[0] == "HISTORY: 23 runs, 4 groups (us):"
    head = [c.strip("- ") for c in out[1].split("|")]
    assert head == ["board", "kernel", "test", "load", "runs", "worst max",
                    "worst at", "max median", "max q1", "max q3", "p99.9",
                    "overrun/lost", "last run", "trend"]
    b1 = [c.strip() for c in out[2].split("|")]
    assert b1[:6] == ["b1", "k1", "latency", "unknown", "6", "10005.000"]
    assert b1[7:11] == ["10002.500", "10001.000", "10004.000", "127.487"]
    assert b1[-1] == "worse"
    md = run(["report", "--db", db, "--summary", "--markdown", "--unit", "ns"],
             check=0).stdout
    assert md.startswith("### History: 23 runs, 4 groups (values in ns)")
    assert "| b1 | k1 | latency | unknown | 6 | 10005000 |" in md


def test_large_history_is_summarised_and_its_runs_listed_on_request(tmp_path):
    # 200 runs: a row per run, as before; one more: the summary
    db, runs = make_history(tmp_path, [("b1", "k1", list(range(0, 200000, 1000)))])
    p = run(["report", "--db", db, "--csv"], check=0)
    assert len(p.stdout.splitlines()) == 201        # header + a row per run
    assert "summary" not in p.stderr
    d = tmp_path / "more"
    d.mkdir()
    x = json.loads(SRC.read_text())
    x["start_time"] = "2027-06-01T00:00:00.000Z"
    x["host"]["hostname"] = "b1"
    x["host"]["release"] = "k1"
    (d / "last.json").write_text(json.dumps(x))
    run(["db", "add", "-q", "--db", db, d / "last.json"], check=0)
    p = run(["report", "--db", db], check=0)
    assert p.stdout.startswith("HISTORY: 201 runs, 1 groups (us):")
    assert "201 runs (more than 200): a row per board, kernel, test and load" in p.stderr
    # the fixture's own max (9672938) is the lowest of the 201
    r = summary_csv(db)[("b1", "k1")]
    assert r["runs"] == "201" and r["max_q1_ns"] == str(BASE + 49000)
    # --runs: every run; --limit: the latest by start time, in id order
    p = run(["report", "--db", db, "--runs", "--csv"], check=0)
    assert len(p.stdout.splitlines()) == 202
    p = run(["report", "--db", db, "--limit", "3", "--csv"], check=0)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert [r["label"] for r in rows] == ["r199", "r200", "last"]
    p = run(["report", "--db", db, "--limit", "2", "--runs", "--csv",
             "--until", "2026-12"], check=0)
    assert [r["label"] for r in csv.DictReader(io.StringIO(p.stdout))] == [
        "r199", "r200"]


def test_summary_options_refused_where_they_mean_nothing(tmp_path):
    p = run(["report", "--summary", "--runs", "--db", tmp_path / "x.db"], check=1)
    assert "--summary goes with the history alone, without --runs" in p.stderr
    p = run(["report", "--summary", str(SRC)], check=1)
    assert "--summary goes with the history alone, without files" in p.stderr
    p = run(["report", "--limit", "0", "--db", tmp_path / "x.db"], check=1)
    assert "--limit" in p.stderr and "a number of runs from 1" in p.stderr


@sqlite_only
def test_version_8_is_migrated(tmp_path):
    """A history of version 8 gets the indexes of version 9 on open, its
    runs kept."""
    db, _ = make_history(tmp_path, GROUPS[:1])
    con = sqlite3.connect(str(db))
    con.execute("DROP INDEX runs_board")
    con.execute("DROP INDEX runs_time")
    con.execute("PRAGMA user_version = 8")
    con.commit()
    con.close()
    p = run(["report", "--db", db, "--summary", "--csv"], check=0)
    assert "schema migrated from version 8 to 9" in p.stderr
    assert len(p.stdout.splitlines()) == 2
    con = sqlite3.connect(str(db))
    names = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index'")}
    plan = " ".join(r[3] for r in con.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM runs WHERE runs.board = 'b1'"))
    con.close()
    assert {"runs_board", "runs_time"} <= names
    assert "runs_board" in plan


def test_longterm_page_aggregates_per_day(tmp_path):
    """--longterm --html over the history: the database's aggregates, a
    point per day of a board's runs (never one per run), the summary
    table, and the page says so."""
    src = json.loads(SRC.read_text())
    d = tmp_path / "res"
    d.mkdir()
    files = []
    for k in range(6):      # 6 runs, 3 a day, on 2 days
        x = json.loads(json.dumps(src))
        x["start_time"] = "2026-05-%02dT%02d:00:00.000Z" % (1 + k // 3, 8 + k % 3)
        x["host"]["hostname"] = "b1"
        x["host"]["release"] = "k1"
        x["summary"]["latency"]["max_ns"] = BASE + 1000 * k
        files.append(d / ("r%d.json" % k))
        files[-1].write_text(json.dumps(x))
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db] + files, check=0)
    page = tmp_path / "p.html"
    p = run(["report", "--db", db, "--summary", "--longterm", "--html", page],
            check=0)
    assert p.stdout.startswith("HISTORY: 6 runs, 1 groups (us):")
    html = page.read_text()
    assert "<h1>rtlat long-term report</h1>" in html
    assert "6 runs of the history in 1 groups" in html
    assert "a point per day (UTC) (2 points)" in html
    assert "<td>b1</td><td>k1</td><td>latency</td><td>unknown</td><td>6</td><td>10005.000</td>" in html
    if shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
        assert "long-term: 6 runs in 2 points (a day each, 1 line), aggregated by the database" in html
        assert html.count("<svg") == 1
    # without --summary, 6 runs make the page of the runs, as before
    run(["report", "--db", db, "--longterm", "--html", page], check=0)
    assert "rtlat long-term report" not in page.read_text()
