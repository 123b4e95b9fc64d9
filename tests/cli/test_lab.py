# SPDX-License-Identifier: GPL-2.0-or-later
"""--lava and --junit FILE on a single test (the suite's are in
test_suite.py): one case per figure that matters, pass/fail from
--max-latency, read the way LAVA and Linaro's test-definitions read them.

- LAVA's dispatcher finds a signal on the console with the pattern
  <LAVA_SIGNAL_(\\S+) ([^>]+)> and splits its parameters on blanks, each
  KEY=VALUE on "=" (lava_dispatcher, handle_testcase).
- Linaro's test-definitions (automated/utils/send-to-lava.sh) take a result
  line "ID RESULT" when `egrep -iq ".* +(pass|fail|skip)$"` matches it and
  "ID RESULT MEASUREMENT UNITS" when `egrep -iq ".*+ (pass|fail|skip)+ .*+"`
  does, then split it with awk: our cases are checked to go through that
  unchanged (no blank in an id or a unit).
"""
import os
import re
import signal
import subprocess
import time

import pytest

from conftest import RTLAT, fake_lava_test_case, load_json_strict, \
    needs_root, run
from procs import start, stop, wait_session_empty

junitparser = pytest.importorskip("junitparser")

# lava_dispatcher's signal pattern
LAVA_SIGNAL = re.compile(r"<LAVA_SIGNAL_(\S+) ([^>]+)>")
# Linaro test-definitions' result-line patterns (egrep -i)
LINARO_PLAIN = ".* +(pass|fail|skip)$"
LINARO_MEASURED = ".*+ (pass|fail|skip)+ .*+"


def us3(ns):
    return "%.3f" % (ns / 1000.0)


def lava_cases(stdout):
    """{id: {result, measurement, units}} of the LAVA signals on stdout,
    parsed as the dispatcher does."""
    cases = {}
    for ln in stdout.splitlines():
        if "<LAVA_SIGNAL" not in ln:
            continue
        m = LAVA_SIGNAL.search(ln)
        assert m and m.group(1) == "TESTCASE", ln
        data = {}
        for param in m.group(2).split():
            parts = param.split("=")
            assert len(parts) == 2, (param, ln)
            data[parts[0].lower()] = parts[1]
        assert set(data) <= {"test_case_id", "result", "measurement",
                             "units"}, ln
        assert data["result"] in ("pass", "fail", "skip", "unknown"), ln
        if "measurement" in data:
            float(data["measurement"])
            assert "units" in data
        assert data["test_case_id"] not in cases, "duplicate id: " + ln
        cases[data["test_case_id"]] = data
    return cases


def linaro_line_ok(case_id, result, measurement=None, units=None):
    """The result line of Linaro's test-definitions for a case goes
    through send-to-lava.sh's patterns and awk fields unchanged."""
    if measurement is None:
        line, pat = "%s %s" % (case_id, result), LINARO_PLAIN
    else:
        line = "%s %s %s %s" % (case_id, result, measurement, units)
        pat = LINARO_MEASURED
    p = subprocess.run(["grep", "-E", "-i", "-q", pat], input=line + "\n",
                       text=True)
    assert p.returncode == 0, (pat, line)
    fields = line.split()
    want = [case_id, result] + ([measurement, units] if measurement else [])
    assert fields == want, line


def no_helper_env():
    return dict(os.environ, PATH="/usr/bin:/bin")    # no lava-test-case


@needs_root
def test_latency_lava_and_junit(tmp_path):
    js, xml = tmp_path / "r.json", tmp_path / "j.xml"
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--json", js,
             "--lava", "--junit", xml], env=no_helper_env())
    assert p.returncode == 0, p.stderr
    cases = lava_cases(p.stdout)
    # after everything else on stdout
    assert p.stdout.rstrip().splitlines()[-1].startswith(
        "<LAVA_SIGNAL_TESTCASE")
    d = load_json_strict(js)
    lat = d["summary"]["latency"]
    assert cases["latency-none"] == {"test_case_id": "latency-none",
                                     "result": "pass"}
    for what, key in (("max", "max_ns"), ("min", "min_ns")):
        c = cases["latency-none-latency-" + what]
        assert c["measurement"] == us3(lat[key]) and c["units"] == "us"
        assert c["result"] == "pass"
    assert abs(float(cases["latency-none-latency-avg"]["measurement"]) -
               lat["avg_ns"] / 1000) < 0.002
    assert cases["latency-none-latency-p99.9"]["measurement"] == \
        us3(lat["percentiles_ns"]["p99.9"])
    ov = cases["latency-none-latency-overruns"]
    assert ov["measurement"] == str(lat["overruns"]) and ov["units"] == "count"
    threads = d["threads"]
    if len(threads) > 1:
        for t in threads:
            c = cases["latency-none-latency-cpu%d-max" % t["cpu"]]
            assert c["measurement"] == us3(t["series"]["latency"]["max_ns"])
            assert "latency-none-latency-cpu%d-avg" % t["cpu"] in cases
    want = 6 + (2 * len(threads) if len(threads) > 1 else 0)
    assert len(cases) == want, sorted(cases)
    for i, c in cases.items():
        linaro_line_ok(i, c["result"], c.get("measurement"), c.get("units"))
    # JUnit: the same cases, measurements in system-out
    got = {c.name: c for s in junitparser.JUnitXml.fromfile(str(xml))
           for c in s}
    assert set(got) == set(cases)
    assert all(c.classname == "rtlat.latency" for c in got.values())
    assert all(c.is_passed for c in got.values())
    assert "measurement %s us" % us3(lat["max_ns"]) in \
        got["latency-none-latency-max"].system_out


@needs_root
def test_threshold_fails_the_max(tmp_path):
    """--max-latency 1 ns: the run, its max and every CPU's max fail (exit
    status 2), the other figures pass."""
    xml = tmp_path / "j.xml"
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--lava",
             "--junit", xml, "--max-latency", "0.001"], env=no_helper_env())
    assert p.returncode == 2, p.stderr
    cases = lava_cases(p.stdout)
    failed = {i for i, c in cases.items() if c["result"] == "fail"}
    assert "latency-none" in failed and "latency-none-latency-max" in failed
    assert all(i == "latency-none" or i.endswith("-max") for i in failed)
    assert {i for i in cases if i.endswith("-max")} <= failed
    assert cases["latency-none-latency-avg"]["result"] == "pass"
    xml_cases = [c for s in junitparser.JUnitXml.fromfile(str(xml))
                 for c in s]
    xfailed = {c.name for c in xml_cases
               if any(isinstance(r, junitparser.Failure) for r in c.result)}
    assert xfailed == failed
    suite = next(iter(junitparser.JUnitXml.fromfile(str(xml))))
    assert suite.failures == len(failed) and suite.tests == len(cases)


@needs_root
def test_load_case_and_load_in_ids(tmp_path):
    """With --load cpu the ids say it and the load's rate is a case."""
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "-c", "0",
             "--load", "cpu", "--load-workers", "1", "--lava"],
            env=no_helper_env())
    assert p.returncode == 0, p.stderr
    cases = lava_cases(p.stdout)
    assert cases["latency-cpu"]["result"] == "pass"
    ld = cases["latency-cpu-load-cpu"]
    assert ld["result"] == "pass" and ld["units"] == "ops/s"
    assert float(ld["measurement"]) > 0
    # one CPU: no per-CPU cases
    assert not [i for i in cases if "-cpu0-" in i]


@needs_root
def test_break_fails_the_run():
    """A --break ends the run early: its case fails, with the reason."""
    p = run(["latency", "-T", "5", "--warmup", "0", "-q", "--break",
             "0.001", "--lava"], env=no_helper_env())
    assert p.returncode == 2, p.stderr
    cases = lava_cases(p.stdout)
    assert cases["latency-none"]["result"] == "fail"


@needs_root
def test_two_sided_ids(tmp_path):
    """A two-sided test: a case per series of the measuring sampler, per
    thread when several measure (threadI when they share a CPU), every id
    unique (lava_cases() checks it)."""
    js = tmp_path / "r.json"
    p = run(["switch", "-T", "1", "--warmup", "0", "-q", "--json", js,
             "--lava"], env=no_helper_env())
    assert p.returncode == 0, p.stderr
    cases = lava_cases(p.stdout)
    d = load_json_strict(js)
    assert cases["switch-none"]["result"] == "pass"
    for name in d["summary"]:
        assert "switch-none-%s-max" % name in cases
    measuring = [t for t in d["threads"] if t["series"]]
    cpus = [t["cpu"] for t in measuring]
    if len(measuring) > 1:
        for t in measuring:
            tag = ("cpu%d" % t["cpu"] if cpus.count(t["cpu"]) == 1
                   else "thread%d" % measuring.index(t))
            for name in t["series"]:
                assert "switch-none-%s-%s-max" % (name, tag) in cases


@needs_root
def test_through_lava_test_case(tmp_path):
    """Inside a LAVA test shell each case is one lava-test-case call, with
    the arguments LAVA's helper takes; nothing on stdout."""
    env, log = fake_lava_test_case(tmp_path)
    p = run(["cyclic", "-t", "1", "-i", "1000", "-D", "1", "-q", "--lava"],
            env=env)
    assert p.returncode == 0, p.stderr
    assert "<LAVA_SIGNAL" not in p.stdout
    calls = log.read_text().splitlines()
    assert calls[0] == "cyclic-none --result pass"
    for c in calls:
        a = c.split()
        assert a[1] == "--result"
        if len(a) > 3:
            assert a[3] == "--measurement" and a[5] == "--units"
            linaro_line_ok(a[0], a[2], a[4], a[6])
        else:
            linaro_line_ok(a[0], a[2])
    assert any(c.startswith("cyclic-none-latency-max ") for c in calls)


@needs_root
def test_lava_test_case_failing_is_an_error(tmp_path):
    env, _ = fake_lava_test_case(tmp_path, exit_status=3)
    p = run(["latency", "-T", "0.5", "--warmup", "0", "-q", "--lava"],
            env=env)
    assert p.returncode == 1
    assert "lava-test-case failed" in p.stderr


def test_junit_unwritable_is_an_error(tmp_path):
    p = run(["latency", "-T", "1", "--junit", tmp_path])
    assert p.returncode == 1
    assert "--junit" in p.stderr and "directory" in p.stderr


@needs_root
def test_headline_fd_still_written(tmp_path):
    """--lava reads the run's headline back; a --headline-fd of the
    user's (rtlat suite's) still gets it whole."""
    hl = tmp_path / "hl"
    with open(hl, "w") as f:
        p = subprocess.run(
            [RTLAT, "latency", "-T", "0.5", "--warmup", "0", "-q", "--lava",
             "--headline-fd", str(f.fileno())], pass_fds=(f.fileno(),),
            capture_output=True, text=True, env=no_helper_env(), timeout=60)
    assert p.returncode == 0, p.stderr
    lines = hl.read_text().splitlines()
    assert lines[0] == "rtlat-headline 1" and lines[-1] == "end"
    assert "status complete" in lines
    assert lava_cases(p.stdout)["latency-none"]["result"] == "pass"


@needs_root
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_lava_reporting(tmp_path, sig):
    """A signal while lava-test-case runs: the call is killed (its process
    group too, nothing left), the rest of the cases are not called, and
    the exit status says the reporting was interrupted (1, not 0). The
    JUnit file is still written whole. Timing: the helper sleeps 30 s per
    call; the run must end far sooner than one call after the signal."""
    env, log = fake_lava_test_case(tmp_path, sleep=30)
    xml = tmp_path / "j.xml"
    p = start(["latency", "-T", "0.3", "--warmup", "0", "-q", "--lava",
               "--junit", xml], env=env,
              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        end = time.monotonic() + 60
        while not log.exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert log.exists(), "lava-test-case was never called"
        t0 = time.monotonic()
        out, err = stop(p, sig)
        took = time.monotonic() - t0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 1, err
    assert took < 20, took         # one call alone would take 30 s
    assert "--lava: interrupted by signal %d" % sig in err, err
    calls = log.read_text().splitlines()
    assert len(calls) == 1, calls   # the rest were never called
    assert wait_session_empty(p.pid) == []      # no helper, no zombie
    cases = [c.name for s in junitparser.JUnitXml.fromfile(str(xml))
             for c in s]
    assert "latency-none" in cases and "latency-none-latency-max" in cases


# a 0.3 s latency run, then a helper that sleeps
@pytest.mark.measures
@needs_root
def test_hung_lava_test_case_is_killed_after_its_bound(tmp_path):
    """A lava-test-case call that does not end is killed after 10 s (said),
    and the remaining cases go to stdout as the <LAVA_SIGNAL_TESTCASE>
    lines the helper would print; exit status 1. Timing: ten calls of a
    30 s helper would take 300 s."""
    env, log = fake_lava_test_case(tmp_path, sleep=30)
    t0 = time.monotonic()
    p = start(["latency", "-T", "0.3", "--warmup", "0", "-q", "--lava"],
              env=env)
    try:
        out, err = p.communicate(timeout=200)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    took = time.monotonic() - t0
    assert p.returncode == 1, err
    assert took < 60, took
    calls = log.read_text().splitlines()
    assert len(calls) == 1, calls
    first = calls[0].split()[0]
    assert "lava-test-case %s did not end within 10 s: killed" % first in err
    cases = lava_cases(out)
    assert first not in cases and "latency-none-latency-max" in cases
    assert wait_session_empty(p.pid) == []
