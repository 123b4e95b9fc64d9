#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prove README's first set-up command on a fresh Debian: build a minimal
# Debian 12 root with mmdebstrap (--variant=apt: apt and the essential
# packages, no compiler, no pkg-config), copy a clean clone of this tree
# (its committed HEAD) into it, and run README's first command there as
# root, the suite included, with a short -T (FRESH_T, default 2s).
# /proc, /sys and /dev are mounted in the root and unmounted afterwards.
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

cleanup() {
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

# README's first command: the first line of the first sh block after the
# Set-up heading.
cmd=$(awk '/^## Set-up/ { s = 1 } s && /^```sh/ { getline; print; exit }' \
	"$src/README.md")
[ -n "$cmd" ] || fail "no set-up command found in README.md (## Set-up, \`\`\`sh)"
case $cmd in
*" suite "*) ;;
*) fail "README's first command does not run the suite: $cmd" ;;
esac
run=$(echo "$cmd" | sed "s/ -T [0-9a-z]*/ -T $short/")
echo "check-fresh: README's first command: $cmd"
echo "check-fresh: run as: $run"

# The package sources this machine uses (the same registry apt uses here).
set --
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && set -- "$@" "$f"
done

echo "check-fresh: mmdebstrap --variant=apt $suite (log: $out/mmdebstrap.log)"
if ! mmdebstrap --mode=root --variant=apt "$suite" "$root" "$@" \
	>"$out/mmdebstrap.log" 2>&1; then
	tail -20 "$out/mmdebstrap.log" >&2
	fail "mmdebstrap failed (log: $out/mmdebstrap.log)"
fi
for tool in cc gcc make pkg-config; do
	if chroot "$root" sh -c "command -v $tool" >/dev/null 2>&1; then
		fail "the fresh root already has $tool: it is not minimal"
	fi
done

git clone -q "$src" "$root/root/rtlat" ||
	fail "git clone of $src failed"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"

echo "check-fresh: running it in the fresh root (log: $out/run.log)"
set +e
timeout 1500 chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive \
	/bin/sh -c "cd /root/rtlat && $run" >"$out/run.log" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
	tail -40 "$out/run.log" >&2
	fail "README's first command exited with status $rc in the fresh root (log: $out/run.log)"
fi

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
