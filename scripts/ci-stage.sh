#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run one CI stage and print its wall time, so that a CI log shows where the
# time goes:  == stage NAME: N s   (with ", FAILED (exit S)" when it failed).
# The stage's exit status is returned.
# Usage: ci-stage.sh NAME COMMAND [ARG...]
name=$1
shift
t0=$(date +%s)
"$@"
rc=$?
dt=$(($(date +%s) - t0))
if [ "$rc" -eq 0 ]; then
	echo "== stage $name: $dt s"
else
	echo "== stage $name: $dt s, FAILED (exit $rc)"
fi
exit "$rc"
