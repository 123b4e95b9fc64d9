# SPDX-License-Identifier: GPL-2.0-or-later
"""Output files that are not plain files: rtlat's own standard output (by a
/proc/self/fd link or as the same file), FIFOs without a reader, closed
standard descriptors, a reader of stdout that leaves, files that cannot be
replaced.

The system's /dev/stdout is never used: a test makes its own link to
/proc/self/fd/1 in its temporary directory.
"""
import json
import os
import select
import signal
import subprocess
import time

import pytest

from conftest import RTLAT, load_json_strict, needs_root, run

SHORT = ["-T", "0.3", "--warmup", "0.1s", "-c", "0"]
CYC_SHORT = ["-D", "0.3", "-i", "1000", "-a", "0"]


def stdout_link(tmp_path, fd=1):
    link = tmp_path / ("fd%d" % fd)
    link.symlink_to("/proc/self/fd/%d" % fd)
    return link


def text_then_json(out):
    """@out is text lines then one JSON document: return both."""
    i = out.index("\n{") + 1 if not out.startswith("{") else 0
    return out[:i], json.loads(out[i:])


def no_temporaries(d):
    return not [p for p in d.iterdir() if p.name.startswith(".rtlat")]


# --- --json on the standard output ---------------------------------------

@needs_root
@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_json_to_stdout_link_with_stdout_a_file(tmp_path, quiet):
    link = stdout_link(tmp_path)
    out = tmp_path / "out.txt"
    with open(out, "w") as f:
        p = subprocess.run([RTLAT, "latency"] + SHORT + quiet +
                           ["--json", str(link)], stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    text, doc = text_then_json(out.read_text())
    assert "RTS|" in text          # the text results are kept
    assert doc["schema"] == "rtlat-result"
    assert doc["status"] == "complete"     # once, at the end
    assert os.readlink(link) == "/proc/self/fd/1"
    assert no_temporaries(tmp_path)


@needs_root
def test_json_and_gnuplot_to_stdout_link_with_stdout_a_pipe(tmp_path):
    link = stdout_link(tmp_path)
    p = run(["latency"] + SHORT + ["-q", "-g", link, "--json", link],
            check=0)
    text, doc = text_then_json(p.stdout)
    assert "# rtlat" in text and "RTS|" in text
    assert text.index("RTS|") < text.index("# rtlat")   # gnuplot after
    assert doc["status"] == "complete"
    assert os.readlink(link) == "/proc/self/fd/1"


@needs_root
@pytest.mark.parametrize("test,args", [("latency", SHORT),
                                       ("noise", SHORT),
                                       ("cyclic", CYC_SHORT)])
def test_json_dash_is_stdout(tmp_path, test, args):
    """--json - is standard output, as /dev/stdout: the JSON after the
    text, once; no file named "-" (one was written in the working
    directory); the same for -g -."""
    p = subprocess.run([RTLAT, test] + args + ["-q", "--json", "-"],
                       cwd=tmp_path, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    text, doc = text_then_json(p.stdout)
    if test == "cyclic":
        assert "T: 0" in text and "thread" in doc, doc.keys()
    else:
        assert "RTS|" in text and doc["status"] == "complete", doc
    assert list(tmp_path.iterdir()) == []
    if test == "latency":
        p = subprocess.run([RTLAT, test] + args + ["-q", "-g", "-"],
                           cwd=tmp_path, capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, p.stderr
        assert p.stdout.index("RTS|") < p.stdout.index("\n# rtlat")
        assert list(tmp_path.iterdir()) == []


@needs_root
def test_json_to_the_file_that_is_stdout(tmp_path):
    out = tmp_path / "out.txt"
    with open(out, "w") as f:
        p = subprocess.run([RTLAT, "latency"] + SHORT +
                           ["-q", "--json", str(out)], stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    text, doc = text_then_json(out.read_text())
    assert "RTS|" in text and doc["status"] == "complete"
    assert no_temporaries(tmp_path)


@needs_root
@pytest.mark.parametrize("cmd", ["latency", "cyclic"])
def test_stdout_deleted_never_replaces_the_link(tmp_path, cmd):
    # stdout's file is deleted during the run: the link to it resolves to
    # "out.txt (deleted)"; it must be written on stdout, never renamed over
    link = stdout_link(tmp_path)
    out = tmp_path / "out.txt"
    args = SHORT + ["--json", str(link)] if cmd == "latency" else \
        CYC_SHORT + ["-q", "--json=%s" % link]
    with open(out, "w+") as f:
        os.unlink(out)
        p = subprocess.run([RTLAT, cmd] + args, stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        f.seek(0)
        content = f.read()
    assert p.returncode == 0, p.stderr
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    _, doc = text_then_json(content)
    assert doc["status"] == "complete"
    assert no_temporaries(tmp_path)


@needs_root
def test_cyclic_json_and_histfile_to_stdout_link(tmp_path):
    link = stdout_link(tmp_path)
    out = tmp_path / "out.txt"
    with open(out, "w") as f:
        p = subprocess.run([RTLAT, "cyclic"] + CYC_SHORT +
                           ["-h", "20", "--histfile=%s" % link,
                            "--json=%s" % link], stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    text, doc = text_then_json(out.read_text())
    assert "T: 0" in text and "# Histogram" in text
    assert text.index("T: 0") < text.index("# Histogram")
    assert doc["file_version"] and doc["num_threads"] == 1
    assert os.readlink(link) == "/proc/self/fd/1"


@needs_root
def test_given_descriptor_written_not_reopened(tmp_path):
    # --json /proc/self/fd/3 with 3 opened by the caller: written on it
    res = tmp_path / "r.json"
    with open(res, "w") as f:
        p = subprocess.run([RTLAT, "latency"] + SHORT +
                           ["-q", "--json", "/proc/self/fd/%d" % f.fileno()],
                           pass_fds=[f.fileno()], capture_output=True,
                           text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert load_json_strict(res)["status"] == "complete"
    # a descriptor that is not open is refused before measuring
    p = run(["latency"] + SHORT + ["--json", "/proc/self/fd/9"], check=1)
    assert "descriptor 9 is not open" in p.stderr


# --- a FIFO without a reader -----------------------------------------------

def wait_for_line(stream, text, timeout=30):
    """Read @stream (a pipe) until a line holds @text; never blocks past
    @timeout (a process that hangs silently fails the test)."""
    end = time.monotonic() + timeout
    fd = stream.fileno()
    seen = b""
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if not r:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        seen += chunk
        if text.encode() in seen:
            return seen.decode()
    raise AssertionError("no %r in stderr:\n%s" % (text, seen.decode()))


def holds_dma_latency(pid):
    fds = "/proc/%d/fd" % pid
    for fd in os.listdir(fds):
        try:
            if os.readlink(os.path.join(fds, fd)) == "/dev/cpu_dma_latency":
                return True
        except OSError:
            pass
    return False


@needs_root
@pytest.mark.parametrize("cmd,opt,label,sig", [
    ("latency", "--json", "--json", signal.SIGINT),
    ("latency", "-g", "-g/--gnuplot", signal.SIGTERM),
    ("cyclic", "--json", "--json", signal.SIGHUP),
])
def test_fifo_without_reader_gives_up_at_a_signal(tmp_path, cmd, opt, label,
                                                  sig):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = (SHORT if cmd == "latency" else CYC_SHORT) + \
        (["-q", opt, str(fifo)] if cmd == "latency"
         else ["-q", "%s=%s" % (opt, fifo)])
    # the signal at its default action, whatever this test inherited
    # (under nohup SIGHUP is ignored, and rtlat keeps it ignored)
    p = subprocess.Popen([RTLAT, cmd] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    try:
        err = wait_for_line(p.stderr, "waiting for a reader of FIFO %s (Ctrl-C gives up)"
                            % fifo)
        # nothing is held while it waits
        assert not holds_dma_latency(p.pid)
        p.send_signal(sig)
        rc = p.wait(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    err += p.stderr.read().decode()
    assert rc == 1
    assert "%s: no reader for FIFO %s: gave up at %s" \
        % (label, fifo, signal.strsignal(sig)) in err
    assert fifo.is_fifo()


@needs_root
def test_fifo_reader_arriving_late_gets_the_result(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    p = subprocess.Popen([RTLAT, "latency"] + SHORT +
                         ["-q", "--json", str(fifo)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_line(p.stderr, "waiting for a reader of FIFO")
        with open(fifo) as f:
            doc = json.loads(f.read())
        assert p.wait(timeout=10) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert doc["status"] == "complete"
    assert b"waiting" not in p.stderr.read()   # said once


# --- closed standard descriptors --------------------------------------------

def fd_target(pid, fd):
    try:
        return os.readlink("/proc/%d/fd/%d" % (pid, fd))
    except OSError:
        return None


@needs_root
@pytest.mark.parametrize("fd", [1, 2])
def test_closed_stdout_or_stderr_is_dev_null(tmp_path, fd):
    res = tmp_path / "r.json"
    # sh closes the descriptor, then execs rtlat
    p = subprocess.Popen(["sh", "-c", 'exec "$0" "$@" %d>&-' % fd, RTLAT,
                          "latency", "-T", "1", "--warmup", "0.1s", "-c",
                          "0", "--json", str(res)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = set()
    while p.poll() is None:
        for f in (0, 1, 2):
            t = fd_target(p.pid, f)
            if t:
                seen.add((f, t))
        time.sleep(0.02)
    assert p.returncode == 0, p.stderr.read()
    assert (fd, "/dev/null") in seen
    assert not [t for f, t in seen if t == "/dev/cpu_dma_latency"]
    assert load_json_strict(res)["status"] == "complete"


# --- the reader of stdout leaves ---------------------------------------------

@needs_root
@pytest.mark.parametrize("cmd", ["latency", "cyclic"])
def test_broken_pipe_is_named_and_the_result_complete(tmp_path, cmd):
    res = tmp_path / "r.json"
    args = ["-T", "2", "--warmup", "0.1s", "-c", "0", "--json", str(res)] \
        if cmd == "latency" else ["-D", "2", "-a", "0", "--json=%s" % res]
    p = subprocess.Popen([RTLAT, cmd] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stdout.readline()        # as "| head -1"
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=30) == 1
    assert "cannot write the results to standard output: Broken pipe" in err
    assert err.count("standard output") == 1
    d = load_json_strict(res)
    assert d["status"] == "complete"


# --- files that cannot be written, named by their option --------------------

@pytest.mark.parametrize("args,msg", [
    (["latency", "-T", "1", "--json", "/proc/version"],
     "--json: cannot replace /proc/version: /proc is in the kernel's proc file system, where no file can be created"),
    (["latency", "-T", "1", "-g", "/proc/version"],
     "-g/--gnuplot: cannot replace /proc/version: /proc is in the kernel's proc"),
    (["cyclic", "-D", "1", "--json=/proc/version"],
     "--json: cannot replace /proc/version: /proc is in the kernel's proc"),
    (["cyclic", "-D", "1", "-h", "10", "--histfile=/nonexistent-dir/h"],
     "--histfile: /nonexistent-dir/h: directory /nonexistent-dir does not exist"),
    (["cyclic", "-D", "1", "--json=/tmp"], "--json: /tmp is a directory"),
])
def test_unwritable_output_names_option_and_cause(args, msg):
    p = run(args, check=1)
    assert msg in p.stderr, p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("how", ["same", "dot", "link"])
def test_gnuplot_and_json_same_file_refused(tmp_path, how):
    """-g F --json F let one output clobber the other: refused before
    measuring, naming both (also through ./ and a symbolic link)."""
    f = tmp_path / "out.x"
    other = {"same": str(f), "dot": str(tmp_path / "." / "out.x"),
             "link": str(tmp_path / "link")}[how]
    if how == "link":
        os.symlink("out.x", other)
    p = run(["latency", "-T", "1", "-g", other, "--json", f], check=1)
    assert "are the same file: one would overwrite the other" in p.stderr
    assert p.stdout == "" and not f.exists()


def test_gnuplot_and_trace_events_same_file_refused(tmp_path):
    """--trace writes its raw events to FILE.trace.txt beside --json
    FILE.json: -g naming that file is refused before measuring (the
    histogram took its place while the report named it the events)."""
    js, ev = tmp_path / "r.json", tmp_path / "r.trace.txt"
    p = run(["latency", "--trace", "-T", "1", "--json", js, "-g", ev],
            check=1)
    assert "is the file of --trace's raw events beside --json" in p.stderr
    assert not js.exists() and not ev.exists()


def test_cyclic_histfile_and_json_same_file_refused(tmp_path):
    f = tmp_path / "h.x"
    p = run(["cyclic", "-l", "10", "-h", "10", "--histfile", f, "--json", f],
            check=1)
    assert "--histfile '%s' and --json '%s' are the same file" % (f, f) \
        in p.stderr
    assert not f.exists()


@needs_root
def test_dead_process_temporary_files_removed(tmp_path):
    """A SIGKILL during a result write leaves .rtlat-PID-N.tmp: the next
    run writing into that directory removes those of processes that are
    gone, and leaves a live process's alone."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    gone = [tmp_path / (".rtlat-%d-0.tmp" % dead.pid),
            tmp_path / (".rtlat-probe-%d" % dead.pid)]
    live = tmp_path / (".rtlat-%d-3.tmp" % os.getpid())
    other = tmp_path / ".rtlat-notes.tmp"
    for f in gone + [live, other]:
        f.write_text("partial")
    p = run(["latency", "-T", "0.3", "--warmup", "0", "--json",
             tmp_path / "r.json"], check=0)
    assert [f for f in gone if f.exists()] == []
    assert live.exists() and other.exists()
    assert "which died while writing it" in p.stderr
    assert load_json_strict(tmp_path / "r.json")["status"] == "complete"


@needs_root
def test_live_writer_temporary_file_kept_across_pid_namespaces(tmp_path):
    """In another PID namespace every PID of this one looks dead: the file
    of a writer that still holds its lock is kept, an unlocked one of a
    PID that is gone is removed."""
    import fcntl
    held = subprocess.Popen(["sleep", "60"])
    try:
        live = tmp_path / (".rtlat-%d-0.tmp" % held.pid)
        live.write_text("partial")
        fd = os.open(live, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)          # as a writer holds it
        gone = subprocess.Popen(["true"])
        gone.wait()
        dead = tmp_path / (".rtlat-%d-0.tmp" % gone.pid)
        dead.write_text("partial")
        p = subprocess.run(["unshare", "-p", "-f", "--mount-proc", RTLAT,
                            "latency", "-T", "0.2", "--warmup", "0", "-q",
                            "--json", str(tmp_path / "r.json")],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        assert live.exists()
        assert not dead.exists()
        os.close(fd)
    finally:
        held.kill()
        held.wait()


# --- one file for two outputs: refused before the run, every combination --

CLASH_OPTS = ["--json", "-g", "--metrics", "--junit", "--kcidb"]


@pytest.mark.parametrize("a,b", [(a, b) for i, a in enumerate(CLASH_OPTS)
                                 for b in CLASH_OPTS[i + 1:]])
def test_outputs_on_one_file_refused(tmp_path, a, b):
    """Two outputs naming the same file (one would overwrite the other)
    are refused before measuring, naming both, whatever the pair; the
    second through ./ and a symbolic link: by real path."""
    f = tmp_path / "out.x"
    for other in (str(f), str(tmp_path / "." / "out.x"),
                  str(tmp_path / "link")):
        if other.endswith("link") and not os.path.islink(other):
            os.symlink("out.x", other)
        p = run(["latency"] + SHORT + [a, f, b, other], check=1)
        assert "are the same file: one would overwrite the other" in \
            p.stderr, p.stderr
        names = {"-g": "-g/--gnuplot"}
        assert "%s '" % names.get(a, a) in p.stderr and \
            "%s '" % names.get(b, b) in p.stderr, p.stderr
        assert p.stdout == "" and not f.exists()


@pytest.mark.parametrize("opt", ["--metrics", "--junit", "--kcidb"])
def test_cyclic_outputs_on_one_file_refused(tmp_path, opt):
    """cyclic's own --json and --histfile take part in the same check."""
    f = tmp_path / "c.x"
    for other in ("--json", "--histfile"):
        p = run(["cyclic"] + CYC_SHORT + ["-h", "10", other, f, opt, f],
                check=1)
        assert "are the same file: one would overwrite the other" in \
            p.stderr, p.stderr
        assert "%s '%s'" % (opt, f) in p.stderr, p.stderr
        assert not f.exists()
