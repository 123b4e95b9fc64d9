# SPDX-License-Identifier: GPL-2.0-or-later
"""Process helpers for the load and suite tests: what is left of a session.

Tests start rtlat with start_new_session=True, so its session id is its
pid; every process it created (load workers, what they fork, --load-cmd
groups, suite runs) stays in that session whatever process group it moves
to. A session with no process left means nothing was left behind.
"""
import os
import signal
import subprocess
import time

from conftest import RTLAT


def _stats():
    """(pid, text of /proc/PID/stat) of every process."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                yield int(d), f.read()
        except OSError:
            continue


def children(pid):
    """The pids whose parent is pid."""
    return [c for c, st in _stats()
            if int(st[st.rindex(")") + 2:].split()[1]) == pid]


def session_procs(sid):
    """[(pid, state, comm)] of the processes (zombies too) of session sid."""
    out = []
    for d, st in _stats():
        comm = st[st.index("(") + 1:st.rindex(")")]
        fields = st[st.rindex(")") + 2:].split()
        # fields: state ppid pgrp session ...
        if int(fields[3]) == sid:
            out.append((int(d), fields[0], comm))
    return out


def wait_session_empty(sid, timeout=10.0):
    """Wait until session sid has no process; return what is left."""
    end = time.monotonic() + timeout
    left = session_procs(sid)
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = session_procs(sid)
    return left


def start(args, **kw):
    """Start rtlat in a new session; returns the Popen."""
    return subprocess.Popen([RTLAT] + [str(a) for a in args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, **kw)


def wait_for_loads(sid, names, timeout=15.0):
    """Wait until load workers rtlat-load-NAME of each name run in sid."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        comms = {c for _, _, c in session_procs(sid)}
        if all(any(c.startswith("rtlat-load-" + n[:4]) for c in comms)
               for n in names):
            return True
        time.sleep(0.05)
    return False


def stop(p, sig):
    os.kill(p.pid, sig)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    return out, err
