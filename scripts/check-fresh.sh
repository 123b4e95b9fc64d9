#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prove README's two set-up commands on a fresh Debian: build a minimal
# Debian 12 root with mmdebstrap (--variant=apt: apt and the essential
# packages, no compiler, no pkg-config), clone this tree (its committed
# HEAD) into /root/rtlat there (/root mode 0700, as a root user's clone),
# and run there as root, exactly as README writes them:
#   1. the first command (build, then the suite, with a short -T: FRESH_T,
#      default 2s);
#   2. the second command (./scripts/install-deps.sh && make check): its
#      result is what CI reports for README's test command.
# The root is made a mount point (bind-mounted onto itself: unshare -m and
# ip netns need one), with /proc, /sys, /dev and a /run tmpfs mounted; the
# host's apt archive is bound in (packages the host has are not fetched
# again), and so is the directory of the tests' machine-wide locks.
# Everything is unmounted and removed afterwards. Each step's wall
# time is printed. FRESH_STEPS=1 runs the first command only.
# Usage: check-fresh.sh BUILD_DIR   (root; mmdebstrap from make deps)
set -e
out=$(mkdir -p "${1:-build}" && cd "${1:-build}" && pwd)/fresh
root=$out/root
src=$(cd "$(dirname "$0")/.." && pwd)
short=${FRESH_T:-2s}
suite=${FRESH_SUITE:-bookworm}

fail() {
	echo "check-fresh: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (mmdebstrap --mode=root, chroot, mount)"
command -v mmdebstrap >/dev/null ||
	fail "mmdebstrap is not installed (make deps installs it)"

# Everything mounted below $root, deepest first.
mounts_below() {
	awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' \
		/proc/self/mountinfo | sort -r
}

lock=
now() { date +%s; }
step() {	# step NAME START: its wall time
	echo "check-fresh: $1: $(($(now) - $2)) s"
}

# Processes left running in the root (a service a package started, a
# test's child): killed before the unmount.
kill_in_root() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] &&
			kill -9 "${p#/proc/}" 2>/dev/null
	done
	return 0
}

cleanup() {
	kill_in_root
	for m in $(mounts_below); do
		umount -l "$m" 2>/dev/null || true
	done
	if [ -n "$(mounts_below)" ]; then
		echo "check-fresh: still mounted below $root; not removing it" >&2
		return
	fi
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

cleanup
mkdir -p "$out"

# README's commands: the first line of the first and second sh blocks
# after the Set-up heading.
readme_cmd() {
	awk -v n="$1" '/^## Set-up/ { s = 1 }
		s && /^```sh/ && ++k == n { getline; print; exit }' "$src/README.md"
}
cmd=$(readme_cmd 1)
test_cmd=$(readme_cmd 2)
[ -n "$cmd" ] || fail "no set-up command found in README.md (## Set-up, \`\`\`sh)"
[ -n "$test_cmd" ] || fail "no second set-up command (the tests) in README.md"
case $cmd in
*" suite "*) ;;
*) fail "README's first command does not run the suite: $cmd" ;;
esac
run=$(echo "$cmd" | sed "s/ -T [0-9a-z]*/ -T $short/")
echo "check-fresh: README's first command: $cmd"
echo "check-fresh: run as: $run"
echo "check-fresh: README's test command: $test_cmd"

# The package sources this machine uses (the same registry apt uses here).
set --
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && set -- "$@" "$f"
done

echo "check-fresh: mmdebstrap --variant=apt $suite (log: $out/mmdebstrap.log)"
t=$(now)
if ! mmdebstrap --mode=root --variant=apt "$suite" "$root" "$@" \
	>"$out/mmdebstrap.log" 2>&1; then
	tail -20 "$out/mmdebstrap.log" >&2
	fail "mmdebstrap failed (log: $out/mmdebstrap.log)"
fi
step "mmdebstrap" "$t"
for tool in cc gcc make pkg-config; do
	if chroot "$root" sh -c "command -v $tool" >/dev/null 2>&1; then
		fail "the fresh root already has $tool: it is not minimal"
	fi
done

git clone -q "$src" "$root/root/rtlat" ||
	fail "git clone of $src failed"
chmod 0700 "$root/root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
mkdir -p "$root/run/lock"
chmod 1777 "$root/run/lock"
# the tests' machine-wide locks (tests/cli/conftest.py) are the host's: a
# test in the root and one of another run beside it share the same CPUs
locks=${RTLAT_TEST_LOCKS:-/run/lock/rtlat-tests}
mkdir -p "$locks" "$root/run/lock/rtlat-tests"
chmod 1777 "$locks"
mount --bind "$locks" "$root/run/lock/rtlat-tests"
if [ -d /var/cache/apt/archives ]; then
	mkdir -p "$root/var/cache/apt/archives"
	mount --bind /var/cache/apt/archives "$root/var/cache/apt/archives"
fi

# in_root LOG TIMEOUT COMMAND: COMMAND in /root/rtlat of the fresh root, as
# root, with the environment of a login on a fresh machine ($lock before
# it: with the CPUs held, as a test holds them)
in_root() {
	log=$1 limit=$2
	shift 2
	$lock timeout "$limit" chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
		/bin/sh -c "cd /root/rtlat && $*" >"$log" 2>&1
}

echo "check-fresh: running the first command in the fresh root (log: $out/run.log)"
t=$(now)
set +e
# the suite measures: it holds the CPUs alone among the tests of any other
# run beside it (its results must be complete)
lock=$src/scripts/with-test-lock.sh
in_root "$out/run.log" 1500 "$run"
rc=$?
lock=
set -e
if [ "$rc" -ne 0 ]; then
	tail -40 "$out/run.log" >&2
	fail "README's first command exited with status $rc in the fresh root (log: $out/run.log)"
fi
step "the first command" "$t"

# The suite kept a complete result of each of its runs in its directory.
dir=$(ls -d "$root"/root/rtlat/rtlat-results/*/ 2>/dev/null | head -1)
[ -n "$dir" ] || fail "the suite left no rtlat-results/HOST-TIME/ directory"
n=0
for f in "$dir"*.json; do
	[ -f "$f" ] || continue
	grep -q '"status": "complete"' "$f" ||
		fail "$(basename "$f"): not a complete run"
	n=$((n + 1))
done
[ "$n" -ge 10 ] ||
	fail "the suite kept $n result files in $dir, expected 10 (5 tests, without and with load)"
for t in latency switch handshake cruncher noise; do
	grep -qi "$t" "$dir/report.txt" ||
		fail "the suite report ($dir/report.txt) does not name $t"
done
echo "check-fresh: passed: README's first command built rtlat and ran the suite in a fresh $suite root ($n complete results)"
[ "${FRESH_STEPS:-2}" -ge 2 ] || exit 0

# README's test command, as written; its log's summary line and skips shown
echo "check-fresh: running README's test command in the fresh root (log: $out/check.log)"
t=$(now)
set +e
in_root "$out/check.log" 2400 "$test_cmd"
rc=$?
set -e
grep -E '^(SKIPPED|FAILED|ERROR) |^[=]* .*(passed|failed).* in ' "$out/check.log" || true
if [ "$rc" -ne 0 ]; then
	tail -60 "$out/check.log" >&2
	fail "README's test command exited with status $rc in the fresh root (log: $out/check.log)"
fi
step "README's test command" "$t"
echo "check-fresh: passed: README's test command passed in a fresh $suite root"
