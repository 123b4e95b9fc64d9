# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat check on the fake trees, on this system and on PREEMPT_RT (make check-rtvm)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from conftest import RTLAT, ROOT, is_root, run

SYSROOTS = ROOT / "tests" / "data" / "sysroots"
BAD = SYSROOTS / "x86-badly-set-up"


def items(doc):
    return {i["id"]: i for i in doc["items"]}


def test_check_badly_set_up_tree_text():
    p = run(["check", "--root", BAD], check=2)
    lines = p.stdout.splitlines()
    assert lines[0] == "# rtlat check of %s (not this system)" % BAD
    assert lines[-1] == "# 6 bad, 9 warnings, 0 ok, 2 n/a"
    verdict = {l.split()[0]: l.split()[1] for l in lines[1:-1]
               if not l.startswith(" ")}
    assert verdict == {
        "preempt": "bad", "rt_throttling": "warning", "cpufreq": "bad",
        "cpuidle": "warning", "isolation": "warning", "isolated_irqs": "bad",
        "smt": "warning", "irq_affinity": "warning", "clocksource": "bad",
        "clock_read": "n/a", "thp": "warning", "swap": "warning",
        "timer_migration": "warning", "rt_group": "bad",
        "debug_config": "bad", "tracers": "warning", "cokernel": "n/a"}
    assert "fix: a kernel task is preempted only where it allows it (mode voluntary):" \
        in p.stdout
    assert p.stderr == ""


def test_check_json_and_interval_of_a_fake_tree():
    """The fake tree's two readings are -T apart: 600 eno1 interrupts are
    300/s over 2 s (the default), 150/s over 4 s."""
    d = json.loads(run(["check", "--json", "--root", BAD], check=2).stdout)
    assert d["root"] == str(BAD) and d["worst"] == "bad"
    assert d["interval_ns"] == 2000000000 and d["clock_read_ns"] is None
    assert d["counts"] == {"bad": 6, "warning": 9, "ok": 0, "n/a": 2}
    it = items(d)
    assert "130 eno1 300.0/s" in it["isolated_irqs"]["found"]
    assert it["clock_read"]["fix"] is None
    assert "IRQBALANCE_BANNED_CPULIST=2-3" in it["isolated_irqs"]["fix"]
    for i in d["items"]:
        assert set(i) == {"id", "title", "verdict", "found", "fix"}
        assert i["verdict"] in ("ok", "warning", "bad", "n/a")
        assert (i["fix"] is None) == (i["verdict"] in ("ok", "n/a")) or \
            i["id"] == "debug_config"
    d = json.loads(run(["check", "--json", "-T", "4", "--root", BAD],
                       check=2).stdout)
    assert "130 eno1 150.0/s" in items(d)["isolated_irqs"]["found"]
    assert d["interval_ns"] == 4000000000
    d = json.loads(run(["check", "--json", "--interval=0", "--root", BAD],
                       check=2).stdout)
    assert "since boot" in items(d)["isolated_irqs"]["found"]
    assert items(d)["isolated_irqs"]["verdict"] == "warning"


def test_check_nothing_bad_exits_0():
    d = json.loads(run(["check", "--json", "--root", SYSROOTS / "x86-vm"],
                       check=0).stdout)
    assert d["worst"] == "warning"
    assert items(d)["preempt"]["found"].startswith(
        "mainline PREEMPT_DYNAMIC, mode full in force")


def test_check_tuned_tree_all_ok_exits_0():
    """A system set up as the badly set-up one should have been: nothing
    bad or warned, no fix to give, exit status 0."""
    tuned = SYSROOTS / "x86-rt-tuned"
    p = run(["check", "--root", tuned], check=0)
    assert p.stdout.splitlines()[-1] == "# 0 bad, 0 warnings, 14 ok, 3 n/a"
    assert "fix:" not in p.stdout
    d = json.loads(run(["check", "--json", "--root", tuned], check=0).stdout)
    assert d["worst"] == "ok"
    assert {i["id"] for i in d["items"] if i["verdict"] == "n/a"} == \
        {"clock_read", "rt_group", "cokernel"}
    assert items(d)["isolated_irqs"]["found"] == \
        "CPU 2: 1.0/s (LOC 1.0/s); CPU 3: 1.0/s (LOC 1.0/s) over 2.0 s"


@pytest.mark.parametrize("bad", ["-1", "abc", "2h"])
def test_check_bad_interval(bad):
    p = run(["check", "-T", bad, "--root", BAD], check=1)
    assert "-T/--interval" in p.stderr and bad in p.stderr
    assert p.stdout == ""


def test_check_root_must_be_a_directory(tmp_path):
    p = run(["check", "--root", tmp_path / "nonexist"], check=1)
    assert "No such file or directory" in p.stderr and p.stdout == ""
    p = run(["check", "--root", tmp_path], check=0)
    assert "neither proc/ nor sys/" in p.stderr


def _boot_preempt_mode():
    """The PREEMPT_DYNAMIC mode, read here independently of rtlat."""
    try:
        m = open("/sys/kernel/debug/sched/preempt").read()
        return m.split("(")[1].split(")")[0]
    except OSError:
        pass
    try:
        fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        while True:
            try:
                rec = os.read(fd, 8192).decode(errors="replace")
            except BlockingIOError:
                return None
            except BrokenPipeError:
                continue
            if "Dynamic Preempt: " in rec:
                return rec.split("Dynamic Preempt: ")[1].split()[0]
    finally:
        os.close(fd)


def test_check_this_system():
    p = run(["check", "--json", "-T", "0.5"], check=None)
    d = json.loads(p.stdout)
    it = items(d)
    assert p.returncode == (2 if d["counts"]["bad"] else 0)
    version = os.uname().version
    pre = it["preempt"]
    if os.path.exists("/sys/kernel/realtime") or "PREEMPT_RT" in version:
        assert pre["verdict"] == "ok" and "PREEMPT_RT" in pre["found"]
    elif "PREEMPT_DYNAMIC" in version:
        mode = _boot_preempt_mode()
        assert ("mode %s" % mode) in pre["found"], (mode, pre)
        assert pre["verdict"] == ("bad" if mode in ("none", "voluntary")
                                  else "warning")
    if not os.path.exists("/sys/devices/system/cpu/cpu0/cpufreq"):
        assert it["cpufreq"]["verdict"] == "n/a"
    cs = open("/sys/devices/system/clocksource/clocksource0/"
              "current_clocksource").read().strip()
    assert it["clocksource"]["found"].startswith(cs + " ")
    ns = d["clock_read_ns"]
    assert 0 < ns < 100000
    assert it["clock_read"]["verdict"] == \
        ("ok" if ns <= 200 else "warning" if ns <= 1000 else "bad")
    rt = int(open("/proc/sys/kernel/sched_rt_runtime_us").read())
    assert it["rt_throttling"]["verdict"] == \
        ("ok" if rt < 0 else "bad" if rt == 0 else "warning")
    tracers = open("/sys/kernel/tracing/available_tracers").read().split() \
        if os.path.exists("/sys/kernel/tracing/available_tracers") else None
    if tracers is not None:
        want = {"timerlat", "osnoise", "hwlat"}
        assert it["tracers"]["verdict"] == \
            ("ok" if want <= set(tracers) else "warning")
    iso = open("/sys/devices/system/cpu/isolated").read().strip()
    if not iso and "nohz_full" not in open("/proc/cmdline").read():
        assert it["isolated_irqs"]["verdict"] == "n/a"
    if os.path.exists("/proc/config.gz"):
        assert it["debug_config"]["found"].endswith("(/proc/config.gz)")


def test_check_fifo_in_the_tree_cannot_block(tmp_path):
    """A FIFO where a /proc, /sys or /boot file should be (nobody writes
    to it): check reads past it, saying the file cannot be read, instead of
    blocking in open() or read() (bounded: the run times out if it
    blocks)."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    for f in ("proc/swaps", "proc/interrupts", "proc/cpuinfo", "proc/cmdline",
              "boot/config-6.12.0-dbg", "sys/devices/system/cpu/isolated",
              "proc/sys/kernel/sched_rt_runtime_us", "dev/kmsg",
              "dev/cpu_dma_latency"):
        (tree / f).unlink(missing_ok=True)
        os.mkfifo(tree / f)
    p = run(["check", "--json", "--root", tree], timeout=30)
    assert p.returncode == 2, p.stderr
    it = items(json.loads(p.stdout))
    assert it["swap"] == {**it["swap"], "verdict": "n/a",
                          "found": "/proc/swaps cannot be read"}
    assert it["rt_throttling"]["found"].startswith(
        "/proc/sys/kernel/sched_rt_runtime_us cannot be read")
    assert "Invalid argument" in it["debug_config"]["found"], it["debug_config"]
    run(["sysinfo", "--root", tree], timeout=30, check=0)


def _as_nobody():
    if not is_root():
        return "not root: cannot run rtlat as another user"
    if not shutil.which("setpriv"):
        return "setpriv (util-linux) not installed"
    return None


@pytest.mark.skipif(_as_nobody() is not None, reason=str(_as_nobody()))
def test_check_debugfs_refused_is_not_called_unmounted():
    """/sys/kernel/debug/sched/preempt there but refused (not root, or the
    kernel's lockdown): check says so, never "debugfs not mounted"."""
    top = pathlib.Path(tempfile.mkdtemp(prefix="rtlat-check-"))
    try:
        os.chmod(top, 0o755)
        tree = top / "tree"
        shutil.copytree(BAD, tree, symlinks=True)
        pre = tree / "sys/kernel/debug/sched/preempt"
        pre.parent.mkdir(parents=True)
        pre.write_text("none (voluntary) full lazy\n")
        os.chmod(pre, 0)
        fs = tree / "sys/kernel/debug/sched/fair_server/cpu0/runtime"
        fs.parent.mkdir(parents=True)
        fs.write_text("50000000\n")
        os.chmod(fs, 0)
        shutil.copy(RTLAT, top / "rtlat")
        nobody = ["setpriv", "--reuid=65534", "--regid=65534",
                  "--clear-groups", str(top / "rtlat")]
        p = subprocess.run(nobody + ["check", "--json", "--root", str(tree)],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        it = items(json.loads(p.stdout))
        why = ("/sys/kernel/debug/sched/preempt cannot be read: "
               "Permission denied (not root)")
        assert why in it["preempt"]["found"], it["preempt"]
        assert "not mounted" not in it["preempt"]["found"]
        assert ("unknown, /sys/kernel/debug/sched/fair_server/cpu0/runtime "
                "cannot be read: Permission denied (not root)") in \
            it["rt_throttling"]["found"], it["rt_throttling"]
        # locked down: refused to root too, and said so
        lk = tree / "sys/kernel/security/lockdown"
        lk.parent.mkdir(parents=True)
        lk.write_text("none integrity [confidentiality]\n")
        p = subprocess.run(nobody + ["check", "--json", "--root", str(tree)],
                           capture_output=True, text=True, timeout=60)
        assert ("Permission denied (the kernel is locked down, lockdown="
                "confidentiality: debugfs is closed to root too)") in \
            items(json.loads(p.stdout))["preempt"]["found"]
        # as root the same tree reads: the mode in force
        os.chmod(pre, 0o644)
        it = items(json.loads(run(["check", "--json", "--root", tree],
                                  check=2).stdout))
        assert it["preempt"]["found"].startswith(
            "mainline PREEMPT_DYNAMIC, mode voluntary in force")
    finally:
        shutil.rmtree(top)


ASAN = os.environ.get("RTLAT_ASAN")


@pytest.mark.skipif(not ASAN or not os.access(ASAN, os.X_OK),
                    reason="RTLAT_ASAN not set (make check builds it)")
def test_check_huge_swap_and_memory_under_ubsan(tmp_path):
    """Sizes at the limit of a 64-bit count of kB: saturated, no signed
    overflow (UBSan halts on one)."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    (tree / "proc/swaps").write_text(
        "Filename\tType\tSize\tUsed\tPriority\n"
        "/dev/sda3 partition 9223372036854775807 0 -2\n"
        "/dev/sdb3 partition 9223372036854775807 0 -3\n")
    (tree / "proc/meminfo").write_text("MemTotal: 9223372036854775807 kB\n")
    env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:exitcode=98",
               ASAN_OPTIONS="detect_leaks=1:exitcode=99")
    for args in (["check", "--json"], ["sysinfo", "--json"]):
        p = subprocess.run([ASAN] + args + ["--root", str(tree)], env=env,
                           capture_output=True, text=True, timeout=120)
        assert "runtime error" not in p.stderr, p.stderr
        assert p.returncode in (0, 2), p.stderr
        d = json.loads(p.stdout)
        if args[0] == "check":
            assert items(d)["swap"]["found"].startswith(
                "2 swap areas, 8388608.0 TiB")
        else:
            assert d["memory_bytes"] == 2 ** 63 - 1
