# SPDX-License-Identifier: GPL-2.0-or-later
"""What a measuring rtlat maps (issue 15): no host-side library.

mlockall() locks every mapped page, so a measuring process that maps
libsqlite3 or libcjson locks megabytes it never uses. Those live in
rtlat-host (report, compare, db) and libtracefs in rtlat-trace (--trace),
separate programs that rtlat runs in its own place: the same PID, the
same command line. Asserted on running processes, from /proc/PID/maps.
Every test, the suite, the loads, --metrics and the lab outputs are in
rtlat itself (issue 29: one measuring program; its footprint against
cyclictest is bench/cyclic-vs-cyclictest.py's VmHWM ratio).
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
from test_trace import needs_built_in, needs_trace

# the --trace test reads tracefs itself (conftest.tracefs_mounted)
pytestmark = pytest.mark.usefixtures("tracefs_mounted")

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
    # the same process: rtlat itself
    assert os.path.realpath(exe) == os.path.realpath(RTLAT), exe


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
    # the suite and its runs of latency in rtlat itself
    assert os.path.realpath(exe) == os.path.realpath(RTLAT)
    assert os.path.realpath(sexe) == os.path.realpath(RTLAT)
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


def helper_copy(tmp_path, layout, helpers=("rtlat-host", "rtlat-trace")):
    """rtlat and its @helpers as an installed tree (bin/, libexec/rtlat/)
    or rtlat alone; returns the copied rtlat."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shutil.copy(RTLAT, bindir / "rtlat")
    if layout == "installed":
        lib = tmp_path / "libexec" / "rtlat"
        lib.mkdir(parents=True)
        for h in helpers:
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
    # no rtlat-host: the suite itself is rtlat's
    rtlat = helper_copy(tmp_path, "installed", helpers=())
    out = tmp_path / "o"
    p = subprocess.run([str(rtlat), "suite", "--tests", "latency", "-T", "1",
                        "-o", str(out), "--db", str(tmp_path / "h.db")],
                       capture_output=True, text=True)
    if p.returncode == 0:
        pytest.skip("an rtlat-host is installed in the build prefix")
    assert p.returncode == 1
    assert "--db: rtlat-host is not installed" in p.stderr, p.stderr
    assert not out.exists()


# A log-linear histogram's buckets (src/engine/histogram.h: HIST_LL_BUCKETS
# counters of 8 bytes), in KiB; a sampler's two hand-over histograms have
# 4-byte counters (hist_init_loglin32()): half of it each.
HIST_KIB = (2 * 128 * (36 - 7 + 1) - 1) * 8 / 1024
# The rest of a measuring rtlat's heap (the record ring, option state,
# stdio) and of each further sampler (its record ring, interval store): 36
# and 20 KiB today, with room to grow that a histogram (60 KiB), the HTTP
# server of --metrics-port (64 KiB) or the system description and rtlat
# check's findings (34 KiB: on engine_run()'s stack, the main thread's
# mapping locked in every program) do not fit in.
HEAP_REST_KIB = 64
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
    per sampler two hand-over histograms of 32-bit counters (half a
    total's each: 64-bit ones would not fit) and its total, one aggregate per
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
    # per sampler 2 x 1/2 + 1 histograms' worth, and the aggregate
    nhist = 2 * threads + (1 if threads > 1 else 0)
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


def destdir_install(tmp_path):
    """make install into DESTDIR @tmp_path (the build's own PREFIX: nothing
    rebuilt); returns its bin/rtlat."""
    root = pathlib.Path(__file__).resolve().parents[2]
    p = subprocess.run(["make", "-s", "-C", str(root), "O=%s" % BIN_DIR,
                        "DESTDIR=%s" % tmp_path, "install"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    rtlat = list(tmp_path.glob("**/bin/rtlat"))
    assert len(rtlat) == 1, rtlat
    # one measuring program (issue 29): no rtlat-full
    assert list(tmp_path.glob("**/rtlat-full")) == []
    return rtlat[0]


@needs_root
@pytest.mark.skipif(SANITIZED, reason="installs the build's own binaries")
def test_installed_tree_runs_every_test_in_rtlat_itself(tmp_path):
    """From a DESTDIR install (moved away from its prefix): rtlat noise,
    rtlat irq and rtlat suite run in the installed rtlat itself, and so do
    the suite's runs."""
    rtlat = destdir_install(tmp_path / "root")
    for args in (["noise", "-c", "0", "-T", "2", "--warmup", "0.1s"],
                 ["irq", "-T", "2", "--warmup", "0.1s"]):
        p = subprocess.Popen([str(rtlat)] + args, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            wait_measuring(p, 2)
            exe = os.readlink("/proc/%d/exe" % p.pid)
        finally:
            out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert os.path.realpath(exe) == os.path.realpath(rtlat), exe
        # its figures: the run measured (the "==" lines of either test)
        assert re.search(r"^== (Noise|Events)", out, re.M), out
    out = tmp_path / "o"
    p = subprocess.run([str(rtlat), "suite", "--tests", "latency,noise",
                        "--loads", "none", "-T", "1", "--warmup", "0.1s",
                        "-q", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (out / "suite.json").exists(), list(out.iterdir())
    with open(out / "suite.json") as f:
        suite = f.read()
    assert "noise" in suite and "latency" in suite
    p = subprocess.run([str(rtlat), "help", "irq"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and "Usage: rtlat irq" in p.stdout, p.stdout


def test_rtlat_copied_as_rtlat_host_is_refused(tmp_path):
    """A file installed as rtlat-host that is not rtlat's rtlat-host (rtlat
    copied under that name) asks for rtlat-host again: it is refused at
    once, exit 1, and does not exec itself for ever."""
    needs_host_helper()
    rtlat = helper_copy(tmp_path, "alone")
    shutil.copy(rtlat, rtlat.parent / "rtlat-host")
    p = subprocess.run([str(rtlat), "report", str(CYCLICTEST_JSON)],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1, p.stderr
    assert "rtlat-host was run, and asks for rtlat-host again: the file " \
        "installed as rtlat-host is not rtlat's rtlat-host" in p.stderr, \
        p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("kind,says", [
    ("mode 0644", "Permission denied (not executable: make install "
     "installs it so)"),
    ("dangling link", "No such file or directory (a dangling symbolic "
     "link?)"),
    ("script, no interpreter", "No such file or directory (a script whose "
     "interpreter is missing?)"),
    ("empty, 0755", "Exec format error (not a program for this machine: "
     "another build's?)"),
])
def test_helper_that_cannot_run_is_named(tmp_path, kind, says):
    """rtlat-host beside rtlat but not runnable: the error names that file,
    the cause and what to look at, not "not installed"."""
    needs_host_helper()
    rtlat = helper_copy(tmp_path, "alone")
    host = rtlat.parent / "rtlat-host"
    if kind == "mode 0644":
        shutil.copy(BIN_DIR / "rtlat-host", host)
        host.chmod(0o644)
    elif kind == "dangling link":
        host.symlink_to(tmp_path / "nonexistent")
    else:
        host.write_text("#!/nonexistent/sh\n" if kind.startswith("script")
                        else "")
        host.chmod(0o755)
    p = subprocess.run([str(rtlat), "report", str(CYCLICTEST_JSON)],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1, p.stderr
    assert "rtlat-host cannot be run: %s: %s" % (host, says) in p.stderr, \
        p.stderr
    assert "not installed" not in p.stderr
    assert p.stdout == ""


def test_rtlat_alone_runs_every_test(tmp_path):
    """rtlat alone (no helper beside it or in its libexec): the tests, a
    test's loads and the suite's commands need none."""
    rtlat = helper_copy(tmp_path, "alone")
    for args in (["noise", "-T", "1", "--warmup", "0.1s", "-q"],
                 ["latency", "-T", "1", "--warmup", "0.1s", "-q", "--load",
                  "cpu"]):
        p = subprocess.run([str(rtlat)] + args, capture_output=True,
                           text=True, timeout=60)
        assert "is not installed" not in p.stderr, p.stderr
    p = subprocess.run([str(rtlat), "--help"], capture_output=True, text=True)
    assert p.returncode == 0
    for name in ("switch", "handshake", "cruncher", "noise", "irq", "suite",
                 "load", "sysinfo", "check", "selftest"):
        assert re.search(r"^  %s " % name, p.stdout, re.M), name
