# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat db list: columns as wide as their content, a series column that
tells apart the rows of one handshake or cruncher result, load words that
say what they mean."""
import re

import pytest

from conftest import FIXTURES, ROOT, run

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
                    "kernel", "max ns", "samples", "note", "file"]
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
