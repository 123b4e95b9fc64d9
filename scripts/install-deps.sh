#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what rtlat needs to build and to run its tests, on Debian (root).
set -e
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential pkg-config make \
	libcmocka-dev python3 python3-pytest python3-pytest-xdist \
	python3-junitparser python3-yaml iproute2 groff-base \
	python3-prometheus-client python3-jsonschema \
	libcjson-dev libsqlite3-dev libpq-dev postgresql gnuplot-nox \
	libtracefs-dev libtraceevent-dev \
	rt-tests rtla stress-ng musl-tools procps util-linux file \
	gcc-powerpc-linux-gnu libc6-dev-powerpc-cross \
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user-static \
	mmdebstrap qemu-system-x86 busybox-static \
	cppcheck clang-tidy valgrind clang libclang-rt-dev chromium >/dev/null
echo "install-deps.sh: done"
