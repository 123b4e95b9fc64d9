# SPDX-License-Identifier: GPL-2.0-or-later
"""Figures no tool prints are refused (issue 30): each importer reads every
figure and count of a text line through imp_figure()/imp_figure_count()
(src/report/import/import.c), and every run any importer makes passes one
check (min <= avg <= max, no NaN). A refusal names the file and the line,
the figure and its text; exit status 1, no row. Each test edits a copy of
a real output in tests/fixtures."""
import pytest

from conftest import ROOT, run

REAL = ROOT / "tests" / "fixtures" / "real"
RTLA = REAL / "rtla-timerlat-hist-summary-patch.txt"
STRESSNG = REAL / "stress-ng-preempt-auto-none.txt"


def edited(tmp_path, src, old, new):
    text = src.read_text()
    assert old in text
    f = tmp_path / src.name
    f.write_text(text.replace(old, new, 1))
    lines = text.splitlines()
    no = next(i for i, l in enumerate(lines, 1) if old in l)
    return f, no


def test_the_fixtures_themselves_import():
    p = run(["report", "--csv", RTLA, STRESSNG], check=0)
    assert "timerlat" in p.stdout and "cyclic" in p.stdout


@pytest.mark.parametrize("old,new,why", [
    # a bucket count of 10^20, of 2^64 - 1: rtla's counters are 64-bit,
    # but no run counts beyond 2^53 samples
    ("  7             1 ", "  7    100000000000000000000 ",
     "histogram count '100000000000000000000': a count beyond what the tool can print"),
    ("  7             1 ", "  7    18446744073709551615 ",
     "histogram count '18446744073709551615': a count beyond what the tool can print"),
    # rtla's indexes and latencies are unsigned
    ("  6             1 ", "  -6            1 ",
     "histogram index '-6': negative, which the tool never prints"),
    ("  over:      9973", "  over:      -9973",
     "histogram count '-9973': a negative count"),
    ("  min:          6 ", "  min:         -6 ",
     "min '-6': negative, which the tool never prints"),
    ("  max:        428 ", "  max:        nan ",
     "max 'nan': not a number (NaN or infinity)"),
    ("  count:    10001 ", "  count:    1e20 ",
     "count '1e20': not a whole count"),
], ids=["count-1e20", "count-2^64-1", "negative-index", "negative-over",
        "negative-min", "nan-max", "count-exponent"])
def test_rtla_impossible_figures_are_refused(tmp_path, old, new, why):
    f, no = edited(tmp_path, RTLA, old, new)
    p = run(["report", f], check=1)
    assert "%s:%d: %s" % (f, no, why) in p.stderr, p.stderr
    assert "timerlat" not in p.stdout.lower()


@pytest.mark.parametrize("old,new,why", [
    ("mean: 23829.70 ns", "mean: nan ns",
     "mean 'nan': not a number (NaN or infinity)"),
    ("min: 2688 ns", "min: 1e23 ns",
     "min '1e23': an exponent, which the tool never prints"),
    ("max: 5701735 ns", "max: -1 ns",
     "max '-1': negative, which the tool never prints"),
    ("10000 samples", "18446744073709551615 samples",
     "samples '18446744073709551615': a count beyond what the tool can print"),
    ("99.90%:    1798633 ns", "99.90%:    -1798633 ns",
     "percentile '-1798633': negative, which the tool never prints"),
    # each figure possible, together not: min above max
    ("min: 2688 ns", "min: 9999999 ns",
     "instance 8828: min <= avg <= max does not hold"),
], ids=["nan-mean", "min-1e23", "max-negative", "samples-2^64-1",
        "negative-percentile", "min-above-max"])
def test_stressng_impossible_figures_are_refused(tmp_path, old, new, why):
    f, no = edited(tmp_path, STRESSNG, old, new)
    p = run(["report", f], check=1)
    assert "%s:%d: %s" % (f, no, why) in p.stderr, p.stderr
    assert "cyclic" not in p.stdout.lower()


SHARED = ROOT / "tests" / "fixtures" / "shared"


@pytest.mark.parametrize("src,old,new", [
    (SHARED / "cyclictest" / "quiet-2threads.txt", "Max:     103",
     "Max:    1e23"),
    (SHARED / "oslat" / "oslat-1cpu.txt", "002 (us):\t 1125",
     "002 (us):\t 1e20"),
    (SHARED / "xenomai" / "latency-3.2-vm-overruns.log",
     "|     21.765|", "|    2.1e+01|"),
], ids=["cyclictest", "oslat", "xenomai"])
def test_an_exponent_is_no_figure_of_any_text_importer(tmp_path, src, old,
                                                       new):
    """Every text importer reads its numbers through imp_num() or
    imp_count(): "1e23" was read as 1 (cyclictest's max 1 us, then "min <=
    avg <= max does not hold" without a line). No tool prints an exponent:
    refused, with the file and line."""
    f, no = edited(tmp_path, src, old, new)
    p = run(["report", f], check=1)
    assert "%s:%d: " % (f, no) in p.stderr, p.stderr
    assert "exponent" in p.stderr, p.stderr
