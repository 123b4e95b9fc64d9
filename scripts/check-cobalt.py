#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Link audit of a Xenomai Cobalt build of rtlat (make check-cobalt;
docs/xenomai.md).

usage: check-cobalt.py [--list] [--audit FILE] BUILD_DIR XENO_CONFIG --kept PAT...
                       --rt OBJ... --mixed OBJ...

PAT are the Makefile's COBALT_KEPT ("pthread_%"), OBJ the object stems of
its COBALT_RT and COBALT_MIXED ("src/engine/wait"). With nm, over BUILD_DIR's objects:
- the Linux-side objects (neither list) reference no call that Cobalt
  wraps: the build renamed them all to __real_NAME;
- the mixed objects reference, of the wrapped calls, only those of
  threads, clocks and synchronisation (the Makefile's COBALT_KEPT);
- every other library call of the measuring objects (both lists) is in
  scripts/cobalt-audit.txt for that object, with why it never runs in a
  measuring loop; an entry naming an object that no longer calls it is
  stale.
--list prints the wrapped calls the measuring objects rely on; --audit
reads another audit file (the tests').
Exit 0 when all holds, 1 otherwise (each finding printed).
"""
import fnmatch
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def nm(path, *opts):
    out = subprocess.run(["nm"] + list(opts) + [path], check=True,
                         capture_output=True, text=True).stdout
    return [l.split()[-1] for l in out.splitlines() if l.strip()]


def wraps(xeno_config):
    try:
        p = subprocess.run([xeno_config, "--posix", "--ldflags"],
                           capture_output=True, text=True)
    except OSError as e:
        sys.exit("check-cobalt: cannot run %s: %s" % (xeno_config, e.strerror))
    if p.returncode:
        sys.exit("check-cobalt: %s --posix --ldflags failed: %s"
                 % (xeno_config, p.stderr.strip()))
    out = subprocess.run([os.path.join(HERE, "cobalt-wraps.sh")] +
                         p.stdout.split(), check=True, capture_output=True,
                         text=True).stdout
    names = set(out.split()) - {"main"}
    if not names:
        sys.exit("check-cobalt: %s --posix --ldflags wraps nothing: not "
                 "Xenomai 3's xeno-config?" % xeno_config)
    return names


def audit(path):
    entries = {}
    try:
        f = open(path)
    except OSError as e:
        sys.exit("check-cobalt: %s: %s" % (path, e.strerror))
    with f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, _, why = line.partition(" -- ")
            words = head.split()
            if not why.strip() or len(words) < 2:
                sys.exit("cobalt-audit.txt: no reason or no object: " + line)
            entries[words[0]] = set(words[1:])
    return entries


def main(argv):
    listing = "--list" in argv
    argv = [a for a in argv if a != "--list"]
    audit_file = os.path.join(HERE, "cobalt-audit.txt")
    if "--audit" in argv:
        i = argv.index("--audit")
        audit_file = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) < 2 or any(o not in argv for o in ("--kept", "--rt",
                                                     "--mixed")):
        sys.exit(__doc__)
    build, xeno = argv[0], argv[1]
    bad_opt = [a for a in argv if a.startswith("-") and
               a not in ("--kept", "--rt", "--mixed")]
    if bad_opt:
        sys.exit("check-cobalt: unknown option %s\n%s" % (bad_opt[0], __doc__))
    if not os.path.isdir(os.path.join(build, "src")):
        sys.exit("check-cobalt: %s: no build directory (no src/ in it)" % build)
    kept = [k.replace("%", "*")
            for k in argv[argv.index("--kept") + 1:argv.index("--rt")]]
    rt = argv[argv.index("--rt") + 1:argv.index("--mixed")]
    mixed = argv[argv.index("--mixed") + 1:]
    wrapped = wraps(xeno)
    objs = {}
    # the objects of rtlat, and those compiled apart for it (lean/: the
    # files rtlat-host and rtlat-trace have whole)
    walk = [w for d in ("src", os.path.join("lean", "src"))
            for w in os.walk(os.path.join(build, d))]
    for root, _, files in walk:
        for f in files:
            if f.endswith(".o"):
                p = os.path.join(root, f)
                objs[os.path.relpath(p, build)[:-2]] = p
    missing = [o for o in rt + mixed if o not in objs]
    if missing:
        sys.exit("check-cobalt: no object for: " + " ".join(missing))
    defined = set()
    undef = {}
    for stem, p in objs.items():
        defined |= set(nm(p, "--defined-only"))
        undef[stem] = set(nm(p, "-u"))
    entries = audit(audit_file)
    bad = []
    relied = set()
    for stem in sorted(objs):
        u = undef[stem]
        if stem not in rt and stem not in mixed:
            for n in sorted(u & wrapped):
                bad.append("%s: Linux-side object calls %s through Cobalt "
                           "(not renamed to __real_%s)" % (stem, n, n))
            continue
        if stem in mixed:
            for n in sorted(u & wrapped):
                if not any(fnmatch.fnmatch(n, k) for k in kept):
                    bad.append("%s: mixed object calls %s through Cobalt "
                               "(only threads, clocks, synchronisation are "
                               "kept)" % (stem, n))
        relied |= u & wrapped
        short = stem[len("src/"):]
        for n in sorted(u - wrapped - defined):
            if n.startswith("__real_"):
                continue
            objs_ok = entries.get(n)
            if objs_ok is None or ("*" not in objs_ok and short not in objs_ok):
                bad.append("%s: calls %s, which Cobalt does not wrap and "
                           "scripts/cobalt-audit.txt does not list for it"
                           % (stem, n))
    for n, where in sorted(entries.items()):
        for o in sorted(where - {"*"}):
            if n not in undef.get("src/" + o, set()):
                bad.append("cobalt-audit.txt: %s no longer calls %s "
                           "(stale entry)" % (o, n))
    if listing:
        for n in sorted(relied):
            print(n)
    for b in bad:
        print("check-cobalt: " + b)
    if not bad and not listing:
        print("check-cobalt: %d objects; measuring objects rely on %d wrapped "
              "calls; %d audited library calls" % (len(objs), len(relied),
                                                   len(entries)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
