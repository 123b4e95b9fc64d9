# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat check on the fake trees, on this system and on PREEMPT_RT (make check-rtvm)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from conftest import RTLAT, ROOT, copy_rtlat, is_root, run

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
    # an empty directory: nothing to check is an error, not "nothing bad"
    # (exit 0, with findings drawn from absence: "no cpufreq driver")
    for args in ([], ["--json"]):
        p = run(["check", "--root", tmp_path] + args, check=1)
        assert "--root %s holds neither proc/ nor sys/: nothing to check" \
            % tmp_path in p.stderr and p.stdout == ""


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
    fifo = "cannot be read: not a regular file (a FIFO)"
    assert it["swap"] == {**it["swap"], "verdict": "n/a",
                          "found": "/proc/swaps " + fifo}
    assert it["rt_throttling"]["found"].startswith(
        "/proc/sys/kernel/sched_rt_runtime_us " + fifo)
    assert "/boot/config-6.12.0-dbg: not a regular file (a FIFO)" in \
        it["debug_config"]["found"], it["debug_config"]
    run(["sysinfo", "--root", tree], timeout=30, check=0)


@pytest.mark.parametrize("f,item", [
    ("proc/self/mountinfo", "rt_group"), ("proc/self/cgroup", "rt_group"),
    ("proc/interrupts", "isolated_irqs"),
    ("proc/interrupts.later", "isolated_irqs"), ("dev/kmsg", None)])
@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
def test_check_endless_or_huge_file_is_bounded(tmp_path, f, item, kind):
    """A FIFO, /dev/zero or an 8 GiB (sparse) file in place of a file that
    check reads: it neither blocks nor reads without end; a FIFO or a
    device where a /proc file should be is refused with its reason, a huge
    file is read up to the bound, which the item says (the run is bounded
    by a timeout: it fails if the read blocks or runs on)."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    if kind == "huge":
        with open(tree / f, "r+b") as h:
            h.truncate(8 << 30)
    else:
        (tree / f).unlink()
        if kind == "fifo":
            os.mkfifo(tree / f)
        else:
            os.symlink("/dev/zero", tree / f)
    p = run(["check", "--json", "-T", "1", "--root", tree], timeout=20)
    assert p.returncode == 2, p.stderr
    it = items(json.loads(p.stdout))
    if item is None:
        return
    found = it[item]["found"]
    # the link to /dev/zero leads out of the tree: refused as such, the
    # host's file never read
    why = "not a regular file (a FIFO)" if kind == "fifo" else \
        "it leads out of the --root tree (a link or \"..\")"
    if kind == "huge":
        assert "/%s: larger than 4194304 bytes, read the first 4194304" % f \
            in found, found
    elif f.startswith("proc/self/"):
        assert found == "/%s cannot be read: %s" % (f, why), found
        assert it[item]["verdict"] == "n/a"
    else:
        assert "/%s cannot be read: %s" % (f, why) in found, found


def _as_nobody():
    if not is_root():
        return "not root: cannot run rtlat as another user"
    if not shutil.which("setpriv"):
        return "setpriv (util-linux) not installed"
    return None


def _check_as_nobody(top, tree):
    """rtlat check --json -T 0 of @tree as nobody (a copy of rtlat in
    @top, which nobody can reach)."""
    copy_rtlat(top / "rtlat")
    return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                           "--clear-groups", str(top / "rtlat"), "check",
                           "--json", "-T", "0", "--root", str(tree)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(_as_nobody() is not None, reason=str(_as_nobody()))
@pytest.mark.parametrize("sysfs_nohz", [True, False])
def test_check_unreadable_cmdline_and_config_are_not_absent(sysfs_nohz):
    """/proc/cmdline and /boot/config-* refused (mode 000, run as nobody):
    the items say they cannot be read and why, and draw no conclusion
    from the parameters or options they could not see (no "rcu_nocbs
    none", no advice to boot with rcu_nocbs=; without sysfs' nohz_full
    list, no "not nohz_full" and no ok)."""
    top = pathlib.Path(tempfile.mkdtemp(prefix="rtlat-check-"))
    try:
        os.chmod(top, 0o755)
        tree = top / "tree"
        shutil.copytree(BAD, tree, symlinks=True)
        if not sysfs_nohz:
            (tree / "sys/devices/system/cpu/nohz_full").unlink()
        os.chmod(tree / "proc/cmdline", 0)
        os.chmod(tree / "boot/config-6.12.0-dbg", 0)
        copy_rtlat(top / "rtlat")
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                            "--clear-groups", str(top / "rtlat"), "check",
                            "--json", "--root", str(tree)],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        it = items(json.loads(p.stdout))
        iso = it["isolation"]
        assert "/proc/cmdline cannot be read: Permission denied (not root)" \
            in iso["found"], iso
        assert "rcu_nocbs unknown" in iso["found"], iso
        assert "RCU callbacks" not in iso["found"], iso
        assert "rcu_nocbs" not in (iso["fix"] or ""), iso
        if sysfs_nohz:      # sysfs says: none
            assert "nohz_full none" in iso["found"], iso
            assert "CPU 2-3 not nohz_full" in iso["found"], iso
            assert iso["verdict"] == "warning"
        else:
            assert "nohz_full unknown" in iso["found"], iso
            assert "not nohz_full" not in iso["found"], iso
            assert iso["verdict"] == "n/a" and not iso["fix"], iso
        dbg = it["debug_config"]
        assert "/boot/config-6.12.0-dbg: Permission denied (not root)" in \
            dbg["found"], dbg
        assert dbg["verdict"] == "n/a", dbg
    finally:
        shutil.rmtree(top)


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
        copy_rtlat(top / "rtlat")
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


@pytest.mark.parametrize("fmt", [[], ["--json"]])
def test_check_stdout_write_error_said_once(fmt):
    """stdout full: the write error once, with its cause, exit 1 (check
    said it, then main() again)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([RTLAT, "check", "-T", "0", "--root", str(BAD)]
                           + fmt, stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    errs = [ln for ln in p.stderr.splitlines() if "error" in ln]
    assert errs == ["rtlat check: error: cannot write the results to "
                    "standard output: No space left on device"], p.stderr


# A file check reads, damaged in the three ways a tree (or a system) can
# be: -> the item that reads it, and the conclusion it must not draw from
# it (the file's absence). tests/data/sysroots/damaged-dirs and
# damaged-loops hold them as directories and as symbolic links to
# themselves; a FIFO is made here (git keeps none).
DAMAGED = {
    "sys/kernel/mm/transparent_hugepage/enabled":
        ("thp", "no transparent huge pages"),
    "proc/sys/kernel/timer_migration": ("timer_migration", "no NO_HZ"),
    "proc/swaps": ("swap", None),
    "proc/sys/kernel/sched_rt_runtime_us": ("rt_throttling", None),
    "sys/devices/system/cpu/isolated": ("isolation", None),
    "sys/devices/system/cpu/cpu2/topology/thread_siblings_list":
        ("smt", None),
    "proc/irq/24/smp_affinity_list": ("irq_affinity", None),
    "sys/kernel/tracing/available_tracers": ("tracers", "not mounted"),
    "sys/devices/system/cpu/cpu0/cpuidle/state0/name":
        ("cpuidle", "no cpuidle states"),
    "dev/cpu_dma_latency": ("cpuidle", None),
    "sys/fs/cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us":
        ("rt_group", "CONFIG_RT_GROUP_SCHED"),
    "sys/devices/system/clocksource/clocksource0/current_clocksource":
        ("clocksource", "no current_clocksource"),
    "proc/interrupts": ("isolated_irqs", None),
    "boot/config-6.12.0-dbg": ("debug_config", None),
    # on every CPU: no governor read is not "no cpufreq driver"
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor":
        ("cpufreq", "no cpufreq driver"),
}
# read only when the file above it reads: a tree of its own
SECOND = {"sys/kernel/mm/transparent_hugepage/defrag": ("thp", None)}
GOVERNORS = ["sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor" % c
             for c in range(1, 4)]
REASON = {"dir": "not a regular file (a directory)",
          "fifo": "not a regular file (a FIFO)",
          "loop": "Too many levels of symbolic links"}


def _damaged_tree(tmp_path, kind, files):
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    over = SYSROOTS / ("damaged-dirs" if kind == "dir" else "damaged-loops")
    for f in files:
        (tree / f).unlink()
        if kind == "fifo":
            os.mkfifo(tree / f)
        elif kind == "dir":
            shutil.copytree(over / f, tree / f)
        else:
            os.symlink(os.readlink(over / f), tree / f)
    return tree


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("kind", ["dir", "loop", "fifo"])
def test_check_damaged_files_give_their_reason(tmp_path, kind, first):
    """A file that is a directory, a loop of symbolic links or a FIFO is
    not a missing one: the item says that it cannot be read and why,
    never the conclusion of its absence (a directory read as "no THP",
    ELOOP as "no NO_HZ", a FIFO skipped silently)."""
    damaged = DAMAGED if first else SECOND
    tree = _damaged_tree(tmp_path, kind,
                         list(damaged) + (GOVERNORS if first else []))
    p = run(["check", "--json", "-T", "0", "--root", tree], timeout=30)
    assert p.returncode == 2, p.stderr
    it = items(json.loads(p.stdout))
    for f, (item, wrong) in damaged.items():
        said = "/%s cannot be read: %s" % (f, REASON[kind])
        if f.startswith("boot/"):
            said = "/%s: %s" % (f, REASON[kind])
        assert said in it[item]["found"], (f, it[item])
        if wrong:
            assert wrong not in it[item]["found"], (f, it[item])
    for i in it.values():
        # what cannot be read is no verdict's ground, and no wrong fix
        assert (i["fix"] is None) == (i["verdict"] in ("ok", "n/a")) or \
            i["id"] == "debug_config", i
    # the text says the same
    out = run(["check", "-T", "0", "--root", tree], timeout=30).stdout
    assert " ".join(out.split()).count(REASON[kind]) >= len(damaged) - 1


@pytest.mark.skipif(_as_nobody() is not None, reason=str(_as_nobody()))
def test_check_preempt_as_a_user_names_debugfs():
    """Not root, /sys/kernel/debug closed (mode 700, as debugfs is) and no
    boot log: the preemption mode comes from the kernel config, and the
    finding says that the mode in force is in debugfs, closed to a user
    (it said nothing about debugfs, or "debugfs not mounted")."""
    top = pathlib.Path(tempfile.mkdtemp(prefix="rtlat-check-"))
    try:
        os.chmod(top, 0o755)
        tree = top / "tree"
        shutil.copytree(BAD, tree, symlinks=True)
        (tree / "dev/kmsg").unlink()
        pre = tree / "sys/kernel/debug/sched/preempt"
        pre.parent.mkdir(parents=True)
        pre.write_text("none (voluntary) full lazy\n")
        os.chmod(tree / "sys/kernel/debug", 0o700)
        p = _check_as_nobody(top, tree)
        assert p.returncode == 2, p.stderr
        found = items(json.loads(p.stdout))["preempt"]["found"]
        assert "configured default (kernel config" in found, found
        assert ("the mode in force is in /sys/kernel/debug/sched/preempt, "
                "/sys/kernel/debug/sched/preempt cannot be read: Permission "
                "denied (not root)") in found, found
        assert "not mounted" not in found
    finally:
        shutil.rmtree(top)


# tests/data/sysroots/garbled/VARIANT holds files in the place of those of
# x86-badly-set-up (or x86-vm) that are there but garbage.
GARBLED = SYSROOTS / "garbled"
IRQ_GARBAGE = {
    "zeros": "no \"CPU0 CPU1 ...\" header line",
    "no-header": "no \"CPU0 CPU1 ...\" header line",
    "cut-lines": "line 2, \"0:\": 2 of 4 CPU counts",
    "cut-end": "line 12 cut short: no end of line",
}


def _garbled_tree(tmp_path, variant, base=BAD, files=None):
    tree = tmp_path / "tree"
    shutil.copytree(base, tree, symlinks=True)
    for f in files or [p.relative_to(GARBLED / variant)
                       for p in (GARBLED / variant).rglob("*") if p.is_file()]:
        shutil.copyfile(GARBLED / variant / f, tree / f)
    return tree


@pytest.mark.parametrize("later", [False, True])
@pytest.mark.parametrize("variant", sorted(IRQ_GARBAGE))
def test_check_garbled_interrupts_are_no_verdict(tmp_path, variant, later):
    """/proc/interrupts (or its second reading) all NUL bytes, without
    its CPU header line, its lines cut, or cut short at its end: it does
    not parse, the item is n/a with the reason (it said "ok": no count
    read, no interrupt), and gives no fix."""
    tree = _garbled_tree(tmp_path, variant, files=["proc/interrupts"])
    if later:
        shutil.move(tree / "proc/interrupts", tree / "proc/interrupts.later")
        shutil.copyfile(BAD / "proc/interrupts", tree / "proc/interrupts")
    f = "/proc/interrupts.later" if later else "/proc/interrupts"
    d = json.loads(run(["check", "--json", "--root", tree], check=2).stdout)
    irq = items(d)["isolated_irqs"]
    assert irq == {**irq, "verdict": "n/a", "fix": None,
                   "found": "%s cannot be read: not in the kernel's format "
                            "(%s)" % (f, IRQ_GARBAGE[variant])}, irq
    assert d["counts"] == {"bad": 5, "warning": 9, "ok": 0, "n/a": 3}
    # one reading (-T 0) reads the first file only
    d = json.loads(run(["check", "--json", "-T", "0", "--root", tree],
                       check=2).stdout)
    assert (items(d)["isolated_irqs"]["verdict"] == "n/a") != later


@pytest.mark.parametrize("kind,why", [
    ("zeros", "holds no kernel log records (PRIO,SEQ,USEC,FLAGS;TEXT)"),
    ("fifo", "not a character device (a FIFO)"),
    ("dir", "not a character device (a directory)"),
    ("loop", "Too many levels of symbolic links"),
    # links out of the tree: never read (a planted log out there was
    # taken for the tree's: "mode full PLANTED at boot")
    ("dev-zero", "it leads out of the --root tree (a link or \"..\")"),
    ("planted", "it leads out of the --root tree (a link or \"..\")")])
def test_check_kmsg_not_the_log_in_a_tree(tmp_path, kind, why):
    """dev/kmsg of the tree is not a kernel log: the preemption item says
    which source it used instead (the kernel config) and why not the boot
    log (it fell back silently)."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    k = tree / "dev/kmsg"
    k.unlink()
    if kind == "planted":
        out = tmp_path / "kmsg"
        out.write_text("6,1,0,-;Dynamic Preempt: full PLANTED\n")
        os.symlink(out, k)
    elif kind == "zeros":
        shutil.copyfile(GARBLED / "zeros/dev/kmsg", k)
    elif kind == "fifo":
        os.mkfifo(k)
    elif kind == "dir":
        shutil.copytree(SYSROOTS / "damaged-dirs/dev/kmsg", k)
    elif kind == "loop":
        os.symlink(os.readlink(SYSROOTS / "damaged-loops/dev/kmsg"), k)
    else:
        os.symlink("/dev/zero", k)
    p = run(["check", "--json", "-T", "0", "--root", tree], check=2,
            timeout=30)
    pre = items(json.loads(p.stdout))["preempt"]
    assert pre["verdict"] == "bad", pre
    assert pre["found"] == (
        "mainline PREEMPT_DYNAMIC, mode voluntary configured default (kernel "
        "config; preempt= may override it; boot log not used, /dev/kmsg "
        "cannot be read: %s; the mode in force is in "
        "/sys/kernel/debug/sched/preempt, debugfs not mounted)" % why), pre


def _in_mount_ns():
    if not is_root():
        return "not root: cannot bind-mount over /dev/kmsg"
    if not shutil.which("unshare"):
        return "unshare (util-linux) not installed"
    p = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if p.returncode:
        return "unshare -m refused: " + p.stderr.decode(errors="replace")
    return None


@pytest.mark.skipif(_in_mount_ns() is not None, reason=str(_in_mount_ns()))
@pytest.mark.parametrize("kind,why", [
    ("dev-zero", "not the kernel log (the character device 1:5; the log is "
                 "1:11)"),
    ("file", "not a character device (a regular file)"),
    ("fifo", "not a character device (a FIFO)")])
def test_check_kmsg_replaced_on_this_system(tmp_path, kind, why):
    """This system, /dev/kmsg replaced in a mount namespace of its own by
    /dev/zero, a regular file holding a log's records, or a FIFO: on the
    real root only the character device 1:11 is the kernel log; the item
    says why it was not used, and the source it used instead."""
    def preempt(pre=""):
        cmd = pre + "exec %s check --json -T 0" % RTLAT
        p = subprocess.run(["unshare", "-m", "sh", "-c", cmd],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode in (0, 2), p.stderr
        return items(json.loads(p.stdout))["preempt"]["found"]

    if "at boot (kernel log" not in preempt():
        pytest.skip("the preemption mode here is not read from the boot log")
    src = tmp_path / "kmsg"
    if kind == "dev-zero":
        src = "/dev/zero"
    elif kind == "file":
        src.write_text("6,290,253720,-;Dynamic Preempt: full\n")
    else:
        os.mkfifo(src)
    found = preempt("mount --make-rprivate / && mount --bind %s /dev/kmsg && "
                    % src)
    assert "boot log not used, /dev/kmsg cannot be read: %s;" % why in found, \
        found
    assert "at boot (kernel log" not in found
    assert "configured default (kernel config" in found or \
        "at boot (preempt= on the command line" in found, found


@pytest.mark.parametrize("variant,why", [
    ("huge", "larger than 4194304 bytes, not read"),
    ("truncated", "truncated deflate data"), ("corrupt", "CRC mismatch")])
def test_check_config_gz_oversized_or_damaged(tmp_path, variant, why):
    """/proc/config.gz over the bound of every file read (8 GiB, sparse),
    cut in half, or a byte changed: not read, the reason said; with
    /boot/config-RELEASE beside it, that one is read, and the reason
    /proc/config.gz was not is said too (it was dropped)."""
    vm = tmp_path / "vm"
    shutil.copytree(SYSROOTS / "x86-vm", vm, symlinks=True)
    bad = tmp_path / "bad"
    shutil.copytree(BAD, bad, symlinks=True)
    for tree in (vm, bad):
        gz = tree / "proc/config.gz"
        if variant == "huge":
            shutil.copyfile(SYSROOTS / "x86-vm/proc/config.gz", gz)
            with open(gz, "r+b") as h:
                h.truncate(8 << 30)
        else:
            shutil.copyfile(GARBLED / variant / "proc/config.gz", gz)
    p = run(["check", "--json", "-T", "0", "--root", vm], timeout=30)
    dbg = items(json.loads(p.stdout))["debug_config"]
    release = (SYSROOTS / "x86-vm/proc/sys/kernel/osrelease").read_text().strip()
    assert dbg == {**dbg, "verdict": "n/a", "found":
                   "the kernel configuration cannot be read (/proc/config.gz: "
                   "%s; /boot/config-%s: No such file or directory)"
                   % (why, release)}, dbg
    p = run(["check", "--json", "-T", "0", "--root", bad], check=2, timeout=30)
    dbg = items(json.loads(p.stdout))["debug_config"]
    assert dbg["verdict"] == "bad", dbg
    assert dbg["found"].endswith(
        "DEBUG_MUTEXES=y (/boot/config-6.12.0-dbg); /proc/config.gz: %s"
        % why), dbg


@pytest.mark.parametrize("tree,verdict", [
    ("x86-vm", "warning"), ("x86-rt-tuned", "ok"), ("preempt-rt", "ok")])
def test_check_tracers_without_tracefs_from_the_kernel_config(tmp_path, tree,
                                                              verdict):
    """The tracers' verdict is the kernel's, not the mount's: without
    tracefs it comes from the kernel configuration and is the same (it was
    n/a, "not mounted"). preempt-rt's tree has no config: the three
    options as Debian's 6.1.0-57-rt-amd64 config sets them are written."""
    t = tmp_path / "t"
    shutil.copytree(SYSROOTS / tree, t, symlinks=True)
    if tree == "preempt-rt":
        (t / "boot").mkdir()
        (t / "boot/config-6.1.0-57-rt-amd64").write_text(
            "CONFIG_HWLAT_TRACER=y\nCONFIG_OSNOISE_TRACER=y\n"
            "CONFIG_TIMERLAT_TRACER=y\n")

    def tracers():
        p = run(["check", "--json", "-T", "0", "--root", t], check=None,
                timeout=30)
        return items(json.loads(p.stdout))["tracers"]
    mounted = tracers()
    (t / "sys/kernel/tracing/available_tracers").unlink()
    unmounted = tracers()
    assert mounted["verdict"] == unmounted["verdict"] == verdict, unmounted
    assert "from the kernel configuration (" in unmounted["found"]
    assert "tracefs is not mounted" in unmounted["found"]
    assert (unmounted["fix"] is None) == (verdict == "ok")
    if verdict == "ok":
        assert unmounted["found"].startswith("timerlat osnoise hwlat ")
    else:
        assert unmounted["found"].startswith(
            "missing: timerlat osnoise hwlat (built in: none)")
    # with no configuration either: n/a, both reasons
    for cfg in list((t / "boot").glob("config-*")) + [t / "proc/config.gz"]:
        if cfg.exists():
            cfg.unlink()
    none = tracers()
    assert none["verdict"] == "n/a" and "cannot be read either" in none["found"]


CPUIDLE = "sys/devices/system/cpu/cpu0/cpuidle"
CLOCKSOURCE = "sys/devices/system/clocksource/clocksource0/current_clocksource"
# file of x86-badly-set-up, its damaged content, the item, its verdict
# then, and what its finding must say (each was judged from what was
# left: "C6 0 us" and ok, "no swap", "cgroup /us", "none of the debug
# options is set", "clocksource ok hpet" over two lines)
GARBAGE = [
    (CPUIDLE + "/state3/latency", b"abc\n", "cpuidle", "n/a",
     ["C6 ? us", "state3/latency holds no number"]),
    (CPUIDLE + "/state1/name", b"", "cpuidle", "warning",
     ["state1 2 us, C1E 10 us, C6 133 us", "state1/name: empty"]),
    ("dev/cpu_dma_latency", b"hello world\n", "cpuidle", "warning",
     ["/dev/cpu_dma_latency cannot be read: not a latency in us"]),
    ("proc/swaps", b"Filename\0 Type\n/dev/sda3 partition 8388604 0 -2\n",
     "swap", "n/a", ["/proc/swaps cannot be read: not text (a NUL byte "
                     "at offset 8)"]),
    ("proc/self/cgroup", b"4:cpu,cpuacct:/us\0er.slice/rt\n", "rt_group",
     "n/a", ["/proc/self/cgroup cannot be read: not text (a NUL byte at "
             "offset 17)"]),
    ("boot/config-6.12.0-dbg", b"", "debug_config", "n/a",
     ["/boot/config-6.12.0-dbg: not a kernel configuration (no CONFIG_ "
      "line)"]),
    ("boot/config-6.12.0-dbg", b"CONFIG_KASAN=y\n\0\0CONFIG_LOCKDEP=y\n",
     "debug_config", "n/a", ["not text (a byte 0x00 at offset 15)"]),
    (CLOCKSOURCE, b"hpet\nhpet\n", "clocksource", "n/a",
     ["current_clocksource: not a clocksource name"]),
    (CLOCKSOURCE, b"HPET\n", "clocksource", "n/a",
     ["current_clocksource: not a clocksource name"]),
    ("sys/kernel/mm/transparent_hugepage/enabled",
     b"always madvise \x1b[31mnever\n", "thp", "n/a",
     ["not in the kernel's format (the mode in force in [brackets])"]),
    # and what the re-trial found behind those
    (CPUIDLE + "/state3/latency", b"0x85\n", "cpuidle", "n/a",
     ["C6 ? us", "state3/latency holds no number"]),
    (CPUIDLE + "/state3/latency", b"133abc\n", "cpuidle", "n/a",
     ["state3/latency holds no number"]),
    (CPUIDLE + "/state3/latency", b"99999999999999999999999\n", "cpuidle",
     "n/a", ["state3/latency holds no number"]),
    (CPUIDLE + "/state3/latency", b"133\0\n", "cpuidle", "n/a",
     ["state3/latency cannot be read: not text (a NUL byte at offset 3)"]),
    (CPUIDLE + "/state3/latency", b"-5\n", "cpuidle", "n/a",
     ["state3/latency holds no latency"]),
    ("proc/sys/kernel/timer_migration", b"0abc\n", "timer_migration",
     "n/a", ["timer_migration holds no number"]),
    (CLOCKSOURCE, b"tsc\0\0\n", "clocksource", "n/a",
     ["not text (a NUL byte at offset 3)"]),
    ("sys/kernel/mm/transparent_hugepage/enabled", b"always [foo] never\n",
     "thp", "n/a", ["not in the kernel's format (mode foo"]),
    ("sys/kernel/mm/transparent_hugepage/enabled",
     b"[always] [madvise] never\n", "thp", "n/a",
     ["not in the kernel's format"]),
    ("sys/kernel/mm/transparent_hugepage/enabled",
     b"always madvise [never]x\n", "thp", "n/a",
     ["not in the kernel's format"]),
    # a regular file of 4 bytes is text, not the device's binary s32
    ("dev/cpu_dma_latency", b"999\n", "cpuidle", "warning",
     ["/dev/cpu_dma_latency held at 999 us by a process"]),
    ("dev/cpu_dma_latency", b"0\0\0", "cpuidle", "warning",
     ["/dev/cpu_dma_latency cannot be read: not text (a NUL byte at "
      "offset 1)"]),
    ("boot/config-6.12.0-dbg", b"# CONFIG_LOCKDEP is not set\n",
     "debug_config", "n/a", ["not a kernel configuration (no CONFIG_ line)"]),
    ("boot/config-6.12.0-dbg", b"garbage\x01\x02\nCONFIG_X=y\n",
     "debug_config", "n/a", ["not text (a byte 0x01 at offset 7)"]),
    # and what the last re-trial found (a ".." path was followed out of
    # the tree: a file planted there gave "bad"; the rest gave ok or a
    # figure of what was left)
    ("proc/self/cgroup", b"4:cpu,cpuacct:/../../../../../../../tmp/x\n",
     "rt_group", "n/a", ["/proc/self/cgroup: the cpu controller's cgroup "
                         "path is not as the kernel writes one"]),
    ("proc/self/cgroup", b"4:cpu,cpuacct:user.slice\n", "rt_group", "n/a",
     ["cgroup path is not as the kernel writes one"]),
    ("proc/self/cgroup", b"4:cpu,cpuacct:/user.slice/\x1b[31mrt\n",
     "rt_group", "n/a", ["cgroup /user.slice/?[31mrt: no directory "
                         "/sys/fs/cgroup/cpu,cpuacct/user.slice/?[31mrt"]),
    (CPUIDLE + "/state3/disable", b"x\n", "cpuidle", "n/a",
     ["C6 133 us (disabled ?)", "state3/disable holds no number"]),
    (CPUIDLE + "/state3/disable", b"2\n", "cpuidle", "n/a",
     ["state3/disable holds 2, not 0 or 1"]),
    (CPUIDLE + "/state3/disable", b"1\0\n", "cpuidle", "n/a",
     ["state3/disable cannot be read: not text (a NUL byte at offset 1)"]),
    ("proc/swaps", b"garbage\n", "swap", "n/a",
     ["/proc/swaps: the header is not as the kernel writes it"]),
    ("proc/swaps", b"Filename Type Size Used Priority\n"
     b"/dev/sda3 partition 12abc 0 -2\n", "swap", "n/a",
     ["/proc/swaps: a swap area's line is not as the kernel writes it"]),
    ("proc/sys/kernel/timer_migration", b"2\n", "timer_migration", "n/a",
     ["/proc/sys/kernel/timer_migration holds 2, not 0 or 1"]),
    (CLOCKSOURCE, b"\n", "clocksource", "n/a",
     ["current_clocksource is empty"]),
    # and what the breaker found behind those: numbers not as the kernel
    # prints them, a runtime no kernel writes, swaps lines that are not
    # the kernel's (each gave a verdict)
    ("proc/sys/kernel/timer_migration", b" 0\n", "timer_migration", "n/a",
     ["timer_migration holds no number"]),
    ("proc/sys/kernel/timer_migration", b"+1\n", "timer_migration", "n/a",
     ["timer_migration holds no number"]),
    (CPUIDLE + "/state3/disable", b"01\n", "cpuidle", "n/a",
     ["state3/disable holds no number"]),
    ("sys/fs/cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us", b"-0\n",
     "rt_group", "n/a", ["cpu.rt_runtime_us holds no number"]),
    ("sys/fs/cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us", b"-7\n",
     "rt_group", "n/a", ["cpu.rt_runtime_us holds -7, not a runtime (-1 or "
                         "more)"]),
    ("sys/fs/cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us", b"-1\n",
     "rt_group", "ok", ["cgroup /user.slice/rt has cpu.rt_runtime_us = -1: "
                        "no limit of its own"]),
    ("proc/swaps", b"FilenameJUNK Type Size Used Priority\n"
     b"/dev/sda3 partition 8388604 0 -2\n", "swap", "n/a",
     ["/proc/swaps: the header is not as the kernel writes it"]),
    ("proc/swaps", b"Filename Type Size Used Priority\n"
     b"/dev/sda3 garbage 8388604 0 -2\n", "swap", "n/a",
     ["a swap area's line is not as the kernel writes it"]),
    ("proc/swaps", b"Filename Type Size Used Priority\n"
     b"/dev/sda3 partition 8388604 0 -\n", "swap", "n/a",
     ["a swap area's line is not as the kernel writes it"]),
    ("proc/swaps", b"Filename Type Size Used Priority\n"
     b"/dev/sda3 partition 100 200 -2\n", "swap", "n/a",
     ["a swap area's line is not as the kernel writes it"]),
    ("proc/swaps", b"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
     b"/dev/sda3 partition 8388604 0 -2\n/swapfile file 1048576 0 -3\n",
     "swap", "warning", ["2 swap areas, 9.0 GiB"]),
    # C1 controls, bidi overrides and stray bytes reach no terminal
    ("proc/self/cgroup", b"4:cpu,cpuacct:/user.slice/\xff\xc2\x9b31m"
     b"\xe2\x80\xae\xc3\xa9\n", "rt_group", "n/a",
     ["cgroup /user.slice/??31m?\u00e9: no directory"]),
]


def test_check_never_reads_out_of_the_tree(tmp_path):
    """A link or a ".." in a copied tree that leads out of it is refused,
    said, and the file out there never judged: a planted runtime of 12345
    (a directory linked out), a cgroup directory linked to /, the host's
    /proc/self, a kernel release with "/.." naming a config outside (each
    gave a verdict of the host's files or of the planted one)."""
    out = tmp_path / "outside"
    (out / "cgroup/cpu,cpuacct/user.slice/rt").mkdir(parents=True)
    (out / "cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us"
     ).write_text("12345\n")
    (out / "cfg").write_text("CONFIG_FOO=y\nCONFIG_KCSAN=y\n")

    def check(prepare):
        tree = tmp_path / "tree"
        if tree.exists():
            shutil.rmtree(tree)
        shutil.copytree(BAD, tree, symlinks=True)
        prepare(tree)
        p = run(["check", "--json", "-T", "0", "--root", tree], check=2)
        return tree, items(json.loads(p.stdout))

    def fs_out(t):
        shutil.rmtree(t / "sys/fs")
        (t / "sys/fs").symlink_to(out)
    tree, it = check(fs_out)
    leads = "it leads out of the --root tree (a link or \"..\")"
    assert it["rt_group"] == {**it["rt_group"], "verdict": "n/a",
                              "found": "cgroup /user.slice/rt: "
                                       "/sys/fs/cgroup/cpu,cpuacct/user.slice"
                                       "/rt cannot be read: " + leads}

    def cg_root(t):
        d = t / "sys/fs/cgroup/cpu,cpuacct/user.slice/rt"
        shutil.rmtree(d)
        d.symlink_to("/")
    tree, it = check(cg_root)
    assert it["rt_group"]["verdict"] == "n/a", it["rt_group"]
    assert leads in it["rt_group"]["found"], it["rt_group"]

    def cg_gone(t):
        d = t / "sys/fs/cgroup/cpu,cpuacct/user.slice"
        shutil.rmtree(d)
        d.symlink_to(tmp_path / "no-such-dir")
        (tmp_path / "no-such-dir").mkdir()
    tree, it = check(cg_gone)
    # the link's target there, the cgroup below it not: out of the tree,
    # not "no directory" of the host's
    assert it["rt_group"] == {**it["rt_group"], "verdict": "n/a",
                              "found": "cgroup /user.slice/rt: "
                                       "/sys/fs/cgroup/cpu,cpuacct/user.slice"
                                       "/rt cannot be read: " + leads}

    def self_host(t):
        shutil.rmtree(t / "proc/self")
        (t / "proc/self").symlink_to("/proc/self")
    tree, it = check(self_host)
    assert it["rt_group"]["found"] == "/proc/self/cgroup cannot be read: " + \
        leads, it["rt_group"]

    def release_out(t):
        (t / "boot/config-x").mkdir()
        (t / "proc/sys/kernel/osrelease").write_text(
            "x/../../../outside/cfg\n")
    tree, it = check(release_out)
    dc = it["debug_config"]
    assert dc["verdict"] == "n/a" and "KCSAN" not in dc["found"], dc
    assert "/boot/config-x/../../../outside/cfg: " + leads in dc["found"], dc


def test_check_cgroup_of_a_container(tmp_path):
    """A cpu controller mounted from a cgroup of its own (a container's:
    mountinfo's 4th field /user.slice): the process's cgroup is found
    below it, not below a /user.slice that the mount does not have; a
    cgroup out of the mounted one is said."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    mi = tree / "proc/self/mountinfo"
    mi.write_text(mi.read_text().replace(
        "0:33 / /sys/fs/cgroup/cpu,cpuacct", "0:33 /user.slice "
        "/sys/fs/cgroup/cpu,cpuacct"))
    base = tree / "sys/fs/cgroup/cpu,cpuacct"
    shutil.move(base / "user.slice/rt", base / "rt")

    def rt_group():
        p = run(["check", "--json", "-T", "0", "--root", tree], check=2)
        return items(json.loads(p.stdout))["rt_group"]
    rg = rt_group()
    assert rg["verdict"] != "n/a" and "cgroup /user.slice/rt has " \
        "cpu.rt_runtime_us = " in rg["found"], rg
    want = (base / "rt/cpu.rt_runtime_us").read_text().strip()
    assert "cpu.rt_runtime_us = %s" % want in rg["found"], rg
    (tree / "proc/self/cgroup").write_text("4:cpu,cpuacct:/system.slice\n")
    rg = rt_group()
    assert rg == {**rg, "verdict": "n/a", "found": "the cgroup /system.slice "
                  "is not below the cgroup /user.slice mounted at "
                  "/sys/fs/cgroup/cpu,cpuacct (/proc/self/mountinfo)"}, rg


def test_check_dma_latency_only_from_the_pm_qos_device(tmp_path):
    """/dev/cpu_dma_latency a character device that is not a misc device
    (1:5, /dev/zero's): not read as the latency (its zeros gave "held at
    0 us" and ok)."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    dev = tree / "dev/cpu_dma_latency"
    dev.unlink()
    try:
        os.mknod(dev, 0o600 | 0o020000, os.makedev(1, 5))
        with open(dev, "rb") as f:
            f.read(4)
    except OSError as e:
        pytest.skip("no character device in %s: %s" % (tmp_path, e))
    p = run(["check", "--json", "-T", "0", "--root", tree], check=2)
    ci = items(json.loads(p.stdout))["cpuidle"]
    assert "/dev/cpu_dma_latency cannot be read: not the PM QoS device (the "\
        "character device 1:5; it is a misc device, 10:N)" in ci["found"], ci
    assert ci["verdict"] == "warning", ci


@pytest.mark.skipif(_as_nobody() is not None, reason=str(_as_nobody()))
def test_check_refused_cgroup_directory_is_not_absent():
    """A cgroup directory there but refused (mode 000, run as nobody):
    said so, not "no directory"."""
    top = pathlib.Path(tempfile.mkdtemp(prefix="rtlat-check-"))
    try:
        os.chmod(top, 0o755)
        tree = top / "tree"
        shutil.copytree(BAD, tree, symlinks=True)
        os.chmod(tree / "sys/fs/cgroup/cpu,cpuacct/user.slice", 0)
        p = _check_as_nobody(top, tree)
        assert p.returncode == 2, p.stderr
        rg = items(json.loads(p.stdout))["rt_group"]
        assert rg == {**rg, "verdict": "n/a", "found":
                      "cgroup /user.slice/rt: /sys/fs/cgroup/cpu,cpuacct/"
                      "user.slice/rt cannot be read: Permission denied (not "
                      "root)"}, rg
    finally:
        for d, _, _ in os.walk(top):
            os.chmod(d, 0o755)
        shutil.rmtree(top)


def test_check_damaged_config_fix(tmp_path):
    """A kernel configuration that is there but damaged: the fix asks for
    an intact one (it said to put one in the place of the damaged one);
    none there: the fix says where one goes."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    cfg = tree / "boot/config-6.12.0-dbg"

    def debug():
        p = run(["check", "--json", "-T", "0", "--root", tree], check=2)
        return items(json.loads(p.stdout))["debug_config"]
    cfg.write_bytes(b"CONFIG_KASAN=y\n\0")
    d = debug()
    assert d["verdict"] == "n/a" and d["fix"] == (
        "to check it: a readable, intact /boot/config-6.12.0-dbg (or "
        "/proc/config.gz)"), d
    cfg.unlink()
    # a link loop there: damaged too, not "put one there"
    cfg.symlink_to(cfg.name)
    d = debug()
    assert "Too many levels of symbolic links" in d["found"], d
    assert d["fix"].startswith("to check it: a readable, intact "), d
    cfg.unlink()
    d = debug()
    assert d["verdict"] == "n/a" and d["fix"] == (
        "to check it: a kernel with CONFIG_IKCONFIG_PROC=y, or its config in "
        "/boot/config-6.12.0-dbg"), d


@pytest.mark.parametrize("f,data,item,verdict,says", GARBAGE,
                         ids=["%s:%d" % (g[0].split("/")[-1], i)
                              for i, g in enumerate(GARBAGE)])
def test_check_garbage_is_no_ground(tmp_path, f, data, item, verdict, says):
    """A file of a copied tree that is not what the kernel writes (a NUL
    inside, junk for a number, no kernel format) is said, and no verdict
    comes of what was left of it."""
    tree = tmp_path / "tree"
    shutil.copytree(BAD, tree, symlinks=True)
    (tree / f).unlink()
    (tree / f).write_bytes(data)
    p = run(["check", "--json", "-T", "0", "--root", tree], timeout=30)
    it = items(json.loads(p.stdout))[item]
    assert it["verdict"] == verdict, it
    for s in says:
        assert s in it["found"], (s, it)
    assert "\x1b" not in p.stdout and "\n" not in it["found"]
    # the text: the same, and nothing a terminal would act on
    t = run(["check", "-T", "0", "--root", tree], timeout=30).stdout
    for c in ("\x1b", "\u009b", "\u202e", "\ufffd"):
        assert c not in t, (c, t)
