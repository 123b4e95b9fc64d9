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


# Issue 30's leftover: every text importer reads its figures through
# imp_figure()/imp_figure_count()/imp_check_stats(). Each case edits one
# figure of a real output so that it is one the tool cannot print; before,
# each of these was read (a negative latency, a row or line whose min is
# above its max skipped or dropped with a warning only, a negative count
# read as unknown, a bad count or deviation silently left out) or refused
# without a line.
CT = REAL / "machinekit-792-rpi2.txt"
OSLAT = REAL / "container-perf-tools-oslat-7cores.txt"
JD = REAL / "upboard-audio-tweaks-jitterdebugger-a.txt"
PTSEMA = REAL / "ptsematest-4cores-indented-zh.txt"
RTAI = SHARED / "rtai" / "kern-latency-display.log"
XENO = SHARED / "xenomai" / "latency-3.2-vm-overruns.log"
TABLE = SHARED / "seed" / "xenomai-latencies-ppc-summary.log"


@pytest.mark.parametrize("src,old,new,why", [
    # cyclictest sleeps to an absolute deadline: no negative latency
    (CT, "Min:     12 ", "Min:    -12 ",
     "Min '-12': negative, which the tool never prints"),
    (CT, "Max:      66", "Max:    nan",
     "Max 'nan': not a number (NaN or infinity)"),
    (CT, "C:  10000", "C:  18446744073709551615",
     "C '18446744073709551615': a count beyond what the tool can print"),
    (CT, "Max:      66", "Max:       6",
     "T: line: min <= avg <= max does not hold"),
    (OSLAT, "Minimum:\t 1 1 1", "Minimum:\t 1 -1 1",
     "Minimum '-1': negative, which the tool never prints"),
    # said on the last of the Minimum/Average/Maximum lines
    (OSLAT, "Maximum:\t 14 17 9", "Maximum:\t 14 0 9",
     "core 1: min <= avg <= max does not hold"),
    (OSLAT, "002 (us):\t 122 2697", "002 (us):\t 122 -2697",
     "bucket count '-2697': a negative count"),
    (JD, "Min:         4 Avg:    5.57 Max:        34",
     "Min:        -4 Avg:    5.57 Max:        34",
     "Min '-4': negative, which the tool never prints"),
    (JD, "C:     18286", "C:     99999999999999999999",
     "C '99999999999999999999': a count beyond what the tool can print"),
    (JD, "Avg:    5.63 Max:        14", "Avg:    5.63 Max:         1",
     "T: line: min <= avg <= max does not hold"),
    (PTSEMA, "Min    1, Cur    2, Avg    2, Max   13",
     "Min   -1, Cur    2, Avg    2, Max   13",
     "Min '-1': negative, which the tool never prints"),
    (PTSEMA, "Cycles 811035", "Cycles 18446744073709551615",
     "Cycles '18446744073709551615': a count beyond what the tool can print"),
    (PTSEMA, "Avg    3, Max   12", "Avg    3, Max    2",
     "the line: min <= avg <= max does not hold"),
    # RTAI prints negative latencies (those of the file are kept); a line
    # whose min is above its max was skipped with a warning
    (RTAI, "RTD|     -35087|     -35125|     -10587|      24400",
     "RTD|      35087|     -35125|     -10587|      24400",
     "RTD line: min <= avg <= max does not hold"),
    (RTAI, "|      19762|          0", "|      19762|         -1",
     "RTD column 6 '-1': a negative count"),
    (XENO, "RTD|      1.740|      2.933|     12.989|",
     "RTD|     13.740|      2.933|     12.989|",
     "RTD line: min <= avg <= max does not hold"),
    (XENO, "RTS|      1.175|      2.955|    374.075|      40|",
     "RTS|      1.175|      2.955|    374.075|     -40|",
     "RTS column 4 '-40': a negative count"),
    (XENO, "HSS|    avg|    599943|      2.200|      1.460",
     "HSS|    avg|    599943|      2.200|     -1.460",
     "HSS column 4 '-1.460': negative, which the tool never prints"),
    (XENO, "HSS|    avg|    599943|", "HSS|    avg|    9007199254740993|",
     "HSS column 2 '9007199254740993': a count beyond what the tool can print"),
    (TABLE, "Walnut | 24620| 25965| 32280| 1",
     "Walnut | 24620| 25965| 32280| -1",
     "column 5 '-1': a negative count"),
    (TABLE, "Yosemite | 5626| 5655| 17403| 0",
     "Yosemite | 5626| 5655| 1403| 0",
     "the row: min <= avg <= max does not hold"),
    (TABLE, "Ocotea | 5158| 5169| 10038| 0",
     "Ocotea | 5158| nan| 10038| 0",
     "column 3 'nan': not a number (NaN or infinity)"),
], ids=["cyclictest-negative-min", "cyclictest-nan-max",
        "cyclictest-count-2^64-1", "cyclictest-min-above-max",
        "oslat-negative-min", "oslat-min-above-max",
        "oslat-negative-bucket",
        "jitterdebugger-negative-min", "jitterdebugger-count-10^20",
        "jitterdebugger-min-above-max",
        "rttests-negative-min", "rttests-cycles-2^64-1",
        "rttests-min-above-max",
        "rtai-min-above-max", "rtai-negative-overruns",
        "xenomai-min-above-max", "xenomai-negative-overruns",
        "xenomai-negative-stddev", "xenomai-samples-2^53+1",
        "table-negative-lost", "table-min-above-max", "table-nan-avg"])
def test_every_text_importer_refuses_impossible_figures(tmp_path, src, old,
                                                        new, why):
    f, no = edited(tmp_path, src, old, new)
    p = run(["report", "--csv", f], check=1)
    assert "%s:%d: %s" % (f, no, why) in p.stderr, p.stderr
    # a failed file adds no run
    assert len(p.stdout.strip().splitlines()) <= 1, p.stdout


@pytest.mark.parametrize("src", [CT, OSLAT, JD, PTSEMA, RTAI, XENO, TABLE],
                         ids=lambda p: p.name)
def test_the_edited_outputs_import_unedited(src):
    p = run(["report", "--csv", src], check=0)
    assert len(p.stdout.strip().splitlines()) >= 2, p.stdout


def test_a_percentile_beyond_the_max_is_refused(tmp_path):
    """The breaker's trial: an rtlat result whose p99.9 was ten times its
    max was read, and the gate said 'cannot tell', then pass. A percentile
    outside min..max (beyond a histogram bucket's slack) is no figure any
    tool prints: refused with the file."""
    import json
    from conftest import ROOT, run
    src = ROOT / "tests" / "fixtures" / "report" / "suite-vm-01-latency-none.json"
    d = json.loads(src.read_text())
    s = d["summary"]["latency"]
    s["percentiles_ns"]["p99.9"] = 10 * s["max_ns"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    p = run(["report", str(bad)], check=1)
    assert "a percentile (%d ns) outside min" % (10 * s["max_ns"]) in p.stderr
    # the file as it was reads
    run(["report", str(src)], check=0)
