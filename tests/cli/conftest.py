# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for rtlat command-line tests.

RTLAT points at the binary under test (make check sets it). Tests that need
root skip with a reason when not root; CI runs them as root.
"""
import atexit
import contextlib
import fcntl
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RTLAT = os.environ.get("RTLAT", str(ROOT / "build" / "rtlat"))
# Real output files of other tools (a copy of ../shared/fixtures, so that a
# clone anywhere is self-contained).
FIXTURES = pathlib.Path(os.environ.get("RTLAT_FIXTURES",
                                       ROOT / "tests" / "fixtures" / "shared"))


# The binary under test was built with sanitizers (make check-sanitize):
# their run-times turn mlock/mlockall into no-ops.
SANITIZED = bool(os.environ.get("RTLAT_SANITIZED"))


HELPERS = ("rtlat-host", "rtlat-trace")


def copy_rtlat(dst):
    """RTLAT copied to @dst (a file), with the helpers beside it that it
    runs in its place (rtlat-host for report, compare, db; rtlat-trace for
    --trace) when the build has them; returns @dst."""
    shutil.copy(RTLAT, dst)
    here = pathlib.Path(RTLAT).resolve().parent
    for h in HELPERS:
        if (here / h).exists():
            shutil.copy(here / h, pathlib.Path(dst).parent / h)
    return dst


_UNPRIVILEGED = []


def unprivileged_rtlat():
    """The path of a copy of RTLAT (and its helpers) in a directory of its
    own, mode 0755, that every user may enter: a test that runs rtlat as
    another user (nobody) must not depend on where the clone lives (a root
    user's clone under /root, mode 0700, is out of nobody's reach). Made
    once per test process, removed when it exits."""
    if not _UNPRIVILEGED:
        d = tempfile.mkdtemp(prefix="rtlat-unprivileged-")
        os.chmod(d, 0o755)
        atexit.register(shutil.rmtree, d, True)
        _UNPRIVILEGED.append(copy_rtlat(os.path.join(d, "rtlat")))
    return _UNPRIVILEGED[0]


def nobody_cmd(*pre):
    """The argv prefix that runs the unprivileged copy of rtlat as nobody
    (uid and gid 65534, no supplementary groups, no inheritable
    capabilities); @pre: setpriv options to add (e.g. a bounding set)."""
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            "--inh-caps=-all"] + list(pre) + [unprivileged_rtlat()]


def drop_to_nobody():
    """preexec_fn for subprocess: the child becomes nobody (65534). The
    child must exec unprivileged_rtlat(), not RTLAT."""
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def is_root():
    return os.geteuid() == 0


@pytest.fixture
def tracefs_mounted():
    """For tests that read tracefs themselves (or skip without it):
    tracefs mounted on /sys/kernel/tracing for the test (a fresh
    machine may have it unmounted; rtlat mounts it itself, which tests in
    mount namespaces of their own check), and unmounted again after them
    if it was not mounted; the "tracefs" lock held meanwhile (see below).
    Use: pytestmark = pytest.mark.usefixtures("tracefs_mounted")."""
    tracefs = "/sys/kernel/tracing"
    with _flock("tracefs", fcntl.LOCK_EX):	# no other test's meanwhile
        mounted = False
        if is_root() and os.path.isdir(tracefs) and \
                not os.path.isdir(tracefs + "/instances"):
            mounted = subprocess.run(["mount", "-t", "tracefs", "nodev",
                                      tracefs]).returncode == 0
        yield
        if mounted:
            subprocess.run(["umount", "-l", tracefs])


needs_root = pytest.mark.skipif(not is_root(),
                                reason="needs root (SCHED_FIFO, mlockall)")


# The store of the history tests: RTLAT_TEST_DB=pg runs them against a
# real PostgreSQL server (make check-pg): every --db FILE a test gives
# becomes a database of its own on a server the tests start and stop
# (pgserver.py); tests about SQLite files as such are sqlite_only.
TEST_DB = os.environ.get("RTLAT_TEST_DB", "sqlite")
sqlite_only = pytest.mark.skipif(
    TEST_DB == "pg", reason="about the SQLite file itself (RTLAT_TEST_DB=pg)")
_pg = {"server": None, "map": {}}


def db_target(path):
    """The --db value for the history @path of a test: @path, or with
    RTLAT_TEST_DB=pg the URL of a database made for it."""
    if TEST_DB != "pg" or str(path).startswith("postgres"):
        return str(path)
    if _pg["server"] is None:
        import atexit
        import pgserver
        why = pgserver.why_not()
        if why:
            pytest.skip(why)
        _pg["server"] = pgserver.Server()
        atexit.register(_pg["server"].close)
    key = os.path.abspath(str(path))
    if key not in _pg["map"]:
        _pg["map"][key] = _pg["server"].new_db()
    return _pg["map"][key]


def pg_server():
    """The tests' PostgreSQL server (started on first use), or None when
    the history tests run on SQLite."""
    if TEST_DB != "pg":
        return None
    db_target("/")
    return _pg["server"]


def db_query(path, sql):
    """The rows of @sql (plain SQL both stores run) on the history of
    @path (db_target()), values as ints where they are numbers."""
    if TEST_DB != "pg":
        import sqlite3
        con = sqlite3.connect(str(path))
        try:
            return [tuple(r) for r in con.execute(sql).fetchall()]
        finally:
            con.close()
    url = db_target(path)
    out = _pg["server"].psql(sql, db=url.rsplit("/", 1)[1])

    def val(v):
        return int(v) if v.lstrip("-").isdigit() else v
    return [tuple(val(v) for v in line.split("|"))
            for line in out.splitlines() if line]


def db_args(args):
    """@args with each --db FILE (or --db=FILE) as db_target() says."""
    out, i = [], 0
    args = [str(a) for a in args]
    while i < len(args):
        a = args[i]
        if a == "--db" and i + 1 < len(args):
            out += [a, db_target(args[i + 1])]
            i += 2
            continue
        if a.startswith("--db="):
            a = "--db=" + db_target(a[5:])
        out.append(a)
        i += 1
    return out


def run(args, timeout=120, check=None, binary=None, **kw):
    """Run rtlat (or @binary) with args; return CompletedProcess (text)."""
    p = subprocess.run([binary or RTLAT] + db_args(args), capture_output=True,
                       text=True, timeout=timeout, **kw)
    if check is not None:
        assert p.returncode == check, (p.returncode, p.stdout, p.stderr)
    return p


def fake_lava_test_case(tmp_path, exit_status=0, sleep=0):
    """A lava-test-case of LAVA's test shell on PATH that logs each call's
    arguments, one line each, sleeps @sleep s (a helper waiting for a
    dispatcher that does not answer) and exits with @exit_status: (env,
    log)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls"
    helper = bindir / "lava-test-case"
    helper.write_text("#!/bin/sh\necho \"$*\" >> %s\n%sexit %d\n" %
                      (log, "sleep %d\n" % sleep if sleep else "",
                       exit_status))
    helper.chmod(0o755)
    return dict(os.environ, PATH="%s:/usr/bin:/bin" % bindir), log


def result_copies(d, n, tag, first=0, nint=4):
    """@n distinct result files in directory @d (made if missing), copies
    of one suite result with start times a minute apart from minute @first
    on (the label is no part of a run's identity), labels TAG-i, each with
    @nint intervals. Returns their paths."""
    src = json.loads((ROOT / "tests" / "fixtures" / "report" /
                      "suite-vm-01-latency-none.json").read_text())
    d = pathlib.Path(d)
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        x = json.loads(json.dumps(src))
        m = first + i
        x["start_time"] = "2026-10-%02dT%02d:%02d:00.000Z" % (
            1 + m // 1440 % 28, m // 60 % 24, m % 60)
        x["label"] = "%s-%d" % (tag, i)
        x["summary"]["latency"]["intervals"]["data"] = [
            [k, 4992, 18824, 27813, 300000 + k, 8] for k in range(nint)]
        f = d / ("%s-%03d.json" % (tag, i))
        f.write_text(json.dumps(x))
        out.append(f)
    return out


def load_json_strict(path):
    """Parse JSON rejecting NaN/Infinity and duplicate keys."""
    def no_const(name):
        raise ValueError("non-standard JSON constant %s" % name)

    def no_dups(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate keys %r" % keys)
        return dict(pairs)

    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict UTF-8
    return json.loads(text, parse_constant=no_const,
                      object_pairs_hook=no_dups)


def measured_periods(d):
    """The periods of a complete run's measured time (rtlat's result @d):
    the deadlines it accounts, each a sample or a miss of its series,
    however many a loaded machine let its samplers see."""
    assert d["status"] == "complete"
    t, p = d["duration_actual_ns"], d["config"]["period_ns"]
    assert t == d["duration_requested_ns"] and t % p == 0
    return t // p


def hist_total(h):
    return sum(b[2] for b in h["buckets"]) + h["underflow"] + h["overflow"]


def _pipes(line):
    return [i for i, c in enumerate(line) if c == "|"]


def _under(head, line):
    """@line lines up with @head: its '|' are the header's, and its last
    column ends where the header does (a " label" may follow)."""
    why = "not under its header:\n%s\n%s" % (head, line)
    assert _pipes(line) == _pipes(head), why
    n = len(head)
    assert len(line) >= n and line[n - 1] != " ", why
    assert len(line) == n or line[n] == " ", why


def check_layout(out):
    """Every line of rtlat's Xenomai-style output @out lines up with its
    header: RTD lines with RTH, RTS lines with the "---|" line above them,
    HSD and HSS lines with HSH, RTP values with RTP names. A "---|" line of
    dashes (Xenomai's: the RTS columns are RTH's first ones) is as wide as
    the RTH line and has its '|' where the RTH line has. Returns the number
    of data lines checked."""
    head = {}
    n = 0
    for line in out.splitlines():
        tag = line[:4]
        if tag == "RTH|":
            head["RTD|"] = line
        elif tag == "---|":
            head["RTS|"] = line
            if set(line.split("|")[1]) == {"-"} and "RTD|" in head:
                rth = head["RTD|"]
                assert len(line) == len(rth) and \
                    set(_pipes(line)) <= set(_pipes(rth)), \
                    "separator not under RTH:\n%s\n%s" % (rth, line)
        elif tag == "HSH|":
            head["HSD|"] = head["HSS|"] = line
        elif tag == "RTP|" and line.split("|")[1].strip().startswith("p"):
            head["RTP|"] = line
        elif tag in ("RTD|", "RTS|", "HSD|", "HSS|", "RTP|"):
            assert tag in head, "%s before its header" % line
            _under(head[tag], line)
            n += 1
    return n


def mount_tmpfs(path, opts):
    """Mount a tmpfs with @opts ("size=1m") on @path (root)."""
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)],
                   check=True)


def umount(path):
    subprocess.run(["umount", "-l", str(path)], check=False)


def fill_fs(path):
    """Write @path until its file system is full (ENOSPC)."""
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass


# --- running beside each other (pytest-xdist) ---------------------------
#
# make check runs the tests in TEST_JOBS processes (pytest -n) when
# pytest-xdist is installed. What a test may run beside is its mark:
#   host      measures nothing (reads files, parses, renders, stores): runs
#             beside anything;
#   measures  runs rtlat's samplers but neither spins nor hogs a CPU at a
#             real-time priority, nor asserts on a gap: runs beside host
#             tests and other "measures" tests;
#   (none)    a test that measures, spins, loads the CPUs or counts what
#             another test's load would change: runs beside host tests
#             only, never beside another measuring test (the default: a
#             test is trusted to share the CPUs only when marked so);
#   holds(NAME, ...)  also holds these machine-wide resources alone
#             (tracefs: mounts it and turns trace events on and off; irq:
#             moves interrupts), whatever its other mark.
# The locks are flock(2) files in RTLAT_TEST_LOCKS (default
# /run/lock/rtlat-tests), so that they also hold between two test runs on
# the same machine (CI's fresh root binds the same directory in). A test
# that takes the CPUs alone passes a turnstile first, so that a stream of
# "measures" tests cannot keep it waiting forever.


LOCK_DIR = os.environ.get("RTLAT_TEST_LOCKS", "/run/lock/rtlat-tests")


def pytest_configure(config):
    config.addinivalue_line("markers", "host: measures nothing; runs "
                            "beside anything")
    config.addinivalue_line("markers", "measures: measures without hogging "
                            "a CPU; runs beside other such tests")
    config.addinivalue_line("markers", "alone: measures beside no other "
                            "measuring test")
    config.addinivalue_line("markers", "holds(*names): machine-wide "
                            "resources the test holds alone (tracefs, irq)")
    config.addinivalue_line("markers", "slow: takes 2 s or more (left out "
                            "of the sanitizer run, which runs the C paths)")


@contextlib.contextmanager
def _flock(name, how):
    os.makedirs(LOCK_DIR, mode=0o1777, exist_ok=True)
    fd = os.open(os.path.join(LOCK_DIR, name), os.O_RDWR | os.O_CREAT,
                 0o666)
    try:
        fcntl.flock(fd, how)
        yield
    finally:
        os.close(fd)	# releases the lock


@contextlib.contextmanager
def _cpus(exclusive):
    with contextlib.ExitStack() as st:
        with _flock("turnstile", fcntl.LOCK_EX):
            if exclusive:
                st.enter_context(_flock("cpus", fcntl.LOCK_EX))
        if not exclusive:
            st.enter_context(_flock("cpus", fcntl.LOCK_SH))
        yield


# A test without a mark is classed by its source (its body, its parameters
# and the module's functions it calls): it runs alone when anything there
# names a test that spins or computes at a real-time priority (noise,
# cruncher, the busy-poll wait, a suite of every test), an injected stall
# (a SCHED_FIFO hog), interrupts, tracing or a global real-time setting;
# it "measures" when it runs another measuring test, with or without a
# load (the loads run at SCHED_OTHER: a sampler preempts them); else it
# is a host test. A mark overrides the class.
_ALONE = re.compile(
    r'["\'](noise|cruncher|irq|busy|spin|hwlat)["\']'  # tests, waits
    r'|\bstall(_after_warmup)?\(|stall\.py|\bhog'    # an injected stall
    r'|--trace|rt_runtime|/irq/|smp_affinity'          # global settings
    r'|\blava_?test|run_lava|lava-test')               # the suite, by LAVA
# a suite without --tests runs noise and cruncher
_SUITE = re.compile(r'["\']suite["\']')
_SUITE_TESTS = re.compile(r'["\']--tests["\']')
_MEASURES = re.compile(r'"(latency|cyclic|switch|handshake|selftest|'
                       r'run_ipc)"|start_warmed_up|run_ipc|"-T"')


def _source_of(item):
    """The test's source and that of the module's functions it calls."""
    import inspect
    fn = getattr(item, "function", None)
    if fn is None:
        return ""
    try:
        src = inspect.getsource(fn)
    except (OSError, TypeError):
        return ""
    cs = getattr(item, "callspec", None)	# the parameters' values too
    if cs is not None:
        src += "\n" + repr(sorted(cs.params.items(), key=str))
    mod = inspect.getmodule(fn)
    seen = {fn.__name__}
    todo = re.findall(r"\b([A-Za-z_]\w*)\(", src)
    while todo:
        name = todo.pop()
        f = getattr(mod, name, None)
        if name in seen or not inspect.isfunction(f) or \
                getattr(f, "__module__", None) != mod.__name__:
            continue
        seen.add(name)
        try:
            more = inspect.getsource(f)
        except (OSError, TypeError):
            continue
        src += more
        todo += re.findall(r"\b([A-Za-z_]\w*)\(", more)
    return src


def share_kind(item):
    """'host', 'measures' or 'alone' (see above) for a collected test."""
    if item.get_closest_marker("host"):
        return "host"
    if item.get_closest_marker("measures"):
        return "measures"
    if item.get_closest_marker("alone"):
        return "alone"
    src = _source_of(item)
    if _ALONE.search(src) or \
            (_SUITE.search(src) and not _SUITE_TESTS.search(src)):
        return "alone"
    if _MEASURES.search(src):
        return "measures"
    return "host"


@pytest.fixture(autouse=True)
def _share_the_machine(request):
    """Takes the locks the test's marks name, in one order (the CPUs,
    then the named resources sorted), for the test's whole run."""
    names = sorted({n for m in request.node.iter_markers("holds")
                    for n in m.args})
    kind = share_kind(request.node)
    with contextlib.ExitStack() as st:
        if kind != "host":
            st.enter_context(_cpus(kind == "alone"))
        for n in names:
            st.enter_context(_flock(n, fcntl.LOCK_EX))
        yield


# The tests of 2 s or more (tests/cli/slow.txt: "FILE::NAME" lines, from
# a serial run's durations, e.g. pytest --junitxml) are marked slow: the
# sanitizer run leaves them out (make check-sanitize: -m "not slow").
_SLOW = pathlib.Path(__file__).with_name("slow.txt")


def pytest_collection_modifyitems(config, items):
    slow = set()
    if _SLOW.exists():
        slow = {ln.strip() for ln in _SLOW.read_text().splitlines()
                if ln.strip() and not ln.startswith("#")}
    for it in items:
        path, _, rest = it.nodeid.partition("::")
        name = os.path.basename(path) + "::" + rest
        if name in slow or name.split("[")[0] in slow:
            it.add_marker(pytest.mark.slow)
