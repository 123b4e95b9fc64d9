#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark: rtlat handshake against rt-tests' ptsematest and pmqtest.

Same machine, same settings (SCHED_FIFO 99, both tasks on one CPU, one
round trip per interval), runs alternating between the reference tool and
rtlat so that drifts of the machine hit both alike. Compared:

  ptsematest (pthread mutex hand-off)  <->  rtlat handshake --ipc futex
  pmqtest    (POSIX message queue)     <->  rtlat handshake --ipc mqueue

The reference tools report the one-way latency sender -> receiver in us
(the microsecond field of gettimeofday); rtlat's matching series is a_to_b
(ns on CLOCK_MONOTONIC, shown in us). CPU time per sample is the tool's
user + system time (wait4 rusage, all threads) over its sample count.

Usage (root): bench/handshake_vs_rttests.py [--pairs 3] [--seconds 10]
              [--cpu 0] [--interval-us 1000] [--rtlat build/rtlat] [--markdown]
Not run by make check.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PAIRS = [("ptsematest", "futex"), ("pmqtest", "mqueue")]


def children_cpu():
    t = os.times()
    return t.children_user + t.children_system


def run_measured(argv, what):
    """Run argv to its end; return its CPU seconds (user + system of all
    its threads and reaped children, from wait4)."""
    c0 = children_cpu()
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d): %s" % (what, p.returncode, p.stderr))
    return children_cpu() - c0


def run_reference(tool, a):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "r.json")
        argv = [tool, "-p", "99", "-i", str(a.interval_us), "-t", "1",
                "-a", str(a.cpu), "-D", str(a.seconds), "-q", "--json", js]
        cpu = run_measured(argv, tool)
        with open(js) as f:
            t = json.load(f)["thread"]["0"]
    n = t["sender"]["samples"]
    r = t["receiver"]
    return {"min": float(r["min"]), "avg": float(r["avg"]),
            "max": float(r["max"]), "samples": n, "cpu_per_sample_us":
            cpu * 1e6 / n}


def run_rtlat(ipc, a):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "r.json")
        argv = [a.rtlat, "handshake", "-P", "99", "-p",
                "%dus" % a.interval_us, "-c", str(a.cpu), "-T",
                str(a.seconds), "--warmup", "0", "--ipc", ipc, "-q",
                "--json", js]
        cpu = run_measured(argv, "rtlat")
        with open(js) as f:
            s = json.load(f)["summary"]["a_to_b"]
    n = s["samples"]
    return {"min": s["min_ns"] / 1000, "avg": s["avg_ns"] / 1000,
            "max": s["max_ns"] / 1000, "p50": s["percentiles_ns"]["p50"] / 1000,
            "samples": n,
            "cpu_per_sample_us": cpu * 1e6 / n}


def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    guest = False
    with open("/proc/cpuinfo") as f:
        guest = any(l.startswith("flags") and " hypervisor" in l for l in f)
    u = os.uname()
    try:
        virt = subprocess.run(["systemd-detect-virt"], capture_output=True,
                              text=True).stdout.strip() or "none"
    except OSError:
        virt = "unknown"
    rt = "PREEMPT_RT" if os.path.exists("/sys/kernel/realtime") else \
        ("PREEMPT_DYNAMIC" if "PREEMPT_DYNAMIC" in u.version else "other")
    return "%s, %d CPUs, Linux %s (%s), %s, virtualization: %s%s" % (
        model, os.cpu_count(), u.release, rt, u.machine, virt,
        ", hypervisor guest" if guest else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--interval-us", type=int, default=1000)
    ap.add_argument("--rtlat", default=os.path.join(ROOT, "build", "rtlat"))
    ap.add_argument("--markdown", action="store_true",
                    help="print the summary as a Markdown table")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root (SCHED_FIFO 99, mlockall)")

    results = {}
    for i in range(a.pairs):
        for tool, ipc in PAIRS:
            # alternate which one goes first
            order = [tool, ipc] if i % 2 == 0 else [ipc, tool]
            for who in order:
                if who == tool:
                    r = run_reference(tool, a)
                    key = tool
                else:
                    r = run_rtlat(ipc, a)
                    key = "rtlat --ipc " + ipc
                results.setdefault(key, []).append(r)
                print("pair %d %-22s min %7.3f avg %7.3f max %9.3f us, "
                      "%d samples, %.2f us CPU/sample" % (
                          i + 1, key, r["min"], r["avg"], r["max"],
                          r["samples"], r["cpu_per_sample_us"]),
                      file=sys.stderr)
                time.sleep(1)

    print("# machine: %s" % machine())
    print("# %d alternating pairs of %d s, SCHED_FIFO 99, CPU %d, interval "
          "%d us; one-way latency sender->receiver (rtlat: a_to_b), "
          "median over runs" % (a.pairs, a.seconds, a.cpu, a.interval_us))
    if a.markdown:
        print("| reference | rtlat | min us (ref / rtlat) | avg us | max us "
              "| rtlat p50 us | CPU us/sample | ratios rtlat/ref min, avg, "
              "max, CPU |")
        print("|---|---|---|---|---|---|---|---|")
    for tool, ipc in PAIRS:
        ref = results[tool]
        rt = results["rtlat --ipc " + ipc]
        p50 = statistics.median(x["p50"] for x in rt)
        med = {}
        for k in ("min", "avg", "max", "cpu_per_sample_us"):
            med[k] = (statistics.median(x[k] for x in ref),
                      statistics.median(x[k] for x in rt))
        ratio = {k: (v[1] / v[0] if v[0] else float("inf"))
                 for k, v in med.items()}
        if a.markdown:
            print("| %s | --ipc %s | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f "
                  "| %.3f | %.2f / %.2f | %.2f, %.2f, %.2f, %.2f |" % (
                      tool, ipc, *med["min"], *med["avg"], *med["max"], p50,
                      *med["cpu_per_sample_us"], ratio["min"], ratio["avg"],
                      ratio["max"], ratio["cpu_per_sample_us"]))
        else:
            print("%-11s vs rtlat --ipc %-6s  min %.3f/%.3f (x%.2f)  "
                  "avg %.3f/%.3f (x%.2f)  max %.3f/%.3f (x%.2f)  "
                  "rtlat p50 %.3f  CPU/sample %.2f/%.2f us (x%.2f)" % (
                      tool, ipc, *med["min"], ratio["min"], *med["avg"],
                      ratio["avg"], *med["max"], ratio["max"], p50,
                      *med["cpu_per_sample_us"], ratio["cpu_per_sample_us"]))


if __name__ == "__main__":
    main()
