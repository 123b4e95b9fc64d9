# SPDX-License-Identifier: GPL-2.0-or-later
"""Signals at the edges of a run: SIGUSR1/SIGUSR2 print a snapshot and the
run goes on (cyclictest prints its current status on SIGUSR1; rtlat used to
die by the default action and lose the run); a SIGINT from the first
instruction of main() on ends the run cleanly; a run stopped in its
warm-up never ends before it started."""
import signal
import time

import pytest

from conftest import needs_root
from rt_helpers import load, run_reaped, wait_warming_up

TESTS = {
    "latency": ["latency", "-p", "1000"],
    "switch": ["switch"],
    "handshake": ["handshake"],
    "cruncher": ["cruncher", "--ideal", "5ms"],
    "noise": ["noise"],
}


def _signals_after_warmup(sigs, delay):
    def during(proc):
        wait_warming_up(proc)
        for sig in sigs:
            time.sleep(delay)
            proc.send_signal(sig)
    return during


def _blocked(pid, sig):
    """sig is blocked in process pid (SigBlk of /proc/PID/status)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigBlk:"):
                    return int(line.split()[1], 16) >> (sig - 1) & 1
    except OSError:
        pass
    return False


@needs_root
def test_cyclic_sigusr_prints_current_status(tmp_path):
    js = tmp_path / "c.json"
    p, left = run_reaped(["cyclic", "-p", "80", "-i", "1000", "-D", "3",
                          "--warmup", "0.2", "--json", js],
                         during=_signals_after_warmup(
                             [signal.SIGUSR1, signal.SIGUSR2], 0.8))
    assert p.returncode == 0, p.stderr
    assert left == []
    blocks = p.stderr.split("# rtlat cyclic current status:\n")[1:]
    assert len(blocks) == 2, p.stderr
    for b in blocks:
        tline = b.split("\n", 1)[0]
        assert tline.startswith("T: 0 "), b
        assert int(tline.split("C:")[1].split()[0]) > 0
    d = load(js)
    assert d["status"] == "complete"
    t = d["thread"]["0"]
    assert t["cycles"] + t["overruns"] == 3000
    assert p.stdout.rstrip("\n").split("\n")[-1].startswith("T: 0 ")


@needs_root
@pytest.mark.parametrize("test", sorted(TESTS))
def test_sigusr_never_loses_the_run(tmp_path, test):
    js = tmp_path / "r.json"
    p, left = run_reaped(TESTS[test] + ["-T", "4", "--warmup", "0.2",
                                        "--json", js],
                         during=_signals_after_warmup(
                             [signal.SIGUSR1, signal.SIGUSR2], 0.8))
    assert p.returncode == 0, p.stderr
    assert left == []
    assert p.stderr.count("# snapshot at ") == 2, p.stderr
    d = load(js)
    assert d["status"] == "complete"
    assert any(s["samples"] > 0 for s in d["summary"].values())


@needs_root
def test_sigint_while_starting_ends_cleanly(tmp_path):
    """The stop signals are blocked before anything else, so a SIGINT in
    the first milliseconds (option parsing, system checks) is taken by the
    engine: exit 0, a result 'interrupted'. It used to kill rtlat."""
    import subprocess
    from conftest import RTLAT
    js = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "-T", "10", "--json", str(js)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    end = time.monotonic() + 10
    while not _blocked(proc.pid, signal.SIGINT):
        assert time.monotonic() < end and proc.poll() is None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    d = load(js)
    assert d["status"] == "interrupted"
    assert d["start_time"] <= d["end_time"]


def test_other_commands_keep_the_default_action():
    """report, db, sysinfo... do not inherit the blocked signals."""
    import subprocess
    from conftest import RTLAT
    # SIGINT at its default action in the child, as from a terminal (a
    # background job of a script, as a loaded test run may be, ignores it)
    proc = subprocess.Popen([RTLAT, "report", "/dev/stdin"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                             signal.SIG_DFL))
    # wait until it sleeps reading its input, signals unblocked
    end = time.monotonic() + 20
    while True:
        with open("/proc/%d/stat" % proc.pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        if state == "S" and not _blocked(proc.pid, signal.SIGINT):
            break
        assert time.monotonic() < end and proc.poll() is None
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGINT, (proc.returncode, err)


@needs_root
@pytest.mark.parametrize("test", sorted(TESTS) + ["cyclic"])
def test_interrupt_in_warmup_never_ends_before_start(tmp_path, test):
    """Ctrl-C in the warm-up: 0 samples and start_time <= end_time (the
    start was the end of a warm-up that never finished: 0.5 s later)."""
    js = tmp_path / "r.json"
    args = (["cyclic", "-p", "80"] if test == "cyclic"
            else TESTS[test] + ["-T", "5"])
    p, left = run_reaped(args + ["--warmup", "3", "--json", js],
                         during=_signals_after_warmup([signal.SIGINT], 0.5))
    assert p.returncode == 0, p.stderr
    d = load(js)
    assert d["start_time"] <= d["end_time"], (d["start_time"],
                                              d["end_time"])
    if test != "cyclic":
        assert d["status"] == "interrupted"
        assert all(s["samples"] == 0 for s in d["summary"].values())


@needs_root
def test_sigint_while_loads_start_acts_at_once(tmp_path):
    """A Ctrl-C while a slow load sets itself up (cache: it sizes and fills
    its buffers, about 1 s here, 3 s on a busy host) stops the run at once
    instead of after the loads are up; the result is written."""
    import subprocess
    from conftest import RTLAT
    js = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "-T", "5", "--load", "cache",
                             "--json", str(js)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 10
    while not _blocked(proc.pid, signal.SIGINT):
        assert time.monotonic() < end and proc.poll() is None
    time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopped while the loads were starting (cache)" in err, err
    assert "loads running" not in err
    d = load(js)
    assert d["status"] == "interrupted"
    assert all(s["samples"] == 0 for s in d["summary"].values())


@needs_root
def test_nohup_keeps_sighup_ignored(tmp_path):
    """Under nohup (SIGHUP ignored at the start) a hang-up does not end
    the run (blocked, Linux would queue it for the engine: it ended the
    run), while SIGINT still does."""
    import subprocess
    from conftest import RTLAT
    for sig, status in ((signal.SIGHUP, "complete"),
                        (signal.SIGINT, "interrupted")):
        js = tmp_path / ("%d.json" % sig)
        proc = subprocess.Popen(
            [RTLAT, "latency", "-T", "2", "--warmup", "0.2", "-p", "1000",
             "--json", str(js)], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
        wait_warming_up(proc)
        time.sleep(0.5)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert load(js)["status"] == status, (sig, err)


@needs_root
def test_sigusr_during_cruncher_calibration_is_not_dropped(tmp_path):
    """A SIGUSR1 while the cruncher calibrates (before the display runs)
    gives its snapshot once the run is under way (it was taken and
    dropped)."""
    js = tmp_path / "r.json"

    def during(proc):
        wait_warming_up(proc)           # said before calibration
        proc.send_signal(signal.SIGUSR1)
    p, left = run_reaped(["cruncher", "-T", "1", "--ideal", "200ms",
                          "--json", js], during=during)
    assert p.returncode == 0, p.stderr
    assert p.stderr.count("# snapshot at ") == 1, p.stderr
    assert load(js)["status"] == "complete"


def test_load_sigusr_prints_the_loads_so_far(tmp_path):
    """rtlat load: SIGUSR1/SIGUSR2 print what each load achieved so far
    on stderr and the loads go on (they were taken and ignored)."""
    import subprocess
    from conftest import RTLAT
    js = tmp_path / "l.json"
    proc = subprocess.Popen([RTLAT, "load", "cpu", "-T", "2", "--json",
                             str(js)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    head = ""
    while "running cpu" not in head:
        line = proc.stderr.readline()
        assert line, head
        head += line
    time.sleep(0.3)
    proc.send_signal(signal.SIGUSR1)
    time.sleep(0.3)
    proc.send_signal(signal.SIGUSR2)
    out, err = proc.communicate(timeout=60)
    err = head + err
    assert proc.returncode == 0, err
    snaps = err.split("# snapshot: loads so far")[1:]
    assert len(snaps) == 2, err
    assert all("#   cpu " in s and "ops/s" in s for s in snaps), err
    [ld] = load(js)["loads"]
    assert ld["name"] == "cpu" and ld["count"] > 0


@needs_root
def test_rtlats_own_realtime_signals_from_outside_do_nothing(tmp_path):
    """SIGRTMIN+3 and +4 are rtlat's IPC signals: sent from outside they
    used to kill the run (exit 165..169, the result at 'running'); now
    they stay pending, and the run ends complete."""
    js = tmp_path / "r.json"
    p, left = run_reaped(["latency", "-p", "1000", "-T", "3", "--warmup",
                          "0.2", "--json", js],
                         during=_signals_after_warmup(
                             [signal.SIGRTMIN + 3, signal.SIGRTMIN + 4],
                             0.5))
    assert p.returncode == 0, p.stderr
    assert left == []
    assert load(js)["status"] == "complete"


@needs_root
@pytest.mark.parametrize("n", [0, 5, 7])
def test_other_realtime_signals_end_the_run_as_sigterm(tmp_path, n):
    """SIGRTMIN and SIGRTMIN+5..+7 used to kill the run; now they end it
    as SIGTERM does: summary, result 'interrupted', exit 0."""
    js = tmp_path / "r.json"
    p, left = run_reaped(["latency", "-p", "1000", "-T", "10", "--warmup",
                          "0.2", "--json", js],
                         during=_signals_after_warmup(
                             [signal.SIGRTMIN + n], 0.8))
    assert p.returncode == 0, p.stderr
    assert left == []
    assert load(js)["status"] == "interrupted"
