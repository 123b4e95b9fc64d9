# SPDX-License-Identifier: GPL-2.0-or-later
"""Faults users meet on real boards: a full disk, a read-only output
directory, limits lower than asked for, forbidden CPUs; and the selftest."""
import json
import os
import subprocess
import time

import pytest

from conftest import (RTLAT, unprivileged_rtlat, fill_fs, is_root, load_json_strict,
                      mount_tmpfs, needs_root, run, umount)


def test_selftest_passes_and_is_deterministic(tmp_path):
    p = run(["selftest"], check=0)
    assert " 0 failed" in p.stdout
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run(["selftest", "--result", a], check=0)
    run(["selftest", "--result", b], check=0)
    assert a.read_bytes() == b.read_bytes()
    d = load_json_strict(a)
    s = d["summary"]["latency"]
    assert s["samples"] + s["overruns"] == 5000
    assert d["host"] == {}


@needs_root
@pytest.mark.parametrize("freed", [False, True], ids=["stays-full", "freed"])
def test_disk_full_checkpoint_measurement_goes_on(tmp_path, freed):
    """A checkpoint that cannot be written (ENOSPC) keeps the previous
    version, is said once on stderr, and the measurement goes on for its
    whole -T (it used to stop at the first failed checkpoint). Space freed
    before the end: the final result is written, exit 0; still full: the
    last good checkpoint stays, exit 1."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    mount_tmpfs(mnt, "size=1m")
    try:
        j = mnt / "r.json"
        proc = subprocess.Popen([RTLAT, "latency", "-T", "4", "--warmup",
                                 "0.2s", "-q", "--checkpoint", "0.5s",
                                 "-p", "1000",
                                 "-c", str(max(os.sched_getaffinity(0))),
                                 "--json", str(j)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        # wait for a checkpoint with samples, then fill the file system
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if load_json_strict(j)["summary"]["latency"]["samples"] > 0:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.1)
        fill_fs(mnt / "filler")
        head = ""
        while "checkpoint not written" not in head:
            line = proc.stderr.readline()
            assert line, head
            head += line
        if freed:
            os.unlink(mnt / "filler")
        out, err = proc.communicate(timeout=30)
        err = head + err
        assert "No space left on device" in err
        assert err.count("checkpoint not written") == 1, err
        # measured the whole duration, not up to the full disk
        rts = [ln for ln in out.splitlines() if ln.startswith("RTS|")]
        assert rts and rts[-1].rstrip().endswith("00:00:04/00:00:04"), out
        d = load_json_strict(j)
        if freed:
            assert proc.returncode == 0, err
            assert d["status"] == "complete"
            assert d["summary"]["latency"]["samples"] + \
                d["summary"]["latency"]["overruns"] == 4000
        else:
            assert proc.returncode == 1, err
            assert "previous version is kept" in err
            assert d["status"] == "running"        # the last good checkpoint
            assert d["summary"]["latency"]["samples"] > 0
        assert not [p for p in mnt.iterdir() if ".tmp." in p.name]
    finally:
        umount(mnt)


@needs_root
def test_read_only_output_directory_refused_before_measuring(tmp_path):
    mnt = tmp_path / "ro"
    mnt.mkdir()
    mount_tmpfs(mnt, "ro,size=1m")
    try:
        t = time.monotonic()
        p = run(["latency", "-T", "10", "--json", mnt / "r.json"], check=1)
        assert "cannot write into directory" in p.stderr
        assert "Read-only file system" in p.stderr
        assert p.stdout == ""
        assert time.monotonic() - t < 5
    finally:
        umount(mnt)


def nobody(args, limits=()):
    pre = ["prlimit"] + list(limits) + ["--", "setpriv", "--reuid=nobody",
                                        "--regid=nogroup", "--clear-groups",
                                        "--inh-caps=-all"]
    return subprocess.run(pre + [unprivileged_rtlat()] + args,
                          capture_output=True,
                          text=True, timeout=30)


def can_raise_rtprio():
    return subprocess.run(["prlimit", "--rtprio=10", "--", "true"],
                          capture_output=True).returncode == 0


CPU_CGROUP = "/sys/fs/cgroup/cpu"


@needs_root
@pytest.mark.skipif(not os.path.exists(CPU_CGROUP + "/cpu.rt_runtime_us"),
                    reason="no cgroup v1 cpu controller with RT group "
                           "scheduling (cpu.rt_runtime_us)")
def test_cgroup_without_rt_runtime_is_named(tmp_path):
    """As root in a cgroup whose cpu.rt_runtime_us is 0, SCHED_FIFO is
    refused: the error names the cgroup, its file and the fix, not root,
    CAP_SYS_NICE or RLIMIT_RTPRIO (which are all there)."""
    cg = "%s/rtlat-test-%d" % (CPU_CGROUP, os.getpid())
    os.mkdir(cg)
    try:
        with open(cg + "/cpu.rt_runtime_us") as f:
            assert f.read().strip() == "0"      # a new group has none

        def enter():
            with open(cg + "/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
        p = subprocess.run([RTLAT, "latency", "-T", "1"], capture_output=True,
                           text=True, timeout=60, preexec_fn=enter)
        assert p.returncode == 1, p.stderr
        name = cg[len(CPU_CGROUP):]
        assert "in the cgroup %s, whose real-time runtime is 0" % name \
            in p.stderr, p.stderr
        assert cg + "/cpu.rt_runtime_us = 0" in p.stderr
        assert "RLIMIT_RTPRIO" not in p.stderr
        assert p.stdout == ""
    finally:
        os.rmdir(cg)


@needs_root
@pytest.mark.skipif(not os.path.exists(CPU_CGROUP + "/cpu.rt_runtime_us"),
                    reason="no cgroup v1 cpu controller with RT group "
                           "scheduling (cpu.rt_runtime_us)")
def test_cgroup_small_rt_runtime_is_the_throttling_named(tmp_path):
    """A cgroup with a small RT budget (100 ms of every second) throttles
    the run: the warning names the cgroup's file and budget, not only the
    system's sched_rt_runtime_us (whose fix would not help)."""
    cg = "%s/rtlat-test-small-%d" % (CPU_CGROUP, os.getpid())
    os.mkdir(cg)
    try:
        with open(cg + "/cpu.rt_runtime_us", "w") as f:
            f.write("100000")

        def enter():
            with open(cg + "/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
        p = subprocess.run([RTLAT, "latency", "-T", "0.5", "-q"],
                           capture_output=True, text=True, timeout=60,
                           preexec_fn=enter)
        assert p.returncode == 0, p.stderr
        assert ("RT throttling is active in this process's cgroup %s "
                "(RT group scheduling: %s/cpu.rt_runtime_us = 100000 of "
                "cpu.rt_period_us 1000000)" % (cg[len(CPU_CGROUP):], cg)) \
            in p.stderr, p.stderr
    finally:
        os.rmdir(cg)


@pytest.mark.skipif(not is_root(), reason="needs root to switch to nobody")
def test_rtprio_limit_below_request_is_an_error_not_a_fallback(tmp_path):
    # RLIMIT_RTPRIO 10 (or the current hard limit when this sandbox lacks
    # CAP_SYS_RESOURCE to raise it), priority 20 requested
    limits = ["--rtprio=10"] if can_raise_rtprio() else []
    limit = 10 if limits else int(subprocess.run(
        ["sh", "-c", "ulimit -Hr"], capture_output=True, text=True).stdout)
    if limit >= 20:
        pytest.skip("RLIMIT_RTPRIO hard limit is already >= 20")
    p = nobody(["latency", "-T", "1", "-P", "20", "--no-mlock"], limits)
    assert p.returncode == 1
    assert "policy fifo priority 20" in p.stderr
    assert "RLIMIT_RTPRIO to at least 20 (now %d (soft) / %d (hard)" \
        % (limit, limit) in p.stderr
    assert p.stdout == ""
    if not limits:
        return
    # within the limit it runs, and really at SCHED_FIFO 5
    j = tmp_path / "r.json"
    os.chmod(tmp_path, 0o777)
    p = nobody(["latency", "-T", "1", "--warmup", "0.2s", "-P", "5",
                "--no-mlock", "-q", "--json", str(j)], limits)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(j)
    assert all(t["policy"] == "fifo" and t["priority"] == 5
               for t in d["threads"])


@needs_root
def test_forbidden_cpu_lists_usable_ones():
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        pytest.skip("needs two CPUs")
    p = subprocess.run(["taskset", "-c", str(allowed[0]), RTLAT, "latency",
                        "-T", "1", "-c", str(allowed[1])],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1
    assert ("CPU %d is not in this process's allowed CPUs" % allowed[1]) \
        in p.stderr
    assert "usable CPUs: %d" % allowed[0] in p.stderr


# --- output paths that are not plain files ------------------------------

@needs_root
def test_json_through_symlink_keeps_link_and_mode(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to("target.json")
    run(["latency", "-T", "0.3", "--warmup", "0.1s", "-q", "-c", "0",
         "--json", link], check=0)
    assert link.is_symlink()
    assert load_json_strict(target)["status"] == "complete"
    assert (os.stat(target).st_mode & 0o777) == 0o640
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rtlat")]


@needs_root
def test_json_to_fifo_and_dev_stdout_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    run(["latency", "-T", "0.3", "--warmup", "0.1s", "-q", "-c", "0",
         "--json", fifo], check=0)
    out, _ = reader.communicate(timeout=10)
    assert json.loads(out)["status"] == "complete"   # one document
    assert fifo.is_fifo()
    # the cyclictest idiom: the file is the standard output (through a link
    # of our own: the system's /dev/stdout is never put at risk)
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    p = run(["latency", "-T", "0.3", "--warmup", "0.1s", "-q", "-c", "0",
             "--json", link], check=0)
    doc = p.stdout[p.stdout.index("{"):]
    assert json.loads(doc)["schema"] == "rtlat-result"
    assert os.readlink(link) == "/proc/self/fd/1"


@pytest.mark.parametrize("args,msg", [
    (["-g", "."], "-g/--gnuplot: . is a directory"),
    (["--json", ""], "--json: empty file name"),
    (["-T", "0.5ns"], "at least 1 ns"),
    (["--quiet=1"], "option '--quiet' takes no value"),
    (["--p", "5"], "ambiguous option '--p': --period, --priority, --policy"),
    (["-c", "99999999999999999999"], "CPU number out of range"),
])
def test_refused_before_measuring(args, msg):
    t = time.monotonic()
    p = run(["latency", "-T", "5"] + args, check=1)
    assert msg in p.stderr, p.stderr
    assert time.monotonic() - t < 3


def test_long_result_name_accepted(tmp_path):
    # NAME_MAX-long names work: the temporary name does not grow from it
    name = tmp_path / ("x" * 250 + ".json")
    run(["selftest", "--result", name], check=0)
    assert load_json_strict(name)["schema"] == "rtlat-result"


def test_results_lost_on_stdout_are_an_error():
    with open("/dev/full", "w") as full:
        p = subprocess.run([RTLAT, "selftest"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == 1
    assert "cannot write the results to standard output" in p.stderr


@pytest.mark.parametrize("args", [["--help"], ["help"], ["help", "latency"],
                                  ["report", "--help"], ["cyclic", "--help"]])
def test_help_lost_on_stdout_is_named(args):
    # a help text that cannot be written is named as the help, not as
    # results (a trial finding)
    with open("/dev/full", "w") as full:
        p = subprocess.run([RTLAT] + args, stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=30)
    assert p.returncode == 1
    assert "cannot write the help to standard output: No space left on " \
        "device" in p.stderr, p.stderr
