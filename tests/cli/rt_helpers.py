# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers for the real-time command tests (switch, handshake, cruncher).

- stall(): a helper process that busies one CPU at a SCHED_FIFO priority for
  a known time: the disturbance whose effect the tests look for.
- run_reaped(): run rtlat as a child of a subreaper, so that a process
  rtlat forgot to reap becomes visible (it would be re-parented to us).
- check_stdout(): stdout carries only result lines, each under its header.
"""
import ctypes
import os
import subprocess
import sys
import time

from conftest import RTLAT, check_layout, load_json_strict

PR_SET_CHILD_SUBREAPER = 36
IPC_MECHANISMS = ["sem", "futex", "condvar", "pipe", "eventfd", "mqueue",
                  "signal", "socket"]

# The task is SCHED_FIFO before its first sleep: woken as SCHED_OTHER on
# a CPU a real-time task keeps busy, it would only run (and start its
# stall) when that task blocks, at the same point of the task's cycle
# every time. The gaps' jitter keeps later stalls from a fixed phase too.
_STALL = """
import os, random, sys, time
cpu, prio, ms, delay, count, gap, jitter = sys.argv[1:]
os.sched_setaffinity(0, {int(cpu)})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(int(prio)))
time.sleep(float(delay))
for i in range(int(count)):
    end = time.monotonic() + float(ms) / 1000
    while time.monotonic() < end:
        pass
    time.sleep(float(gap) + random.uniform(0, float(jitter)))
"""


def stall(cpu, prio, ms, delay, count=1, gap=0.3, jitter=0.0):
    """After delay s, busy CPU cpu at SCHED_FIFO prio for ms ms, count
    times gap s (+ a uniform random 0..jitter s) apart. Returns the Popen
    (wait for it: its exit status is 0 when every stall was made)."""
    return subprocess.Popen([sys.executable, "-c", _STALL] +
                            [str(a) for a in (cpu, prio, ms, delay, count,
                                              gap, jitter)])


def stall_after_warmup(cpu, prio, ms, delay, count=1, gap=0.3, jitter=0.0):
    """A during(proc) for run_reaped(): stall() delay s after the run's
    warm-up started, and wait for it (it must have made every stall)."""
    def during(proc):
        wait_warming_up(proc)
        assert stall(cpu, prio, ms, delay, count, gap, jitter).wait() == 0
    return during


def need_cpus(n):
    import pytest
    if len(os.sched_getaffinity(0)) < n:
        pytest.skip("needs %d CPUs" % n)


def _set_subreaper(on):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1 if on else 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _leftovers():
    """Children left after rtlat exited (re-parented to us): reap and
    return their pids."""
    left = []
    deadline = time.monotonic() + 2
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return left
        if pid:
            left.append(pid)
        elif time.monotonic() > deadline:
            # still running: kill every child we know of
            for d in os.listdir("/proc"):
                if d.isdigit():
                    try:
                        with open("/proc/%s/stat" % d) as f:
                            ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                    except OSError:
                        continue
                    if ppid == os.getpid():
                        left.append(int(d))
                        os.kill(int(d), 9)
            deadline = time.monotonic() + 2
        else:
            time.sleep(0.05)


def run_reaped(args, timeout=60, interrupt_after=None, during=None):
    """Run rtlat with args as a child of a subreaper. interrupt_after: send
    SIGINT that many seconds after the warm-up began (the process start
    when the run says nothing of it: -q, no warm-up; a loaded host delays
    the start by more than a second: the run had not begun and counted
    nothing); during(proc): called while it runs
    (it must wait for any process it starts).
    Returns (CompletedProcess, pids of processes left behind)."""
    _set_subreaper(True)
    try:
        p = subprocess.Popen([RTLAT] + [str(a) for a in args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        if during:
            during(p)
        if interrupt_after is not None:
            if "-q" not in args and "--warmup" in args and \
                    "warming up" not in getattr(p, "err_head", ""):
                wait_warming_up(p)
            time.sleep(interrupt_after)
            p.send_signal(2)
        out, err = p.communicate(timeout=timeout)
        err = getattr(p, "err_head", "") + err
        left = _leftovers()
    finally:
        _set_subreaper(False)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err), left


def wait_warming_up(proc, timeout=30):
    """In a during(proc) of run_reaped(): read proc's stderr until the
    warm-up starts (timing relative to the run, not to the process start,
    which a loaded host delays); what was read stays in the result."""
    head = getattr(proc, "err_head", "")
    end = time.monotonic() + timeout
    while "warming up" not in head:
        line = proc.stderr.readline()
        assert line and time.monotonic() < end, head
        head += line
    proc.err_head = head


def run_ipc(tmp_path, args, process=False, rc=0, **kw):
    """Run a two-sided test (switch, handshake) with --json, in processes
    if process; check its exit status and that it left no process behind.
    kw go to run_reaped(). Returns (CompletedProcess, result)."""
    js = tmp_path / "r.json"
    args = list(args) + ["--json", js] + (["--process"] if process else [])
    p, left = run_reaped(args, **kw)
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    assert left == [], "processes left behind: %r" % left
    return p, load(js)


def check_stdout(out):
    """Every stdout line is a result line of the Xenomai-style protocol,
    lined up with its header (check_layout())."""
    for line in out.splitlines():
        assert line.startswith(("==", "RT", "---", "HS", "#")), line
    assert check_layout(out) > 0


def load(path):
    return load_json_strict(path)
