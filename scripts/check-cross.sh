#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-build rtlat statically for 32-bit big-endian PowerPC and 32-bit ARM,
# run its selftest under qemu-user, and check that the synthetic result file
# written there is byte-identical to the one written by the native binary.
# --build-only builds them and runs nothing (CI builds ahead).
# Usage: check-cross.sh [--build-only] NATIVE_RTLAT BUILD_DIR
set -e
build_only=0
if [ "$1" = --build-only ]; then
	build_only=1
	shift
fi
native=$1
out=$2
[ "$build_only" -eq 1 ] ||
	"$native" selftest --result "$out/selftest-native.json" >/dev/null
status=0
for t in powerpc-linux-gnu:qemu-ppc-static arm-linux-gnueabihf:qemu-arm-static; do
	prefix=${t%%:*}
	qemu=${t#*:}
	if ! command -v "$prefix-gcc" >/dev/null || ! command -v "$qemu" >/dev/null; then
		echo "check-cross: $prefix-gcc or $qemu missing (make deps installs them)" >&2
		exit 1
	fi
	make -s O="$out/cross-$prefix" CROSS_COMPILE="$prefix-" static
	[ "$build_only" -eq 1 ] && continue
	bin="$out/cross-$prefix/static/rtlat"
	file "$bin"
	"$qemu" "$bin" selftest || status=1
	"$qemu" "$bin" selftest --result "$out/selftest-$prefix.json" >/dev/null
	if cmp "$out/selftest-native.json" "$out/selftest-$prefix.json"; then
		echo "check-cross: $prefix result file identical to the native one"
	else
		echo "check-cross: $prefix result file differs from the native one" >&2
		status=1
	fi
done
exit $status
