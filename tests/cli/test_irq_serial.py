# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat irq --source serial without hardware: a pty whose master side the
test echoes back (a TX-RX loop in software: no interrupt, but every byte
goes through the tty layer) for the accounting (bytes dropped are lost,
duplicated bytes are not served twice, a receiver that stops hearing
loses the rest), the header and the result; the port's settings put back
after the end, an error, SIGINT and SIGKILL (the guard); the errors (no
such port, not a terminal, busy, permission, bad --baud); --trace on irq
(the net source: every event split, parts adding up) and the suite's IRQ
table for the serial source. The real UARTs run in make check-rtvm."""
import os
import pty
import select
import signal
import subprocess
import termios
import threading
import time

import pytest

from conftest import (ROOT, RTLAT, drop_to_nobody, hist_total, needs_root,
                      run, unprivileged_rtlat)
from rt_helpers import check_stdout, load, run_ipc, wait_warming_up

# the --trace test reads tracefs itself (conftest.tracefs_mounted)
pytestmark = pytest.mark.usefixtures("tracefs_mounted")


class PtyLoop:
    """A pty: rtlat opens its slave as TX and RX; a thread echoes what
    the master reads back to it, through @mangle(byte list) -> bytes."""

    def __init__(self, mangle=None):
        self.master, slave = pty.openpty()
        self.path = os.ttyname(slave)
        self.slave = slave          # held: termios read and checked here
        self.mangle = mangle or (lambda bs: bytes(bs))
        self.stop = False
        self.seen = 0
        self.th = threading.Thread(target=self._echo, daemon=True)
        self.th.start()

    def _echo(self):
        # the loopback answers as a wire does, whatever else runs: at a
        # real-time priority under rtlat's (as SCHED_OTHER, CI's builds
        # beside it held it back past rtlat's loss timeout: 603 bytes lost
        # where 125 were dropped)
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        except OSError:
            pass        # not root: as it was
        while not self.stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                b = os.read(self.master, 256)
            except OSError:
                continue
            self.seen += len(b)
            out = self.mangle(list(b))
            if out:
                os.write(self.master, out)

    def spec(self):
        return "serial:%s,%s" % (self.path, self.path)

    def close(self):
        self.stop = True
        self.th.join()
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def loop():
    lp = PtyLoop()
    yield lp
    lp.close()


def cooked(fd):
    """A known state that is not rtlat's: 9600 baud, canonical, echo."""
    a = termios.tcgetattr(fd)
    a[3] |= termios.ICANON | termios.ECHO
    a[4] = a[5] = termios.B9600
    termios.tcsetattr(fd, termios.TCSANOW, a)
    return termios.tcgetattr(fd)


def check_serial_accounting(d):
    ev = d["test_data"]["events"]
    s = d["summary"]["latency"]
    assert ev["sent"] > 0
    assert ev["served"] + ev["lost"] == ev["sent"]
    assert s["samples"] == ev["served"] and s["lost"] == ev["lost"]
    assert hist_total(s["histogram"]) == s["samples"]
    # serial has t2 - t0 only (t1 is --trace's)
    assert list(d["summary"]) == ["latency"]
    return ev


@needs_root
def test_pty_loop_accounts_every_byte(tmp_path, loop):
    before = cooked(loop.slave)
    p, d = run_ipc(tmp_path, ["irq", "--source", loop.spec(), "-T", "1",
                              "--warmup", "200ms"])
    check_stdout(p.stdout)
    ev = check_serial_accounting(d)
    assert ev["sent"] + ev["sender_missed_periods"] == 1000
    assert ev["lost"] == 0 and ev["duplicate"] + ev["late"] == 0
    ser = d["test_data"]["serial"]
    assert ser == {"tx": loop.path, "rx": loop.path, "loop": True,
                   "pty": True, "baud": None, "character_ns": None,
                   "stray_bytes": 0}
    # a pty has no interrupt: none invented, the reason given plainly,
    # the port named as under /dev, no --irq suggested
    it = d["test_data"]["interrupt"]
    assert it["irq"] is None
    shown = os.path.realpath(loop.path)[len("/dev/"):]
    assert shown.startswith("pts/")
    assert it["note"].startswith("%s is a pseudo-terminal: a pty has no "
                                 "interrupt" % shown), it["note"]
    assert "--irq" not in it["note"]
    assert "== Interrupt: none: %s is a pseudo-terminal" % shown in p.stdout
    # nor a line: no baud rate, no transmission time claimed for it
    assert "transmission time, 10 bits" not in p.stdout
    assert "== Serial: a pty has no line: t2-t0 is the tty layer and the " \
        "reader's wake-up, without a character's transmission time" \
        in p.stdout
    assert "== Source: %s, %s -> %s, pseudo-terminals (no UART: no line, " \
        "no baud rate), raw" % (loop.spec(), loop.path, loop.path) \
        in p.stdout
    assert "== Receive stamps: none: a pseudo-terminal has no interrupt" \
        in p.stdout
    assert "RTH|----lat min|----lat avg|----lat max|----lost|---lat best|" \
        "--lat worst" in p.stdout
    # the port as it was
    assert termios.tcgetattr(loop.slave) == before


def man_pty_recipe():
    """The echo and the irq command of rtlat-irq(1)'s pty recipe, as a
    user copies them from the rendered page."""
    man = (ROOT / "man" / "rtlat-irq.1").read_text()
    blocks = [b.split("\n.fi")[0].strip("\n").replace("\\-", "-")
              for b in man.split("\n.nf\n")[1:]]
    echo = [b for b in blocks if b.startswith("python3 -c 'import os, pty")]
    cmd = [b for b in blocks if b.startswith("rtlat irq --source serial:")]
    assert len(echo) == 1 and len(cmd) == 1, blocks
    return echo[0], cmd[0]


@needs_root
def test_man_pty_recipe_works(tmp_path):
    """The page's recipe for a pty run, as written: the echo started in a
    shell prints the slave, the irq command on it (the page's example
    slave replaced) serves the events; without the echo every byte is
    lost, as the page says."""
    echo, cmd = man_pty_recipe()
    sh = subprocess.Popen(["sh", "-c", "exec " + echo],
                          stdout=subprocess.PIPE, text=True)
    try:
        slave = sh.stdout.readline().strip()
        assert slave.startswith("/dev/pts/"), slave
        args = cmd.split()[1:]
        example = args[args.index("--source") + 1]
        assert example == "serial:/dev/pts/3,/dev/pts/3"
        args[args.index("--source") + 1] = "serial:%s,%s" % (slave, slave)
        args[args.index("-T") + 1] = "1"
        js = tmp_path / "echo.json"
        run(args + ["--warmup", "200ms", "--json", js], check=0)
        d = load(js)
        ev = check_serial_accounting(d)
        assert ev["served"] > 0
        assert d["test_data"]["serial"]["pty"] is True
    finally:
        sh.kill()
        sh.wait()
    # no echo: the same pty, nothing on its master side reads and answers
    master, s = pty.openpty()
    try:
        path = os.ttyname(s)
        p, d = run_ipc(tmp_path, ["irq", "--source",
                                  "serial:%s,%s" % (path, path), "-T", "1",
                                  "--warmup", "200ms"])
        ev = check_serial_accounting(d)
        assert ev["served"] == 0 and ev["lost"] == ev["sent"]
    finally:
        os.close(s)
        os.close(master)


@needs_root
def test_dropped_and_duplicated_bytes(tmp_path):
    """Every 16th stimulus never comes back, every 16th + 5 comes twice:
    the first are lost (the gap), the second served once, duplicated."""
    def mangle(bs):
        out = []
        for b in bs:
            if b % 16 == 0:
                continue
            out.append(b)
            if b % 16 == 5:
                out.append(b)
        return bytes(out)

    lp = PtyLoop(mangle)
    try:
        p, d = run_ipc(tmp_path, ["irq", "--source", lp.spec(), "-T", "1",
                                "--warmup", "200ms", "-p", "500us"])
    finally:
        lp.close()
    ev = check_serial_accounting(d)
    # the measurement's events are consecutive numbers: 1 in 16 of them
    assert abs(ev["lost"] - ev["sent"] / 16) <= 1, ev
    assert abs(ev["duplicate"] + ev["late"] - ev["sent"] / 16) <= 1, ev
    assert ev["duplicate"] >= ev["sent"] // 16 - 1, ev
    assert ev["served"] == ev["sent"] - ev["lost"]


@needs_root
def test_receiver_that_stops_hearing_loses_the_rest(tmp_path):
    """The loop breaks 0.6 s into a 1.5 s run: what is sent after it is
    lost (by the timeout, then at the end), never waited for forever."""
    state = {"t": None}

    def mangle(bs):
        if state["t"] is None:
            state["t"] = time.monotonic()
        return bytes(bs) if time.monotonic() - state["t"] < 0.8 else b""

    lp = PtyLoop(mangle)
    try:
        p, d = run_ipc(tmp_path, ["irq", "--source", lp.spec(), "-T",
                                  "1.5", "--warmup", "200ms", "--interval",
                                  "500ms"])
    finally:
        lp.close()
    ev = check_serial_accounting(d)
    assert ev["lost"] >= 500 and ev["served"] >= 200, ev
    # each loss shows in the interval its byte was sent in (the timeout),
    # not all of them where the last byte came
    iv = d["threads"][0]["series"]["latency"]["intervals"]
    col = iv["columns"].index("overruns")
    assert iv["data"][-1][col] > 0, iv["data"]
    assert sum(r[col] for r in iv["data"][:-1]) > 0, iv["data"]
    assert sum(r[col] for r in iv["data"]) == ev["lost"]


def _signalled(args, sig, after_s):
    p = subprocess.Popen([RTLAT] + [str(a) for a in args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                          signal.SIG_DFL))
    wait_warming_up(p)
    time.sleep(after_s)
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    return p, out, err


def holders(path):
    """pids other than ours with @path open."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == path:
                    out.append(int(pid))
                    break
            except OSError:
                continue
    return out


def _wait_restored(fd, before, timeout=5):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if termios.tcgetattr(fd) == before:
            return True
        time.sleep(0.05)
    return False


@needs_root
@pytest.mark.parametrize("sig", ["SIGINT", "SIGKILL"])
def test_settings_restored_after_signal(loop, sig):
    before = cooked(loop.slave)
    p, out, err = _signalled(["irq", "--source", loop.spec(), "-T", "30",
                              "--warmup", "200ms"], getattr(signal, sig),
                             0.5)
    if sig == "SIGINT":
        assert p.returncode == 0, err
        assert termios.tcgetattr(loop.slave) == before
    else:
        assert p.returncode == -signal.SIGKILL
        # the guard puts it back once rtlat is gone
        assert _wait_restored(loop.slave, before), \
            (termios.tcgetattr(loop.slave), before)
    # the guard is gone too: nobody else holds the port
    end = time.monotonic() + 5
    while holders(loop.path) and time.monotonic() < end:
        time.sleep(0.05)
    assert holders(loop.path) == []


@needs_root
def test_settings_restored_after_an_error(loop):
    """RX opened, TX does not exist: the error names TX, RX is put back."""
    before = cooked(loop.slave)
    p = run(["irq", "--source", "serial:/dev/rtlat-no-port,%s" % loop.path,
             "-T", "1"])
    assert p.returncode == 1
    assert "--source serial: TX port /dev/rtlat-no-port: no such port" \
        in p.stderr
    assert termios.tcgetattr(loop.slave) == before


def test_no_such_port():
    p = run(["irq", "--source", "serial:rtlat-nope9,rtlat-nope9", "-T", "1"])
    assert p.returncode == 1
    assert "--source serial: RX port /dev/rtlat-nope9: no such port" \
        in p.stderr


def test_not_a_terminal():
    p = run(["irq", "--source", "serial:/dev/null,/dev/null", "-T", "1"])
    assert p.returncode == 1
    assert "RX port /dev/null: not a terminal (not a serial port)" in p.stderr


@needs_root
def test_port_busy(loop):
    """Another program holds the port exclusively (TIOCEXCL; root passes
    it, so rtlat runs as nobody on a port everybody may open)."""
    import fcntl
    os.chmod(loop.path, 0o666)
    fcntl.ioctl(loop.slave, termios.TIOCEXCL)
    try:
        p = run(["irq", "--source", loop.spec(), "-T", "1"],
                preexec_fn=drop_to_nobody, binary=unprivileged_rtlat())
    finally:
        fcntl.ioctl(loop.slave, termios.TIOCNXCL)
    assert p.returncode == 1
    assert "RX port %s: busy (another program holds it exclusively)" % \
        loop.path in p.stderr


def _first_run(spec):
    """An rtlat irq measuring on @spec (30 s; stopped by the test)."""
    p = subprocess.Popen([RTLAT, "irq", "--source", spec, "-T", "30",
                          "--warmup", "100ms"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                          signal.SIG_DFL))
    wait_warming_up(p)
    return p


@pytest.mark.parametrize("which", ["loop", "RX", "TX"])
def test_port_of_another_run_is_busy(loop, which):
    """A port another rtlat run measures on (root passes its TIOCEXCL):
    refused, exit 1, naming the port and that run's PID; with the other
    port opened first (TX busy), that one is put back as it was. Once
    the first run ended, the port is free again."""
    other = PtyLoop()
    try:
        before = cooked(other.slave)
        first = _first_run(loop.spec())
        try:
            spec = {"loop": loop.spec(),
                    "RX": "serial:%s,%s" % (other.path, loop.path),
                    "TX": "serial:%s,%s" % (loop.path, other.path)}[which]
            p = run(["irq", "--source", spec, "-T", "1", "--warmup", "0"])
            assert first.poll() is None
        finally:
            first.send_signal(signal.SIGINT)
            first.communicate(timeout=30)
        assert first.returncode == 0
        assert p.returncode == 1, p.stderr
        assert "--source serial: %s port %s is busy (another rtlat run, " \
            "PID %d)" % ("RX" if which == "loop" else which, loop.path,
                         first.pid) in p.stderr, p.stderr
        assert termios.tcgetattr(other.slave) == before
        # the first run's lock went with it
        r = run(["irq", "--source", loop.spec(), "-T", "1", "--warmup",
                 "0"])
        assert r.returncode == 0, r.stderr
    finally:
        other.close()


def test_same_port_named_twice_is_a_loop(tmp_path, loop):
    """TX and RX the same port under two names (a link): one port's
    TX-RX loop, opened once (not refused as busy by its own lock)."""
    link = "/tmp/rtlat-pty-%d" % os.getpid()   # a port path: < 64 bytes
    os.symlink(loop.path, link)
    js = tmp_path / "r.json"
    try:
        p = run(["irq", "--source", "serial:%s,%s" % (link, loop.path),
                 "-T", "1", "--warmup", "0", "--json", js])
    finally:
        os.unlink(link)
    assert p.returncode == 0, p.stderr
    assert load(js)["test_data"]["serial"]["loop"] is True


@needs_root
def test_port_permission(loop):
    os.chmod(loop.path, 0o600)
    p = run(["irq", "--source", loop.spec(), "-T", "1"],
            preexec_fn=drop_to_nobody, binary=unprivileged_rtlat())
    assert p.returncode == 1
    assert "RX port %s: permission denied" % loop.path in p.stderr


def test_port_without_uart():
    """An 8250 line with no UART behind it (uart:unknown) refuses."""
    try:
        tbl = open("/proc/tty/driver/serial").read().splitlines()
    except OSError:
        pytest.skip("no /proc/tty/driver/serial (no 8250 driver)")
    lines = [l.split(":")[0] for l in tbl if "uart:unknown" in l]
    lines = [n for n in lines if os.path.exists("/dev/ttyS" + n)]
    if not lines:
        pytest.skip("no 8250 line without a UART here")
    port = "/dev/ttyS" + lines[0]
    p = run(["irq", "--source", "serial:%s,%s" % (port, port), "-T", "1"])
    assert p.returncode == 1
    assert "RX port %s: no UART behind this port" % port in p.stderr


def test_bad_serial_options():
    for args, msg in (
            (["--source", "serial:ttyS4"],
             "invalid value 'serial:ttyS4' for --source: serial:TX,RX names two ports"),
            (["--source", "serial:ttyS4,ttyS5", "--baud", "12345"],
             "invalid value '12345' for --baud: one of 1200 2400"),
            (["--baud", "9600"],
             "--baud 9600: the baud rate is the serial source's"),
            (["--source", "serial:ttyS4,ttyS5", "--baud", "9600", "-p", "1ms"],
             "at 9600 baud one character takes 1041.666 us (10 bits / baud); "
             "the period must be at least twice that")):
        p = run(["irq", "-T", "1"] + args)
        assert p.returncode == 1, args
        assert msg in p.stderr, (args, p.stderr)


@needs_root
def test_suite_irq_table_with_serial(tmp_path, loop):
    out = tmp_path / "res"
    p = run(["suite", "--tests", "irq", "--loads", "none", "-T", "1",
             "--warmup", "200ms", "-o", out, "-q", "--irq-source",
             loop.spec()], timeout=120)
    assert p.returncode == 0, p.stderr
    runs = load(out / "suite.json")["runs"]
    res = load(out / runs[0]["file"])
    check_serial_accounting(res)
    report = (out / "report.txt").read_text()
    head = [l for l in report.splitlines() if "lat min" in l][0]
    row = report.splitlines()[report.splitlines().index(head) + 1]
    cells = [c.strip() for c in row.split("|")[1:]]
    s = res["summary"]["latency"]
    assert float(cells[2]) == pytest.approx(s["max_ns"] / 1000, abs=0.001)
    # t2 - t1 is --trace's for serial: no column figure invented
    assert cells[3:6] == ["n/a", "n/a", "n/a"], cells
    assert int(cells[6]) == s["lost"]


# ---- --trace on irq ------------------------------------------------------

@needs_root
def test_trace_splits_every_event(tmp_path):
    """--trace on the net source: every event of the receiver is a span
    whose wake-up and switch lie inside it in order; the parts add up; no
    interrupt is known for veth, so none is invented for t1."""
    if not os.path.isdir("/sys/kernel/tracing/events"):
        pytest.skip("no tracefs")
    p, d = run_ipc(tmp_path, ["irq", "-T", "1", "--warmup", "200ms",
                              "--trace"])
    ev = d["test_data"]["events"]
    tr = d["trace"]
    assert tr["method"] == "irq-events" and tr["irq"] is None
    assert tr["spans"] == ev["served"]
    assert tr["events_lost_around"] + tr["without_wakeup"] < ev["served"] / 2
    parts = tr["parts"]
    assert parts["traced_latency"]["samples"] == ev["served"]
    assert parts["irq_to_task"]["samples"] == 0
    assert parts["traced_latency"]["max_ns"] == \
        d["summary"]["latency"]["max_ns"]
    split = 0
    for e in tr["events"]:
        assert e["t1_ns"] is None
        if e["wakeup_ns"] is None:
            continue
        split += 1
        assert 0 <= e["wakeup_ns"] <= e["running_ns"] <= e["t2_ns"], e
    assert split == parts["wakeup_to_running"]["samples"] > 0
    assert "# trace: no interrupt known (not split at t1): %d events" % \
        ev["served"] in p.stdout
    # the parts' table lined up: every label fits its column
    rtk = [l for l in p.stdout.splitlines() if l.startswith("RTK|")]
    assert len(rtk) == 8
    assert len({tuple(i for i, c in enumerate(l) if c == "|")
                for l in rtk}) == 1, rtk
    assert "RTK|stimulus to wake-up|" in p.stdout
    # the instance is removed
    inst = os.listdir("/sys/kernel/tracing/instances")
    assert tr["instance"] not in inst


@needs_root
def test_trace_with_respond_is_an_error(tmp_path):
    p = run(["irq", "--respond", "--trace", "-T", "1"])
    assert p.returncode == 1
    assert "--trace: irq --respond has no stimulus here" in p.stderr


def test_trace_timerlat_is_for_timer_tests():
    p = run(["irq", "--trace=timerlat", "-T", "1"])
    assert p.returncode == 1
    assert "--trace=timerlat needs a timer test" in p.stderr
