# SPDX-License-Identifier: GPL-2.0-or-later
"""Noise results through the host side, in noise's words (issue 17: "the
same engine, outputs, JSON, thresholds, loads and suite table as every
test"): the history keeps a run's test_data figures and its rtlat check
findings, so that a noise result printed from the history gives the same
NOISE table and System check block as printed from its file (SQLite, and
PostgreSQL with make check-pg); a history of version 7 is migrated and
the file added again fills them in; rtlat compare compares max gap, noise
%, events (showing on CPU, the noisiest) from the table's own columns, no
lat min/avg/max or overrun; --lava gives max gap (per CPU too), noise %
and events, no avg, min or "0 overruns"."""
import os
import re
import sqlite3

import pytest

from conftest import (RTLAT, TEST_DB, db_query, load_json_strict, needs_root,
                      run, sqlite_only)
from test_lab import lava_cases, no_helper_env

pytestmark = pytest.mark.skipif(
    "report" not in run(["--help"], check=0).stdout,
    reason="built without the host side (rtlat report)")


def us3(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def db_exec(path, sql):
    """Run the statement @sql (plain SQL) on the history of @path, on
    either store (db_query() reads)."""
    if TEST_DB == "pg":
        db_query(path, sql)
        return
    con = sqlite3.connect(str(path))
    con.execute(sql)
    con.commit()
    con.close()


def two_cpus():
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs 2 CPUs")
    return cpus[-2:]


def noise(path, *args):
    """A noise run of 1 s on the last two CPUs, its result in @path."""
    run(["noise", "-T", "1", "--warmup", "100ms", "-c",
         ",".join(map(str, two_cpus())), "--json", path] + list(args),
        check=0, timeout=60)
    d = load_json_strict(path)
    assert d["test"] == "noise" and d["status"] == "complete"
    return d


def table(stdout, title):
    """{label: {column: cell}} of the text table titled @title."""
    lines = stdout.splitlines()
    [i] = [k for k, ln in enumerate(lines) if ln.startswith(title)]
    head = [c.strip("-") for c in lines[i + 1].split("|")[1:]]
    rows = {}
    for ln in lines[i + 2:]:
        if "|" not in ln:
            break
        label, *cells = [c.strip() for c in ln.split("|")]
        rows[label] = dict(zip(head, cells))
    return head, rows


def check_block(stdout):
    """The System check block of a report: its lines."""
    lines = stdout.splitlines()
    [i] = [k for k, ln in enumerate(lines) if ln.startswith("System check")]
    return lines[i:]


def assert_noise_table(stdout, name, d):
    head, rows = table(stdout, "NOISE GAP without load")
    assert head == ["max gap", "noise %", "on CPU", "max w/o RT thr.",
                    "RT throttled", "events", "p99.9", "test-time"], head
    td = d["test_data"]
    row = rows[name]
    assert row["max gap"] == us3(d["summary"]["gap"]["max_ns"])
    assert row["noise %"] == "%.4f" % td["noise_pct"]
    assert row["on CPU"] == str(td["noise_cpu"])
    assert row["RT throttled"] == us3(td["throttled_ns"])
    assert row["max w/o RT thr."] == (us3(td["max_gap_unthrottled_ns"])
                                      if "max_gap_unthrottled_ns" in td
                                      else "n/a")
    assert row["events"] == str(td["events"])
    # a row per CPU under a run of several (--threads)
    for c in td["cpus"] if len(td["cpus"]) > 1 else []:
        sub = rows["%s cpu %d" % (name, c["cpu"])]
        assert sub["events"] == str(c["events"])
        assert sub["noise %"] == "%.4f" % c["noise_pct"]


def assert_check_block(stdout, name, d):
    """The block says the result's check: its counts and each warning and
    bad."""
    block = check_block(stdout)
    cnt = d["check"]["counts"]
    assert block[1] == "%s: %d bad, %d warning%s, %d ok, %d n/a" % (
        name, cnt["bad"], cnt["warning"], "" if cnt["warning"] == 1 else "s",
        cnt["ok"], cnt["n/a"]), block
    said = [it["id"] for it in d["check"]["items"]
            if it["verdict"] in ("bad", "warning")]
    assert [ln.split()[0] for ln in block[2:]] == said, block


@needs_root
def test_history_gives_the_noise_table_and_check_of_the_file(tmp_path):
    """db add of a noise result, then report --db: the same NOISE table
    (noise %, on CPU, events of the run and of each CPU, not n/a) and the
    same System check block as report of the file, text for text; the
    history holds its figures and findings (figures, runs.system_check)."""
    js, db = tmp_path / "n.json", tmp_path / "h.db"
    d = noise(js)
    assert d["check"]["items"], "a result carries rtlat check's findings"
    run(["db", "add", "-q", "--db", db, js], check=0)
    f = run(["report", "--threads", js], check=0).stdout
    h = run(["report", "--threads", "--db", db], check=0).stdout
    assert h == f
    assert_noise_table(h, "n", d)
    assert_check_block(h, "n", d)
    # stored as figures: the whole run's (cpu -1) and each CPU's
    td = d["test_data"]
    got = dict(((c, n), v) for c, n, v in db_query(
        db, "SELECT cpu, name, value FROM figures"))
    assert float(got[(-1, "noise_pct")]) == td["noise_pct"]
    assert int(got[(-1, "events")]) == td["events"]
    for c in td["cpus"]:
        assert int(got[(c["cpu"], "events")]) == c["events"]
    # the findings as rep_run.check has them: counts, then "id verdict
    # found" per warning and bad (lines and tabs spelt out: one row)
    [(chk,)] = db_query(db, "SELECT replace(replace(system_check, '\n',"
                        " '<NL>'), '\t', '<TAB>') FROM runs")
    cnt = d["check"]["counts"]
    assert chk == "<NL>".join(
        ["%d bad, %d warning%s, %d ok, %d n/a" % (
            cnt["bad"], cnt["warning"], "" if cnt["warning"] == 1 else "s",
            cnt["ok"], cnt["n/a"])] +
        ["%s<TAB>%s<TAB>%s" % (it["id"], it["verdict"], it["found"])
         for it in d["check"]["items"]
         if it["verdict"] in ("bad", "warning")])
    # the markdown table alike
    assert run(["report", "--markdown", "--db", db], check=0).stdout == \
        run(["report", "--markdown", js], check=0).stdout


@needs_root
def test_suite_runs_from_the_history_as_from_the_directory(tmp_path):
    """A suite's noise run stored by suite --db reads back as its
    directory reads: the same NOISE table and System check block."""
    out, db = tmp_path / "res", tmp_path / "h.db"
    p = run(["suite", "--tests", "noise", "--loads", "none", "-T", "1",
             "--warmup", "100ms", "--out", out, "--db", db, "-q"],
            check=0, timeout=120)
    assert p.returncode == 0, p.stderr
    [js] = out.glob("*-noise-none.json")
    d = load_json_strict(js)
    f = run(["report", "--threads", out], check=0).stdout
    h = run(["report", "--threads", "--db", db], check=0).stdout
    assert h == f
    name = [ln.split("|")[0].strip() for ln in h.splitlines()
            if "|" in ln][1]
    assert_noise_table(h, name, d)
    assert_check_block(h, name, d)


@needs_root
def test_history_of_version_7_gets_them_back(tmp_path):
    """A noise run stored before version 8 (no figures, no check: n/a in
    the table, no System check block) gets them when its file is added
    again; a file added again that has them stored changes nothing."""
    js, db = tmp_path / "n.json", tmp_path / "h.db"
    d = noise(js)
    run(["db", "add", "-q", "--db", db, js], check=0)
    # what version 7 stored of it (plain SQL, either store)
    db_exec(db, "DELETE FROM figures")
    db_exec(db, "UPDATE runs SET system_check = NULL")
    h = run(["report", "--db", db], check=0).stdout
    _, rows = table(h, "NOISE GAP without load")
    assert rows["n"]["noise %"] == rows["n"]["events"] == "n/a"
    assert "System check" not in h
    p = run(["db", "add", "--db", db, js], check=0)
    assert "0 runs added, 1 already there" in p.stderr
    f = run(["report", "--threads", js], check=0).stdout
    assert run(["report", "--threads", "--db", db], check=0).stdout == f
    n = len(db_query(db, "SELECT name FROM figures"))
    assert n == len([1 for v in d["test_data"].values()
                     if isinstance(v, (int, float, str))]) + sum(
        len([1 for v in c.values() if isinstance(v, (int, float, str))])
        for c in d["test_data"]["cpus"])
    run(["db", "add", "-q", "--db", db, js], check=0)
    assert len(db_query(db, "SELECT name FROM figures")) == n


@sqlite_only
@needs_root
def test_sqlite_version_7_is_migrated(tmp_path):
    """A history file of schema version 7 (no figures table, no
    system_check column) is migrated to 9 on open, its runs kept."""
    js, db = tmp_path / "n.json", tmp_path / "h.db"
    noise(js)
    run(["db", "add", "-q", "--db", db, js], check=0)
    con = sqlite3.connect(db)
    con.execute("DROP TABLE figures")
    con.execute("ALTER TABLE runs DROP COLUMN system_check")
    con.execute("PRAGMA user_version = 7")
    con.commit()
    con.close()
    p = run(["report", "--db", db], check=0)
    assert "schema migrated from version 7 to 9" in p.stderr
    _, rows = table(p.stdout, "NOISE GAP without load")
    assert rows["n"]["events"] == "n/a"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 9
    assert [r[1] for r in con.execute("PRAGMA table_info(figures)")] == \
        ["run_id", "idx", "cpu", "name", "value"]
    con.close()
    run(["db", "add", "-q", "--db", db, js], check=0)
    assert run(["report", "--db", db], check=0).stdout == \
        run(["report", js], check=0).stdout


def _compare_rows(stdout):
    lines = stdout.splitlines()
    head = [c.strip("-") for c in lines[1].split("|")[1:]]
    rows = {}
    for ln in lines[2:]:
        if "|" not in ln:
            break
        name, *cells = [c.strip() for c in ln.split("|")]
        rows[name] = dict(zip(head, cells))
    return [ln.split("|")[0].strip() for ln in lines[2:] if "|" in ln], rows


@needs_root
def test_compare_speaks_noise(tmp_path):
    """compare of two noise runs: the metrics of the NOISE table (max gap,
    noise %, on CPU, events, p99.9), their values the results', events
    compared as counts, on CPU shown and not compared; no lat min/avg/max,
    no overrun. The same from the history (selectors), and in CSV; the
    gate gates max gap."""
    a, b, db = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "h.db"
    da, dbb = noise(a), noise(b)
    p = run(["compare", a, b], check=0)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("NOISE GAP without load (us): A = a, B = b\n")
    names, rows = _compare_rows(p.stdout)
    assert names == ["max gap", "noise %", "on CPU", "max w/o RT thr.",
                     "RT throttled", "events", "p99.9"]
    for w in ("lat ", "overrun"):
        assert w not in p.stdout, p.stdout
    ta, tb = da["test_data"], dbb["test_data"]
    mg = rows["max gap"]
    assert mg["A"] == us3(da["summary"]["gap"]["max_ns"])
    assert mg["B"] == us3(dbb["summary"]["gap"]["max_ns"])
    pct = rows["noise %"]
    assert pct["A"] == "%.4f" % ta["noise_pct"]
    assert pct["B"] == "%.4f" % tb["noise_pct"]
    assert pct["delta"] == "%+.4f" % (float(pct["B"]) - float(pct["A"]))
    ev = rows["events"]
    assert ev["A"] == str(ta["events"]) and ev["B"] == str(tb["events"])
    thr = rows["RT throttled"]
    assert thr["A"] == us3(ta["throttled_ns"])
    assert thr["B"] == us3(tb["throttled_ns"])
    assert ev["delta"] == "%+d" % (tb["events"] - ta["events"])
    assert ev["from"] == "poisson"
    assert ev["noise"] == "%.0f" % (2 * (ta["events"] + tb["events"]) ** 0.5)
    cpu = rows["on CPU"]
    assert cpu["A"] == str(ta["noise_cpu"]) and cpu["B"] == str(tb["noise_cpu"])
    assert cpu["delta"] == cpu["beyond noise"] == ""
    # from the history: the same comparison
    run(["db", "add", "-q", "--db", db, a, b], check=0)
    h = run(["compare", "--db", db, "label=a", "label=b"], check=0)
    assert h.stdout == p.stdout
    # CSV: the same metrics, a % with its 4 decimals, counts whole
    csv = run(["compare", "--csv", a, b], check=0).stdout.splitlines()
    got = {ln.split(",")[3]: ln.split(",") for ln in csv[1:]}
    assert list(got) == names
    assert got["noise %"][4] == "%.4f" % ta["noise_pct"]
    assert got["events"][4:6] == [str(ta["events"]), str(tb["events"])]
    assert got["on CPU"][4:] == [str(ta["noise_cpu"]), str(tb["noise_cpu"]),
                                 "", "", "", "", "", ""]
    # the gate: max gap and p99.9 (the series' gated metrics it has); a run
    # against itself passes, its max gap the same
    g = run(["compare", "--gate", a, a], check=0)
    assert "gate max gap: " in g.stdout and "gate lat" not in g.stdout, \
        g.stdout
    assert "gate max gap: same: " in g.stdout and "within the limit" in g.stdout, \
        g.stdout
    # A against B: two real runs' max gaps may differ beyond any margin on
    # a noisy machine (CI saw it): not the verdict, but its agreement with
    # the two runs' figures and the exit status
    g = run(["compare", "--gate", a, b])
    [line] = [ln for ln in g.stdout.splitlines()
              if ln.startswith("gate max gap: ")]
    ga, gb = da["summary"]["gap"], dbb["summary"]["gap"]
    sa, sb = ga["samples"], gb["samples"]
    assert (sa, sb) == (ta["events"], tb["events"])  # a gap's samples: events
    value, weak = gb["max_ns"], False
    if "interval maxima" in line:
        # the law of the baseline's interval maxima (verdict.c) at the new
        # run's exposure: worse only beyond it, never with too few of them
        d = value - ga["max_ns"]
        verdict = line.split(": ")[1]
        assert verdict in ("same", "cannot tell", "worse"), line
        if abs(d) >= 1:
            assert "%s by %s us (" % ("higher" if d > 0 else "lower",
                                      us3(abs(d))) in line, (d, line)
        assert (verdict == "worse") <= ("beyond the limit" in line), line
        if "too few to fit" in line:
            assert verdict != "worse", line
        beyond = verdict == "worse"
    else:
        if sb > 2 * sa:
            # more than twice A's events: B's max is taken at A's count, B's
            # quantile 1 - 1/sa (rtlat-compare(1)), from B's histogram
            assert "; the new runs took %.1fx the baseline's samples" % (sb / sa) \
                in line, (sa, sb, line)
            m = re.search(r"compared at equal samples, their quantile "
                          r"1 - 1/(\d+), (\d+)\.(\d{3}) us$", line)
            weak = m is None
            if m:
                assert int(m.group(1)) == sa, line
                value = int(m.group(2)) * 1000 + int(m.group(3))
                assert gb["min_ns"] <= value <= gb["max_ns"], (gb, line)
                above = sum(n for lo, hi, n in gb["histogram"]["buckets"]
                            if lo > value)
                assert above <= sb / sa, (above, sb, sa, line)
            else:
                assert "not like for like" in line, line
        elif sa > 2 * sb:
            assert "; the new runs took %.1fx fewer samples than the baseline" \
                % (sa / sb) in line, (sa, sb, line)
        else:
            assert "the new runs took" not in line, (sa, sb, line)
        d = value - ga["max_ns"]
        if weak:
            assert line.startswith("gate max gap: cannot tell: "), line
        elif d:
            assert "%s by %s us (" % ("worse" if d > 0 else "better",
                                      us3(abs(d))) in line, (d, line)
        else:
            assert ": the same: " in line, line
        beyond = "beyond the limit" in line
        assert line.startswith("gate max gap: worse: ") == beyond, line
    # a gated metric worse beyond its limit (max gap, or p99.9) fails the
    # gate: exit 2 (rtlat-compare(1)), else 0
    failed = any(ln.startswith("gate: fail") for ln in g.stdout.splitlines())
    assert g.returncode == (2 if failed else 0), (g.returncode, g.stdout)
    if beyond:
        assert d > 0 and failed, (d, g.stdout)


@needs_root
def test_lava_gives_noise_figures(tmp_path):
    """--lava of a noise run: the run, max gap (the run's, each CPU's;
    failing over --max-latency), p99.9 from 1000 events, noise % and
    events, their values the result's; no avg, no min, no overruns."""
    js = tmp_path / "n.json"
    cpus = two_cpus()
    p = run(["noise", "-T", "1", "--warmup", "100ms", "-c",
             ",".join(map(str, cpus)), "--json", js, "--lava",
             "--max-latency", "0.001"], timeout=60,
            env=no_helper_env())
    d = load_json_strict(js)
    td, gap = d["test_data"], d["summary"]["gap"]
    cases = lava_cases(p.stdout)
    want = ["noise-none", "noise-none-gap-max"] + \
        (["noise-none-gap-p99.9"] if gap["samples"] >= 1000 else []) + \
        ["noise-none-gap-cpu%d-max" % c for c in cpus] + \
        ["noise-none-noise_pct"] + \
        (["noise-none-max_gap_unthrottled"]
         if "max_gap_unthrottled_ns" in td else []) + \
        ["noise-none-throttled", "noise-none-events"]
    assert list(cases) == want, list(cases)
    th = cases["noise-none-throttled"]
    assert th["measurement"] == us3(td["throttled_ns"])
    assert th["units"] == "us"
    mx = cases["noise-none-gap-max"]
    assert mx["measurement"] == us3(gap["max_ns"]) and mx["units"] == "us"
    if gap["samples"]:
        assert p.returncode == 2 and mx["result"] == "fail"
    pct = cases["noise-none-noise_pct"]
    assert pct["measurement"] == "%.4f" % td["noise_pct"]
    assert pct["units"] == "percent" and pct["result"] == "pass"
    ev = cases["noise-none-events"]
    assert ev["measurement"] == str(td["events"]) and ev["units"] == "count"
    for c in td["cpus"]:
        cm = cases["noise-none-gap-cpu%d-max" % c["cpu"]]
        assert cm["measurement"] == us3(c["gap_max_ns"])
