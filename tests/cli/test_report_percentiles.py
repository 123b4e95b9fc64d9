# SPDX-License-Identifier: GPL-2.0-or-later
"""Percentiles from imported histograms: a rank in the overflow is a lower
bound (">=N", N the histogram's upper limit) in every format, in compare
and in the history, never the max; a percentile of too few samples is n/a.
Cruncher and handshake tables use their series' words."""
import csv
import io
import json
import os
import re
import sqlite3

from conftest import FIXTURES, ROOT, db_query, run, sqlite_only

OWN = ROOT / "tests" / "fixtures" / "report"
CT_JSON = FIXTURES / "cyclictest" / "json-2threads-histogram.json"
CT_60 = FIXTURES / "cyclictest" / "histogram-60us-overflows.txt"
CRUNCH = OWN / "suite-vm-07-cruncher-none.json"
HANDSHAKE = OWN / "suite-vm-05-handshake-none.json"


def csv_rows(*args, check=0):
    p = run(["report", "--csv", "--threads"] + [str(a) for a in args], check=check)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def by_thread(rs):
    return {r["thread"]: r for r in rs}


def ct_overflow_share(cpu):
    """Share of a thread's cycles beyond its -h 30 histogram, as the file says."""
    t = json.loads(CT_JSON.read_text())["thread"][str(cpu)]
    return (t["cycles"] - sum(t["histogram"].values())) / t["cycles"]


def test_cyclictest_json_overflow_is_a_lower_bound():
    """cpu 0: 2.8 % of 3000 cycles beyond the 30 us histogram, max 65 us:
    p99 and p99.9 are at least 30 us, not 65 us; p90 is a value."""
    assert 0.028 < ct_overflow_share(0) < 0.029
    t = by_thread(csv_rows(CT_JSON))
    cpu0 = t["0"]
    assert cpu0["max_ns"] == "65000"
    assert cpu0["p99.9_ns"] == ">=30000"
    assert cpu0["p99_ns"] == ">=30000"
    # p90: rank 2700 of 3000, in the bucket where the file's counts reach it
    h = json.loads(CT_JSON.read_text())["thread"]["0"]["histogram"]
    cum = 0
    for us in sorted(h, key=int):
        cum += h[us]
        if cum >= 2700:
            break
    assert cpu0["p90_ns"] == str(int(us) * 1000) == "18000"
    # 3000 samples: p99.99 and beyond cannot differ from the max
    assert cpu0["p99.99_ns"] == cpu0["p99.9999_ns"] == ""
    # the whole run (two threads merged): still beyond the histogram
    assert t["all"]["p99.9_ns"] == ">=30000"
    for r in t.values():
        assert r["p99.9_ns"] != r["max_ns"]


def test_cyclictest_json_limit_from_command_line(tmp_path):
    """The JSON lists non-empty buckets only: with 28 and 29 us empty, the
    histogram still ends at 30 us, as its "-h 30" says."""
    d = json.loads(CT_JSON.read_text())
    assert " -h 30 " in d["cmdline:"]
    for k in ("28", "29"):
        del d["thread"]["0"]["histogram"][k]
    f = tmp_path / "ct.json"
    f.write_text(json.dumps(d))
    t = by_thread(csv_rows(f))
    assert t["0"]["p99.9_ns"] == ">=30000"
    assert t["0"]["p99_ns"] == ">=30000"


def test_bound_in_text_markdown_html(tmp_path):
    text = run(["report", "--threads", "--unit", "ns", CT_JSON], check=0).stdout
    row = [l for l in text.splitlines() if "cpu 0" in l][0]
    cells = [c.strip() for c in row.split("|")]
    assert (cells[3], cells[5]) == ("65000", ">=30000"), row
    assert re.search(r"^# p99\.9 >=N: its rank is in the histogram's overflow: "
                     r"at least N", text, re.M)
    us = run(["report", "--threads", CT_60], check=0).stdout     # us: default
    rows = us.splitlines()[2:5]
    assert [r.split("|")[5].strip() for r in rows] == [">=60.000"] * 3, us
    assert rows[0].split("|")[3].strip() == "439.000"
    md = run(["report", "--markdown", "--unit", "ns", CT_60], check=0).stdout
    assert "| 439000 | n/a | >=60000 |" in md
    md = run(["report", "--markdown", CT_60], check=0).stdout
    assert "| 439.000 | n/a | >=60.000 |" in md
    html = tmp_path / "r.html"
    env = dict(os.environ, GNUPLOT=str(tmp_path / "no-gnuplot"))
    run(["report", "--html", html, CT_60], check=0, env=env)
    page = html.read_text()
    assert "<td>&gt;=60.000</td>" in page and "<td>439.000</td>" in page
    assert "p99.9 &gt;=N" in page
    run(["report", "--html", html, "--unit", "ns", CT_60], check=0, env=env)
    page = html.read_text()
    assert "<td>&gt;=60000</td>" in page and "<td>439000</td>" in page
    assert "p99.9 &gt;=N" in page


def test_60us_file_every_bound():
    """histogram-60us-overflows: buckets 0..59 us, 439 us max; thread 1's p99
    is already in the overflow, thread 0's p99 is not (56 us)."""
    t = by_thread(csv_rows(CT_60))
    assert t["0"]["p99_ns"] == "56000"
    assert t["1"]["p99_ns"] == ">=60000"
    for k in ("0", "1", "all"):
        assert t[k]["p99.9_ns"] == ">=60000"
    # 8000 samples per thread: p99.99 would be the max
    assert t["0"]["p99.99_ns"] == "" and t["all"]["p99.99_ns"] == ">=60000"


def test_compare_shows_bound_without_comparing():
    p = run(["compare", "--csv", CT_JSON, CT_60], check=0)
    m = {r["metric"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    assert (m["p99.9"]["a_value"], m["p99.9"]["b_value"]) == (">=30000.0", ">=60000.0")
    assert m["p99.9"]["delta"] == "" and m["p99.9"]["beyond_noise"] == ""
    assert m["lat max"]["delta"] == str(439000 - 6574000) + ".0"
    text = run(["compare", "--unit", "ns", CT_JSON, CT_60], check=0).stdout
    assert re.search(r"^p99\.9 +\| +>=30000\| +>=60000\| +\| ", text, re.M), text
    text = run(["compare", CT_JSON, CT_60], check=0).stdout
    assert re.search(r"^p99\.9 +\| +>=30\.000\| +>=60\.000\| +\| ", text, re.M), text


def test_history_keeps_the_bound(tmp_path):
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, CT_JSON, CT_60], check=0)
    assert csv_rows("--db", db) == csv_rows(CT_JSON, CT_60)
    (got,) = db_query(db, "SELECT p99_9_ns, pct_lower_bounds FROM series s JOIN runs r"
                          " ON s.run_id = r.id WHERE r.label = 'json-2threads-histogram'"
                          " AND thread = 0")
    assert got == (30000, "p99 p99.9")


@sqlite_only
def test_history_of_an_older_rtlat_is_settled(tmp_path):
    """Version 3 stored the max for a rank in the overflow: migrating to 4
    settles the percentiles from the stored histogram, and the run is still
    known (same identity) afterwards."""
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, CT_60], check=0)
    con = sqlite3.connect(db)
    con.execute("UPDATE series SET p99_9_ns = max_ns, p99_99_ns = max_ns,"
                " pct_lower_bounds = NULL")
    con.execute("DROP INDEX runs_content_hash")     # as version 3 had it
    con.execute("UPDATE runs SET content_hash = 'v3'")
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()
    p = run(["report", "--csv", "--threads", "--db", db], check=0)
    assert "migrated from version 3 to 9" in p.stderr
    t = by_thread(csv.DictReader(io.StringIO(p.stdout)))
    assert t["1"]["p99.9_ns"] == ">=60000" and t["1"]["p99.99_ns"] == ""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT thread, p99_9_ns, p99_99_ns, pct_lower_bounds"
                       " FROM series ORDER BY thread").fetchall()
    con.close()
    assert rows == [(-1, 60000, 60000, "p99.9 p99.99"), (0, 60000, None, "p99.9"),
                    (1, 60000, None, "p99 p99.9")]
    assert "0 runs added, 1 already there" in \
        run(["db", "add", "--db", db, CT_60], check=0).stderr


def test_text_table_reads_the_bound_back(tmp_path):
    back = tmp_path / "back.txt"
    back.write_text(run(["report", CT_60], check=0).stdout)
    r = csv_rows(back)[0]
    assert r["p99.9_ns"] == ">=60000" and r["max_ns"] == "439000"


# ---- cruncher and handshake: their series' words ----

def test_cruncher_deviation_table():
    """The deviation of 88 computations: dev columns, the ideal time, no
    overrun column, p99.9 n/a (88 < 1000 samples), not the max."""
    src = json.loads(CRUNCH.read_text())
    dev = src["summary"]["deviation"]
    assert dev["samples"] == 88 and dev["percentiles_ns"]["p99.9"] == dev["max_ns"]
    text = run(["report", "--unit", "ns", CRUNCH], check=0).stdout
    tables = text.split("\n\n")
    sleep = [t for t in tables if t.startswith("CRUNCHER SLEEP without load (ns):")][0]
    devt = [t for t in tables if t.startswith("CRUNCHER DEVIATION without load (ns):")][0]
    assert sleep.splitlines()[1].endswith(
        "|---sleep min|---sleep avg|---sleep max|-------p99.9|---test-time")
    assert devt.splitlines()[1].endswith(
        "|-----dev min|-----dev avg|-----dev max|-------p99.9|---test-time|-------ideal")
    assert "lat " not in text and "overrun" not in text
    cells = [c.strip() for c in devt.splitlines()[2].split("|")]
    assert cells[1:] == [str(dev["min_ns"]), str(round(dev["avg_ns"])),
                         str(dev["max_ns"]), "n/a", "00:00:01",
                         str(src["test_data"]["ideal_ns"])]
    assert "# p99.9 n/a: fewer than 1000 samples" in devt
    r = {x["series"]: x for x in csv_rows(CRUNCH) if x["thread"] == "all"}
    assert r["deviation"]["miss_kind"] == "" and r["deviation"]["misses"] == ""
    assert r["deviation"]["p99.9_ns"] == "" and r["deviation"]["p50_ns"] != ""


def renamed(tmp_path, name, test, declare=False, **test_data):
    """CRUNCH as the result of test @test (its name unknown to the
    report), declaring what the cruncher declares (@declare), with
    @test_data added."""
    d = json.loads(CRUNCH.read_text())
    assert "counts_misses" not in json.dumps(d)      # written before
    d["test"] = test
    if declare:
        for s in d["summary"].values():
            s["counts_misses"] = False
        d["summary"]["deviation"]["reference"] = "ideal_ns"
    d["test_data"].update(test_data)
    p = tmp_path / name
    p.write_text(json.dumps(d))
    return p


def test_report_reads_what_a_test_declares(tmp_path):
    """The report knows no test by name: a test "nap" that declares what
    the cruncher declares ("counts_misses": false, "reference") gets the
    cruncher's tables (no miss column, the ideal); the same file without
    the declarations gets a miss column and no ideal."""
    decl = renamed(tmp_path, "decl.json", "nap", declare=True)
    text = run(["report", "--unit", "ns", decl], check=0).stdout
    devt = [t for t in text.split("\n\n")
            if t.startswith("NAP DEVIATION without load (ns):")][0]
    assert devt.splitlines()[1].endswith(
        "|-----dev min|-----dev avg|-----dev max|-------p99.9|---test-time|-------ideal")
    assert "overrun" not in text
    src = json.loads(CRUNCH.read_text())
    assert devt.splitlines()[2].split("|")[-1].strip() == \
        str(src["test_data"]["ideal_ns"])
    r = {x["series"]: x for x in csv_rows(decl) if x["thread"] == "all"}
    assert r["deviation"]["miss_kind"] == "" and r["deviation"]["misses"] == ""
    assert r["deviation"]["ideal_ns"] == str(src["test_data"]["ideal_ns"])
    undecl = renamed(tmp_path, "undecl.json", "nap")
    text = run(["report", "--unit", "ns", undecl], check=0).stdout
    devt = [t for t in text.split("\n\n")
            if t.startswith("NAP DEVIATION without load (ns):")][0]
    assert "|-overrun|" in devt.splitlines()[1]
    assert "ideal" not in devt


def test_compare_reads_what_a_test_declares(tmp_path):
    """compare has a miss row for a series that counts misses, none for
    one that declares it has nothing to miss, whatever the test's name."""
    a = renamed(tmp_path, "a.json", "nap", declare=True)
    b = renamed(tmp_path, "b.json", "nap", declare=True)
    text = run(["compare", a, b], check=0).stdout
    assert "overrun" not in text
    a = renamed(tmp_path, "a2.json", "nap")
    b = renamed(tmp_path, "b2.json", "nap")
    text = run(["compare", a, b], check=0).stdout
    assert "overrun" in text


def test_test_data_figures_checked_by_name(tmp_path):
    """test_data's figures the tables show are checked by their names,
    whichever test wrote them; an object of counts ("events", irq's) is
    no such figure."""
    bad = renamed(tmp_path, "bad.json", "nap", noise_pct=150.0)
    p = run(["report", bad], check=None)
    assert p.returncode == 1
    assert "'test_data.noise_pct' out of range (150; allowed 0 to 100)" \
        in p.stderr
    ok = renamed(tmp_path, "ok.json", "nap", events={"a": 1})
    p = run(["report", ok], check=0)
    assert "NAP DEVIATION" in p.stdout


def test_handshake_tables_and_labels():
    text = run(["report", HANDSHAKE], check=0).stdout
    for title, word in (("HANDSHAKE A->B", "a->b"), ("HANDSHAKE B->A", "b->a"),
                        ("HANDSHAKE ROUND TRIP", "rtt")):
        t = [x for x in text.split("\n\n") if x.startswith(title + " without load (us):")][0]
        head = t.splitlines()[1]
        assert "-%s min|" % word in head and "-%s max|" % word in head and "|----lost|" in head
        # one row per table: named after the file, no "#k"
        assert t.splitlines()[2].startswith("suite-vm-05-handshake-none|")
    src = json.loads(HANDSHAKE.read_text())["summary"]["round_trip"]
    r = [x for x in csv_rows(HANDSHAKE) if x["series"] == "round_trip"][0]
    assert int(r["p99.9_ns"]) == src["percentiles_ns"]["p99.9"]      # 1000 samples


def test_suite_tables_read_back(tmp_path):
    """rtlat report's cruncher and handshake text tables read back with
    their series."""
    back = tmp_path / "back.txt"
    back.write_text(run(["report", CRUNCH, HANDSHAKE], check=0).stdout)
    rs = csv_rows(back)
    assert [(r["test"], r["series"]) for r in rs] == [
        ("cruncher", "sleep"), ("cruncher", "deviation"), ("handshake", "a_to_b"),
        ("handshake", "b_to_a"), ("handshake", "round_trip")]
    dev = json.loads(CRUNCH.read_text())["summary"]["deviation"]
    assert int(rs[1]["max_ns"]) == dev["max_ns"] and rs[1]["ideal_ns"] == "10000000"
