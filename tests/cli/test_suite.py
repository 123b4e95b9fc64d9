# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat suite end to end, with short runs."""
import os
import signal
import time

from conftest import load_json_strict, needs_root, run
from procs import start, stop, wait_session_empty

HEADER = ["Board      :", "Processor  :", "CPU-Clk    :", "Caches     :",
          "Memory     :", "Linux      :", "RT         :"]
SNAPSHOT = ["cmdline", "cpuinfo", "meminfo", "uname", "interrupts.before",
            "interrupts.after"]


TESTS = ["latency", "switch", "handshake", "cruncher"]
LOADS = [("none", "without load"), ("hell", "with load (hell)")]


def us3(ns):
    """fmt_us3(): ns as us with three decimals, exactly."""
    return "%s%d.%03d" % ("-" if ns < 0 else "", abs(ns) // 1000,
                          abs(ns) % 1000)


def avg(a):
    return "%.3f" % (a["avg_ns"] / 1000.0)


def pct(a):
    return a["percentiles_ns"]["p99.9"]


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
    """The default suite: four tests without load and with hell, each table
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
    assert "CRUNCHER without load, times in us, dev = computation time - ideal:" \
        in report
    rows = [ln for ln in report.splitlines() if ln.startswith("Test Board 1.0 |")]
    assert len(rows) == 8, rows
    assert "Loads achieved" in report
    for unit in ("ops/s", "MB/s", "forks/s", "packets/s", "msgs/s"):
        assert unit in report, unit
    # progress on stderr (not a terminal: a line per run at least)
    assert "run 1 of 8" in p.stderr and "run 8 of 8" in p.stderr
    assert "remaining" in p.stderr

    idx = load_json_strict(out / "suite.json")
    assert idx["schema"] == "rtlat-suite" and idx["status"] == "complete"
    assert idx["label"] == "Test Board 1.0" and idx["exit_status"] == 0
    assert idx["system"]["kernel_release"] == os.uname().release
    assert [(r["test"], r["load"]) for r in idx["runs"]] == \
        [(t, l) for t in TESTS for l, _ in LOADS]
    tables = report_tables(report, "Test Board 1.0")
    assert len(tables) == 8, list(tables)
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
    assert p.returncode == 0, err
    assert wait_session_empty(p.pid) == []
    assert not [f for f in os.listdir(tmp_path) if f != "res"]
    idx = load_json_strict(out / "suite.json")
    assert idx["status"] == "interrupted"
    assert [r["status"] for r in idx["runs"]] == ["interrupted", "not run"]
    assert load_json_strict(out / "01-latency-hell.json")["status"] == \
        "interrupted"
    assert "not run" in stdout and (out / "report.txt").read_text() == stdout
