# SPDX-License-Identifier: GPL-2.0-or-later
"""The history on PostgreSQL (docs/db-schema.md), against a real server
the tests start and stop (pgserver.py): what only a shared server has.
Four processes adding 50 runs each at once store exactly 200; the server
killed in the middle of an add leaves no partial run and a clear error; a
schema from a newer rtlat is refused, an older one migrated; a server
that is not there is named. (The rest of the history tests run against
PostgreSQL too with RTLAT_TEST_DB=pg: make check-pg.)"""
import json
import os
import subprocess
import time

import pytest

import pgserver
from conftest import ROOT, RTLAT, result_copies, run


pytestmark = pytest.mark.skipif(pgserver.why_not() is not None,
                                reason=str(pgserver.why_not()))
if subprocess.run([RTLAT, "db", "info", "--db", "postgresql://x@127.0.0.1:1/x"],
                  capture_output=True, text=True).stderr.find("needs libpq") >= 0:
    pytestmark = pytest.mark.skip(reason="this rtlat is built without libpq")


@pytest.fixture(scope="module")
def server():
    s = pgserver.Server()
    yield s
    s.close()


def count(server, url, sql):
    """The number @sql gives, 0 while the schema is not there."""
    try:
        return int(server.psql(sql, db=url.rsplit("/", 1)[1]))
    except subprocess.CalledProcessError:
        return 0


def per_run(server, url):
    """Series and intervals of the first stored run."""
    first = "(SELECT min(id) FROM runs)"
    return (count(server, url, "SELECT count(*) FROM series WHERE run_id = " + first),
            count(server, url, "SELECT count(*) FROM intervals WHERE run_id = " + first))


def add_in_flight(server, url, files, *opts):
    """A db add of @files started, returned once its transaction is open
    on the server (and a little into its writes)."""
    name = url.rsplit("/", 1)[1]
    p = subprocess.Popen([RTLAT, "db", "add"] + list(opts) + ["--db", url] +
                         [str(f) for f in files], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    busy = ("SELECT count(*) FROM pg_stat_activity WHERE datname = '%s'"
            " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL" % name)
    for _ in range(600):
        if p.poll() is None and int(server.psql(busy)) > 0:
            break
        time.sleep(0.05)
    assert p.poll() is None, "db add ended before it could be stopped"
    time.sleep(0.3)                             # in the middle of its writes
    return p


def test_four_writers_store_exactly_200(server, tmp_path):
    url = server.new_db()
    procs = [subprocess.Popen([RTLAT, "db", "add", "-q", "--db", url] +
                              [str(f) for f in result_copies(tmp_path, 50, "w%d" % w, 50 * w)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for w in range(4)]
    out = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    assert [o[2] for o in out] == [0] * 4, out
    assert count(server, url, "SELECT count(*) FROM runs") == 200
    assert count(server, url, "SELECT count(DISTINCT content_hash) FROM runs") == 200
    # every run whole: as many series and intervals as the first
    per = per_run(server, url)
    assert count(server, url, "SELECT count(*) FROM series") == 200 * per[0]
    assert count(server, url, "SELECT count(*) FROM intervals") == 200 * per[1]
    # the same files again, by two writers at once: nothing added
    again = result_copies(tmp_path, 50, "w0", 0)
    ps = [subprocess.Popen([RTLAT, "db", "add", "--db", url] +
                           [str(f) for f in again], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in ps:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0 and "0 runs added, 50 already there" in err, err
    assert count(server, url, "SELECT count(*) FROM runs") == 200
    # read back as from SQLite
    sq = tmp_path / "h.db"
    files = result_copies(tmp_path, 50, "w3", 150)
    run(["db", "add", "-q", "--db", sq] + files, check=0)
    a = run(["report", "--csv", "--db", url, "--label", "w3-*"], check=0).stdout
    b = run(["report", "--csv", "--db", sq], check=0).stdout
    assert a == b


def test_server_killed_mid_add_leaves_no_partial_run(server, tmp_path):
    """db add stores its runs in one transaction: the server killed while
    it writes leaves none of them (no partial run), and db add says the
    connection is gone (exit 1); the same add then stores them all."""
    url = server.new_db()
    run(["db", "add", "-q", "--db", url] + result_copies(tmp_path, 1, "pre"),
        check=0)
    files = result_copies(tmp_path, 300, "k", first=10, nint=2000)
    p = add_in_flight(server, url, files, "-q")
    server.kill()
    _, err = p.communicate(timeout=120)
    server.start()
    assert p.returncode == 1, err
    assert "server closed the connection" in err or "terminat" in err, err
    # only the run stored before: nothing of the killed add, not a row
    assert count(server, url, "SELECT count(*) FROM runs") == 1
    per = per_run(server, url)
    assert count(server, url, "SELECT count(*) FROM series") == per[0]
    assert count(server, url, "SELECT count(*) FROM intervals") == per[1]
    run(["db", "add", "-q", "--db", url] + files, check=0, timeout=600)
    assert count(server, url, "SELECT count(*) FROM runs") == 301
    # the whole run's interval series: the "pre" run's 4, 2000 each after
    whole = count(server, url, "SELECT count(*) FROM intervals i JOIN runs r"
                  " ON i.run_id = r.id WHERE r.label LIKE 'k-%' AND i.thread = -1")
    assert whole == 300 * 2000


def test_schema_versions(server, tmp_path):
    url = server.new_db()
    name = url.rsplit("/", 1)[1]
    f = result_copies(tmp_path, 1, "v")
    run(["db", "add", "-q", "--db", url] + f, check=0)
    assert "schema version: 9" in run(["db", "info", "--db", url], check=0).stdout
    # an older one (6: no baselines, no figures, no system_check) is
    # migrated, its runs kept
    server.psql("DROP TABLE baselines; DROP TABLE figures;"
                " ALTER TABLE runs DROP COLUMN system_check;"
                " UPDATE rtlat_schema SET version = 6", db=name)
    p = run(["db", "list", "--db", url], check=0)
    assert "schema migrated from version 6 to 9" in p.stderr
    assert count(server, url, "SELECT count(*) FROM baselines") == 0
    assert count(server, url, "SELECT count(*) FROM information_schema.columns"
                 " WHERE table_name = 'runs' AND column_name = 'system_check'"
                 " OR table_name = 'figures' AND column_name = 'value'") == 2
    assert len(p.stdout.splitlines()) == 2          # header + the run
    # a newer one is refused, nothing changed
    server.psql("UPDATE rtlat_schema SET version = 99", db=name)
    p = run(["report", "--db", url], check=1)
    assert "schema version 99 is newer than this rtlat knows (9)" in p.stderr
    assert server.psql("SELECT version FROM rtlat_schema", db=name) == "99"
    # a database of another program's is not taken over
    other = server.new_db()
    server.psql("CREATE TABLE t (x int)", db=other.rsplit("/", 1)[1])
    p = run(["db", "add", "--db", other] + f, check=1)
    assert "not an rtlat history" in p.stderr
    # reading an empty database does not create the schema
    empty = server.new_db()
    p = run(["report", "--db", empty], check=1)
    assert "no rtlat history in this database" in p.stderr
    assert server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
                       db=empty.rsplit("/", 1)[1]) == "0"


def test_no_server_is_named(tmp_path):
    p = run(["db", "list", "--db", "postgresql://nobody:secret@127.0.0.1:1/none"],
            check=1)
    assert "postgresql://nobody@127.0.0.1:1/none: cannot connect" in p.stderr
    assert "secret" not in p.stderr             # the password is not shown


def test_env_url_is_the_default(server, tmp_path):
    url = server.new_db()
    env = dict(os.environ, RTLAT_DB_URL=url)
    run(["db", "add", "-q"] + result_copies(tmp_path, 2, "e"), check=0, env=env)
    assert count(server, url, "SELECT count(*) FROM runs") == 2
    assert "runs: 2" in run(["db", "info"], check=0, env=env).stdout


def test_overlapping_writers_never_deadlock(server, tmp_path):
    """Four adds of overlapping runs, each in another order (sets w and
    w+1, every other writer backwards), at once: all succeed (the runs'
    keys are taken in one order; a deadlock would be tried again) and the
    history holds each of the 200 runs once. It used to deadlock, and the
    loser kept the runs before the error and dropped the rest."""
    url = server.new_db()
    for trial in range(2):
        sets = []
        for s in range(4):
            d = tmp_path / ("t%d-set%d" % (trial, s))
            d.mkdir()
            sets.append(result_copies(d, 25, "t%d-s%d" % (trial, s),
                                200 * trial + 25 * s, nint=200))
        procs = []
        for w in range(4):
            files = [str(f) for f in sets[w] + sets[(w + 1) % 4]]
            if w % 2:
                files.reverse()
            procs.append(subprocess.Popen(
                [RTLAT, "db", "add", "--db", url] + files,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        out = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
        assert [o[2] for o in out] == [0] * 4, [o[1] for o in out]
        assert "deadlock" not in "".join(o[1] for o in out)
        assert count(server, url, "SELECT count(*) FROM runs") == 100 * (trial + 1)
        # the writers' lines: the runs they stored, each run once
        ids = [int(line.split("\t")[0]) for o in out
               for line in o[0].splitlines()]
        assert len(ids) == len(set(ids)) == 100


def test_text_that_is_not_utf8_is_stored(server, tmp_path):
    """A label (or host name) in Latin-1: PostgreSQL refuses bytes that
    are not UTF-8, so each such byte is stored as U+FFFD and the run kept
    (it was refused, and the other files of the add with it)."""
    url = server.new_db()
    f = result_copies(tmp_path, 2, "u")
    d = json.loads(f[1].read_text())
    d["host"] = dict(d.get("host") or {}, hostname="b\u00f6rd")
    f[1].write_bytes(json.dumps(d, ensure_ascii=False).encode("latin-1"))
    p = subprocess.run([RTLAT, "db", "add", "--db", url, "--set-label",
                        b"lat\xff\xfeend", str(f[0]), str(f[1])],
                       capture_output=True)
    assert p.returncode == 0, p.stderr
    assert count(server, url, "SELECT count(*) FROM runs") == 2
    labels = server.psql("SELECT DISTINCT label FROM runs",
                         db=url.rsplit("/", 1)[1])
    assert labels == "lat\ufffd\ufffdend"


def test_rolled_back_add_lists_no_run(server, tmp_path):
    """The server's backend terminated in the middle of an add: nothing is
    stored, and nothing is listed on stdout as stored (the lines come
    after the commit); the note says nothing was added."""
    url = server.new_db()
    name = url.rsplit("/", 1)[1]
    files = result_copies(tmp_path, 200, "t", nint=1000)
    p = add_in_flight(server, url, files)
    server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = '%s' AND pid <> pg_backend_pid()" % name)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1, err
    assert out == ""
    assert "nothing added (of 200 runs read)" in err
    assert count(server, url, "SELECT count(*) FROM runs") == 0


def test_permission_error_says_why(server, tmp_path):
    url = server.new_db()
    run(["db", "add", "-q", "--db", url] + result_copies(tmp_path, 1, "p"), check=0)
    server.psql("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE"
                " rolname = 'rtlat_ro') THEN CREATE ROLE rtlat_ro LOGIN; END IF;"
                " END$$")
    ro = url.replace("postgresql://%s@" % pgserver.USER, "postgresql://rtlat_ro@")
    p = run(["db", "list", "--db", ro], check=1)
    assert "read the schema version" in p.stderr
    assert "permission denied" in p.stderr, p.stderr


def test_passwords_are_never_shown_nor_stored(server, tmp_path):
    """Neither in messages (a password in the user part or as a URL
    parameter) nor in the suite's files (suite.json's command line)."""
    bad = "postgresql://nobody@127.0.0.1:1/x?password=s3cr3t&sslmode=disable"
    p = run(["db", "info", "--db", bad], check=1)
    assert "s3cr3t" not in p.stderr
    assert "postgresql://nobody@127.0.0.1:1/x?sslmode=disable" in p.stderr
    url = server.new_db().replace("@", ":s3cr3t@", 1)    # trust: unchecked
    out = tmp_path / "s"
    p = run(["suite", "-T", "1s", "--tests", "latency", "--loads", "none",
             "-q", "-o", out, "--db", url], check=0, timeout=300)
    assert "s3cr3t" not in p.stderr + p.stdout
    for f in out.rglob("*"):
        if f.is_file():
            assert b"s3cr3t" not in f.read_bytes(), f
    cmd = json.loads((out / "suite.json").read_text())["command_line"]
    assert url.replace(":s3cr3t@", "@") in cmd


def test_server_that_never_answers_times_out(tmp_path):
    """A server that accepts and never answers: the connection gives up
    after its timeout (PGCONNECT_TIMEOUT here; 10 s by default) instead
    of waiting for ever, exit 1."""
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    try:
        url = "postgresql://x@127.0.0.1:%d/x" % s.getsockname()[1]
        env = dict(os.environ, PGCONNECT_TIMEOUT="2")
        t = time.monotonic()
        p = run(["db", "list", "--db", url], check=1, env=env, timeout=60)
        assert "cannot connect" in p.stderr and "timeout" in p.stderr, p.stderr
        env.pop("PGCONNECT_TIMEOUT")
        p = run(["db", "list", "--db", url], check=1, env=env, timeout=90)
        assert "timeout" in p.stderr, p.stderr
        assert time.monotonic() - t < 80
    finally:
        s.close()


def test_env_url_is_the_default_of_report_and_compare(server, tmp_path):
    """RTLAT_DB_URL holding a URL is the history of report and compare
    too (not taken for a missing file)."""
    url = server.new_db()
    env = dict(os.environ, RTLAT_DB_URL=url)
    files = result_copies(tmp_path, 3, "u")
    run(["db", "add", "-q"] + files, check=0, env=env)
    p = run(["report", "--csv"], check=0, env=env)
    assert len(p.stdout.strip().splitlines()) == 1 + 3
    run(["db", "baseline", "set", "label=u-0"], check=0, env=env)
    p = run(["compare", "--gate", "baseline=yes", "label=u-1"], env=env)
    assert p.returncode in (0, 2), p.stderr
    assert "A = u-0, B = u-1" in p.stdout
    # the same from one selector and a file
    p = run(["compare", "--gate", "baseline=yes", files[2]], env=env)
    assert p.returncode in (0, 2), p.stderr
    assert "A = u-0, B = u-2" in p.stdout


def test_a_reader_needs_select_only(server, tmp_path):
    """A role that may only SELECT reads the history (db list, report):
    the schema version is written only when migrated."""
    url = server.new_db()
    name = url.rsplit("/", 1)[1]
    run(["db", "add", "-q", "--db", url] + result_copies(tmp_path, 2, "r"), check=0)
    server.psql("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE"
                " rolname = 'rtlat_reader') THEN CREATE ROLE rtlat_reader LOGIN;"
                " END IF; END$$")
    server.psql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO rtlat_reader",
                db=name)
    ro = url.replace("postgresql://%s@" % pgserver.USER,
                     "postgresql://rtlat_reader@")
    p = run(["db", "list", "--db", ro], check=0)
    assert len(p.stdout.splitlines()) == 3          # header + 2 runs
    assert "LATENCY" in run(["report", "--db", ro], check=0).stdout
    # and it may not write: said with the server's reason
    p = run(["db", "add", "--db", ro] + result_copies(tmp_path, 1, "w", 10), check=1)
    assert "permission denied" in p.stderr


def test_password_in_libpq_own_messages_hidden(tmp_path):
    """libpq's parse errors quote the URL it was given: not its password."""
    p = run(["db", "info", "--db", "postgresql://sec:hunter2@[::1:1/x"], check=1)
    assert "hunter2" not in p.stderr
    assert "postgresql://sec@[::1:1/x" in p.stderr
    p = run(["db", "info", "--db",
             "postgresql://sec@127.0.0.1:1/x?pass%77ord=hunter2"], check=1)
    assert "hunter2" not in p.stderr


def test_an_unencoded_at_in_the_password_is_refused(tmp_path):
    """A password with an unencoded '@' leaked its end through libpq's
    message (could not translate host name "SECRET@127.0.0.1"), also from
    suite --db. Such a URL is refused before libpq sees it, with the hint
    to percent-encode, and without the password (no server needed)."""
    url = "postgresql://rtlat:pa@SECRET@127.0.0.1:1/x"
    hint = "an '@' in the user name or password must be percent-encoded as %40"
    env = dict(os.environ, RTLAT_DB_URL=url)
    for args, kw in ((["db", "info", "--db", url], {}),
                     (["report", "--db", url], {}),
                     (["db", "list"], {"env": env}),
                     (["suite", "-T", "1", "--tests", "latency", "--loads",
                       "none", "-q", "-o", tmp_path / "s", "--db", url], {})):
        p = run(args, check=1, **kw)
        assert hint in p.stderr, (args, p.stderr)
        assert "SECRET" not in p.stderr + p.stdout, (args, p.stderr)
    assert not (tmp_path / "s").exists()


def test_libpq_never_repeats_a_part_of_the_password(server, tmp_path):
    """An unencoded '/' in a password ends the host part for libpq: the
    rest was quoted as the port ("invalid integer value "SECRET" for
    connection option "port"") and the whole URL named the database in
    every message. Both are left out. A percent-encoded '@' is read."""
    p = run(["db", "info", "--db",
             "postgresql://rtlat:SECRET/PASS@127.0.0.1:1/x"], check=1)
    assert "cannot connect" in p.stderr, p.stderr
    assert "SECRET" not in p.stderr and "PASS" not in p.stderr, p.stderr
    assert 'invalid integer value "***" for connection option "port"' \
        in p.stderr, p.stderr
    url = server.new_db().replace("@", ":pa%40SECRET@", 1)  # trust: unchecked
    p = run(["db", "add", "--db", url] + result_copies(tmp_path, 1, "e"),
            check=0)
    assert "SECRET" not in p.stderr + p.stdout
    assert len(run(["db", "list", "--db", url], check=0).stdout
               .splitlines()) == 2


def test_baseline_set_beside_a_remove_picks_again(server, tmp_path):
    """A db remove whose transaction deletes a run that a db baseline set
    picked: the set failed with the server's raw "violates foreign key
    constraint". It waits for the remove (the runs it picked are locked
    FOR KEY SHARE), says what happened, picks again and marks the rest."""
    url = server.new_db()
    name = url.rsplit("/", 1)[1]
    run(["db", "add", "-q", "--db", url] + result_copies(tmp_path, 3, "u"),
        check=0)
    ids = sorted(int(x) for x in
                 server.psql("SELECT id FROM runs", db=name).split())
    psql = subprocess.Popen(
        ["runuser", "-u", "postgres", "--", os.path.join(server.bin, "psql"),
         "-X", "-q", "-h", "127.0.0.1", "-p", str(server.port), "-d", name],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, text=True)
    proc = None
    try:
        psql.stdin.write("BEGIN;\nDELETE FROM runs WHERE id = %d;\n" % ids[0])
        psql.stdin.flush()
        open_tx = ("SELECT count(*) FROM pg_stat_activity WHERE datname = '%s'"
                   " AND state = 'idle in transaction'" % name)
        for _ in range(600):
            if int(server.psql(open_tx)) > 0:
                break
            time.sleep(0.05)
        proc = subprocess.Popen([RTLAT, "db", "baseline", "set", "--db", url,
                                 "label=u-[01]"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        waiting = ("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                   "'%s' AND wait_event_type = 'Lock'" % name)
        for _ in range(600):
            if proc.poll() is not None or int(server.psql(waiting)) > 0:
                break
            time.sleep(0.05)
        psql.stdin.write("COMMIT;\n")
        psql.stdin.close()
        psql.wait(timeout=30)
        out, err = proc.communicate(timeout=60)
    finally:
        if psql.poll() is None:
            psql.kill()
        if proc and proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "foreign key" not in err, err
    assert ("run %d was removed from the history by another writer after "
            "it was picked: picking the runs again" % ids[0]) in err, err
    assert "1 run marked as the baseline of its board" in err, err
    assert server.psql("SELECT run_id FROM baselines", db=name).split() == \
        [str(ids[1])]
    assert out.split("\t")[0] == str(ids[1])
