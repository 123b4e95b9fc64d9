#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The OPTIONS section of each man page against the option tables, in both
directions and with the defaults.

The option tables are read from the binary itself ("rtlat CMD --help" is
generated from them, opt_print_help()). For every command:

 - every option of --help is named in a tag (.TP) of the page's OPTIONS
   sections (OPTIONS, COMMON OPTIONS, LOAD OPTIONS, ...);
 - every option a tag of OPTIONS names is an option of --help (a page does
   not document an option that went away);
 - every default --help states ("(default X)", "default: X", "X (default)")
   is stated in that option's paragraph of the page too.

The section COMMON OPTIONS is generated from the tables (--update): one
item per option of --help that the hand-written sections do not describe,
with its --help text; the check then also fails when it is not what
--update would write.

usage: check-man.py [--update] RTLAT [MAN_DIR]
Exit status 1 with one line per problem.
"""
import os
import re
import subprocess
import sys

OPT_LINE = re.compile(r'^  (?:-(\w), )?\s*--([a-z][a-z0-9_-]*)(\[?=\S*)?\s+(.*)$')
COMMON = '.SH COMMON OPTIONS\n'
COMMON_INTRO = ('These options are shared with the other tests and work as '
                'described in\n.BR rtlat\\-latency (1):\n')
COMMON_INTRO_OTHER = 'These options work as their \\-\\-help says:\n'
GENERATED = ('.\\" generated from the option tables by scripts/check-man.py '
             '--update\n')
CONT_LINE = re.compile(r'^ {20,}(\S.*)$')


def commands(rtlat):
    out = subprocess.run([rtlat, '--help'], capture_output=True,
                         text=True).stdout
    sect = out.split('Commands:\n', 1)[1].split('\n\n', 1)[0]
    return [line.split()[0] for line in sect.splitlines() if line.strip()]


def help_options(rtlat, cmd, tags=None):
    """{long: help text} of 'rtlat CMD --help' (in its order); @tags gets
    {long: (short, argument)}."""
    out = subprocess.run([rtlat, cmd, '--help'], capture_output=True,
                         text=True).stdout
    opts, cur = {}, None
    for line in out.splitlines():
        m = OPT_LINE.match(line)
        if m:
            cur = m.group(2)
            opts[cur] = m.group(4)
            if tags is not None:
                tags[cur] = (m.group(1), m.group(3) or '')
            continue
        m = CONT_LINE.match(line)
        if m and cur:
            opts[cur] += ' ' + m.group(1)
        else:
            cur = None
    opts.pop('help', None)
    return opts


def troff_text(s):
    """Text of troff source: requests' arguments kept, escapes removed."""
    out = []
    for line in s.splitlines():
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith('.'):
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 else ''
            # .BR a ", " b: the quoted pieces are words of their own
            line = re.sub(r'"([^"]*)"', r'\1', line)
            line = line.replace(' ', '') if parts[0] in (
                '.BR', '.RB', '.BI', '.IB', '.IR', '.RI') else line
        out.append(line)
    text = '\n'.join(out)
    text = re.sub(r'\\f[BIRP]|\\f\(..|\\&|\\e', '', text)
    text = text.replace('\\-', '-').replace('\\(em', '-').replace('\\ ', ' ')
    return text


def man_options(page, hand_only=False):
    """{long: paragraph text} of the tags of the OPTIONS sections (with
    @hand_only, not of the generated COMMON OPTIONS)."""
    src = open(page, encoding='utf-8').read()
    if hand_only:
        src = re.sub(r'^\.SH COMMON OPTIONS\n.*?(?=^\.SH |\Z)', '', src,
                     flags=re.M | re.S)
    sections = re.findall(r'^\.SH "?[A-Z ]*OPTIONS"?\n(.*?)(?=^\.SH |\Z)',
                          src, re.M | re.S)
    if not sections:
        return None
    opts = {}
    items = []
    for sect in sections:
        items += re.split(r'^\.TP\n', sect, flags=re.M)[1:]
    for item in items:
        tag, _, body = item.partition('\n')
        para = troff_text(body)
        para = re.split(r'^\.(?:SS|TP)\b', para, flags=re.M)[0]
        if para.lstrip().startswith('(on tests)'):
            continue	# rtlat-load(1): what --load means on the tests
        for name in re.findall(r'--([a-z][a-z0-9_-]*)', troff_text(tag)):
            opts[name] = opts.get(name, '') + ' ' + para
    return opts


DEFAULT = [
    re.compile(r'\(default:? ([^);]+)[);]'),
    re.compile(r'\(default (\S+)\)'),
    re.compile(r'(\S+) \(default\)'),
    re.compile(r'\((\S+), default\)'),
]


def norm(s):
    s = re.sub(r'\s+', ' ', s.replace('\u2009', ' ')).strip().lower()
    return s.rstrip('.')


def defaults(helptext):
    out = []
    for pat in DEFAULT:
        out += [norm(d) for d in pat.findall(helptext)]
    return out


def default_stated(d, para):
    """Is default @d of --help stated in the page's paragraph @para?"""
    p = norm(para).replace('µs', 'us')
    d = d.replace('µs', 'us')
    if d in p:
        return True
    # "every CPU rtlat may use" vs "all CPUs rtlat may use": the value
    # words, not the phrasing, must be there
    words = [w for w in re.findall(r'[a-z0-9_./$-]+', d)
             if w not in ('the', 'a', 'of', 'is', 'it', 'at', 'to', 'as',
                          'and', 'or')]
    return bool(words) and all(w in p for w in words)


def troff_escape(text):
    text = text.replace('\\', '\\e').replace('-', '\\-')
    return '\n'.join('\\&' + ln if ln.startswith(('.', "'")) else ln
                     for ln in text.split('\n'))


def tag_line(name, short, arg):
    parts = []
    if short:
        parts.append('\\-%s ", " ' % short)
    parts.append('\\-\\-' + name.replace('-', '\\-'))
    if arg:
        opt = arg.startswith('[')
        val = arg[2:-1] if opt else arg[1:]
        parts.append(' %s\\fI%s\\fR%s' % ('[=' if opt else '=',
                                             val.replace('-', '\\-'),
                                             ']' if opt else ''))
    return '.BR ' + ''.join(parts)


def common_section(rtlat, cmd, page):
    """The COMMON OPTIONS section --update writes into @page, or ''."""
    tags = {}
    hopts = help_options(rtlat, cmd, tags)
    hand = man_options(page, hand_only=True) or {}
    rest = [o for o in hopts if o not in hand]
    if not rest:
        return ''
    test = 'max-latency' in hopts	# a test: its shared options
    out = COMMON + GENERATED + (COMMON_INTRO if test else COMMON_INTRO_OTHER)
    for o in rest:
        short, arg = tags[o]
        out += '.TP\n%s\n%s\n' % (tag_line(o, short, arg),
                                   troff_escape(hopts[o]))
    return out


def with_common(src, section):
    """@src with its COMMON OPTIONS section replaced by @section (added
    before EXIT STATUS, else SEE ALSO, when it has none)."""
    m = re.search(r'^\.SH COMMON OPTIONS\n.*?(?=^\.SH |\Z)', src,
                  re.M | re.S)
    if m:
        return src[:m.start()] + section + src[m.end():]
    if not section:
        return src
    for head in ('.SH EXIT STATUS\n', '.SH EXAMPLES\n', '.SH SEE ALSO\n'):
        i = src.find(head)
        if i >= 0:
            return src[:i] + section + src[i:]
    return src + section


def update(rtlat, mandir):
    for cmd in commands(rtlat):
        page = os.path.join(mandir, 'rtlat-%s.1' % cmd)
        if not os.path.exists(page):
            continue
        src = open(page, encoding='utf-8').read()
        new = with_common(src, common_section(rtlat, cmd, page))
        if new != src:
            open(page, 'w', encoding='utf-8').write(new)
            print('check-man: updated %s' % page)


def check(rtlat, mandir):
    bad = []
    for cmd in commands(rtlat):
        page = os.path.join(mandir, 'rtlat-%s.1' % cmd)
        if not os.path.exists(page):
            bad.append('%s: no man page for rtlat %s' % (page, cmd))
            continue
        hopts = help_options(rtlat, cmd)
        mopts = man_options(page)
        src = open(page, encoding='utf-8').read()
        if with_common(src, common_section(rtlat, cmd, page)) != src:
            bad.append('%s: COMMON OPTIONS is not what the option tables '
                       'give (scripts/check-man.py --update)' % page)
        if mopts is None:
            if hopts:
                bad.append('%s: no OPTIONS section' % page)
            continue
        for o in sorted(set(hopts) - set(mopts)):
            bad.append('%s: --%s of rtlat %s --help is not in OPTIONS' %
                       (page, o, cmd))
        for o in sorted(set(mopts) - set(hopts) - {'help', 'version'}):
            bad.append('%s: OPTIONS names --%s, which rtlat %s does not have'
                       % (page, o, cmd))
        for o in sorted(set(hopts) & set(mopts)):
            for d in defaults(hopts[o]):
                if not default_stated(d, mopts[o]):
                    bad.append('%s: --%s: the default "%s" of --help is not '
                               'stated' % (page, o, d))
    return bad


def main():
    args = sys.argv[1:]
    do_update = args[:1] == ['--update']
    if do_update:
        args = args[1:]
    if len(args) not in (1, 2):
        print(__doc__.strip(), file=sys.stderr)
        return 1
    mandir = args[1] if len(args) == 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'man')
    if do_update:
        update(args[0], mandir)
    bad = check(args[0], mandir)
    for b in bad:
        print(b)
    if bad:
        print('check-man: %d problem(s)' % len(bad), file=sys.stderr)
        return 1
    print('check-man: OPTIONS of every page match the option tables')
    return 0


if __name__ == '__main__':
    sys.exit(main())
