#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run COMMAND holding the machine's CPUs alone among the command-line
# tests: the flock(2) locks of tests/cli/conftest.py (RTLAT_TEST_LOCKS,
# default /run/lock/rtlat-tests): its turnstile, then "cpus" exclusively.
# For a quality gate that measures outside pytest (tsan, valgrind, musl)
# while the tests of another run go on beside it (CI).
# Usage: with-test-lock.sh COMMAND [ARG...]
set -e
d=${RTLAT_TEST_LOCKS:-/run/lock/rtlat-tests}
mkdir -p "$d"
chmod 1777 "$d" 2>/dev/null || true
exec 8>>"$d/turnstile" 9>>"$d/cpus"
flock -x 8
flock -x 9
flock -u 8
exec 8>&-
exec "$@"
