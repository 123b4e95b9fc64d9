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


@needs_root
def test_suite_end_to_end(tmp_path):
    out = tmp_path / "res"
    p = run(["suite", "-T", "2", "--warmup", "200ms", "--out", out,
             "--label", "Test Board 1.0", "--load-workers", "1",
             "--load-io-dir", tmp_path], timeout=120)
    assert p.returncode == 0, p.stderr
    report = p.stdout
    assert (out / "report.txt").read_text() == report
    for h in HEADER:
        assert h in report, h
    assert "LATENCY without load, latencies in us" in report
    assert "LATENCY with load (hell), latencies in us" in report
    assert "|-----lat min|-----lat avg|-----lat max|-overrun|-------p99.9|---test-time" in report
    rows = [ln for ln in report.splitlines() if ln.startswith("Test Board 1.0 |")]
    assert len(rows) == 2 and "00:00:02" in rows[0], rows
    assert "Loads achieved" in report
    for unit in ("ops/s", "MB/s", "forks/s", "packets/s", "msgs/s"):
        assert unit in report, unit
    # progress on stderr (not a terminal: a line per run at least)
    assert "run 1 of 2" in p.stderr and "run 2 of 2" in p.stderr
    assert "remaining" in p.stderr

    idx = load_json_strict(out / "suite.json")
    assert idx["schema"] == "rtlat-suite" and idx["status"] == "complete"
    assert idx["label"] == "Test Board 1.0" and idx["exit_status"] == 0
    assert idx["system"]["kernel_release"] == os.uname().release
    assert [(r["test"], r["load"]) for r in idx["runs"]] == \
        [("latency", "none"), ("latency", "hell")]
    for r in idx["runs"]:
        assert r["status"] == "complete" and r["exit_status"] == 0
        assert (r["policy"], r["priority"]) == ("fifo", 99)
        res = load_json_strict(out / r["file"])
        assert res["schema"] == "rtlat-result" and res["status"] == "complete"
        lat = res["summary"]["latency"]
        assert r["summary"]["latency"]["max_ns"] == lat["max_ns"]
        assert r["summary"]["latency"]["samples"] == lat["samples"]
        assert r["summary"]["latency"]["p99.9_ns"] == \
            lat["percentiles_ns"]["p99.9"]
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
               "--loads", "hell,none", "--load-io-dir", tmp_path])
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
