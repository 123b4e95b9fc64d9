#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Footprint of rtlat on the target: binary sizes and memory over time.

1. Builds the static on-target binaries (glibc, musl, and the PowerPC and
   ARM cross builds when their toolchains are installed) and prints their
   stripped sizes against the 300 KB budget of the static core binary.
2. Runs `rtlat latency` and samples its resident set (VmRSS) every second:
   memory must stay constant over time, whatever the duration. A short
   interval (default 10 ms) fills the bounded per-interval store within the
   run, so its compaction is exercised too.

Usage (root, from the source tree):
    python3 bench/footprint.py [--duration 60] [--interval 10ms]
Prints figures; nothing here is a test.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUDGET = 300 * 1024


def build(out, *args):
    r = subprocess.run(["make", "-s", "-C", ROOT, "O=" + out] + list(args),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    return r.returncode == 0, r.stderr.strip().splitlines()[-1:] if r.stderr else []


def stripped_size(binary, strip="strip"):
    with tempfile.NamedTemporaryFile(delete=False) as t:
        path = t.name
    try:
        subprocess.run([strip, "-o", path, binary], check=True)
        return os.path.getsize(path)
    finally:
        os.unlink(path)


def sizes(workdir):
    variants = [
        ("glibc static x86_64", [], "strip", None),
        ("musl static x86_64", ["CC=musl-gcc"], "strip", "musl-gcc"),
        ("glibc static powerpc (32-bit BE)",
         ["CROSS_COMPILE=powerpc-linux-gnu-"], "powerpc-linux-gnu-strip",
         "powerpc-linux-gnu-gcc"),
        ("glibc static arm (32-bit hf)",
         ["CROSS_COMPILE=arm-linux-gnueabihf-"], "arm-linux-gnueabihf-strip",
         "arm-linux-gnueabihf-gcc"),
    ]
    print("Static on-target binaries (HOST_FEATURES=0), stripped:")
    print("  %-36s %10s %8s" % ("variant", "bytes", "budget"))
    for name, args, strip, need in variants:
        if need and not shutil.which(need):
            print("  %-36s %10s %8s" % (name, "-", "no " + need))
            continue
        out = os.path.join(workdir, name.split()[0] + "-" + name.split()[2])
        ok, err = build(out, "static", *args)
        if not ok:
            print("  %-36s build failed: %s" % (name, " ".join(err)))
            continue
        n = stripped_size(os.path.join(out, "static", "rtlat"), strip)
        print("  %-36s %10d %8s" % (name, n,
                                    "ok" if n < BUDGET else "over"))
    dyn = os.path.join(ROOT, "build", "rtlat")
    if os.path.exists(dyn):
        print("  %-36s %10d %8s" % ("dynamic x86_64 (with host features)",
                                     stripped_size(dyn), "-"))
    print("  budget of the static core binary: %d bytes (300 KB); glibc's "
          "static libc alone is larger, musl is the small static libc"
          % BUDGET)


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def memory_over_time(binary, duration, interval):
    json_path = tempfile.mktemp(prefix="rtlat-footprint-", suffix=".json")
    cmd = [binary, "latency", "-T", str(duration), "--interval", interval,
           "--warmup", "0.5s", "-q", "--checkpoint", "2", "--json", json_path]
    print("\nMemory over time: %s" % " ".join(cmd))
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    samples = []
    t0 = time.monotonic()
    while p.poll() is None:
        r = rss_kib(p.pid) if os.path.exists("/proc/%d" % p.pid) else None
        if r:
            samples.append((time.monotonic() - t0, r))
        time.sleep(1)
    p.wait()
    if os.path.exists(json_path):
        os.unlink(json_path)
    if len(samples) < 4:
        print("  too few samples")
        return
    print("  %8s %10s" % ("time s", "VmRSS KiB"))
    step = max(1, len(samples) // 12)
    for t, r in samples[::step]:
        print("  %8.0f %10d" % (t, r))
    # after set-up (first 3 s), the resident set must not grow
    steady = [r for t, r in samples if t >= 3]
    print("  steady state: min %d KiB, max %d KiB, growth %+d KiB over %.0f s"
          % (min(steady), max(steady), steady[-1] - steady[0],
             samples[-1][0] - 3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--interval", default="10ms")
    ap.add_argument("--skip-sizes", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rtlat-footprint-") as d:
        if not a.skip_sizes:
            sizes(d)
    binary = os.path.join(ROOT, "build", "rtlat")
    if not os.path.exists(binary):
        sys.exit("build rtlat first (make)")
    memory_over_time(binary, a.duration, a.interval)


if __name__ == "__main__":
    main()
