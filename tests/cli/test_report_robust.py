# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad input never crashes the importers: every fixture and malformed
variants of it (truncated, wrong types, huge and negative numbers, NaN,
empty, binary, random flips; see mutate.py) go through rtlat report built
with AddressSanitizer and UndefinedBehaviorSanitizer (make check builds it
into build/asan and sets RTLAT_ASAN). Each input imports or fails with an
error naming the file; exit status 0 or 1, never a sanitizer report."""
import csv
import io
import os
import subprocess

import pytest

from conftest import FIXTURES, ROOT
from mutate import mutants

ASAN = os.environ.get("RTLAT_ASAN")
needs_asan = pytest.mark.skipif(
    not ASAN or not os.access(ASAN, os.X_OK),
    reason="RTLAT_ASAN not set: make check builds the sanitized binary (make asan)")

SOURCES = sorted(p for p in list(FIXTURES.glob("*/*")) +
                 list((ROOT / "tests" / "fixtures" / "report").glob("*"))
                 if p.name != "README.md")
SAN_ENV = dict(os.environ,
               ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=98")
SAN_WORDS = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
             "UndefinedBehaviorSanitizer")


def asan(args, timeout=120):
    p = subprocess.run([ASAN, "report"] + [str(a) for a in args],
                       capture_output=True, text=True, errors="replace",
                       timeout=timeout, env=SAN_ENV)
    for w in SAN_WORDS:
        assert w not in p.stderr, p.stderr[-4000:]
    assert p.returncode in (0, 1), (p.returncode, p.stderr[-4000:])
    return p


@needs_asan
def test_fixtures_clean_under_sanitizers():
    p = asan(SOURCES)
    assert p.returncode == 0, p.stderr


@needs_asan
@pytest.mark.parametrize("src", SOURCES, ids=lambda p: p.name)
def test_mutants(src, tmp_path):
    files = []
    for name, data in mutants(src.read_bytes()):
        f = tmp_path / ("%s.%s%s" % (src.stem, name, src.suffix))
        f.write_bytes(data)
        files.append(f)
    # all variants in one run: failing ones must not stop the others
    p = asan(["--csv"] + files + [FIXTURES / "cyclictest" / "quiet-2threads.txt"])
    read = {r["file"] for r in csv.DictReader(io.StringIO(p.stdout))}
    assert str(FIXTURES / "cyclictest" / "quiet-2threads.txt") in read
    for f in files:
        # read, or named in an error
        assert str(f) in read or str(f) in p.stderr, f.name


@needs_asan
@pytest.mark.parametrize("kind", ["empty", "truncated-0.5", "huge-all-0",
                                  "nan-0", "wrong-type-string",
                                  "wrong-type-object", "nul-byte"])
def test_malformed_is_an_error_naming_the_file(kind, tmp_path):
    """Designed-bad variants of the JSON fixtures each fail alone with
    exit 1 and the file name (and line where it makes sense)."""
    for src in (ROOT / "tests" / "fixtures" / "report" / "rtlat-2cpu.json",
                FIXTURES / "cyclictest" / "json-2threads-histogram.json",
                FIXTURES / "jitterdebugger" / "results.json",
                FIXTURES / "oslat" / "oslat-1cpu.json"):
        data = dict(mutants(src.read_bytes()))[kind]
        f = tmp_path / (src.stem + "." + kind + ".json")
        f.write_bytes(data)
        p = asan([f])
        assert p.returncode == 1, (f.name, p.stdout)
        assert str(f) in p.stderr


@needs_asan
@pytest.mark.parametrize("src,kind,expect", [
    ("xenomai/latency-3.2-vm-overruns.log", "huge-0", ":8: RTD column 3 '999999999999999999999999': beyond what the tool can print"),
    ("rtai/kern-latency-display.log", "huge-all-2", ":13: RTD column 1 '-9223372036854775808': beyond what the tool can print"),
    ("cyclictest/histogram-60us-overflows.txt", "huge-all-0",
     "Total '999999999999999999999999': a count beyond what the tool can print"),
    ("seed/xenomai-latencies-ppc-summary.log", "huge-3",
     ":14: column 2 '18446744073709551616': beyond what the tool can print"),
    ("oslat/oslat-1cpu.txt", "empty", "empty file"),
    ("xenomai/latency-3.2-vm-overruns.log", "nan-0", "NaN"),
])
def test_text_errors_name_file_and_line(src, kind, expect, tmp_path):
    path = FIXTURES / src
    f = tmp_path / (path.stem + "." + kind + path.suffix)
    f.write_bytes(dict(mutants(path.read_bytes()))[kind])
    p = asan([f])
    assert p.returncode == 1
    assert str(f) in p.stderr and expect in p.stderr, p.stderr


FOUND = sorted(p for p in (ROOT / "tests" / "fixtures" / "fuzz-found").glob("*")
               if p.name != "README.md")


@needs_asan
@pytest.mark.parametrize("src", FOUND, ids=lambda p: p.name)
def test_what_the_fuzzers_found(src):
    """Each input a fuzzer once crashed an importer with imports or fails
    with an error, under the sanitizers (tests/fixtures/fuzz-found)."""
    asan([src])
