# SPDX-License-Identifier: GPL-2.0-or-later
"""A real PostgreSQL server for the tests (Debian's postgresql package):
initdb in a temporary directory as the unprivileged user "postgres", a
free port on 127.0.0.1 only, trust authentication; stopped (and its
directory removed) at the end. Each test gets a database of its own."""
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

USER = "postgres"


def bindir():
    """The newest installed server's bin directory, or None."""
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                  key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(dirs[-1]) if dirs else None


def why_not():
    """Why no server can be started here, or None."""
    if not bindir():
        return "no PostgreSQL server (apt-get install postgresql; make deps installs it)"
    try:
        pwd.getpwnam(USER)
    except KeyError:
        return "no user %s (the postgresql package creates it)" % USER
    if os.geteuid() != 0:
        return "needs root to run the server as user %s" % USER
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self):
        self.bin = bindir()
        self.dir = tempfile.mkdtemp(prefix="rtlat-pg-")
        pw = pwd.getpwnam(USER)
        os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o700)
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.counter = itertools.count(1)
        self.as_user([os.path.join(self.bin, "initdb"), "-D", self.data,
                      "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8"])
        self.start()

    def as_user(self, cmd, check=True, **kw):
        return subprocess.run(["runuser", "-u", USER, "--"] + cmd, check=check,
                              capture_output=True, text=True, **kw)

    def start(self):
        opts = ("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off "
                "-c max_connections=50" % (self.port, self.dir))
        self.as_user([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w",
                      "-t", "60", "-l", os.path.join(self.dir, "log"), "-o",
                      opts, "start"])

    def stop(self, mode="fast"):
        self.as_user([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w",
                      "-m", mode, "stop"], check=False)

    def kill(self):
        """SIGKILL the postmaster and its children (a crash)."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            pid = int(f.readline())
        subprocess.run(["pkill", "-KILL", "-P", str(pid)], check=False)
        os.kill(pid, 9)
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)

    def url(self, db="postgres"):
        return "postgresql://%s@127.0.0.1:%d/%s" % (USER, self.port, db)

    def psql(self, sql, db="postgres"):
        p = self.as_user([os.path.join(self.bin, "psql"), "-X", "-q", "-A",
                          "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                          "-p", str(self.port), "-d", db, "-c", sql])
        return p.stdout.strip()

    def new_db(self):
        name = "t%d" % next(self.counter)
        self.psql("CREATE DATABASE %s" % name)
        return self.url(name)

    def close(self):
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
