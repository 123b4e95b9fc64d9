# SPDX-License-Identifier: GPL-2.0-or-later
"""Load generators: rates, scheduling, lifecycle, nothing left behind."""
import os
import signal
import subprocess
import time

import pytest

from conftest import load_json_strict, needs_root, run
from procs import session_procs, start, stop, wait_for_loads, \
    wait_session_empty

GENERATORS = ["cpu", "cache", "fork", "io", "net", "msg"]


@pytest.mark.parametrize("name", GENERATORS)
def test_every_generator_achieves_a_rate(tmp_path, name):
    out = tmp_path / "load.json"
    p = run(["load", name, "-T", "1", "--load-workers", "1",
             "--load-io-dir", tmp_path, "--json", out], timeout=60)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(out)
    assert d["schema"] == "rtlat-load"
    [ld] = d["loads"]
    assert ld["name"] == name
    assert ld["error"] is None
    assert ld["count"] > 0 and ld["rate"] > 0
    assert ld["policy"] == "other"
    assert ld["unit"] in p.stdout and name in p.stdout
    assert [f.name for f in tmp_path.iterdir()] == ["load.json"]


def test_list_and_help():
    p = run(["load", "--list"], check=0)
    for name in GENERATORS + ["hell"]:
        assert name in p.stdout
    p = run(["load", "--help"], check=0)
    assert "--load-workers" in p.stdout and "--load-net-dest" in p.stdout


def test_bad_load_names_are_refused():
    p = run(["load", "bogus"], check=1)
    assert "unknown load 'bogus'" in p.stderr and "hell" in p.stderr
    p = run(["load"], check=1)
    assert "no load given" in p.stderr
    p = run(["latency", "--load", "cpu,nope", "-T", "1"], check=1)
    assert "--load" in p.stderr and "nope" in p.stderr


@pytest.mark.parametrize("names,why", [
    ("cpu,,io", 'empty element at position 5 in "cpu,,io"'),
    ("cpu+", 'empty element at position 5 in "cpu+"'),
    ("cpu++io", 'empty element at position 5 in "cpu++io"'),
    (",cpu", 'empty element at position 1 in ",cpu"'),
    ("", "empty load list"),
    (" ", "empty load list"),
])
def test_empty_load_names_are_refused(names, why):
    """An empty element of a load list is an error naming the option and
    the list, as -c does; none is the way to say no load."""
    p = run(["latency", "--load", names, "-T", "1", "-q"], check=1)
    assert "error: invalid value '%s' for --load: %s (none: no load)" % (
        names, why) in p.stderr, p.stderr
    p = run(["load", names, "-T", "1"], check=1)
    assert "error: invalid load NAME '%s': %s" % (names, why) in p.stderr
    assert "rtlat load:" not in p.stdout
    # names with white space around them are fine
    p = run(["load", " cpu , none+io ", "-T", "0.3", "--load-workers", "1"],
            check=0)
    assert "running cpu,io" in p.stderr


@pytest.mark.parametrize("dest", ["8.8.8.8", "192.168.1.1", "10.0.0.1",
                                  "::1", "example.org"])
def test_net_refuses_non_loopback(dest):
    for cmd in (["load", "net"], ["latency", "--load", "net"]):
        p = run(cmd + ["--load-net-dest", dest, "-T", "1"], check=1)
        assert "--load-net-dest" in p.stderr
        assert "127." in p.stderr


def test_net_accepts_other_loopback_address(tmp_path):
    out = tmp_path / "l.json"
    run(["load", "net", "--load-net-dest", "127.0.0.2", "-T", "1",
         "--load-workers", "1", "--json", out], check=0)
    [ld] = load_json_strict(out)["loads"]
    assert "127.0.0.2" in ld["note"] and ld["rate"] > 0


@needs_root
def test_net_without_raw_socket_falls_back_to_udp(tmp_path):
    if subprocess.run(["sh", "-c", "command -v setpriv"],
                      capture_output=True).returncode:
        pytest.skip("setpriv (util-linux) not installed")
    out = tmp_path / "l.json"
    from conftest import RTLAT
    p = subprocess.run(["setpriv", "--bounding-set=-net_raw",
                        "--inh-caps=-net_raw", RTLAT, "load", "net", "-T",
                        "1", "--load-workers", "1", "--json", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    [ld] = load_json_strict(out)["loads"]
    assert "UDP" in ld["note"] and ld["rate"] > 0


def test_io_refuses_unusable_directory(tmp_path):
    p = run(["load", "io", "--load-io-dir", tmp_path / "missing", "-T", "1"],
            check=1)
    assert "--load-io-dir" in p.stderr


def test_load_cmd_runs_in_its_own_group_and_reports(tmp_path):
    out = tmp_path / "l.json"
    mark = tmp_path / "ran"
    p = run(["load", "--load-cmd", "touch %s; sleep 30" % mark,
             "--load-cmd", "exit 3", "-T", "1", "--json", out], check=0)
    assert mark.exists()
    d = load_json_strict(out)
    loads = d["loads"]
    assert [ld["name"] for ld in loads] == ["cmd", "cmd"]
    assert loads[0]["exit_status"] is None      # stopped by rtlat
    assert loads[1]["exit_status"] == 3         # ended by itself
    assert "sleep 30" in p.stdout
    # a command that ended early is a warning, on stderr and in the file
    w = "load command 'exit 3' ended by itself with exit status 3"
    assert "warning: " + w in p.stderr
    assert [x for x in d["warnings"] if w in x] and d["error"] is None
    assert d["status"] == "complete"


@pytest.mark.parametrize("cmd,status", [("nonexistentcmd-rtlat", 127),
                                        ("/dev/null", 126)])
def test_load_cmd_that_cannot_run_is_an_error(tmp_path, cmd, status):
    out = tmp_path / "l.json"
    p = run(["load", "--load-cmd", cmd, "-T", "1", "--json", out], check=1)
    msg = "load command '%s' exited with status %d" % (cmd, status)
    assert "error: " + msg in p.stderr
    d = load_json_strict(out)
    assert d["status"] == "error" and msg in d["error"]
    assert d["loads"][0]["exit_status"] == status


@needs_root
def test_latency_load_cmd_early_end_and_failure(tmp_path):
    out = tmp_path / "r.json"
    # ended early: a warning, figures kept, exit 0
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--load-cmd",
             "sleep 0.2; exit 3", "--json", out], timeout=60)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(out)
    w = [x for x in d["warnings"] if "load command 'sleep 0.2; exit 3' "
         "ended by itself with exit status 3" in x]
    assert w and "warning: " + w[0] in p.stderr
    assert d["status"] == "complete" and d["loads"][0]["exit_status"] == 3
    # killed: a warning naming the signal
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--load-cmd",
             "kill -9 $$", "--json", out], timeout=60)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(out)
    assert [x for x in d["warnings"] if "killed by signal 9 (Killed)" in x]
    assert d["loads"][0]["exit_status"] == 128 + 9
    # cannot run: the run is an error
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--load-cmd",
             "nonexistentcmd-rtlat", "--json", out], timeout=60)
    assert p.returncode == 1, p.stderr
    d = load_json_strict(out)
    assert d["status"] == "error"
    assert "exited with status 127" in d["error"] and \
        "command not found" in d["error"]
    # running until the end: nothing to say
    p = run(["latency", "-T", "1", "--warmup", "0", "-q", "--load-cmd",
             "sleep 30", "--json", out], timeout=60)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(out)
    assert not [x for x in d["warnings"] if "load" in x], d["warnings"]
    assert d["loads"][0]["exit_status"] is None


def _procs_with(marker):
    """pids whose command line holds marker."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(d))
        except OSError:
            pass
    return found


def _wait_gone(marker, timeout=10.0):
    end = time.monotonic() + timeout
    left = _procs_with(marker)
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = _procs_with(marker)
    return left


def _escaping_cmds(tag):
    """Commands that leave processes in other sessions and groups."""
    return ["setsid sleep %s1 &" % tag,
            "(setsid sh -c 'sleep %s2 & exec sleep %s3') &" % (tag, tag),
            "sleep %s4 & exec setsid sleep %s5" % (tag, tag)]


def _start_to_files(args, tmp_path):
    """Start rtlat in a new session, its output into files: a pipe would
    make the test wait for whatever holds it open."""
    from conftest import RTLAT
    with open(tmp_path / "out", "w") as o, open(tmp_path / "err", "w") as e:
        return subprocess.Popen([RTLAT] + [str(a) for a in args], stdout=o,
                                stderr=e, start_new_session=True)


def test_load_cmd_escaped_processes_are_killed(tmp_path):
    tag = "36.%d" % (os.getpid() % 1000)
    args = ["load", "-T", "1"]
    for c in _escaping_cmds(tag):
        args += ["--load-cmd", c]
    p = _start_to_files(args, tmp_path)
    try:
        assert p.wait(timeout=60) == 0, (tmp_path / "err").read_text()
        assert _wait_gone("sleep\0" + tag, timeout=2) == []
    finally:
        for pid in _procs_with("sleep\0" + tag):
            os.kill(pid, signal.SIGKILL)
    # a command whose processes all run on after the shell ended is still
    # running: no "ended by itself"
    out = (tmp_path / "out").read_text() + (tmp_path / "err").read_text()
    assert "ended by itself" not in out


@needs_root
@pytest.mark.parametrize("how", ["end", "SIGKILL"])
def test_latency_load_cmd_escaped_processes_are_killed(tmp_path, how):
    tag = "37.%d%d" % (os.getpid() % 1000, how == "end")
    args = ["latency", "-T", "1" if how == "end" else "60", "--warmup",
            "0", "-q", "--json", tmp_path / "r.json"]
    for c in _escaping_cmds(tag):
        args += ["--load-cmd", c]
    p = _start_to_files(args, tmp_path)
    try:
        if how == "end":
            assert p.wait(timeout=60) == 0, (tmp_path / "err").read_text()
        else:
            end = time.monotonic() + 20
            while len(_procs_with("sleep\0" + tag)) < 5 and \
                    time.monotonic() < end:
                time.sleep(0.05)
            assert len(_procs_with("sleep\0" + tag)) == 5
            p.kill()
            p.wait(timeout=30)
        assert _wait_gone("sleep\0" + tag, timeout=3) == []
    finally:
        for pid in _procs_with("sleep\0" + tag):
            os.kill(pid, signal.SIGKILL)


def test_load_none_runs_nothing_for_the_time(tmp_path):
    out = tmp_path / "l.json"
    t0 = time.monotonic()
    p = run(["load", "none", "-T", "1", "--json", out], check=0)
    assert time.monotonic() - t0 >= 0.9
    assert "rtlat load: none for 1." in p.stdout
    d = load_json_strict(out)
    assert d["status"] == "complete" and d["loads"] == []
    # as with --load none on a test: none adds nothing to a list
    p = run(["load", "none,cpu", "-T", "1", "--load-workers", "1",
             "--json", out], check=0)
    assert [ld["name"] for ld in load_json_strict(out)["loads"]] == ["cpu"]


def test_load_json_checked_before_start(tmp_path):
    (tmp_path / "dir").mkdir()
    p = run(["load", "cpu", "-T", "1", "--json", tmp_path / "dir"], check=1)
    assert "--json" in p.stderr and "is a directory" in p.stderr
    assert "running" not in p.stderr and "did not run" not in p.stderr
    p = run(["load", "cpu", "-T", "1", "--json",
             tmp_path / "missing" / "l.json"], check=1)
    assert "--json" in p.stderr and "running" not in p.stderr
    # a write that fails at the end says so, not that a load failed
    p = run(["load", "cpu", "-T", "1", "--load-workers", "1", "--json",
             "/dev/full"], check=1)
    assert "cannot write the --json file" in p.stderr
    assert "did not run" not in p.stderr and "FAILED" not in p.stdout


@needs_root
def test_latency_keeps_rt_priority_under_hell(tmp_path):
    out = tmp_path / "r.json"
    p = run(["latency", "-T", "2", "--warmup", "200ms", "-q", "--load",
             "hell", "--load-workers", "1", "--load-io-dir", tmp_path,
             "--json", out], timeout=120)
    assert p.returncode == 0, p.stderr
    d = load_json_strict(out)
    assert d["status"] == "complete"
    for t in d["threads"]:
        assert (t["policy"], t["priority"]) == ("fifo", 99)
    names = [ld["name"] for ld in d["loads"]]
    assert names == GENERATORS
    for ld in d["loads"]:
        assert ld["policy"] == "other", ld
        assert ld["rate"] > 0 and ld["error"] is None, ld
    assert "# Loads" in p.stdout and "packets/s" in p.stdout
    assert "system" in d and d["system"]["kernel_release"]
    assert [f.name for f in tmp_path.iterdir()] == ["r.json"]


def test_loads_never_rt_even_when_started_rt(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root (chrt -f)")
    out = tmp_path / "l.json"
    from conftest import RTLAT
    p = subprocess.run(["chrt", "-f", "10", RTLAT, "load", "cpu", "-T", "1",
                        "--load-workers", "1", "--load-nice", "5", "--json",
                        str(out)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    [ld] = load_json_strict(out)["loads"]
    assert (ld["policy"], ld["nice"]) == ("other", 5)


def _io_dir_empty(d):
    return [f for f in os.listdir(d) if f != "l.json"]


@pytest.mark.parametrize("how", ["end", "SIGINT", "SIGTERM"])
def test_nothing_left_behind_load(tmp_path, how):
    args = ["load", "hell", "--load-workers", "1", "--load-io-dir", tmp_path,
            "--load-cmd", "sleep 60", "--json", tmp_path / "l.json"]
    if how == "end":
        args += ["-T", "2"]
    p = start(args)
    assert wait_for_loads(p.pid, GENERATORS + ["cmd"]), session_procs(p.pid)
    assert "running" in p.stderr.readline()     # all set up
    if how == "end":
        out, err = p.communicate(timeout=60)
    else:
        time.sleep(0.5)
        out, err = stop(p, getattr(signal, how))
    assert p.returncode == 0, err
    assert wait_session_empty(p.pid) == []
    assert _io_dir_empty(tmp_path) == []
    assert "cpu" in out and "msgs/s" in out
    d = load_json_strict(tmp_path / "l.json")
    assert d["status"] == ("complete" if how == "end" else "interrupted")


@needs_root
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGKILL"])
def test_nothing_left_behind_latency(tmp_path, how):
    p = start(["latency", "-T", "60", "-q", "--load", "hell",
               "--load-workers", "1", "--load-io-dir", tmp_path,
               "--load-cmd", "sleep 60", "--json", tmp_path / "r.json"])
    assert wait_for_loads(p.pid, GENERATORS + ["cmd"]), session_procs(p.pid)
    end = time.monotonic() + 20     # the result file exists: measuring
    while not (tmp_path / "r.json").exists() and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    out, err = stop(p, getattr(signal, how))
    if how == "SIGKILL":
        assert p.returncode == -signal.SIGKILL
    else:
        assert p.returncode == 0, err
        d = load_json_strict(tmp_path / "r.json")
        assert d["status"] == "interrupted"
        assert len(d["loads"]) == 7
    assert wait_session_empty(p.pid) == []
    assert sorted(os.listdir(tmp_path)) == ["r.json"]


@needs_root
def test_signal_during_load_setup_ends_cleanly(tmp_path):
    p = start(["latency", "-T", "60", "-q", "--load", "cache,fork",
               "--load-workers", "1", "--json", tmp_path / "r.json"])
    assert wait_for_loads(p.pid, ["cache", "fork"]), session_procs(p.pid)
    out, err = stop(p, signal.SIGTERM)
    assert p.returncode == 0, err
    assert load_json_strict(tmp_path / "r.json")["status"] == "interrupted"
    assert wait_session_empty(p.pid) == []


# --- a --load-cmd whose guard is stopped or killed ------------------------

def _wait_comm(sid, comm, timeout=20.0):
    """pid of the process named comm in session sid (None: not there)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pids = [pid for pid, st, c in session_procs(sid)
                if c == comm and st != "Z"]
        if pids:
            return pids[0]
        time.sleep(0.02)
    return None


def _cmd_line(out):
    [line] = [ln for ln in out.splitlines() if "cmd " in ln and " - " in ln]
    return line


@pytest.mark.parametrize("test", [
    "load", pytest.param("latency", marks=needs_root)])
def test_load_cmd_stopped_guard_group_killed_by_rtlat(tmp_path, test):
    """A --load-cmd guard stopped with SIGSTOP cannot kill its command: rtlat
    kills the guard after the grace and ends the command's process group
    itself (a compound command: the shell's child outlives the shell), and
    says that the worker had to be killed."""
    tag = "38.%d%s" % (os.getpid() % 1000, "1" if test == "load" else "2")
    args = [test, "-T", "2", "--load-cmd", "sleep %s; true" % tag,
            "--json", tmp_path / "r.json"]
    if test == "latency":
        args += ["--warmup", "0", "-q"]
    p = _start_to_files(args, tmp_path)
    try:
        guard = _wait_comm(p.pid, "rtlat-load-cmd")
        assert guard, session_procs(p.pid)
        end = time.monotonic() + 20
        while not _procs_with("sleep\0" + tag) and time.monotonic() < end:
            time.sleep(0.02)
        assert _procs_with("sleep\0" + tag)
        os.kill(guard, signal.SIGSTOP)
        rc = p.wait(timeout=60)
        assert _wait_gone("sleep\0" + tag, timeout=5) == []
    finally:
        for pid in _procs_with("sleep\0" + tag):
            os.kill(pid, signal.SIGKILL)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    out = (tmp_path / "out").read_text()
    err = (tmp_path / "err").read_text()
    why = ("worker 0: did not stop within 2 s of SIGTERM (stopped or hung) "
           "and was killed; rtlat ended the command's process group itself")
    line = _cmd_line(out)
    assert "ran " in line and "until stopped [FAILED: %s]" % why in line
    [ld] = load_json_strict(tmp_path / "r.json")["loads"]
    assert ld["error"] == why and ld["exit_status"] is None
    # rtlat load: a load that failed is an error; a test: a warning
    assert rc == (1 if test == "load" else 0), err
    assert "load command 'sleep %s; true' failed: %s" % (tag, why) in err
    assert wait_session_empty(p.pid) == []


@pytest.mark.parametrize("test", [
    "load", pytest.param("latency", marks=needs_root)])
def test_load_cmd_killed_guard_reported(tmp_path, test):
    """A command that kills its guard: the worker died, killed by signal
    9, before the loads were stopped - not 'ran until stopped'."""
    args = [test, "-T", "2", "--load-cmd", "kill -9 $PPID",
            "--json", tmp_path / "r.json"]
    if test == "latency":
        args += ["--warmup", "0", "-q"]
    p = run(args, timeout=60)
    # a guard killed before it marked itself running was taken for a load
    # that failed to start (exit 1, nothing on stdout) on a loaded host
    assert "died during set-up" not in p.stderr, p.stderr
    line = _cmd_line(p.stdout)
    assert "until stopped" not in line, line
    why = "worker 0: killed by signal 9 (Killed) after "
    assert " until its worker died [FAILED: " + why in line, line
    assert ", before the loads were stopped]" in line
    [ld] = load_json_strict(tmp_path / "r.json")["loads"]
    assert ld["error"].startswith(why) and ld["exit_status"] is None
    assert 0 <= ld["ran_ns"] <= ld["duration_ns"], line
    assert p.returncode == (1 if test == "load" else 0), p.stderr


@pytest.mark.parametrize("cmd,killed", [
    ('trap "" TERM; sleep 30', True), ("sleep 30", False)],
    ids=["ignores-sigterm", "ends-on-sigterm"])
def test_load_cmd_ignoring_sigterm_reported(tmp_path, cmd, killed):
    """A --load-cmd that ignores SIGTERM is SIGKILLed after the grace and
    said so (it was reported as 'ran 3.0 s until stopped')."""
    js = tmp_path / "r.json"
    p = run(["load", "-T", "1", "--load-cmd", cmd, "--json", js], timeout=60)
    assert p.returncode == 0, p.stderr
    line = _cmd_line(p.stdout)
    assert "until stopped" in line
    assert ("(still there 1.0 s after SIGTERM: it ignored it, or left its "
            "process group; SIGKILLed)" in line) \
        == killed, line
    [ld] = load_json_strict(js)["loads"]
    assert ld["killed_after_grace"] is killed
    assert ld["exit_status"] is None
