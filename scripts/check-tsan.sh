#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exercise the threaded engine under ThreadSanitizer: every wait backend,
# several samplers, checkpoints while sampling, --trace (as root with
# tracefs), and a stop by SIGINT.
# Usage: check-tsan.sh TSAN_RTLAT
set -e
bin=$1
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in abs timerfd posix rel busy; do
	"$bin" latency -T 1 --warmup 0.2s -w "$w" -q -h -s \
		--json "$tmp/$w.json" --checkpoint 0.2s >/dev/null
done
# --trace: the display thread reads the kernel events beside the samplers
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/instances ] &&
   ! "$bin" latency --help | grep -q "not built in"; then
	"$bin" latency -T 2 --warmup 0.2s -q --trace --json "$tmp/trace.json" \
		--checkpoint 0.3s >/dev/null
fi
# the IPC tests: mailboxes shared by two threads, every mechanism
for ipc in sem futex condvar pipe eventfd mqueue signal socket; do
	"$bin" handshake -T 0.5 --warmup 0.1s -q --ipc "$ipc" \
		--json "$tmp/hs-$ipc.json" >/dev/null
done
"$bin" switch -T 1 --warmup 0.2s -q --json "$tmp/switch.json" >/dev/null
"$bin" cyclic -t 2 -p 80 -D 1 -q -h 50 >/dev/null
"$bin" latency -T 30 --warmup 0.2s -q --json "$tmp/int.json" \
	--checkpoint 0.3s >/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
echo "check-tsan: no data race reported"
