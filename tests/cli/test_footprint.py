# SPDX-License-Identifier: GPL-2.0-or-later
"""What a measuring rtlat maps (issue 15): no host-side library.

mlockall() locks every mapped page, so a measuring process that maps
libsqlite3 or libcjson locks megabytes it never uses. Those live in
rtlat-host (report, compare, db) and libtracefs in rtlat-trace (--trace),
separate programs that rtlat runs in its own place: the same PID, the
same command line. Asserted on running processes, from /proc/PID/maps.
"""
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

from conftest import FIXTURES, RTLAT, SANITIZED, needs_root
from test_placement import status, wait_measuring
from test_trace import (TRACEFS, built_in, needs_built_in,  # noqa: F401
                        needs_trace, tracefs_mounted)

HOST_LIBS = ("libsqlite3", "libcjson", "libpq")
TRACE_LIBS = ("libtracefs", "libtraceevent")
BIN_DIR = pathlib.Path(RTLAT).resolve().parent
CYCLICTEST_JSON = FIXTURES / "cyclictest" / "json-1thread.json"


def libraries(pid):
    """Base names of the shared objects mapped by @pid."""
    with open("/proc/%d/maps" % pid) as f:
        return {os.path.basename(m.group(0))
                for m in re.finditer(r"/\S+\.so[\d.]*", f.read())}


def maps_while_running(args, threads=2):
    p = subprocess.Popen([RTLAT] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        wait_measuring(p, threads)
        libs = libraries(p.pid)
        exe = os.readlink("/proc/%d/exe" % p.pid)
    finally:
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    return libs, exe


def has(libs, names):
    return sorted(l for l in libs if l.startswith(names))


@needs_root
@pytest.mark.parametrize("args", [
    ["latency", "-c", "0", "-T", "2", "--warmup", "0.1s"],
    ["cyclic", "-m", "-p", "80", "-i", "500", "-t", "1", "-a", "0", "-q",
     "-D", "2"],
    ["switch", "-p", "1000", "-T", "2", "--warmup", "0.1s"],
    ["irq", "-T", "2", "--warmup", "0.1s"],
    ["noise", "-c", "0", "-T", "2", "--warmup", "0.1s"],
    ["latency", "-c", "0", "-T", "2", "--warmup", "0.1s",
     "--metrics-port", "0"],
], ids=["latency", "cyclic", "switch", "irq-net", "noise", "metrics"])
def test_measuring_maps_no_host_library(args):
    libs, exe = maps_while_running(args)
    assert has(libs, HOST_LIBS + TRACE_LIBS) == [], libs
    assert os.path.basename(exe) == "rtlat"


def children(pid):
    out = []
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                out += [int(c) for c in f.read().split()]
        except FileNotFoundError:
            continue
    return out


def suite_child_maps(args, timeout=60):
    """Start rtlat suite @args; when its (first) run measures, the maps
    and executables of the suite and of that run."""
    p = subprocess.Popen([RTLAT, "suite"] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert p.poll() is None, p.communicate()
            for c in children(p.pid):
                try:
                    th = len(os.listdir("/proc/%d/task" % c))
                    locked = int(status(c, "VmLck") or 0)
                    exe = os.readlink("/proc/%d/exe" % c)
                except (FileNotFoundError, ProcessLookupError):
                    continue
                if th >= 2 and (locked > 0 or SANITIZED):
                    got = (libraries(p.pid), os.readlink("/proc/%d/exe" %
                                                         p.pid),
                           libraries(c), exe)
                    break
            else:
                time.sleep(0.05)
                continue
            break
        else:
            pytest.fail("no run of the suite started measuring")
    finally:
        _, err = p.communicate(timeout=120)
    return got, p.returncode, err


SUITE = ["--tests", "latency", "--loads", "none", "-T", "2", "--warmup",
         "0.2s", "-q"]


@needs_root
def test_suite_runs_map_no_host_library(tmp_path):
    (slibs, sexe, libs, exe), rc, err = suite_child_maps(
        SUITE + ["-o", str(tmp_path / "o")])
    assert rc == 0, err
    assert has(libs, HOST_LIBS + TRACE_LIBS) == [], libs
    assert os.path.basename(exe) == "rtlat"
    assert os.path.basename(sexe) == "rtlat"
    assert has(slibs, HOST_LIBS + TRACE_LIBS) == [], slibs


@needs_root
def test_suite_db_runs_in_rtlat_host_its_runs_in_rtlat(tmp_path):
    """One command line: the suite stores its runs in the history (SQLite
    in rtlat-host) while each run it starts maps no host-side library."""
    needs_host_helper()
    db = tmp_path / "h.db"
    (slibs, sexe, libs, exe), rc, err = suite_child_maps(
        SUITE + ["-o", str(tmp_path / "o"), "--db", str(db)])
    assert rc == 0, err
    assert os.path.basename(sexe) == "rtlat-host"
    assert has(slibs, ("libsqlite3",)), slibs
    assert os.path.basename(exe) == "rtlat"
    assert os.path.realpath(exe) == os.path.realpath(RTLAT)
    assert has(libs, HOST_LIBS + TRACE_LIBS) == [], libs
    assert "1 run of the suite stored" in err
    p = subprocess.run([RTLAT, "db", "list", "--db", str(db)],
                       capture_output=True, text=True)
    assert p.returncode == 0 and "latency" in p.stdout, (p.stdout, p.stderr)


@needs_trace
@needs_built_in
def test_trace_maps_tracing_libraries_only():
    libs, exe = maps_while_running(["latency", "-c", "0", "-p", "1000",
                                    "-T", "2", "--warmup", "0.1s", "-q",
                                    "--trace"])
    assert has(libs, HOST_LIBS) == [], libs
    assert has(libs, ("libtracefs",)), libs
    # the same process: the trace's program in rtlat's place
    assert os.path.basename(exe) == "rtlat-trace"


def test_rtlat_links_no_host_library():
    """Not even unused: the dynamic section of rtlat names no host-side
    library (ldd reads it without running the program)."""
    out = subprocess.run(["ldd", RTLAT], capture_output=True,
                         text=True).stdout
    if "not a dynamic executable" in out:
        pytest.skip("a static rtlat: it maps no library at all")
    assert not re.search(r"lib(sqlite3|cjson|tracefs|traceevent)", out), out


def helper_copy(tmp_path, layout):
    """rtlat and its helpers as an installed tree (bin/, libexec/rtlat/)
    or rtlat alone; returns the copied rtlat."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shutil.copy(RTLAT, bindir / "rtlat")
    if layout == "installed":
        lib = tmp_path / "libexec" / "rtlat"
        lib.mkdir(parents=True)
        for h in ("rtlat-host", "rtlat-trace"):
            if (BIN_DIR / h).exists():
                shutil.copy(BIN_DIR / h, lib / h)
    return bindir / "rtlat"


def needs_host_helper():
    if not (BIN_DIR / "rtlat-host").exists():
        pytest.skip("built without host features (no rtlat-host)")


def test_report_runs_host_helper_of_installed_tree(tmp_path):
    needs_host_helper()
    rtlat = helper_copy(tmp_path, "installed")
    p = subprocess.run([str(rtlat), "report", str(CYCLICTEST_JSON)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "json-1thread" in p.stdout
    # "rtlat help db": the helper gets the command line as it was
    p = subprocess.run([str(rtlat), "help", "db"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and "Usage: rtlat db" in p.stdout, p.stdout


def test_report_without_host_helper_says_so(tmp_path):
    needs_host_helper()
    out = subprocess.run([RTLAT, "report", "--help"], capture_output=True,
                         text=True)
    assert out.returncode == 0
    rtlat = helper_copy(tmp_path, "alone")
    p = subprocess.run([str(rtlat), "report", str(CYCLICTEST_JSON)],
                       capture_output=True, text=True)
    if p.returncode == 0:
        pytest.skip("an rtlat-host is installed in the build prefix")
    assert p.returncode == 1
    assert "rtlat-host is not installed" in p.stderr, p.stderr
    assert "libexec/rtlat" in p.stderr
    assert p.stdout == ""


def test_suite_gate_without_host_helper_says_so_before_any_run(tmp_path):
    needs_host_helper()
    rtlat = helper_copy(tmp_path, "alone")
    out = tmp_path / "o"
    p = subprocess.run([str(rtlat), "suite", "--tests", "latency", "-T", "1",
                        "-o", str(out), "--db", str(tmp_path / "h.db")],
                       capture_output=True, text=True)
    if p.returncode == 0:
        pytest.skip("an rtlat-host is installed in the build prefix")
    assert p.returncode == 1
    assert "--db: rtlat-host is not installed" in p.stderr, p.stderr
    assert not out.exists()


# A log-linear histogram's buckets (src/core/histogram.h: HIST_LL_BUCKETS
# counters of 8 bytes), in KiB.
HIST_KIB = (2 * 128 * (36 - 7 + 1) - 1) * 8 / 1024
# The rest of a measuring rtlat's heap (the system description, rtlat
# check's findings, option state, stdio) and of each further sampler (its
# record ring, interval store): 64 and 40 KiB today, with room to grow
# that a histogram (60 KiB) or the HTTP server of --metrics-port (64 KiB)
# does not fit in.
HEAP_REST_KIB = 100
HEAP_PER_SAMPLER_KIB = 48


def heap_kib(pid):
    """Resident KiB of @pid's [heap] mapping (smaps)."""
    rss, inside = 0, False
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            if re.match(r"[0-9a-f]+-[0-9a-f]+ ", line):
                inside = line.rstrip().endswith("[heap]")
            elif inside and line.startswith("Rss:"):
                rss += int(line.split()[1])
    return rss


@needs_root
@pytest.mark.skipif(SANITIZED, reason="a sanitized build keeps its own heap")
@pytest.mark.parametrize("threads", [1, 2])
def test_locked_heap_within_its_budget(threads):
    """What mlockall() locks of the heap is what the run has (issue 15):
    per sampler two hand-over histograms and its total, one aggregate per
    series name only when several samplers have that name (with one it is
    that sampler's total), no HTTP server without --metrics-port. The
    heap is locked and populated before the first sample, so its size is
    the build's, not the machine's load."""
    if threads > (os.cpu_count() or 1):
        pytest.skip("needs %d CPUs" % threads)
    p = subprocess.Popen([RTLAT, "cyclic", "-m", "-p", "80", "-i", "500",
                          "-t", str(threads), "-a", "0,1" if threads > 1
                          else "0", "-q", "-D", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    try:
        wait_measuring(p, threads + 1)
        heap = heap_kib(p.pid)
    finally:
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    nhist = 3 * threads + (1 if threads > 1 else 0)
    budget = (nhist * HIST_KIB + HEAP_REST_KIB +
              HEAP_PER_SAMPLER_KIB * (threads - 1))
    assert heap <= budget, (heap, budget)
    # and the histograms are there: the budget is not loose by one
    assert heap >= nhist * HIST_KIB, heap


def symbols(path):
    p = subprocess.run(["nm", "--defined-only", str(path)],
                       capture_output=True, text=True)
    if p.returncode != 0 or "no symbols" in p.stderr:
        pytest.skip("%s has no symbol table (stripped)" % path)
    return {line.split()[-1] for line in p.stdout.splitlines()
            if len(line.split()) >= 3}


TRACE_ANALYSIS = ("tmatch_", "trace_gap_", "trace_irq_", "trace_start",
                  "trace_summary", "trace_json", "tsrc_open_samplers")


def test_measuring_binary_has_no_trace_analysis():
    """--trace runs rtlat-trace in rtlat's place, so rtlat needs only the
    option: the matching and analysis are not in the binary whose every
    page a measurement locks (and are in rtlat-trace)."""
    if not (BIN_DIR / "rtlat-trace").exists():
        pytest.skip("built without libtracefs (no rtlat-trace): the trace "
                    "says 'not built in' from rtlat itself")
    assert sorted(s for s in symbols(RTLAT)
                  if s.startswith(TRACE_ANALYSIS)) == []
    assert "tmatch_init" in symbols(BIN_DIR / "rtlat-trace")
