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
