# SPDX-License-Identifier: GPL-2.0-or-later
"""Where rtlat's own threads run (--housekeeping, issue 15).

Read from /proc/PID/task/*/status (Cpus_allowed_list) of a running rtlat:
the samplers (SCHED_FIFO) on their CPU, every other thread on the
housekeeping CPUs; the header and the result say the same.
"""
import json
import os
import re
import subprocess
import time

import pytest

from conftest import RTLAT, SANITIZED, needs_root
from test_trace import needs_built_in, needs_trace

# the --trace tests read tracefs themselves (conftest.tracefs_mounted)
pytestmark = pytest.mark.usefixtures("tracefs_mounted")


def status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split()[1]
    return None


def wait_measuring(p, threads=2, timeout=30):
    """Until @p runs its samplers (more than one thread) with its memory
    locked: the state a measurement is taken in. (A sanitized build does
    not lock its memory: the shadow memory is too large; the threads
    alone say it then.)"""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert p.poll() is None, p.communicate()
        try:
            n = len(os.listdir("/proc/%d/task" % p.pid))
            locked = int(status(p.pid, "VmLck") or 0)
        except FileNotFoundError:
            n, locked = 0, 0
        if n >= threads and (locked > 0 or SANITIZED):
            return
        time.sleep(0.05)
    pytest.fail("rtlat %d did not start measuring" % p.pid)

SCHED_FIFO = 1

needs_two_cpus = pytest.mark.skipif(
    not {0, 1} <= os.sched_getaffinity(0),
    reason="needs CPUs 0 and 1 (this machine has 2)")


def tasks(pid):
    """{tid: (policy, Cpus_allowed_list)} of process @pid."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        base = "/proc/%d/task/%s/" % (pid, tid)
        try:
            with open(base + "stat") as f:
                policy = int(f.read().rsplit(")", 1)[1].split()[38])
            with open(base + "status") as f:
                allowed = [l.split()[1] for l in f
                           if l.startswith("Cpus_allowed_list:")][0]
        except (FileNotFoundError, ProcessLookupError):
            continue
        out[int(tid)] = (policy, allowed)
    return out


def placement(args, tmp_path, threads=3):
    """Run rtlat @args; returns (its threads, stdout, the JSON result)."""
    js = tmp_path / "r.json"
    p = subprocess.Popen([RTLAT] + args + ["--json", str(js)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        wait_measuring(p, threads)
        time.sleep(0.2)		# the display thread is started last
        th = tasks(p.pid)
    finally:
        out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    return th, out, json.loads(js.read_text())


def split(th):
    samplers = [a for pol, a in th.values() if pol == SCHED_FIFO]
    others = [a for pol, a in th.values() if pol != SCHED_FIFO]
    return samplers, others


LATENCY = ["latency", "-c", "1", "-p", "1000", "-T", "2", "--warmup", "0"]


@needs_root
@needs_two_cpus
def test_default_puts_own_threads_on_cpus_not_measured(tmp_path):
    th, out, d = placement(LATENCY, tmp_path)
    samplers, others = split(th)
    assert samplers == ["1"]
    # main and display at least, none of them on the measured CPU
    assert len(others) >= 2 and set(others) == {"0"}, th
    assert "== Housekeeping: CPU 0 (auto: not measured)" in out
    assert d["config"]["housekeeping"] == {
        "policy": "auto", "cpus": "0", "why": "auto: not measured"}


@needs_trace
@needs_built_in
@needs_two_cpus
def test_trace_reader_is_on_the_housekeeping_cpu(tmp_path):
    """--trace: rtlat-trace in rtlat's place, its trace reader (the display
    thread) with main on the CPU not measured."""
    th, out, d = placement(LATENCY + ["--trace"], tmp_path)
    samplers, others = split(th)
    assert samplers == ["1"]
    assert len(others) >= 2 and set(others) == {"0"}, th
    assert "== Housekeeping: CPU 0 (auto: not measured)" in out
    assert d["config"]["housekeeping"]["cpus"] == "0"


@needs_root
@needs_two_cpus
@pytest.mark.parametrize("where,want", [
    ("measured", "1"), ("any", "0-1"), ("1", "1"), ("0", "0")])
def test_housekeeping_option(tmp_path, where, want):
    th, out, d = placement(LATENCY + ["--housekeeping", where], tmp_path)
    samplers, others = split(th)
    assert samplers == ["1"]
    assert set(others) == {want}, th
    assert d["config"]["housekeeping"]["cpus"] == want
    assert "== Housekeeping: CPU %s (" % want in out


@needs_root
@needs_two_cpus
def test_every_cpu_measured_is_as_cyclictest(tmp_path):
    """No CPU left over: on the measured ones (all of them here)."""
    th, out, d = placement(["latency", "-c", "0,1", "-p", "1000", "-T", "2",
                            "--warmup", "0"], tmp_path, threads=4)
    samplers, others = split(th)
    assert sorted(samplers) == ["0", "1"]
    assert set(others) == {"0-1"}, th
    assert d["config"]["housekeeping"]["why"] == "auto: every CPU is measured"


@needs_root
@needs_two_cpus
def test_load_guard_moves_its_command_does_not(tmp_path):
    """A --load-cmd guard is one of rtlat's own: on the housekeeping CPU;
    the command it runs is the load: where rtlat was started."""
    js = tmp_path / "r.json"
    p = subprocess.Popen([RTLAT] + LATENCY + ["-T", "3", "--load-cmd",
                                              "sleep 30 & wait",
                                              "--json", str(js)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        wait_measuring(p, 3)
        time.sleep(0.3)
        guard = cmd = None
        for c in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split():
            with open("/proc/%s/comm" % c) as f:
                if f.read().strip() == "rtlat-load-cmd":
                    guard = int(c)
        assert guard, "no load guard"
        kids = open("/proc/%d/task/%d/children" % (guard, guard)).read().split()
        assert kids, "the guard has no command"
        cmd = int(kids[0])
        assert set(a for _, a in tasks(guard).values()) == {"0"}
        assert set(a for _, a in tasks(cmd).values()) == {"0-1"}
    finally:
        p.communicate(timeout=60)
    assert p.returncode == 0


@needs_root
@needs_two_cpus
def test_cyclic_mainaffinity(tmp_path):
    """cyclic: the default as latency's, --mainaffinity as cyclictest's."""
    base = ["cyclic", "-m", "-p", "80", "-t", "1", "-a", "1", "-i", "1000",
            "-q", "-D", "2"]
    th, _, d = placement(base, tmp_path)
    samplers, others = split(th)
    assert samplers == ["1"] and set(others) == {"0"}, th
    assert d["housekeeping"]["cpus"] == "0"
    th, _, d = placement(base + ["--mainaffinity", "1"], tmp_path)
    samplers, others = split(th)
    assert samplers == ["1"] and set(others) == {"1"}, th
    assert d["housekeeping"] == {"policy": "list", "cpus": "1",
                                 "why": "as given"}


def test_housekeeping_bad_values():
    for bad, msg in (("foo", "expected auto, measured, any or a CPU list"),
                     ("1000", "no CPU rtlat may use")):
        p = subprocess.run([RTLAT, "latency", "-T", "1", "--housekeeping",
                            bad], capture_output=True, text=True)
        assert p.returncode == 1
        assert "--housekeeping" in p.stderr and msg in p.stderr, p.stderr


# --- a sampler that gets no CPU ----------------------------------------------

def _hog(cpu, secs):
    """A SCHED_FIFO 90 busy loop on @cpu for @secs s (timeout runs as
    SCHED_OTHER on any CPU, so it always gets to stop it)."""
    return subprocess.Popen(["timeout", str(secs), "chrt", "-f", "90",
                             "taskset", "-c", str(cpu), "sh", "-c",
                             "while :; do :; done"])


@needs_root
@pytest.mark.parametrize("how", ["end", "signal", "startup"])
def test_starved_sampler_does_not_hang_the_run(tmp_path, how):
    """A sampler whose CPU a task of higher priority holds can neither
    sample nor end: rtlat used to wait for it for ever (and ignored
    SIGINT/SIGTERM meanwhile, a trial finding). Now the end of the
    measurement (exit 1, the sampler named) and a signal, in the
    measurement or while the sampler is still starting, end it: the
    sampler is made SCHED_OTHER to let it end."""
    import signal
    cpu = max(os.sched_getaffinity(0))
    js = tmp_path / "r.json"
    hog = _hog(cpu, 20) if how == "startup" else None
    p = subprocess.Popen([RTLAT, "latency", "-c", str(cpu), "-P", "80",
                          "-T", "1" if how == "end" else "30", "--warmup",
                          "0", "-q", "--json", str(js)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        if hog is None:
            wait_measuring(p)
            hog = _hog(cpu, 20)
        if how != "end":
            time.sleep(1)
            p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=15)
    finally:
        if hog:
            hog.terminate()     # timeout passes it on to the busy loop
            hog.wait()
        if p.poll() is None:
            p.kill()
            p.wait()
    who = r"sampler 0 \(CPU %d, tid \d+\)" % cpu
    d = json.loads(js.read_text())
    warned = [w for w in d["warnings"] if "made SCHED_OTHER to let it end"
              in w]
    assert len(warned) == 1, d["warnings"]
    assert re.match(who + " did not stop 2 s after the stop: it got no CPU",
                    warned[0]), warned
    if how == "end":
        assert p.returncode == 1, err
        assert d["status"] == "error"
        assert re.search(who + " did not end 2 s after the end of the "
                         "measurement: it got no CPU \\(a task of higher "
                         "priority holds it\\), its latency there is not "
                         "measured", err), err
    else:
        assert p.returncode == 0, err
        assert d["status"] == "interrupted"
