# SPDX-License-Identifier: GPL-2.0-or-later
"""The Xenomai Cobalt build (docs/xenomai.md), against the stand-in
libcobalt of tests/cobalt (make check-cobalt builds both and runs this with
RTLAT pointing at build/cobalt/rtlat; other builds skip it).

The stand-in counts every wrapped call per thread, marks the threads the
wrapped pthread_create() made (and main) as Cobalt threads, keeps a
/proc/xenomai/sched/stat and, asked to, counts a mode switch at a
sampler's Nth clock_nanosleep(). Asserted: the samplers' waits and clock
reads go through the wrappers, one per cycle at least; the Linux side
(main and display) makes no wrapped I/O call; the header and the result
say Xenomai/Cobalt; mode switches are counted, warned of, stored and gate
the exit status with --max-msw; the link audit finds a call it does not
know of."""
import os
import subprocess

import pytest

from conftest import (RTLAT, ROOT, load_json_strict, measured_periods,
                      needs_root, run)

VERSION = subprocess.run([RTLAT, "--version"], capture_output=True,
                         text=True).stdout
pytestmark = [
    pytest.mark.skipif("Xenomai/Cobalt" not in VERSION,
                       reason="not a Cobalt build (make check-cobalt)"),
    needs_root,
]

# calls that do I/O or wait for Linux events: none of them may go through
# libcobalt from the Linux side
IO = {"printf", "fprintf", "vfprintf", "vprintf", "puts", "fputs", "fputc",
      "putchar", "fwrite", "fclose", "write", "read", "open", "open64",
      "__open_2", "__open64_2", "close", "fcntl", "ioctl", "mmap", "mmap64",
      "select", "sigwait", "sigwaitinfo", "sigtimedwait", "nanosleep",
      "sleep", "usleep", "syslog", "__printf_chk", "__fprintf_chk",
      "__vfprintf_chk", "__vprintf_chk"}


def cobalt_run(tmp_path, args, msw_at=0, stat=True, msw_abs=False):
    """Run the Cobalt build; returns (process, counts, result), counts as
    {tid: {"kind", "policy", "prio", "calls": {name: n}}}. A mode switch
    at the @msw_at-th clock_nanosleep(), with @msw_abs counted from the
    first absolute one."""
    log = tmp_path / "calls.log"
    root = tmp_path / "xeno"
    root.mkdir(exist_ok=True)
    env = dict(os.environ, COBALT_STANDIN_LOG=str(log),
               COBALT_STANDIN_ROOT=str(root))
    if stat:
        env["RTLAT_XENOMAI_ROOT"] = str(root)
    if msw_at:
        env["COBALT_STANDIN_MSW_AT"] = str(msw_at)
    if msw_abs:
        env["COBALT_STANDIN_MSW_ABS"] = "1"
    res = tmp_path / "r.json"
    p = subprocess.Popen([RTLAT] + args + ["--json", str(res)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = p.communicate(timeout=120)
    p.stdout_text, p.stderr_text = out, err
    counts = {}
    for line in log.read_text().splitlines():
        tid, kind, pol, prio, name, n = line.split()
        t = counts.setdefault(int(tid), {"kind": kind, "policy": int(pol),
                                         "prio": int(prio), "calls": {}})
        t["calls"][name] = int(n)
    return p, counts, load_json_strict(res)


def samples(thread, series="latency"):
    return thread["series"][series]["samples"]


@pytest.mark.parametrize("wait,call", [
    ("abs", "clock_nanosleep"), ("rel", "clock_nanosleep"),
    ("timerfd", "read"), ("posix", "sigwaitinfo"), ("busy", None)])
def test_sampler_waits_and_clock_reads_go_through_cobalt(tmp_path, wait,
                                                         call):
    p, counts, r = cobalt_run(tmp_path, ["latency", "-T", "1", "-c", "0",
                                         "-p", "1000", "-w", wait, "-q"])
    assert p.returncode == 0, p.stderr_text
    th = r["threads"][0]
    s = counts[th["tid"]]
    assert s["kind"] == "cobalt" and s["policy"] == 1 and s["prio"] == 99
    n, lat = samples(th), th["series"]["latency"]
    # every period of the measured second is a sample or an overrun (a
    # loaded machine may starve the sampler of most of them: 34 samples
    # were seen); "rel" waits a period from each wake-up, off the grid:
    # no overrun, and n periods plus the latencies of all but the last
    # wake-up fit in the measured time
    assert n >= 1
    if wait == "rel":
        assert lat["overruns"] == 0
        assert (n - 1) * r["config"]["period_ns"] + n * lat["avg_ns"] - \
            lat["max_ns"] < r["duration_actual_ns"]
    else:
        assert n + lat["overruns"] == measured_periods(r)
    # one clock read per wake-up at least, one wait per cycle
    assert s["calls"]["clock_gettime"] >= n
    if call:
        assert s["calls"][call] >= n, s["calls"]
    # the Linux side: main (the process) and every Linux thread
    main = counts.get(p.pid, {"calls": {}, "kind": "cobalt"})
    assert main["kind"] == "cobalt"         # the bootstrap shadows main
    linux = [t for t in counts.values() if t["kind"] == "linux"]
    assert linux, "the display thread must be a Linux thread"
    for t in linux + [main]:
        assert not IO & set(t["calls"]), t["calls"]


def test_header_result_and_rtd_say_cobalt(tmp_path):
    p, counts, r = cobalt_run(tmp_path, ["latency", "-T", "2", "-c", "0",
                                         "-p", "1000", "--warmup", "0"])
    assert p.returncode == 0, p.stderr_text
    out = p.stdout_text
    assert "== Test mode: periodic user-mode task on Xenomai/Cobalt 3.2.4" in out
    assert "== Co-kernel: Xenomai/Cobalt 3.2.4: the samplers are Cobalt threads" in out
    assert "RTH|----lat min|----lat avg|----lat max|-overrun|---msw|" in out
    rtd = [l for l in out.splitlines() if l.startswith("RTD|")]
    assert rtd and all(l.split("|")[5].strip() == "0" for l in rtd)
    assert r["mode"] == "periodic user-mode task on Xenomai/Cobalt 3.2.4"
    assert r["cokernel"] == "Xenomai/Cobalt 3.2.4"
    assert r["msw"] == 0 and r["threads"][0]["msw"] == 0
    assert not any("secondary mode" in w for w in r["warnings"])


def test_mode_switch_is_counted_warned_and_gated(tmp_path):
    args = ["latency", "-T", "2", "-c", "0", "-p", "1000", "--warmup", "0"]
    # at the sampler's 2nd clock_nanosleep(): its 1st waits for the first
    # deadline (the start: no warm-up), the 2nd comes after that wake-up,
    # in the measurement however many wake-ups a loaded machine then lets
    # it have (a 500th could come after the end: 34 wake-ups in a second
    # were seen)
    p, _, r = cobalt_run(tmp_path, args + ["-q"], msw_at=2)
    assert p.returncode == 0, p.stderr_text
    tid = r["threads"][0]["tid"]
    want = "sampler 0 (CPU 0, tid %d) switched to secondary mode 1 time" % tid
    assert want in p.stderr_text
    # where: at the start of the measurement (seen within 100 ms; a stall
    # of the machine may only make it later)
    assert want + " (the first seen at 00:00:0" in p.stderr_text
    assert any(want in w for w in r["warnings"])
    assert r["msw"] == 1 and r["threads"][0]["msw"] == 1
    assert r["max_msw"] is None
    p, _, r = cobalt_run(tmp_path, args + ["--max-msw", "0"], msw_at=2)
    assert p.returncode == 2, p.stderr_text
    assert "mode switches: 1 in the measurement exceeded --max-msw 0" in p.stderr_text
    assert r["max_msw"] == 0
    rtd = [l for l in p.stdout_text.splitlines() if l.startswith("RTD|")]
    assert rtd[-1].split("|")[5].strip() == "1"
    p, _, r = cobalt_run(tmp_path, args + ["--max-msw", "1", "-q"],
                         msw_at=2)
    assert p.returncode == 0, p.stderr_text
    # in the warm-up: after the first wake-up, at the start of a 1 s
    # warm-up (the 100th wake-up could come after it on a loaded machine)
    p, _, r = cobalt_run(tmp_path, ["latency", "-T", "1", "-c", "0", "-p",
                                    "1000", "-q"], msw_at=2)
    assert "switched to secondary mode 1 time (the first in the warm-up)" in p.stderr_text
    assert r["msw"] == 1


def test_xenomai_command_line_b_and_t(tmp_path):
    """Xenomai's latency -b (break upon mode switch) is --max-msw 0; its
    msw column is the Cobalt count, in RTD and RTS lines; -t 1 and -t 2
    (Cobalt's timer benchmark device) are said to be unsupported."""
    args = ["latency", "--xenomai", "-b", "-T", "2", "-p", "1000",
            "--warmup", "0"]
    p, _, r = cobalt_run(tmp_path, args, msw_at=2)
    assert p.returncode == 2, p.stderr_text
    assert "mode switches: 1 in the measurement exceeded --max-msw 0" in p.stderr_text
    assert r["max_msw"] == 0 and r["msw"] == 1
    assert [t["cpu"] for t in r["threads"]] == [0]
    rtd = [l for l in p.stdout_text.splitlines() if l.startswith("RTD|")]
    assert rtd[-1].split("|")[5].strip() == "1"
    rts = p.stdout_text.splitlines()[-1]
    assert rts.startswith("RTS|") and rts.split("|")[5].strip() == "1"
    for mode in ("1", "2"):
        q = run(["latency", "--xenomai", "-t", mode, "-T", "1"], check=1)
        assert "Cobalt's timer benchmark device (/dev/rtdm/timerbench) is not supported by this rtlat yet" in q.stderr


def test_no_thread_statistics_is_said(tmp_path):
    """Without the statistics the count is not known: said, null, "-" in
    the RTD lines; --max-msw then cannot be checked (exit 1)."""
    p, _, r = cobalt_run(tmp_path, ["latency", "-T", "1", "-c", "0", "-p",
                                    "1000"], stat=False)
    assert p.returncode == 0, p.stderr_text
    assert "mode switches not known" in p.stderr_text
    assert r["msw"] is None and r["threads"][0]["msw"] is None
    rtd = [l for l in p.stdout_text.splitlines() if l.startswith("RTD|")]
    assert rtd and all(l.split("|")[5].strip() == "-" for l in rtd)
    p, _, r = cobalt_run(tmp_path, ["latency", "-T", "1", "-c", "0", "-q",
                                    "--max-msw", "0"], stat=False)
    assert p.returncode == 1, p.stderr_text
    assert "--max-msw 0 cannot be checked: the mode switches are not known" in p.stderr_text


def test_statistics_gone_before_the_end(tmp_path):
    """Statistics that cannot be read at the end (removed, or a FIFO in
    their place: never waited on) leave the count unknown, not 0."""
    root = tmp_path / "xeno"
    stat = root / "proc" / "xenomai" / "sched" / "stat"
    for kind in ("removed", "fifo"):
        env = dict(os.environ, COBALT_STANDIN_ROOT=str(root),
                   RTLAT_XENOMAI_ROOT=str(root))
        res = tmp_path / ("r-%s.json" % kind)
        p = subprocess.Popen([RTLAT, "latency", "-T", "3", "-c", "0", "-q",
                              "--max-msw", "0", "--json", str(res)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        # the base is read when the samplers wait at the gate, before the
        # 1 s warm-up ends
        deadline = 50
        while deadline and not stat.exists():
            deadline -= 1
            subprocess.run(["sleep", "0.1"])
        subprocess.run(["sleep", "1.5"])
        stat.unlink(missing_ok=True)
        if kind == "fifo":
            os.mkfifo(stat)
        out, err = p.communicate(timeout=60)
        assert p.returncode == 1, err
        assert "could not be read at the end of the measurement" in err
        r = load_json_strict(res)
        assert r["msw"] is None and r["threads"][0]["msw"] is None
        stat.unlink(missing_ok=True)


def test_cruncher_and_cyclic_count_too(tmp_path):
    # the switch at the first cycle's clock_nanosleep(), after the wait for
    # the start (the 1st absolute one; the calibration's, as many as it
    # takes, come before), in the measurement (no warm-up) whatever the
    # load (the 300th call may come after the end: 311 in 3 s were seen)
    p, _, r = cobalt_run(tmp_path, ["cruncher", "-T", "2", "--warmup", "0",
                                    "--ideal", "2000", "--max-msw", "0"],
                         msw_at=2, msw_abs=True)
    assert p.returncode == 2, p.stderr_text
    assert "|---msw" in p.stdout_text
    rtd = [l for l in p.stdout_text.splitlines() if l.startswith("RTD|")]
    assert rtd[-1].rstrip().endswith("|     1")
    # cyclic: --max-msw, the JSON says it, the warning after the last lines
    log = tmp_path / "calls.log"
    root = tmp_path / "xeno"
    env = dict(os.environ, COBALT_STANDIN_LOG=str(log),
               COBALT_STANDIN_ROOT=str(root), RTLAT_XENOMAI_ROOT=str(root),
               COBALT_STANDIN_MSW_AT="2")
    res = tmp_path / "c.json"
    c = subprocess.run([RTLAT, "cyclic", "-p", "80", "-i", "1000", "-D", "2",
                        "-m", "--max-msw", "0", "--json", str(res)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=60)
    assert c.returncode == 2, c.stdout
    d = load_json_strict(res)
    assert d["cokernel"] == "Xenomai/Cobalt 3.2.4" and d["msw"] == 1
    assert d["max_msw"] == 0
    out = c.stdout
    assert out.rindex("switched to secondary mode") > out.rindex("T: 0")


def test_forked_partner_is_watched(tmp_path):
    p, _, r = cobalt_run(tmp_path, ["handshake", "-T", "1", "--process",
                                    "-q"])
    assert p.returncode == 0, p.stderr_text
    (partner,) = r["msw_partners"]
    assert partner["name"].startswith("the side b (process ")
    assert partner["msw"] == 0 and r["msw"] == 0


def test_suite_names_the_threshold(tmp_path):
    env = dict(os.environ, RTLAT_XENOMAI_ROOT=str(tmp_path / "xeno"),
               COBALT_STANDIN_ROOT=str(tmp_path / "xeno"),
               COBALT_STANDIN_MSW_AT="2")
    out = tmp_path / "s"
    s = run(["suite", "--tests", "latency", "--loads", "none", "-T", "1",
             "--out", out, "--test-args", "latency:--max-msw 0"], env=env)
    assert s.returncode == 2, s.stderr
    assert "--max-latency" not in s.stderr
    assert "a run exceeded a threshold given with --test-args (--max-msw, --break)" in s.stderr
    assert "Exit status: 2 (a run exceeded a threshold given with --test-args" in (out / "report.txt").read_text()


def test_switch_partner_threads_are_cobalt_and_sem_goes_through_it(tmp_path):
    p, counts, r = cobalt_run(tmp_path, ["switch", "-T", "1", "-p", "1000",
                                         "--ipc", "sem", "-q"])
    assert p.returncode == 0, p.stderr_text
    lat, td = r["summary"]["latency"], r["test_data"]
    n = lat["samples"]
    # every period of the measured second posts an event or is missed by
    # the event thread; every event is a sample or lost by the worker
    assert n >= 1 and n + lat["lost"] == td["events"]
    assert td["events"] + td["event_missed_periods"] == measured_periods(r)
    rt = [t for t in counts.values()
          if t["kind"] == "cobalt" and t["policy"] == 1]
    assert len(rt) == 2, counts          # the event thread and the worker
    assert sum(t["calls"].get("sem_post", 0) for t in rt) >= n
    assert sum(t["calls"].get("sem_wait", 0) for t in rt) >= n


def test_link_audit_finds_an_unknown_call(tmp_path):
    """check-cobalt.py over this build: clean with the shipped audit; with
    one entry (gettid) left out, it names the objects that call it."""
    build = pathlib_parent(RTLAT)
    mk = ["make", "-s", "-C", str(ROOT), "--no-print-directory",
          "print-cobalt-objs"]
    objs = subprocess.run(mk, capture_output=True, text=True,
                          check=True).stdout.split("\n")
    rt, mixed, kept = objs[0].split(), objs[1].split(), objs[2].split()
    cmd = ["/usr/bin/python3", str(ROOT / "scripts" / "check-cobalt.py"),
           str(build), str(ROOT / "tests" / "cobalt" / "xeno-config"),
           "--kept"] + kept + ["--rt"] + rt + ["--mixed"] + mixed
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    audit = (ROOT / "scripts" / "cobalt-audit.txt").read_text()
    cut = tmp_path / "audit.txt"
    cut.write_text("".join(l for l in audit.splitlines(True)
                           if not l.startswith("gettid ")))
    bad = subprocess.run(cmd + ["--audit", str(cut)], capture_output=True,
                         text=True)
    assert bad.returncode == 1
    assert "src/engine/wait: calls gettid, which Cobalt does not wrap" in bad.stdout
    # docs/xenomai.md lists the wrapped calls the measuring code relies on
    listed = subprocess.run(cmd + ["--list"], capture_output=True, text=True,
                            check=True).stdout.split()
    doc = (ROOT / "docs" / "xenomai.md").read_text()
    part = doc.split("## What the measuring code relies on")[1]
    block = part.split("```")[1].split()
    assert block == listed


def pathlib_parent(p):
    return os.path.dirname(os.path.abspath(p))


def test_report_and_suite_name_the_co_kernel(tmp_path):
    """rtlat report shows the run's co-kernel with its system; the suite's
    default label says it, so that the same board's runs on Linux and on
    Cobalt stay apart in one report (--label is taken as given)."""
    p, _, r = cobalt_run(tmp_path, ["latency", "-T", "1", "-c", "0", "-q"])
    assert p.returncode == 0, p.stderr_text
    page = tmp_path / "r.html"
    q = run(["report", "--html", page, tmp_path / "r.json"], check=0)
    assert "co-kernel: Xenomai/Cobalt 3.2.4" in page.read_text(), q.stderr
    env = dict(os.environ, RTLAT_XENOMAI_ROOT=str(tmp_path / "xeno"),
               COBALT_STANDIN_ROOT=str(tmp_path / "xeno"))
    for given, want in ((None, ", Xenomai/Cobalt 3.2.4"), ("lab-a", None)):
        out = tmp_path / ("suite-%s" % given)
        args = ["suite", "--tests", "latency", "--loads", "none", "-T", "1",
                "--out", out] + (["--label", given] if given else [])
        s = run(args, env=env)
        assert s.returncode == 0, s.stderr
        suite = load_json_strict(out / "suite.json")
        label = suite["label"]
        if want:
            assert label.endswith(want) and label != want, label
        else:
            assert label == given
