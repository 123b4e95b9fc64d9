# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for rtlat command-line tests.

RTLAT points at the binary under test (make check sets it). Tests that need
root skip with a reason when not root; CI runs them as root.
"""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RTLAT = os.environ.get("RTLAT", str(ROOT / "build" / "rtlat"))
# Real output files of other tools (a copy of ../shared/fixtures, so that a
# clone anywhere is self-contained).
FIXTURES = pathlib.Path(os.environ.get("RTLAT_FIXTURES",
                                       ROOT / "tests" / "fixtures" / "shared"))


# The binary under test was built with sanitizers (make check-sanitize):
# their run-times turn mlock/mlockall into no-ops.
SANITIZED = bool(os.environ.get("RTLAT_SANITIZED"))


def is_root():
    return os.geteuid() == 0


needs_root = pytest.mark.skipif(not is_root(),
                                reason="needs root (SCHED_FIFO, mlockall)")


def run(args, timeout=120, check=None, **kw):
    """Run rtlat with args; return CompletedProcess (text)."""
    p = subprocess.run([RTLAT] + [str(a) for a in args], capture_output=True,
                       text=True, timeout=timeout, **kw)
    if check is not None:
        assert p.returncode == check, (p.returncode, p.stdout, p.stderr)
    return p


def fake_lava_test_case(tmp_path, exit_status=0):
    """A lava-test-case of LAVA's test shell on PATH that logs each call's
    arguments, one line each, and exits with @exit_status: (env, log)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls"
    helper = bindir / "lava-test-case"
    helper.write_text("#!/bin/sh\necho \"$*\" >> %s\nexit %d\n" %
                      (log, exit_status))
    helper.chmod(0o755)
    return dict(os.environ, PATH="%s:/usr/bin:/bin" % bindir), log


def load_json_strict(path):
    """Parse JSON rejecting NaN/Infinity and duplicate keys."""
    def no_const(name):
        raise ValueError("non-standard JSON constant %s" % name)

    def no_dups(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate keys %r" % keys)
        return dict(pairs)

    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict UTF-8
    return json.loads(text, parse_constant=no_const,
                      object_pairs_hook=no_dups)


def hist_total(h):
    return sum(b[2] for b in h["buckets"]) + h["underflow"] + h["overflow"]


def _pipes(line):
    return [i for i, c in enumerate(line) if c == "|"]


def _under(head, line):
    """@line lines up with @head: its '|' are the header's, and its last
    column ends where the header does (a " label" may follow)."""
    why = "not under its header:\n%s\n%s" % (head, line)
    assert _pipes(line) == _pipes(head), why
    n = len(head)
    assert len(line) >= n and line[n - 1] != " ", why
    assert len(line) == n or line[n] == " ", why


def check_layout(out):
    """Every line of rtlat's Xenomai-style output @out lines up with its
    header: RTD lines with RTH, RTS lines with the "---|" line above them,
    HSD and HSS lines with HSH, RTP values with RTP names. A "---|" line of
    dashes (Xenomai's: the RTS columns are RTH's first ones) is as wide as
    the RTH line and has its '|' where the RTH line has. Returns the number
    of data lines checked."""
    head = {}
    n = 0
    for line in out.splitlines():
        tag = line[:4]
        if tag == "RTH|":
            head["RTD|"] = line
        elif tag == "---|":
            head["RTS|"] = line
            if set(line.split("|")[1]) == {"-"} and "RTD|" in head:
                rth = head["RTD|"]
                assert len(line) == len(rth) and \
                    set(_pipes(line)) <= set(_pipes(rth)), \
                    "separator not under RTH:\n%s\n%s" % (rth, line)
        elif tag == "HSH|":
            head["HSD|"] = head["HSS|"] = line
        elif tag == "RTP|" and line.split("|")[1].strip().startswith("p"):
            head["RTP|"] = line
        elif tag in ("RTD|", "RTS|", "HSD|", "HSS|", "RTP|"):
            assert tag in head, "%s before its header" % line
            _under(head[tag], line)
            n += 1
    return n


def mount_tmpfs(path, opts):
    """Mount a tmpfs with @opts ("size=1m") on @path (root)."""
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)],
                   check=True)


def umount(path):
    subprocess.run(["umount", "-l", str(path)], check=False)


def fill_fs(path):
    """Write @path until its file system is full (ENOSPC)."""
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
