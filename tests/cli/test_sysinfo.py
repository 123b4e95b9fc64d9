# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat sysinfo on the fake trees, on this system and on PREEMPT_RT (rtvm)."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import RTLAT, ROOT, run

SYSROOTS = ROOT / "tests" / "data" / "sysroots"
RTVM = pathlib.Path(os.environ.get(
    "RTLAT_RTVM", ROOT.parent / "shared" / "tools" / "rtvm"))


def test_sysinfo_fake_trees():
    p = run(["sysinfo", "--root", SYSROOTS / "ppc32-xenomai"], check=0)
    assert "Board      : Ocotea" in p.stdout
    assert "CPU-Clk    : 533 MHz" in p.stdout
    assert "RT         : Xenomai 2.0 on I-pipe 1.0-01" in p.stdout
    p = run(["sysinfo", "--json", "--root", SYSROOTS / "arm-dt-board"],
            check=0)
    d = json.loads(p.stdout)
    assert d["board"] == "TI AM335x BeagleBone Black"
    assert d["core"] == "Cortex-A8" and d["cpu_clock_khz"] == 1000000


def test_sysinfo_root_must_be_a_readable_directory(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    for bad, why in ((tmp_path / "nonexist", "No such file or directory"),
                     (f, "not a directory")):
        for args in (["sysinfo", "--root", bad],
                     ["sysinfo", "--json", "--root", bad]):
            p = run(args, check=1)
            assert "--root" in p.stderr and str(bad) in p.stderr
            assert why in p.stderr and p.stdout == ""


def test_sysinfo_unreadable_version_is_unknown(tmp_path):
    """Nothing below the root: the flavour is unknown, never mainline."""
    p = run(["sysinfo", "--root", tmp_path], check=0)
    assert "RT         : unknown" in p.stdout
    assert "mainline" not in p.stdout
    assert "neither proc/ nor sys/" in p.stderr
    d = json.loads(run(["sysinfo", "--json", "--root", tmp_path],
                       check=0).stdout)
    assert d["rt_flavour"] == "unknown" and d["preempt"] is None


def test_sysinfo_this_system():
    p = run(["sysinfo", "--json"], check=0)
    d = json.loads(p.stdout)
    assert d["kernel_release"] == os.uname().release
    assert d["cpus"] == len(os.sched_getaffinity(0)) or d["cpus"] >= 1
    p = run(["sysinfo"], check=0)
    assert "Linux      : " + os.uname().release in p.stdout


def _rtvm_usable():
    if os.environ.get("RTLAT_SKIP_RTVM"):
        return "RTLAT_SKIP_RTVM is set"
    if not RTVM.exists():
        return "rtvm not found at %s (set RTLAT_RTVM)" % RTVM
    if shutil.which("qemu-system-x86_64") is None and os.geteuid() != 0:
        return "qemu-system-x86_64 missing and not root to let rtvm install it"
    if os.uname().machine != "x86_64":
        return "rtvm boots an x86-64 kernel"
    return None


@pytest.mark.skipif(_rtvm_usable() is not None, reason=str(_rtvm_usable()))
def test_preempt_rt_kernel_under_rtvm(tmp_path):
    """Debian's PREEMPT_RT kernel: sysinfo and a short suite report it."""
    p = subprocess.run(
        [str(RTVM), "-t", "240", "-i", RTLAT, "-o", "/data/s.json",
         "-d", str(tmp_path), "--", "sh", "-c",
         "rtlat sysinfo && rtlat sysinfo --json > /data/s.json && "
         "ip link set lo up && "
         "rtlat suite -T 1 --warmup 0 --loads none,hell -q "
         "--load-workers 1 --label rtvm --out /tmp/res"],
        capture_output=True, text=True, timeout=300)
    if p.returncode == 125:
        pytest.fail("the RT guest did not finish: " + p.stderr[-500:])
    assert p.returncode in (0, 2), p.stdout + p.stderr
    d = json.loads((tmp_path / "s.json").read_text())
    assert d["preempt_rt"] is True and d["preempt"] == "PREEMPT_RT"
    assert "-rt-" in d["kernel_release"]
    assert "PREEMPT_RT" in d["kernel_version"]
    assert d["rt_flavour"] == "PREEMPT_RT"
    assert "RT         : PREEMPT_RT" in p.stdout
    assert "Linux      : %s " % d["kernel_release"] in p.stdout
    assert "LATENCY with load (hell)" in p.stdout
    assert "packets/s" in p.stdout and "forks/s" in p.stdout
    assert "rtvm     |" in p.stdout
