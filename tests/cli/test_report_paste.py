# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat report reads what users paste (docs/report.md, "Pasted text"):
a real output wrapped the ways mail clients, LAVA logs, terminals and
shells wrap it gives the same figures as the output itself; several runs
and tools in one file each become runs; JSON is found inside text; what
is not recognized names the closest line. Also: rtlat's own cyclic --json
read back with its ns figures, overruns and percentiles, and the rt-tests
JSON kinds of the other tools."""
import csv
import io
import json

import pytest

from conftest import ROOT, needs_root, run

REAL = ROOT / "tests" / "fixtures" / "real"
JETSON = REAL / "jetson-tx2-5threads.txt"     # 5 threads, a prompt line
FIGS = ("thread", "samples", "min_ns", "avg_ns", "max_ns")


def rows(path, *opts):
    p = run(["report", "--csv", "--threads", "--quiet"] + list(opts) + [path])
    assert p.returncode == 0, p.stderr
    return list(csv.DictReader(io.StringIO(p.stdout)))


def figures(path, *opts):
    return [tuple(r[k] for k in FIGS) for r in rows(path, *opts)]


def lines(path):
    return path.read_text().splitlines()


WRAPS = {
    "crlf": lambda ls: "\r\n".join(ls) + "\r\n",
    "mail": lambda ls: "".join("> " + l + "\n" for l in ls),
    "mail-twice": lambda ls: "".join(">> " + l + "\n" for l in ls),
    "lava": lambda ls: "".join("| " + l + "\n" for l in ls) +
            "<LAVA_SIGNAL_ENDRUN 0_cyclictest 1234_1.1.1>\n",
    "ansi": lambda ls: "".join("\x1b[1;32m" + l + "\x1b[0m\n" for l in ls),
    "notes": lambda ls: "Hi all,\n\nthe board gives:\n\n" + "\n".join(ls) +
             "\n\nAny idea why the max is that high?\nThanks\n",
}


@pytest.mark.parametrize("wrap", sorted(WRAPS))
def test_wrapped_output_gives_the_same_figures(tmp_path, wrap):
    want = figures(JETSON)
    assert len(want) == 6       # the run and its 5 threads
    f = tmp_path / ("pasted-%s.txt" % wrap)
    f.write_bytes(WRAPS[wrap](lines(JETSON)).encode())
    assert figures(f) == want


def test_lines_broken_by_a_mail_client_are_joined(tmp_path):
    """A T: line broken before its Max value, or before "Max:"."""
    want = figures(JETSON)
    out = []
    for i, l in enumerate(lines(JETSON)):
        if l.startswith("T:"):
            cut = l.index("Max:") + (4 if i % 2 else 0)
            out += [l[:cut].rstrip(), "   " + l[cut:].lstrip()]
        else:
            out.append(l)
    f = tmp_path / "broken.txt"
    f.write_text("\n".join(out) + "\n")
    assert figures(f) == want


@pytest.mark.parametrize("prompt", ["[root@localhost ~]# ", "root@board:~# ",
                                    "user@host:~/rt-tests$ ", "/ # ",
                                    "sh-4.2# ", "$ ", "+ "])
def test_a_prompt_first_is_text_not_json(tmp_path, prompt):
    body = [l for l in lines(JETSON) if not l.startswith("root@")]
    f = tmp_path / "prompt.txt"
    f.write_text(prompt + "cyclictest -t 5 -p 80 -n\n" + "\n".join(body) + "\n")
    assert figures(f) == figures(JETSON)


@pytest.mark.parametrize("prompt", ["[root@localhost ~]# ./oslat -D 3",
                                    "[root@localhost ~]#",
                                    "[user@host rt-tests]$ sudo ./foo"])
def test_a_bracketed_prompt_before_nothing_readable_is_no_json(tmp_path,
                                                               prompt):
    """A paste whose first line is a bracketed prompt is text: when
    nothing in it is read, the error is the text one (the formats tried,
    no figures), not "invalid JSON (truncated...)" because it starts with
    '['; exit 1."""
    f = tmp_path / "prompt.txt"
    f.write_text(prompt + "\nthe test hung, no output\n")
    p = run(["report", f], check=1)
    assert "JSON" not in p.stderr, p.stderr
    assert "%s: format not recognized" % f in p.stderr, p.stderr


def qp_encode(data):
    """A mail body in quoted-printable, as a board farm's mailer writes
    it: lines over 76 characters broken with a soft line break "=",
    "=" as "=3D", blanks at a line's end as "=20"."""
    import quopri
    return quopri.encodestring(data)


def test_quoted_printable_mail_gives_the_same_figures(tmp_path):
    """A cyclictest paste (T: lines 80 characters wide: each broken with a
    soft line break) and a Xenomai log ("==" banners as "=3D=3D", its RTD
    lines broken): decoded before detection, the same figures; a line is
    still named by its number in the file as mailed."""
    f = tmp_path / "jetson-qp.txt"
    enc = qp_encode(JETSON.read_bytes() + b"trailing blanks   \n")
    assert b"=\n" in enc and b"=20\n" in enc
    f.write_bytes(enc)
    assert figures(f) == figures(JETSON)
    xeno = ROOT / "tests" / "fixtures" / "shared" / "xenomai" / \
        "latency-3.2-vm-overruns.log"
    g = tmp_path / "xenomai-qp.txt"
    enc = qp_encode(xeno.read_bytes())
    assert b"=3D=3D Sampling period" in enc
    g.write_bytes(enc)
    assert figures(g) == figures(xeno)
    assert figures(g)[0][1:] == ("599943", "1175", "2955.0", "374075")
    # the one garbled RTD line, at its line of the mailed file
    no = next(i for i, l in enumerate(enc.decode().splitlines(), 1)
              if l.startswith("RTD|      1.592|      2.847|     82.516|"))
    p = run(["report", g])
    assert "%s:%d: unreadable RTD line skipped" % (g, no) in p.stderr


def test_an_equals_sign_is_no_quoted_printable(tmp_path):
    """Text with a bare '=' (a note "max = 66 us", a Xenomai "==" banner)
    is read as it is: "=20" in it stays."""
    f = tmp_path / "notes.txt"
    f.write_text("max = 66 us, tag =20 \n" + JETSON.read_text())
    assert figures(f) == figures(JETSON)


def test_runs_of_several_tools_in_one_file(tmp_path):
    """Two cyclictest runs and a stress-ng run between notes: three runs,
    each with the figures of its own file."""
    a, b = REAL / "machinekit-792-rpi2.txt", REAL / "machinekit-792-mksocfpga.txt"
    s = REAL / "stress-ng-lkml-preempt-none-reply.txt"
    f = tmp_path / "mixed.txt"
    f.write_text("First the RPi2:\n\n" + a.read_text() +
                 "\nthen the SoC board:\n\n" + b.read_text() +
                 "\nand stress-ng on it:\n\n" + s.read_text() + "\nregards\n")
    got = rows(f)
    lat = [r for r in got if r["test"] == "latency" and r["thread"] == "0"]
    assert [(r["min_ns"], r["max_ns"]) for r in lat] == \
        [(r["min_ns"], r["max_ns"]) for r in rows(a) + rows(b) if r["thread"] == "0"]
    cyc = [r for r in got if r["test"] == "cyclic" and r["thread"] == "0"]
    assert [(r["min_ns"], r["max_ns"], r["p99.9_ns"]) for r in cyc] == \
        [(r["min_ns"], r["max_ns"], r["p99.9_ns"]) for r in rows(s) if r["thread"] == "0"]


def test_rtla_hist_after_another_tools_run(tmp_path):
    """A cyclictest run, then an rtla timerlat hist with its ALL summary:
    the ALL figures belong to rtla's runs only (the cyclictest run before
    them has no series yet; reading it as one crashed the importer)."""
    c = REAL / "jetson-tx2-5threads.txt"
    h = REAL / "rtla-timerlat-hist-summary-patch.txt"
    f = tmp_path / "mixed.txt"
    f.write_text(c.read_text() + "\n# rtla timerlat hist -c 0-1 -d 10s\n" +
                 "".join(h.read_text().splitlines(True)[1:]))
    got = rows(f)
    assert [tuple(r[k] for k in FIGS) for r in got if r["test"] == "latency"] \
        == figures(c)
    tl = {(r["series"], r["thread"]): (r["samples"], r["min_ns"], r["avg_ns"],
                                       r["max_ns"])
          for r in got if r["test"] == "timerlat"}
    # the ALL lines of the file: count 20002, min 6/18, avg 140/159,
    # max 428/450 us
    assert tl[("irq", "all")] == ("20002", "6000", "140000.0", "428000")
    assert tl[("thread", "all")] == ("20002", "18000", "159000.0", "450000")
    assert tl[("irq", "1")] == ("10001", "8000", "95000.0", "341000")


def test_json_inside_text(tmp_path):
    """A JSON document after notes and quoting is read as JSON."""
    src = REAL / "ptsematest-riscv64-result-zh.json"
    f = tmp_path / "mail.txt"
    f.write_text("Here is result.json:\n\n" +
                 "".join("> " + l + "\n" for l in lines(src)) + "\n-- \nme\n")
    assert figures(f) == figures(src)


def test_nothing_recognized_names_the_closest_line(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("hello\nlatency was bad: min 3 avg 5 max 900 us\nbye\n")
    p = run(["report", f])
    assert p.returncode == 1
    assert "format not recognized (tried: rtlat, cyclictest" in p.stderr
    assert "the closest line is 2: 'latency was bad: min 3 avg 5 max 900 us'" in p.stderr


def test_truncated_json_is_still_named(tmp_path):
    src = (REAL / "ptsematest-riscv64-result-zh.json").read_text()
    f = tmp_path / "cut.json"
    f.write_text(src[:len(src) // 2])
    p = run(["report", f])
    assert p.returncode == 1 and "invalid JSON (truncated" in p.stderr


def test_summary_only_footer(tmp_path):
    """The '# Min/Avg/Max Latencies' footer alone: per-thread figures."""
    f = tmp_path / "footer.txt"
    f.write_text("# Min Latencies: 00003 00004\n# Avg Latencies: 00005 00006\n"
                 "# Max Latencies: 00020 00031\n")
    got = {r["thread"]: (r["min_ns"], r["avg_ns"], r["max_ns"]) for r in rows(f)}
    assert got["0"] == ("3000", "5000.0", "20000")
    assert got["1"] == ("4000", "6000.0", "31000")


def test_many_threads(tmp_path):
    """T:10 and above (cyclictest prints "T:%2d") are threads too."""
    t = ["T:%2d (%5d) P:99 I:1000 C:   1000 Min:      %d Act:    5 Avg:    6 Max:      %d"
         % (i, 1000 + i, 1 + i % 3, 20 + i) for i in range(12)]
    f = tmp_path / "smp.txt"
    f.write_text("\n".join(t) + "\n")
    got = {r["thread"]: r["max_ns"] for r in rows(f) if r["thread"] != "all"}
    assert got == {str(i): str((20 + i) * 1000) for i in range(12)}


def rt_json(tool, thread):
    return {"file_version": 1, "cmdline:": tool + " -t 2 --json=x.json",
            "rt_test_version:": "2.80", "return_code": 0,
            "sysinfo": {"sysname": "Linux", "nodename": "n", "release": "6.6",
                        "version": "#1", "machine": "x86_64"},
            "num_threads": len(thread), "thread": thread}


@pytest.mark.parametrize("tool", ["signaltest", "cyclicdeadline"])
def test_rt_tests_json_per_thread(tmp_path, tool):
    th = {"0": {"cycles": 1000, "min": 3, "max": 41, "avg": 7.25, "cpu": 0},
          "1": {"cycles": 900, "min": 2, "max": 17, "avg": 5.5, "cpu": 1}}
    f = tmp_path / (tool + ".json")
    f.write_text(json.dumps(rt_json(tool, th)))
    got = {r["thread"]: r for r in rows(f)}
    for k, v in th.items():
        assert (got[k]["samples"], got[k]["min_ns"], got[k]["max_ns"]) == \
            (str(v["cycles"]), str(v["min"] * 1000), str(v["max"] * 1000))
        assert float(got[k]["avg_ns"]) == v["avg"] * 1000
    assert got["0"]["tool"] == tool + " 2.80"


@pytest.mark.parametrize("tool", ["pmqtest", "sigwaittest", "svsematest"])
def test_rt_tests_json_sender_receiver(tmp_path, tool):
    th = {"0": {"sender": {"cpu": 0, "priority": 99, "samples": 5000, "interval": 100},
                "receiver": {"cpu": 0, "priority": 99, "min": 4, "avg": 6.5, "max": 33}}}
    f = tmp_path / (tool + ".json")
    f.write_text(json.dumps(rt_json(tool, th)))
    r = [r for r in rows(f) if r["thread"] == "0"][0]
    assert (r["test"], r["samples"], r["min_ns"], r["max_ns"]) == \
        ("handshake", "5000", "4000", "33000")


def test_oslat_v010_core_i_rows(tmp_path):
    """oslat v0.1.0 names the core row core_i."""
    src = (REAL / "container-perf-tools-oslat-7cores.txt").read_text()
    f = tmp_path / "oslat-010.txt"
    f.write_text(src.replace("        Core:", "      core_i:").replace("oslat V 1.10\n", ""))
    assert figures(f) == figures(REAL / "container-perf-tools-oslat-7cores.txt")


@needs_root
def test_rtlat_cyclic_json_every_figure(tmp_path):
    """rtlat cyclic --json: min/max in ns, overruns and percentiles from
    each thread's latency object, not the whole-us rt-tests fields."""
    out = tmp_path / "c.json"
    p = run(["cyclic", "-q", "-t", "1", "-i", "500", "-D", "3", "--json=%s" % out])
    assert p.returncode == 0, p.stderr
    lat = json.loads(out.read_text())["thread"]["0"]["latency"]
    r = [r for r in rows(out) if r["thread"] == "0"][0]
    assert int(r["min_ns"]) == lat["min_ns"] and int(r["max_ns"]) == lat["max_ns"]
    assert int(r["misses"]) == lat["overruns"] and r["miss_kind"] == "overruns"
    for k in ("p50", "p90", "p99"):
        assert int(r[k + "_ns"]) == lat["percentiles_ns"][k]


def test_xenomai_gnuplot_dump(tmp_path):
    """latency -g: RTH/RTS lines commented with '#' above the histogram
    rows give the RTS figures of the log."""
    log = REAL / "xenomai-2.6-robot-guide-latency.txt"
    ls = lines(log)
    f = tmp_path / "latency.gnuplot"
    f.write_text("".join("# %s\n" % l for l in ls if l.startswith(("RTT|", "RTH|", "RTS|"))) +
                 "".join("%d.5 %d\n" % (i, 1000 >> i) for i in range(10)))
    want = [(r["min_ns"], r["avg_ns"], r["max_ns"]) for r in rows(log)]
    assert [(r["min_ns"], r["avg_ns"], r["max_ns"]) for r in rows(f)] == want


def test_xenomai_3_gnuplot_dump_as_published():
    """Xenomai 3.1 latency -g's dump as a user published it (no RTH/RTS
    tags: "# hh:mm:ss (mode, period, priority)", a "# ----lat min|"
    header and a "#" figures row, xeno-config --info lines, then "x
    count" rows) was "no run found": the figures of its row, its run
    time, period and overruns are read; its histogram rows are said not
    read, at the first of them."""
    f = REAL / "xenomai-3.1-gnuplot-dump-zh.txt"
    p = run(["report", "--csv", f])
    r = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(r) == 1
    r = r[0]
    assert (r["test"], r["min_ns"], r["avg_ns"], r["max_ns"],
            r["miss_kind"], r["misses"]) == \
        ("latency", "343", "1078.0", "23110", "overruns", "0")
    assert r["duration_ns"] == str((211 * 3600 + 4 * 60 + 55) * 10**9)
    assert "%s:12: the histogram rows of this latency -g dump are not read" \
        % f in p.stderr, p.stderr
