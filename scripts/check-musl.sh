#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Static x86-64 build against musl: it must pass its selftest, measure, and
# stay under the size budget of the on-target binary (500 KB stripped: it
# was 300 KB until rtlat check, its 17 system checks and the gzip reader of
# /proc/config.gz, about 40 KB, joined the on-target binary; 350 KB until
# rtlat irq (its net and GPIO sources, about 30 KB), rtlat noise (7 KB),
# --metrics with its HTTP server (15 KB) and the --lava/--junit/--kcidb
# writers of every test (15 KB) joined it: 424 KB then; 460 KB since the
# serial source and --trace of rtlat irq, noise --mode hwlat, the declared
# figures and lines of every test and the one check of clashing output
# files joined it: 454 KB then; 470 KB since irq's record of the stimuli
# sent (answers trusted for nothing), per-sender sequences, IPv6 and the
# shared record of changed interrupts, the guard of the hwlat reference,
# check's reasons and the fair server, and lists and nested objects in
# the declared figures joined it: 466 KB then; 480 KB since irq's
# matching of each answer to its own stimulus, the record of each run's
# change of an interrupt, the suite's check of a source before the runs,
# --respond's empty intervals, check's reasons for files it cannot read,
# noise's own columns in the report and one guard process for all three
# guards joined it: 470 KB then; 500 KB since noise's attribution of the
# switches the kernel did not record, check's bounded reader and its
# checks of /dev/kmsg and of garbled /proc/interrupts, the helpers' loop
# guard and the one tracefs lookup that mounts it for the hwlat reference
# joined it: 482 KB then).
# --build-only builds it and checks nothing (CI builds ahead).
# Usage: check-musl.sh [--build-only] BUILD_DIR
set -e
build_only=0
if [ "$1" = --build-only ]; then
	build_only=1
	shift
fi
out=$1
# 540 000 since 2026-12-06: Xenomai 3's latency command line (xeno_cli.c),
# the clock checks, RT throttling attribution and irq's sender secrets took
# the one static binary of every command from 501 840 to 530 512 bytes
budget=540000
# musl-gcc searches musl's headers only: the kernel's UAPI headers (GPIO,
# netlink of rtlat irq) come from the host's linux-libc-dev, as a board's
# musl sysroot has its own kernel's
kh="$out/musl-kernel-headers"
mkdir -p "$kh"
for d in linux asm-generic; do ln -sfn "/usr/include/$d" "$kh/$d"; done
ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$kh/asm"
make -s O="$out/musl" CC=musl-gcc CPPFLAGS="-isystem $kh" static
[ "$build_only" -eq 0 ] || exit 0
bin="$out/musl/static/rtlat"
strip -o "$out/rtlat-musl-stripped" "$bin"
size=$(wc -c < "$out/rtlat-musl-stripped")
echo "check-musl: stripped static musl binary: $size bytes (budget $budget)"
"$bin" selftest
if [ "$(id -u)" -eq 0 ]; then
	"$bin" latency -T 1 --warmup 0.2s -q --json "$out/musl.json" >/dev/null
	grep -q '"status": "complete"' "$out/musl.json"
fi
[ "$size" -lt "$budget" ] || { echo "check-musl: over budget" >&2; exit 1; }
