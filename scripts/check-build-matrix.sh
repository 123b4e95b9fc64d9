#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build rtlat with every combination of the optional host libraries (cJSON,
# SQLite, libtracefs/libtraceevent: none, each alone, each pair, all; and
# HOST_FEATURES=0) and check that each binary runs, and that each feature
# left out says at run time which package brings it, and that rtlat
# itself links none of them (they are in rtlat-host and rtlat-trace).
# The combination "all" is the default build: it is built and checked in
# BUILD_DIR itself (already built there by make check: nothing to redo).
# The builds use make's parallel jobs when make runs this (make -jN).
# --build-only builds them and checks nothing (CI builds ahead, in the
# background; the checks then find them built).
# Usage: check-build-matrix.sh [--build-only] BUILD_DIR
set -e
build_only=0
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
build=${1:-build}
out=$build/matrix
src=$(cd "$(dirname "$0")/.." && pwd)
fixture=$src/tests/fixtures/shared/cyclictest/json-1thread.json
text=$src/tests/fixtures/shared/cyclictest/quiet-2threads.txt
mkdir -p "$out"
fail=0

die() {
	echo "check-build-matrix: $combo: $*" >&2
	fail=1
}

# expect NAME STATUS PATTERN LOG CMD...: CMD exits STATUS and its output
# (stdout and stderr) holds PATTERN.
expect() {
	what=$1 want=$2 pat=$3 log=$4
	shift 4
	set +e
	"$@" >"$log" 2>&1
	got=$?
	set -e
	if [ "$got" -ne "$want" ]; then
		die "$what: exit status $got, expected $want ($*; output in $log)"
	elif ! grep -q -- "$pat" "$log"; then
		die "$what: no '$pat' in the output of $* (see $log)"
	fi
}

for combo in none cjson sqlite libpq tracefs cjson+sqlite cjson+tracefs \
	sqlite+tracefs all nohost; do
	case $combo in
	nohost) flags="HOST_FEATURES=0" ;;
	*)
		flags=""
		for f in cjson sqlite libpq tracefs; do
			case "+$combo+" in
			*"+$f+"* | +all+) on=1 ;;
			*) on=0 ;;
			esac
			F=$(echo "$f" | tr a-z A-Z)
			flags="$flags WITH_$F=$on"
		done
		;;
	esac
	dir=$out/$combo
	odir=$dir
	[ "$combo" = all ] && odir=$build
	echo "check-build-matrix: $combo ($flags)"
	# shellcheck disable=SC2086
	if ! make -s -C "$src" O="$odir" $flags all unit-tests \
		>"$dir.log" 2>&1; then
		tail -20 "$dir.log" >&2
		die "the build failed (make $flags; log in $dir.log)"
		continue
	fi
	[ "$build_only" -eq 1 ] && continue
	bin=$odir/rtlat
	expect selftest 0 "" "$dir.selftest" "$bin" selftest
	# the measuring binary links no host-side library in any build:
	# report, db and --trace run rtlat-host and rtlat-trace (issue 15)
	if ldd "$bin" 2>/dev/null | grep -E 'lib(cjson|sqlite3|pq|tracefs|traceevent)'; then
		die "$bin links a host-side library"
	fi
	case $combo in
	nohost)
		expect report 1 "host build" "$dir.report" \
			"$bin" report "$fixture"
		continue
		;;
	esac
	case "+$combo+" in
	*+cjson+* | +all+)
		expect "report (cJSON)" 0 "lat max" "$dir.report" \
			"$bin" report "$fixture" ;;
	*)
		expect "report (no cJSON)" 1 "libcjson-dev" "$dir.report" \
			"$bin" report "$fixture" ;;
	esac
	rm -f "$dir.db"
	case "+$combo+" in
	*+sqlite+* | +all+)
		expect "db (SQLite)" 0 "1 run added" "$dir.dbadd" "$bin" db add \
			--db "$dir.db" "$text" ;;
	*)
		expect "db (no SQLite)" 1 "libsqlite3-dev" "$dir.dbadd" \
			"$bin" db add --db "$dir.db" \
			"$text" ;;
	esac
	case "+$combo+" in
	*+libpq+* | +all+)
		expect "db (libpq)" 1 "cannot connect" "$dir.dbpg" "$bin" db \
			list --db "postgresql://nobody@127.0.0.1:1/none" ;;
	*)
		expect "db (no libpq)" 1 "libpq-dev" "$dir.dbpg" "$bin" db \
			list --db "postgresql://nobody@127.0.0.1:1/none" ;;
	esac
	case "+$combo+" in
	*+tracefs+* | +all+)
		if "$bin" latency --help | grep -q 'not built in'; then
			die "--trace says it is not built in"
		fi ;;
	*)
		expect "--trace (no tracefs)" 1 "libtracefs-dev" "$dir.trace" \
			"$bin" latency --trace -T 1 ;;
	esac
done
if [ "$fail" -ne 0 ]; then
	echo "check-build-matrix: FAILED" >&2
	exit 1
fi
if [ "$build_only" -eq 1 ]; then
	echo "check-build-matrix: all 10 builds built (not checked: --build-only)"
else
	echo "check-build-matrix: all 10 builds passed"
fi
