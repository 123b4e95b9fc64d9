#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layering of src/ (docs/ARCHITECTURE.md), checked twice:

 - private headers (PRIVATE): engine/run.h (the engine's own state of a
   run) is included by files of src/engine/ only; engine/engine.h (the
   command layer's entry: engine_run(), the internal steps) by src/engine/,
   src/cmd/ and src/main.c; engine/test.h (the test interface: the sampler
   side) by those and the tests; the outputs, metrics, loads, trace and
   report see a run through engine/run_view.h;
 - includes: every #include "..." of a file in src/LAYER/, resolved as the
   compiler does (beside the file first, then under src/: "../LAYER/x.h"
   is LAYER's x.h), must name a layer that LAYER may use; one that resolves
   to nothing, or to a file outside src/, is refused too;
 - symbols: every undefined symbol of an object built from src/LAYER/ (nm)
   that another layer's objects define must be defined in a layer LAYER may
   use.

A test (src/measure/NAME.c, src/measure/NAME_*.c, src/measure/NAME.h) may use
the shared test mechanisms (src/measure/lib/) but never another test.

And the suite (src/cmd/suite*.c) knows the tests by their descriptors only:
no string of it is a test's name, one of a test's own options ("--LONG",
beside the options every test shares) or a suite option made of one
("TEST-LONG": suite_spec.forward).

usage: check-layers.py BUILD_DIR [TREE]
       check-layers.py --self-test
BUILD_DIR holds src/*/*.o (make first); TREE is the source tree (default:
the one of this script). --self-test checks the include check itself: a
copy of the tree must pass as it is, and fail with each of INJECTED on its
own: #include "../measure/irq.h" in an engine file, the engine's private
headers (engine/run.h, engine/engine.h, engine/test.h) in a test, an output
or the metrics.
Exit status 1 and one line per violation when the layering is broken.

scripts/layers-waived.txt lists violations still being worked off, one a
line as printed here without the line number; a waiver that no longer matches is an error too, so
the list only ever shrinks.
"""
import os
import re
import subprocess
import sys

# layer -> the layers it may use (itself always). The on-target core is
# three folders, bottom up: util (shared helpers), system (the system's
# inspection and RT set-up), engine (run phases, accounting, ring, waits).
CORE = {'util', 'system', 'engine'}
REPORT = {'report', 'report/model', 'report/import', 'report/history',
          'report/render'}
ALLOWED = {
    'util': set(),
    'system': {'util'},
    'engine': {'system', 'util'},
    'measure/lib': CORE | {'output'},
    'measure': CORE | {'measure/lib', 'output'},
    'loads': CORE,
    'trace': CORE,
    'metrics': CORE,
    'output': CORE,
    # the host side: one model, importers and history fill it, the
    # renderers read it; report/ itself is the front (report.h, cli)
    'report/model': CORE,
    'report/import': CORE | {'report/model', 'report'},
    'report/history': CORE | {'report/model', 'report/import', 'report'},
    'report/render': CORE | {'report/model', 'report'},
    'report': CORE | REPORT,
    'cmd': CORE | REPORT | {'measure', 'measure/lib', 'loads', 'trace',
                            'metrics', 'output', 'cmd'},
    'main': CORE | {'cmd'},
}

# headers only the files of some layers may include: the engine's own state
# of a run, the command layer's entry into the engine, the test interface
# (the others see a run through engine/run_view.h)
PRIVATE = {
    'src/engine/run.h': {'engine'},
    'src/engine/engine.h': {'engine', 'cmd', 'main'},
    'src/engine/test.h': {'engine', 'cmd', 'main', 'measure', 'measure/lib'},
}

WAIVED = 'scripts/layers-waived.txt'
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    """'src/measure/lib/ipc.c' -> 'measure/lib'; 'src/main.c' -> 'main'."""
    rel = os.path.relpath(path, 'src')
    d = os.path.dirname(rel)
    return d if d else 'main'


def unit_of(path):
    """A test's name for src/measure/NAME[_x].[ch], else its layer."""
    lay = layer_of(path)
    if lay != 'measure':
        return lay
    base = os.path.splitext(os.path.basename(path))[0]
    return 'measure:' + base.split('_')[0]


def may_use(src, dst, src_unit, dst_unit):
    if src == dst:
        # tests never reach each other
        return src != 'measure' or src_unit == dst_unit
    return dst in ALLOWED.get(src, set())


def sources():
    for root, _, files in os.walk('src'):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.join(root, f)


def resolve(path, inc):
    """The file #include "@inc" of @path names, as the compiler finds it
    (beside @path, then under src/: -Isrc), relative to the tree; None
    when neither exists."""
    for base in (os.path.dirname(path), 'src'):
        target = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(target):
            return target
    return None


def check_includes():
    bad = []
    for path in sources():
        src = layer_of(path)
        text = open(path, encoding='utf-8').read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            target = resolve(path, inc)
            if target is None or target.startswith('..') or \
                    not target.startswith('src' + os.sep):
                bad.append('%s:%d: %s may not include %s (%s)' %
                           (path, line, src, inc,
                            'not found beside it nor under src/'
                            if target is None else 'outside src/'))
                continue
            dst = layer_of(target)
            if src not in PRIVATE.get(target, {src}):
                bad.append('%s:%d: %s may not include %s (private to %s)' %
                           (path, line, src, inc,
                            ', '.join(sorted(PRIVATE[target]))))
                continue
            if not may_use(src, dst, unit_of(path), unit_of(target)):
                bad.append('%s:%d: %s may not include %s (layer %s)' %
                           (path, line, src, inc, dst))
    return bad


def nm(obj, *args):
    out = subprocess.run([os.environ.get('NM', 'nm'), *args, obj],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            yield parts[-2], parts[-1]


def check_symbols(build):
    objs = []
    for root, _, files in os.walk(os.path.join(build, 'src')):
        for f in sorted(files):
            if f.endswith('.o'):
                obj = os.path.join(root, f)
                srcpath = os.path.relpath(obj, build)[:-2] + '.c'
                if os.path.exists(srcpath):
                    objs.append((obj, srcpath))
    if not objs:
        return ['%s: no objects under %s/src (run make first)' %
                (build, build)]
    owner = {}
    for obj, srcpath in objs:
        for kind, sym in nm(obj, '--defined-only'):
            if kind.isupper() and kind not in 'U':
                owner[sym] = srcpath
    bad = []
    for obj, srcpath in objs:
        src = layer_of(srcpath)
        for _, sym in nm(obj, '--undefined-only'):
            dpath = owner.get(sym)
            if not dpath:
                continue
            dst = layer_of(dpath)
            if not may_use(src, dst, unit_of(srcpath), unit_of(dpath)):
                bad.append('%s: %s uses %s of %s (layer %s)' %
                           (srcpath, src, sym, dpath, dst))
    return bad


OPTDESC = re.compile(r'\{\s*"([a-z0-9][a-z0-9-]*)",\s*(?:0|\'.\'),\s*'
                     r'(?:no|required|optional)_argument')
TEST_NAME = re.compile(r'struct test_desc\s+\w+\s*=\s*\{\s*'
                       r'\.name\s*=\s*"([a-z0-9-]+)"')
C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def long_options(layers):
    """The long options of the option tables of files in @layers."""
    found = set()
    for path in sources():
        if layer_of(path) in layers:
            found |= set(OPTDESC.findall(open(path, encoding='utf-8').read()))
    return found


def check_suite_names():
    shared = long_options(CORE | {'loads', 'trace', 'metrics', 'output'})
    own = long_options({'measure', 'measure/lib'}) - shared
    names = set()
    for path in sources():
        if layer_of(path) == 'measure':
            names |= set(TEST_NAME.findall(open(path, encoding='utf-8').read()))
    named = names | {'--' + o for o in own} | \
        {n + '-' + o for n in names for o in own} | \
        {'--' + n + '-' + o for n in names for o in own}
    bad = []
    for path in sources():
        if not re.match(r'src/cmd/suite[^/]*\.c$', path):
            continue
        text = open(path, encoding='utf-8').read()
        for m in C_STRING.finditer(text):
            if m.group(1) in named:
                line = text.count('\n', 0, m.start()) + 1
                bad.append('%s:%d: the suite names "%s" (a test, or a '
                           'test\'s option: take it from the test\'s '
                           'descriptor, suite_spec)' %
                           (path, line, m.group(1)))
    return bad


def unlined(v):
    return re.sub(r'^([^:]*):\d+:', r'\1:', v)


# the self-test's injections: (file, line appended, what must be caught)
INJECTED = [
    ('src/engine/ring.c', '#include "../measure/irq.h"',
     'engine may not include ../measure/irq.h (layer measure)'),
    ('src/measure/latency.c', '#include "engine/run.h"',
     'measure may not include engine/run.h (private to engine)'),
    ('src/output/result.c', '#include "engine/run.h"',
     'output may not include engine/run.h (private to engine)'),
    ('src/output/result.c', '#include "../engine/engine.h"',
     'output may not include ../engine/engine.h (private to cmd, engine, '
     'main)'),
    ('src/metrics/metrics.c', '#include "engine/test.h"',
     'metrics may not include engine/test.h (private to cmd, engine, main, '
     'measure, measure/lib)'),
]


def self_test(here):
    """The include check on a copy of the tree: as it is it passes; with a
    relative include of a test injected into an engine file, or a private
    engine header into a test, an output or the metrics, it fails, each
    injection on its own (INJECTED)."""
    import shutil
    import tempfile
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(here, 'src'), os.path.join(tmp, 'src'))
        os.chdir(tmp)
        clean = check_includes()
        ok = clean == []
        print('check-layers --self-test: clean tree: %d violation(s)' %
              len(clean))
        for victim, line, want in INJECTED:
            with open(victim, encoding='utf-8') as f:
                text = f.read()
            with open(victim, 'a', encoding='utf-8') as f:
                f.write(line + '\n')
            caught = [b for b in check_includes() if b not in clean]
            with open(victim, 'w', encoding='utf-8') as f:
                f.write(text)
            hit = (len(caught) == 1 and caught[0].startswith(victim + ':')
                   and want in caught[0])
            ok = ok and hit
            print('check-layers --self-test: %s injected in %s: %s' %
                  (line, victim, caught[0] if hit else
                   'NOT caught as "%s" (%s)' % (want, caught)))
        os.chdir(here)
    print('check-layers --self-test: %s' % ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test(os.path.abspath(os.path.join(
            os.path.dirname(os.path.abspath(__file__)), '..')))
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 1
    build = os.path.abspath(sys.argv[1])
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    os.chdir(sys.argv[2] if len(sys.argv) == 3 else here)
    bad = check_includes() + check_symbols(build) + check_suite_names()
    waived = set()
    waivers = os.path.join(here, WAIVED)
    if os.path.exists(waivers):
        for line in open(waivers, encoding='utf-8'):
            line = line.strip()
            if line and not line.startswith('#'):
                waived.add(line)
    # a waiver names no line number: code above it may move
    waived = {unlined(w) for w in waived}
    stale = sorted(waived - {unlined(b) for b in bad})
    bad = [b for b in bad if unlined(b) not in waived]
    for b in bad:
        print(b)
    for w in stale:
        print('%s: stale waiver (fixed? remove it): %s' % (WAIVED, w))
    bad += stale
    if bad:
        print('check-layers: %d violation(s) of the layering '
              '(docs/ARCHITECTURE.md)' % len(bad), file=sys.stderr)
        return 1
    print('check-layers: the layering holds (%d waived)' % len(waived))
    return 0


if __name__ == '__main__':
    sys.exit(main())
