#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run rtlat on a real PREEMPT_RT kernel: Debian's linux-image-rt-amd64 booted
# under qemu by ../shared/tools/rtvm (emulated CPU: correctness only, the
# latency figures mean nothing there).
#
# In one guest boot:
#  - rtlat latency on every CPU: accounting;
#  - rtlat latency --trace (trace events) and --trace=timerlat on CPU 1: the
#    parts add up, the instance is removed, the timerlat reference has
#    samples;
#  - rtlat check: it must say PREEMPT_RT, with the timerlat, osnoise and
#    hwlat tracers, and exit 2 exactly when an item is bad;
#  - trace events turned on and off for 10 s beside rtlat latency: the
#    guest must live on (the emulator runs one TCG thread, see below);
#  - rtlat noise --mode hwlat --trace on CPU 1, three times: the kernel's
#    hwlat tracer runs first as the reference (tracing_thresh and
#    hwlat_detector/ put back); rtlat's largest gap that nothing traced
#    explains and the tracer's largest sample over the three runs must be
#    of the same order of magnitude (a factor of 10 either way). Not
#    rtlat's largest gap: the tracer spins with interrupts off, and under
#    the emulated CPU the tick's interrupt alone takes 3 to 5 ms (it was
#    the largest gap, 45 times the tracer's, in CI). The untraced gaps are
#    the host's stalls of the emulated CPU, which come in bursts; one 1.5 s
#    spin of each can catch a burst the other did not, three interleaved
#    ones share them; rtlat killed
#    (SIGKILL) in the middle of that reference: its guard puts the knobs
#    back and removes the instance;
#  - rtlat irq --source serial:ttyS4,ttyS5 over the two UARTs rtvm -w wires
#    to each other, with --trace, --irq-prio and --irq-cpu, while ttyS5 is
#    held open by another process (its interrupt thread lives before and
#    after rtlat): the events accounted, the interrupt thread found, its
#    priority set and restored, the affinity and the port's settings
#    restored, t1 from the irq_handler_entry event between t0 and t2, and
#    a stall of the interrupt thread's CPU by a task above it (a static
#    helper, tests/rtvm/stall.c) seen in t2 - t1 (TX's interrupt, whose
#    thread sends the byte, is held on the other CPU);
#  - rtla timerlat (Debian package rtla, copied in when installed) on the
#    same CPU and period, in three rounds interleaved with rtlat --trace
#    and --trace=timerlat (the host's stalls come in bursts): the means of
#    its IRQ latency and rtlat's irq latency must be of the same order of
#    magnitude (a factor of 10 either way), as must the timerlat reference
#    rtlat records. Without rtla on the host that
#    comparison is skipped with the reason;
#  - rtlat sysinfo (text and --json: PREEMPT_RT, the -rt- release) and a
#    short rtlat suite without load and with hell (its tables, the loads'
#    packets/s and forks/s).
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
# --trace runs rtlat-trace (beside rtlat in the guest's /bin)
trace_in=
for h in rtlat-trace; do
	[ -x "$(dirname "$bin")/$h" ] && trace_in="$trace_in -i $(dirname "$bin")/$h"
done
# One TCG thread for both vCPUs. QEMU 7.2's multi-threaded TCG (rtvm's
# default) can go on running its translation of kernel text the guest has
# patched since: when the kernel turns a tracepoint on or off (text_poke_bp
# puts an int3 on the site, then the new instruction), a vCPU keeps
# trapping on the int3 memory no longer holds, its handler finds no
# breakpoint and runs the site again, forever. The guest froze so (every
# task and its clock stopped, nothing printed) in 2 of about 10 check-rtvm
# boots, and within 10 s of toggling trace events in a loop; with one
# thread, never in 15 min of that loop. rtvm takes no qemu option: a
# qemu-system-x86_64 first in PATH adds it. (make deps installs qemu.)
qemu=$(command -v qemu-system-x86_64 || true)
if [ -n "$qemu" ]; then
	mkdir -p "$out/qemu"
	printf '#!/bin/sh\nexec %s -accel tcg,thread=single "$@"\n' "$qemu" \
		> "$out/qemu/qemu-system-x86_64"
	chmod +x "$out/qemu/qemu-system-x86_64"
	PATH=$out/qemu:$PATH
	export PATH
else
	echo "check-rtvm: qemu-system-x86_64 not installed (make deps installs it): rtvm installs it, and the guest runs with multi-threaded TCG, which can freeze it when trace events are turned on or off" >&2
fi
# the stall of the serial step: static (the guest has no chrt, no python)
${CC:-cc} -static -O2 -o "$out/stall" "$here/../tests/rtvm/stall.c"
rtla_in=
if command -v rtla >/dev/null 2>&1; then
	rtla_in="-i $(command -v rtla)"
else
	echo "check-rtvm: rtla not installed (apt-get install rtla): the comparison with rtla timerlat is skipped" >&2
fi
# every step bounded: a step that hangs is named, with its threads' stacks;
# a heartbeat on the console tells a guest whose tasks still run from one
# that froze whole (the emulator's stale translation, above)
guest='(while sleep 20; do echo "guest alive at $(cut -d" " -f1 /proc/uptime) s"; done) & hb=$!
step() { name=$1; shift; "$@" & p=$!; n=0
	while [ -d /proc/$p ] && [ $n -lt 300 ]; do sleep 1; n=$((n+1)); done
	if [ -d /proc/$p ]; then echo "$name hung"; for t in /proc/$p/task/*; do
		echo "$t $(cat $t/comm) $(cut -d" " -f3 $t/stat) $(cat $t/wchan)"; cat $t/stack; done
		kill -9 $p; fi; wait $p; echo "$name rc=$?"; }
cat /sys/kernel/realtime && uname -v
rtlat check -T 1 > /data/check.txt; echo "check rc=$?"
rtlat check -T 0 --json > /data/check.json
tog() { n=0; end=$(($(cut -d. -f1 /proc/uptime) + 10)); while [ $(cut -d. -f1 /proc/uptime) -lt $end ]; do
	for e in timer/hrtimer_expire_entry sched/sched_switch irq/irq_handler_entry; do
		echo 1 > /sys/kernel/tracing/events/$e/enable; echo 0 > /sys/kernel/tracing/events/$e/enable; done
	n=$((n+1)); done; echo "$n rounds" > /data/toggles.txt; }
rtlat latency -p 500 -T 11 --warmup 0 -q > /dev/null 2>&1 & lp=$!
step toggles tog
wait $lp
cat /sys/kernel/tracing/osnoise/timerlat_period_us > /data/osnoise.txt
step latency rtlat latency -T 3 --warmup 0.5s -q --json /data/latency.json
step trace sh -c "exec rtlat latency -c 1 -p 1000 -T 3 --warmup 0.5s -q --trace --json /data/trace.json > /data/trace.out"
step timerlat sh -c "exec rtlat latency -c 1 -p 1000 -T 3 --warmup 0.5s -q --trace=timerlat --json /data/timerlat.json > /data/timerlat.out"
rtla_step() { if command -v rtla >/dev/null; then step rtla$1 sh -c "exec rtla timerlat top -c 1 -p 1000 -d 3 -q -n --dma-latency 0 > /data/rtla$1.txt 2>&1"; fi; }
rtla_step
for k in 2 3; do
	step trace$k sh -c "exec rtlat latency -c 1 -p 1000 -T 3 --warmup 0.5s -q --trace > /data/trace$k.out"
	step timerlat$k sh -c "exec rtlat latency -c 1 -p 1000 -T 3 --warmup 0.5s -q --trace=timerlat > /data/timerlat$k.out"
	rtla_step $k
done
sleep 1000 < /dev/ttyS5 & h5=$!
sleep 1000 < /dev/ttyS4 & h4=$!
sleep 0.3
rx=$(cat /sys/class/tty/ttyS5/irq); tx=$(cat /sys/class/tty/ttyS4/irq)
thr() { for p in /proc/[0-9]*; do case "$(cat $p/comm 2>/dev/null)" in irq/$1-*) echo ${p#/proc/};; esac; done; }
tp=$(thr $rx); tq=$(thr $tx)
txaff=$(cat /proc/irq/$tx/smp_affinity_list); echo 0 > /proc/irq/$tx/smp_affinity_list
stty -F /dev/ttyS5 9600 -raw echo
{ echo "irq $rx thread $tp"; echo "before $(cut -d" " -f39-41 /proc/$tp/stat) $(cat /proc/irq/$rx/smp_affinity_list)"; stty -F /dev/ttyS5 -g; } > /data/serial-state.txt
( sleep 1.8; echo "during $(cut -d" " -f39-41 /proc/$tp/stat) tx $(cut -d" " -f39 /proc/$tq/stat)" >> /data/serial-state.txt
  exec stall 1 80 50 0 2 600 > /data/stall.txt ) & st=$!
step serial sh -c "exec rtlat irq --source serial:ttyS4,ttyS5 -c 0 -p 2000 -T 3 --warmup 0.5s --trace --irq-prio 60 --irq-cpu 1 > /data/serial.out"
wait $st
{ echo "after $(cut -d" " -f39-41 /proc/$tp/stat) $(cat /proc/irq/$rx/smp_affinity_list)"; stty -F /dev/ttyS5 -g; } >> /data/serial-state.txt
echo $txaff > /proc/irq/$tx/smp_affinity_list; kill $h4 $h5
ls /sys/kernel/tracing/instances > /data/instances.txt
cat /sys/kernel/tracing/osnoise/timerlat_period_us >> /data/osnoise.txt
knobs() { cat /sys/kernel/tracing/tracing_thresh /sys/kernel/tracing/hwlat_detector/width /sys/kernel/tracing/hwlat_detector/window | tr "\n" " "; echo; }
knobs > /data/hwlat_knobs.txt
step hwlat sh -c "exec rtlat noise --mode hwlat -c 1 -T 3 --warmup 0.5s --trace -q > /data/noise.out"
for k in 2 3; do step hwlat$k sh -c "exec rtlat noise --mode hwlat -c 1 -T 3 --warmup 0.5s --trace -q > /data/noise$k.out"; done
knobs >> /data/hwlat_knobs.txt
ls /sys/kernel/tracing/instances >> /data/instances.txt
knobs > /data/hwlat_kill.txt
rtlat noise --mode hwlat -c 1 -T 20 --width 200ms --window 400ms --warmup 0 -q > /dev/null 2>&1 & np=$!
n=0; while [ ! -d /sys/kernel/tracing/instances/rtlat-hwlat-$np ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
sleep 0.5; knobs >> /data/hwlat_kill.txt
kill -9 $np; wait $np; echo "hwlat killed rc=$?"
n=0; while [ -d /sys/kernel/tracing/instances/rtlat-hwlat-$np ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
knobs >> /data/hwlat_kill.txt
ls /sys/kernel/tracing/instances | grep -c "^rtlat-hwlat-$np\$" >> /data/hwlat_kill.txt
rtlat sysinfo > /data/sysinfo.txt; rtlat sysinfo --json > /data/sysinfo.json
ip link set lo up
step suite sh -c "exec rtlat suite -T 1 --warmup 0 --loads none,hell -q --load-workers 1 --label rtvm --out /tmp/res > /data/suite.txt"
kill $hb
true'
# shellcheck disable=SC2086
# files come back over the emulated serial console: only small text ones
# (the --trace result files are checked on the host by tests/cli)
"$rtvm" -w -t "${RTVM_TIMEOUT:-900}" -i "$bin" $trace_in -i "$out/stall" $rtla_in \
	-o /data/latency.json -o /data/serial.out -o /data/serial-state.txt \
	-o /data/stall.txt \
	-o /data/trace.out -o /data/timerlat.out -o /data/instances.txt \
	-o /data/osnoise.txt -o /data/rtla.txt -o /data/check.txt -o /data/check.json \
	-o /data/toggles.txt \
	-o /data/trace2.out -o /data/trace3.out -o /data/timerlat2.out \
	-o /data/timerlat3.out -o /data/rtla2.txt -o /data/rtla3.txt \
	-o /data/noise.out -o /data/noise2.out -o /data/noise3.out -o /data/hwlat_knobs.txt -o /data/hwlat_kill.txt \
	-o /data/sysinfo.txt -o /data/sysinfo.json -o /data/suite.txt \
	-d "$out" -- sh -c "$guest" \
	| tee "$out/latency.log"
python3 - "$out" <<'PY'
import json, os, re, sys
out = sys.argv[1]
log = open(out + "/latency.log").read()
chk = open(out + "/check.txt").read()
rows = {l.split()[0]: l.split()[1] for l in chk.splitlines()
        if l and not l.startswith((" ", "#"))}
assert re.search(r"^preempt +ok +PREEMPT_RT, kernel ", chk, re.M), chk
assert re.search(r"^tracers +ok +timerlat osnoise hwlat", chk, re.M), chk
rc = 2 if "bad" in rows.values() else 0
assert "check rc=%d" % rc in log, (rc, chk)
# trace events turned on and off for 10 s while both CPUs take timers: the
# guest lives through it (the emulator's stale translation froze it there,
# see qemu above)
tog = open(out + "/toggles.txt").read().split()
assert "toggles rc=0" in log and tog[1] == "rounds" and int(tog[0]) > 0, tog
print("check-rtvm: trace events turned on and off %s times (3 events), the guest lived on" % tog[0])
# and its JSON: the same verdicts, the measured cost of a clock read
cj = json.load(open(out + "/check.json"))
it = {i["id"]: i for i in cj["items"]}
assert it["preempt"]["verdict"] == "ok", it["preempt"]
assert it["preempt"]["found"].startswith("PREEMPT_RT, kernel "), it["preempt"]
assert it["tracers"]["verdict"] == "ok", it["tracers"]
assert it["tracers"]["found"].startswith("timerlat osnoise hwlat"), it["tracers"]
assert cj["clock_read_ns"] > 0, cj.get("clock_read_ns")
print("check-rtvm: rtlat check on PREEMPT_RT: preempt ok, tracers ok; %s"
      % chk.splitlines()[-1].lstrip("# "))
for step in ("latency", "trace", "timerlat", "serial", "hwlat", "hwlat2",
             "hwlat3", "rtla", "suite"):
    assert step + " hung" not in log, "guest step '%s' hung (stacks in %s/latency.log)" % (step, out)
assert "latency rc=0" in log, "rtlat latency failed in the guest"
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

# --trace through trace events: the text summary (RTK, RTW lines)
def us(x):
    return round(float(x) * 1000)


def rtk(text):
    """part -> (samples, avg_ns) from the RTK lines"""
    r = {}
    for l in text.splitlines():
        f = [x.strip() for x in l.split("|")]
        if f[0] == "RTK" and f[1] != "part":
            r[f[1]] = (int(f[2]), us(f[4]) if f[4] != "n/a" else None)
    return r


assert "trace rc=0" in log, "rtlat --trace failed in the guest"
text = open(out + "/trace.out").read()
k = rtk(text)
parts = ("irq latency", "handler to wake-up", "wake-up to running",
         "return to user")
m = re.search(r"# trace: (\d+) of (\d+) samples broken down", text)
traced, total = int(m.group(1)), int(m.group(2))
assert traced >= total // 2, m.group(0)
assert all(k[p][0] == traced for p in parts), k
assert abs(sum(k[p][1] for p in parts) - k["traced latency"][1]) <= 4, k
worst = us(re.search(r"RTW\|worst sample[^:]*: ([\d.]+) us", text).group(1))
wp = [us(re.search(r"RTW\|  %s +(-?[\d.]+) us" % p, text).group(1))
      for p in parts]
assert sum(wp) == worst, (wp, worst)
inst = open(out + "/instances.txt").read().split()
assert not [i for i in inst if i.startswith("rtlat-")], inst
ours = k["irq latency"][1]
dom = re.search(r"RTW\|dominant: ([a-z -]+),", text).group(1)
ctx = re.search(r"RTW\|timer \S+ expired (in [a-z ]+context)", text).group(1)
print("check-rtvm: --trace on PREEMPT_RT: %d of %d samples broken down, "
      "irq latency avg %.1f us, worst %.1f us dominated by %s (timer expired %s)"
      % (traced, total, ours / 1000, worst / 1000, dom, ctx))

# --trace=timerlat: the kernel's own reference beside it
assert "timerlat rc=0" in log, "rtlat --trace=timerlat failed in the guest"
text = open(out + "/timerlat.out").read()
m = re.search(r"RTL\|timerlat cpu 1\|irq ([\d.]+)/([\d.]+)/([\d.]+) us\|"
              r"thread ([\d.]+)/([\d.]+)/([\d.]+) us", text)
assert m, "no timerlat reference line:\n" + text
tl_irq = us(m.group(2))
per = open(out + "/osnoise.txt").read().split()
assert len(per) == 2 and per[0] == per[1], ("timerlat_period_us not restored", per)
print("check-rtvm: --trace=timerlat: timerlat reference irq avg %.1f us, "
      "thread avg %.1f us" % (tl_irq / 1000, us(m.group(5)) / 1000))

# noise --mode hwlat beside the kernel's hwlat tracer, three times: same
# order of magnitude of the largest of each over the three, rtlat's of the
# gaps nothing traced explains (the tracer has interrupts off: the tick
# never stops it); the emulated CPU makes the values themselves
# meaningless; its host's stalls come in bursts that one short run of each
# may not share
gaps, hws, nref, alls = [], [], 0, []
for k, name in enumerate(("noise.out", "noise2.out", "noise3.out")):
    assert "hwlat%s rc=0" % ("%d" % (k + 1) if k else "") in log, \
        "rtlat noise --mode hwlat failed in the guest (run %d)" % (k + 1)
    text = open(out + "/" + name).read()
    nmax = re.search(r"^== Noise CPU 1: max gap ([\d.]+) us", text, re.M)
    ref = re.search(r"^== hwlat reference \(the kernel's hwlat tracer in tracefs "
                    r"instance rtlat-hwlat-\d+, .*\): (\d+) samples above "
                    r"10.000 us, max ([\d.]+|n/a) us", text, re.M)
    causes = re.search(r"^== Trace CPU 1: gaps by cause: .*nothing traced "
                       r"\(hardware/firmware\) (\d+) ", text, re.M)
    none = re.search(r"^== Trace CPU 1: largest gap nothing traced "
                     r"\(hardware/firmware\): ([\d.]+) us$", text, re.M)
    assert nmax and ref and causes, "no hwlat lines:\n" + text
    assert re.search(r"^== hwlat method: spin 500 ms every 1 s, 3 spins",
                     text, re.M), text
    # the line is there exactly when a gap had no traced cause
    assert bool(none) == (int(causes.group(1)) > 0), text
    gaps.append(float(none.group(1)) if none else 0.0)
    alls.append(float(nmax.group(1)))
    nref += int(ref.group(1))
    if ref.group(2) != "n/a":
        hws.append(float(ref.group(2)))
kn = open(out + "/hwlat_knobs.txt").read().splitlines()
assert len(kn) == 2 and kn[0] == kn[1], ("hwlat knobs not put back", kn)
inst = open(out + "/instances.txt").read().split()
assert not [i for i in inst if i.startswith("rtlat-")], inst
assert nref > 0 and hws, "the hwlat tracer recorded no sample"
gap, hw = max(gaps), max(hws)
print("check-rtvm: noise --mode hwlat --trace, 3 runs: largest gap nothing "
      "traced %.1f us (%s; of all gaps %s) vs the kernel's hwlat tracer max "
      "%.1f us (%s; %d samples) (x%.2f)"
      % (gap, " ".join("%.0f" % g for g in gaps),
         " ".join("%.0f" % g for g in alls), hw,
         " ".join("%.0f" % h for h in hws), nref, gap / hw))
assert 0.1 <= gap / hw <= 10, "not the same order of magnitude"

# rtlat killed (SIGKILL) in the middle of the hwlat reference: its guard
# puts tracing_thresh and hwlat_detector/ back and removes the instance
kk = open(out + "/hwlat_kill.txt").read().splitlines()
assert len(kk) == 4, kk
assert kk[1].split() == ["10", "200000", "400000"], \
    ("the reference had not changed the knobs when killed", kk)
assert kk[2] == kk[0], ("hwlat knobs not put back after SIGKILL", kk)
assert kk[3] == "0", ("the instance is left after SIGKILL", kk)
assert "hwlat killed rc=137" in log, "rtlat was not killed in the reference"
print("check-rtvm: rtlat killed in the hwlat reference: knobs %s -> %s -> %s "
      "(put back by its guard), instance removed" % tuple(k.strip() for k in kk[:3]))

# sysinfo and a short suite on PREEMPT_RT (the loads: hell's packets and
# forks measured there too)
d = json.load(open(out + "/sysinfo.json"))
si = open(out + "/sysinfo.txt").read()
assert d["preempt_rt"] is True and d["preempt"] == "PREEMPT_RT", d
assert "-rt-" in d["kernel_release"], d["kernel_release"]
assert "PREEMPT_RT" in d["kernel_version"], d["kernel_version"]
assert d["rt_flavour"] == "PREEMPT_RT", d["rt_flavour"]
assert "RT         : PREEMPT_RT" in si, si
assert "Linux      : %s " % d["kernel_release"] in si, si
m = re.search(r"^suite rc=(\d+)$", log, re.M)
assert m and m.group(1) in ("0", "2"), "rtlat suite failed in the guest"
st = open(out + "/suite.txt").read()
assert "LATENCY with load (hell)" in st, st
assert "packets/s" in st and "forks/s" in st, st
assert "rtvm     |" in st, st
print("check-rtvm: sysinfo on PREEMPT_RT: %s; suite none,hell: rc=%s, %d table rows"
      % (d["kernel_release"], m.group(1), st.count("rtvm     |")))

# irq over the wired UARTs: accounting, the interrupt thread, restored
# settings, t1 between t0 and t2, the stall of the thread's CPU in t2 - t1
assert "serial rc=0" in log, "rtlat irq --source serial failed in the guest"
text = open(out + "/serial.out").read()
state = open(out + "/serial-state.txt").read().split("\n")
irq, tid = (int(x) for x in re.match(r"irq (\d+) thread (\d+)", state[0]).groups())
before, during, after = (l.split() for l in (state[1], state[3], state[4]))
assert before[2:4] == ["50", "1"], ("the thread is not fifo 50 before", before)
assert during[2:5] == ["60", "1", "tx"], ("--irq-prio 60 not in force", during)
assert during[1] == "1", ("the thread is not on CPU 1 (--irq-cpu 1)", during)
assert during[5] == "0", ("TX's interrupt thread is not on CPU 0", during)
assert after[2:] == before[2:], ("priority or affinity not restored", before, after)
assert state[2] == state[5], ("the port's settings not restored", state)
m = re.search(r"== Interrupt: IRQ %d \(ttyS5\), thread (irq/%d-\S+) \(pid %d\) "
              r"fifo priority 60" % (irq, irq, tid), text)
assert m, "interrupt thread not in the header:\n" + text
tname = m.group(1)
m = re.search(r"== Events: (\d+) sent in the measurement = (\d+) served \+ "
              r"(\d+) lost;.*the sender missed (\d+) periods", text)
sent, served, lost, missed = (int(x) for x in m.groups())
assert sent == served + lost and sent + missed == 1500, m.group(0)
assert served >= sent * 9 // 10, m.group(0)
m = re.search(r"# trace: (\d+) of (\d+) events split at the interrupt", text)
split, spans = int(m.group(1)), int(m.group(2))
assert spans == served and split >= served // 2, m.group(0)
rk = {}
for l in text.splitlines():
    f = [x.strip() for x in l.split("|")]
    if f[0] == "RTK" and f[1] != "part":
        rk[f[1]] = [int(f[2])] + [us(x) if x != "n/a" else None for x in f[3:6]]
# t1 between t0 and t2: each side at least 0, at most the whole
assert rk["stimulus to irq"][1] >= 0 and rk["irq to task"][1] >= 0, rk
assert rk["irq to task"][3] <= rk["traced latency"][3], rk
assert rk["irq to task"][0] == split, rk
stalls = [tuple(int(x) for x in l.split()[1:]) for l in open(out + "/stall.txt")
          if l.startswith("stall ")]
assert len(stalls) == 2, stalls
w = re.search(r"RTW\|worst irq to task: ([\d.]+) us.*\(t1 (\d+) ns, t2 (\d+) ns", text)
worst, t1, t2 = us(w.group(1)), int(w.group(2)), int(w.group(3))
stall_ns = 50 * 1000 * 1000
# the event was pending at the stall's end (its interrupt came before the
# end, its task ran after it), the stall lies in its t2 - t1 (but for the
# 10 ms the figure below allows) and makes most of it. Its interrupt may
# come well before the stall: under the emulated CPU the interrupt thread
# can take milliseconds to run without one (irq to task 1 ms on average;
# 8 ms before the stall's start once, then 50 ms of stall: the window of
# 2 periods before the stall that this check had was too short)
def overlap(s):
    return min(s[1], t2) - max(s[0], t1)
inside = [s for s in stalls if t1 <= s[1] <= t2
          and overlap(s) >= stall_ns - 10 * 1000 * 1000
          and 2 * overlap(s) >= t2 - t1]
assert inside, ("worst t2-t1 not in a stall", w.group(0), stalls)
assert worst >= stall_ns - 10 * 1000 * 1000, ("stall not seen in t2-t1", worst)
print("check-rtvm: irq serial on PREEMPT_RT: %d sent = %d served + %d lost, "
      "IRQ %d thread %s fifo 50 -> 60 -> 50, %d events split at t1, "
      "a %d ms stall of its CPU seen as t2-t1 %.1f ms"
      % (sent, served, lost, irq, tname, split, stall_ns // 1000000,
         worst / 1e6))

# rtla timerlat in the same guest: same order of magnitude
path = out + "/rtla.txt"
if not os.path.exists(path) or "rtla rc=" not in log:
    print("check-rtvm: SKIP comparison with rtla timerlat: rtla not available")
    sys.exit(0)
# Three rounds of the three, interleaved (rtlat --trace, --trace=timerlat,
# rtla): the host's stalls of the emulated CPU come in bursts that one 3 s
# run catches and the next one, half a minute later, does not (x14.8 in
# CI with one round each); the means over the rounds share them.
rtla_irq = []
for k in ("", "2", "3"):
    assert "rtla%s rc=0" % k in log, open(out + "/rtla%s.txt" % k).read()
    text = open(out + "/rtla%s.txt" % k).read()
    row = [l for l in text.splitlines() if re.match(r"\s*1\s+#\d+", l)]
    assert row, text
    # CPU #COUNT | irq cur min avg max | thread cur min avg max (ns, -n)
    rtla_irq.append(float(row[0].replace("|", " ").split()[4]))
ours_all, tl_all = [ours], [tl_irq]
for k in ("2", "3"):
    assert "trace%s rc=0" % k in log and "timerlat%s rc=0" % k in log, log
    ours_all.append(rtk(open(out + "/trace%s.out" % k).read())
                    ["irq latency"][1])
    m = re.search(r"RTL\|timerlat cpu 1\|irq ([\d.]+)/([\d.]+)/([\d.]+) us",
                  open(out + "/timerlat%s.out" % k).read())
    assert m, open(out + "/timerlat%s.out" % k).read()
    tl_all.append(us(m.group(2)))
rtla_irq_avg = sum(rtla_irq) / 3
for name, vs in (("rtlat --trace irq latency", ours_all),
                 ("rtlat --trace=timerlat reference", tl_all)):
    v = sum(vs) / 3
    ratio = v / max(rtla_irq_avg, 1)
    print("check-rtvm: %s avg %.1f us (%s) vs rtla timerlat IRQ avg %.1f us "
          "(%s), means of 3 interleaved rounds (x%.2f)"
          % (name, v / 1000, " ".join("%.1f" % (x / 1000) for x in vs),
             rtla_irq_avg / 1000,
             " ".join("%.1f" % (x / 1000) for x in rtla_irq), ratio))
    assert 0.1 <= ratio <= 10, "not the same order of magnitude"
PY
