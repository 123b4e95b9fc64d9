#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cost of --metrics and --metrics-port.

Runs `rtlat latency` on one CPU in pairs, without and with `--metrics FILE
--metrics-port 0` while a scraper (a thread of this script, kept off the
measured CPU) fetches /metrics every --scrape seconds, alternating so
that drifts of the machine's load hit both alike. Prints per run the CPU
time of the whole process per period (user + sys from wait4(),
divided by samples + overruns), the run time of the sampler thread per
period and of the other threads (main, display: where the metrics are
made) in ms, from /proc/PID/task/TID/schedstat read while it runs, the
mean latency and the scrapes done; then the medians and the per-pair
differences.

Usage: bench/metrics-cost.py [--rtlat build/rtlat] [--cpu N] [--pairs 6]
                             [--seconds 5] [--period 100] [--interval 1s]
                             [--scrape 0.1]
As root (SCHED_FIFO). Prints a table on stdout; exit 1 on error.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def scraper(url, every, stop, count, cpu):
    # off the measured CPU: the scraper's own work is not rtlat's
    others = os.sched_getaffinity(0) - {cpu}
    if others:
        os.sched_setaffinity(0, others)
    while not stop.is_set():
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                r.read()
            count[0] += 1
        except OSError:
            pass
        stop.wait(every)


def schedstat(pid, last):
    """Run time (ns) of each thread of @pid into @last {tid: ns}."""
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                last[int(tid)] = int(f.read().split()[0])
    except OSError:
        pass


def one(a, metrics):
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        cmd = [a.rtlat, "latency", "-c", str(a.cpu), "-T", str(a.seconds),
               "--warmup", "0.5s", "-p", str(a.period), "--interval",
               a.interval, "--json", j]
        if metrics:
            cmd += ["--metrics", os.path.join(d, "m.prom"),
                    "--metrics-port", "0"]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        stop, count, th = threading.Event(), [0], None
        if metrics:
            for line in p.stderr:
                m = re.search(r"metrics at (http://\S+)", line)
                if m:
                    th = threading.Thread(target=scraper, args=(
                        m.group(1), a.scrape, stop, count, a.cpu))
                    th.start()
                    break
        run_ns = {}
        while True:
            schedstat(p.pid, run_ns)
            wpid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if wpid:
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        stop.set()
        if th:
            th.join()
        err = p.stderr.read()
        if p.returncode != 0:
            sys.exit("rtlat failed (%d): %s" % (p.returncode, err))
        r = json.load(open(j))
    s = r["summary"]["latency"]
    periods = s["samples"] + s.get("overruns", 0)
    cpu_ns = (ru.ru_utime + ru.ru_stime) * 1e9
    samplers = {t["tid"] for t in r["threads"]}
    smp = sum(v for t, v in run_ns.items() if t in samplers)
    other = sum(v for t, v in run_ns.items() if t not in samplers)
    return (cpu_ns / periods, s["avg_ns"], count[0], smp / periods,
            other / 1e6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtlat", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "rtlat"))
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--period", type=int, default=100)
    ap.add_argument("--interval", default="1s")
    ap.add_argument("--scrape", type=float, default=0.1)
    a = ap.parse_args()
    print("# rtlat --metrics cost: CPU %d, period %d us, %g s per run, "
          "interval %s, a scrape every %g s, %d pairs (off, on)" %
          (a.cpu, a.period, a.seconds, a.interval, a.scrape, a.pairs))
    print("# pair  cpu/period_off_ns  cpu/period_on_ns  diff_ns  "
          "sampler/period_off_ns  sampler/period_on_ns  others_off_ms  "
          "others_on_ms  avg_off_ns  avg_on_ns  scrapes")
    offs, ons, diffs, lat_off, lat_on = [], [], [], [], []
    smp_off, smp_on, oth_off, oth_on = [], [], [], []
    for i in range(a.pairs):
        off = one(a, False)
        on = one(a, True)
        offs.append(off[0])
        ons.append(on[0])
        diffs.append(on[0] - off[0])
        lat_off.append(off[1])
        lat_on.append(on[1])
        smp_off.append(off[3])
        smp_on.append(on[3])
        oth_off.append(off[4])
        oth_on.append(on[4])
        print("%6d  %17.1f  %16.1f  %7.1f  %21.1f  %20.1f  %13.2f  %12.2f  "
              "%10.1f  %9.1f  %7d" %
              (i, off[0], on[0], on[0] - off[0], off[3], on[3], off[4],
               on[4], off[1], on[1], on[2]))
    q = statistics.quantiles(diffs, n=4) if len(diffs) > 1 else diffs * 3
    print("median CPU per sample without --metrics: %.1f ns, with: %.1f ns; "
          "difference (on - off): median %.1f ns (%.1f %%), quartiles "
          "%.1f .. %.1f ns, range %.1f .. %.1f ns; median avg latency "
          "%.1f ns off, %.1f ns on" %
          (statistics.median(offs), statistics.median(ons),
           statistics.median(diffs),
           100 * statistics.median(diffs) / statistics.median(offs),
           q[0], q[2], min(diffs), max(diffs),
           statistics.median(lat_off), statistics.median(lat_on)))
    print("median sampler run time per period: %.1f ns off, %.1f ns on; "
          "median run time of the other threads (main, display): %.2f ms "
          "off, %.2f ms on (%.2f ms more per run of %g s)" %
          (statistics.median(smp_off), statistics.median(smp_on),
           statistics.median(oth_off), statistics.median(oth_on),
           statistics.median(oth_on) - statistics.median(oth_off),
           a.seconds))


if __name__ == "__main__":
    main()
