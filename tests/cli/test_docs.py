# SPDX-License-Identifier: GPL-2.0-or-later
"""Every command is documented: a man page that covers each of its options,
and a line in README.md."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, run


def commands():
    out = run(["--help"], check=0).stdout
    sect = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [l.split()[0] for l in sect.splitlines() if l.strip()]


def test_there_are_commands():
    assert "latency" in commands()


@pytest.mark.parametrize("cmd", commands())
def test_man_page_covers_options(cmd):
    page = ROOT / "man" / ("rtlat-%s.1" % cmd)
    assert page.exists(), "missing man page %s" % page
    text = page.read_text().replace("\\-", "-")
    helptext = run([cmd, "--help"], check=0).stdout
    opts = set(re.findall(r"--([a-z][a-z0-9-]*)", helptext)) - {"help"}
    missing = sorted(o for o in opts if "--" + o not in text)
    assert not missing, "%s lacks %s" % (page.name, missing)
    assert "rtlat-%s" % cmd in (ROOT / "man" / "rtlat.1").read_text() \
        .replace("\\-", "-")


def test_man_options_match_option_tables():
    """OPTIONS of every page against the option tables in both directions,
    with the defaults; COMMON OPTIONS as generated (scripts/check-man.py)."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "check-man.py"),
                        os.environ["RTLAT"]], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_layering_holds():
    """The layers of src/ (scripts/check-layers.py, also run by make lint):
    includes and the symbols of the objects next to the binary."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")):
        pytest.skip("no objects next to the binary")
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"), build],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_layering_violation_fails(tmp_path):
    """An engine file that includes a load is refused."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")):
        pytest.skip("no objects next to the binary")
    shutil.copytree(ROOT / "src", tmp_path / "src")
    (tmp_path / "src" / "engine" / "zz_layer_probe.h").write_text(
        '/* SPDX-License-Identifier: GPL-2.0-or-later */\n'
        '#include "loads/load.h"\n')
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"), build,
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "zz_layer_probe.h" in p.stdout and "engine may not include" in p.stdout


@pytest.mark.parametrize("probe,include,says", [
    ("output/zz_layer_probe.h", "trace/trace.h", "output may not include"),
    ("measure/zz_layer_probe.h", "measure/irq.h", "measure may not include"),
    ("loads/zz_layer_probe.h", "measure/lib/ipc.h", "loads may not include"),
    ("trace/zz_layer_probe.h", "output/output.h", "trace may not include"),
    ("engine/zz_layer_probe.h", "../measure/irq.h", "engine may not include"),
    ("engine/zz_layer_probe.h", "../../tests/unit/x.h",
     "engine may not include"),
    ("util/zz_layer_probe.h", "../engine/engine.h", "util may not include"),
    ("output/zz_layer_probe.h", "engine/run.h",
     "output may not include engine/run.h (private to engine)"),
    ("measure/zz_layer_probe.h", "../engine/run.h", "private to engine"),
    ("output/zz_layer_probe.h", "engine/engine.h",
     "output may not include engine/engine.h (private to cmd, engine, main)"),
    ("measure/zz_layer_probe.h", "engine/engine.h",
     "measure may not include engine/engine.h (private to cmd, engine, "
     "main)"),
    ("metrics/zz_layer_probe.h", "../engine/test.h",
     "metrics may not include ../engine/test.h (private to"),
    ("loads/zz_layer_probe.h", "engine/test.h",
     "loads may not include engine/test.h (private to"),
    ("trace/zz_layer_probe.h", "engine/run.h", "private to engine"),
])
def test_layering_include_refused(tmp_path, probe, include, says):
    """The output knows the trace only as a companion; a test never
    reaches another test; loads and the trace never reach tests or
    output."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")):
        pytest.skip("no objects next to the binary")
    shutil.copytree(ROOT / "src", tmp_path / "src")
    (tmp_path / "src" / probe).write_text(
        '/* SPDX-License-Identifier: GPL-2.0-or-later */\n'
        '#include "%s"\n' % include)
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"), build,
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "zz_layer_probe.h" in p.stdout and says in p.stdout, p.stdout


@pytest.mark.parametrize("literal", ['"--source"', '"irq-source"',
                                     '"noise"'])
def test_suite_naming_a_test_refused(tmp_path, literal):
    """The suite knows the tests by their descriptors: a string of it that
    is one of a test's own options (as the test's or as the suite's
    --TEST-LONG) or a test's name is refused; an option every test shares
    is not."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")):
        pytest.skip("no objects next to the binary")
    shutil.copytree(ROOT / "src", tmp_path / "src")
    probe = tmp_path / "src" / "cmd" / "suite_zz_probe.c"
    probe.write_text('/* SPDX-License-Identifier: GPL-2.0-or-later */\n'
                     'const char *zz_probe[] = { "--warmup", %s };\n'
                     % literal)
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"), build,
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stdout.count("suite_zz_probe.c") == 1, p.stdout
    assert 'src/cmd/suite_zz_probe.c:2: the suite names %s' % literal \
        in p.stdout, p.stdout


def test_layering_symbol_refused(tmp_path):
    """nm: an output object that calls the trace by name (without
    including its header) is refused."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")):
        pytest.skip("no objects next to the binary")
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    shutil.copytree(ROOT / "src", tmp_path / "src")
    shutil.copytree(os.path.join(build, "src"), tmp_path / "build" / "src")
    probe = tmp_path / "src" / "output" / "zz_layer_probe.c"
    probe.write_text('/* SPDX-License-Identifier: GPL-2.0-or-later */\n'
                     'struct run;\n'
                     'void trace_json(const struct run *r, void *w);\n'
                     'void zz_probe(const struct run *r);\n'
                     'void zz_probe(const struct run *r)\n'
                     '{ trace_json(r, 0); }\n')
    subprocess.run([cc, "-c", "-o",
                    str(tmp_path / "build" / "src" / "output" /
                        "zz_layer_probe.o"), str(probe)], check=True)
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"),
                        str(tmp_path / "build"), str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert ("src/output/zz_layer_probe.c: output uses trace_json of "
            "src/trace/trace.c" in p.stdout), p.stdout


def test_worked_example_is_one_file_and_one_line(tmp_path):
    """docs/ARCHITECTURE.md's worked example: its test file and one
    registry line make a test with options, help, a declared "==" line,
    figure in test_data and headline param."""
    worked_example(tmp_path)


def worked_example(tmp_path):
    """The worked example built in a copy of the tree under @tmp_path,
    checked: (the tree, its rtlat)."""
    build = os.path.dirname(os.environ["RTLAT"])
    if not os.path.isdir(os.path.join(build, "src", "engine")) or \
            not shutil.which("make"):
        pytest.skip("no objects next to the binary, or no make")
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    nap = [b for b in re.findall(r"```c\n(.*?)```", doc, re.S)
           if "nap_test" in b]
    assert len(nap) == 1
    tree = tmp_path / "tree"
    tree.mkdir()
    for d in ("src", "scripts", "man"):
        shutil.copytree(ROOT / d, tree / d)
    shutil.copy2(ROOT / "Makefile", tree / "Makefile")
    shutil.copytree(build, tree / "build", symlinks=True)
    (tree / "src" / "measure" / "nap.c").write_text(nap[0])
    reg = tree / "src" / "cmd" / "registry.c"
    text = reg.read_text()
    assert "\tX(irq)\n" in text
    reg.write_text(text.replace("\tX(irq)\n", "\tX(irq) \\\n\tX(nap)\n", 1))
    p = subprocess.run(["make", "-j2", "O=build", "build/rtlat"], cwd=tree,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    rtlat = str(tree / "build" / "rtlat")
    out = subprocess.run([rtlat, "--help"], capture_output=True,
                         text=True).stdout
    assert re.search(r"^\s+nap\s+wake-up latency of a 1 ms periodic task",
                     out, re.M), out
    out = subprocess.run([rtlat, "nap", "--help"], capture_output=True,
                         text=True).stdout
    assert "Measure how late a 1 ms periodic task" in out
    assert "--load" in out and "--json" in out
    res, head = tmp_path / "r.json", tmp_path / "headline"
    with open(head, "w") as f:
        p = subprocess.run([rtlat, "nap", "-T", "1", "-q", "--json",
                            str(res), "--headline-fd", str(f.fileno())],
                           pass_fds=[f.fileno()], capture_output=True,
                           text=True, timeout=60)
    assert p.returncode in (0, 2), p.stderr
    d = json.loads(res.read_text())
    n = d["test_data"]["samplers"]
    assert n == len(d["threads"]) >= 1
    samples = sum(t["series"]["latency"]["samples"] for t in d["threads"])
    m = re.search(r"^== Wake-ups: (\d+) by (\d+) samplers, (\d+) overruns$",
                  p.stdout, re.M)
    assert m, p.stdout
    assert (int(m.group(1)), int(m.group(2))) == (samples, n)
    assert "param.samplers %d\n" % n in head.read_text()
    return tree, str(tree / "build" / "rtlat")


def tree_digest(tree):
    """{path: content} of the files of @tree that a change can touch (the
    build left out)."""
    return {str(p.relative_to(tree)): p.read_bytes()
            for p in sorted(tree.rglob("*"))
            if p.is_file() and p.relative_to(tree).parts[0] != "build"}


NAP_PAGE = """.\\" SPDX-License-Identifier: GPL-2.0-or-later
.TH RTLAT-NAP 1 "2026-12-06" "rtlat 0.1.0" "rtlat manual"
.SH NAME
rtlat\\-nap \\- wake-up latency of a 1 ms periodic task
.SH SYNOPSIS
.B rtlat nap
.RI [ OPTIONS ]
.SH DESCRIPTION
Measure how late a 1 ms periodic task at priority 80 wakes up.
.SH OPTIONS
It has no option of its own.
.SH COMMON OPTIONS
.SH SEE ALSO
.BR rtlat (1)
"""


def test_a_new_test_touches_five_files(tmp_path):
    """The files a new test touches, counted on a copy of the tree: the
    test (src/measure/nap.c, docs/ARCHITECTURE.md's example), its line in
    the registry (src/cmd/registry.c), its man page (man/rtlat-nap.1,
    COMMON OPTIONS filled by check-man.py --update) - and two lines of the
    documents that list every command (rtlat(1), README.md), which
    test_man_page_covers_options and test_readme_mentions_command ask of
    every command. With these the layering, the man pages and the build
    hold; nothing else is touched (no summary header, no list of tests in
    the build, the suite, the footprint test or the report)."""
    tree0 = tmp_path / "tree"
    tree0.mkdir()
    for d in ("src", "scripts", "man"):
        shutil.copytree(ROOT / d, tree0 / d)
    for f in ("Makefile", "README.md"):
        shutil.copy2(ROOT / f, tree0 / f)
    before = tree_digest(tree0)
    shutil.rmtree(tree0)
    tree, rtlat = worked_example(tmp_path)
    shutil.copy2(ROOT / "README.md", tree / "README.md")
    (tree / "man" / "rtlat-nap.1").write_text(NAP_PAGE)
    top = tree / "man" / "rtlat.1"
    text = top.read_text()
    assert ".SH SEE ALSO\n" in text
    top.write_text(text.replace(".SH SEE ALSO\n",
                                ".SH SEE ALSO\n.BR rtlat\\-nap (1),\n", 1))
    readme = tree / "README.md"
    text = readme.read_text()
    line = "| `rtlat latency` |"
    assert line in text
    readme.write_text(text.replace(
        line, "| `rtlat nap` | wake-up latency of a 1 ms periodic task |\n"
        + line, 1))
    man = str(tree / "scripts" / "check-man.py")
    p = subprocess.run([sys.executable, man, "--update", rtlat,
                        str(tree / "man")], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([sys.executable, man, rtlat, str(tree / "man")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "--load" in (tree / "man" / "rtlat-nap.1").read_text() \
        .replace("\\-", "-")
    p = subprocess.run([sys.executable,
                        str(tree / "scripts" / "check-layers.py"),
                        str(tree / "build"), str(tree)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    # what the docs tests ask of every command, of this one
    assert "rtlat-nap" in top.read_text().replace("\\-", "-")
    assert "rtlat nap" in readme.read_text()
    after = tree_digest(tree)
    changed = sorted(f for f in set(before) | set(after)
                     if before.get(f) != after.get(f))
    assert changed == ["README.md", "man/rtlat-nap.1", "man/rtlat.1",
                       "src/cmd/registry.c", "src/measure/nap.c"]


@pytest.mark.parametrize("cmd", commands())
def test_readme_mentions_command(cmd):
    assert "rtlat %s" % cmd in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("page", sorted((ROOT / "man").glob("*.1")),
                         ids=lambda p: p.name)
def test_man_page_renders_without_warnings(page):
    """groff warns of what man drops silently (a line starting with "'" is
    a control line: rtlat-report.1 lost one that way)."""
    if not shutil.which("groff"):
        pytest.skip("groff is not installed")
    p = subprocess.run(["groff", "-ww", "-z", "-man", str(page)],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_paths_named_in_docs_exist():
    """Every bench/, scripts/, man/, tests/ or docs/ path that README.md and
    the docs name is in the tree (README named bench/trace-cost.sh for
    bench/trace-cost.py)."""
    docs = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")) + \
        sorted((ROOT / "bench").glob("*.md"))
    missing = []
    for doc in docs:
        for m in re.finditer(r"(?<![\w/.])((?:bench|scripts|man|docs)/"
                             r"[a-z0-9_.-]+\.(?:py|sh|c|md|1))\b", doc.read_text()):
            if not (ROOT / m.group(1)).exists():
                missing.append("%s: %s" % (doc.name, m.group(1)))
    assert not missing, missing


def test_suite_md_table_has_every_suite_option():
    """docs/suite.md's options table names every option of rtlat suite
    --help (the lab outputs and --db among them)."""
    text = (ROOT / "docs" / "suite.md").read_text()
    rows = "\n".join(l for l in text.splitlines() if l.startswith("| `"))
    helptext = run(["suite", "--help"], check=0).stdout
    opts = set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z0-9-]*)", helptext,
                          re.M)) - {"help"}
    assert {"lava", "junit", "kcidb", "kcidb-origin", "kcidb-build",
            "db"} <= opts
    missing = sorted(o for o in opts if not re.search(
        r"(`|, )--%s[ `]" % re.escape(o), rows))
    assert not missing, "docs/suite.md lacks %s" % missing
    db_row = [l for l in rows.splitlines() if l.startswith("| `--db")][0]
    assert "store the suite's runs" in db_row and "rtlat db add" in db_row


def test_the_history_is_not_said_to_be_sqlite_only():
    """README, rtlat(1), rtlat-db(1) and rtlat db --help name both stores;
    the schema version on PostgreSQL is rtlat_schema's row; suite --gate
    says that a static build gates on the host."""
    readme = (ROOT / "README.md").read_text()
    row = [l for l in readme.splitlines() if l.startswith("| `rtlat db`")][0]
    assert "PostgreSQL" in row and "baseline" in row
    page = lambda n: (ROOT / "man" / n).read_text().replace("\\-", "-")
    db_line = page("rtlat.1").split(".B db\n", 1)[1].split(".TP", 1)[0]
    assert "PostgreSQL" in db_line
    db1 = page("rtlat-db.1")
    desc = db1.split(".SH DESCRIPTION", 1)[1].split(".TP", 1)[0]
    assert "PostgreSQL" in desc and "SQLite" in desc
    schema = db1.split(".SH SCHEMA", 1)[1].split(".SH", 1)[0]
    assert "rtlat_schema" in schema and "user_version" in schema
    assert "PostgreSQL" in run(["db", "--help"], check=0).stdout
    gate = page("rtlat-suite.1").split(".B --gate\n", 1)[1].split(".TP", 1)[0]
    assert "static build" in gate and "rtlat compare --gate" in \
        gate.replace("\\fB", "").replace("\\fR", "")


def test_architecture_table_is_ls_src():
    """docs/ARCHITECTURE.md's table of layers names every folder of src/
    that holds sources, and no other, and its picture shows each."""
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    layers = doc[doc.index("| layer "):]
    layers = layers[:layers.index("\n\n")]
    table = set(re.findall(r"^\| `([a-z/]+)`\s*\|", layers, re.M))
    folders = {str(p.parent.relative_to(ROOT / "src"))
               for p in (ROOT / "src").rglob("*.[ch]")} - {"."}
    assert table == folders
    picture = re.search(r"```\n(src/cmd/.*?)```", doc, re.S).group(1)
    for f in folders:
        top = f.split("/")[0]
        assert ("src/%s/" % f) in picture or \
            (top == "report" and (f.split("/")[-1] + "/") in picture), f


def test_option_keys_come_from_one_enum():
    """Every long option's key is an enumerator of util/optkey.h (unique
    by construction): no other file numbers option keys by hand."""
    own = ROOT / "src" / "util" / "optkey.h"
    keys = re.compile(r"\b(?:OPT|K|LAB_OPT)_[A-Z0-9_]+\s*=\s*"
                      r"(?:0x[0-9a-fA-F]+|\d+)")
    bad = []
    for p in sorted((ROOT / "src").rglob("*.[ch]")):
        if p != own and keys.search(p.read_text()):
            bad.append(str(p.relative_to(ROOT)))
    assert bad == []
    assert "OPT_KEY_FIRST 256" in own.read_text()


def test_layering_self_test():
    """check-layers --self-test (make lint): a relative include of a test
    injected into an engine file is caught, and so is an engine-private
    header (engine/run.h, engine/engine.h, engine/test.h) in a test, an
    output or the metrics; the tree as it is passes."""
    p = subprocess.run([sys.executable,
                        str(ROOT / "scripts" / "check-layers.py"),
                        "--self-test"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "engine may not include ../measure/irq.h" in p.stdout
    # the engine's private headers, injected into a test, an output and
    # the metrics, each caught
    assert ("src/measure/latency.c:" in p.stdout and
            "measure may not include engine/run.h (private to engine)"
            in p.stdout)
    assert "output may not include engine/run.h (private to engine)" \
        in p.stdout
    assert "output may not include ../engine/engine.h (private to" \
        in p.stdout
    assert "metrics may not include engine/test.h (private to" in p.stdout
    assert "NOT caught" not in p.stdout
    assert p.stdout.rstrip().endswith("check-layers --self-test: ok")


def test_function_length(tmp_path):
    """No function over 120 lines but the waived ones (make lint); one
    more is refused, by name."""
    script = str(ROOT / "scripts" / "check-function-length.py")
    p = subprocess.run([sys.executable, script], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    shutil.copytree(ROOT / "src", tmp_path / "src")
    (tmp_path / "src" / "util" / "zz_long.c").write_text(
        "// SPDX-License-Identifier: GPL-2.0-or-later\n"
        "int zz_long(int x);\n\nint zz_long(int x)\n{\n" +
        "\tx++;\n" * 125 + "\treturn x;\n}\n")
    p = subprocess.run([sys.executable, script, str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "src/util/zz_long.c:4: zz_long is 128 lines long" in p.stdout, \
        p.stdout


def test_output_formats_one_registry():
    """The tables' output formats are one registry (src/report/format.c):
    no command chooses by format, each format is a file of its own
    named in rep_formats[] (docs/ARCHITECTURE.md, "Adding an output
    format")."""
    src = ROOT / "src"
    by_format = re.compile(r"\bfmt\s*[!=]=|\bOUT_(?:TEXT|MARKDOWN|CSV)\b|"
                           r"\bOPT_REP_(?:MD|CSV)\b")
    bad = []
    for p in sorted(src.rglob("*.[ch]")):
        rel = str(p.relative_to(ROOT))
        if re.match(r"src/report/format_\w+\.c$", rel) or \
                rel == "src/util/optkey.h":
            continue
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if by_format.search(line) and \
                    not (rel == "src/report/cli.c" and
                         re.search(r'^\s*\{ "(markdown|csv)"', line)):
                bad.append("%s:%d: %s" % (rel, n, line.strip()))
    assert bad == []
    reg = (src / "report" / "format.c").read_text()
    files = sorted(p.stem[len("format_"):]
                   for p in (src / "report").glob("format_*.c"))
    assert files == ["csv", "markdown", "text"]
    for name in files:
        assert "\t&rep_format_%s," % name in reg
        assert "const struct rep_format rep_format_%s = {" % name in \
            (src / "report" / ("format_%s.c" % name)).read_text()
