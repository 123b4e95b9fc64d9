#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run rtlat on a real PREEMPT_RT kernel: Debian's linux-image-rt-amd64 booted
# under qemu by ../shared/tools/rtvm (emulated CPU: correctness only, the
# latency figures mean nothing there).
# Usage: check-rtvm.sh RTLAT BUILD_DIR
set -e
bin=$(readlink -f "$1")
out=$(readlink -f "$2")/rtvm
here=$(cd "$(dirname "$0")" && pwd)
rtvm=${RTVM:-$here/../../shared/tools/rtvm}
[ -x "$rtvm" ] || rtvm=/work/shared/tools/rtvm
if [ ! -x "$rtvm" ]; then
	echo "check-rtvm: $rtvm not found (set RTVM=)" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
"$rtvm" -t 240 -i "$bin" -o /data/latency.json -d "$out" -- \
	sh -c 'cat /sys/kernel/realtime && uname -v && rtlat latency -T 3 --warmup 0.5s -q --json /data/latency.json' \
	| tee "$out/latency.log"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
log = open(out + "/latency.log").read()
assert "PREEMPT_RT" in log or "PREEMPT RT" in log, "guest kernel is not PREEMPT_RT"
d = json.load(open(out + "/latency.json"))
s = d["summary"]["latency"]
assert d["status"] == "complete", d["status"]
periods = d["duration_requested_ns"] // d["config"]["period_ns"]
for t in d["threads"]:
    x = t["series"]["latency"]
    assert x["samples"] + x["overruns"] == periods, (x["samples"], x["overruns"])
    assert t["policy"] == "fifo" and t["priority"] == 99, t
assert sum(b[2] for b in s["histogram"]["buckets"]) == s["samples"]
print("check-rtvm: latency on PREEMPT_RT: %d samples, %d overruns, accounted"
      % (s["samples"], s["overruns"]))
PY
