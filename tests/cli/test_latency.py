# SPDX-License-Identifier: GPL-2.0-or-later
"""Command-line tests of rtlat latency and of the multi-call binary.

Nothing here asserts an absolute latency or duration (this runs on shared,
noisy machines): only accounting identities, injected stalls that must be
seen, exit codes and file validity.
"""
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import (ROOT, RTLAT, unprivileged_rtlat, SANITIZED, check_layout, hist_total, is_root,
                      load_json_strict, needs_root, run)

HERE = pathlib.Path(__file__).resolve().parent
PERIOD_NS = 100_000


def rts_lines(out):
    return [l for l in out.splitlines() if l.startswith("RTS|")]


def usable_cpu():
    """The last CPU this process may use (CPU 0 takes most housekeeping)."""
    return max(os.sched_getaffinity(0))


# --- the binary ----------------------------------------------------------

def test_help_and_version():
    p = run(["--help"], check=0)
    assert "latency" in p.stdout and "Usage: rtlat" in p.stdout
    p = run(["--version"], check=0)
    assert re.match(r"rtlat \d+\.\d+\.\d+", p.stdout)
    p = run(["help", "latency"], check=0)
    assert "Usage: rtlat latency" in p.stdout and "--period" in p.stdout
    p = run(["latency", "--help"], check=0)
    assert "--max-latency" in p.stdout
    p = run([], check=1)
    assert "Usage: rtlat" in p.stderr
    p = run(["frobnicate"], check=1)
    assert "unknown command 'frobnicate'" in p.stderr
    # help's own help is the command list (it was "unknown command
    # '--help'", a trial finding)
    for a in ("--help", "-h", "help"):
        p = run(["help", a], check=0)
        assert "Usage: rtlat" in p.stdout and "latency" in p.stdout, a
        assert p.stderr == ""
    p = run(["help", "frobnicate"], check=1)
    assert "unknown command 'frobnicate'" in p.stderr
    # extra words after the command are refused, not ignored
    p = run(["help", "latency", "extra"], check=1)
    assert p.stdout == ""
    assert "help takes one command: 'extra' is one too many" in p.stderr


def test_no_arguments_points_to_pages_that_work_before_install():
    """rtlat alone: man rtlat-COMMAND works only once installed; before
    that the source tree's page (man -l) and rtlat help COMMAND do."""
    p = run([], check=1)
    err = " ".join(p.stderr.split())
    assert "man rtlat-COMMAND once installed (make install)" in err, err
    assert "in the source tree: man -l man/rtlat-COMMAND.1" in err, err
    assert "anywhere: rtlat help COMMAND." in err, err
    # the pages it names are there
    assert (ROOT / "man" / "rtlat-latency.1").exists()


def test_link_named_latency(tmp_path):
    link = tmp_path / "latency"
    link.symlink_to(RTLAT)
    p = subprocess.run([str(link), "--help"], capture_output=True, text=True)
    assert p.returncode == 0
    assert "Usage: rtlat latency" in p.stdout


@pytest.mark.parametrize("args,msg", [
    (["-p", "abc"], "invalid value 'abc' for -p/--period"),
    (["-c", "0,,1"], "empty element"),
    (["-c", "3-1"], "reversed range"),
    (["-P", "100"], "expected a priority 0..99"),
    (["--wait", "soon"], "expected abs, timerfd, posix, rel or busy"),
    (["-Z"], "unknown option '-Z'"),
    (["extra"], "unexpected argument 'extra'"),
    (["-c", "1023", "-T", "1"], "CPU 1023 is offline or not present; usable CPUs:"),
    (["--json", "/nonexistent-dir/r.json", "-T", "1"],
     "--json: /nonexistent-dir/r.json: directory /nonexistent-dir does not exist"),
    (["--policy", "fifo", "-P", "0", "-T", "1"],
     "priority 0 out of range for policy fifo (1..99)"),
    (["--max-msw", "0", "-T", "1"],
     "this rtlat is not built for Xenomai Cobalt"),
])
def test_bad_options(args, msg):
    t = time.monotonic()
    p = run(["latency"] + args, check=1)
    assert msg in p.stderr, p.stderr
    assert p.stdout == ""            # nothing measured, nothing printed
    assert time.monotonic() - t < 5  # refused before any measurement


# --- measurements (root) -------------------------------------------------

@needs_root
def test_five_second_run(tmp_path):
    j = tmp_path / "r.json"
    p = run(["latency", "-T", "5", "-c", str(usable_cpu()), "--warmup", "0.5s",
             "--json", j], check=0)
    rts = rts_lines(p.stdout)
    assert len(rts) == 1
    assert "00:00:05/00:00:05" in rts[0]
    assert check_layout(p.stdout) >= 5 + 1 + 1
    # Xenomai's: the RTS columns are the RTH line's first ones
    assert "\n---|-----------|-----------|-----------|--------|" \
        "-----------------------\n" in p.stdout
    assert "== All results in microseconds" in p.stdout
    assert any(l.startswith("RTD|") for l in p.stdout.splitlines())
    d = load_json_strict(j)
    assert d["schema"] == "rtlat-result" and d["status"] == "complete"
    s = d["summary"]["latency"]
    # every period is a sample or an overrun
    assert s["samples"] + s["overruns"] == 5 * 10**9 // PERIOD_NS
    assert hist_total(s["histogram"]) == s["samples"]
    assert s["min_ns"] <= s["avg_ns"] <= s["max_ns"]
    assert all(s["min_ns"] <= v <= s["max_ns"]
               for v in s["percentiles_ns"].values())
    pct = [s["percentiles_ns"][k] for k in
           ("p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999")]
    assert pct == sorted(pct)
    rows = s["intervals"]["data"]
    assert sum(r[1] for r in rows) == s["samples"]
    assert sum(r[5] for r in rows) == s["overruns"]
    assert len(rows) == 5
    t = d["threads"][0]
    # the scheduling actually in force, read back
    assert t["policy"] == "fifo" and t["priority"] == 99
    assert t["cpus_allowed"] == str(usable_cpu())
    assert d["duration_actual_ns"] == 5 * 10**9
    # the RTS line shows the same extremes
    f = [x.strip() for x in rts[0].split("|")]
    assert round(float(f[1]) * 1000) == s["min_ns"]
    assert round(float(f[3]) * 1000) == s["max_ns"]
    assert int(f[4]) == s["overruns"]


@needs_root
@pytest.mark.parametrize("backend", ["abs", "timerfd", "posix", "busy", "rel"])
def test_wait_backends(tmp_path, backend):
    j = tmp_path / "r.json"
    p = run(["latency", "-T", "1", "-c", str(usable_cpu()), "--warmup", "0.2s",
             "-w", backend, "-p", "500", "-q", "--json", j], check=0)
    d = load_json_strict(j)
    s = d["summary"]["latency"]
    assert d["config"]["wait"] == backend
    assert s["samples"] > 0
    assert hist_total(s["histogram"]) == s["samples"]
    if backend == "rel":
        # no grid: each sleep restarts after the wake-up, no overruns
        assert s["overruns"] == 0
        assert s["samples"] <= 2000
    else:
        assert s["samples"] + s["overruns"] == 2000
    if backend == "busy":
        assert s["min_ns"] >= 0


@needs_root
def test_several_cpus(tmp_path):
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two usable CPUs")
    j = tmp_path / "r.json"
    p = run(["latency", "-T", "1", "--warmup", "0.2s", "-c",
             "%d,%d" % (cpus[0], cpus[1]), "--json", j], check=0)
    rts = rts_lines(p.stdout)
    assert len(rts) == 3
    assert rts[0].endswith("cpu %d" % cpus[0])
    assert rts[1].endswith("cpu %d" % cpus[1])
    assert check_layout(p.stdout) >= 3
    d = load_json_strict(j)
    assert [t["cpus_allowed"] for t in d["threads"]] == [str(c) for c in cpus[:2]]
    tot = d["summary"]["latency"]
    per = [t["series"]["latency"] for t in d["threads"]]
    assert tot["samples"] == sum(x["samples"] for x in per)
    assert tot["overruns"] == sum(x["overruns"] for x in per)
    assert tot["max_ns"] == max(x["max_ns"] for x in per)
    for x in per:
        assert x["samples"] + x["overruns"] == 10_000


@needs_root
def test_histogram_stats_and_gnuplot(tmp_path):
    g = tmp_path / "h.dat"
    j = tmp_path / "r.json"
    p = run(["latency", "-T", "1", "-c", str(usable_cpu()), "--warmup", "0.2s",
             "-q", "-h", "-s", "--hist-size", "200", "-g", g, "--json", j],
            check=0)
    d = load_json_strict(j)
    s = d["summary"]["latency"]
    lin = s["histogram_linear"]
    assert lin["width_ns"] == 1000 and lin["nbuckets"] == 200
    assert hist_total(lin) == s["samples"]
    hsd = [l for l in p.stdout.splitlines() if l.startswith("HSD|")]
    assert sum(int(l.split("|")[-1]) for l in hsd) == s["samples"]
    # every '|' of the HSD and HSS lines is under one of their HSH line's
    assert "HSH|--param|--------range (us)--------|---samples\n" in p.stdout
    assert check_layout(p.stdout) >= len(hsd) + 3 + 1 + 1
    hss = {l.split("|")[1].strip(): l for l in p.stdout.splitlines()
           if l.startswith("HSS|")}
    assert set(hss) == {"min", "avg", "max"}
    assert int(hss["avg"].split("|")[2]) == s["samples"]
    assert int(hss["max"].split("|")[2]) == 1   # one interval
    rows = [l.split() for l in g.read_text().splitlines()
            if l and not l.startswith("#")]
    assert len(rows) == 200
    assert sum(int(r[1]) for r in rows) + lin["overflow"] + lin["underflow"] \
        == s["samples"]
    assert "# period: 100.000 us" in g.read_text()


@needs_root
def test_sigint_during_warmup_gives_null_statistics(tmp_path):
    j = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "-T", "10", "--warmup", "5s",
                             "-c", str(usable_cpu()), "--json", str(j)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "RTS|" in out and "n/a" in rts_lines(out)[0]
    d = load_json_strict(j)
    assert d["status"] == "interrupted"
    s = d["summary"]["latency"]
    assert s["samples"] == 0 and s["overruns"] == 0
    assert s["min_ns"] is None and s["avg_ns"] is None and s["max_ns"] is None
    assert all(v is None for v in s["percentiles_ns"].values())
    assert hist_total(s["histogram"]) == 0


@needs_root
def test_sigterm_ends_with_summary(tmp_path):
    j = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "--warmup", "0.2s", "-c",
                             str(usable_cpu()), "--json", str(j)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert len(rts_lines(out)) == 1
    assert "--:--:--" in rts_lines(out)[0]      # no requested duration
    d = load_json_strict(j)
    assert d["status"] == "interrupted"
    s = d["summary"]["latency"]
    assert s["samples"] > 0
    assert hist_total(s["histogram"]) == s["samples"]
    assert sum(r[1] for r in s["intervals"]["data"]) == s["samples"]


@needs_root
def test_sigkill_keeps_last_checkpoint(tmp_path):
    j = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "-T", "60", "--warmup", "0.2s",
                             "--checkpoint", "1", "-q", "-c",
                             str(usable_cpu()), "--json", str(j)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3.5)
    proc.kill()
    proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    d = load_json_strict(j)
    assert d["status"] == "running"
    s = d["summary"]["latency"]
    assert s["samples"] > 0
    # a checkpoint is consistent: everything up to an interval boundary
    assert hist_total(s["histogram"]) == s["samples"]
    rows = s["intervals"]["data"]
    assert sum(r[1] for r in rows) == s["samples"]
    assert sum(r[5] for r in rows) == s["overruns"]
    assert (s["samples"] + s["overruns"]) % 10_000 == 0   # whole intervals
    assert not list(tmp_path.glob("r.json.tmp.*"))


@needs_root
def test_injected_stall_is_seen(tmp_path):
    """A SCHED_FIFO busy loop of D = 3 ms on the sampler's CPU, at higher
    priority, must show as latency >= D - period, once per stall."""
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    stall_ms, count = 3.0, 8
    lat = subprocess.Popen([RTLAT, "latency", "-T", "4", "--warmup", "0.5s",
                            "-P", "80", "-c", str(cpu), "-q", "--json", str(j),
                            "--hist-bucket", "100", "--hist-size", "100",
                            "--max-latency", "1000"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    st = subprocess.run([sys.executable, str(HERE / "stall.py"), str(cpu),
                         "90", str(stall_ms), "300", "1.0", str(count)],
                        capture_output=True, text=True, timeout=30)
    out, err = lat.communicate(timeout=30)
    assert st.returncode == 0, st.stderr
    stalls = [l for l in st.stdout.splitlines() if l.startswith("stall ")]
    assert len(stalls) == count
    # every stall lasted at least D
    for l in stalls:
        _, t0, t1, _ = l.split()
        assert int(t1) - int(t0) >= stall_ms * 1e6
    assert lat.returncode == 2, err           # --max-latency 1000 exceeded
    assert "exceeded --max-latency 1000.000 us" in err
    d = load_json_strict(j)
    assert d["threshold_exceeded"] is True
    s = d["summary"]["latency"]
    threshold = int(stall_ms * 1e6) - PERIOD_NS
    assert s["max_ns"] >= threshold
    # linear buckets of 100 us: bucket 29 starts at 2.9 ms = D - period
    lin = s["histogram_linear"]
    big = sum(b[2] for b in lin["buckets"] if b[0] >= threshold) \
        + lin["overflow"]
    assert big >= count
    assert s["samples"] + s["overruns"] == 40_000


def start_warmed_up(args):
    """Start rtlat latency ARGS; return (Popen, stderr so far) once its
    warm-up has started (timing relative to the run, not to the process
    start, which a loaded host delays)."""
    lat = subprocess.Popen([RTLAT, "latency"] + [str(a) for a in args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    err = ""
    while "warming up" not in err:
        line = lat.stderr.readline()
        assert line, err
        err += line
    return lat, err


@needs_root
def test_stall_across_warmup_end_keeps_its_lateness(tmp_path):
    """A stall of 1 s starting 0.5 s into the 1 s warm-up: the sampler's
    late wake-up missed deadlines of the measurement, which count as
    overruns - and the first of them as a sample with its lateness (the
    stall used to show as overruns only, max a few us)."""
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    lat, err = start_warmed_up(["-T", "3", "--warmup", "1s", "-P", "80",
                                "-c", cpu, "--json", j])
    st = subprocess.run([sys.executable, str(HERE / "stall.py"), str(cpu),
                         "90", "1000", "0", "0.5", "1"],
                        capture_output=True, text=True, timeout=30)
    out, rest = lat.communicate(timeout=30)
    assert st.returncode == 0, st.stderr
    assert lat.returncode == 0, err + rest
    s = load_json_strict(j)["summary"]["latency"]
    assert s["samples"] + s["overruns"] == 30_000
    # at least the last 0.5 s of the stall is in the measurement
    assert s["overruns"] >= 4000, s
    # the deadlines a wake-up missed are at most its lateness / period:
    # the stall's wake-up carries most of the overruns
    assert s["max_ns"] >= s["overruns"] * PERIOD_NS // 2, s


@needs_root
def test_rel_stall_across_the_whole_measurement_is_its_worst_case(tmp_path):
    """-w rel (no grid): rtlat stopped 0.2 s into the 1 s warm-up until
    after the end of the 1 s measurement. The sampler's relative sleep was
    due in the warm-up and ended after the measurement: it is the sample
    of its deadline one period on inside the measurement, with its
    lateness (at least 1.5 s: the stop ends 2.5 s after it began). It
    counted nothing: the run ended complete, exit 0, with 0 samples and
    the stall unseen (CI: test_wait_backends[rel] under ASan)."""
    j = tmp_path / "r.json"
    lat, err = start_warmed_up(["-T", "1", "--warmup", "1s", "-w", "rel",
                                "-p", "500", "-c", usable_cpu(), "--json",
                                j])
    time.sleep(0.2)
    lat.send_signal(signal.SIGSTOP)
    time.sleep(2.5)
    lat.send_signal(signal.SIGCONT)
    out, rest = lat.communicate(timeout=30)
    s = load_json_strict(j)["summary"]["latency"]
    assert s["samples"] >= 1, (s, err + rest)
    assert s["max_ns"] >= 1_500_000_000 - 500_000, s


@needs_root
def test_stopped_run_accounts_every_interval(tmp_path):
    """rtlat stopped (SIGSTOP) for 2 s in a 4 s run: every interval has its
    RTD line and result row, with samples + overruns = interval / period
    (the missed periods all went to the interval of the late sample, the
    intervals in between had no line)."""
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    lat, err = start_warmed_up(["-T", "4", "--warmup", "0.2s", "-c", cpu,
                                "--json", j])
    time.sleep(0.8)
    lat.send_signal(signal.SIGSTOP)
    time.sleep(2.0)
    lat.send_signal(signal.SIGCONT)
    out, rest = lat.communicate(timeout=30)
    assert lat.returncode == 0, err + rest
    s = load_json_strict(j)["summary"]["latency"]
    assert s["samples"] + s["overruns"] == 40_000
    assert s["overruns"] >= 15_000, s          # 2 s of 100 us periods
    rows = s["intervals"]["data"]
    assert [r[0] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        assert r[1] + r[5] == 10_000, rows
    assert len(rts_lines(out)) == 1
    assert len([l for l in out.splitlines() if l.startswith("RTD|")]) == 4


@needs_root
def test_signal_after_the_end_is_a_complete_run(tmp_path):
    """SIGINT arriving when -T has passed but before rtlat noticed (here:
    rtlat stopped across the end, the signal pending when it continues):
    the run is complete, with the requested duration (it was reported
    interrupted, with more than the requested time)."""
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    lat, err = start_warmed_up(["-T", "1", "--warmup", "0.2s", "-c", cpu,
                                "--json", j])
    time.sleep(0.6)
    lat.send_signal(signal.SIGSTOP)
    time.sleep(1.5)
    lat.send_signal(signal.SIGINT)
    lat.send_signal(signal.SIGCONT)
    out, rest = lat.communicate(timeout=30)
    assert lat.returncode == 0, err + rest
    d = load_json_strict(j)
    assert d["status"] == "complete", rest
    assert d["duration_actual_ns"] == 1_000_000_000
    s = d["summary"]["latency"]
    assert s["samples"] + s["overruns"] == 10_000


TRACEFS = pathlib.Path("/sys/kernel/tracing")


@needs_root
def test_break_stops_at_first_sample_above(tmp_path):
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    tracing = (TRACEFS / "tracing_on").exists()
    if tracing:
        saved_on = (TRACEFS / "tracing_on").read_text().strip()
        (TRACEFS / "tracing_on").write_text("1")
    lat = subprocess.Popen([RTLAT, "latency", "-T", "20", "--warmup", "0.5s",
                            "-P", "80", "-c", str(cpu), "-q", "--json", str(j),
                            "--break", "2000"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    t = time.monotonic()
    st = subprocess.run([sys.executable, str(HERE / "stall.py"), str(cpu),
                         "90", "3", "200", "1.0", "1"],
                        capture_output=True, text=True, timeout=30)
    out, err = lat.communicate(timeout=30)
    assert lat.returncode == 2, err
    assert time.monotonic() - t < 15          # stopped, did not run 20 s
    d = load_json_strict(j)
    assert d["status"] == "break"
    b = d["break"]
    assert b["value_ns"] > 2_000_000
    assert b["series"] == "latency" and b["cpu"] == cpu
    s = d["summary"]["latency"]
    assert s["max_ns"] == b["value_ns"]
    assert s["max_cycle"] == b["cycle"]
    assert "break: latency" in err
    if tracing:
        # the marker is in the trace and tracing stopped at the event
        try:
            assert (TRACEFS / "tracing_on").read_text().strip() == "0"
            assert "rtlat: break: latency %d ns" % b["value_ns"] in \
                (TRACEFS / "trace").read_text()
        finally:
            (TRACEFS / "tracing_on").write_text(saved_on)


# --- privileges ----------------------------------------------------------

def as_nobody(args, memlock=None):
    pre = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
           "--inh-caps=-all"]
    if memlock is not None:
        pre = ["prlimit", "--memlock=%d" % memlock, "--"] + pre
    return subprocess.run(pre + [unprivileged_rtlat()] + args,
                          capture_output=True,
                          text=True, timeout=30)


@pytest.mark.skipif(not is_root(), reason="needs root to switch to nobody")
def test_unprivileged_user_gets_the_fix():
    p = as_nobody(["latency", "-T", "1"])
    assert p.returncode == 1
    assert "not permitted" in p.stderr
    for fix in ("root", "CAP_SYS_NICE", "RLIMIT_RTPRIO"):
        assert fix in p.stderr, p.stderr
    assert p.stdout == ""


@pytest.mark.skipif(not is_root(), reason="needs root to switch to nobody")
@pytest.mark.skipif(SANITIZED, reason="sanitizer run-times make mlockall a no-op")
def test_memlock_zero_shows_errno_and_limit():
    p = as_nobody(["latency", "-T", "1", "--policy", "other"], memlock=0)
    assert p.returncode == 1
    assert "mlockall failed" in p.stderr
    assert "RLIMIT_MEMLOCK is 0 KiB (soft) / 0 KiB (hard)" in p.stderr
    assert re.search(r"\(errno \d+\)", p.stderr)


@pytest.mark.skipif(not is_root(), reason="needs root to switch to nobody")
def test_unprivileged_other_policy_runs():
    p = as_nobody(["latency", "-T", "1", "--warmup", "0.2s", "--policy",
                   "other", "--no-mlock", "-q", "-c", str(usable_cpu())])
    assert p.returncode == 0, p.stderr
    assert len(rts_lines(p.stdout)) == 1
    assert "memory not locked" in p.stderr


class _starve:
    """A normal and a SCHED_FIFO 1 task spinning on @cpu: the real-time
    tasks there need more than RT throttling leaves them, so the kernel
    stops them for its budget every period (sched_rt_runtime_us, the
    fair server of Linux 6.12+)."""

    def __init__(self, cpu):
        self.cpu = str(cpu)
        self.procs = []

    def __enter__(self):
        # each ends by itself after 20 s, should the test be killed
        spin = [sys.executable, "-c", "import time\nend = time.monotonic()"
                " + 20\nwhile time.monotonic() < end: pass"]
        self.procs.append(subprocess.Popen(["taskset", "-c", self.cpu] + spin))
        self.procs.append(subprocess.Popen(["taskset", "-c", self.cpu,
                                            "chrt", "-f", "1"] + spin))
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()


def _rt_throttled():
    with open("/proc/sys/kernel/sched_rt_runtime_us") as f:
        rt = int(f.read())
    return rt >= 0 or os.uname().release.split(".")[:2] >= ["6", "12"]


@needs_root
@pytest.mark.alone
def test_overruns_of_rt_throttling_said(tmp_path):
    """A latency sampler starved by RT throttling (a real-time hog beside
    it): the late wake-ups of the throttled periods and their overruns
    are named RT throttling (threads[].rt_throttling, a warning), and the
    end says that the periods missed make the max a starved task's."""
    if not _rt_throttled():
        pytest.skip("no RT throttling (sched_rt_runtime_us -1, Linux < 6.12)")
    cpu = max(os.sched_getaffinity(0))
    js = tmp_path / "l.json"
    with _starve(cpu):
        p = run(["latency", "-T", "3.5", "-c", str(cpu), "-p", "1000", "-q",
                 "--json", js], check=0)
    d = load_json_strict(js)
    t = d["threads"][0]["rt_throttling"]
    # 3.5 s: a throttled period every second
    assert t["periods"] >= 2, (t, d["warnings"])
    assert t["late_wakeups"] >= t["periods"]
    ov = d["summary"]["latency"]["overruns"]
    # each throttled period (50 ms of 1 ms periods) costs overruns
    assert t["periods"] * 10 <= t["overruns"] <= ov
    # its late wake-ups' lateness: the budget's most, each period
    assert t["time_ns"] >= t["periods"] * 40_000_000
    msg = ("RT throttling: %d overruns in %d throttled periods (%d late "
           "wake-up" % (t["overruns"], t["periods"], t["late_wakeups"]))
    assert any(w.startswith(msg) for w in d["warnings"]), d["warnings"]
    assert msg in p.stderr
    n = d["summary"]["latency"]["samples"]
    note = ("latency: %.1f %% of the periods were missed (%d of %d): the "
            "max is that of a starved task, not a latency (RT throttling: "
            "see above)" % (100.0 * ov / (n + ov), ov, n + ov))
    assert note in d["warnings"], d["warnings"]
    assert note in p.stderr


@needs_root
def test_few_overruns_no_starved_note(tmp_path):
    """Under 1 % of the periods missed: no note (a quiet run), and no
    attribution where no throttled period was seen."""
    js = tmp_path / "l.json"
    p = run(["latency", "-T", "0.5", "-p", "1000", "-q", "--json", js],
            check=0)
    d = load_json_strict(js)
    s = d["summary"]["latency"]
    if s["overruns"] * 100 < s["samples"] + s["overruns"]:
        assert "of the periods were missed" not in p.stderr
    if all(not t["rt_throttling"] or not t["rt_throttling"]["periods"]
           for t in d["threads"]):
        assert "RT throttling: " not in p.stderr
