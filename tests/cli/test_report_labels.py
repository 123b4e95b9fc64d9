# SPDX-License-Identifier: GPL-2.0-or-later
"""One rule for every label on every path: a label with a control
character given on the command line (suite --label, report/db
--set-label) is refused, and the refusal does not write the escape
sequence; one read from a result file is shown with each control
character as a blank in text, Markdown, CSV, HTML, compare and db list;
a CSV cell a spreadsheet would take for a formula starts with a quote."""
import csv
import io
import json
import re
import shutil

import pytest

from conftest import ROOT, run

OWN = ROOT / "tests" / "fixtures" / "report"
NONE = OWN / "suite-vm-01-latency-none.json"
EVIL = "=1+2\nb\x1b[31mred\u009b1m\x7f\tend"
SHOWN = "=1+2 b [31mred 1m  end"
CTRL = re.compile("[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f]")


def labelled(tmp_path, label, name="evil.json"):
    d = json.loads(NONE.read_text())
    d["label"] = label
    p = tmp_path / name
    p.write_text(json.dumps(d))
    return p


BAD = ["a\nb\x1b[31m", "a\tb", "\x1b[2J", "a\u009b31m", ""]


@pytest.mark.parametrize("value", BAD)
def test_suite_label_refused(value, tmp_path):
    p = run(["suite", "--label", value, "-o", tmp_path / "o"], check=1)
    assert "for --label: expected a label" in p.stderr
    assert not CTRL.search(p.stderr)          # shown as \n, \x1b, not obeyed
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("cmd", [["report"], ["db", "add"]])
@pytest.mark.parametrize("value", BAD)
def test_set_label_refused(cmd, value, tmp_path):
    p = run(cmd + ["--db", tmp_path / "h.db", "--set-label", value, NONE],
            check=1)
    assert "for --set-label: expected a label" in p.stderr
    assert not CTRL.search(p.stderr)
    assert p.stdout == ""


def test_refusal_shows_the_value():
    p = run(["report", "--set-label", "a\nb\x1b[31m", NONE], check=1)
    assert "invalid value 'a\\nb\\x1b[31m' for --set-label" in p.stderr


def test_suite_label_of_letters_accepted(tmp_path):
    """The check refuses control characters only: a label like the seed's
    is accepted (the suite then stops later, at its --tests)."""
    p = run(["suite", "--label", "Ocotea iPipe 1.0-01 é", "--tests", "nosuch",
             "-o", tmp_path / "o"], check=1)
    assert "--label" not in p.stderr


def test_file_label_text_markdown(tmp_path):
    f = labelled(tmp_path, EVIL)
    out = run(["report", f], check=0).stdout
    assert not CTRL.search(out)
    assert out.splitlines()[2].startswith(SHOWN + "|")   # one row, not split
    md = run(["report", "--markdown", f], check=0).stdout
    assert not CTRL.search(md)
    row = [l for l in md.splitlines() if l.startswith("| =1+2")]
    assert len(row) == 1 and "b \\[31mred 1m  end" in row[0]


def test_file_label_csv_and_formula(tmp_path):
    f = labelled(tmp_path, EVIL)
    out = run(["report", "--csv", f], check=0).stdout
    assert not CTRL.search(out)
    r = list(csv.DictReader(io.StringIO(out)))
    assert [x["label"] for x in r] == ["'" + SHOWN]
    for lead in "=+-@":
        g = labelled(tmp_path, lead + "cmd|' /C calc'!A0", "f.json")
        r = list(csv.DictReader(io.StringIO(
            run(["report", "--csv", g], check=0).stdout)))
        assert r[0]["label"] == "'" + lead + "cmd|' /C calc'!A0"
    # a plain label and numbers (also negative ones) stay as they are
    g = labelled(tmp_path, "board 1", "g.json")
    r = list(csv.DictReader(io.StringIO(run(["report", "--csv", g], check=0).stdout)))
    assert r[0]["label"] == "board 1" and int(r[0]["min_ns"]) > 0


def test_file_label_html(tmp_path):
    f = labelled(tmp_path, EVIL)
    out = tmp_path / "r.html"
    run(["report", "--html", out, f], check=0, env={"GNUPLOT": "/nonexistent",
                                                     "PATH": "/usr/bin:/bin"})
    html = out.read_text()
    assert not CTRL.search(html)
    assert "b [31mred 1m  end" in html


def test_file_label_compare_and_db_list(tmp_path):
    f = labelled(tmp_path, EVIL)
    g = labelled(tmp_path, "ok", "ok.json")
    for fmt in ([], ["--markdown"], ["--csv"]):
        out = run(["compare"] + fmt + [f, g], check=0).stdout
        assert not CTRL.search(out), fmt
        assert "b [31mred 1m  end" in out
    db = tmp_path / "h.db"
    run(["db", "add", "--db", db, f], check=0)
    out = run(["db", "list", "--db", db], check=0).stdout
    assert not CTRL.search(out) and "b [31mred 1m  end" in out
