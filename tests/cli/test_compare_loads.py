# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat compare: tables matched by test kind and load; a test kind whose
tables share no load on the two sides is compared across loads (without
load against with load, the obvious question), titled with both; a table
with nothing to compare is one line."""
import csv
import io
import json
import re
import shutil

from conftest import FIXTURES, ROOT, run

OWN = ROOT / "tests" / "fixtures" / "report"
NONE = OWN / "suite-vm-01-latency-none.json"
HELL = OWN / "suite-vm-02-latency-hell.json"
SUITE = sorted(OWN.glob("suite-vm-*.json"))
SEED = FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"


def summary(path, series="latency"):
    return json.loads(path.read_text())["summary"][series]


def us(ns):
    """A figure as compare shows it by default: us, 3 decimals."""
    return "%.3f" % (ns / 1000)


def csv_cmp(*args, check=0):
    p = run(["compare", "--csv"] + [str(a) for a in args], check=check)
    return list(csv.DictReader(io.StringIO(p.stdout))), p


def test_suite_files_without_against_with_load():
    """01-latency-none.json against 02-latency-hell.json of one suite."""
    p = run(["compare", NONE, HELL], check=0)
    # what changed in the system comes first: here the load
    assert p.stdout.splitlines()[0] == "system: load: none -> hell"
    first = [l for l in p.stdout.splitlines()
             if l and not l.startswith("system: ")][0]
    assert first == ("LATENCY: without load (A) vs with load hell (B) (us): "
                     "A = suite-vm-01-latency-none, B = suite-vm-02-latency-hell")
    a, b = summary(NONE), summary(HELL)
    mx = [l for l in p.stdout.splitlines() if l.startswith("lat max")][0]
    cells = [c.strip() for c in mx.split("|")]
    assert cells[1:4] == [us(a["max_ns"]), us(b["max_ns"]),
                          "+" + us(b["max_ns"] - a["max_ns"])]
    ov = [l for l in p.stdout.splitlines() if l.startswith("overrun")][0]
    assert [c.strip() for c in ov.split("|")][1:3] == [str(a["overruns"]),
                                                       str(b["overruns"])]
    rs, _ = csv_cmp(NONE, HELL)
    assert {r["table"] for r in rs} == {"LATENCY: without load (A) vs with load hell (B)"}


def test_selectors_over_the_history(tmp_path):
    """compare --db my.db load=none load=hell: each test kind across loads;
    the handshake, without load only, is noted as only in A."""
    db = tmp_path / "my.db"
    run(["db", "add", "--db", db] + SUITE, check=0)
    p = run(["compare", "--db", db, "load=none", "load=hell"], check=0)
    titles = re.findall(r"^(\S.*?) \(us\): A = ", p.stdout, re.M)
    assert titles == ["LATENCY: without load (A) vs with load hell (B)",
                      "CRUNCHER SLEEP: without load (A) vs with load hell (B)",
                      "CRUNCHER DEVIATION: without load (A) vs with load hell (B)"]
    assert "only in A: HANDSHAKE A->B without load" in p.stderr
    assert "have no table" not in p.stderr
    dev = p.stdout.split("CRUNCHER DEVIATION")[1]
    names = [l.split("|")[0].strip() for l in dev.splitlines()[2:]]
    assert names == ["dev min", "dev avg", "dev max", "p99.9"]     # no overrun
    a = summary(OWN / "suite-vm-07-cruncher-none.json", "deviation")
    b = summary(OWN / "suite-vm-08-cruncher-hell.json", "deviation")
    row = [l for l in dev.splitlines() if l.startswith("dev min")][0]
    assert [c.strip() for c in row.split("|")][1:3] == [us(a["min_ns"]), us(b["min_ns"])]


def test_exact_match_kept_when_possible(tmp_path):
    """Two suites with both loads: none with none, hell with hell. A side
    without one load: only the load in common, the other noted."""
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for d, files in ((a, (NONE, HELL)), (b, (NONE, HELL)), (c, (HELL,))):
        d.mkdir()
        for f in files:
            shutil.copy(f, d)
    rs, _ = csv_cmp(a, b)
    assert sorted({r["table"] for r in rs}) == ["LATENCY with load hell",
                                                "LATENCY without load"]
    rs, p = csv_cmp(a, c)
    assert {r["table"] for r in rs} == {"LATENCY with load hell"}
    assert "only in A: LATENCY without load" in p.stderr


def test_no_test_kind_in_common():
    p = run(["compare", FIXTURES / "oslat" / "oslat-1cpu.txt", NONE], check=1)
    assert "no table in common: no test kind (and series) is on both sides" in p.stderr


def test_help_says_how_tables_are_matched():
    h = run(["compare", "--help"], check=0).stdout
    flat = " ".join(h.split())
    assert "matched by test kind (and series) and load" in flat
    assert "compared across loads" in flat
    assert '"LATENCY: without load (A) vs with load hell (B)"' in flat
    man = (ROOT / "man" / "rtlat-compare.1").read_text()
    assert "compared across loads" in " ".join(man.split())


def test_nothing_to_compare_is_one_line():
    """The 2005 summary's cruncher table has ideal times only."""
    p = run(["compare", SEED], check=0)
    lines = [l for l in p.stdout.splitlines() if l.startswith("CRUNCHER")]
    assert lines == ["CRUNCHER without load (us): A = TQM860L, B = TQM866L and 3 more "
                     "runs: nothing to compare (no figure known on both sides)"]
    after = p.stdout.split(lines[0])[1].splitlines()
    assert after[:2] == ["", ""] and after[2].startswith("SWITCH without load")
    rs, p = csv_cmp(SEED)
    assert not [r for r in rs if r["table"].startswith("CRUNCHER")]
    assert "nothing to compare" in p.stderr
    md = run(["compare", "--markdown", SEED], check=0).stdout
    assert "A = TQM860L, B = TQM866L and 3 more runs: nothing to compare" in md
    assert "| lat min | n/a | n/a |" not in md


def test_section_compared_within_itself():
    """The summary's 'KLATENCY comparison Xenomai 2.0 vs. RTAI/RTHAL 3.0r5'
    table is compared as its author did, apart from the per-board table."""
    p = run(["compare", SEED], check=0)
    heads = re.findall(r"^KLATENCY.*$", p.stdout, re.M)
    assert "KLATENCY with load [KLATENCY comparison Xenomai 2.0 vs. RTAI/RTHAL 3.0r5 " \
        "on TQM860L] (us): A = Xenomai 2.0, B = RTAI 3.0r5" in heads
    assert not [h for h in heads if "A = TQM860L" in h and "Xenomai 2.0" in h]
    assert len(heads) == 5      # TQM860L vs 4 boards, and the section's pair


def _no_samples(src, dst):
    """@src as a run interrupted before its first sample (what rtlat
    writes for a Ctrl-C in the warm-up): 0 samples, 0 overruns, no
    figures."""
    d = json.loads(src.read_text())
    d["status"] = "interrupted"
    empty = {"samples": 0, "overruns": 0, "min_ns": None, "avg_ns": None,
             "max_ns": None, "stddev_ns": None, "max_cycle": None,
             "percentiles_ns": {k: None for k in
                                d["summary"]["latency"]["percentiles_ns"]}}
    d["summary"]["latency"] = dict(empty)
    for t in d["threads"]:
        t["series"]["latency"] = dict(empty)
    dst.write_text(json.dumps(d))
    return dst


def test_side_without_samples_is_not_scored(tmp_path):
    """An interrupted run with 0 samples is no data: its 0 overruns are not
    compared with the other side's ("overrun 329 | 0 | -100.0 % | beyond
    noise: yes" was the bug); the comparison says which side has none."""
    empty = _no_samples(HELL, tmp_path / "empty.json")
    p = run(["compare", HELL, empty], check=0)
    assert p.stdout.splitlines() == [
        "LATENCY with load hell (us): A = suite-vm-02-latency-hell, B = empty: "
        "nothing to compare (B has no samples: interrupted)"]
    assert "beyond" not in p.stdout and "-100.0" not in p.stdout
    p = run(["compare", empty, HELL], check=0)
    assert "nothing to compare (A has no samples: interrupted)" in p.stdout
    rs, p = csv_cmp(HELL, empty, check=0)
    assert rs == []
    assert "nothing to compare (B has no samples: interrupted)" in p.stderr
    p = run(["compare", "--markdown", HELL, empty], check=0)
    assert "nothing to compare (B has no samples: interrupted)" in p.stdout
    # in a side of several runs, the run without samples counts for nothing
    side = tmp_path / "side"
    side.mkdir()
    shutil.copy(HELL, side / "a.json")
    _no_samples(HELL, side / "b.json")
    rs, _ = csv_cmp(HELL, side)
    ov = [r for r in rs if r["metric"] == "overrun"][0]
    assert ov["a_value"] == ov["b_value"] == "%.1f" % summary(HELL)["overruns"]
    assert ov["beyond_noise"] == "no"
