# SPDX-License-Identifier: GPL-2.0-or-later
"""--metrics FILE and --metrics-port PORT: OpenMetrics text of a run.

The text is parsed with a real parser (prometheus_client's OpenMetrics
parser, Debian's python3-prometheus-client) while the run goes on and at
its end; counters never go down from one read to the next; histogram
buckets are cumulative, exact against the result file's histogram, and
the +Inf bucket is the count and the result's samples.
"""
import errno
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from conftest import RTLAT, needs_root, run

parser = pytest.importorskip(
    "prometheus_client.openmetrics.parser",
    reason="python3-prometheus-client is not installed (make deps)")

OM_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8"


def parse(text):
    """{family name: family} of the OpenMetrics text @text (whole: the
    parser refuses a text without "# EOF")."""
    return {f.name: f for f in
            parser.text_string_to_metric_families(text)}


def key(sample):
    return (sample.name, tuple(sorted(sample.labels.items())))


def counters(fams):
    """{(name, labels): value} of every sample that must never go down."""
    out = {}
    for f in fams.values():
        if f.type in ("counter", "histogram"):
            for s in f.samples:
                if f.type == "histogram" and s.name.endswith("_sum"):
                    continue      # goes down with negative latencies
                out[key(s)] = s.value
    return out


def check_histograms(fams):
    """Buckets cumulative, +Inf == _count == rtlat_samples_total."""
    h = fams["rtlat_latency_seconds"]
    per = {}
    for s in h.samples:
        lab = dict(s.labels)
        le = lab.pop("le", None)
        k = tuple(sorted(lab.items()))
        per.setdefault(k, {"b": [], "count": None})
        if s.name.endswith("_bucket"):
            per[k]["b"].append((float(le), s.value))
        elif s.name.endswith("_count"):
            per[k]["count"] = s.value
    samples = {tuple(sorted(s.labels.items())): s.value
               for s in fams["rtlat_samples"].samples}
    assert per, "no histogram"
    for k, v in per.items():
        b = v["b"]
        assert [x[0] for x in b] == sorted(x[0] for x in b)
        assert b[-1][0] == float("inf")
        vals = [x[1] for x in b]
        assert vals == sorted(vals), "buckets not cumulative: %r" % (b,)
        assert b[-1][1] == v["count"] == samples[k]
    return per


def series_of(labels):
    return int(labels["sampler"]), labels["series"]


def check_against_result(fams, res):
    """The final text against the result file: samples, misses, max and
    every bucket count (its edge is a histogram bucket's upper edge)."""
    per = check_histograms(fams)
    threads = {t["id"]: t for t in res["threads"]}
    seen = 0
    for k, v in per.items():
        lab = dict(k)
        tid, name = series_of(lab)
        se = threads[tid]["series"][name]
        assert v["count"] == se["samples"]
        h = se["histogram"]
        for le, n in v["b"][:-1]:
            le_ns = round(le * 1e9)
            want = h["underflow"] + sum(c for lo, hi, c in h["buckets"]
                                        if hi <= le_ns)
            # an edge never cuts a bucket of the result's histogram
            assert not any(lo <= le_ns < hi for lo, hi, c in h["buckets"])
            assert n == want, (le, n, want)
        seen += 1
    for s in fams["rtlat_misses"].samples:
        tid, name = series_of(s.labels)
        se = threads[tid]["series"][name]
        assert s.value == se.get("overruns", se.get("lost"))
    for s in fams["rtlat_latency_max_seconds"].samples:
        tid, name = series_of(s.labels)
        assert round(s.value * 1e9) == \
            threads[tid]["series"][name]["max_ns"]
    return seen


def start(args, **kw):
    return subprocess.Popen(
        [RTLAT] + [str(a) for a in args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kw)


def read_url(proc):
    """The URL rtlat says it serves (stderr, before the measurement)."""
    line = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"metrics at (http://\S+)", line)
        if m:
            return m.group(1)
        if not line and proc.poll() is not None:
            break
    raise AssertionError("no 'metrics at' line: %r" % line)


def monotonic_reads(texts):
    """Parse each text; every counter at least its last value."""
    last = {}
    for t in texts:
        fams = parse(t)
        check_histograms(fams)
        for k, v in counters(fams).items():
            assert v >= last.get(k, 0), (k, v, last.get(k))
            last[k] = v
    return last


@needs_root
def test_metrics_file_live(tmp_path):
    prom = tmp_path / "rtlat.prom"
    js = tmp_path / "r.json"
    p = start(["latency", "-T", "3", "--warmup", "0", "--interval", "0.2s",
               "--metrics", prom, "--metrics-label", 'soak "A"\\1',
               "--json", js])
    texts = []
    while p.poll() is None:
        if prom.exists():
            t = prom.read_text()
            if not texts or t != texts[-1]:
                texts.append(t)
        time.sleep(0.05)
    out, err = p.communicate()
    assert p.returncode == 0, err
    final = prom.read_text()
    running = [t for t in texts if parse(t)["rtlat_running"].samples[0].value]
    # seen while measuring, with samples
    live = [t for t in running if max(
        s.value for s in parse(t)["rtlat_samples"].samples) > 0]
    assert len(live) >= 2, "fewer than two reads with samples during the run"
    last = monotonic_reads(texts + [final])
    fams = parse(final)
    assert fams["rtlat_running"].samples[0].value == 0
    info = fams["rtlat_run"].samples[0].labels
    assert info["test"] == "latency"
    assert info["label"] == 'soak "A"\\1'
    assert info["kernel"] == os.uname().release
    res = json.load(open(js))
    assert check_against_result(fams, res) == len(res["threads"])
    assert fams["rtlat_intervals"].samples[0].value >= 3 / 0.2 - 1
    # the file is replaced, never written in place: no temporary left
    assert sorted(os.listdir(tmp_path)) == ["r.json", "rtlat.prom"]
    assert last


def scrape(url, method="GET"):
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, r.headers.get("Content-Type"), r.read().decode()


def raw_request(port, data, host="127.0.0.1"):
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(data)
        chunks = []
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
    return b"".join(chunks).decode(errors="replace")


@needs_root
def test_metrics_http_live(tmp_path):
    js = tmp_path / "r.json"
    p = start(["latency", "-T", "6", "--warmup", "0", "--interval", "0.2s",
               "--metrics-port", "0", "--json", js])
    try:
        url = read_url(p)
        assert url.startswith("http://127.0.0.1:") and url.endswith("/metrics")
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        texts = []
        # idle connections (more than it keeps) never lock a scraper out
        idle = [socket.create_connection(("127.0.0.1", port))
                for _ in range(20)]
        while p.poll() is None and len(texts) < 12:
            st, ctype, body = scrape(url)
            assert st == 200 and ctype == OM_TYPE
            texts.append(body)
            time.sleep(0.2)
        for s in idle:
            s.close()
        assert len(texts) >= 5, "the run ended before 5 scrapes"
        # "/" is the document too, HEAD has no body
        assert parse(scrape(url[:-len("metrics")])[2])
        st, _, body = scrape(url, "HEAD")
        assert st == 200 and body == ""
        with pytest.raises(urllib.error.HTTPError) as e:
            scrape(url + "x")
        assert e.value.code == 404
        with pytest.raises(urllib.error.HTTPError) as e:
            scrape(url, "POST")
        assert e.value.code == 405
        assert raw_request(port, b"nonsense\r\n\r\n").startswith(
            "HTTP/1.1 400 ")
        # binary garbage (a NUL byte) is refused at once, not held until
        # the 10 s idle close (generous slack: the poll is every 0.1 s)
        for junk in (b"\x00\xff\r\n\r\n", b"\x16\x03\x01\x00\x05"):
            t0 = time.monotonic()
            assert raw_request(port, junk).startswith("HTTP/1.1 400 ")
            assert time.monotonic() - t0 < 5
        # a request longer than 4 KiB is refused, not buffered
        big = b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 8000 + b"\r\n\r\n"
        assert raw_request(port, big).startswith("HTTP/1.1 431 ")
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, err
    last = monotonic_reads(texts)
    assert max(v for (n, _), v in last.items()
               if n == "rtlat_samples_total") > 0
    # closed with the run
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


@needs_root
def test_metrics_sigint_closes(tmp_path):
    """SIGINT in the middle: the server is closed, the file is final."""
    prom = tmp_path / "m.prom"
    js = tmp_path / "r.json"
    p = start(["latency", "-T", "60", "--warmup", "0", "--metrics-port",
               "0", "--metrics", prom, "--json", js])
    try:
        url = read_url(p)
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        assert parse(scrape(url)[2])
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    res = json.load(open(js))
    assert res["status"] == "interrupted"
    fams = parse(prom.read_text())
    assert fams["rtlat_running"].samples[0].value == 0
    check_against_result(fams, res)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


@needs_root
def test_metrics_two_sided_test(tmp_path):
    """switch: an event thread that measures nothing is left out, the
    switch samplers' series are in."""
    prom = tmp_path / "m.prom"
    js = tmp_path / "r.json"
    run(["switch", "-T", "1", "--warmup", "0", "-q", "--metrics", prom,
         "--json", js], check=0)
    fams = parse(prom.read_text())
    res = json.load(open(js))
    n = check_against_result(fams, res)
    assert n == sum(len(t["series"]) for t in res["threads"]) > 0


def test_metrics_bad_options(tmp_path):
    for args, why in [
            (["--metrics-port", "70000"], "0 to 65535"),
            (["--metrics-port", "x"], "0 to 65535"),
            (["--metrics-addr", "localhost", "--metrics-port", "0"],
             "IPv4 or IPv6"),
            (["--metrics-addr", "::1"], "needs --metrics-port"),
            (["--metrics-label", "a\nb"], "control"),
            (["--metrics-label", "x"], "needs --metrics"),
            (["--metrics", tmp_path], "directory"),
            (["--metrics", "/dev/null"], "not a regular file"),
            (["--metrics", tmp_path / "a.json", "--json",
              tmp_path / "a.json"], "overwrite")]:
        p = run(["latency", "-T", "1"] + args)
        assert p.returncode == 1, (args, p.stderr)
        assert why in p.stderr, (args, p.stderr)
        assert "metrics" in p.stderr


@needs_root
def test_metrics_port_in_use(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    try:
        js = tmp_path / "r.json"
        p = run(["latency", "-T", "1", "--metrics-port", port, "--json", js])
        assert p.returncode == 1, p.stderr
        assert "127.0.0.1 port %d" % port in p.stderr
        assert os.strerror(errno.EADDRINUSE) in p.stderr
        assert "--metrics-port" in p.stderr
        # an address of no interface here
        p = run(["latency", "-T", "1", "--metrics-port", "0",
                 "--metrics-addr", "192.0.2.1"])
        assert p.returncode == 1, p.stderr
        assert os.strerror(errno.EADDRNOTAVAIL) in p.stderr
    finally:
        s.close()


@needs_root
def test_metrics_ipv6_loopback(tmp_path):
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError as e:
        pytest.skip("no IPv6 loopback: %s" % e)
    p = start(["latency", "-T", "2", "--warmup", "0", "--metrics-port", "0",
               "--metrics-addr", "::1"])
    try:
        url = read_url(p)
        assert url.startswith("http://[::1]:")
        assert parse(scrape(url)[2])
        p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0


@needs_root
def test_metrics_cyclic(tmp_path):
    """cyclic takes cyclictest's options, and --metrics: one histogram per
    thread, its samples the T: line's cycles (wake-ups), its misses the
    overruns line's."""
    prom = tmp_path / "m.prom"
    p = run(["cyclic", "-t", "1", "-i", "1000", "-D", "2", "-q",
             "--metrics", prom], check=0)
    fams = parse(prom.read_text())
    per = check_histograms(fams)
    assert len(per) == 1
    assert fams["rtlat_run"].samples[0].labels["test"] == "cyclic"
    samples = fams["rtlat_samples"].samples[0].value
    misses = fams["rtlat_misses"].samples[0].value
    m = re.search(r"C:\s*(\d+)", p.stdout)
    o = re.search(r"# Overruns: (\d+)", p.stdout)
    assert m and o, p.stdout
    assert samples == int(m.group(1)) > 0
    assert misses == int(o.group(1))


@needs_root
def test_metrics_port_0_is_said_with_q(tmp_path):
    """-q with --metrics-port 0: the URL with the port the kernel chose is
    still said (there is no other way to learn it), and serves."""
    p = start(["latency", "-q", "-T", "3", "--warmup", "0",
               "--metrics-port", "0"])
    try:
        url = read_url(p)
        assert int(url.rsplit(":", 1)[1].split("/")[0]) > 0
        assert parse(scrape(url)[2])
        p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0
