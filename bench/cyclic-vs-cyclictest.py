#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat cyclic against cyclictest, and both against a bare floor loop.

Runs rtlat cyclic, cyclictest and bench/floor.c alternately on the same
machine with the same parameters (default -m -p 80 -i 200 -t 1 -a CPU
-D 10, plus -q -N --json), --pairs rounds, the order rotated each round
(--static adds rtlat's static build). Prints per tool the medians over the
rounds and their spread (min..max) of:

  latency min / avg / p99 / max (us; p99 only where the tool reports it),
  CPU time per sample (user + sys of the process / samples),
  peak RSS (VmHWM of the process, polled from /proc while it runs: the
  ru_maxrss of a child also counts the forked parent before its exec),

the ratios of the runs of each round (rtlat/cyclictest, tool/floor) with
their median and spread, the targets of issue 3, and the binary sizes
(size(1)) of rtlat's dynamic and static builds and cyclictest.
Needs root (SCHED_FIFO, mlockall), cc, make, and cyclictest (rt-tests).
Installs nothing; floor.c is built into a temporary directory. Not run in
CI: this VM's run-to-run noise is about +-15 %, use enough rounds.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def vmhwm_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


ALL_CPUS = os.sched_getaffinity(0)


def run_measured(cmd):
    """Run @cmd; return (stdout + stderr, exit status, peak RSS KB)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         preexec_fn=lambda: os.sched_setaffinity(0, ALL_CPUS))
    hwm = None
    # output is small (-q): it fits the pipe until the end
    try:
        while p.poll() is None:
            # the status of a zombie no longer has VmHWM: keep the last
            h = vmhwm_kb(p.pid)
            if h is not None:
                hwm = h
            time.sleep(0.2)
    except KeyboardInterrupt:
        p.send_signal(signal.SIGINT)
        raise
    # poll() reaped it: its rusage is in RUSAGE_CHILDREN (see run())
    out = p.stdout.read()
    p.stdout.close()
    return out, p.returncode, hwm


def children_cpu():
    """user + sys seconds of the children reaped so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    before = children_cpu()
    out, rc, hwm = run_measured(cmd)
    return out, rc, hwm, children_cpu() - before


def tool_json(path):
    with open(path) as f:
        return json.load(f)      # cyclictest may write NaN: accepted here


def measure_rtlat(a, tmp, path):
    js = os.path.join(tmp, "rtlat.json")
    out, rc, hwm, cpu = run([path, "cyclic", "-m", "-p", str(a.prio),
                             "-i", str(a.interval), "-t", "1", "-a",
                             str(a.cpu), "-D", str(a.duration), "-q", "-N",
                             "--json", js])
    if rc != 0:
        sys.exit("rtlat cyclic failed (%d): %s" % (rc, out))
    t = tool_json(js)["thread"]["0"]
    return {"min": t["min"], "avg": t["avg"], "max": t["max"],
            "p99": t["latency"]["percentiles_ns"]["p99"],
            "samples": t["cycles"], "missed": t["overruns"],
            "cpu": cpu, "rss": hwm}


def measure_cyclictest(a, tmp):
    js = os.path.join(tmp, "ct.json")
    out, rc, hwm, cpu = run([a.cyclictest, "-m", "-p", str(a.prio),
                             "-i", str(a.interval), "-t", "1", "-a",
                             str(a.cpu), "-D", str(a.duration), "-q", "-N",
                             "--json=%s" % js])
    if rc != 0:
        sys.exit("cyclictest failed (%d): %s" % (rc, out))
    t = tool_json(js)["thread"]["0"]
    return {"min": t["min"], "avg": t["avg"], "max": t["max"], "p99": None,
            "samples": t["cycles"], "missed": None, "cpu": cpu, "rss": hwm}


def measure_floor(a, tmp):
    out, rc, hwm, cpu = run([os.path.join(tmp, "floor"), str(a.prio),
                             str(a.cpu), str(a.interval), str(a.duration)])
    if rc != 0:
        sys.exit("floor failed (%d): %s" % (rc, out))
    kv = dict(f.split("=") for f in out.split())
    return {"min": int(kv["min_ns"]), "avg": float(kv["avg_ns"]),
            "max": int(kv["max_ns"]), "p99": None,
            "samples": int(kv["samples"]), "missed": int(kv["missed"]),
            "cpu": cpu, "rss": hwm}


def med(rounds, key):
    v = [r[key] for r in rounds if r[key] is not None]
    if not v:
        return None, None, None
    return statistics.median(v), min(v), max(v)


def fmt_us(v):
    return "n/a" if v is None else "%.2f" % (v / 1000.0)


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def fmt_ratio(r):
    return "n/a" if r is None else "%.3f" % r


def machine():
    lines = []
    u = os.uname()
    lines.append("kernel: %s %s %s" % (u.sysname, u.release, u.version))
    try:
        with open("/proc/cpuinfo") as f:
            models = [ln.split(":", 1)[1].strip() for ln in f
                      if ln.startswith("model name")]
        lines.append("cpu: %d x %s" % (len(models), models[0]))
    except (OSError, IndexError):
        pass
    try:
        with open("/sys/kernel/realtime") as f:
            lines.append("PREEMPT_RT: %s" % f.read().strip())
    except OSError:
        lines.append("PREEMPT_RT: no")
    try:
        with open("/proc/sys/kernel/sched_rt_runtime_us") as f:
            lines.append("sched_rt_runtime_us: %s" % f.read().strip())
    except OSError:
        pass
    return lines


def sizes(a):
    out = []
    for name, path in (("rtlat (dynamic)", a.rtlat),
                       ("rtlat (static)", a.rtlat_static),
                       ("cyclictest", a.cyclictest)):
        if not path or not os.path.exists(path):
            out.append("%-16s not found" % name)
            continue
        s = subprocess.run(["size", path], capture_output=True,
                           text=True).stdout.splitlines()
        text, data, bss = s[1].split()[:3]
        out.append("%-16s text %8s  data %6s  bss %7s  file %8d bytes  %s"
                   % (name, text, data, bss, os.path.getsize(path), path))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--duration", type=int, default=10, help="s per run")
    ap.add_argument("--interval", type=int, default=200, help="us")
    ap.add_argument("--prio", type=int, default=80)
    ap.add_argument("--cpu", type=int,
                    default=max(os.sched_getaffinity(0)))
    ap.add_argument("--rtlat", default=os.path.join(TOP, "build", "rtlat"))
    ap.add_argument("--rtlat-static",
                    default=os.path.join(TOP, "build", "static", "rtlat"))
    ap.add_argument("--cyclictest", default=shutil.which("cyclictest"))
    ap.add_argument("--static", action="store_true",
                    help="also measure rtlat's static build")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (SCHED_FIFO, mlockall)")
    if not a.cyclictest:
        sys.exit("cyclictest not found (apt-get install rt-tests)")
    subprocess.run(["make", "-s", "-C", TOP], check=True)
    subprocess.run(["make", "-s", "-C", TOP, "static"], check=True)
    # the runner itself stays off the measured CPU
    others = os.sched_getaffinity(0) - {a.cpu}
    if others:
        os.sched_setaffinity(0, others)

    tmp = tempfile.mkdtemp(prefix="rtlat-bench-")
    try:
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror",
                        "-o", os.path.join(tmp, "floor"),
                        os.path.join(HERE, "floor.c")], check=True)
        tools = [("rtlat", lambda a, t: measure_rtlat(a, t, a.rtlat)),
                 ("cyclictest", measure_cyclictest), ("floor", measure_floor)]
        if a.static:
            tools.append(("rtlat-static",
                          lambda a, t: measure_rtlat(a, t, a.rtlat_static)))
        res = {name: [] for name, _ in tools}
        for rnd in range(a.pairs):
            order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]
            for name, fn in order:
                r = fn(a, tmp)
                r["cpu_per_sample"] = r["cpu"] / r["samples"] * 1e9 \
                    if r["samples"] else None
                res[name].append(r)
                print("round %d %-12s avg %8s us  max %9s us  samples %6d"
                      "  cpu/sample %6.2f us  rss %s KB" %
                      (rnd + 1, name, fmt_us(r["avg"]), fmt_us(r["max"]),
                       r["samples"], (r["cpu_per_sample"] or 0) / 1000,
                       r["rss"]), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("# rtlat cyclic vs cyclictest vs floor: -m -p %d -i %d -t 1 -a %d"
          " -D %d (-q -N --json), %d rounds, order rotated" %
          (a.prio, a.interval, a.cpu, a.duration, a.pairs))
    for ln in machine():
        print("# " + ln)
    print()
    print("%-12s %18s %18s %18s %20s %20s %16s" %
          ("tool", "min us", "avg us", "p99 us", "max us",
           "cpu/sample us", "peak RSS KB"))
    for name, rounds in res.items():
        row = []
        for key, f in (("min", fmt_us), ("avg", fmt_us), ("p99", fmt_us),
                       ("max", fmt_us), ("cpu_per_sample", fmt_us),
                       ("rss", lambda v: "n/a" if v is None else "%d" % v)):
            m, lo, hi = med(rounds, key)
            row.append("n/a" if m is None else
                       "%s (%s..%s)" % (f(m), f(lo), f(hi)))
        print("%-12s %18s %18s %18s %20s %20s %16s" % tuple([name] + row))
    missed = [r["missed"] for r in res["rtlat"]]
    print("\nrtlat overruns (missed periods) per run: %s (cyclictest does"
          " not count them)" % missed)

    # Ratios of the runs of the same round (the machine's state drifts:
    # pairing removes part of it), median and spread over the rounds.
    def paired(x, y, key):
        v = [ratio(a[key], b[key]) for a, b in zip(res[x], res[y])]
        v = [r for r in v if r is not None]
        if not v:
            return None, "n/a"
        m = statistics.median(v)
        return m, "%.3f (%.2f..%.2f)" % (m, min(v), max(v))

    print("\nratios per round: median (min..max)")
    print("%-26s %22s %22s %22s" % ("", "avg latency", "cpu/sample",
                                     "peak RSS"))
    ratios = {}
    pairs = [("rtlat", "cyclictest"), ("rtlat", "floor"),
             ("cyclictest", "floor")]
    if a.static:
        pairs.insert(1, ("rtlat-static", "cyclictest"))
    for x, y in pairs:
        row = []
        for key in ("avg", "cpu_per_sample", "rss"):
            ratios[(x, y, key)], text = paired(x, y, key)
            row.append(text)
        print("%-26s %22s %22s %22s" % tuple(["%s / %s" % (x, y)] + row))

    def target(text, r, limit):
        ok = r is not None and r <= limit
        print("  [%s] %s (%s)" % ("met " if ok else "MISS", text,
                                  fmt_ratio(r)))

    print("\ntargets (issue 3), on the median of the per-round ratios:")
    target("avg latency rtlat/cyclictest <= 1.00",
           ratios[("rtlat", "cyclictest", "avg")], 1.0)
    target("cpu/sample rtlat/cyclictest <= 1.00",
           ratios[("rtlat", "cyclictest", "cpu_per_sample")], 1.0)
    target("avg latency rtlat/floor <= 1.10",
           ratios[("rtlat", "floor", "avg")], 1.10)
    target("cpu/sample rtlat/floor <= 1.10",
           ratios[("rtlat", "floor", "cpu_per_sample")], 1.10)
    target("peak RSS rtlat/cyclictest <= 1.00",
           ratios[("rtlat", "cyclictest", "rss")], 1.0)
    print("\nbinary sizes (size):")
    for ln in sizes(a):
        print("  " + ln)


if __name__ == "__main__":
    main()
