# SPDX-License-Identifier: GPL-2.0-or-later
"""Command-line tests of --trace: the kernel-side breakdown of each sample.

As root with tracefs: the parts add up, an injected stall is named, the
private instance disappears on every exit path and the global tracing state
is left exactly as it was. No absolute latency is asserted.
"""
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import (RTLAT, nobody_cmd, check_layout, hist_total, is_root,
                      load_json_strict, run)

HERE = pathlib.Path(__file__).resolve().parent
TRACEFS = pathlib.Path("/sys/kernel/tracing")
PARTS = ("irq_latency", "handler_to_wakeup", "wakeup_to_running",
         "return_to_user")


def built_in():
    return "[not built in]" not in run(["latency", "--help"], check=0).stdout


def usable_cpu():
    return max(os.sched_getaffinity(0))


# In a private mount namespace: no tracefs (the host's is untouched).
HIDE_TRACEFS = ("umount /sys/kernel/tracing 2>/dev/null; "
                "umount /sys/kernel/debug/tracing 2>/dev/null; "
                "umount /sys/kernel/debug 2>/dev/null; ")

needs_trace = pytest.mark.skipif(
    not (is_root() and TRACEFS.is_dir()),
    reason="needs root and a kernel with tracefs (/sys/kernel/tracing)")


# the tests read the global instance themselves (conftest.tracefs_mounted)
pytestmark = pytest.mark.usefixtures("tracefs_mounted")
needs_built_in = pytest.mark.skipif(not built_in(),
                                    reason="rtlat built without libtracefs")


def global_state():
    """What a --trace run must leave untouched in the global instance."""
    st = {}
    for f in ("tracing_on", "current_tracer", "trace_clock",
              "buffer_size_kb", "set_event", "tracing_cpumask"):
        p = TRACEFS / f
        if p.exists():
            st[f] = p.read_text()
    # a stale rtlat-PID instance (its run was SIGKILLed, e.g. by a
    # machine restart before this test session) is removed by any run
    # by design: it is not state the run must leave alone
    st["instances"] = sorted(d for d in os.listdir(TRACEFS / "instances")
                             if not _stale(d))
    return st


def _stale(name):
    """@name is the instance of an rtlat process that no longer exists."""
    if not name.startswith("rtlat-") or not name[6:].isdigit():
        return False
    return not os.path.exists("/proc/%s" % name[6:])


def our_instances():
    return [d for d in os.listdir(TRACEFS / "instances")
            if d.startswith("rtlat-")]


def check_parts(d):
    """The parts add up to the traced latency (sum of exact means) and no
    part is below the tolerance; returns the trace object."""
    t = d["trace"]
    s = t["summary"]
    lat = d["summary"]["latency"]
    tot = s["traced_latency"]
    assert t["traced"] == tot["samples"]
    assert t["traced"] + sum(t["not_traced"].values()) == lat["samples"]
    for p in PARTS:
        x = s[p]
        assert x["samples"] == tot["samples"]
        assert x["untraced"] == lat["samples"] - tot["samples"]
        assert hist_total(x["histogram"]) == x["samples"]
        if x["samples"]:
            assert x["min_ns"] >= -t["tolerance_ns"]
    if not tot["samples"]:
        assert t["worst"] is None
        return t
    assert abs(sum(s[p]["avg_ns"] for p in PARTS) - tot["avg_ns"]) <= 0.5
    assert tot["max_ns"] <= lat["max_ns"]
    w = t["worst"]
    assert w is not None
    assert sum(w[p + "_ns"] for p in PARTS) == w["latency_ns"]
    assert w["latency_ns"] == tot["max_ns"]
    assert w["dominant_ns"] == max(w[p + "_ns"] for p in PARTS)
    # time off the CPU after the switch-in is part of the return to user
    assert 0 <= w["preempted_ns"] <= w["return_to_user_ns"]
    assert (w["preempted_by"] is None) == (w["preempted"] == 0)
    return t


def rtd_parts(out):
    """RTD lines: the parts of each interval's maximum add up to it."""
    n = 0
    for l in out.splitlines():
        if not l.startswith("RTD|"):
            continue
        f = [x.strip() for x in l.split("|")]
        assert len(f) == 11, l
        if f[7] == "n/a":
            continue
        parts = sum(round(float(x) * 1000) for x in f[7:11])
        assert parts == round(float(f[3]) * 1000), l
        n += 1
    return n


def wait_instance(pid, timeout=30):
    """Until rtlat @pid has started tracing (its instance exists)."""
    t = time.monotonic()
    while "rtlat-%d" % pid not in our_instances():
        assert time.monotonic() - t < timeout, "no instance rtlat-%d" % pid
        time.sleep(0.05)


def wait_started(proc):
    """Read @proc's stderr until it starts its samplers."""
    err = ""
    while "warming up" not in err:
        line = proc.stderr.readline()
        assert line, "rtlat ended before starting: " + err
        err += line


def with_stall(tmp_path, extra, stall_ms, every_ms, count):
    """rtlat latency --trace at priority 80 on one CPU while stall.py
    busy-loops above it there; returns (process, stdout, stderr, json)."""
    cpu = usable_cpu()
    j = tmp_path / "r.json"
    lat = subprocess.Popen([RTLAT, "latency", "--trace", "--warmup", "0.5s",
                            "-P", "80", "-c", str(cpu), "-l", "0", "--json",
                            str(j)] + extra,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    # stall once the samplers run and the warm-up is over (set-up is slow
    # under ASan): rtlat says "warming up..." as it starts them
    wait_started(lat)
    st = subprocess.run([sys.executable, str(HERE / "stall.py"), str(cpu),
                         "90", str(stall_ms), str(every_ms), "0.7",
                         str(count)],
                        capture_output=True, text=True, timeout=30)
    out, err = lat.communicate(timeout=60)
    assert st.returncode == 0, st.stderr
    return lat, out, err, j


# --- errors -----------------------------------------------------------------

@pytest.mark.parametrize("args,msg", [
    (["--trace=frames"], "invalid value 'frames' for --trace"),
])
def test_trace_bad_mode(args, msg):
    p = run(["latency"] + args, check=1)
    assert msg in p.stderr


@pytest.mark.skipif(built_in(), reason="rtlat has --trace built in")
def test_trace_not_built_in():
    p = run(["latency", "--trace", "-T", "1"], check=1)
    assert "--trace is not built in" in p.stderr
    assert "libtracefs" in p.stderr and p.stdout == ""


@needs_built_in
@pytest.mark.parametrize("args,msg", [
    (["-w", "busy"], "--trace needs a timer the kernel arms"),
    (["-w", "rel"], "--trace needs a timer the kernel arms"),
    (["--clock", "realtime"], "--trace needs --clock monotonic"),
])
def test_trace_needs_a_timer(args, msg):
    p = run(["latency", "--trace", "-T", "1"] + args, check=1)
    assert msg in p.stderr and p.stdout == ""


@needs_built_in
@needs_trace
def test_trace_unprivileged_names_root():
    p = subprocess.run(nobody_cmd() + ["latency", "--trace", "-T", "1", "--policy", "other",
                        "--no-mlock"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1
    assert "--trace needs root" in p.stderr, p.stderr
    assert p.stdout == ""


@needs_built_in
@needs_trace
def test_trace_mounts_tracefs_when_needed(tmp_path):
    """In a mount namespace without tracefs (the host's is untouched),
    --trace mounts it on /sys/kernel/tracing, as rtla does, measures, and
    unmounts it at the end (it used to stop with "tracefs is not
    mounted")."""
    js = tmp_path / "r.json"
    script = (HIDE_TRACEFS +
              "grep -c ' tracefs ' /proc/mounts; "
              "%s latency --trace -T 1 -c %d --json %s; rc=$?; "
              "grep -c ' tracefs ' /proc/mounts; exit $rc"
              % (RTLAT, usable_cpu(), js))
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh",
                        "-c", script], capture_output=True, text=True,
                       timeout=60)
    counts = [ln for ln in p.stdout.splitlines() if ln.strip().isdigit()]
    if counts[:1] != ["0"]:
        pytest.skip("could not hide tracefs in a mount namespace")
    assert p.returncode == 0, p.stderr
    assert "mounted tracefs on /sys/kernel/tracing (unmounted when rtlat " \
        "ends)" in p.stderr
    assert counts == ["0", "0"], p.stdout          # unmounted at the end
    d = load_json_strict(js)
    assert d["status"] == "complete"
    assert d["trace"]["traced"] > 0
    check_parts(d)


@needs_built_in
@needs_trace
def test_trace_mount_shared_by_two_runs(tmp_path):
    """Run A mounts tracefs, run B uses A's mount and ends after it: A
    keeps the mount for B (detaching it left B's instance behind, its
    buffers allocated); after both, no instance and no mount remain."""
    cpu = usable_cpu()
    script = (HIDE_TRACEFS +
              "grep -c ' tracefs ' /proc/mounts; "
              "%(r)s latency --trace -T 1 -c %(c)d -q >/dev/null & a=$!; "
              "sleep 0.4; "
              "%(r)s latency --trace -T 2 -c %(c)d -q >/dev/null; rb=$?; "
              "wait $a; ra=$?; "
              "ls /sys/kernel/tracing/instances 2>/dev/null | grep -c rtlat; "
              "grep -c ' tracefs ' /proc/mounts; exit $((ra + rb))"
              % {"r": RTLAT, "c": cpu})
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh",
                        "-c", script], capture_output=True, text=True,
                       timeout=90)
    counts = [ln for ln in p.stdout.splitlines() if ln.strip().isdigit()]
    if counts[:1] != ["0"]:
        pytest.skip("could not hide tracefs in a mount namespace")
    assert p.returncode == 0, p.stderr
    # no rtlat instance left; the mount itself may stay only while used
    assert counts[1:] in (["0", "0"], ["0", "1"]), (counts, p.stderr)


@needs_built_in
@needs_trace
def test_trace_timerlat_mode_needs_the_tracer():
    tracers = (TRACEFS / "available_tracers").read_text().split()
    if "timerlat" in tracers:
        pytest.skip("this kernel has the timerlat tracer")
    p = run(["latency", "--trace=timerlat", "-T", "1"], check=1)
    assert "no timerlat tracer (CONFIG_TIMERLAT_TRACER)" in p.stderr


# --- measurements -------------------------------------------------------------

@needs_built_in
@needs_trace
def test_trace_five_seconds_parts_add_up(tmp_path):
    before = global_state()
    j = tmp_path / "r.json"
    # 20 intervals of 250 ms: an interval's maximum is broken down when its
    # sample was traced whole, which a loaded machine denies now and then
    # (5 intervals of 1 s had none, once in CI's fresh root)
    p = run(["latency", "--trace", "-T", "5", "-c", str(usable_cpu()),
             "--warmup", "0.5s", "--interval", "250ms", "--json", j],
            check=0)
    assert global_state() == before
    assert not our_instances()
    out = p.stdout
    assert "== Trace: kernel trace events" in out
    assert re.search(r"tracefs instance rtlat-\d+, trace clock mono", out)
    assert rtd_parts(out) >= 1
    d = load_json_strict(j)
    assert d["status"] == "complete"
    t = check_parts(d)
    lat = d["summary"]["latency"]
    assert t["method"] == "events" and t["trace_clock"] == "mono"
    # nearly every sample is broken down on a quiet-enough machine; what is
    # not is counted with its reason
    assert t["traced"] >= lat["samples"] // 2
    assert len(t["threads"]) == 1
    assert t["threads"][0]["series"]["traced_latency"]["samples"] == \
        t["traced"]
    # RTK lines: one per part and the total, in the stated order
    rtk = [l for l in out.splitlines() if l.startswith("RTK|")]
    assert len(rtk) == 6
    assert [l.split("|")[1].strip() for l in rtk[1:]] == [
        "irq latency", "handler to wake-up", "wake-up to running",
        "return to user", "traced latency"]
    assert int(rtk[5].split("|")[2]) == t["traced"]
    # RTS: the worst sample's parts, when it was broken down; the four
    # columns line up with RTH's, in RTD, "---|" and RTS lines alike
    assert check_layout(out) >= 2
    rts = [l for l in out.splitlines() if l.startswith("RTS|")]
    f = [x.strip() for x in rts[-1].split("|")]
    if f[6] != "n/a":
        assert sum(round(float(x) * 1000) for x in f[6:10]) == \
            lat["max_ns"]
    # the analysis and the raw events next to the result
    assert "RTW|worst sample:" in out and "RTW|dominant:" in out
    ev = tmp_path / "r.trace.txt"
    assert t["events_file"] == str(ev)
    text = ev.read_text()
    assert "hrtimer_expire_entry" in text and "sched_waking" in text
    assert "# sampler 0 (tid %d)" % d["threads"][0]["tid"] in text


@needs_built_in
@needs_trace
def test_trace_stall_is_named(tmp_path):
    """A SCHED_FIFO busy loop above the sampler on its CPU: the worst
    sample waited to run, and the analysis names the stalling task."""
    # 100 ms: well above the hiccups of a loaded virtual machine (more than
    # 40 ms seen, in return to user: it then was the worst sample)
    lat, out, err, j = with_stall(tmp_path, ["-T", "4"], 100, 400, 5)
    assert lat.returncode == 0, err
    d = load_json_strict(j)
    t = check_parts(d)
    w = t["worst"]
    assert w["latency_ns"] >= 95_000_000
    assert w["dominant_pct"] > 50
    if w["dominant"] == "return_to_user":
        # the stall began in the few us between the sampler's switch-in
        # and its clock read (seen once in CI): it was preempted on its way
        # back for the whole stall, and the preempting task is named
        assert w["preempted"] >= 1, w
        assert w["preempted_ns"] >= 95_000_000, w
        assert w["preempted_by"]["comm"] == "python3", w
        assert w["preempted_by"]["kernel_prio"] == 99 - 90
        assert re.search(r"RTW\|the sampler was preempted \d+ time\(s\) on "
                         r"its way back to user space, off the CPU [\d.]+ us "
                         r"in all; first by python3 \(pid \d+, rt priority "
                         r"90\)", out), out
        assert not our_instances()
        return
    assert w["dominant"] == "wakeup_to_running"
    assert "RTW|dominant: wake-up to running" in out
    # the stalling task is named: switched out for the sampler, or (when
    # another real-time task of the machine ran between them) seen running
    # on the CPU after the wake-up
    if w["switched_out"]["comm"] == "python3":
        assert w["switched_out"]["kernel_prio"] == 99 - 90
        assert re.search(r"RTW\|before the sampler ran, the CPU ran python3 "
                         r"\(pid \d+, rt priority 90\)", out), out
    else:
        assert "python3" in w["tasks_after_wakeup"], w
        assert re.search(r"RTW\|other tasks current on CPU \d+ after the "
                         r"wake-up: .*python3", out), out
    assert not our_instances()


@needs_built_in
@needs_trace
def test_trace_break_analyses_the_break_sample(tmp_path):
    before = global_state()
    lat, out, err, j = with_stall(tmp_path, ["-T", "20", "--break", "3000"],
                                  5, 200, 1)
    assert lat.returncode == 2, err
    d = load_json_strict(j)
    assert d["status"] == "break"
    b = d["trace"]["break"] or d["trace"]["worst"]
    assert b["latency_ns"] > 3_000_000
    assert sum(b[p + "_ns"] for p in PARTS) == b["latency_ns"]
    assert "RTW|" in out
    assert not our_instances()
    # --break also stops the global trace (an existing feature): that is
    # the only global change, restore it
    after = global_state()
    (TRACEFS / "tracing_on").write_text(before["tracing_on"])
    after["tracing_on"] = before["tracing_on"]
    assert after == before


@needs_built_in
@needs_trace
def test_trace_sigint_removes_the_instance(tmp_path):
    before = global_state()
    j = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "--trace", "--warmup", "0.2s",
                             "-c", str(usable_cpu()), "--json", str(j)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    wait_instance(proc.pid)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert global_state() == before
    d = load_json_strict(j)
    assert d["status"] == "interrupted"
    check_parts(d)


@needs_built_in
@needs_trace
def test_trace_killed_instance_removed_by_next_run(tmp_path):
    proc = subprocess.Popen([RTLAT, "latency", "--trace", "--warmup", "0.2s",
                             "-q", "-c", str(usable_cpu())],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_instance(proc.pid)
    name = "rtlat-%d" % proc.pid
    proc.kill()
    proc.wait(timeout=10)
    assert name in our_instances()        # SIGKILL cannot clean up
    run(["latency", "--trace", "-T", "1", "--warmup", "0.2s", "-q", "-c",
         str(usable_cpu())], check=0)
    assert name not in our_instances()


@needs_built_in
@needs_trace
@pytest.mark.parametrize("sig", [signal.SIGALRM, signal.SIGVTALRM,
                                 signal.SIGPROF, signal.SIGXCPU,
                                 signal.SIGRTMIN + 10],
                         ids=lambda s: signal.Signals(s).name
                         if s < signal.SIGRTMIN else "SIGRTMIN+10")
def test_trace_terminating_signal_as_sigterm(tmp_path, sig):
    """Any signal whose default action ends the process ends a --trace run
    as SIGTERM does: the result complete (status interrupted, not left at
    running), the instance removed, exit 0."""
    before = global_state()
    j = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "--trace", "--warmup", "0.2s",
                             "-c", str(usable_cpu()), "--json", str(j)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    wait_instance(proc.pid)
    time.sleep(1)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert global_state() == before
    d = load_json_strict(j)
    assert d["status"] == "interrupted"
    assert "rtlat-%d" % proc.pid not in our_instances()


@needs_built_in
@needs_trace
def test_check_names_a_stale_instance_and_trace_removes_it(tmp_path):
    """A --trace run killed with SIGKILL leaves its instance: rtlat check
    names it (a warning, with the fix), the next --trace run removes it and
    says so; then check finds none."""
    proc = subprocess.Popen([RTLAT, "latency", "--trace", "--warmup", "0.2s",
                             "-q", "-c", str(usable_cpu())],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_instance(proc.pid)
    name = "rtlat-%d" % proc.pid
    proc.kill()
    proc.wait(timeout=10)
    assert name in our_instances()        # SIGKILL cannot clean up
    d = json.loads(run(["check", "--json", "-T", "0"]).stdout)
    it = {i["id"]: i for i in d["items"]}["trace_instances"]
    assert it["verdict"] == "warning", it
    assert "of rtlat runs that are gone (killed): " in it["found"]
    assert name in it["found"].split(": ", 1)[1].split(";")[0].split()
    assert "the next rtlat --trace run removes them" in it["fix"]
    r = run(["latency", "--trace", "-T", "1", "--warmup", "0.2s", "-q", "-c",
             str(usable_cpu())], check=0)
    assert name not in our_instances()
    assert "stale tracefs instance" in r.stderr and name in r.stderr
    d = json.loads(run(["check", "--json", "-T", "0"]).stdout)
    it = {i["id"]: i for i in d["items"]}["trace_instances"]
    assert name not in it["found"]


@needs_built_in
@needs_trace
@pytest.mark.parametrize("backend", ["timerfd", "posix"])
def test_trace_other_timer_backends(tmp_path, backend):
    j = tmp_path / "r.json"
    run(["latency", "--trace", "-T", "2", "-w", backend, "--warmup", "0.3s",
         "-c", str(usable_cpu()), "-q", "--json", j], check=0)
    d = load_json_strict(j)
    t = check_parts(d)
    assert t["traced"] >= d["summary"]["latency"]["samples"] // 2
