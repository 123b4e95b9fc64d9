# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for rtlat command-line tests.

RTLAT points at the binary under test (make check sets it). Tests that need
root skip with a reason when not root; CI runs them as root.
"""
import json
import os
import pathlib
import shutil
import subprocess

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


def copy_rtlat(dst):
    """RTLAT copied to @dst (a file); returns @dst."""
    shutil.copy(RTLAT, dst)
    return dst


def is_root():
    return os.geteuid() == 0


@pytest.fixture(scope="module")
def tracefs_mounted():
    """For tests that read tracefs themselves (or skip without it):
    tracefs mounted on /sys/kernel/tracing for the module's tests (a fresh
    machine may have it unmounted; rtlat mounts it itself, which tests in
    mount namespaces of their own check), and unmounted again after them
    if it was not mounted. Use: pytestmark =
    pytest.mark.usefixtures("tracefs_mounted")."""
    tracefs = "/sys/kernel/tracing"
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


def run(args, timeout=120, check=None, **kw):
    """Run rtlat with args; return CompletedProcess (text)."""
    p = subprocess.run([RTLAT] + db_args(args), capture_output=True,
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
