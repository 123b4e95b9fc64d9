# SPDX-License-Identifier: GPL-2.0-or-later
"""What names a history: an SQLite file or a postgresql:// URL, nothing
else. A name that keeps nothing (empty, ":memory:") or a URL of another
scheme (a typo such as "postgresq://") used to be taken as an SQLite file
name: an add "succeeded" into nothing, or into a file named like the URL.
And an add that fails leaves nothing and lists nothing as stored."""
import json
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import (ROOT, RTLAT, fill_fs, unprivileged_rtlat, mount_tmpfs, needs_root, run,
                      sqlite_only, umount)

RUN = ROOT / "tests" / "fixtures" / "report" / "suite-vm-01-latency-none.json"


@pytest.mark.parametrize("name,why", [
    ("", "an empty name"),
    (":memory:", "an in-memory or URI name keeps nothing"),
    ("file:x.db", "an in-memory or URI name keeps nothing"),
    ("postgresq://postgres@127.0.0.1:1/rt1", "not a database URL"),
    ("mysql://x/y", "not a database URL"),
    # mistyped URLs (they became SQLite files and directories)
    ("postgresql:/x", "not a database URL"),
    ("postgresql:x", "not a database URL"),
    ("postgres:/127.0.0.1/c1", "not a database URL"),
    ("postgresql//127.0.0.1/c1", "not a database URL"),
    (" postgresql://127.0.0.1/c1", "begins or ends with a blank"),
])
def test_db_names_that_keep_nothing_are_refused(tmp_path, name, why):
    p = subprocess.run([RTLAT, "db", "add", "--db", name, str(RUN)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    assert why in p.stderr
    assert p.stdout == ""
    assert list(tmp_path.iterdir()) == []       # no file made of the name


def test_url_option_takes_only_a_url(tmp_path):
    p = run(["db", "list", "--url", tmp_path / "h.db"], check=1)
    assert "a postgresql:// URL (an SQLite file goes with --db FILE)" in p.stderr
    # and the variable: the same check
    env = dict(os.environ, RTLAT_DB_URL="pgsql://h/db")
    p = subprocess.run([RTLAT, "db", "add", str(RUN)], capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert p.returncode == 1 and "pgsql://h/db: not a database URL" in p.stderr
    assert list(tmp_path.iterdir()) == []


def test_suite_db_name_refused_before_any_run(tmp_path):
    p = subprocess.run([RTLAT, "suite", "-T", "30s", "--tests", "latency",
                        "--loads", "none", "-q", "-o", str(tmp_path / "s"),
                        "--db", "mysql://x/y"], capture_output=True,
                       text=True, cwd=tmp_path, timeout=60)
    assert p.returncode == 1 and "not a database URL" in p.stderr, p.stderr
    assert not (tmp_path / "mysql:").exists()
    assert not (tmp_path / "s" / "01-latency-none.json").exists()


def test_missing_directory_names_the_database(tmp_path):
    env = dict(os.environ, HOME="/proc/nonexistent", XDG_DATA_HOME="")
    p = subprocess.run([RTLAT, "db", "add", str(RUN)], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 1
    assert ("/proc/nonexistent/.local/share/rtlat/history.db: cannot create"
            " its directory /proc/nonexistent") in p.stderr


@pytest.mark.parametrize("name", ["h.db", "x.sqlite3",
                                  "postgresql://u:secret@h/d"])
def test_db_add_of_a_database_name_hints_at_db(tmp_path, name):
    """rtlat db add h.db (the database named without --db): an input that
    does not exist, nothing created, and a note saying to use --db; a
    password in a URL is not shown (a trial finding: no hint)."""
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME="",
               RTLAT_DB_URL="")
    p = subprocess.run([RTLAT, "db", "add", name], capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert p.returncode == 1
    assert "secret" not in p.stderr, p.stderr   # the error line's too
    shown = name.replace(":secret", "")
    assert ("note: %s is read as an input to add, into the default database"
            " %s/.local/share/rtlat/history.db; to add to %s, name it with"
            " --db: rtlat db add --db %s FILE|DIR..." %
            (shown, tmp_path, shown, shown)) in p.stderr, p.stderr
    assert os.listdir(tmp_path) == []
    # an existing input is not taken for a database
    p = subprocess.run([RTLAT, "db", "add", "--db", str(tmp_path / "h.db"),
                        str(RUN)], capture_output=True, text=True, env=env)
    assert p.returncode == 0 and "read as an input" not in p.stderr, \
        p.stderr
    assert "secret" not in p.stderr
    # the history made just now, given as an input without --db: the
    # same note (the import's error alone said "binary data")
    os.rename(tmp_path / "h.db", tmp_path / "lab")
    p = subprocess.run([RTLAT, "db", "add", "lab"], capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert p.returncode == 1
    assert "note: lab is read as an input to add, into the default " \
        "database" in p.stderr, p.stderr


@needs_root
@sqlite_only
def test_full_disk_add_stores_and_lists_nothing(tmp_path):
    """SQLite on a full file system: the add fails whole, says nothing was
    added, lists no run as stored, and makes no second error."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    mount_tmpfs(mnt, "size=512k")
    try:
        src = json.loads(RUN.read_text())
        files = []
        for i in range(40):
            src["start_time"] = "2026-11-01T10:%02d:00.000Z" % i
            f = tmp_path / ("r%02d.json" % i)
            f.write_text(json.dumps(src))
            files.append(str(f))
        db = mnt / "h.db"
        run(["db", "add", "-q", "--db", db, files[0]], check=0)
        fill_fs(mnt / "fill")
        p = run(["db", "add", "--db", db] + files[1:], check=1)
        assert p.stdout == "", p.stdout
        assert "nothing added (of 39 runs read)" in p.stderr, p.stderr
        assert "no transaction is active" not in p.stderr
        os.unlink(mnt / "fill")
        assert "runs: 1" in run(["db", "info", "--db", db], check=0).stdout
    finally:
        umount(mnt)


def test_suite_db_clashing_with_its_outputs_refused_before_anything(tmp_path):
    """An SQLite history given to the suite is one of its outputs: the
    same file as --kcidb/--junit, one of the suite's own files, or the
    output directory is refused before it is opened or made (the KCIDB
    file replaced the history, the suite's report.txt became it)."""
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, RUN], check=0)
    before = db.read_bytes()
    base = ["suite", "-T", "1s", "--tests", "latency", "--loads", "none", "-q"]
    p = run(base + ["-o", tmp_path / "a", "--db", db, "--kcidb", db], check=1)
    assert "--kcidb '%s' and --db '%s' are the same file" % (db, db) in p.stderr
    p = run(base + ["-o", tmp_path / "b", "--db", db, "--junit", db], check=1)
    assert "are the same file" in p.stderr
    assert db.read_bytes() == before
    out = tmp_path / "c"
    p = run(base + ["-o", out, "--db", out / "report.txt"], check=1)
    assert "the suite's report.txt" in p.stderr and "--db" in p.stderr
    p = run(base + ["-o", out, "--db", out], check=1)
    assert "is the output directory" in p.stderr
    assert not out.exists()
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


@needs_root
@sqlite_only
def test_sqlite_permission_says_why(tmp_path):
    """A new history where the user may not write: the system's reason
    after SQLite's "unable to open database file"."""
    top = tempfile.mkdtemp(prefix="rtlat-perm-")  # nobody may enter it
    try:
        os.chmod(top, 0o755)
        d = os.path.join(top, "ro")
        os.mkdir(d, 0o555)
        # the input where nobody may read it (not in a clone under /root)
        run_file = shutil.copy(RUN, os.path.join(top, RUN.name))
        os.chmod(run_file, 0o644)
        p = subprocess.run(["runuser", "-u", "nobody", "--",
                            unprivileged_rtlat(), "db", "add", "--db",
                            os.path.join(d, "new.db"), run_file],
                           capture_output=True, text=True)
        assert p.returncode == 1
        assert "cannot open: unable to open database file: Permission " \
            "denied" in p.stderr, p.stderr
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.mark.parametrize("url", ["postgress://postgres@127.0.0.1/x",
                                 "postgresql:/x", "pgsql://h/db"])
def test_report_and_compare_refuse_a_mistyped_env_url(tmp_path, url):
    """A mistyped RTLAT_DB_URL: report and compare said "fill it with: rtlat
    db add" as for an empty history; they refuse the name as db does."""
    env = dict(os.environ, RTLAT_DB_URL=url)
    for cmd in (["report"], ["compare", "board=a", "board=b"],
                ["compare", "board=a", str(RUN)], ["db", "list"]):
        p = subprocess.run([RTLAT] + cmd, capture_output=True, text=True,
                           env=env, cwd=tmp_path)
        assert p.returncode == 1, (cmd, p.stderr)
        assert "%s: not a database URL" % url in p.stderr, (cmd, p.stderr)
        assert "fill it" not in p.stderr and p.stderr.count("error:") == 1, \
            (cmd, p.stderr)
    assert list(tmp_path.iterdir()) == []


def _has_libpq():
    p = subprocess.run([RTLAT, "db", "info", "--db", "postgresql://x@127.0.0.1:1/x"],
                       capture_output=True, text=True)
    return "needs libpq" not in p.stderr


@pytest.mark.skipif(not _has_libpq(), reason="this rtlat is built without libpq")
def test_connect_error_is_said_once(tmp_path):
    """A history that cannot be reached: one error saying why, not a second
    one after it ("selector picks no run", "cannot take the suite's
    runs")."""
    url = "postgresql://postgres@127.0.0.1:1/x"
    for cmd in (["report", "--db", url], ["db", "list", "--db", url],
                ["compare", "--db", url, "board=a", str(RUN)],
                ["compare", "--gate", "--db", url, "board=a,baseline=yes", str(RUN)],
                ["compare", "--db", url, "board=a", "board=b"],
                ["suite", "-T", "1s", "--tests", "latency", "--loads", "none",
                 "-q", "-o", str(tmp_path / "s"), "--db", url]):
        p = subprocess.run([RTLAT] + cmd, capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 1, (cmd, p.stderr)
        errors = [l for l in p.stderr.splitlines() if ": error: " in l]
        assert len(errors) == 1 and "cannot connect" in errors[0], (cmd, p.stderr)
    assert not (tmp_path / "s").exists()
