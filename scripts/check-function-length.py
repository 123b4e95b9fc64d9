#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No function of src/ longer than MAX lines (issue 29).

A function is a definition in kernel style: its name and parameters
starting in column 0, its body from a "{" alone on a line in column 0 to
the next "}" in column 0. Its length counts the lines from that "{" to
that "}", both included.

usage: check-function-length.py [--max N] [--list] [TREE]
TREE is the source tree (default: the one of this script). --list prints
every function longer than N (default 120), longest first, and exits 0.
Exit status 1 and one line per function over the limit otherwise, except
those listed in scripts/function-length-waived.txt ("FILE:FUNCTION", one a
line), which only ever shrinks: a waiver that no longer matches a long
function is an error too.
"""
import os
import re
import sys

MAX = 120
WAIVED = 'scripts/function-length-waived.txt'
NAME = re.compile(r'([A-Za-z_]\w*)\s*\(')


def functions(path):
    """(name, first line, length) of each function defined in @path."""
    lines = open(path, encoding='utf-8').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == '{':
            # the signature: the lines above, back to one in column 0
            j = i - 1
            while j > 0 and lines[j] and (lines[j][0] in ' \t' or
                                          lines[j].startswith(')')):
                j -= 1
            sig = ' '.join(lines[j:i])
            names = NAME.findall(sig)
            k = i + 1
            while k < len(lines) and lines[k] != '}':
                k += 1
            # a function's signature, not an initializer's or a type's
            if names and '=' not in sig and \
                    not sig.startswith(('struct ', 'enum ', 'union ',
                                        'typedef ', '#')):
                out.append((names[0], j + 1, k - i + 1))
            i = k
        i += 1
    return out


def main():
    args = sys.argv[1:]
    limit, listing = MAX, False
    if '--max' in args:
        n = args.index('--max')
        limit = int(args[n + 1])
        del args[n:n + 2]
    if '--list' in args:
        listing = True
        args.remove('--list')
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    os.chdir(args[0] if args else here)
    long_ = []
    for root, _, files in os.walk('src'):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                p = os.path.join(root, f)
                for name, line, n in functions(p):
                    if n > limit:
                        long_.append((n, p, line, name))
    long_.sort(reverse=True)
    if listing:
        for n, p, line, name in long_:
            print('%s:%d: %s: %d lines' % (p, line, name, n))
        return 0
    waived = set()
    wpath = os.path.join(here, WAIVED)
    if os.path.exists(wpath):
        for line in open(wpath, encoding='utf-8'):
            line = line.strip()
            if line and not line.startswith('#'):
                waived.add(line)
    found = {'%s:%s' % (p, name) for _, p, _, name in long_}
    bad = 0
    for n, p, line, name in long_:
        if '%s:%s' % (p, name) not in waived:
            print('%s:%d: %s is %d lines long (at most %d: split it)' %
                  (p, line, name, n, limit))
            bad += 1
    for w in sorted(waived - found):
        print('%s: stale waiver (no longer over %d lines? remove it): %s' %
              (WAIVED, limit, w))
        bad += 1
    if bad:
        return 1
    print('check-function-length: no function over %d lines (%d waived)' %
          (limit, len(waived)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
