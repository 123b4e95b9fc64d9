# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat report on real published outputs (tests/fixtures/real): every
file is read with the format detected; at least 95 % of the figures the
files state are found, and no figure printed for a thread or a run differs
from the one its file states (a wrong figure is worse than a missing one).
The files and their figures are listed in tests/fixtures/real/README.md."""
import csv
import io
import re

import pytest

from conftest import ROOT, run

REAL = ROOT / "tests" / "fixtures" / "real"
UNITS = {"ns": 1, "us": 1000, "ms": 1000000}
FIGS = ("min", "avg", "max")


def table():
    """The README's 'Stated figures' rows, as dicts."""
    rows, on = [], False
    for line in (REAL / "README.md").read_text().splitlines():
        if line.startswith("## Stated figures"):
            on = True
            continue
        if not on or not line.startswith("| ") or line.startswith("| file"):
            continue
        f = [c.strip() for c in line.strip("|").split("|")]
        rows.append(dict(zip(("file", "run", "series", "thread", "min",
                              "avg", "max", "unit"), f)))
    return rows


def sources():
    """The files the README's 'Sources' table names."""
    names, on = [], False
    for line in (REAL / "README.md").read_text().splitlines():
        if line.startswith("## Sources"):
            on = True
        elif line.startswith("## "):
            on = False
        elif on and line.startswith("| ") and not line.startswith("| file"):
            names.append(line.strip("|").split("|")[0].strip())
    return names


_csv_cache = {}


def report_rows(name):
    """rtlat report --csv --threads of one file."""
    if name not in _csv_cache:
        p = run(["report", "--csv", "--threads", "--quiet", REAL / name])
        _csv_cache[name] = (p.returncode, list(csv.DictReader(io.StringIO(p.stdout))))
    return _csv_cache[name]


def matches(stated, row):
    """Is CSV @row the run/series/thread the table row @stated names?"""
    r = stated["run"]
    if r.isdigit():
        if not row["label"].endswith(" #" + r):
            return False
    elif r != "-" and row["test"] != r:
        return False
    if stated["series"] != "-" and row["series"] != stated["series"]:
        return False
    return row["thread"] == stated["thread"]


def value(s, unit):
    return float(s) * UNITS[unit]


def figure_rows(rows, stated):
    """The rows whose figures a file states: each thread, and a run's own
    row when it has no thread rows or the file states its figures too."""
    runs = {}
    for r in rows:
        runs.setdefault((r["label"], r["test"], r["series"]), []).append(r)
    out = []
    for rs in runs.values():
        threads = [r for r in rs if r["thread"] != "all"]
        own = [r for r in rs if r["thread"] == "all" and
               any(matches(s, r) for s in stated)]
        out += threads + own if threads else rs
    return out


def test_every_file_has_a_source_and_figures():
    files = sorted(p.name for p in REAL.iterdir() if p.name != "README.md")
    assert files == sorted(sources())
    stated = {r["file"] for r in table()}
    assert stated == set(files), set(files) ^ stated
    assert len(files) >= 40, "the corpus holds %d files" % len(files)


def test_stated_figures_found():
    found = total = 0
    missing = []
    for s in table():
        code, rows = report_rows(s["file"])
        cand = [r for r in rows if matches(s, r)]
        for k in FIGS:
            if s[k] in ("-", "(derived)"):
                continue
            total += 1
            want = value(s[k], s["unit"])
            if any(r[k + "_ns"] and abs(float(r[k + "_ns"]) - want) < 0.5
                   for r in cand):
                found += 1
            else:
                missing.append((s["file"], s["run"], s["series"],
                                s["thread"], k, s[k]))
    print("real corpus: %d of %d stated figures found (%.1f %%)"
          % (found, total, 100.0 * found / total))
    assert found >= 0.95 * total, missing


def test_no_wrong_figure_is_printed():
    wrong = []
    stated = table()
    for name in sorted({s["file"] for s in stated}):
        code, rows = report_rows(name)
        mine = [s for s in stated if s["file"] == name]
        for r in figure_rows(rows, mine):
            ss = [s for s in mine if matches(s, r)]
            for k in FIGS:
                if not r[k + "_ns"]:
                    continue
                if not ss:
                    wrong.append((name, r["label"], r["series"], r["thread"],
                                  k, r[k + "_ns"], "no such run in the table"))
                    continue
                s = ss[0]
                if s[k] == "(derived)":
                    continue
                if s[k] == "-" or abs(float(r[k + "_ns"]) -
                                      value(s[k], s["unit"])) >= 0.5:
                    wrong.append((name, r["label"], r["series"], r["thread"],
                                  k, r[k + "_ns"], s[k]))
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(sources()))
def test_file_is_read(name):
    code, rows = report_rows(name)
    assert code == 0 and rows, name
