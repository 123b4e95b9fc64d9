# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat db list: columns as wide as their content, a series column that
tells apart the rows of one handshake or cruncher result, load words that
say what they mean."""
import re

import pytest

from conftest import FIXTURES, ROOT, run, sqlite_only

OWN = ROOT / "tests" / "fixtures" / "report"


@pytest.fixture(scope="module")
def listing(tmp_path_factory):
    db = tmp_path_factory.mktemp("h") / "h.db"
    files = sorted(p for p in FIXTURES.glob("*/*") if p.name != "README.md")
    files += sorted(OWN.glob("suite-vm-*.json"))
    run(["db", "add", "--db", db] + files, check=0)
    lines = run(["db", "list", "--db", db], check=0).stdout.splitlines()
    return db, lines


def cells(line):
    return [c.strip() for c in line.split("|")]


def test_columns_fit_their_content(listing):
    _, lines = listing
    head = cells(lines[0])
    assert head == ["id", "date", "test", "series", "load", "label", "board",
                    "kernel", "max us", "samples", "note", "file"]
    # every '|' but the last (before the file) at the same place in every line
    pos = [[m.start() for m in re.finditer(r"\|", l)][:11] for l in lines]
    assert all(p == pos[0] for p in pos), lines[:3]
    rows = [dict(zip(head, cells(l))) for l in lines[1:]]
    assert "histogram-riscv-2threads-annotated" in {r["label"] for r in rows}
    assert "DENX linux-2.6.14-rc3-g4c234921" in {r["kernel"] for r in rows}
    # no wider than the longest value: some line fills each column
    for c in range(11):
        width = pos[0][c] - (pos[0][c - 1] + 1 if c else 0)
        assert max(len(l.split("|")[c]) for l in lines) == width
        assert any(len(l.split("|")[c].strip()) == width for l in lines), head[c]


def test_series_tells_rows_of_one_file_apart(listing):
    _, lines = listing
    head = cells(lines[0])
    rows = [dict(zip(head, cells(l))) for l in lines[1:]]
    hs = [r for r in rows if r["file"].endswith("suite-vm-05-handshake-none.json")]
    assert [(r["test"], r["series"]) for r in hs] == [
        ("handshake", "a->b"), ("handshake", "b->a"), ("handshake", "round trip")]
    cr = [r for r in rows if r["file"].endswith("suite-vm-07-cruncher-none.json")]
    assert [r["series"] for r in cr] == ["sleep", "deviation"]
    assert {r["series"] for r in rows if r["test"] in ("latency", "klatency")} == {"latency"}


def test_load_words(listing):
    db, lines = listing
    head = cells(lines[0])
    rows = [dict(zip(head, cells(l))) for l in lines[1:]]
    load = {r["file"].split("/")[-1] + ":" + r["label"]: r["load"] for r in rows}
    assert load["json-1thread.json:json-1thread"] == "unknown"     # cyclictest: not said
    assert load["xenomai-latencies-ppc-summary.log:Ocotea"] in ("none", "unnamed")
    assert "?" not in {r["load"] for r in rows}
    assert {r["load"] for r in rows} == {"unknown", "unnamed", "none", "hell"}
    # --load matches the words shown
    unknown = run(["db", "list", "--db", db, "--load", "unknown"], check=0).stdout
    assert len(unknown.splitlines()) - 1 == sum(r["load"] == "unknown" for r in rows)
    h = " ".join(run(["db", "--help"], check=0).stdout.split())
    assert 'unnamed = "with load" without a name' in h
    assert "unknown = the source does not say" in h
    man = " ".join((ROOT / "man" / "rtlat-db.1").read_text().replace("\\fB", "")
                   .replace("\\fR", "").split())
    assert "unknown (the source does not say" in man


def _add_at_once(db, files, procs=4):
    """procs processes running db add of @files at the same time."""
    import subprocess
    from conftest import RTLAT
    from conftest import db_target
    ps = [subprocess.Popen([RTLAT, "db", "add", "-q", "--db", db_target(db)] +
                           [str(f) for f in files],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True) for _ in range(procs)]
    out = [p.communicate(timeout=120) + (p.returncode,) for p in ps]
    assert [o[2] for o in out] == [0] * procs, out
    return out


def _stored(db):
    from conftest import db_query
    ((n, hashes),) = db_query(db, "SELECT count(*), count(DISTINCT content_hash)"
                                  " FROM runs")
    return n, hashes


def test_concurrent_adds_store_a_run_once(tmp_path):
    """A run added twice is stored once, also by processes adding it at the
    same time: one file by 4 processes, a few rounds (each a new database)."""
    one = OWN / "suite-vm-01-latency-none.json"
    for k in range(4):
        db = tmp_path / ("one%d.db" % k)
        out = _add_at_once(db, [one])
        assert _stored(db) == (1, 1)
        # exactly one process says it added it (the run on stdout)
        assert sum(len(o[0].splitlines()) for o in out) == 1


def test_concurrent_adds_of_many_files(tmp_path):
    """Every fixture by 4 processes at once: as many rows as one add."""
    files = sorted(p for p in FIXTURES.glob("*/*") if p.name != "README.md")
    files += sorted(OWN.glob("suite-vm-*.json"))
    ref = tmp_path / "ref.db"
    run(["db", "add", "-q", "--db", ref] + files, check=0)
    n, _ = _stored(ref)
    db = tmp_path / "many.db"
    _add_at_once(db, files)
    assert _stored(db) == (n, n)
    p = run(["db", "add", "--db", db] + files, check=0)
    assert "0 runs added, %d already there" % n in p.stderr


@sqlite_only
def test_schema_forbids_a_duplicate_hash(tmp_path):
    """The content hash is UNIQUE in the schema (version 5)."""
    import sqlite3
    db = tmp_path / "h.db"
    run(["db", "add", "-q", "--db", db, OWN / "suite-vm-01-latency-none.json"],
        check=0)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 9
    cols = [r[1] for r in con.execute("PRAGMA table_info(runs)") if r[1] != "id"]
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO runs (%s) SELECT %s FROM runs WHERE id = 1" %
                    (", ".join(cols), ", ".join(cols)))
    con.close()


def test_stored_paths_are_absolute_without_doubled_slashes(tmp_path):
    """A run added from a directory given as "base2/" (relative) is stored
    under its absolute path, base2/b1.json not base2//b1.json; --url takes
    only a URL."""
    from conftest import db_query
    d = tmp_path / "base2"
    d.mkdir()
    src = (ROOT / "tests" / "fixtures" / "report" / "suite-vm-01-latency-none.json").read_text()
    (d / "b1.json").write_text(src)
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, "base2/"], check=0, cwd=tmp_path)
    assert db_query(db, "SELECT file FROM runs") == [(str(d / "b1.json"),)]
    p = run(["db", "list", "--url", db], check=1)
    assert "a postgresql:// URL (an SQLite file goes with --db FILE)" in \
        p.stderr
