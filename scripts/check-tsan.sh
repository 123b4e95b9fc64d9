#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exercise the threaded engine under ThreadSanitizer: every wait backend,
# several samplers, checkpoints while sampling, and a stop by SIGINT.
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
"$bin" latency -T 30 --warmup 0.2s -q --json "$tmp/int.json" \
	--checkpoint 0.3s >/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
echo "check-tsan: no data race reported"
