# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat report, compare and db: every fixture imports with the figures the
file itself states, comparisons, the history database, the HTML page."""
import csv
import io
import json
import os
import pathlib
import re
import shutil
import sqlite3
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest

from conftest import FIXTURES, ROOT, RTLAT, check_layout, needs_root, run, sqlite_only

OWN = ROOT / "tests" / "fixtures" / "report"
RTLAT_JSON = OWN / "rtlat-2cpu.json"


def rows(*args, check=0, env=None):
    """rtlat report --csv --threads ARGS -> list of dict rows."""
    p = run(["report", "--csv", "--threads"] + list(args), check=check, env=env)
    return list(csv.DictReader(io.StringIO(p.stdout)))


# samples a percentile needs to differ from the maximum
PCT_SAMPLES = {"p50": 2, "p90": 10, "p99": 100, "p99.9": 1000, "p99.99": 10**4,
               "p99.999": 10**5, "p99.9999": 10**6}


def by_thread(rs):
    return {r["thread"]: r for r in rs}


def ns(v):
    return None if v == "" else float(v)


def stated(path, key):
    """Values of a cyclictest '# KEY:' footer line, per thread, in us."""
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith("# %s:" % key):
            vals = []
            for tok in line.split(":", 1)[1].split():
                if not tok.isdigit():
                    break
                vals.append(int(tok))
            return vals
    raise AssertionError("no %s line in %s" % (key, path))


# ---- each fixture imports with the figures it states ----

@pytest.mark.parametrize("name", ["histogram-60us-overflows.txt",
                                  "histogram-riscv-2threads-annotated.txt"])
def test_cyclictest_histogram(name):
    path = FIXTURES / "cyclictest" / name
    t = by_thread(rows(path))
    for key, col in (("Max Latencies", "max_ns"), ("Min Latencies", "min_ns"),
                     ("Avg Latencies", "avg_ns")):
        for i, v in enumerate(stated(path, key)):
            assert ns(t[str(i)][col]) == v * 1000, (key, i)
    assert ns(t["all"]["max_ns"]) == max(stated(path, "Max Latencies")) * 1000
    text = path.read_text()
    if "# Total:" in text:
        totals = stated(path, "Total")
        ovf = stated(path, "Histogram Overflows")
        for i in range(len(totals)):
            assert int(t[str(i)]["samples"]) == totals[i] + ovf[i]
    else:       # the T: lines say how many cycles
        cycles = [int(m) for m in re.findall(r"C:\s*(\d+)", text)]
        assert [int(t[str(i)]["samples"]) for i in range(2)] == cycles
    # percentiles come from the histogram and stay within min..max; one
    # whose rank is in the overflow is a lower bound, the histogram's limit
    # (60 us here), never the max
    limit = {"histogram-60us-overflows.txt": 60000}.get(name)
    for i in ("0", "1"):
        p = t[i]["p99.9_ns"]
        if limit:
            assert p == ">=%d" % limit, (i, p)
        else:
            assert ns(t[i]["min_ns"]) <= ns(p) <= ns(t[i]["max_ns"])


def test_cyclictest_quiet():
    path = FIXTURES / "cyclictest" / "quiet-2threads.txt"
    t = by_thread(rows(path))
    for m in re.finditer(r"T: (\d+) .*C:\s*(\d+) Min:\s*(\d+).*Avg:\s*(\d+) Max:\s*(\d+)",
                         path.read_text()):
        th = t[m.group(1)]
        assert int(th["samples"]) == int(m.group(2))
        assert ns(th["min_ns"]) == int(m.group(3)) * 1000
        assert ns(th["avg_ns"]) == int(m.group(4)) * 1000
        assert ns(th["max_ns"]) == int(m.group(5)) * 1000
    assert t["all"]["duration_ns"] == "3000000000"     # C x I of each thread


def test_cyclictest_refreshed_ansi():
    """Without -q: the last refresh of each thread, ANSI codes removed."""
    t = by_thread(rows(OWN / "cyclictest-refresh-ansi.txt"))
    last = {}
    for line in (OWN / "cyclictest-refresh-ansi.txt").read_text().split("\n"):
        m = re.search(r"T: (\d+) .*C:\s*(\d+) .*Max:\s*(\d+)", line)
        if m:
            last[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    assert last
    for th, (c, mx) in last.items():
        assert int(t[th]["samples"]) == c
        assert ns(t[th]["max_ns"]) == mx * 1000


@pytest.mark.parametrize("name", ["json-1thread.json", "json-2threads-histogram.json"])
def test_cyclictest_json(name):
    path = FIXTURES / "cyclictest" / name
    src = json.loads(path.read_text())
    t = by_thread(rows(path))
    for k, th in src["thread"].items():
        assert int(t[k]["samples"]) == th["cycles"]
        assert ns(t[k]["max_ns"]) == th["max"] * 1000
        assert ns(t[k]["min_ns"]) == th["min"] * 1000
        assert abs(ns(t[k]["avg_ns"]) - th["avg"] * 1000) < 0.1
    assert t["all"]["tool"] == "cyclictest 2.40"
    assert t["all"]["kernel"] == src["sysinfo"]["release"]


def test_cyclictest_json_nan_average(tmp_path):
    """A thread without cycles has avg -nan in cyclictest: read as n/a."""
    src = (FIXTURES / "cyclictest" / "json-1thread.json").read_text()
    bad = tmp_path / "nan.json"
    bad.write_text(src.replace('"cycles": 4993', '"cycles": 0')
                   .replace('"avg": 16.49', '"avg": -nan'))
    p = run(["report", "--csv", bad], check=0)
    r = list(csv.DictReader(io.StringIO(p.stdout)))[0]
    assert r["samples"] == "0" and r["avg_ns"] == "" and r["max_ns"] == ""
    assert "NaN" in p.stderr


def test_jitterdebugger():
    path = FIXTURES / "jitterdebugger" / "results.json"
    src = json.loads(path.read_text())
    t = by_thread(rows(path))
    for i, (cpu, c) in enumerate(src["cpu"].items()):
        r = t[str(i)]
        assert r["cpu"] == cpu
        assert int(r["samples"]) == c["count"]
        assert ns(r["max_ns"]) == c["max"] * 1000
        assert ns(r["min_ns"]) == c["min"] * 1000
        assert abs(ns(r["avg_ns"]) - c["avg"] * 1000) < 0.1


def test_oslat_json():
    path = FIXTURES / "oslat" / "oslat-1cpu.json"
    th = json.loads(path.read_text())["thread"]["0"]
    r = by_thread(rows(path))["all"]
    assert ns(r["max_ns"]) == th["max"] * 1000
    assert ns(r["min_ns"]) == th["min"] * 1000
    assert int(r["samples"]) == sum(th["histogram"].values())
    assert r["test"] == "oslat"


def test_oslat_text():
    path = FIXTURES / "oslat" / "oslat-1cpu.txt"
    text = path.read_text()
    r = by_thread(rows(path))["all"]
    assert ns(r["max_ns"]) == int(re.search(r"Maximum:\s*(\d+)", text).group(1)) * 1000
    assert ns(r["min_ns"]) == int(re.search(r"Minimum:\s*(\d+)", text).group(1)) * 1000
    assert ns(r["avg_ns"]) == 1001
    buckets = [int(m) for m in re.findall(r"\(us\):\s*(\d+)", text)]
    assert int(r["samples"]) == sum(buckets)


def test_rtai():
    path = FIXTURES / "rtai" / "kern-latency-display.log"
    rtd = [[int(x) for x in l.split("|")[1:]]
           for l in path.read_text().splitlines() if l.startswith("RTD|")]
    r = by_thread(rows(path))["all"]
    # the overall columns of the last line are the run's extremes
    assert ns(r["min_ns"]) == rtd[-1][1] == -35400
    assert ns(r["max_ns"]) == rtd[-1][4] == 63125
    assert r["misses"] == "0" and r["miss_kind"] == "overruns"
    assert r["test"] == "klatency"
    assert r["duration_ns"] == str(len(rtd) * 10**9)


def test_xenomai_3_us_log():
    path = FIXTURES / "xenomai" / "latency-3.2-vm-overruns.log"
    p = run(["report", "--csv", path], check=0)
    r = list(csv.DictReader(io.StringIO(p.stdout)))[0]
    # RTS|      1.175|      2.955|    374.075|      40|     0|    00:01:00/00:01:00
    assert (r["min_ns"], r["max_ns"], r["misses"]) == ("1175", "374075", "40")
    assert ns(r["avg_ns"]) == 2955
    assert r["duration_ns"] == "60000000000"
    assert r["samples"] == "599943"         # HSS avg line
    # the one garbled RTD line in the published log is skipped, by line number
    assert re.search(r"latency-3.2-vm-overruns.log:45: unreadable RTD line", p.stderr)


def test_seed_summary_ocotea_rows():
    path = FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"
    oc = [r for r in rows(path) if r["label"] == "Ocotea"]
    got = {r["test"]: r for r in oc}
    assert (got["switch"]["min_ns"], got["switch"]["max_ns"], got["switch"]["misses"],
            got["switch"]["miss_kind"]) == ("5158", "10038", "0", "lost")
    assert ns(got["switch"]["avg_ns"]) == 5169
    for kind in ("klatency", "latency"):
        assert (got[kind]["min_ns"], got[kind]["max_ns"]) == ("3575", "24474")
        assert ns(got[kind]["avg_ns"]) == 7438
        assert got[kind]["duration_ns"] == str((10 * 60 + 50) * 10**9)
        assert got[kind]["load"] == "unnamed"
    assert got["switch"]["load"] == "none"
    assert got["cruncher"]["ideal_ns"] == "9479000"
    assert got["switch"]["board"] == "Ocotea"
    rtai = [r for r in rows(path) if r["label"] == "RTAI 3.0r5"][0]
    assert rtai["misses"] == ""             # "?" is unknown, not 0


def test_seed_summary_table_style():
    p = run(["report", FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"], check=0)
    # us by default, as the summary itself and rtlat suite
    assert "LATENCY with load (us):\n" in p.stdout
    assert "SWITCH without load (us):\n" in p.stdout
    assert re.search(r"^run +\|-+lat min\|-+lat avg\|-+lat max\|-+overrun\|-+p99\.9\|-+test-time$",
                     p.stdout, re.M)
    assert re.search(r"^Ocotea +\| +3\.575\| +7\.438\| +24\.474\| +0\| +n/a\| +00:10:50$",
                     p.stdout, re.M)
    p = run(["report", "--unit", "ns", FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"], check=0)
    assert "LATENCY with load (ns):\n" in p.stdout
    assert re.search(r"^Ocotea +\| +3575\| +7438\| +24474\| +0\| +n/a\| +00:10:50$",
                     p.stdout, re.M)


SECTION = "KLATENCY comparison Xenomai 2.0 vs. RTAI/RTHAL 3.0r5 on TQM860L"


def test_seed_summary_section_kept_apart(db, tmp_path):
    """The summary ends with its own titled part, a 'KLATENCY with load'
    table of Xenomai 2.0 against RTAI 3.0r5 on the TQM860L: a table of its
    own, not two more rows of the per-board klatency table."""
    path = FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"
    text = run(["report", path], check=0).stdout
    tables = text.split("\n\n")
    kl = [t for t in tables if t.startswith("KLATENCY with load (us):")]
    assert len(kl) == 1
    assert [l.split("|")[0].strip() for l in kl[0].splitlines()[2:]] == [
        "TQM860L", "TQM866L", "Walnut", "Yosemite", "Ocotea"]
    sec = [t for t in tables if t.startswith(SECTION)]
    assert len(sec) == 1
    lines = sec[0].splitlines()
    assert lines[1] == "-" * len(SECTION) and lines[2] == "KLATENCY with load (us):"
    assert [l.split("|")[0].strip() for l in lines[4:]] == ["Xenomai 2.0", "RTAI 3.0r5"]
    assert re.search(r"^RTAI 3\.0r5 +\| +23\.120\| +31\.838\| +70\.520\| +n/a\| +n/a\| +00:12:26$",
                     sec[0], re.M)
    rs = rows(path)
    assert {r["label"]: r["section"] for r in rs if r["test"] == "klatency"} == {
        "TQM860L": "", "TQM866L": "", "Walnut": "", "Yosemite": "", "Ocotea": "",
        "Xenomai 2.0": SECTION, "RTAI 3.0r5": SECTION}
    md = run(["report", "--markdown", path], check=0).stdout
    assert "### KLATENCY with load \\[%s] (values in us)" % SECTION in md
    # the text reads back with its section; the history keeps it
    back = tmp_path / "back.txt"
    back.write_text(text)
    assert run(["report", back], check=0).stdout == text
    run(["db", "add", "--db", db, path], check=0)
    assert rows("--db", db) == rs


def test_ocotea_log_rows():
    path = FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"
    rs = rows(path)
    got = {(r["test"], r["label"]): r for r in rs}
    assert got[("switch", "iPipe 1.0-00")]["max_ns"] == "10038"
    assert got[("switch", "iPipe 1.0-01")]["max_ns"] == "10166"
    assert got[("klatency", "1.0-01")]["max_ns"] == "20705"
    assert ns(got[("latency", "1.0-00")]["avg_ns"]) == 7438
    assert ns(got[("latency", "1.0-01")]["avg_ns"]) == 10125
    assert got[("latency", "1.0-01")]["duration_ns"] == str((9 * 60 + 41) * 10**9)


def test_rtlat_result():
    src = json.loads(RTLAT_JSON.read_text())
    t = by_thread(rows(RTLAT_JSON))
    s = src["summary"]["latency"]
    assert int(t["all"]["samples"]) == s["samples"]
    assert int(t["all"]["min_ns"]) == s["min_ns"]
    assert int(t["all"]["max_ns"]) == s["max_ns"]
    assert int(t["all"]["misses"]) == s["overruns"]
    for k, v in s["percentiles_ns"].items():
        # a percentile the samples cannot tell from the max is n/a
        if s["samples"] >= PCT_SAMPLES[k]:
            assert int(t["all"][k + "_ns"]) == v
        else:
            assert t["all"][k + "_ns"] == "", k
    for th in src["threads"]:
        r = t[str(th["id"])]
        assert int(r["max_ns"]) == th["series"]["latency"]["max_ns"]
        assert int(r["cpu"]) == th["cpu"]


def test_rtlat_text_output():
    """rtlat latency's own stdout (RTD/RTS/RTP lines) reads back too."""
    t = by_thread(rows(OWN / "rtlat-2cpu.txt"))
    src = json.loads(RTLAT_JSON.read_text())["summary"]["latency"]
    assert int(t["all"]["max_ns"]) == src["max_ns"]
    assert int(t["all"]["p99.9_ns"]) == src["percentiles_ns"]["p99.9"]
    assert t["all"]["tool"] == "rtlat (text output)"
    assert {t["0"]["cpu"], t["1"]["cpu"]} == {"0", "1"}


def test_rtlat_trace_text_output():
    """rtlat latency --trace's stdout: the four trace columns line up with
    their RTH heads, and the "cpu N" label after them still makes the
    per-CPU RTS lines threads of one run (not three runs)."""
    path = OWN / "rtlat-trace-2cpu.txt"
    assert check_layout(path.read_text()) == 3 + 3 + 1
    t = by_thread(rows(path))
    assert set(t) == {"all", "0", "1"}
    assert {t["0"]["cpu"], t["1"]["cpu"]} == {"0", "1"}
    assert (t["all"]["max_ns"], t["all"]["misses"]) == ("8672938", "331")
    assert t["0"]["max_ns"] == "1314044"
    assert t["all"]["p99.9_ns"] == "127487"


def test_rtlat_several_series_text_output():
    """handshake and cruncher text output: each series' RTS line under its
    own named "---|" line reads as one run named after the series, with
    the lost count of handshake; cruncher's RTS lines have no miss column
    (nothing is ever missed there) and read without one."""
    hs = OWN / "rtlat-handshake.txt"
    cr = OWN / "rtlat-cruncher-2cpu.txt"
    assert check_layout(hs.read_text()) == 2 + 3 * (3 + 1 + 1)
    assert check_layout(cr.read_text()) == 2 + 2 * (3 + 1)
    r = {x["label"]: x for x in rows(hs)}
    assert set(r) == {"a_to_b", "b_to_a", "round_trip"}
    assert [(r[k]["min_ns"], r[k]["max_ns"], r[k]["miss_kind"],
             r[k]["misses"], r[k]["samples"]) for k in sorted(r)] == [
        ("1700", "114973", "lost", "0", "1996"),
        ("1469", "16274", "lost", "0", "1996"),
        ("3245", "118105", "lost", "0", "1996")]
    r = {x["label"]: x for x in rows(cr)}
    assert (r["deviation"]["min_ns"], r["deviation"]["max_ns"]) == \
        ("-58721", "1029048")
    assert r["sleep"]["p99.9_ns"] == "155647"
    assert all(x["miss_kind"] == "" and x["misses"] == "" for x in r.values())


def test_forced_format_and_detection_errors(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("just some notes\nnothing to see\n")
    p = run(["report", f], check=1)
    assert str(f) in p.stderr and "format not recognized" in p.stderr
    p = run(["report", "--format", "oslat", FIXTURES / "rtai" / "kern-latency-display.log"],
            check=1)
    assert "kern-latency-display.log" in p.stderr
    p = run(["report", "--format", "nosuch", f], check=1)
    assert "--format" in p.stderr


def test_bad_file_does_not_stop_the_others(tmp_path):
    bad = tmp_path / "trunc.json"
    bad.write_text(RTLAT_JSON.read_text()[:500])
    p = run(["report", FIXTURES / "cyclictest" / "quiet-2threads.txt", bad,
             tmp_path / "missing.log"], check=1)
    assert "quiet-2threads" in p.stdout
    assert "trunc.json" in p.stderr and "truncated" in p.stderr
    assert "missing.log" in p.stderr


def test_option_after_files_works():
    p = run(["report", FIXTURES / "cyclictest" / "quiet-2threads.txt", "--csv"], check=0)
    assert p.stdout.startswith("test,series,load,label,")


def test_output_styles():
    path = FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"
    md = run(["report", "--markdown", path], check=0).stdout
    assert "### LATENCY with load (values in us)" in md
    assert "| 1.0-00 | 3.575 | 7.438 | 24.474 | 0 | n/a | 00:10:50 |" in md
    md = run(["report", "--markdown", "--unit", "ns", path], check=0).stdout
    assert "### LATENCY with load (values in ns)" in md
    assert "| 1.0-00 | 3575 | 7438 | 24474 | 0 | n/a | 00:10:50 |" in md
    us = run(["report", path], check=0).stdout
    assert run(["report", "--unit", "us", path], check=0).stdout == us
    assert "LATENCY with load (us):" in us and "7.438" in us and "24.474" in us
    # a text table reads back as the same runs
    back = subprocess.run([RTLAT, "report", "--csv", "/dev/stdin"], input=us,
                          capture_output=True, text=True)
    assert back.returncode == 0, back.stderr
    got = {(r["test"], r["label"]): r for r in csv.DictReader(io.StringIO(back.stdout))}
    assert ns(got[("latency", "1.0-01")]["avg_ns"]) == 10125


def test_filters():
    path = FIXTURES / "seed" / "xenomai-latencies-ppc-summary.log"
    rs = rows("--label", "Ocotea", "--test", "*latency", path)
    assert sorted(r["test"] for r in rs) == ["klatency", "latency"]
    rs = rows("--load", "none", path)
    assert {r["test"] for r in rs} == {"switch", "cruncher"}
    p = run(["report", "--label", "nomatch", path], check=1)
    assert "no run matches" in p.stderr


def test_suite_directory(tmp_path):
    d = tmp_path / "suite"
    d.mkdir()
    shutil.copy(RTLAT_JSON, d / "latency-none.json")
    (d / "suite.json").write_text(json.dumps({"label": "Ocotea iPipe 1.0-01"}))
    (d / "report.txt").write_text("free text the suite printed\n")
    p = run(["report", "--csv", d], check=0)
    r = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(r) == 1 and r[0]["label"] == "Ocotea iPipe 1.0-01"
    assert "report.txt: skipped" in p.stderr


# ---- compare ----

def test_compare_ocotea_as_drawn_by_hand():
    """1.0-00 vs 1.0-01 for switch, klatency and latency; e.g. latency avg
    7438 -> 10125 ns is +36 %, beyond the noise; the maxima are not."""
    p = run(["compare", "--unit", "ns", FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"], check=0)
    out = p.stdout
    assert "SWITCH without load (ns): A = iPipe 1.0-00, B = iPipe 1.0-01" in out
    assert "KLATENCY with load (ns): A = 1.0-00, B = 1.0-01" in out
    assert "LATENCY with load (ns): A = 1.0-00, B = 1.0-01" in out
    lat = out.split("\nLATENCY with load")[1]
    assert re.search(r"lat avg +\| +7438\| +10125\| +\+2687\| +\+36\.1 %\|.*\| +yes", lat)
    assert re.search(r"lat max +\| +24474\| +23970\| +-504\| +-2\.1 %\|.*\| +no", lat)
    kl = out.split("KLATENCY with load")[1].split("\n\n")[0]
    assert re.search(r"lat avg +\| +5974\| +8705\| +\+2731\| +\+45\.7 %\|.*yes", kl)
    sw = out.split("SWITCH without load")[1].split("\n\n")[0]
    assert "yes" not in sw
    # by default in us, as the tables
    out = run(["compare", FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"], check=0).stdout
    assert "LATENCY with load (us): A = 1.0-00, B = 1.0-01" in out
    lat = out.split("\nLATENCY with load")[1]
    assert re.search(r"lat avg +\| +7\.438\| +10\.125\| +\+2\.687\| +\+36\.1 %\|.*\| +yes", lat)


def test_compare_selectors_and_csv():
    path = FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"
    p = run(["compare", "--csv", path, "label=*1.0-00", "label=*1.0-01"], check=0)
    rs = list(csv.DictReader(io.StringIO(p.stdout)))
    avg = [r for r in rs if r["table"] == "LATENCY with load" and r["metric"] == "lat avg"][0]
    assert (avg["a_value"], avg["b_value"]) == ("7438.0", "10125.0")
    assert float(avg["change_pct"]) == pytest.approx(36.13, abs=0.01)
    assert avg["beyond_noise"] == "yes" and avg["noise_from"] == "rule"
    assert len({r["table"] for r in rs}) == 3


def test_compare_two_files_with_intervals(tmp_path):
    """Interval series give the noise (RTD lines of a Xenomai log)."""
    a = FIXTURES / "xenomai" / "latency-3.2-vm-overruns.log"
    b = tmp_path / "b.log"
    b.write_text(a.read_text().replace("374.075", "474.075"))
    p = run(["compare", "--csv", a, b], check=0)
    m = {r["metric"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    # the interval maxima are block maxima: their law (verdict.c) at B's
    # exposure; +100 us in 9..374 us swings is the same
    assert m["lat max"]["noise_from"] == "blocks"
    assert m["lat max"]["beyond_noise"] == "no"     # +100 us in 9..374 us swings
    assert m["lat max"]["verdict"] == "same"
    assert float(m["lat max"]["delta"]) == 100000


def test_compare_usage_errors():
    path = FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"
    assert "two" in run(["compare", path, "label=x"], check=1).stderr
    assert "picks no run" in run(["compare", path, "label=x", "label=y"], check=1).stderr
    p = run(["compare", FIXTURES / "oslat" / "oslat-1cpu.txt", path], check=1)
    assert "no table" in p.stderr


# ---- history database ----

@pytest.fixture
def db(tmp_path):
    return tmp_path / "h" / "history.db"


def test_db_round_trip_same_numbers(db):
    direct = rows(RTLAT_JSON)
    p = run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    assert p.stdout.split("\t")[0] == "1"
    stored = rows("--db", db)
    assert stored == direct
    # added twice: stored once
    p = run(["db", "add", "--db", db, RTLAT_JSON], check=0)
    assert "already stored as run 1" in p.stderr
    assert "runs: 1" in run(["db", "info", "--db", db], check=0).stdout


@needs_root
def test_db_round_trip_fresh_run(db, tmp_path):
    res = tmp_path / "r.json"
    run(["latency", "-T", "2", "-c", "0", "--json", res], check=0)
    direct = rows(res)
    run(["db", "add", "--db", db, res], check=0)
    assert rows("--db", db) == direct
    assert int(direct[0]["samples"]) > 0


def test_db_every_fixture_and_filters(db):
    files = sorted(p for p in FIXTURES.glob("*/*") if p.name != "README.md")
    run(["db", "add", "--db", db] + files, check=0)
    direct = rows(*files)
    assert rows("--db", db) == direct
    lst = run(["db", "list", "--db", db], check=0).stdout.splitlines()
    assert len(lst) == len(direct) - sum(r["thread"] != "all" for r in direct) + 1
    ocotea = rows("--db", db, "--label", "*1.0-0?")
    assert len(ocotea) == 6
    assert {r["kernel"] for r in rows("--db", db, "--kernel", "6.18*")} == {"6.18.44-fc-v857"}
    assert rows("--db", db, "--board", "Ocotea", "--test", "switch")[0]["max_ns"] == "10038"
    assert len(rows("--db", db, "--since", "2026-11-29T19:19", "--until", "2026-11-29T19:19:59",
                    "--label", "json*")) == 3      # the 2-thread JSON: all + 2 threads
    # compare reads the database too
    p = run(["compare", "--db", db, "label=1.0-00", "label=1.0-01"], check=0)
    assert "+36.1 %" in p.stdout


def test_db_remove(db):
    run(["db", "add", "--db", db, FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"], check=0)
    run(["db", "remove", "--db", db, "2"], check=0)
    assert "no run 2" in run(["db", "remove", "--db", db, "2"], check=1).stderr
    assert len(rows("--db", db)) == 5
    assert "invalid run id" in run(["db", "remove", "--db", db, "x"], check=1).stderr


def test_db_default_location(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"))
    p = run(["db", "add", FIXTURES / "oslat" / "oslat-1cpu.txt"], check=0, env=env)
    assert (tmp_path / "xdg" / "rtlat" / "history.db").exists()
    # report without files reads the default database
    assert rows(env=env)[0]["test"] == "oslat"
    env = dict(os.environ, HOME=str(tmp_path / "home"))
    env.pop("XDG_DATA_HOME", None)
    run(["db", "add", FIXTURES / "oslat" / "oslat-1cpu.txt"], check=0, env=env)
    assert (tmp_path / "home" / ".local" / "share" / "rtlat" / "history.db").exists()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "empty"))
    assert "rtlat db add" in run(["report"], check=1, env=env).stderr


@sqlite_only
def test_db_migrates_version_1(db):
    """A database written by schema version 1 (no content_hash) is migrated
    on open: same runs, hashes filled in, duplicate detection works."""
    run(["db", "add", "--db", db, FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"], check=0)
    before = rows("--db", db)
    con = sqlite3.connect(db)
    con.execute("DROP INDEX runs_test_load")
    con.execute("DROP INDEX runs_content_hash")
    con.execute("ALTER TABLE runs DROP COLUMN content_hash")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    p = run(["report", "--csv", "--threads", "--db", db], check=0)
    assert "migrated from version 1 to 9" in p.stderr
    assert list(csv.DictReader(io.StringIO(p.stdout))) == before
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 9
    assert con.execute("SELECT count(*) FROM runs WHERE content_hash IS NULL").fetchone()[0] == 0
    con.close()
    p = run(["db", "add", "--db", db, FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"], check=0)
    assert "0 runs added, 6 already there" in p.stderr


@sqlite_only
def test_db_newer_or_foreign_refused(db, tmp_path):
    run(["db", "add", "--db", db, FIXTURES / "oslat" / "oslat-1cpu.txt"], check=0)
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    assert "newer than this rtlat" in run(["report", "--db", db], check=1).stderr
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, " * 100)
    p = run(["report", "--db", junk], check=1)
    assert "junk.db" in p.stderr
    assert "no such database" in run(["report", "--db", tmp_path / "nope.db"], check=1).stderr


# ---- HTML page ----

HTML_INPUTS = [RTLAT_JSON, FIXTURES / "xenomai" / "latency-3.2-vm-overruns.log",
               FIXTURES / "cyclictest" / "histogram-60us-overflows.txt",
               FIXTURES / "rtai" / "kern-latency-display.log",
               FIXTURES / "seed" / "ocotea-ipipe-1.0-00-vs-01.log"]
# one table per test kind (every load in it): LATENCY, KLATENCY, SWITCH;
# per table: max/p99.9 bars, tail when percentiles are known, the
# histograms of its runs in one plot when it has several loads; per run: a
# histogram when the source has one, latency over time from interval series
EXPECTED_PLOTS = {"max and p99.9": 1, "max": 2, "tail": 1, "histogram": 2,
                  "histograms by load": 1, "latency over time": 3}
NPLOTS = sum(EXPECTED_PLOTS.values())


def make_html(tmp_path, env=None):
    out = tmp_path / "report.html"
    p = run(["report", "--html", out] + HTML_INPUTS, check=0, env=env)
    return out, p


def figures(html):
    return re.findall(r'<figure class="plot" data-kind="([^"]+)">', html)


def test_html_plots_inlined(tmp_path):
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    out, p = make_html(tmp_path)
    html = out.read_text()
    kinds = figures(html)
    assert {k: kinds.count(k) for k in set(kinds)} == EXPECTED_PLOTS
    assert "%d plots" % NPLOTS in p.stderr
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    assert len(svgs) == NPLOTS
    for s in svgs:
        ET.fromstring(s)        # well-formed
    assert re.search(r"histogram, max 9672\.938 µs", html)
    assert re.search(r"histogram, max 439\.000 µs", html)
    assert html.count("<table>") == 3
    assert "<script" not in html and "http" not in html.replace(
        "http://www.w3.org", "")    # self-contained
    assert not list(tmp_path.glob("rtlat-plot*"))


def test_html_without_gnuplot(tmp_path):
    env = dict(os.environ, GNUPLOT=str(tmp_path / "no-gnuplot"))
    out, p = make_html(tmp_path, env=env)
    html = out.read_text()
    assert "plots left out" in p.stderr and "gnuplot" in p.stderr
    assert "Plots left out" in html and html.count("<table>") == 3
    assert not figures(html)


def test_html_in_chromium(tmp_path):
    """The page loads in headless Chromium and shows every plot."""
    from browser import chromium, inspect
    if not chromium():
        pytest.skip("chromium not installed (scripts/install-deps.sh installs it)")
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    out, _ = make_html(tmp_path)
    shot = tmp_path / "page.png"
    res = inspect(out.as_uri(), """(() => ({
        figures: document.querySelectorAll('figure.plot').length,
        tables: document.querySelectorAll('table').length,
        svgs: [...document.querySelectorAll('figure.plot > svg')].map(s => {
            const r = s.getBoundingClientRect();
            return {w: r.width, h: r.height, ns: s.namespaceURI,
                    drawn: s.querySelectorAll('path, rect, polyline').length,
                    title: s.textContent.trim().slice(0, 80)};
        }),
        errors: document.querySelectorAll('parsererror').length,
    }))()""", screenshot=shot)
    assert res["tables"] == 3
    assert res["figures"] == len(res["svgs"]) == sum(EXPECTED_PLOTS.values())
    assert res["errors"] == 0
    for s in res["svgs"]:
        assert s["ns"] == "http://www.w3.org/2000/svg"
        assert s["w"] > 300 and s["h"] > 150, s
        assert s["drawn"] > 5, s
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000


def test_xenomai_histogram_lines():
    """HSD|avg buckets (1 us, of |latency|) give the percentiles, HSS|avg
    the sample count."""
    path = OWN / "xenomai-2.4-hsd.log"
    r = rows(path)[0]
    assert r["samples"] == "30000"
    assert (r["min_ns"], r["max_ns"]) == ("2070", "14020")
    assert r["p50_ns"] == "3999"        # upper edge of the 3-4 us bucket
    assert r["p99.9_ns"] == "8999"      # rank 29970 is in the 8-9 us bucket
    assert r["p99.99_ns"] == "12999"    # rank 29997
    assert r["p99.9999_ns"] == ""       # 30000 samples: it would be the max


def test_rtlat_text_with_histogram():
    src = json.loads((OWN / "rtlat-hist.json").read_text())["summary"]["latency"]
    r = rows(OWN / "rtlat-hist.txt")[0]
    for k, v in src["percentiles_ns"].items():
        if src["samples"] >= PCT_SAMPLES[k]:
            assert int(r[k + "_ns"]) == v
        else:
            assert r[k + "_ns"] == "", k
    assert int(r["max_ns"]) == src["max_ns"]
    assert int(r["samples"]) == src["samples"]      # HSS lat line


SLOW_GNUPLOT = """#!/bin/sh
# a gnuplot that takes its time and writes into the plot directory
echo $$ > "%s"
while :; do date >> "$(dirname "$1")/still-writing"; sleep 0.05; done
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_html_signal_leaves_nothing(tmp_path, sig):
    """A signal while gnuplot draws: gnuplot is killed and reaped, the
    temporary directory and a partial page are removed, and rtlat ends as
    the signal ends a command (killed by it); nothing goes on writing."""
    import tempfile
    # rtlat takes a TMPDIR of up to 40 characters
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="rtlat-t"))
    try:
        _signal_during_plots(tmp_path, tmp, sig)
    finally:
        shutil.rmtree(tmp)


def _signal_during_plots(tmp_path, tmp, sig):
    pidfile = tmp_path / "gnuplot.pid"
    gp = tmp_path / "gnuplot"
    gp.write_text(SLOW_GNUPLOT % pidfile)
    gp.chmod(0o755)
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    env = dict(os.environ, GNUPLOT=str(gp), TMPDIR=str(tmp))
    # the signal at its default action in rtlat, whatever this test
    # inherited (an ignored one stays ignored, as under nohup)
    proc = subprocess.Popen([RTLAT, "report", "--html", str(out)] +
                            [str(p) for p in HTML_INPUTS], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(sig,
                                                             signal.SIG_DFL))
    try:
        _check_signal(proc, pidfile, tmp, out, sig)
    finally:
        # whatever failed, nothing of the test goes on running
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if pidfile.exists() and pidfile.read_text().strip():
            try:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def _check_signal(proc, pidfile, tmp, out, sig):
    end = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text().strip()):
        assert proc.poll() is None and time.monotonic() < end
        time.sleep(0.02)
    gpid = int(pidfile.read_text())
    assert list(tmp.glob("rtlat-plot.*"))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == -sig, (proc.returncode, err)
    assert not os.path.exists("/proc/%d" % gpid)     # killed and reaped
    assert list(tmp.iterdir()) == []
    assert list(out.parent.iterdir()) == []          # no page, no temporary


def test_html_ignored_hangup_stays_ignored(tmp_path):
    """Under nohup (SIGHUP ignored) the page is still written."""
    env = dict(os.environ, GNUPLOT=str(tmp_path / "no-gnuplot"))
    out = tmp_path / "r.html"
    proc = subprocess.run([RTLAT, "report", "--html", str(out), str(RTLAT_JSON)],
                          env=env, capture_output=True, text=True,
                          preexec_fn=lambda: signal.signal(signal.SIGHUP,
                                                           signal.SIG_IGN))
    assert proc.returncode == 0 and out.exists()


SUITE_VM = sorted(OWN.glob("suite-vm-*.json"))


def _translate_y(svg, text):
    """y of the first SVG text element reading @text (gnuplot places each
    with transform="translate(x,y)")."""
    m = re.search(r'<g transform="translate\([\d.]+,([\d.]+)\)"[^>]*>\s*'
                  r'<text[^>]*>(?:<tspan[^>]*>)?' + re.escape(text) + r'<', svg)
    assert m, text
    return float(m.group(1))


def test_html_suite_page(tmp_path):
    """A suite's page: runs counted as runs (a handshake's three series are
    one run), one table per test kind and series with a row per load, the
    system described once, and the test without and with load in one
    plot of each kind."""
    out = tmp_path / "r.html"
    env = dict(os.environ, GNUPLOT=str(tmp_path / "no-gnuplot"))
    p = run(["report", "--html", out] + SUITE_VM, check=0, env=env)
    html = out.read_text()
    # 5 result files: latency and cruncher without and with load, handshake
    assert re.search(r"<p>5 runs \(9 series\) in 6 tables", html)
    assert "5 runs" in p.stderr
    heads = re.findall(r"<h2>(.*?) <small>", html)
    assert heads == ["LATENCY without load and with load hell",
                     "HANDSHAKE A-&gt;B without load",
                     "HANDSHAKE B-&gt;A without load",
                     "HANDSHAKE ROUND TRIP without load",
                     "CRUNCHER SLEEP without load and with load hell",
                     "CRUNCHER DEVIATION without load and with load hell"]
    lat = html.split("<table>")[1].split("</table>")[0]
    assert "<th>load</th>" in lat
    assert re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td>", lat) == [
        ("suite-vm-01-latency-none", "none"), ("suite-vm-02-latency-hell", "hell")]
    # a table of one load has no load column
    assert "<th>load</th>" not in html.split("<table>")[2].split("</table>")[0]
    # the system description once, not per run or table
    assert html.index("<h2>System</h2>") < html.index("<h2>LATENCY")
    assert html.count("<h2>System") == 1
    desc = re.findall(r'<p class="system">(.*?)</p>', html, re.S)
    assert len(desc) == 1 and html.count(desc[0]) == 1
    assert html.count("<dt>") == 5          # one entry per run


def test_html_without_and_with_load_side_by_side(tmp_path):
    """The plots of a test kind hold its runs of every load: the bars, the
    tail and the histograms by load name both loads; every legend is below
    its plot, never over the lines."""
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    out = tmp_path / "r.html"
    run(["report", "--html", out] + SUITE_VM[:2] + HTML_INPUTS[:2], check=0)
    html = out.read_text()
    figs = re.findall(r'<figure class="plot" data-kind="([^"]+)">\s*(<svg.*?</svg>)',
                      html, re.S)
    by_load = [s for k, s in figs if k == "histograms by load"]
    assert by_load
    for kind in ("max and p99.9", "tail", "histograms by load"):
        svg = [s for k, s in figs if k == kind][0]
        assert "suite-vm-01-latency-none (without load)" in svg, kind
        assert "suite-vm-02-latency-hell (with load hell)" in svg, kind
    # legends below the x axis label: not over the lines
    for k, svg in figs:
        if k == "latency over time":
            assert _translate_y(svg, "max") > _translate_y(svg, "time (s)")
        if k == "tail":
            assert _translate_y(svg, "suite-vm-01-latency-none (without load)") > \
                _translate_y(svg, "percentile")


# --- long-term view over the history (OSADL-style) -------------------------

LT_RUNS = [("2026-11-01", "6.1.0-rt", "vm"), ("2026-11-02", "6.1.0-rt", "vm"),
           ("2026-11-03", "6.6.0-rt", "vm"), ("2026-11-02", "6.1.0-rt", "pi")]


def longterm_results(tmp_path):
    """Runs of one suite result made into four: three on board vm (two
    kernels, three days), one on board pi; four intervals each, with
    maxima 300+i, 828.716, 400 and 350 us."""
    src = json.loads((OWN / "suite-vm-01-latency-none.json").read_text())
    files = []
    for i, (day, kernel, board) in enumerate(LT_RUNS):
        d = json.loads(json.dumps(src))
        d["start_time"] = day + "T10:00:00.000Z"
        d["host"]["release"] = kernel
        d["host"]["hostname"] = board
        d["system"] = None
        d["summary"]["latency"]["intervals"]["data"] = [
            [0, 4992, 18824, 27813, 300000 + i * 1000, 8],
            [1, 4992, 18900, 27800, 828716, 8],
            [2, 4992, 19000, 27820, 400000, 8],
            [3, 4993, 18950, 27819, 350000, 7]]
        f = tmp_path / ("r%d.json" % i)
        f.write_text(json.dumps(d))
        files.append(f)
    return files


def test_html_long_term_view_of_the_history(tmp_path):
    """rtlat report --html over the database: per board with several runs,
    the interval maxima over time and max/p99.9 over runs, a line per
    kernel; a board with one run has none. Drawn in headless Chromium."""
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db] + longterm_results(tmp_path), check=0)
    out = tmp_path / "lt.html"
    p = run(["report", "--db", db, "--html", out], check=0)
    html = out.read_text()
    kinds = figures(html)
    # board vm: 3 runs x 4 intervals on 2 kernels; board pi: one run only
    assert kinds.count("long-term: interval maxima of 3 runs, 12 intervals, 2 lines") == 1, kinds
    assert kinds.count("long-term: max of 3 runs, p99.9 of 3, 2 lines") == 1, kinds
    assert sum(k.startswith("long-term") for k in kinds) == 2
    assert "interval maxima over time on vm" in html
    assert "plots left out" not in p.stderr, p.stderr
    from browser import chromium, inspect
    if not chromium():
        pytest.skip("chromium not installed (scripts/install-deps.sh installs it)")
    res = inspect(out.as_uri(), """(() => [...document.querySelectorAll(
        'figure.plot')].filter(f => f.dataset.kind.startsWith('long-term'))
        .map(f => { const s = f.querySelector('svg');
                    const r = s.getBoundingClientRect();
                    return {w: r.width, h: r.height,
                            drawn: s.querySelectorAll('path').length,
                            text: s.textContent}; }))()""")
    assert len(res) == 2
    for s in res:
        assert s["w"] > 300 and s["h"] > 150 and s["drawn"] > 5, s
        assert "6.1.0-rt" in s["text"] and "6.6.0-rt" in s["text"]
        assert "2026-11-0" in s["text"]          # a date on the time axis


def test_html_over_a_long_history_can_leave_out_the_runs_plots(tmp_path):
    """Six runs of board vm two minutes apart in all: --html-runs 2 draws
    the plots of a run (histogram, latency over time) for the two latest
    only, --longterm none (nor bars and tails) and keeps the long-term
    view; on a span of minutes the time axis has seconds and no two
    ticks alike."""
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    src = json.loads((OWN / "suite-vm-01-latency-none.json").read_text())
    files = []
    for i in range(6):
        d = json.loads(json.dumps(src))
        d["start_time"] = "2026-11-01T10:%02d:%02d.000Z" % (i * 20 // 60,
                                                            i * 20 % 60)
        d["host"]["hostname"] = "vm"
        d["system"] = None
        d["label"] = "r%d" % i
        files.append(tmp_path / ("r%d.json" % i))
        files[-1].write_text(json.dumps(d))
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db] + files, check=0)
    full, few, lt = (tmp_path / n for n in ("full.html", "few.html",
                                            "lt.html"))
    run(["report", "--db", db, "--html", full], check=0)
    run(["report", "--db", db, "--html", few, "--html-runs", "2"], check=0)
    run(["report", "--db", db, "--html", lt, "--longterm"], check=0)
    kf, kw, kl = (figures(f.read_text()) for f in (full, few, lt))
    per_run = lambda ks: [k for k in ks if not k.startswith("long-term")
                          and k not in ("max and p99.9", "tail")]
    assert per_run(kf) == ["histogram"] * 6, kf
    assert per_run(kw) == ["histogram"] * 2, kw
    assert "max and p99.9" in kw and "tail" in kw
    assert all(k.startswith("long-term") for k in kl) and len(kl) == 2, kl
    assert [k for k in kf if k.startswith("long-term")] == kl
    html = lt.read_text()
    assert "time (UTC, from 2026-11-01)" in html
    figs = [f for f in html.split("<figure")[1:]
            if 'data-kind="long-term' in f]
    assert len(figs) == 2
    for f in figs:
        ticks = re.findall(r">\s*(\d\d:\d\d:\d\d)\s*<", f)
        assert len(ticks) >= 3 and len(ticks) == len(set(ticks)), ticks
    assert "--longterm goes with --html" in run(
        ["report", "--db", db, "--longterm"], check=1).stderr


def _with_check(tmp_path, name, label, check):
    d = json.loads(RTLAT_JSON.read_text())
    d["label"] = label
    d["check"] = check
    f = tmp_path / name
    f.write_text(json.dumps(d))
    return f


def test_report_shows_the_system_check(tmp_path):
    """The check findings every result file carries: each distinct set once
    in a "System check" block with the runs that carry it, its counts, its
    warnings and bads (the ok and n/a items left out), in the text and the
    HTML page; none without findings (CSV and Markdown: the tables only)."""
    bad = {"worst": "bad", "counts": {"bad": 1, "warning": 1, "ok": 1, "n/a": 1},
           "items": [
               {"id": "preempt", "verdict": "bad", "found": "mainline PREEMPT_DYNAMIC, mode none <x>"},
               {"id": "swap", "verdict": "warning", "found": "1 swap area,\n8 GiB"},
               {"id": "thp", "verdict": "ok", "found": "madvise"},
               {"id": "cokernel", "verdict": "n/a", "found": "none"}]}
    ok = {"worst": "ok", "counts": {"bad": 0, "warning": 0, "ok": 2, "n/a": 0},
          "items": [{"id": "preempt", "verdict": "ok", "found": "PREEMPT_RT"},
                    {"id": "thp", "verdict": "ok", "found": "never"}]}
    files = [_with_check(tmp_path, "a.json", "board-a", bad),
             _with_check(tmp_path, "b.json", "board-b", ok),
             _with_check(tmp_path, "c.json", "board-c", bad)]
    p = run(["report"] + files, check=0)
    block = p.stdout[p.stdout.index("\nSystem check"):].splitlines()[2:]
    assert p.stdout.count("System check") == 1
    assert block == [
        "board-a, board-c: 1 bad, 1 warning, 1 ok, 1 n/a",
        "  preempt          bad      mainline PREEMPT_DYNAMIC, mode none <x>",
        "  swap             warning  1 swap area, 8 GiB",
        "board-b: 0 bad, 0 warnings, 2 ok, 0 n/a"], block
    # without findings (older result files, other tools): no block
    assert "System check" not in run(["report", RTLAT_JSON], check=0).stdout
    for fmt in ("--csv", "--markdown"):
        assert "System check" not in run(["report", fmt] + files, check=0).stdout
    out = tmp_path / "r.html"
    run(["report", "--html", out] + files, check=0)
    html = out.read_text()
    assert "<h2>System check</h2>" in html
    root = ET.fromstring(re.search(r'<table class="check">.*?</table>',
                                   html, re.S).group(0))
    assert root.find("caption").text == "board-a, board-c: 1 bad, 1 warning, 1 ok, 1 n/a"
    assert [[td.text for td in tr] for tr in root.findall("tr")] == [
        ["preempt", "bad", "mainline PREEMPT_DYNAMIC, mode none <x>"],
        ["swap", "warning", "1 swap area, 8 GiB"]]
    assert html.count('<table class="check">') == 2


def test_test_time_is_what_the_tool_printed(tmp_path):
    """The table's test-time is the run time to the nearest second, not
    cut down: oslat's "Duration: 2.998 (sec)" was 00:00:02, a cyclictest
    run of 9999 cycles of 10 ms (99.99 s, the 100 s asked less the last
    cycle) 00:01:39."""
    oslat = FIXTURES / "oslat" / "oslat-1cpu.txt"
    assert "Duration:\t 2.998 (sec)" in oslat.read_text()
    p = run(["report", oslat])
    assert re.search(r"^oslat-1cpu *\|.*\|    00:00:03$", p.stdout, re.M), \
        p.stdout
    src = ROOT / "tests" / "fixtures" / "real" / "machinekit-792-rpi2.txt"
    f = tmp_path / "ct.txt"
    f.write_text(src.read_text().replace("C:  10000", "C:   9999"))
    p = run(["report", f])
    assert re.search(r"^ct *\|.*\|    00:01:40$", p.stdout, re.M), p.stdout
    h = tmp_path / "r.html"
    run(["report", "--html", h, oslat])
    assert ", 00:00:03" in h.read_text()
