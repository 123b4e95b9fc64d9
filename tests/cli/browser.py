# SPDX-License-Identifier: GPL-2.0-or-later
"""Open a page in headless Chromium and look at it, through the DevTools
protocol on a pipe (--remote-debugging-pipe: requests on fd 3, replies on
fd 4, each message JSON ended by a NUL byte). No extra Python package.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars",
         "--window-size=1200,900", "--remote-debugging-pipe"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, exe, timeout=60):
        self.timeout = timeout
        self.tmp = tempfile.TemporaryDirectory(prefix="rtlat-chromium-")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # the child expects its ends on fds 3 and 4
        hi_r, hi_w = os.dup(to_r), os.dup(from_w)

        def fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [exe] + FLAGS + ["--user-data-dir=" + self.tmp.name,
                             "about:blank"],
            preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in (to_r, from_w, hi_r, hi_w):
            os.close(fd)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        req = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            req["sessionId"] = session
        os.write(self.w, json.dumps(req).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method):
        deadline = time.monotonic() + self.timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.w)
        os.close(self.r)
        self.tmp.cleanup()


def inspect(url, script, screenshot=None, exe=None):
    """Load url, wait for the load event, return the value of the JS
    expression script; save a PNG screenshot of the whole page if asked."""
    b = Browser(exe or chromium())
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})
        sid = b.call("Target.attachToTarget",
                     {"targetId": target["targetId"], "flatten": True})["sessionId"]
        b.call("Page.enable", session=sid)
        b.call("Page.navigate", {"url": url}, session=sid)
        b.wait_event("Page.loadEventFired")
        value = b.call("Runtime.evaluate",
                       {"expression": script, "returnByValue": True},
                       session=sid)["result"].get("value")
        if screenshot:
            shot = b.call("Page.captureScreenshot",
                          {"format": "png", "captureBeyondViewport": True},
                          session=sid)
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        return value
    finally:
        b.close()
