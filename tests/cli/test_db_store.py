# SPDX-License-Identifier: GPL-2.0-or-later
"""The history's stores under trouble, on SQLite and (make check-pg) on
PostgreSQL alike: a writer stalled while holding the history makes the
others wait a bounded time, saying who they wait for, then give up with
nothing written; a broken result file in a directory is an error, not a
file skipped; the suite's "store later" hint runs as printed and shows no
password; selectors with bytes that are not UTF-8 match the same runs on
both stores; runs cut short by a signal are kept marked and left out of
the release gate unless asked."""
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import time

import pytest

from conftest import (ROOT, RTLAT, TEST_DB, db_target, needs_root, pg_server,
                      run)

RUN = ROOT / "tests" / "fixtures" / "report" / "suite-vm-01-latency-none.json"
HELL = ROOT / "tests" / "fixtures" / "report" / "suite-vm-02-latency-hell.json"
# db_pg.c: the advisory lock every add takes (docs/db-schema.md)
PG_ADD_LOCK = 0x72746c6174 + 1


class Holder:
    """Another writer that took the history's write lock and stalls: a
    transaction of Python's sqlite3 (BEGIN IMMEDIATE), or a psql session
    holding PostgreSQL's add lock. @who: how rtlat names it."""

    def __init__(self, db):
        self.db = db
        if TEST_DB != "pg":
            self.con = sqlite3.connect(str(db), isolation_level=None)
            self.con.execute("BEGIN IMMEDIATE")
            self.who = "PID %d" % os.getpid()
            return
        s = pg_server()
        self.name = db_target(db).rsplit("/", 1)[1]
        self.psql = subprocess.Popen(
            ["runuser", "-u", "postgres", "--", os.path.join(s.bin, "psql"),
             "-X", "-q", "-h", "127.0.0.1", "-p", str(s.port), "-d",
             self.name], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, text=True)
        self.psql.stdin.write("BEGIN;\nSELECT pg_advisory_xact_lock(%d);\n"
                              % PG_ADD_LOCK)
        self.psql.stdin.flush()
        held = ("SELECT count(*) FROM pg_locks l JOIN pg_database d ON"
                " d.oid = l.database WHERE l.locktype = 'advisory' AND"
                " l.granted AND d.datname = '%s'" % self.name)
        for _ in range(200):
            if int(s.psql(held)) > 0:
                break
            time.sleep(0.05)
        else:
            pytest.fail("psql did not take the add lock")
        self.who = "psql, server process "

    def release(self):
        if TEST_DB != "pg":
            self.con.execute("ROLLBACK")
            self.con.close()
            return
        self.psql.stdin.write("ROLLBACK;\n")
        self.psql.stdin.close()
        self.psql.wait(timeout=30)


def runs_stored(db):
    p = run(["db", "info", "--db", db], check=0)
    return int(re.search(r"^runs: (\d+)", p.stdout, re.M).group(1))


def test_stalled_writer_is_waited_for_boundedly(tmp_path):
    """A writer that holds the history and stalls (SQLite's write lock,
    PostgreSQL's add lock) used to hold the others with no word: for ever
    on PostgreSQL, 5 s and "database is locked" on SQLite. Now they say
    after 1 s whom they wait for and give up after the timeout (option,
    else RTLAT_DB_LOCK_TIMEOUT), exit 1, nothing written; a writer that
    lets go in time is waited for."""
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, RUN], check=0)
    h = Holder(db)
    try:
        p = run(["db", "add", "--lock-timeout", "2", "--db", db, HELL], check=1)
        assert p.stdout == ""
        assert "waiting for another writer (%s" % h.who in p.stderr, p.stderr
        assert ("gave up after 2 s waiting for another writer (%s" % h.who
                in p.stderr), p.stderr
        assert "nothing written" in p.stderr and "nothing added" in p.stderr
        assert "database is locked" not in p.stderr
        # the variable, when no option says
        env = dict(os.environ, RTLAT_DB_LOCK_TIMEOUT="1500ms")
        p = run(["db", "add", "--db", db, HELL], check=1, env=env)
        assert "gave up after 1500 ms waiting" in p.stderr, p.stderr
        # 0: not at all (no note of waiting)
        p = run(["db", "add", "--lock-timeout", "0", "--db", db, HELL], check=1)
        assert "--lock-timeout 0 says not to wait: nothing written" in \
            p.stderr and "waiting for" not in p.stderr, p.stderr
        # a writer that lets go within the wait: the add goes through
        proc = subprocess.Popen([RTLAT, "db", "add", "--db", db_target(db),
                                 str(HELL)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        line = proc.stderr.readline()
        assert "waiting for another writer" in line, line
    finally:
        h.release()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "1 run added" in err and out.count("\n") == 1
    assert runs_stored(db) == 2


@pytest.mark.parametrize("value", ["x", "-1", "5 parsecs"])
def test_lock_timeout_values_refused(tmp_path, value):
    p = run(["db", "add", "--lock-timeout", value, "--db", tmp_path / "h.db",
             RUN], check=1)
    assert "--lock-timeout" in p.stderr and "seconds" in p.stderr
    env = dict(os.environ, RTLAT_DB_LOCK_TIMEOUT=value)
    p = run(["db", "add", "--db", tmp_path / "h.db", RUN], check=1, env=env)
    assert "RTLAT_DB_LOCK_TIMEOUT=%s:" % value in p.stderr, p.stderr
    assert not (tmp_path / "h.db").exists()


def test_broken_file_in_a_directory_adds_nothing(tmp_path):
    """A result cut short (or empty) in a directory given to db add was
    skipped as "not a format rtlat reads", exit 0: a run lost without an
    error. It is an error naming the file and why, and nothing of the add
    is stored (all or none); other files no importer reads are still
    skipped."""
    d = tmp_path / "results"
    d.mkdir()
    (d / "a.json").write_text(RUN.read_text())
    (d / "notes.txt").write_text("rack 3, board 7\n")
    text = HELL.read_text()
    (d / "b.json").write_text(text[:len(text) // 2])
    db = tmp_path / "h.db"
    p = run(["db", "add", "--db", db, d], check=1)
    assert p.stdout == ""
    assert re.search(r"results/b\.json:\d+: invalid JSON", p.stderr), p.stderr
    assert "nothing added (of 1 run read)" in p.stderr
    assert "notes.txt: skipped" in p.stderr
    # a JSON object broken in the middle, under any name; an empty .json
    (d / "b.json").unlink()
    (d / "c.txt").write_text(text.replace('"summary"', '"summary" 7', 1))
    p = run(["db", "add", "--db", db, d], check=1)
    assert "results/c.txt" in p.stderr and "invalid JSON" in p.stderr, p.stderr
    (d / "c.txt").unlink()
    (d / "empty.json").write_text("")
    p = run(["db", "add", "--db", db, d], check=1)
    assert "results/empty.json: empty file" in p.stderr, p.stderr
    (d / "empty.json").unlink()
    # nothing was stored before: now all of it
    p = run(["db", "add", "--db", db, d], check=0)
    assert "1 run added, 0 already there" in p.stderr, p.stderr


def test_store_later_hint_runs_as_printed(tmp_path):
    """The suite's runs that could not be stored (another writer held the
    history past the timeout): the hint is a command that runs as printed,
    names quoted, the URL's password never shown (it comes from
    PGPASSWORD or ~/.pgpass then: the test server trusts anyone)."""
    db = tmp_path / "my history.db"
    run(["db", "add", "-q", "--db", db, RUN], check=0)
    given = db_target(db)
    if TEST_DB == "pg":
        given = given.replace("postgres@", "postgres:s3cret@", 1) + \
            "?connect_timeout=5&password=s3cret"
    out = tmp_path / "suite out"
    env = dict(os.environ, RTLAT_DB_LOCK_TIMEOUT="1")
    proc = subprocess.Popen([RTLAT, "suite", "-T", "3s", "--tests", "latency",
                             "--loads", "none", "-q", "-o", str(out), "--db",
                             given], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    # the history is checked before the output directory is made: stall
    # it while the suite runs
    for _ in range(400):
        if out.exists() or proc.poll() is not None:
            break
        time.sleep(0.025)
    h = Holder(db)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        h.release()
    assert proc.returncode == 1, err
    assert "s3cret" not in err
    m = re.search(r"store them later with: (.*)$", err, re.M)
    assert m, err
    hint = m.group(1)
    cmd = shlex.split(hint.split(" (the password")[0])
    assert cmd[:4] == ["rtlat", "db", "add", "--db"] and cmd[5] == str(out), hint
    if TEST_DB == "pg":
        assert "PGPASSWORD or ~/.pgpass" in hint
        assert cmd[4] == given.replace(":s3cret", "").replace("&password=s3cret", "")
    else:
        assert cmd[4] == str(db) and "password" not in hint
    p = subprocess.run([RTLAT] + cmd[1:], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "1 run added" in p.stderr
    assert runs_stored(db) == 2


def test_selectors_not_utf8_match_alike(tmp_path):
    """A label with bytes that are not UTF-8 is stored as such by SQLite
    and with U+FFFD for each by PostgreSQL: selectors are matched as
    PostgreSQL stores texts, so both pick the same runs (the raw bytes
    matched on SQLite only, U+FFFD on PostgreSQL only)."""
    db = tmp_path / "h.db"
    p = subprocess.run([RTLAT, "db", "add", "-q", "--db", db_target(db),
                        "--set-label", b"lab\xff\xfeend", str(RUN)],
                       capture_output=True)
    assert p.returncode == 0, p.stderr
    run(["db", "add", "-q", "--db", db, HELL], check=0)
    for pat in (b"lab\xff*", b"lab\xff\xfeend", "lab\ufffd\ufffdend".encode(),
                b"lab*end"):
        for cmd in (["report", "--csv"], ["db", "list", "--csv"]):
            p = subprocess.run([RTLAT] + cmd + ["--db", db_target(db),
                                                "--label", pat],
                               capture_output=True)
            assert p.returncode == 0, (pat, p.stderr)
            rows = p.stdout.splitlines()[1:]
            assert len(rows) == 1 and b"latency" in rows[0], (pat, cmd, p.stdout)
    # a baseline selector the same
    p = subprocess.run([RTLAT, "db", "baseline", "set", "--db", db_target(db),
                        b"label=lab\xff*"], capture_output=True)
    assert p.returncode == 0 and b"1 run marked" in p.stderr, p.stderr


def _interrupted_copies(tmp_path):
    """Baseline: two complete runs and one cut short (a third of the
    samples, a much lower max); new: one complete run."""
    src = json.loads(RUN.read_text())
    files = []
    for i, status in enumerate(["complete", "complete", "interrupted"]):
        d = json.loads(json.dumps(src))
        d["start_time"] = "2026-11-01T10:%02d:00.000Z" % i
        d["label"] = "base-%d" % i
        d["status"] = status
        if status == "interrupted":
            d["summary"]["latency"]["max_ns"] = 100000
        f = tmp_path / ("b%d.json" % i)
        f.write_text(json.dumps(d))
        files.append(f)
    return files


def test_interrupted_runs_kept_marked_and_out_of_the_gate(tmp_path):
    """A run cut short by a signal is stored (marked interrupted: db list's
    note, db info's count) but the release gate leaves it out of the
    baseline (its value and noise) unless --with-interrupted, and says so;
    a table whose baseline is only interrupted runs is refused."""
    db = tmp_path / "h.db"
    files = _interrupted_copies(tmp_path)
    run(["db", "add", "-q", "--db", db] + files, check=0)
    info = run(["db", "info", "--db", db], check=0).stdout
    assert "runs: 3 (1 interrupted: cut short by a signal, left out of the" \
        " release gate unless compare --with-interrupted)" in info, info
    lst = run(["db", "list", "--db", db], check=0).stdout.splitlines()
    notes = [l.split("|")[10].strip() for l in lst[1:]]
    assert notes == ["", "", "interrupted"], lst
    p = run(["db", "baseline", "set", "--db", db, "board=vm"], check=0)
    assert "run 3 (base-2, latency) was interrupted: marked, but the release" \
        " gate leaves it out" in p.stderr, p.stderr
    gate = ["compare", "--gate", "--db", db, "baseline=yes", RUN]
    p = run(gate, check=0)
    assert "A = base-0 and 1 more run," in p.stdout, p.stdout
    assert "1 interrupted run of the baseline, 0 of the new runs" in p.stdout
    assert "the spread of 2 baseline runs" in p.stdout
    p = run(gate + ["--with-interrupted"], check=0)
    assert "A = base-0 and 2 more runs," in p.stdout, p.stdout
    assert "interrupted run" not in p.stdout
    assert "the spread of 3 baseline runs" in p.stdout
    p = run(gate + ["--json"], check=0)
    assert "1 interrupted run of the baseline" in json.dumps(json.loads(p.stdout))
    # only interrupted runs in the baseline: refused, not gated
    run(["db", "baseline", "clear", "--db", db, "label=base-[01]"], check=0)
    p = run(gate, check=1)
    assert "has only interrupted runs in its baseline" in p.stderr, p.stderr
    p = run(["compare", "--with-interrupted", RUN, HELL], check=1)
    assert "--with-interrupted goes with --gate" in p.stderr


@needs_root
def test_run_cut_short_is_stored_marked(tmp_path):
    """A real run stopped by SIGINT: its result says interrupted, and the
    history keeps it so."""
    js = tmp_path / "r.json"
    proc = subprocess.Popen([RTLAT, "latency", "-T", "60", "--json", str(js)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                             signal.SIG_DFL))
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert json.loads(js.read_text())["status"] == "interrupted"
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, js], check=0)
    assert "(1 interrupted:" in run(["db", "info", "--db", db], check=0).stdout
    row = run(["db", "list", "--db", db], check=0).stdout.splitlines()[1]
    assert row.split("|")[10].strip() == "interrupted"
