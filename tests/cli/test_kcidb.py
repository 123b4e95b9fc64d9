# SPDX-License-Identifier: GPL-2.0-or-later
"""--kcidb FILE on a test and on the suite: KCIDB I/O JSON (schema v5.3),
validated with python3-jsonschema against tests/data/kcidb/ (written from
the fields KCIDB documents), one test object per case of --lava, with the
statuses and numbers the run's figures give."""
import datetime
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import RTLAT, ROOT, load_json_strict, needs_root, run

jsonschema = pytest.importorskip(
    "jsonschema", reason="python3-jsonschema is not installed (make deps)")

SCHEMA = ROOT / "tests" / "data" / "kcidb" / "io-v5.3-tests.schema.json"


def validate(path):
    doc = load_json_strict(path)
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(v.iter_errors(doc), key=str)
    assert not errors, "\n".join(str(e) for e in errors[:5])
    assert doc["version"] == {"major": 5, "minor": 3}
    ids = [t["id"] for t in doc["tests"]]
    assert len(ids) == len(set(ids)), "ids not unique"
    for t in doc["tests"]:
        if "start_time" in t:
            datetime.datetime.fromisoformat(t["start_time"].replace("Z",
                                                                    "+00:00"))
    return doc


def by_case(doc):
    return {t["misc"]["rtlat_case"]: t for t in doc["tests"]}


def lava_ids(stdout):
    return [ln.split("TEST_CASE_ID=")[1].split()[0].rstrip(">")
            for ln in stdout.splitlines()
            if ln.startswith("<LAVA_SIGNAL_TESTCASE")]


def no_helper_env():
    return dict(os.environ, PATH="/usr/bin:/bin")


@needs_root
def test_latency_kcidb(tmp_path):
    k, js = tmp_path / "k.json", tmp_path / "r.json"
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--json", js,
             "--kcidb", k, "--lava"], env=no_helper_env())
    assert p.returncode == 0, p.stderr
    doc = validate(k)
    tests = by_case(doc)
    # the same cases as --lava, in the same order
    assert [t["misc"]["rtlat_case"] for t in doc["tests"]] == \
        lava_ids(p.stdout)
    d = load_json_strict(js)
    lat = d["summary"]["latency"]
    run_t = tests["latency-none"]
    assert run_t["status"] == "PASS" and run_t["path"] == "rtlat.latency.none"
    assert run_t["origin"] == "rtlat"
    assert run_t["build_id"] == "rtlat:" + os.uname().release
    assert run_t["id"].startswith("rtlat:")
    assert run_t["environment"]["misc"]["kernel"] == os.uname().release
    mx = tests["latency-none-latency-max"]
    # no threshold: a measurement
    assert mx["status"] == "DONE"
    assert mx["path"] == "rtlat.latency.none.latency.max"
    assert mx["number"]["unit"] == "s" and mx["number"]["prefix"] == "metric"
    assert round(mx["number"]["value"] * 1e9) == lat["max_ns"]
    p999 = tests["latency-none-latency-p99.9"]
    assert p999["path"] == "rtlat.latency.none.latency.p99_9"
    ov = tests["latency-none-latency-overruns"]
    assert ov["number"] == {"value": lat["overruns"]}     # dimensionless
    assert ov["status"] == "DONE"
    for t in d["threads"] if len(d["threads"]) > 1 else []:
        c = tests["latency-none-latency-cpu%d-max" % t["cpu"]]
        assert c["path"] == "rtlat.latency.none.latency.cpu%d.max" % t["cpu"]
        assert round(c["number"]["value"] * 1e9) == \
            t["series"]["latency"]["max_ns"]
    assert all(t["duration"] > 0 for t in doc["tests"])


@needs_root
def test_kcidb_threshold_origin_build(tmp_path):
    k = tmp_path / "k.json"
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--kcidb", k,
             "--max-latency", "0.001", "--kcidb-origin", "lab_7",
             "--kcidb-build", "lab_7:kernel-42"])
    assert p.returncode == 2, p.stderr
    doc = validate(k)
    tests = by_case(doc)
    assert tests["latency-none"]["status"] == "FAIL"
    assert "exceeded --max-latency" in tests["latency-none"]["comment"]
    for i, t in tests.items():
        assert t["origin"] == "lab_7" and t["id"].startswith("lab_7:")
        assert t["build_id"] == "lab_7:kernel-42"
        if i.endswith("-max"):
            assert t["status"] == "FAIL", i        # judged, over
        elif i != "latency-none":
            assert t["status"] == "DONE", i


@needs_root
def test_kcidb_interrupted_is_an_error(tmp_path):
    """A run a signal stopped did not complete: ERROR, not FAIL."""
    k = tmp_path / "k.json"
    p = subprocess.Popen(
        [RTLAT, "latency", "-T", "30", "--warmup", "0", "-q", "--kcidb",
         str(k)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    doc = validate(k)
    t = by_case(doc)["latency-none"]
    assert t["status"] == "ERROR" and "interrupted" in t["comment"]


def test_kcidb_bad_options(tmp_path):
    for args, why in [(["--kcidb-origin", "Lab-7"], "a-z, 0-9 and _"),
                      (["--kcidb-build", "nocolon"], "ORIGIN:ID"),
                      (["--kcidb", tmp_path], "directory")]:
        p = run(["latency", "-T", "1"] + args)
        assert p.returncode == 1, (args, p.stderr)
        assert why in p.stderr and "kcidb" in p.stderr, (args, p.stderr)


@needs_root
def test_suite_kcidb(tmp_path):
    out, k = tmp_path / "res", tmp_path / "k.json"
    p = run(["suite", "--tests", "latency", "--loads", "none,cpu", "-T", "1",
             "--warmup", "200ms", "--out", out, "--kcidb", k, "--lava",
             "--load-workers", "1"], timeout=180, env=no_helper_env())
    assert p.returncode == 0, p.stderr
    doc = validate(k)
    tests = by_case(doc)
    assert [t["misc"]["rtlat_case"] for t in doc["tests"]] == \
        lava_ids(p.stdout)
    assert tests["latency-none"]["path"] == "rtlat.latency.none"
    assert tests["latency-cpu"]["path"] == "rtlat.latency.cpu"
    ld = tests["latency-cpu-load-cpu"]
    assert ld["path"] == "rtlat.latency.cpu.load.cpu"
    assert ld["status"] == "DONE" and ld["number"]["value"] > 0
    d = load_json_strict(out / "01-latency-none.json")
    assert round(tests["latency-none-latency-max"]["number"]["value"] *
                 1e9) == d["summary"]["latency"]["max_ns"]
