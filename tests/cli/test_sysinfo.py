# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat sysinfo on the fake trees and on this system (on PREEMPT_RT: make
check-rtvm, in its one guest boot, with a short suite)."""
import json
import os

from conftest import ROOT, run

SYSROOTS = ROOT / "tests" / "data" / "sysroots"


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
