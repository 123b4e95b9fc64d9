# SPDX-License-Identifier: GPL-2.0-or-later
"""The history's stores under trouble, on SQLite and (make check-pg) on
PostgreSQL alike: a writer stalled while holding the history makes the
others wait a bounded time, saying who they wait for, then give up with
nothing written; a broken result file in a directory is an error, not a
file skipped; the suite's "store later" hint runs as printed and shows no
password; selectors with bytes that are not UTF-8 match the same runs on
both stores; runs cut short by a signal are kept marked and left out of
the release gate unless asked. Also: racing first adds on a new
history migrate nothing and say nothing of it; db add killed in the
middle leaves no partial run; a full disk and a read-only file are clear
errors that keep the old runs."""
import json
import os
import re
import shlex
import signal
import socket
import sqlite3
import subprocess
import threading
import time

import pytest

from conftest import (ROOT, RTLAT, TEST_DB, db_query, db_target, needs_root,
                      pg_server, result_copies, run, sqlite_only)

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


@sqlite_only
def test_baseline_set_beside_a_remove_picks_again(tmp_path):
    """db baseline set picks its runs, then waits for the writer's lock; a
    db remove that held it took one of them: the set failed with SQLite's
    raw "FOREIGN KEY constraint failed" (PostgreSQL: "violates foreign key
    constraint"). It says what happened, picks the runs again and marks
    those still there."""
    db = tmp_path / "h.db"
    files = result_copies(tmp_path / "r", 3, "u")
    run(["db", "add", "-q", "--db", db] + files, check=0)
    ids = [r[0] for r in db_query(db, "SELECT id FROM runs ORDER BY id")]
    con = sqlite3.connect(str(db), isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("BEGIN IMMEDIATE")          # the remove's transaction
    proc = subprocess.Popen([RTLAT, "db", "baseline", "set", "--db", str(db),
                             "label=u-[01]"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "waiting for another writer" in line, line
        con.execute("DELETE FROM runs WHERE id = ?", (ids[0],))
        con.execute("COMMIT")
    finally:
        con.close()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "FOREIGN KEY" not in err and "foreign key" not in err
    assert ("run %d was removed from the history by another writer after "
            "it was picked: picking the runs again" % ids[0]) in err, err
    assert "1 run marked as the baseline of its board" in err, err
    assert [r[0] for r in db_query(db, "SELECT run_id FROM baselines")] == \
        [ids[1]]
    assert out.split("\t")[0] == str(ids[1])


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
        assert runs_stored(db) == 1
        # the variable, when no option says; -q silences notes, but not
        # the one that says why the command stalls for seconds
        env = dict(os.environ, RTLAT_DB_LOCK_TIMEOUT="1500ms")
        p = run(["db", "add", "-q", "--db", db, HELL], check=1, env=env)
        assert "gave up after 1500 ms waiting" in p.stderr, p.stderr
        assert "waiting for another writer (%s" % h.who in p.stderr, p.stderr
        assert "nothing added" not in p.stderr     # a note: -q silences it
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


def test_exclusive_holder_is_waited_for_once(tmp_path):
    """An exclusive lock (BEGIN EXCLUSIVE: readers wait too) made the add
    wait twice, once to read and once to write, and say so twice: one
    wait, one note, one give-up (SQLite only: PostgreSQL's add lock is the
    Holder's)."""
    if TEST_DB == "pg":
        pytest.skip("an SQLite lock")
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, RUN], check=0)
    con = sqlite3.connect(str(db), isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.monotonic()
        p = run(["db", "add", "-q", "--db", db, "--lock-timeout", "2", HELL],
                check=1)
        waited = time.monotonic() - t0
    finally:
        con.execute("ROLLBACK")
        con.close()
    assert p.stderr.count(": waiting for another writer") == 1, p.stderr
    assert p.stderr.count("gave up after 2 s") == 1, p.stderr
    # one wait of 2 s, not two (a lower bound only: the machine is noisy)
    assert waited >= 2, waited
    assert runs_stored(db) == 1


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


def label_rows(db, pat):
    """(command, CSV rows without the header) of report and db list of
    the history @db selected by --label @pat (bytes); each must exit 0."""
    out = []
    for cmd in (["report", "--csv"], ["db", "list", "--csv"]):
        p = subprocess.run([RTLAT] + cmd + ["--db", db_target(db),
                                            "--label", pat],
                           capture_output=True)
        assert p.returncode == 0, (pat, p.stderr)
        out.append((cmd, p.stdout.splitlines()[1:]))
    return out


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
        for cmd, rows in label_rows(db, pat):
            assert len(rows) == 1 and b"latency" in rows[0], (pat, cmd, rows)
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
            lat = d["summary"]["latency"]
            lat["max_ns"] = 100000
            # its percentiles no higher than its max (a percentile beyond
            # the max is refused by every importer)
            for k, v in lat["percentiles_ns"].items():
                lat["percentiles_ns"][k] = min(v, 100000)
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
    # the max's noise: too few interval maxima for their law, and the
    # spread of the 3 runs (the cut one's lower max among them)
    assert "the spread of the 3 baseline runs" in p.stdout
    p = run(gate + ["--json"], check=0)
    assert "1 interrupted run of the baseline" in json.dumps(json.loads(p.stdout))
    # only interrupted runs in the baseline: refused, not gated
    run(["db", "baseline", "clear", "--db", db, "label=base-[01]"], check=0)
    p = run(gate, check=1)
    assert "has only interrupted runs in its baseline" in p.stderr, p.stderr


def test_plain_compare_leaves_interrupted_runs_out(tmp_path):
    """compare without --gate counted the interrupted runs of a side in
    its spread (the noise: a max of a third of the samples widened it):
    they are left out as the gate leaves them, said under the table (on
    stderr with --csv), unless --with-interrupted; a side of interrupted
    runs only is compared as it is."""
    db = tmp_path / "h.db"
    files = _interrupted_copies(tmp_path)
    run(["db", "add", "-q", "--db", db] + files, check=0)
    cmp = ["compare", "--db", db, "label=base-*"]
    p = run(cmp + [RUN], check=0)
    assert "A = base-0 and 1 more run," in p.stdout, p.stdout
    note = ("note: left out, cut short by a signal: 1 interrupted run of A,"
            " 0 of B (compare --with-interrupted compares them)")
    assert note in p.stdout, p.stdout
    # the max's noise: the range of the two complete runs (the same
    # figures: the resolution), not down to the cut run's 100 us
    row = [l for l in p.stdout.splitlines() if l.startswith("lat max")][0]
    cells = [c.strip() for c in row.split("|")]
    assert float(cells[5]) < 1 and cells[6:] == ["blocks", "no", "same"], row
    p = run(cmp + [RUN, "--with-interrupted"], check=0)
    assert "A = base-0 and 2 more runs," in p.stdout, p.stdout
    assert "left out" not in p.stdout
    row = [l for l in p.stdout.splitlines() if l.startswith("lat max")][0]
    assert float(row.split("|")[5]) > 700, row
    p = run(cmp + [RUN, "--csv"], check=0)
    assert "left out, cut short by a signal: 1 interrupted run of A" in \
        p.stderr and "left out" not in p.stdout, p
    p = run(cmp + [RUN, "--markdown"], check=0)
    assert "\n- " + note + "\n" in p.stdout, p.stdout
    # only interrupted runs on a side: compared as they are, nothing said
    p = run(["compare", "--db", db, "label=base-2", "label=base-0"], check=0)
    assert "A = base-2, B = base-0" in p.stdout and "left out" not in \
        p.stdout, p.stdout


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
    # and out of the gate: a baseline of it and a complete run, gating a
    # new complete run (whatever the verdict on this noisy machine)
    full = []
    for k in range(2):
        full.append(tmp_path / ("full%d.json" % k))
        p = run(["latency", "-T", "1", "--json", full[-1]], check=0)
    run(["db", "add", "-q", "--db", db, full[0]], check=0)
    run(["db", "baseline", "set", "--db", db, "board=*"], check=0)
    assert "(1 interrupted:" in run(["db", "info", "--db", db], check=0).stdout
    gate = ["compare", "--gate", "--db", db, "baseline=yes", full[1]]
    p = run(gate)
    assert p.returncode in (0, 2), p.stderr
    assert "1 interrupted run of the baseline, 0 of the new runs" in p.stdout
    assert "A = full0," in p.stdout, p.stdout      # one run: r.json left out
    p = run(gate + ["--with-interrupted"])
    assert p.returncode in (0, 2), p.stderr
    assert "interrupted run" not in p.stdout and " and 1 more run," in \
        p.stdout, p.stdout


def test_racing_first_adds_migrate_nothing(tmp_path):
    """Several first adds at once on a new history: each read version 0,
    then the first made the schema and the others, once they had the
    lock, "migrated from version 7 to 7". The version is read again
    under the lock: nothing migrated is nothing said, and every run is
    stored once. (The race is lost about every other round: 4 rounds.)"""
    n = 8
    files = [result_copies(tmp_path / ("w%d" % w), 2, "w%d" % w, first=2 * w) for w in range(n)]
    for rnd in range(4):
        db = tmp_path / ("h%d.db" % rnd)
        procs = [subprocess.Popen([RTLAT, "db", "add", "--db", db_target(db)] +
                                  [str(f) for f in files[w]],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for w in range(n)]
        out = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        assert [o[2] for o in out] == [0] * n, out
        for o in out:
            assert "migrated" not in o[1] and "2 runs added" in o[1], o
        assert runs_stored(db) == 2 * n


def whole_file(db):
    """Does SQLite find history file @db whole?"""
    con = sqlite3.connect(str(db))
    try:
        return con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        con.close()


def _lock_held(db, pid):
    """Is @pid in the middle of its write transaction on history @db?"""
    if TEST_DB == "pg":
        name = db_target(db).rsplit("/", 1)[1]
        return int(pg_server().psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '%s'"
            " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL" % name)) > 0
    # SQLite's reserved lock: a POSIX write lock of the writer on the file
    ino = os.stat(db).st_ino
    with open("/proc/locks") as f:
        for line in f:
            w = line.split()
            if len(w) > 5 and w[1] == "POSIX" and w[3] == "WRITE" and \
                    w[4] == str(pid) and w[5].endswith(":%d" % ino):
                return True
    return False


def test_killed_add_leaves_no_partial_run(tmp_path):
    """db add SIGKILLed in the middle of a many-run add (its transaction
    open, writing): none of its runs is stored, not a row of one; the
    history is whole and the next add stores them all."""
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, HELL], check=0)
    files = result_copies(tmp_path / "k", 150, "k", nint=2000)
    p = subprocess.Popen([RTLAT, "db", "add", "-q", "--db", db_target(db)] +
                         [str(f) for f in files], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    for _ in range(1200):
        if p.poll() is not None or _lock_held(db, p.pid):
            break
        time.sleep(0.025)
    assert p.poll() is None, "db add ended before it could be killed"
    time.sleep(0.3)                             # in the middle of its writes
    assert p.poll() is None, "db add ended before it could be killed"
    p.kill()
    p.communicate(timeout=60)
    assert p.returncode == -signal.SIGKILL
    if TEST_DB != "pg":
        assert whole_file(db)
    assert runs_stored(db) == 1
    for table in ("series", "intervals"):
        assert db_query(db, "SELECT count(*) FROM %s WHERE run_id NOT IN"
                        " (SELECT min(id) FROM runs)" % table) == [(0,)]
    p = run(["db", "add", "--db", db] + files, check=0, timeout=600)
    assert "150 runs added, 0 already there" in p.stderr, p.stderr
    assert runs_stored(db) == 151
    assert db_query(db, "SELECT count(*) FROM intervals i JOIN runs r ON"
                    " i.run_id = r.id WHERE r.label LIKE 'k-%' AND"
                    " i.thread = -1") == [(150 * 2000,)]


@sqlite_only
@needs_root
def test_full_disk_keeps_the_old_runs(tmp_path):
    """The file system of the history full in the middle of an add: an
    error that says so, exit 1, nothing of the add stored, and the file a
    valid history with its old runs (more added once there is room)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs",
                    str(mnt)], check=True)
    try:
        db = mnt / "h.db"
        run(["db", "add", "-q", "--db", db, RUN], check=0)
        fill = mnt / "fill"
        fd = os.open(fill, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        os.close(fd)
        files = result_copies(tmp_path / "full", 40, "full", nint=200)
        p = run(["db", "add", "--db", db] + files, check=1)
        assert p.stdout == ""
        assert "%s: " % db in p.stderr and "disk is full" in p.stderr and \
            "no space left on the history's file system" in p.stderr, p.stderr
        assert "nothing added (of 40 runs read)" in p.stderr, p.stderr
        assert whole_file(db)
        assert runs_stored(db) == 1
        assert "suite-vm-01" in run(["db", "list", "--db", db], check=0).stdout
        fill.unlink()
        run(["db", "add", "-q", "--db", db] + files, check=0)
        assert runs_stored(db) == 41
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


@sqlite_only
@needs_root
def test_read_only_file_refuses_writes_reads_work(tmp_path):
    """A history on a read-only mount with something new to write: an
    error naming the file, exit 1, nothing changed; an add with nothing
    new, and the reading commands, work."""
    rw, ro = tmp_path / "rw", tmp_path / "ro"
    rw.mkdir()
    ro.mkdir()
    run(["db", "add", "-q", "--db", rw / "h.db", RUN], check=0)
    subprocess.run(["mount", "--bind", str(rw), str(ro)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], check=True)
        db = ro / "h.db"
        p = run(["db", "add", "--db", db, HELL], check=1)
        assert "%s: " % db in p.stderr and "readonly database" in p.stderr \
            and "read-only: a write needs" in p.stderr, p.stderr
        assert "nothing added" in p.stderr and p.stdout == ""
        p = run(["db", "baseline", "set", "--db", db, "board=vm"], check=1)
        assert "%s: " % db in p.stderr and "readonly" in p.stderr, p.stderr
        p = run(["db", "add", "--db", db, RUN], check=0)
        assert "0 runs added, 1 already there" in p.stderr, p.stderr
        assert runs_stored(db) == 1
        assert "suite-vm-01" in run(["db", "list", "--db", db], check=0).stdout
        assert "LATENCY" in run(["report", "--db", db], check=0).stdout
        run(["compare", "--db", db, "label=suite-*", HELL], check=0)
    finally:
        subprocess.run(["umount", str(ro)], check=False)
    assert runs_stored(rw / "h.db") == 1


class Relay:
    """A TCP relay to the test server on a port of its own: the history
    "unreachable" while it is stopped (connections refused), reachable
    again on the same port once restarted."""

    def __init__(self, port):
        self.to = port
        self.port = None
        self.start()

    def start(self):
        self.lsn = socket.socket()
        self.lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsn.bind(("127.0.0.1", self.port or 0))
        self.port = self.lsn.getsockname()[1]
        self.lsn.listen(16)
        self.conns = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.lsn.accept()
            except OSError:
                return
            s = socket.create_connection(("127.0.0.1", self.to))
            self.conns += [c, s]
            for a, b in ((c, s), (s, c)):
                threading.Thread(target=self._pump, args=(a, b),
                                 daemon=True).start()

    @staticmethod
    def _pump(a, b):
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                b.sendall(d)
        except OSError:
            pass
        for x in (a, b):
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self):
        # shut down first: a close alone leaves it listening while the
        # thread's accept() holds it
        try:
            self.lsn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.lsn.close()
        for c in self.conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()


def test_history_gone_at_the_end_of_a_suite(tmp_path):
    """The history reachable when the suite starts, gone when it ends (a
    server that went away; a directory that became a file): the runs are
    kept as files, the error says where and prints a command that stores
    them, which works as printed once the history is back."""
    hist = tmp_path / "hist"
    hist.mkdir()
    db = hist / "h.db"
    run(["db", "add", "-q", "--db", db, RUN], check=0)
    given, relay = db_target(db), None
    if TEST_DB == "pg":
        relay = Relay(pg_server().port)
        given = given.replace(":%d/" % pg_server().port,
                              ":%d/" % relay.port, 1)
        assert str(relay.port) in given
    out = tmp_path / "out"
    proc = subprocess.Popen([RTLAT, "suite", "-T", "3s", "--tests", "latency",
                             "--loads", "none", "-q", "-o", str(out), "--db",
                             given], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for _ in range(400):
        if out.exists() or proc.poll() is not None:
            break
        time.sleep(0.025)
    assert proc.poll() is None, proc.communicate()
    if relay:
        relay.stop()
    else:
        hist.rename(tmp_path / "away")
        hist.write_text("not a directory\n")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert (out / "01-latency-none.json").exists() and \
        json.loads((out / "01-latency-none.json").read_text())["status"] == "complete"
    m = re.search(r"--db: the results are kept in (.*)/; store them later"
                  r" with: (.*)$", err, re.M)
    assert m and m.group(1) == str(out), err
    cmd = shlex.split(m.group(2))
    assert cmd == ["rtlat", "db", "add", "--db", given, str(out)], cmd
    # back: the command as printed stores the suite's run
    if relay:
        relay.start()
    else:
        hist.unlink()
        (tmp_path / "away").rename(hist)
    try:
        p = subprocess.run([RTLAT] + cmd[1:], capture_output=True, text=True,
                           timeout=120)
    finally:
        if relay:
            relay.stop()
    assert p.returncode == 0 and "1 run added, 0 already there" in p.stderr, \
        p.stderr
    assert runs_stored(db) == 2


def test_selector_not_utf8_end_to_end(tmp_path):
    """A suite run labelled with bytes that are not UTF-8, stored by the
    suite itself (--db): report, db list and a baseline selector pick it
    by the raw bytes and by U+FFFD alike, on both stores."""
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, HELL], check=0)
    p = subprocess.run([RTLAT, "suite", "-T", "1s", "--tests", "latency",
                        "--loads", "none", "-q", "-o", str(tmp_path / "out"),
                        "--label", b"lab\xff\xfeend", "--db", db_target(db)],
                       capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert runs_stored(db) == 2
    for pat in (b"lab\xff*", "lab\ufffd\ufffdend".encode(), b"lab*end"):
        for cmd, rows in label_rows(db, pat):
            assert len(rows) == 1 and b"out/01-latency-none.json" in \
                rows[0] or cmd[0] == "report", (pat, cmd, rows)
            assert len(rows) == 1, (pat, cmd, rows)
    p = subprocess.run([RTLAT, "db", "baseline", "set", "--db", db_target(db),
                        b"label=lab\xff*"], capture_output=True)
    assert p.returncode == 0 and b"1 run marked" in p.stderr, p.stderr
