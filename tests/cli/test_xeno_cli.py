# SPDX-License-Identifier: GPL-2.0-or-later
"""Xenomai 3's latency command line and layouts (the "latency" link and
rtlat latency --xenomai; man rtlat-latency, XENOMAI COMPATIBILITY).

Layouts are compared with real Xenomai 3 output, not with rtlat's idea of
it:
 - FIXTURES/xenomai/latency-3.2-vm-overruns.log: Xenomai 3.2.2
   "latency -s -T 60", published in a thesis' documentation (see
   tests/fixtures/shared/README.md): its RTT, RTH, RTD, HSH, HSS, "---|"
   and RTS lines;
 - no published raw "-h" or "-g" output was found (the one page showing
   "latency -h -t 1 -T 5", hip24.github.io/Masterarbeit/.../latency,
   re-typed it as Markdown tables): the HSD rows and the gnuplot dump are
   checked against the format strings of Xenomai 3's source,
   testsuite/latency/latency.c (xenomai-ci/xenomai, dump_histogram():
   "---|--param|----range-|--samples", "HSD|    %s| %3d -%3d | %8d";
   dump_histo_gnuplot(): "# %.2ld:%.2ld:%.2ld (%s, %Ld us period,
   priority %d)", "# %11s|%11s|%11s|%8s|%6s|", "%g 1", "%g %d").
No absolute latency is asserted.
"""
import json
import re
import signal
import subprocess
import time

import pytest

from conftest import FIXTURES, RTLAT, load_json_strict, run

REAL = (FIXTURES / "xenomai" / "latency-3.2-vm-overruns.log").read_text()


def real_line(prefix):
    return next(l for l in REAL.splitlines() if l.startswith(prefix))


def pipes(line):
    return [i for i, c in enumerate(line) if c == "|"]


def same_shape(ours, real):
    """Same '|' positions, and each field a number of the same kind
    (3 decimals, or whole) where the real line has one."""
    assert pipes(ours) == pipes(real), (ours, real)
    for a, b in zip(ours.split("|")[1:], real.split("|")[1:]):
        if re.fullmatch(r"\s*-?\d+\.\d{3}", b):
            assert re.fullmatch(r"\s*-?\d+\.\d{3}", a), (ours, real)
        elif re.fullmatch(r"\s*\d+", b):
            assert re.fullmatch(r"\s*\d+", a), (ours, real)
        else:
            assert len(a) == len(b), (ours, real)


@pytest.fixture
def link(tmp_path):
    l = tmp_path / "latency"
    l.symlink_to(RTLAT)
    return l


def xrun(link, args, check=0, timeout=120):
    p = subprocess.run([str(link)] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=timeout)
    if check is not None:
        assert p.returncode == check, (p.returncode, p.stdout, p.stderr)
    return p


def lines(out, prefix):
    return [l for l in out.splitlines() if l.startswith(prefix)]


@pytest.mark.measures
def test_layouts_match_real_xenomai3(link, tmp_path):
    j = tmp_path / "r.json"
    p = xrun(link, ["-T", "3", "-s", "-l", "2", "--json", j])
    out = p.stdout
    # Xenomai's banner lines, then "warming up..."
    for l in ("== Sampling period: 100 us", "== All results in microseconds",
              "warming up..."):
        assert l in out.splitlines()
    assert "== Test mode: periodic user-mode task" in out
    # RTT/RTH every 2 data lines; RTH, HSH and the RTS header as Xenomai's
    assert lines(out, "RTH|") == [real_line("RTH|")] * 2
    rtt = lines(out, "RTT|")
    assert len(rtt) == 2
    for l in rtt:
        assert re.sub(r"\d\d:\d\d:\d\d", "00:00:01", l) == real_line("RTT|")
    rtd = lines(out, "RTD|")
    assert len(rtd) == 3
    for l in rtd:
        same_shape(l, real_line("RTD|"))
        assert l.split("|")[5].strip() == "0"     # msw: Linux threads
    assert lines(out, "HSH|") == [real_line("HSH|")]
    hss = lines(out, "HSS|")
    assert [l.split("|")[1] for l in hss] == ["    min", "    avg", "    max"]
    for l in hss:
        same_shape(l, real_line("HSS|"))
    # the RTS line, after its "---|" header, is the last line of stdout
    assert out.splitlines()[-2] == real_line("---|")
    rts = out.splitlines()[-1]
    same_shape(rts, real_line("RTS|"))
    assert rts.endswith("    00:00:03/00:00:03")
    # the figures are rtlat's
    d = load_json_strict(j)
    s = d["summary"]["latency"]
    assert int(hss[1].split("|")[2]) == s["samples"]
    assert int(hss[0].split("|")[2]) == 3 == int(hss[2].split("|")[2])
    assert int(rts.split("|")[4]) == s["overruns"]
    assert float(rts.split("|")[1]) * 1000 == s["min_ns"]
    assert float(rts.split("|")[3]) * 1000 == s["max_ns"]
    # Xenomai's threads: one sampler, pinned to CPU 0 (its code's default)
    assert [t["cpu"] for t in d["threads"]] == [0]


@pytest.mark.measures
def test_histograms_as_xenomai_with_rtlat_figures(link, tmp_path):
    j = tmp_path / "r.json"
    # 5 cells of 1 us: nearly every sample beyond the last cell
    p = xrun(link, ["-T", "2", "-h", "-H", "5", "-q", "--json", j])
    out = p.stdout.splitlines()
    d = load_json_strict(j)
    s = d["summary"]["latency"]
    lin = s["histogram_linear"]
    assert lin["nbuckets"] == 5 and lin["width_ns"] == 1000
    assert out.count("---|--param|----range-|--samples") == 3
    assert not lines(p.stdout, "RTD|")          # -q with -T
    rows = {"min": [], "avg": [], "max": []}
    for l in lines(p.stdout, "HSD|"):
        f = l.split("|")
        assert len(f) == 4 and f[1].startswith("    ")
        rows[f[1].strip()].append(l)
    for kind, rr in rows.items():
        for l in rr:
            # Xenomai's "HSD|    %s| %3d -%3d | %8d"; rtlat's overflow and
            # underflow rows keep its four fields
            m = re.fullmatch(r"HSD\|    (min|avg|max)\| ( {0,2}\d+) -( {0,2}\d+) \| ( {0,7}\d+)", l)
            if m:
                assert len(m.group(2)) >= 3 and len(m.group(4)) >= 8
                lo, hi = int(m.group(2)), int(m.group(3))
                assert hi == lo + 1 and 0 <= lo < 5    # no merged last cell
            else:
                assert re.fullmatch(
                    r"HSD\|    (min|avg|max)\|(   <  0  |  >=  5  )\| ( {0,7}\d+)", l), l
    total = lambda rr: sum(int(l.split("|")[3]) for l in rr)
    # every sample once; the overflow in its own row, as the result has it
    assert total(rows["avg"]) == s["samples"]
    ovf = [l for l in rows["avg"] if ">=" in l]
    assert lin["overflow"] == (int(ovf[0].split("|")[3]) if ovf else 0)
    # min and max: one value per 1 s interval, as Xenomai's
    assert total(rows["min"]) == 2 == total(rows["max"])


@pytest.mark.measures
def test_gnuplot_dump_as_xenomai(link, tmp_path):
    j = tmp_path / "r.json"
    p = xrun(link, ["-T", "1", "-q", "-g", "-", "-B", "2000", "--json", j])
    d = load_json_strict(j)
    s = d["summary"]["latency"]
    lin = s["histogram_linear"]
    assert lin["width_ns"] == 2000 and lin["nbuckets"] == 300
    out = p.stdout
    g = out[out.index("\n# 00:00:01 (") + 1:].splitlines()
    assert g[0] == "# 00:00:01 (periodic user-mode task, 100 us period, priority 99)"
    assert g[1] == "# ----lat min|----lat avg|----lat max|-overrun|---msw|"
    assert re.fullmatch(r"# ( *-?\d+\.\d{3}\|){3} {0,7}\d+\| {0,5}\d+\|", g[2])
    data = [l for l in g[3:] if not l.startswith("#")]
    pairs = [l.split() for l in data]
    assert all(len(x) == 2 for x in pairs)
    x = [float(a) for a, _ in pairs]
    c = [int(b) for _, b in pairs]
    # a 1 at both ends; cell centres in us, 2 us apart; counts + 1
    assert c[0] == 1 and c[-1] == 1
    assert x[1] == x[0] + 1.0 and x[-1] == x[-2] + 1.0
    assert all(abs(b - a - 2.0) < 1e-9 for a, b in zip(x[1:-1], x[2:-1]))
    cells = sum(n - 1 for n in c[1:-1])
    assert cells + lin["overflow"] + lin["underflow"] == s["samples"]
    if lin["overflow"] or lin["underflow"]:
        assert any(l.startswith("# rtlat: %d samples below 0 us and %d at or above 600 us"
                                % (lin["underflow"], lin["overflow"]))
                   for l in g)


@pytest.mark.measures
def test_report_reads_what_it_writes(link, tmp_path):
    j = tmp_path / "r.json"
    t = tmp_path / "x.txt"
    p = xrun(link, ["-T", "2", "-h", "-s", "-B", "500", "--json", j])
    t.write_text(p.stdout)
    r = run(["report", "--csv", t, j], check=0)
    rows = [l.split(",") for l in r.stdout.splitlines()]
    head = rows[0]
    a, b = (dict(zip(head, x)) for x in rows[1:3])
    assert a["tool"] == "rtlat (text output)"
    for k in ("samples", "min_ns", "max_ns", "misses", "p50_ns", "p99_ns"):
        assert a[k] == b[k], (k, a, b)
    assert abs(float(a["avg_ns"]) - float(b["avg_ns"])) <= 1.0
    # without its RTP lines the text's percentiles come from its HSD
    # rows: cells of -B 500 ns (the "== Histograms: ... cells of 0.500 us"
    # line), not the us Xenomai's own rows are read in
    t.write_text("".join(l + "\n" for l in p.stdout.splitlines()
                         if not l.startswith("RTP|")))
    r = run(["report", "--csv", t], check=0)
    c = dict(zip(head, r.stdout.splitlines()[1].split(",")))
    assert c["samples"] == b["samples"]
    p50, ref = int(c["p50_ns"]), int(b["p50_ns"])
    assert abs(p50 - ref) <= 500 + ref // 50, (p50, ref)


def test_bad_and_unsupported_options(link):
    p = xrun(link, ["-D", "0"], check=1)
    assert "-D: in Xenomai 3's help" in p.stderr
    assert "Usage: rtlat latency --xenomai" in p.stderr
    p = xrun(link, ["-m", "5"], check=1)
    assert "unknown option '-m'" in p.stderr
    p = xrun(link, ["-t", "3"], check=1)
    assert "invalid value '3' for -t" in p.stderr
    p = xrun(link, ["-p", "2000000"], check=1)
    assert "at most 1 s" in p.stderr
    p = xrun(link, ["-b", "-T", "1"], check=None)
    if "built for Xenomai" not in run(["--version"], check=0).stdout:
        assert p.returncode == 1
        assert "-b (break upon mode switch): this rtlat is not built for Xenomai Cobalt" in p.stderr
    p = xrun(link, ["--help"], check=0)
    assert "Usage: rtlat latency" in p.stdout
    # rtlat latency --xenomai is the same command line
    p = run(["latency", "--xenomai", "-D", "0"], check=1)
    assert "rtlat latency: error: -D:" in p.stderr


def timerlat_present():
    for f in ("/sys/kernel/tracing/available_tracers",
              "/sys/kernel/debug/tracing/available_tracers"):
        try:
            with open(f) as fh:
                return "timerlat" in fh.read()
        except OSError:
            pass
    return None


@pytest.mark.parametrize("mode", ["1", "2"])
def test_kernel_modes_need_timerlat(link, mode):
    if timerlat_present() is not False:
        pytest.skip("the kernel has timerlat (or tracefs cannot be read)")
    p = xrun(link, ["-t", mode, "-T", "1"], check=1)
    assert "this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER)" in p.stderr
    assert p.stdout == ""


@pytest.mark.measures
def test_l0_no_headers_and_f_said(link):
    p = xrun(link, ["-T", "2", "-l", "0", "-f"])
    assert not lines(p.stdout, "RTT|") and not lines(p.stdout, "RTH|")
    assert len(lines(p.stdout, "RTD|")) == 2
    assert "-f: rtlat has no I-pipe tracer" in p.stderr


@pytest.mark.measures
def test_q_without_T_is_ignored_as_xenomai(link):
    pr = subprocess.Popen([str(link), "-q"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 30:
            time.sleep(0.5)
            if pr.poll() is not None:
                break
            if time.monotonic() - t0 > 3.5:
                pr.send_signal(signal.SIGINT)
                break
        out, err = pr.communicate(timeout=60)
    finally:
        if pr.poll() is None:
            pr.kill()
    assert "-q requires -T, ignoring -q" in err
    assert lines(out, "RTD|")
    rts = out.splitlines()[-1]
    assert rts.startswith("RTS|")
    # no duration asked for: the requested time is the measured one
    act, req = rts.split("|")[-1].strip().split("/")
    assert act == req
