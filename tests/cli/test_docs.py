# SPDX-License-Identifier: GPL-2.0-or-later
"""Every command is documented: a man page that covers each of its options,
and a line in README.md."""
import re

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


@pytest.mark.parametrize("cmd", commands())
def test_readme_mentions_command(cmd):
    assert "rtlat %s" % cmd in (ROOT / "README.md").read_text()
