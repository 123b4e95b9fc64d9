# SPDX-License-Identifier: GPL-2.0-or-later
"""Command-line tests of rtlat cyclic (cyclictest compatibility).

Runs are short (1-2 s). Nothing here asserts an absolute latency or
duration: only options honoured, accounting identities, formats and exit
status. The stall test makes a latency of a known least size with a busy
loop at a higher SCHED_FIFO priority on the measured CPU.
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

from conftest import FIXTURES, RTLAT, load_json_strict, needs_root, run
from test_placement import wait_measuring

# ---------------------------------------------------------------------------
# A parser for cyclictest's standard output, as a user script would write
# it. It must read cyclictest's own output (the fixtures) and ours alike.

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TLINE = re.compile(r"T:\s*(\d+)\s+\(\s*(\d+)\)\s+P:\s*(\d+)\s+I:\s*(\d+)\s+"
                   r"C:\s*(\d+)\s+Min:\s*(\S+)\s+Act:\s*(\S+)\s+Avg:\s*(\S+)"
                   r"\s+Max:\s*(\S+)")


def _num(tok):
    return None if tok == "n/a" else int(tok)


def parse_cyclictest(text):
    """Return {"threads": {n: {...}}, "hist": rows, "footer": {key: [..]},
    "overflow_cycles": {n: (cycles, others)}} of cyclictest output."""
    text = ANSI.sub("\n", text)
    out = {"threads": {}, "hist": [], "footer": {}, "overflow_cycles": {}}
    in_hist = False
    for line in text.splitlines():
        line = line.rstrip()
        m = TLINE.search(line)
        if m and not line.startswith("#"):
            out["threads"][int(m[1])] = {
                "tid": int(m[2]), "prio": int(m[3]), "interval": int(m[4]),
                "cycles": int(m[5]), "min": _num(m[6]), "act": _num(m[7]),
                "avg": _num(m[8]), "max": _num(m[9])}
            continue
        if line == "# Histogram":
            in_hist = True
            continue
        if in_hist and re.match(r"^\d{6} ", line):
            out["hist"].append([int(c) for c in line.split()])
            continue
        m = re.match(r"# Thread (\d+):(.*)$", line)
        if m:
            cycles, _, others = m[2].partition("#")
            others = re.match(r"\s*(\d+) others", others)
            out["overflow_cycles"][int(m[1])] = (
                [int(c) for c in cycles.split()],
                int(others[1]) if others else 0)
            continue
        if line.startswith("# ") and ":" in line:
            key, _, rest = line[2:].partition(":")
            vals = []
            for tok in rest.split():
                if tok == "#":          # a trailing comment
                    break
                vals.append(tok)
            out["footer"][key.strip()] = vals
    return out


def hist_column_sums(p, nthreads):
    return [sum(r[1 + i] for r in p["hist"]) for i in range(nthreads)]


def test_parser_reads_cyclictest_fixtures():
    d = FIXTURES / "cyclictest"
    p = parse_cyclictest((d / "quiet-2threads.txt").read_text())
    assert [p["threads"][i]["interval"] for i in (0, 1)] == [1000, 1500]
    assert p["threads"][1]["cycles"] == 2000

    p = parse_cyclictest((d / "histogram-60us-overflows.txt").read_text())
    assert len(p["hist"]) == 60
    sums = hist_column_sums(p, 2)
    assert sums == [int(v) for v in p["footer"]["Total"]]
    ovf = [int(v) for v in p["footer"]["Histogram Overflows"]]
    assert [s + o for s, o in zip(sums, ovf)] == [8000, 8000]
    cyc, others = p["overflow_cycles"][1]
    assert len(cyc) + others == ovf[1]

    p = parse_cyclictest(
        (d / "histogram-riscv-2threads-annotated.txt").read_text())
    assert sorted(p["threads"]) == [0, 1]
    assert p["footer"]["Max Latencies"] == ["00027", "00031"]
    assert sum(hist_column_sums(p, 2)) == 120000


# ---------------------------------------------------------------------------
# Runs


def cyc(*args, check=0, **kw):
    return run(["cyclic"] + list(args), check=check, **kw)


def cpus_allowed():
    return sorted(os.sched_getaffinity(0))


@needs_root
def test_quiet_output_parses_and_accounts(tmp_path):
    p = cyc("-m", "-p", "80", "-t", "2", "-i", "1000", "-q", "-D", "1")
    assert "\x1b[" not in p.stdout
    out = parse_cyclictest(p.stdout)
    assert sorted(out["threads"]) == [0, 1]
    assert [out["threads"][i]["interval"] for i in (0, 1)] == [1000, 1500]
    assert all(t["prio"] == 80 for t in out["threads"].values())
    over = [int(v) for v in out["footer"]["Overruns"]]
    # every period of the duration is a cycle or an overrun
    assert out["threads"][0]["cycles"] + over[0] == 1000
    assert out["threads"][1]["cycles"] + over[1] == 667
    for t in out["threads"].values():
        assert t["min"] <= t["avg"] <= t["max"]


@needs_root
def test_live_display_redraws():
    p = cyc("-p", "80", "-D", "1")
    assert "\x1b[4A" in p.stdout            # policy line, blank, T:, #
    assert p.stdout.startswith("# /dev/cpu_dma_latency set to 0us\n")
    assert "policy: fifo: loadavg:" in p.stdout
    out = parse_cyclictest(p.stdout)
    assert out["threads"][0]["cycles"] + int(out["footer"]["Overruns"][0]) \
        == 1000


@needs_root
def test_threads_pinned_as_shown():
    """-t 2 -a: thread N on CPU N, checked on the tids the T: lines show."""
    cpus = cpus_allowed()
    if len(cpus) < 2:
        pytest.skip("needs 2 CPUs")
    proc = subprocess.Popen([RTLAT, "cyclic", "-t", "2", "-a", "-p", "80",
                             "-D", "3"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    tids = {}
    try:
        for line in proc.stdout:
            m = TLINE.search(line)
            if m:
                tids[int(m[1])] = int(m[2])
            if len(tids) == 2:
                break
        allowed = {}
        for n, tid in tids.items():
            with open("/proc/%d/task/%d/status" % (proc.pid, tid)) as f:
                for line in f:
                    if line.startswith("Cpus_allowed_list:"):
                        allowed[n] = line.split()[1]
        assert allowed == {0: str(cpus[0]), 1: str(cpus[1])}
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    assert proc.returncode == 0


@needs_root
def test_affinity_set_and_json_cpus(tmp_path):
    cpu = cpus_allowed()[-1]
    js = tmp_path / "a.json"
    cyc("-t", "2", "-a", str(cpu), "-p", "80", "-q", "-l", "50",
        "--json", js)
    d = load_json_strict(js)
    assert [d["thread"][k]["cpu"] for k in ("0", "1")] == [cpu, cpu]


@needs_root
def test_smp_one_thread_per_cpu(tmp_path):
    js = tmp_path / "smp.json"
    p = cyc("-S", "-p", "80", "-q", "-l", "20", "--json", js)
    out = parse_cyclictest(p.stdout)
    cpus = cpus_allowed()
    assert sorted(out["threads"]) == list(range(len(cpus)))
    assert {t["prio"] for t in out["threads"].values()} == {80}
    d = load_json_strict(js)
    assert [d["thread"][str(i)]["cpu"] for i in range(len(cpus))] == cpus


@needs_root
def test_intervals_distance_and_histogram():
    out = parse_cyclictest(cyc("-t", "3", "-i", "200", "-d", "100", "-q",
                               "-p", "80", "-l", "20").stdout)
    assert [out["threads"][i]["interval"] for i in range(3)] == \
        [200, 300, 400]
    # -l: every thread stops after 20 wake-ups, as cyclictest (C: 20),
    # whatever periods they missed on a loaded host
    assert [out["threads"][i]["cycles"] for i in range(3)] == [20, 20, 20]
    # with -h all threads have the same interval (T: lines without -q)
    p = cyc("-t", "3", "-i", "200", "-d", "100", "-p", "80", "-l", "20",
            "-h", "10")
    out = parse_cyclictest(p.stdout)
    assert [out["threads"][i]["interval"] for i in range(3)] == \
        [200, 200, 200]


@needs_root
def test_priospread_and_policy():
    out = parse_cyclictest(cyc("-t", "2", "-p", "80", "--priospread", "-q",
                               "-l", "10").stdout)
    assert [out["threads"][i]["prio"] for i in (0, 1)] == [80, 79]
    # no -p: SCHED_OTHER, as cyclictest
    p = cyc("-q", "-l", "10")
    assert parse_cyclictest(p.stdout)["threads"][0]["prio"] == 0


@needs_root
@pytest.mark.parametrize("pol", ["batch", "idle", "other", "normal"])
def test_policy_with_priority_runs_fifo_and_says_so(tmp_path, pol):
    """cyclictest: a priority with a non-RT policy means SCHED_FIFO, with
    'policy and priority don't match' on stderr (also with -q)."""
    js = tmp_path / "p.json"
    p = cyc("--policy", pol, "-p", "80", "-q", "-l", "10", "--json=%s" % js)
    w = "warning: --policy %s with priority 80: policy and priority " \
        "don't match, running SCHED_FIFO" % pol
    assert w in p.stderr, p.stderr
    d = load_json_strict(js)
    assert d["thread"]["0"]["policy"] == "fifo"
    assert d["thread"]["0"]["priority"] == 80
    assert [x for x in d["warnings"] if "--policy %s" % pol in x]


@pytest.mark.parametrize("pol", ["batch", "idle"])
def test_policy_batch_idle_run_other_and_say_so(pol):
    p = cyc("--policy", pol, "-q", "-l", "10")
    assert "warning: --policy %s: running SCHED_OTHER" % pol in p.stderr
    assert parse_cyclictest(p.stdout)["threads"][0]["prio"] == 0
    # a policy that is run says nothing
    for same in (["--policy", "other"], ["--policy", "fifo", "-p", "10"]):
        if same[1] == "fifo" and os.geteuid() != 0:
            continue
        p = cyc(*same, "-q", "-l", "10")
        assert "--policy" not in p.stderr, p.stderr


@needs_root
def test_json_one_thread(tmp_path):
    js = tmp_path / "one.json"
    cyc("-p", "80", "-q", "-D", "1", "-i", "500", "--json=%s" % js)
    d = load_json_strict(js)
    for key in ("file_version", "cmdline", "rt_test_version", "start_time",
                "end_time", "return_code", "sysinfo", "num_threads",
                "resolution_in_ns", "thread"):
        assert key in d, key
    assert not any(k.endswith(":") for k in d)
    assert d["num_threads"] == 1 and d["return_code"] == 0
    assert d["status"] == "complete" and d["unit"] == "us"
    t = d["thread"]["0"]
    assert t["cycles"] + t["overruns"] == 2000
    assert t["min"] <= t["avg"] <= t["max"]
    assert t["interval_us"] == 500 and t["priority"] == 80
    assert t["latency"]["samples"] == t["cycles"]
    assert t["histogram"] == {}
    assert set(t["latency"]["percentiles_ns"]) >= {"p50", "p99"}
    # the conditions, as every result file of rtlat's: rtlat check's items
    chk = json.loads(run(["check", "--json", "-T", "0"]).stdout)
    assert [i["id"] for i in d["check"]["items"]] == \
        [i["id"] for i in chk["items"]]
    assert sum(d["check"]["counts"].values()) == len(chk["items"])


@needs_root
def test_json_threads_without_cycles(tmp_path):
    """N threads, one whose first deadline after the warm-up is past the
    end: it has no cycle and its statistics are null, not NaN."""
    js = tmp_path / "n.json"
    p = cyc("-t", "3", "-p", "80", "-i", "1000", "-d", "5000000",
            "--warmup", "0.3", "-D", "1", "-q", "--json", js)
    d = load_json_strict(js)
    assert d["num_threads"] == 3
    t0, t1 = d["thread"]["0"], d["thread"]["1"]
    assert t0["cycles"] + t0["overruns"] == 1000
    assert t1["cycles"] == 0 and t1["overruns"] == 0
    assert t1["min"] is None and t1["avg"] is None and t1["max"] is None
    out = parse_cyclictest(p.stdout)
    assert out["threads"][1]["cycles"] == 0
    assert out["threads"][1]["min"] is None


@needs_root
def test_json_interrupted_in_warmup(tmp_path):
    """SIGINT before any thread's first cycle: valid JSON, exit 0, and
    every thread stops although one sleeps for seconds."""
    js = tmp_path / "int.json"
    proc = subprocess.Popen([RTLAT, "cyclic", "-t", "2", "-p", "80",
                             "-i", "1000", "-d", "8000000", "--warmup", "20",
                             "-q", "--json", str(js)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    d = load_json_strict(js)
    assert d["status"] == "interrupted"
    assert [d["thread"][k]["cycles"] for k in ("0", "1")] == [0, 0]
    assert all(d["thread"][k]["avg"] is None for k in ("0", "1"))
    assert out.count("n/a") == 8


@needs_root
def test_histogram_dump_accounts_every_cycle(tmp_path):
    js = tmp_path / "h.json"
    p = cyc("-t", "2", "-p", "80", "-i", "500", "-q", "-D", "1", "-H", "40",
            "--json", js)
    out = parse_cyclictest(p.stdout)
    assert out["threads"] == {}             # -q -h: no T: lines (cyclictest)
    assert len(out["hist"]) == 40
    assert all(len(r) == 4 for r in out["hist"])    # 2 threads + -H column
    d = load_json_strict(js)
    sums = hist_column_sums(out, 2)
    ovf = [int(v) for v in out["footer"]["Histogram Overflows"]][:2]
    under = [int(v) for v in out["footer"].get("Histogram Underflows",
                                                ["0", "0", "0"])][:2]
    for i in range(2):
        t = d["thread"][str(i)]
        assert sums[i] + ovf[i] + under[i] == t["cycles"]
        assert sum(t["histogram"].values()) == sums[i]
        assert t["histogram_overflow"] == ovf[i]
        cyc_list, others = out["overflow_cycles"][i]
        assert len(cyc_list) + others == ovf[i]
        assert cyc_list == t["histogram_overflow_cycles"]
        assert t["cycles"] + t["overruns"] == 2000
    assert [int(v) for v in out["footer"]["Total"]] == sums + [sum(sums)]
    assert int(out["footer"]["Histogram Overflows"][2]) == sum(ovf)


@needs_root
def test_nsecs(tmp_path):
    js = tmp_path / "ns.json"
    p = cyc("-p", "80", "-N", "-l", "200", "-h", "1000", "--json", js)
    d = load_json_strict(js)
    assert d["resolution_in_ns"] == 1 and d["unit"] == "ns"
    assert d["histogram_bucket_width_us"] == 1
    t = d["thread"]["0"]
    # values in ns, buckets still in us
    assert t["min"] == t["latency"]["min_ns"]
    assert t["max"] == t["latency"]["max_ns"]
    assert all(0 <= int(k) < 1000 for k in t["histogram"])
    assert sum(t["histogram"].values()) + t["histogram_overflow"] == \
        t["cycles"]
    out = parse_cyclictest(p.stdout)
    assert out["threads"][0]["max"] == t["max"]
    assert "# Histogram buckets are 1 us wide; latencies in ns" in p.stdout


@needs_root
def test_verbose_raw_samples():
    p = cyc("-p", "80", "-v", "-l", "50", "-i", "200")
    lines = [ln for ln in p.stdout.splitlines() if not ln.startswith("#")]
    assert len(lines) == 50
    for n, ln in enumerate(lines):
        t, c, v = ln.split(":")
        assert int(t) == 0 and int(v) >= 0
        assert int(c) >= n


@needs_root
@pytest.mark.parametrize("opts,wait,clock", [
    (["-r"], "rel", "monotonic"), (["-s"], "rel", "monotonic"),
    (["-x"], "posix", "monotonic"), (["-n", "-c", "1"], "abs", "realtime")])
def test_wait_backends(tmp_path, opts, wait, clock):
    js = tmp_path / "w.json"
    cyc("-p", "80", "-q", "-l", "50", "-i", "200", "--json", js, *opts)
    d = load_json_strict(js)
    assert d["wait"] == wait and d["clock"] == clock
    assert d["thread"]["0"]["cycles"] == 50


@needs_root
def test_histfile(tmp_path):
    hf = tmp_path / "hist.txt"
    p = cyc("-p", "80", "-q", "-l", "100", "-h", "20", "--histfile", hf)
    assert "# Histogram" not in p.stdout
    out = parse_cyclictest(hf.read_text())
    assert len(out["hist"]) == 20
    f = out["footer"]
    assert sum(hist_column_sums(out, 1)) + \
        int(f["Histogram Overflows"][0]) + \
        int(f.get("Histogram Underflows", ["0"])[0]) == 100


STALL = r"""
import os, sys, time
cpu, prio, ms = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
os.sched_setaffinity(0, {cpu})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
end = time.monotonic() + ms / 1000
while time.monotonic() < end:
    pass
"""


def run_with_stall(args, cpu, stall_ms, prio=90):
    """Run rtlat cyclic @args; 0.3 s after it measures (its sampler
    running, its memory locked: a loaded host can delay its start by more
    than a fixed wait) busy-loop @stall_ms ms on @cpu at SCHED_FIFO @prio
    (above the sampler). Returns (rc, stdout, stderr)."""
    proc = subprocess.Popen([RTLAT, "cyclic"] + [str(a) for a in args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    wait_measuring(proc)
    time.sleep(0.3)
    subprocess.run([sys.executable, "-c", STALL, str(cpu), str(prio),
                    str(stall_ms)], check=True, timeout=30)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


@needs_root
def test_break_on_injected_stall(tmp_path):
    cpu = cpus_allowed()[-1]
    js = tmp_path / "b.json"
    # the break threshold well above what this host's own stalls reach
    # (one of 20 ms or more broke a run with -b 20000 before the stall)
    period_us, stall_ms = 1000, 150
    rc, out, err = run_with_stall(["-p", "80", "-a", cpu, "-i", period_us,
                                   "-b", "100000", "-q", "-D", "20",
                                   "--json", js], cpu, stall_ms)
    assert rc == 2, (out, err)
    footer = parse_cyclictest(out)["footer"]
    value = int(footer["Break value"][0])
    assert value >= stall_ms * 1000 - period_us
    assert int(footer["Break thread"][0]) == \
        parse_cyclictest(out)["threads"][0]["tid"]
    d = load_json_strict(js)
    assert d["return_code"] == 2 and d["status"] == "break"
    assert d["break"]["thread"] == 0
    assert d["break"]["value_ns"] // 1000 == value
    assert d["break"]["cycle"] == int(footer["Break cycle"][0])
    assert "break" in err


@needs_root
def test_stall_counts_overruns(tmp_path):
    """cyclictest skips the periods a stall swallows; we count them."""
    cpu = cpus_allowed()[-1]
    js = tmp_path / "s.json"
    period_us, stall_ms = 1000, 50
    rc, out, err = run_with_stall(["-p", "80", "-a", cpu, "-i", period_us,
                                   "-q", "-D", "2", "--json", js],
                                  cpu, stall_ms)
    assert rc == 0, err
    t = load_json_strict(js)["thread"]["0"]
    assert t["max"] >= stall_ms * 1000 - period_us
    assert t["overruns"] > 0
    assert t["cycles"] + t["overruns"] == 2000
    assert parse_cyclictest(out)["footer"]["Overruns"] == \
        ["%05d" % t["overruns"]]


@needs_root
def test_loops_are_wakeups_under_stall(tmp_path):
    """-l N stops after N wake-ups, as cyclictest (C: = N): a stall of D ms
    adds about D / period overruns on top, it does not end the run early
    (rtlat used to count the missed periods as loops)."""
    cpu = cpus_allowed()[-1]
    js = tmp_path / "l.json"
    period_us, stall_ms = 1000, 50
    rc, out, err = run_with_stall(["-p", "80", "-a", cpu, "-i", period_us,
                                   "-q", "-l", "2000", "--json", js],
                                  cpu, stall_ms)
    assert rc == 0, err
    t = load_json_strict(js)["thread"]["0"]
    assert t["cycles"] == 2000
    assert parse_cyclictest(out)["threads"][0]["cycles"] == 2000
    # the stall swallowed at least D / period - 1 whole periods
    assert t["overruns"] >= stall_ms * 1000 // period_us - 1
    assert t["max"] >= stall_ms * 1000 - period_us


@needs_root
def test_quiet_ends_with_last_tline():
    """cyclictest -q ends with the last T: line: scripts read the max with
    tail -1 | awk '{print $NF}' (rtlat printed '# Overruns: 00000' last)."""
    p = cyc("-p", "80", "-t", "2", "-q", "-l", "100", "-i", "500")
    lines = p.stdout.rstrip("\n").split("\n")
    assert lines[-1].startswith("T: 1 ")
    assert lines[-2].startswith("T: 0 ")
    assert lines[-3].startswith("# Overruns: ")
    out = parse_cyclictest(p.stdout)
    assert int(lines[-1].split()[-1]) == out["threads"][1]["max"]


def test_bad_options_are_named():
    for args, msg in [(["--smi"], "unknown option '--smi'"),
                      (["-M"], "unknown option '-M'"),
                      (["-i", "0"], "-i/--interval"),
                      (["-t", "0"], "-t/--threads"),
                      (["-p", "120"], "-p/--priority"),
                      (["extra"], "unexpected argument 'extra'")]:
        p = cyc(*args, check=1)
        assert msg in p.stderr, (args, p.stderr)
        assert p.stdout == ""


def test_help_lists_cyclictest_options():
    p = cyc("--help")
    for opt in ("--affinity", "--breaktrace", "--histogram", "--histofall",
                "--histfile", "--priospread", "--json", "--smp",
                "--posix_timers", "--system", "--nsecs", "--verbose"):
        assert opt in p.stdout


@needs_root
@pytest.mark.alone
def test_missed_periods_said_at_the_end():
    """About half the periods missed (a SCHED_FIFO 90 task takes the CPU
    from the priority 80 sampler for 1.5 s of the 3): cyclic says at the end
    what rtlat suite's report says, with the counts of its own Overruns
    and C: figures."""
    cpu = str(cpus_allowed()[-1])
    p = subprocess.Popen([RTLAT, "cyclic", "-D", "3", "-a", cpu, "-t", "1",
                          "-i", "1000", "-p", "80", "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    wait_measuring(p)
    # it ends by itself after 1.5 s (no other task at its priority or
    # below could end it: a timeout(1) beside it would starve)
    hog = subprocess.Popen(["taskset", "-c", cpu, "chrt", "-f", "90",
                            sys.executable, "-c",
                            "import time\nend = time.monotonic() + 1.5\n"
                            "while time.monotonic() < end: pass"])
    try:
        out, err = p.communicate(timeout=60)
    finally:
        hog.kill()
        hog.wait()
        if p.poll() is None:
            p.kill()
            p.wait()
    ov = int(re.search(r"# Overruns: *(\d+)", out).group(1))
    c = int(re.search(r"C: *(\d+)", out).group(1))
    # the hog's 1.5 s of the 3 (less what RT throttling gives back)
    assert ov * 100 >= ov + c, (out, err)
    note = ("latency: %.1f %% of the periods were missed (%d of %d): the "
            "max is that of a starved task, not a latency" %
            (100.0 * ov / (ov + c), ov, ov + c))
    # a stall of another task, not RT throttling
    assert note + "\n" in err, (out, err)


def test_man_errors_are_not_supported_options():
    """rtlat-cyclic(1)'s list of cyclictest options that are errors names
    none that rtlat cyclic takes (--mainaffinity was in both), and each
    of them is refused naming it."""
    page = (pathlib.Path(__file__).resolve().parents[2] / "man" /
            "rtlat-cyclic.1").read_text()
    i = page.index("Other cyclictest options")
    j = page.index("are errors naming the option", i)
    listed = re.findall(r"\\-(?:\\-)?[A-Za-z_]+", page[i:j])
    listed = [o.replace("\\-", "-") for o in listed]
    assert "-A" in listed and "--dbg_cyclictest" in listed, listed
    help_text = cyc("--help").stdout
    taken = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text))
    assert not set(listed) & taken, set(listed) & taken
    for o in listed:
        p = cyc(o, "1", check=1)
        assert o in p.stderr, (o, p.stderr)
