# SPDX-License-Identifier: GPL-2.0-or-later
"""rtlat's standard descriptors: closed ones are not taken by the files it
opens."""
import os
import subprocess
import time

import pytest

from conftest import RTLAT, load_json_strict, needs_root


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
