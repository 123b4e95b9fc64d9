# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat irq: the net source over rtlat's own veth pair (accounting, the
three series, a stall on the receiver's CPU), the two-process mode
(--respond / --source net:HOST) over a veth pair between two namespaces of
the test's, the interrupt thread's priority and affinity set and restored,
nothing left behind after the end, SIGINT and SIGKILL, and the errors."""
import os
import re
import signal
import socket
import subprocess
import time

import pytest

from conftest import (RTLAT, drop_to_nobody, unprivileged_rtlat, hist_total, is_root, measured_periods,
                      needs_root, run)
from procs import session_procs, start, wait_session_empty
from rt_helpers import (check_stdout, load, need_cpus, run_ipc,
                        stall_after_warmup, wait_warming_up)

SERIES = ("latency", "kernel_to_task", "stimulus_to_kernel")


def check_accounting(d, series=SERIES):
    ev = d["test_data"]["events"]
    assert ev["sent"] > 0
    assert ev["served"] + ev["lost"] == ev["sent"]
    for name in series:
        s = d["summary"][name]
        # every event is a sample or a miss of every series
        assert s["samples"] + s["lost"] == ev["sent"], name
        assert hist_total(s["histogram"]) == s["samples"]
    s = d["summary"][series[0]]
    assert s["samples"] == ev["served"] and s["lost"] == ev["lost"]
    split = d["summary"][series[1]]
    assert split["samples"] == ev["served"] - ev["without_kernel_stamp"] \
        - ev["kernel_stamp_refused"]
    return ev


def netns_inodes_of(pid):
    """The network namespaces pid holds open (fds), as 'net:[N]'."""
    out = set()
    d = "/proc/%d/fd" % pid
    for fd in os.listdir(d):
        try:
            link = os.readlink(os.path.join(d, fd))
        except OSError:
            continue
        if link.startswith("net:["):
            out.add(link)
    return out


def netns_in_use():
    """Every network namespace a process is in or holds open."""
    out = set()
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            out.add(os.readlink("/proc/%s/ns/net" % p))
            out |= netns_inodes_of(int(p))
        except OSError:
            continue
    return out


def irq_thread():
    """(irq, pid) of an interrupt thread of this system, or skip."""
    for p in sorted(os.listdir("/proc"), key=lambda x: (len(x), x)):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % p) as f:
                comm = f.read().strip()
        except OSError:
            continue
        if comm.startswith("irq/") and "-s-" not in comm:
            irq = comm[4:].split("-", 1)[0]
            if irq.isdigit():
                return int(irq), int(p)
    pytest.skip("no interrupt thread on this system (not PREEMPT_RT, "
                "no threadirqs)")


def sched_of(pid):
    return os.sched_getscheduler(pid), os.sched_getparam(pid).sched_priority


def affinity_of(irq):
    with open("/proc/irq/%d/smp_affinity_list" % irq) as f:
        return f.read().strip()


@needs_root
def test_net_accounts_every_event(tmp_path):
    p, d = run_ipc(tmp_path, ["irq", "-T", "2", "--warmup", "200ms"])
    check_stdout(p.stdout)
    assert d["test"] == "irq" and d["status"] == "complete"
    ev = check_accounting(d)
    td = d["test_data"]
    assert td["source"] == "net" and td["role"] == "local"
    # one event per period of the measurement, sent or missed
    assert ev["sent"] + ev["sender_missed_periods"] == 2000
    # no hardware interrupt is invented for veth
    assert td["interrupt"]["irq"] is None
    assert "NET_RX softirq" in td["interrupt"]["note"]
    assert "== Interrupt: none: veth has no hardware interrupt" in p.stdout
    assert "software receive stamps (SO_TIMESTAMPING)" in p.stdout
    assert td["hardware_stamps"] is False
    # the stamps' conversion to CLOCK_MONOTONIC has a stated error bound:
    # at set-up in the header, the run's largest in the result
    m = re.search(r"converted to CLOCK_MONOTONIC at each wake-up within "
                  r"\+-(\d+) ns", p.stdout)
    assert m and m.group(0) in td["receive_stamps"]
    bound = ev["stamp_conversion_bound_max_ns"]
    assert 0 <= int(m.group(1)) and 0 <= bound < 10 ** 9
    # a t1 outside [t0, t2] (beyond the bound: a clock step) is refused,
    # never a negative part: what was not refused lies inside
    assert ev["kernel_stamp_refused"] == 0 or \
        ev["kernel_stamp_refused_max_ns"] > 0
    assert "RTH|----lat min|----lat avg|----lat max|----k>t avg|" \
        "----k>t max|----s>k max|----lost|--lat worst" in p.stdout
    for name in SERIES:
        assert ("RTS|" in p.stdout and name in p.stdout)
    # t1 lies between t0 and t2: each part is at most the whole
    s = d["summary"]
    assert s["kernel_to_task"]["min_ns"] >= 0
    assert s["stimulus_to_kernel"]["min_ns"] >= 0
    assert s["kernel_to_task"]["max_ns"] <= s["latency"]["max_ns"]
    assert s["stimulus_to_kernel"]["max_ns"] <= s["latency"]["max_ns"]
    # the receiver runs at -P, the sender one below
    assert d["threads"][0]["priority"] == 90
    assert d["threads"][1]["priority"] == 89
    assert "== Events: %d sent in the measurement = %d served + %d lost" % (
        ev["sent"], ev["served"], ev["lost"]) in p.stdout


@needs_root
def test_stall_on_receiver_cpu(tmp_path):
    """A task above the receiver busy for D ms on its CPU: the events sent
    meanwhile wait, kernel stamped, for the receiver: t2 - t1 and t2 - t0
    reach D - period; --max-latency gives exit status 2."""
    need_cpus(2)
    stall_ms, period_us = 40, 1000
    p, d = run_ipc(tmp_path, ["irq", "-T", "3", "--warmup", "200ms",
                              "-c", "0,1", "-P", "80", "-p", period_us,
                              "--max-latency", "10ms"],
                   rc=2, during=stall_after_warmup(1, 95, stall_ms,
                                                   delay=0.6, count=3,
                                                   gap=0.4))
    assert d["threshold_exceeded"] is True
    assert "exceeded --max-latency" in p.stderr
    check_accounting(d)
    bound = (stall_ms * 1000 - period_us) * 1000
    assert d["summary"]["kernel_to_task"]["max_ns"] >= bound
    assert d["summary"]["latency"]["max_ns"] >= bound


FAIL_RECVMSG = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* recvmsg() fails with EIO after $FAIL_RECVMSG_AFTER calls, 100 ms late
 * (the events sent meanwhile wait in the socket: outstanding) */
ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	static ssize_t (*real)(int, struct msghdr *, int);
	static int calls, after = -1;

	if (!real)
		real = (ssize_t (*)(int, struct msghdr *, int))
		       dlsym(RTLD_NEXT, "recvmsg");
	if (after < 0)
		after = atoi(getenv("FAIL_RECVMSG_AFTER") ?: "0");
	if (after && __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) > after) {
		usleep(100000);
		errno = EIO;
		return -1;
	}
	return real(fd, m, flags);
}
"""


@needs_root
def test_receiver_error_counts_outstanding_lost(tmp_path):
    """The receiver fails in the middle (recvmsg() made to fail by a
    preloaded shim): the run ends in an error, exit 1, and the events sent
    that were not served are lost: sent = served + lost still holds."""
    src, so = tmp_path / "fail.c", tmp_path / "fail.so"
    src.write_text(FAIL_RECVMSG)
    if subprocess.run(["cc", "-shared", "-fPIC", "-o", str(so), str(src),
                       "-ldl"], capture_output=True).returncode:
        pytest.skip("no C compiler for the preloaded shim")
    js = tmp_path / "r.json"
    env = dict(os.environ, LD_PRELOAD=str(so), FAIL_RECVMSG_AFTER="1500")
    r = subprocess.run([RTLAT, "irq", "-T", "4", "--warmup", "200ms",
                        "--json", str(js)], capture_output=True, text=True,
                       timeout=60, env=env)
    if "receive from net failed" not in r.stderr:
        pytest.skip("the shim did not take (a static build?): %s"
                    % r.stderr[-500:])
    assert r.returncode == 1, r.stderr
    assert "receive from net failed: Input/output error" in r.stderr
    d = load(js)
    assert d["status"] == "error"
    ev = check_accounting(d)
    # it failed after about 1.3 s of the 4 s measurement, 100 ms after
    # the last event it served: the events sent meanwhile are lost, not
    # left out
    assert ev["served"] > 0 and ev["lost"] >= 50
    assert ev["sent"] + ev["sender_missed_periods"] < 4000


def default_signals():
    """preexec_fn: the terminal's signals act by default, whatever the
    test inherited (a background shell ignores SIGINT)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _run_signalled(args, sig, after_s=1.5):
    """Start rtlat irq in a session of its own, send sig once it measures;
    returns (Popen, stdout, stderr, namespaces it held)."""
    before = netns_in_use()
    p = start(args, preexec_fn=default_signals)
    wait_warming_up(p)
    time.sleep(after_s)
    held = netns_inodes_of(p.pid)
    os.kill(p.pid, sig)
    out, err = p.communicate(timeout=30)
    return p, out, getattr(p, "err_head", "") + err, held, before


def check_nothing_left(p, held, before):
    assert len(held) == 2, held      # the two namespaces of the run
    left = wait_session_empty(p.pid)
    assert left == [], "processes left behind: %r" % left
    end = time.monotonic() + 5
    while held & netns_in_use() and time.monotonic() < end:
        time.sleep(0.05)
    assert not held & netns_in_use(), "namespaces still held"
    assert held.isdisjoint(before)
    for name in ("rtlat-a", "rtlat-b"):
        assert not os.path.exists("/sys/class/net/" + name)


@needs_root
def test_nothing_left_after_end(tmp_path):
    before = netns_in_use()
    p = start(["irq", "-T", "2", "--warmup", "100ms",
               "--json", tmp_path / "r.json"])
    wait_warming_up(p)
    time.sleep(0.5)
    held = netns_inodes_of(p.pid)
    p.communicate(timeout=30)
    assert p.returncode == 0
    check_nothing_left(p, held, before)
    check_accounting(load(tmp_path / "r.json"))


@needs_root
def test_nothing_left_after_sigint(tmp_path):
    js = tmp_path / "r.json"
    p, out, err, held, before = _run_signalled(
        ["irq", "--warmup", "100ms", "--json", js], signal.SIGINT)
    assert p.returncode == 0, err
    check_nothing_left(p, held, before)
    d = load(js)
    assert d["status"] == "interrupted"
    check_accounting(d)


@needs_root
def test_nothing_left_after_sigkill(tmp_path):
    p, out, err, held, before = _run_signalled(
        ["irq", "--warmup", "100ms"], signal.SIGKILL)
    assert p.returncode == -signal.SIGKILL
    check_nothing_left(p, held, before)


@needs_root
@pytest.mark.parametrize("how", ["end", "SIGINT", "SIGKILL", "group-SIGKILL",
                                 "error"])
def test_irq_prio_and_cpu_restored(tmp_path, how):
    """--irq N --irq-prio P --irq-cpu C: set while measuring, put back
    after the end, SIGINT, SIGKILL (by the guard), a SIGKILL of rtlat's
    whole process group (a lab job's time-out: the guard is in a session
    of its own) and an error."""
    need_cpus(2)
    irq, pid = irq_thread()
    old = sched_of(pid)
    old_aff = affinity_of(irq)
    new_prio = 61 if old[1] != 61 else 62
    new_aff = "1" if old_aff != "1" else "0"
    args = ["irq", "--irq", irq, "--irq-prio", new_prio, "--irq-cpu",
            new_aff, "--warmup", "100ms"]
    if how == "error":
        # the run fails after the change (an unwritable result file)
        r = run(args + ["-T", "1", "--json", "/nonexistent/dir/r.json"])
        assert r.returncode == 1
    else:
        # start(): rtlat leads a session (and a process group) of its own
        p = start(args + (["-T", "2"] if how == "end" else []),
                  preexec_fn=default_signals)
        wait_warming_up(p)
        time.sleep(0.3)
        assert sched_of(pid) == (os.SCHED_FIFO, new_prio)
        assert affinity_of(irq) == new_aff
        if how == "group-SIGKILL":
            os.killpg(p.pid, signal.SIGKILL)
        elif how != "end":
            os.kill(p.pid, getattr(signal, how))
        out, err = p.communicate(timeout=30)
        assert ("== Interrupt: IRQ %d (" % irq) in out or "SIGKILL" in how
        assert wait_session_empty(p.pid) == []
    end = time.monotonic() + 5
    while (sched_of(pid) != old or affinity_of(irq) != old_aff) and \
            time.monotonic() < end:
        time.sleep(0.05)
    assert sched_of(pid) == old
    assert affinity_of(irq) == old_aff


@needs_root
@pytest.mark.parametrize("first_out", ["first", "second"])
def test_overlapping_runs_restore_the_original(tmp_path, first_out):
    """Two overlapping runs change one interrupt (--irq-prio, --irq-cpu):
    when one of them ends, the other's setting is the one in force (the
    second's stays when the first ends; the first's is put back when the
    second ends first), and when the last one ends the interrupt is as
    before the first (each run restoring what it found would leave the
    first one's change behind). The first run's priority was changed
    during it: warned and in its result; the second's was not."""
    need_cpus(2)
    irq, pid = irq_thread()
    old, old_aff = sched_of(pid), affinity_of(irq)
    prios = [p for p in (61, 62, 63) if p != old[1]][:2]
    affs = ["1", "0"] if old_aff != "1" else ["0", "1"]
    if affs[1] == old_aff:
        affs[1] = "0-1"

    def one(i, secs):
        return start(["irq", "--irq", irq, "--irq-prio", prios[i],
                      "--irq-cpu", affs[i], "--warmup", "100ms", "-T", secs,
                      "--json", tmp_path / ("r%d.json" % i)],
                     preexec_fn=default_signals)
    a = one(0, 2 if first_out == "first" else 4)
    wait_warming_up(a)
    time.sleep(0.3)
    b = one(1, 4 if first_out == "first" else 1)
    wait_warming_up(b)
    time.sleep(0.3)
    assert sched_of(pid) == (os.SCHED_FIFO, prios[1])
    first, last = (a, b) if first_out == "first" else (b, a)
    _, ferr = first.communicate(timeout=30)
    assert first.returncode == 0
    assert wait_session_empty(first.pid) == []
    # the other one still measures, at its own setting: the second's
    # stays, the first's is put back
    assert last.poll() is None
    still = 1 if first_out == "first" else 0
    assert sched_of(pid) == (os.SCHED_FIFO, prios[still])
    assert affinity_of(irq) == affs[still]
    _, lerr = last.communicate(timeout=30)
    assert last.returncode == 0
    assert wait_session_empty(last.pid) == []
    assert sched_of(pid) == old
    assert affinity_of(irq) == old_aff
    assert not os.path.exists("/run/rtlat/irq-%d" % irq)
    # a ran at b's priority while both ran: said, and in its result
    aerr = ferr if first_out == "first" else lerr
    berr = lerr if first_out == "first" else ferr
    why = "--irq-prio %d: the priority of " % prios[0]
    assert why in aerr and "was changed during the run" in aerr
    assert "was changed during the run" not in berr
    ra, rb = load(tmp_path / "r0.json"), load(tmp_path / "r1.json")
    assert ra["test_data"]["interrupt"]["priority_changed_during_run"] \
        is True
    assert any(why in w for w in ra["warnings"])
    assert rb["test_data"]["interrupt"]["priority_changed_during_run"] \
        is False


@needs_root
def test_record_of_a_dead_run_is_restored(tmp_path):
    """A record whose runs all died without restoring (their guard too):
    the next run that changes the interrupt keeps the record's values, not
    the changed ones it finds, and puts them back at its end."""
    irq, pid = irq_thread()
    old = sched_of(pid)
    left = 71 if old[1] != 71 else 72
    dead = subprocess.Popen(["true"])
    dead.wait()
    os.makedirs("/run/rtlat", exist_ok=True)
    rec = "/run/rtlat/irq-%d" % irq
    assert not os.path.exists(rec)
    with open(rec, "w") as f:
        f.write("holder %d\nprio %d %d %d\n" % (dead.pid, pid, old[0],
                                                 old[1]))
    try:
        # what the dead run left
        os.sched_setscheduler(pid, os.SCHED_FIFO, os.sched_param(left))
        r = run(["irq", "--irq", irq, "--irq-prio", 61 if old[1] != 61
                 else 62, "-T", "1", "--warmup", "100ms"])
        assert r.returncode == 0, r.stderr
        assert sched_of(pid) == old
        assert not os.path.exists(rec)
    finally:
        if os.path.exists(rec):
            os.unlink(rec)
        os.sched_setscheduler(pid, old[0], os.sched_param(old[1]))


@needs_root
def test_irq_cpu_shows_the_affinity_in_effect(tmp_path):
    """--irq-cpu: the header and the result give the effective affinity
    after the change, as /proc has it during the run, and say when the
    kernel has not moved the interrupt yet (it does so when the interrupt
    next arrives)."""
    need_cpus(2)
    irq, pid = irq_thread()
    with open("/proc/irq/%d/effective_affinity_list" % irq) as f:
        before = f.read().strip()
    new = "1" if before != "1" else "0"
    js = tmp_path / "r.json"
    p = start(["irq", "--irq", irq, "--irq-cpu", new, "--warmup", "100ms",
               "-T", "1", "--json", js], preexec_fn=default_signals)
    wait_warming_up(p)
    with open("/proc/irq/%d/effective_affinity_list" % irq) as f:
        during = f.read().strip()
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    it = load(js)["test_data"]["interrupt"]
    assert it["affinity"] == new == it["affinity_set"]
    assert it["effective_affinity"] == during
    pending = during != new
    assert it["effective_affinity_pending"] is pending
    line = [l for l in out.splitlines() if l.startswith("== Interrupt:")][0]
    assert ("affinity %s (effective %s" % (new, during)) in line
    assert ("the move is pending" in line) is pending


@needs_root
def test_irq_thread_in_header_and_result(tmp_path):
    irq, pid = irq_thread()
    policy, prio = sched_of(pid)
    p, d = run_ipc(tmp_path, ["irq", "-T", "1", "--warmup", "100ms",
                              "--irq", irq])
    it = d["test_data"]["interrupt"]
    assert it["irq"] == irq and it["note"] == "named by --irq"
    with open("/proc/%d/comm" % pid) as f:
        assert it["thread"]["name"] == f.read().strip()
    assert it["thread"]["pid"] == pid
    assert it["thread"]["priority"] == prio
    assert it["priority_set"] is None and it["affinity_set"] is None
    assert "thread %s (pid %d)" % (it["thread"]["name"], pid) in p.stdout


# ---- two processes over a veth pair of the test's own ------------------

NS = ("rtlat-test-resp", "rtlat-test-stim")


def ip(*args):
    subprocess.run(["ip"] + list(args), check=True, capture_output=True)


@pytest.fixture
def veth_pair():
    if not is_root():
        pytest.skip("needs root (network namespaces)")
    if subprocess.run(["which", "ip"], capture_output=True).returncode:
        pytest.skip("needs ip (iproute2)")
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    ip("netns", "add", NS[0])
    ip("netns", "add", NS[1])
    try:
        ip("-n", NS[0], "link", "add", "rtq0", "type", "veth", "peer",
           "name", "rtq1", "netns", NS[1])
        ip("-n", NS[0], "addr", "add", "169.254.48.1/30", "dev", "rtq0")
        ip("-n", NS[1], "addr", "add", "169.254.48.2/30", "dev", "rtq1")
        ip("-n", NS[0], "link", "set", "rtq0", "up")
        ip("-n", NS[1], "link", "set", "rtq1", "up")
        yield "169.254.48.1"
    finally:
        for ns in NS:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def in_ns(ns, args, **kw):
    return subprocess.Popen(["ip", "netns", "exec", ns, RTLAT] +
                            [str(a) for a in args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=default_signals, **kw)


def test_respond_two_processes(tmp_path, veth_pair):
    rj, hj = tmp_path / "resp.json", tmp_path / "host.json"
    resp = in_ns(NS[0], ["irq", "--respond=" + veth_pair, "--warmup",
                         "100ms", "--json", rj])
    try:
        wait_warming_up(resp)
        host = in_ns(NS[1], ["irq", "--source", "net:" + veth_pair,
                             "-T", "2", "--warmup", "200ms", "--json", hj])
        hout, herr = host.communicate(timeout=60)
        assert host.returncode == 0, herr
    finally:
        os.kill(resp.pid, signal.SIGINT)
        rout, rerr = resp.communicate(timeout=30)
    assert resp.returncode == 0, rerr
    assert wait_session_empty(resp.pid) == []
    assert wait_session_empty(host.pid) == []
    h, r = load(hj), load(rj)
    ev = check_accounting(h, ("round_trip", "kernel_to_task"))
    assert h["test_data"]["role"] == "stimulus"
    assert ev["served"] > 0
    # every answer the host got, the responder served; its own
    # accounting: answered = served + lost (gaps)
    rev = r["test_data"]["events"]
    assert r["test_data"]["role"] == "responder"
    assert rev["served"] + rev["lost"] == rev["sent"]
    assert rev["served"] >= ev["served"]
    assert r["summary"]["kernel_to_task"]["samples"] + \
        r["summary"]["kernel_to_task"]["lost"] == rev["sent"]
    # the responder's t2 - t1 travelled back: the host's series is a copy
    # of what the responder measured
    assert h["summary"]["kernel_to_task"]["max_ns"] <= \
        r["summary"]["kernel_to_task"]["max_ns"]
    assert "RTH|----rtt min|" in hout
    assert "RTH|----k>t min|" in rout
    assert "no hardware interrupt" in rout
    # one sender: the count word in the singular
    assert rout.rstrip().endswith("answers not sent; 1 sender"), rout[-300:]
    assert "0 foreign packets" in rout


def test_respond_prints_every_interval(tmp_path, veth_pair):
    """--respond -T 3.25 --interval 500ms prints one RTD line per
    interval, also those before the sender starts and after it stopped,
    and the last partial one (as every test): 7, within one for the
    boundary; the empty ones say n/a."""
    rj = tmp_path / "resp.json"
    resp = in_ns(NS[0], ["irq", "--respond=" + veth_pair, "-T", "3.25",
                         "--interval", "500ms", "--warmup", "100ms",
                         "--json", rj])
    time.sleep(1.3)
    host = in_ns(NS[1], ["irq", "--source", "net:" + veth_pair, "-T", "1",
                         "--warmup", "100ms"])
    hout, herr = host.communicate(timeout=60)
    assert host.returncode == 0, herr
    rout, rerr = resp.communicate(timeout=60)
    assert resp.returncode == 0, rerr
    rtd = [ln for ln in rout.splitlines() if ln.startswith("RTD|")]
    assert abs(len(rtd) - 7) <= 1, rout
    # before the sender and after it: no event, n/a; the sender's: served
    assert rtd[0].split("|")[1].strip() == "n/a"
    assert rtd[-1].split("|")[1].strip() == "n/a"
    assert any(ln.split("|")[1].strip() != "n/a" for ln in rtd)
    assert load(rj)["test_data"]["events"]["served"] > 0


def test_host_without_responder_counts_lost(tmp_path, veth_pair):
    hj = tmp_path / "host.json"
    host = in_ns(NS[1], ["irq", "--source", "net:" + veth_pair, "-T", "1",
                         "--warmup", "100ms", "--json", hj])
    out, err = host.communicate(timeout=60)
    assert host.returncode == 0, err
    ev = check_accounting(load(hj), ("round_trip", "kernel_to_task"))
    assert ev["served"] == 0 and ev["lost"] == ev["sent"]
    assert "No answer from %s port 4770" % veth_pair in out
    # nothing served is warned about (it passed as a quiet run), in the
    # result too
    why = "none of the %d events sent was served: is rtlat irq --respond" \
        " running there, on this port?" % ev["sent"]
    assert "warning: " + why in err
    assert why in load(hj)["warnings"]


def test_nothing_served_fails_a_threshold(tmp_path, veth_pair):
    """With --max-latency, a run that served nothing cannot pass: exit 1
    (the threshold cannot be checked), said; without one it is a warning."""
    hj = tmp_path / "host.json"
    r, w = os.pipe()
    host = subprocess.Popen(
        ["ip", "netns", "exec", NS[1], RTLAT, "irq", "--source",
         "net:" + veth_pair, "-T", "1", "--warmup", "100ms",
         "--max-latency", "10ms", "--headline-fd", str(w), "--json",
         str(hj)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, pass_fds=(w,), preexec_fn=default_signals)
    os.close(w)
    out, err = host.communicate(timeout=60)
    with os.fdopen(r) as f:
        headline = f.read()
    assert host.returncode == 1, err
    assert "--max-latency 10000.000 us cannot be checked: no event was " \
        "served" in err
    assert "\nexit 1\n" in headline
    ev = check_accounting(load(hj), ("round_trip", "kernel_to_task"))
    assert ev["served"] == 0 and ev["lost"] == ev["sent"]


ASAN = os.environ.get("RTLAT_ASAN")
FORGER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "irq_forger.py")


def test_host_distrusts_forged_answers(tmp_path, veth_pair):
    """A forged responder (irq_forger.py: altered t0/deadline/task_ns,
    numbers not sent, int64 extremes, garbage, duplicates, no answer):
    t0 and the deadline are the sender's own, an answer must carry them
    to name its event (else stray, the event still outstanding);
    sent = served + lost holds, the forgeries are counted stray,
    duplicate, foreign or refused, and the sanitized build reports no
    undefined behaviour (signed overflow)."""
    binary = ASAN if ASAN and os.access(ASAN, os.X_OK) else RTLAT
    hj = tmp_path / "host.json"
    forger = subprocess.Popen(
        ["ip", "netns", "exec", NS[0], "/usr/bin/python3", FORGER,
         veth_pair, "4770"], stdout=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=default_signals)
    try:
        time.sleep(0.5)
        env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:exitcode=98",
                   ASAN_OPTIONS="detect_leaks=1:exitcode=99")
        host = subprocess.run(
            ["ip", "netns", "exec", NS[1], binary, "irq", "--source",
             "net:" + veth_pair, "-T", "2", "--warmup", "200ms",
             "--json", str(hj)], capture_output=True, text=True,
            timeout=120, env=env)
    finally:
        forger.terminate()
        forger.communicate(timeout=10)
    assert "runtime error:" not in host.stderr, host.stderr[-3000:]
    assert "Sanitizer" not in host.stderr, host.stderr[-3000:]
    assert host.returncode == 0, host.stderr[-3000:]
    d = load(hj)
    ev = check_accounting(d, ("round_trip", "kernel_to_task"))
    # 3 of 8 numbers (k % 8 in 0, 1, 5) get an answer that names them
    # with their own stamps; k = 7's carries t0 = 0: stray, 7 lost
    n8 = ev["sent"] // 8
    assert 0 < ev["served"] <= 3 * n8 + 3
    assert ev["lost"] >= 5 * n8 - 5
    # k = 2, 3, 7 and the answers 1000 ahead: of nothing sent, or not
    # carrying the stamps of what was sent
    assert ev["stray"] >= ev["sent"] + 3 * n8 - 6
    assert ev["duplicate"] >= n8 - 2                        # k = 5
    assert ev["late"] == 0
    assert ev["foreign_packets"] >= n8 - 2                  # k = 4
    # k = 1: the responder's t2 - t1 out of the round trip, refused
    assert ev["kernel_stamp_refused"] >= n8 - 2
    s = d["summary"]
    # t0 is the sender's: every round trip is a real one, none of
    # the forged t0 (0, INT64_MIN + 1) shows
    assert 0 < s["round_trip"]["min_ns"] <= s["round_trip"]["max_ns"] \
        < 10 ** 10
    # the responder's part is never more than the whole
    assert s["kernel_to_task"]["samples"] == 0 or \
        0 <= s["kernel_to_task"]["max_ns"] <= s["round_trip"]["max_ns"]
    assert "%d stray (of no stimulus sent)" % ev["stray"] in host.stdout


def forged_run(tmp_path, veth_pair, mode, args=()):
    """rtlat irq --source net:HOST -T 2 against irq_forger.py MODE: the
    result's events, checked (sent = served + lost), and the result."""
    hj = tmp_path / "host.json"
    forger = subprocess.Popen(
        ["ip", "netns", "exec", NS[0], "/usr/bin/python3", FORGER,
         veth_pair, "4770", mode], stdout=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=default_signals)
    try:
        time.sleep(0.5)
        host = subprocess.run(
            ["ip", "netns", "exec", NS[1], RTLAT, "irq", "--source",
             "net:" + veth_pair, "-T", "2", "--warmup", "200ms",
             "--json", str(hj)] + list(args), capture_output=True,
            text=True, timeout=120)
    finally:
        forger.terminate()
        forger.communicate(timeout=10)
    assert host.returncode == 0, host.stderr[-3000:]
    d = load(hj)
    return check_accounting(d, ("round_trip", "kernel_to_task")), d


def test_host_replayed_answers_are_duplicates(tmp_path, veth_pair):
    """A responder that answers each stimulus and then sends 3 of its
    earlier answers again (irq_forger.py replay: their own stamps, most
    more than 64 stimuli back): each replay of an event served is a
    duplicate, whatever its age, never late (late is only an event
    counted lost: at most the lost; a window of 64 classed thousands
    late with nothing lost)."""
    ev, d = forged_run(tmp_path, veth_pair, "replay")
    assert ev["served"] > 0
    assert ev["late"] <= ev["lost"]
    # 3 replays of each answer; those of warm-up events are not counted
    assert ev["duplicate"] >= ev["served"]
    assert ev["stray"] == 0


def test_host_responder_stall_is_latency(tmp_path, veth_pair):
    """A responder that stalls 400 ms once (longer than the 250 ms after
    which an overtaken answer is lost), then answers what queued, in
    order: every event is served with its latency (the stall shows in
    round_trip), none counted lost and then late. A 4 ms period: the
    80 stimuli of the stall fit the forger's socket buffer."""
    ev, d = forged_run(tmp_path, veth_pair, "stall", ["-p", "4000"])
    # one stimulus per period of the measurement, sent or missed
    assert ev["sent"] + ev["sender_missed_periods"] == measured_periods(d)
    assert ev["lost"] <= 1 and ev["late"] == 0, ev
    assert d["summary"]["round_trip"]["max_ns"] >= (400 - 1) * 10 ** 6


def test_host_answer_overtaking_another(tmp_path, veth_pair):
    """A responder (irq_forger.py reorder) that answers each odd-numbered
    stimulus after the next one: an answer for a number sent but not the
    oldest outstanding is matched to its own event (by number and its
    stamps), never serves it early nor makes the ones before it lost
    (and then late): every event is served once, in whatever order."""
    ev, d = forged_run(tmp_path, veth_pair, "reorder")
    assert ev["sent"] + ev["sender_missed_periods"] == measured_periods(d)
    assert ev["sent"] >= 2          # an odd-numbered one and the next
    # only the boundaries: the last one, held, if it is odd (and one a
    # stall of the forger drops from its socket at most)
    assert ev["lost"] <= 2, ev
    assert ev["late"] == 0 and ev["duplicate"] == 0 and ev["stray"] == 0
    assert ev["served"] >= ev["sent"] - 2


def forger_run(tmp_path, veth_pair, mode, args, seconds="2"):
    """rtlat irq --source net:HOST against irq_forger.py MODE: (the run,
    its result, its headline, what the forger said on SIGTERM: stimuli
    got and late answers it still held)."""
    hj = tmp_path / "host.json"
    forger = subprocess.Popen(
        ["ip", "netns", "exec", NS[0], "/usr/bin/python3", FORGER,
         veth_pair, "4770", mode], stdout=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=default_signals)
    r, w = os.pipe()
    try:
        time.sleep(0.5)
        host = subprocess.run(
            ["ip", "netns", "exec", NS[1], RTLAT, "irq", "--source",
             "net:" + veth_pair, "-T", seconds, "--warmup", "200ms",
             "--headline-fd", str(w), "--json", str(hj)] +
            [str(a) for a in args], capture_output=True, text=True,
            timeout=120, pass_fds=(w,))
    finally:
        os.close(w)
        forger.terminate()
        fout, _ = forger.communicate(timeout=10)
    with os.fdopen(r) as f:
        headline = f.read()
    return host, load(hj), headline, [int(x) for x in fout.split()]


def test_host_late_answer_is_a_sample(tmp_path, veth_pair):
    """A responder that answers 1 % of the stimuli 600 ms late (the
    others on time): each late answer is a sample, the largest ones, in
    the maximum, the histogram and the threshold (exit 2 with
    --max-latency 50 ms); never lost and then late. Lost are only the
    late ones the forger still held at the end."""
    host, d, headline, (got, held) = forger_run(
        tmp_path, veth_pair, "late", ["--max-latency", "50000"])
    assert host.returncode == 2, host.stderr[-3000:]
    ev = check_accounting(d, ("round_trip", "kernel_to_task"))
    assert ev["late"] == 0, ev
    assert ev["lost"] <= held + 1, (ev, held)
    # about 1 % of them were answered late (the warm-up's and the held
    # ones aside)
    rt = d["summary"]["round_trip"]
    assert rt["max_ns"] >= 600 * 10 ** 6
    assert rt["samples"] == ev["served"]
    assert "round_trip max" in host.stderr and \
        "exceeded --max-latency 50000.000 us" in host.stderr
    assert "\nthreshold_exceeded 1\n" in headline


def test_host_lost_events_fail_a_threshold(tmp_path, veth_pair):
    """A responder that never answers 1 % of the stimuli: lost events
    fail a run with --max-latency (exit 2, said, in the result and in
    JUnit), and a run with --max-lost below them; --max-lost above them
    passes, and without either losses are counted only (exit 0)."""
    xml = tmp_path / "j.xml"
    host, d, headline, _ = forger_run(
        tmp_path, veth_pair, "drop",
        ["--max-latency", "10s", "--junit", xml], seconds="1")
    assert host.returncode == 2, host.stderr[-3000:]
    ev = check_accounting(d, ("round_trip", "kernel_to_task"))
    assert ev["lost"] >= 5 and ev["late"] == 0, ev
    assert ev["lost_allowed"] == 0 and ev["lost_exceeded"] is True
    why = "lost events: %d never answered, with --max-latency" % ev["lost"]
    assert why in host.stderr
    assert any(why in w for w in d["warnings"])
    assert "\nthreshold_exceeded 1\n" in headline
    assert "\nexit 2\n" in headline
    junit = xml.read_text()
    assert re.search(r'<testsuites name="rtlat" tests="\d+" failures="[1-9]',
                     junit), junit[:400]
    assert "lost events: %d never answered" % ev["lost"] in junit

    host, d, _, _ = forger_run(tmp_path, veth_pair, "drop",
                               ["--max-lost", "2"], seconds="1")
    assert host.returncode == 2, host.stderr[-3000:]
    ev = d["test_data"]["events"]
    assert ev["lost_allowed"] == 2 and ev["lost_exceeded"] is True
    assert "lost events: %d never answered, more than --max-lost 2" % \
        ev["lost"] in host.stderr

    host, d, _, _ = forger_run(tmp_path, veth_pair, "drop",
                               ["--max-latency", "10s", "--max-lost",
                                "100000"], seconds="1")
    assert host.returncode == 0, host.stderr[-3000:]
    ev = d["test_data"]["events"]
    assert ev["lost"] >= 5 and ev["lost_exceeded"] is False

    host, d, _, _ = forger_run(tmp_path, veth_pair, "drop", [], seconds="1")
    assert host.returncode == 0, host.stderr[-3000:]
    ev = d["test_data"]["events"]
    assert ev["lost"] >= 5 and ev["lost_allowed"] is None
    assert "lost events" not in host.stderr


def test_host_empty_intervals_are_shown(tmp_path, veth_pair):
    """No responder, -T 3 --interval 1s: every interval has its RTD line
    (n/a) and its entry of "intervals", each with the losses of its own
    stimuli (not all in the first or the last)."""
    hj = tmp_path / "host.json"
    host = in_ns(NS[1], ["irq", "--source", "net:" + veth_pair, "-T", "3",
                         "--interval", "1s", "--warmup", "100ms",
                         "--json", hj])
    out, err = host.communicate(timeout=60)
    assert host.returncode == 0, err
    d = load(hj)
    ev = check_accounting(d, ("round_trip", "kernel_to_task"))
    assert ev["served"] == 0 and ev["lost"] == ev["sent"] > 0
    rtd = [ln for ln in out.splitlines() if ln.startswith("RTD|")]
    assert len(rtd) == 3, out
    assert all(ln.split("|")[1].strip() == "n/a" for ln in rtd), rtd
    # the lost column is the run's count so far
    total = [int(ln.split("|")[6]) for ln in rtd]
    assert total[-1] == ev["lost"]
    lost = [b - a for a, b in zip([0] + total, total)]
    # one stimulus per period: each second has about a third of them
    assert all(n >= ev["sent"] // 6 for n in lost), lost
    rows = d["summary"]["round_trip"]["intervals"]["data"]
    assert len(rows) == 3, rows
    assert [r[5] for r in rows] == lost


def test_respond_accounts_each_sender(tmp_path, veth_pair):
    """Two senders against one responder: each numbers its own events;
    the responder accounts them apart (one sequence for both would make
    half of them duplicates or late, and gaps lost)."""
    rj = tmp_path / "resp.json"
    resp = in_ns(NS[0], ["irq", "--respond=" + veth_pair, "--warmup",
                         "100ms", "--json", rj])
    try:
        wait_warming_up(resp)
        hosts = [in_ns(NS[1], ["irq", "--source", "net:" + veth_pair,
                               "-T", "2", "--warmup", "200ms", "-p", p,
                               "--json", tmp_path / ("h%d.json" % i)])
                 for i, p in enumerate(("1000", "700"))]
        for h in hosts:
            out, err = h.communicate(timeout=60)
            assert h.returncode == 0, err
    finally:
        os.kill(resp.pid, signal.SIGINT)
        rout, rerr = resp.communicate(timeout=30)
    assert resp.returncode == 0, rerr
    served = 0
    for i in range(2):
        ev = check_accounting(load(tmp_path / ("h%d.json" % i)),
                              ("round_trip", "kernel_to_task"))
        assert ev["served"] > 0 and ev["stray"] == 0
        served += ev["served"]
    rev = load(rj)["test_data"]["events"]
    assert rev["senders"] == 2
    assert rev["served"] + rev["lost"] == rev["sent"]
    assert rev["duplicate"] == 0 and rev["late"] == 0 and rev["stray"] == 0
    # both senders' measurements lie in the responder's
    assert rev["served"] >= served
    assert "2 senders" in rout


# From N ports of its own: 3 stimuli each with the magic and a secret of
# its own; then, from the last port, 5 with another secret.
FORGE_PORTS = r"""
import os, socket, struct, sys
addr, n = sys.argv[1], int(sys.argv[2])
pkt = struct.Struct("<IIQqqqq")
socks = []
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sec = int.from_bytes(os.urandom(8), "little", signed=True)
    for seq in (1, 2, 3):
        s.sendto(pkt.pack(0x72746c69, 0, seq, 1, 1, -2**63, sec),
                 (addr, 4770))
    socks.append((s, sec))
s, sec = socks[-1]
for seq in range(4, 9):
    s.sendto(pkt.pack(0x72746c69, 0, seq, 1, 1, -2**63, sec ^ 1),
             (addr, 4770))
"""


def test_respond_forgers_do_not_displace_the_sender(tmp_path, veth_pair):
    """Datagrams with the magic from 40 ports of their own (before the real
    sender starts, and while it measures) neither take the responder's
    senders nor displace the real one (it measures: its events are all
    accounted by the responder); datagrams from a sender's address with
    another secret are dropped, counted and said."""
    rj, hj = tmp_path / "resp.json", tmp_path / "host.json"
    resp = in_ns(NS[0], ["irq", "--respond=" + veth_pair, "--warmup",
                         "100ms", "--json", rj])

    def forge():
        subprocess.run(["ip", "netns", "exec", NS[1], "/usr/bin/python3",
                        "-c", FORGE_PORTS, veth_pair, "40"], check=True,
                       timeout=30)
    try:
        wait_warming_up(resp)
        time.sleep(0.3)
        forge()
        host = in_ns(NS[1], ["irq", "--source", "net:" + veth_pair,
                             "-T", "2", "--warmup", "200ms", "--json", hj])
        time.sleep(1.2)
        forge()
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0, err
    finally:
        os.kill(resp.pid, signal.SIGINT)
        rout, rerr = resp.communicate(timeout=30)
    assert resp.returncode == 0, rerr
    ev = check_accounting(load(hj), ("round_trip", "kernel_to_task"))
    assert ev["served"] > 0 and ev["stray"] == 0
    rd = load(rj)
    rev = rd["test_data"]["events"]
    # the real sender's events are the responder's, none stray
    assert rev["served"] >= ev["served"], rev
    assert rev["wrong_secret"] == 10, rev
    # 80 forgers and the sender through 16 slots
    assert rev["senders"] == 81 and rev["senders_displaced"] >= 60, rev
    assert rd["test_data"]["bound_to"] == veth_pair
    assert "== Source: net (--respond), port 4770 of %s" % veth_pair in rout
    assert "10 datagrams with a sender's address and another secret " \
        "(dropped, not answered), %d senders displaced" % \
        rev["senders_displaced"] in rout


@needs_root
@pytest.mark.parametrize("resp_addr", [None, "::1"])
def test_respond_ipv6(tmp_path, resp_addr):
    """--respond over IPv6 (a namespace of the test's with only its
    loopback): to ::1 (net:[::1] and net:::1); --respond without an address
    takes IPv4 senders on the same socket too."""
    ns = "rtlat-test-v6"
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    ip("netns", "add", ns)
    try:
        ip("-n", ns, "link", "set", "lo", "up")
        rj = tmp_path / "resp.json"
        resp = in_ns(ns, ["irq", "--respond" + ("=" + resp_addr
                                                 if resp_addr else ""),
                          "--warmup", "100ms", "--json", rj])
        hosts = ["net:[::1]", "net:::1"] + \
            ([] if resp_addr else ["net:127.0.0.1"])
        try:
            wait_warming_up(resp)
            for i, src in enumerate(hosts):
                h = in_ns(ns, ["irq", "--source", src, "-T", "1",
                               "--warmup", "100ms", "--json",
                               tmp_path / ("h%d.json" % i)])
                out, err = h.communicate(timeout=60)
                assert h.returncode == 0, err
                ev = check_accounting(load(tmp_path / ("h%d.json" % i)),
                                      ("round_trip", "kernel_to_task"))
                assert ev["served"] > 0, src
        finally:
            os.kill(resp.pid, signal.SIGINT)
            rout, rerr = resp.communicate(timeout=30)
        assert resp.returncode == 0, rerr
        rev = load(rj)["test_data"]["events"]
        assert rev["senders"] == len(hosts)
        assert rev["served"] > 0
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def virtio_nic():
    """(interface, IPv4 address, device, its receive queue IRQ, its config
    IRQ) of a virtio NIC of this machine, or skip."""
    for ifname in sorted(os.listdir("/sys/class/net")):
        try:
            dev = os.path.basename(os.readlink(
                "/sys/class/net/%s/device" % ifname))
        except OSError:
            continue
        if not dev.startswith("virtio"):
            continue
        addr = subprocess.run(["ip", "-4", "-o", "addr", "show", ifname],
                              capture_output=True, text=True).stdout.split()
        if "inet" not in addr:
            continue
        irqs = {}
        with open("/proc/interrupts") as f:
            for line in f:
                name = line.split()[-1]
                if name.startswith(dev + "-"):
                    irqs.setdefault(name[len(dev) + 1:].split(".")[0],
                                    int(line.split(":")[0]))
        if "input" in irqs and "config" in irqs:
            return (ifname, addr[addr.index("inet") + 1].split("/")[0], dev,
                    irqs["input"], irqs["config"])
    pytest.skip("no virtio NIC with an IPv4 address and its config and "
                "input interrupts here")


def free_udp_port(addr):
    """A UDP port free on @addr now."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_respond_virtio_takes_the_receive_queue(tmp_path):
    """--respond on a virtio NIC: its interrupt is the receive queue's
    (virtioN-input.0), not the configuration interrupt listed before it."""
    ifname, addr, dev, rx, config = virtio_nic()
    js = tmp_path / "r.json"
    r = run(["irq", "--respond=" + addr, "--port", free_udp_port(addr),
             "-T", "1", "--warmup", "0", "--json", js] +
            ([] if is_root() else ["--policy", "other", "--no-mlock"]))
    assert r.returncode == 0, r.stderr
    it = load(js)["test_data"]["interrupt"]
    assert it["irq"] == rx != config
    assert it["name"].startswith(dev + "-input")
    assert "== Interrupt: IRQ %d (%s-input" % (rx, dev) in r.stdout


def no_such_cpus():
    """--irq-cpu lists the kernel refuses (a CPU this system lacks)."""
    n = os.cpu_count()
    return [str(n + 5), "0,%d" % (n + 7)]


@needs_root
@pytest.mark.parametrize("cpus", no_such_cpus())
def test_failed_irq_cpu_leaves_no_record(tmp_path, cpus):
    """--irq-cpu that the kernel refuses (a CPU that is not there): exit 1
    naming the interrupt, its affinity as it was, and no record of the
    run left in /run/rtlat (an empty irq-N was)."""
    ifname, addr, dev, rx, config = virtio_nic()
    rec = "/run/rtlat/irq-%d" % rx
    assert not os.path.exists(rec)
    old_aff = affinity_of(rx)
    r = run(["irq", "--respond=" + addr, "--port", free_udp_port(addr),
             "--irq-cpu", cpus, "-T", "1", "--warmup", "0"])
    assert r.returncode == 1
    assert ("--irq-cpu %s: cannot set the affinity of IRQ %d" % (cpus, rx)) \
        in r.stderr
    assert affinity_of(rx) == old_aff
    assert not os.path.exists(rec)


@needs_root
def test_failed_irq_cpu_after_irq_prio_leaves_nothing(tmp_path):
    """--irq-prio set, then --irq-cpu refused: the priority is put back
    and the record of the run removed."""
    irq, pid = irq_thread()
    rec = "/run/rtlat/irq-%d" % irq
    assert not os.path.exists(rec)
    old, old_aff = sched_of(pid), affinity_of(irq)
    cpus = no_such_cpus()[0]
    r = run(["irq", "--irq", irq, "--irq-prio", 61 if old[1] != 61 else 62,
             "--irq-cpu", cpus, "-T", "1", "--warmup", "0"])
    assert r.returncode == 1
    assert ("--irq-cpu %s: cannot set the affinity of IRQ %d" % (cpus, irq)) \
        in r.stderr
    assert sched_of(pid) == old
    assert affinity_of(irq) == old_aff
    assert not os.path.exists(rec)


# ---- errors ----------------------------------------------------------


def test_unknown_source():
    r = run(["irq", "--source", "parport:0", "-T", "1"])
    assert r.returncode == 1
    assert "invalid value 'parport:0' for --source" in r.stderr


@pytest.mark.parametrize("src", ["net", "net:127.0.0.1", "serial:ttyS4,ttyS5"])
def test_respond_refuses_a_source(src):
    """--respond has no source of its own: any --source with it, the
    default's name included, is refused (it was ignored), exit 1 as a
    bad option (DESIGN.md), before anything is set up."""
    r = run(["irq", "--source", src, "--respond", "-T", "1"])
    assert r.returncode == 1, r.stderr
    assert "--respond and --source %s do not go together: the responder " \
        "answers the stimuli of rtlat irq --source net:HOST run on " \
        "another machine" % src in r.stderr
    r = run(["irq", "--respond", "--source", src, "-T", "1"])
    assert r.returncode == 1, r.stderr
    assert "do not go together" in r.stderr


def test_host_does_not_exist():
    r = run(["irq", "--source", "net:no-such-host.invalid", "-T", "1"])
    assert r.returncode == 1
    assert "net:no-such-host.invalid" in r.stderr
    assert "host 'no-such-host.invalid'" in r.stderr


def test_respond_port_busy():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    try:
        r = run(["irq", "--respond=127.0.0.1", "--port", port, "-T", "1"] +
                (["-P", "1"] if is_root() else ["--policy", "other"]))
    finally:
        s.close()
    assert r.returncode == 1
    assert "--respond: cannot bind UDP 127.0.0.1 port %d" % port in r.stderr
    assert "busy" in r.stderr


def test_net_needs_privilege():
    """Without root the namespaces cannot be created: said, exit 1."""
    r = subprocess.run([unprivileged_rtlat() if is_root() else RTLAT, "irq", "-T", "1", "--policy", "other",
                        "--no-mlock", "--no-dma-latency"],
                       capture_output=True, text=True, timeout=60,
                       preexec_fn=drop_to_nobody if is_root() else None)
    assert r.returncode == 1
    assert "net: cannot create a network namespace" in r.stderr
    assert "needs root" in r.stderr


@needs_root
def test_irq_that_does_not_exist():
    r = run(["irq", "--irq", "99999", "-T", "1"])
    assert r.returncode == 1
    assert "--irq 99999: interrupt 99999: not in /proc/interrupts" in r.stderr


@needs_root
def test_irq_prio_without_interrupt():
    """veth has no interrupt: --irq-prio says so instead of inventing one."""
    r = run(["irq", "--irq-prio", "60", "-T", "1"])
    assert r.returncode == 1
    assert "--irq-prio: no interrupt to set" in r.stderr
    assert "softirq" in r.stderr


def test_help_says_its_defaults():
    """-p, -c and -P as they apply to irq, with irq's defaults."""
    h = run(["irq", "--help"], check=0).stdout
    assert "period of the stimuli in us, or with a unit (default 1000)" in h
    assert "the sender runs at PRIO-1 (default 90)" in h
    assert "one CPU (sender and receiver on it) or two" in h
    assert "--clock" not in h and "realtime" not in h


def test_bad_options():
    for args, msg in ((["--irq-prio", "0"], "--irq-prio: 1..99"),
                      (["--port", "70000"], "--port: 1..65535"),
                      # the kernel's stamps are on CLOCK_MONOTONIC: no
                      # --clock to offer
                      (["--clock", "realtime"], "unknown option '--clock'"),
                      (["--respond", "--source", "net:x"],
                       "--respond and --source net:x")):
        r = run(["irq"] + args + ["-T", "1"])
        assert r.returncode == 1, args
        assert msg in r.stderr, (args, r.stderr)


# ---- rtlat suite -------------------------------------------------------


def suite_runs(out):
    return load(out / "suite.json")["runs"]


@needs_root
def irq_source_args(tmp_path, how, src):
    """The suite's arguments that give irq the source @src: the
    --irq-source option, or "irq-source =" in a suite file (-f)."""
    if how == "option":
        return ["--irq-source", src]
    f = tmp_path / "s.ini"
    f.write_text("[suite]\nirq-source = %s\n" % src)
    return ["-f", f]


@pytest.mark.parametrize("how", ["option", "file"])
def test_suite_runs_irq_with_a_source(tmp_path, how):
    out = tmp_path / "res"
    args = ["suite", "--tests", "irq", "--loads", "none", "-T", "1",
            "--warmup", "200ms", "-o", out, "-q"]
    args += irq_source_args(tmp_path, how, "net")
    p = run(args, timeout=120)
    assert p.returncode == 0, p.stderr
    runs = suite_runs(out)
    assert [r["test"] for r in runs] == ["irq"]
    res = load(out / runs[0]["file"])
    assert res["test_data"]["source"] == "net"
    check_accounting(res)
    report = (out / "report.txt").read_text()
    assert "IRQ without load, latencies in us: lat = t2-t0" in report
    head = [l for l in report.splitlines() if "lat min" in l][0]
    assert head.split("|")[1:] == [
        "-----lat min", "-----lat avg", "-----lat max", "-----k>t min",
        "-----k>t avg", "-----k>t max", "----lost", "---test-time"]
    row = report.splitlines()[report.splitlines().index(head) + 1]
    cells = row.split("|")[1:]
    # the scheduling of the task that serves the event, not the sender's
    recv = res["threads"][0]
    assert runs[0]["priority"] == recv["priority"] == \
        res["threads"][1]["priority"] + 1
    assert "measured: period 1000 us, %s %d," % (runs[0]["policy"],
                                                 recv["priority"]) in report
    s = res["summary"]
    assert float(cells[2]) == pytest.approx(s["latency"]["max_ns"] / 1000,
                                            abs=0.001)
    assert float(cells[5]) == pytest.approx(
        s["kernel_to_task"]["max_ns"] / 1000, abs=0.001)
    assert int(cells[6]) == s["latency"]["lost"]


@needs_root
def test_suite_matrix_has_irq_only_with_a_source(tmp_path):
    base = ["suite", "--loads", "none", "-T", "1", "--warmup", "0", "-q"]
    p = run(base + ["-o", tmp_path / "a"], timeout=300)
    assert p.returncode == 0, p.stderr
    without = [r["test"] for r in suite_runs(tmp_path / "a")]
    assert "irq" not in without
    p = run(base + ["-o", tmp_path / "b", "--irq-source", "net"],
            timeout=300)
    assert p.returncode == 0, p.stderr
    tests = [r["test"] for r in suite_runs(tmp_path / "b")]
    assert tests == without + ["irq"]


@pytest.mark.parametrize("how", ["option", "file"])
def test_suite_bad_irq_source_fails_before_the_runs(tmp_path, how):
    """A source irq does not take fails the suite at once (exit 1), before
    the check and the first run, not when the irq run comes."""
    out = tmp_path / "res"
    args = ["suite", "-T", "1", "-o", out]
    args += irq_source_args(tmp_path, how, "parport:0")
    t = time.monotonic()
    p = run(args, timeout=60)
    assert p.returncode == 1
    assert "invalid value 'parport:0' for --source: net, net:HOST" in p.stderr
    assert "invalid value 'parport:0' for --irq-source: not a value irq " \
        "--source takes (checked before the first run)" in p.stderr
    assert not out.exists()
    assert time.monotonic() - t < 10


@pytest.mark.parametrize("how", ["option", "file"])
def test_suite_irq_source_not_there_fails_before_the_runs(tmp_path, how):
    """A source of the right form that is not there (no such port) fails
    the suite before its first run with irq's own error, exit 1."""
    out = tmp_path / "res"
    src = "serial:/dev/rtlat-nosuch0,/dev/rtlat-nosuch1"
    args = ["suite", "-T", "1", "-o", out]
    args += irq_source_args(tmp_path, how, src)
    t = time.monotonic()
    p = run(args, timeout=60)
    assert p.returncode == 1
    own = "--source serial: RX port /dev/rtlat-nosuch1: no such port"
    assert run(["irq", "--source", src, "-T", "1"]).stderr.count(own) == 1
    assert ("--irq-source %s: %s (checked before the first run)" %
            (src, own)) in p.stderr
    assert not out.exists()
    assert time.monotonic() - t < 10


def test_suite_irq_without_source_is_an_error(tmp_path):
    p = run(["suite", "--tests", "irq", "-T", "1", "-o", tmp_path / "r"])
    assert p.returncode == 1
    assert "irq needs a source: give --irq-source" in p.stderr


@pytest.mark.parametrize("how", ["option", "file"])
def test_suite_irq_source_without_irq_in_tests_is_an_error(tmp_path, how):
    """--irq-source (or irq-source = in a suite file) while --tests does
    not run irq would be neither checked nor used: exit 1 before any run,
    saying why, not a silent success."""
    out = tmp_path / "res"
    src = "serial:ttyS9,ttyS9"
    args = ["suite", "-T", "1", "--tests", "latency", "--loads", "none",
            "-o", out]
    args += irq_source_args(tmp_path, how, src)
    t = time.monotonic()
    p = run(args, timeout=60)
    assert p.returncode == 1, p.stderr
    assert "--irq-source: irq is not in --tests 'latency'" in p.stderr
    assert not out.exists()
    assert time.monotonic() - t < 10
    # with irq in --tests the source is checked (ttyS9: no such port)
    p = run(args[:4] + ["latency,irq"] + args[5:], timeout=60)
    assert p.returncode == 1
    assert "is not in --tests" not in p.stderr
    assert "--irq-source %s: " % src in p.stderr


@needs_root
def test_with_load(tmp_path):
    """--load runs beside irq as beside every test; the accounting holds."""
    p, d = run_ipc(tmp_path, ["irq", "-T", "1", "--warmup", "200ms",
                              "--load", "cpu", "--load-workers", "1"])
    check_accounting(d)
    assert [l["name"] for l in d["loads"]] == ["cpu"]
    assert d["loads"][0]["count"] > 0


# ---- the gpio source ---------------------------------------------------


def test_gpio_chip_that_does_not_exist():
    r = run(["irq", "--source", "gpio:gpiochip77:1,2", "-T", "1"])
    assert r.returncode == 1
    assert "gpio:gpiochip77:1,2: cannot open /dev/gpiochip77" in r.stderr
    assert "no such GPIO chip" in r.stderr


def test_gpio_not_a_gpio_chip():
    r = run(["irq", "--source", "gpio:/dev/null:1,2", "-T", "1"])
    assert r.returncode == 1
    assert "gpio:/dev/null:1,2: cannot request line 1 of /dev/null as the " \
        "out" in r.stderr


def test_gpio_bad_spec():
    r = run(["irq", "--source", "gpio:gpiochip0:3,3", "-T", "1"])
    assert r.returncode == 1
    assert "two different line offsets" in r.stderr


def test_gpio_sim_end_to_end(tmp_path):
    """Where the kernel has gpio-sim (CONFIG_GPIO_SIM, configfs): a chip of
    two lines, the output's value copied to the input's pull by a helper
    (gpio-sim has no wire between lines), and a run that serves events."""
    sim = "/sys/kernel/config/gpio-sim"
    if not is_root():
        pytest.skip("needs root (configfs, the GPIO chip)")
    if not os.path.isdir(sim):
        pytest.skip("no gpio-sim here (%s absent: CONFIG_GPIO_SIM is not "
                    "in this kernel, nor in the rtvm guest, which has no "
                    "modules)" % sim)
    dev = os.path.join(sim, "rtlat-test")
    os.makedirs(os.path.join(dev, "bank0"))
    try:
        with open(os.path.join(dev, "bank0", "num_lines"), "w") as f:
            f.write("2")
        with open(os.path.join(dev, "live"), "w") as f:
            f.write("1")
        with open(os.path.join(dev, "bank0", "chip_name")) as f:
            chip = f.read().strip()
        with open(os.path.join(dev, "dev_name")) as f:
            pdev = f.read().strip()
        base = "/sys/devices/platform/%s/%s" % (pdev, chip)
        js = tmp_path / "r.json"
        p = start(["irq", "--source", "gpio:%s:0,1" % chip, "-T", "2",
                   "--warmup", "200ms", "-p", "20ms", "--json", js],
                  preexec_fn=default_signals)
        # the wire: line 0's value to line 1's pull, until rtlat ends
        while p.poll() is None:
            with open(base + "/sim_gpio0/value") as f:
                v = f.read().strip()
            with open(base + "/sim_gpio1/pull", "w") as f:
                f.write("pull-up" if v == "1" else "pull-down")
            time.sleep(0.001)
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0, err
        d = load(js)
        ev = check_accounting(d)
        assert ev["served"] > 0
        assert d["test_data"]["interrupt"]["irq"] is not None
    finally:
        with open(os.path.join(dev, "live"), "w") as f:
            f.write("0")
        os.rmdir(os.path.join(dev, "bank0"))
        os.rmdir(dev)
