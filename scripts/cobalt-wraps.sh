#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The names a Xenomai link wraps: reads the words of `xeno-config --posix
# --ldflags` (arguments) and prints each NAME of their --wrap NAME,
# --wrap=NAME and -Wl,--wrap=NAME, including those of -Wl,@FILE response
# files (as Xenomai's cobalt.wrappers), one per line, sorted.
words() {
	for w; do
		case $w in
		-Wl,@*) tr -s ' \t' '\n\n' < "${w#-Wl,@}" ;;
		-Wl,*) printf '%s\n' "${w#-Wl,}" | tr ',' '\n' ;;
		*) printf '%s\n' "$w" ;;
		esac
	done
}
words "$@" | awk '
	/^--wrap=/ { sub(/^--wrap=/, ""); print; next }
	/^--wrap$/ { getline; print }
' | sort -u
