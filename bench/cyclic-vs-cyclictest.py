#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat cyclic against cyclictest, cyclictest against itself, and a floor.

Runs each tool the same way, alternately, --rounds times (the order rotated
each round): rtlat cyclic of each build (dynamic, glibc static, musl
static), Debian's cyclictest twice (cyclictest and cyclictest-2: the A/A
pair, whose ratio is the noise of the comparison) and bench/floor.c (a bare
clock_nanosleep loop; --no-floor leaves it out). Every tool gets the same
options, by default -m -p 80 -i 200 -t 1 -a CPU -D 10 -q -N, and the same
placement of its non-measuring threads (--placement):

  housekeeping  rtlat's default (--housekeeping auto: the CPUs not measured)
                and cyclictest --mainaffinity=THOSE CPUS
  measured      rtlat --housekeeping measured and cyclictest's default with
                -a (its main thread on the -a CPU)

Each run goes through bench/runstat.c, which reports the peak RSS twice:
VmHWM polled from /proc/PID/status while it runs, and ru_maxrss from
wait4() (which also counts the few hundred KB runstat itself had at fork:
printed as the floor), and the CPU time (user + sys of all threads; and
per thread from schedstat: the sampler, the main thread, the others).
Printed: per tool the median (min..max) over the rounds of min/avg/max
latency, CPU time per sample and both peak RSS figures; then the medians
(min..max) of the per-round ratios against cyclictest, with the A/A ratio
cyclictest-2/cyclictest beside them.

--rtvm runs the same rounds inside ../shared/tools/rtvm (Debian's
PREEMPT_RT kernel under qemu): an emulated CPU, so only the ratios mean
something there. Needs root, cc, make, cyclictest (apt-get install
rt-tests) and, for the musl build, musl-gcc. Not run in CI.
"""
import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
RTVM = os.path.join(TOP, "..", "shared", "tools", "rtvm")

RUNSTAT_RE = re.compile(r"runstat: rc=(-?\d+) hwm_kb=(-?\d+) maxrss_kb=(\d+)"
                        r" floor_kb=(\d+) cpu_us=(\d+)")
THREADS_RE = re.compile(r"runstat: threads=(\d+) main_us=(\d+) top_us=(\d+)"
                        r" rest_us=(\d+)")
T_RE = re.compile(r"^T:\s*\d+\s*\(\s*\d+\)\s*P:\s*\d+\s*I:\s*\d+\s*"
                  r"C:\s*(\d+)\s*Min:\s*(-?\d+)\s*Act:\s*-?\d+\s*"
                  r"Avg:\s*(-?\d+)\s*Max:\s*(-?\d+)", re.M)
FLOOR_RE = re.compile(r"samples=(\d+) missed=(\d+) min_ns=(-?\d+) "
                      r"avg_ns=(-?[\d.]+) max_ns=(-?\d+)")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def musl_kernel_headers():
    """musl-gcc searches musl's headers only: the kernel's UAPI headers
    (rtlat irq's GPIO and netlink) from the host's, as check-musl.sh does."""
    kh = os.path.join(TOP, "build", "musl-kernel-headers")
    os.makedirs(kh, exist_ok=True)
    arch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                          text=True, check=True).stdout.strip()
    for name, target in (("linux", "/usr/include/linux"),
                         ("asm-generic", "/usr/include/asm-generic"),
                         ("asm", "/usr/include/%s/asm" % arch)):
        link = os.path.join(kh, name)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(target, link)
    return kh


def build(a, tmp):
    """The binaries: {tool name: path on the host}."""
    bins = {}
    if not a.no_build:
        sh(["make", "-s", "-C", TOP, "all"])
    if "dynamic" in a.builds:
        bins["rtlat"] = a.rtlat
    if "static" in a.builds:
        if not a.no_build:
            sh(["make", "-s", "-C", TOP, "static"])
        bins["rtlat-static"] = a.rtlat_static
    if "musl" in a.builds:
        if not a.no_build and shutil.which("musl-gcc"):
            sh(["make", "-s", "-C", TOP, "O=" + os.path.join(TOP, "build", "musl"),
                "CC=musl-gcc", "CPPFLAGS=-isystem " + musl_kernel_headers(),
                "static"])
        if os.path.exists(a.rtlat_musl):
            bins["rtlat-musl"] = a.rtlat_musl
        else:
            print("musl build not found (%s; needs musl-gcc): left out"
                  % a.rtlat_musl, file=sys.stderr)
    bins["cyclictest"] = a.cyclictest
    bins["cyclictest-2"] = a.cyclictest
    # runstat static and small (its RSS at fork is in every ru_maxrss);
    # floor with glibc (musl's sched_setscheduler() is ENOSYS by design)
    cc = ["musl-gcc", "-static"] if shutil.which("musl-gcc") else ["cc", "-static"]
    for prog, c in (("runstat", cc), ("floor", ["cc"])):
        sh(c + ["-O2", "-Wall", "-Wextra", "-Werror", "-o",
                os.path.join(tmp, prog), os.path.join(HERE, prog + ".c")])
    if not a.no_floor:
        bins["floor"] = os.path.join(tmp, "floor")
    return bins


def commands(a, bins, where):
    """{tool: argv} with @where(path) giving the path to run it by."""
    cpus = sorted(a.cpus_all - {a.cpu})
    common = ["-m", "-p", str(a.prio), "-i", str(a.interval), "-t", "1",
              "-a", str(a.cpu), "-D", str(a.duration), "-q", "-N"]
    hk = ",".join(str(c) for c in cpus) or str(a.cpu)
    cmds = {}
    for name, path in bins.items():
        if name.startswith("rtlat"):
            extra = ["--housekeeping", "measured"] \
                if a.placement == "measured" else []
            cmds[name] = [where(path), "cyclic"] + common + extra
        elif name.startswith("cyclictest"):
            extra = ["--mainaffinity=%s" % hk] \
                if a.placement == "housekeeping" else []
            cmds[name] = [where(path)] + common + extra
        else:
            cmds[name] = [where(path), str(a.prio), str(a.cpu),
                          str(a.interval), str(a.duration)]
    return cmds


def parse(name, out):
    """One run's figures from its output (stdout + runstat's line)."""
    m = RUNSTAT_RE.search(out)
    if not m:
        raise RuntimeError("%s: no runstat line in:\n%s" % (name, out))
    rc, hwm, maxrss, floor, cpu = (int(x) for x in m.groups())
    if rc != 0:
        raise RuntimeError("%s failed (%d):\n%s" % (name, rc, out))
    if name == "floor":
        f = FLOOR_RE.search(out)
        samples, _, mn, avg, mx = f.groups()
        samples, mn, avg, mx = int(samples), int(mn), float(avg), int(mx)
    else:
        t = T_RE.findall(out)
        if not t:
            raise RuntimeError("%s: no T: line in:\n%s" % (name, out))
        samples, mn, avg, mx = (int(x) for x in t[-1])
    per = lambda us: us * 1000.0 / samples if samples else None
    th = THREADS_RE.search(out)
    main_us, top_us, rest_us = (int(x) for x in th.groups()[1:]) \
        if th else (None, None, None)
    return {"samples": samples, "min": mn, "avg": avg, "max": mx,
            "hwm": hwm, "maxrss": maxrss, "floor": floor,
            "cpu_per_sample": per(cpu),
            # per thread (schedstat): the sampler, the main thread, others
            "sampler_per_sample": per(top_us) if th else None,
            "main_per_sample": per(main_us) if th else None,
            "rest_per_sample": per(rest_us) if th else None}


def order(names, rnd):
    k = rnd % len(names)
    return names[k:] + names[:k]


def run_host(a, bins, tmp):
    cmds = commands(a, bins, lambda p: p)
    names = list(cmds)
    res = {n: [] for n in names}
    runstat = os.path.join(tmp, "runstat")
    for rnd in range(a.rounds):
        for n in order(names, rnd):
            p = subprocess.run([runstat] + cmds[n], capture_output=True,
                               text=True, preexec_fn=lambda: os.sched_setaffinity(
                                   0, a.cpus_all))
            r = parse(n, p.stdout + p.stderr)
            res[n].append(r)
            progress(rnd, n, r)
    return res


def run_rtvm(a, bins, tmp):
    """All rounds in one guest boot; the output comes back on the console.
    The builds of rtlat all are "rtlat": copied in under their tool name."""
    stage = os.path.join(tmp, "stage")
    os.makedirs(stage)
    guest = {}
    for n, p in bins.items():
        base = "cyclictest" if n.startswith("cyclictest") else n
        dst = os.path.join(stage, base)
        if not os.path.exists(dst):
            shutil.copy(p, dst)
        guest[n] = dst
    shutil.copy(os.path.join(tmp, "runstat"), os.path.join(stage, "runstat"))
    cmds = commands(a, guest, lambda p: "/bin/" + os.path.basename(p))
    names = list(cmds)
    lines = []
    for rnd in range(a.rounds):
        for n in order(names, rnd):
            lines.append("echo '@@ %d %s'; runstat %s 2>&1" %
                         (rnd, n, " ".join(shlex.quote(x) for x in cmds[n])))
    script = "\n".join(lines) + "\necho '@@ end'\n"
    args = [a.rtvm, "-t", str(a.rounds * len(names) * (a.duration + 15) + 120),
            "-c", "2", "-d", os.path.join(tmp, "rtvm-out")]
    for f in sorted(os.listdir(stage)):
        args += ["-i", os.path.join(stage, f)]
    args += ["--", "sh", "-c", script]
    p = subprocess.run(args, capture_output=True, text=True)
    out = p.stdout.replace("\r", "")
    res = {n: [] for n in names}
    parts = re.split(r"^@@ (\d+) (\S+)$", out, flags=re.M)
    for i in range(1, len(parts) - 2, 3):
        rnd, n, text = int(parts[i]), parts[i + 1], parts[i + 2]
        r = parse(n, text)
        res[n].append(r)
        progress(rnd, n, r)
    if not any(res.values()):
        sys.exit("rtvm gave no results (exit %d):\n%s\n%s" %
                 (p.returncode, out[-3000:], p.stderr[-2000:]))
    return res


def progress(rnd, n, r):
    print("round %d %-13s avg %9.2f us  max %10.2f us  samples %6d  "
          "cpu/sample %6.2f us  VmHWM %5d KB  ru_maxrss %5d KB" %
          (rnd + 1, n, r["avg"] / 1000, r["max"] / 1000, r["samples"],
           (r["cpu_per_sample"] or 0) / 1000, r["hwm"], r["maxrss"]),
          file=sys.stderr, flush=True)


def spread(v, fmt):
    v = [x for x in v if x is not None]
    if not v:
        return "n/a"
    return "%s (%s..%s)" % (fmt(statistics.median(v)), fmt(min(v)),
                            fmt(max(v)))


def machine(a):
    u = os.uname()
    lines = ["kernel: %s %s" % (u.release, u.version)]
    try:
        with open("/proc/cpuinfo") as f:
            models = [ln.split(":", 1)[1].strip() for ln in f
                      if ln.startswith("model name")]
        lines.append("cpu: %d x %s" % (len(models), models[0]))
    except (OSError, IndexError):
        pass
    try:
        with open("/proc/loadavg") as f:
            lines.append("load average at the end: %s" %
                         " ".join(f.read().split()[:3]))
    except OSError:
        pass
    if a.rtvm:
        lines.append("in the rtvm guest (PREEMPT_RT, emulated CPU: "
                     "relative figures only)")
    return lines


def report(a, res):
    us = lambda v: "%.2f" % (v / 1000.0)
    kb = lambda v: "%d" % v
    us3 = lambda v: "%.3f" % (v / 1000.0)
    print("# rtlat cyclic vs cyclictest: -m -p %d -i %d -t 1 -a %d -D %d -q"
          " -N, placement %s, %d rounds, order rotated" %
          (a.prio, a.interval, a.cpu, a.duration, a.placement, a.rounds))
    for ln in machine(a):
        print("# " + ln)
    print("\n| tool | min us | avg us | max us | CPU/sample us | VmHWM KB |"
          " ru_maxrss KB |")
    print("|---|---|---|---|---|---|---|")
    for n, rs in res.items():
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            n, spread([r["min"] for r in rs], us),
            spread([r["avg"] for r in rs], us),
            spread([r["max"] for r in rs], us),
            spread([r["cpu_per_sample"] for r in rs], us),
            spread([r["hwm"] for r in rs], kb),
            spread([r["maxrss"] for r in rs], kb)))
    print("\nCPU per sample by thread (us, /proc/PID/task/TID/schedstat):"
          " the sampler (cyclictest's measuring thread), the main thread"
          " (with the start-up), the others (rtlat's display thread):\n")
    print("| tool | sampler | main | others |")
    print("|---|---|---|---|")
    for n, rs in res.items():
        print("| %s | %s | %s | %s |" % (
            n, spread([r["sampler_per_sample"] for r in rs], us3),
            spread([r["main_per_sample"] for r in rs], us3),
            spread([r["rest_per_sample"] for r in rs], us3)))
    floors = [r["floor"] for rs in res.values() for r in rs]
    if floors:
        print("\nru_maxrss includes runstat's own RSS at fork: %d KB" %
              max(floors))

    def ratios(x, key):
        v = []
        for p, q in zip(res[x], res["cyclictest"]):
            if p[key] is not None and q[key]:
                v.append(p[key] / q[key])
        return v

    f3 = lambda v: "%.3f" % v
    print("\nPer-round ratios against cyclictest, median (min..max); "
          "cyclictest-2 is the A/A noise:\n")
    print("| tool / cyclictest | avg latency | CPU/sample | sampler CPU |"
          " VmHWM | ru_maxrss |")
    print("|---|---|---|---|---|---|")
    for n in res:
        if n == "cyclictest":
            continue
        print("| %s | %s | %s | %s | %s | %s |" % (
            n, spread(ratios(n, "avg"), f3),
            spread(ratios(n, "cpu_per_sample"), f3),
            spread(ratios(n, "sampler_per_sample"), f3),
            spread(ratios(n, "hwm"), f3), spread(ratios(n, "maxrss"), f3)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", "--pairs", type=int, default=6)
    ap.add_argument("--duration", type=int, default=10, help="s per run")
    ap.add_argument("--interval", type=int, default=200, help="us")
    ap.add_argument("--prio", type=int, default=80)
    ap.add_argument("--cpu", type=int, default=None,
                    help="measured CPU (default: the last one)")
    ap.add_argument("--placement", choices=("housekeeping", "measured"),
                    default="housekeeping")
    ap.add_argument("--builds", default="dynamic,static,musl",
                    help="rtlat builds to measure (dynamic,static,musl)")
    ap.add_argument("--rtlat", default=os.path.join(TOP, "build", "rtlat"))
    ap.add_argument("--rtlat-static",
                    default=os.path.join(TOP, "build", "static", "rtlat"))
    ap.add_argument("--rtlat-musl", default=os.path.join(
        TOP, "build", "musl", "static", "rtlat"))
    ap.add_argument("--cyclictest", default=shutil.which("cyclictest"))
    ap.add_argument("--no-build", action="store_true",
                    help="use the binaries as they are")
    ap.add_argument("--no-floor", action="store_true")
    ap.add_argument("--rtvm", nargs="?", const=RTVM, default=None,
                    metavar="RTVM", help="run in the PREEMPT_RT guest")
    a = ap.parse_args()
    a.builds = set(a.builds.split(","))
    if os.geteuid() != 0:
        sys.exit("needs root (SCHED_FIFO, mlockall)")
    if not a.cyclictest:
        sys.exit("cyclictest not found (apt-get install rt-tests)")
    a.cpus_all = {0, 1} if a.rtvm else set(os.sched_getaffinity(0))
    if a.cpu is None:
        a.cpu = max(a.cpus_all)
    tmp = tempfile.mkdtemp(prefix="rtlat-bench-")
    try:
        bins = build(a, tmp)
        if not a.rtvm:
            # the runner itself stays off the measured CPU
            others = a.cpus_all - {a.cpu}
            if others:
                os.sched_setaffinity(0, others)
        res = run_rtvm(a, bins, tmp) if a.rtvm else run_host(a, bins, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(a, res)


if __name__ == "__main__":
    main()
