#!/usr/bin/env python3
"""Checks that checks/CheckList.def, the one list of checks, agrees with the
rest of the repository: docs/checks/index.md lists exactly its checks (one
table row each, linking the page), every check has docs/checks/<id>.md (the
doc path of its .def line) and test-inputs/<id>.cu, and every class has its
checks/<Class>.{h,cpp} and is included by WarpLintModule.cpp.

Usage: test_check_list.py [repo-root]. Exit 0 pass, 1 fail.
"""

import os
import re
import sys

ENTRY_RE = re.compile(r'^WARP_CHECK\(\s*"([a-z0-9-]+)",\s*(\w+),(.*?)\)\s*$',
                      re.S | re.M)
ROW_RE = re.compile(r'^\|\s*(?:\[([a-z0-9-]+)\]\(([^)]+)\)|([a-z0-9-]+))\s*\|',
                    re.M)


def def_entries(root):
    text = open(os.path.join(root, 'checks', 'CheckList.def')).read()
    entries = []
    # One entry per WARP_CHECK( ... ) up to the closing parenthesis that ends
    # the line of its last argument.
    for m in re.finditer(r'^WARP_CHECK\((.*?)\)\n', text, re.S | re.M):
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
        cls = re.match(r'\s*"[^"]*",\s*(\w+)', m.group(1))
        entries.append({'id': strings[0], 'class': cls.group(1),
                        'doc': strings[-1], 'level': strings[-2]})
    return entries


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..', '..'))
    errors = []
    entries = def_entries(root)
    ids = [e['id'] for e in entries]
    if not ids:
        errors.append('checks/CheckList.def lists no check')
    if len(set(ids)) != len(ids):
        errors.append('checks/CheckList.def lists a check twice')
    index = open(os.path.join(root, 'docs', 'checks', 'index.md')).read()
    rows = {}
    for m in ROW_RE.finditer(index):
        cid = m.group(1) or m.group(3)
        if cid and cid.startswith('warp-'):
            rows[cid] = m.group(2)
    module = open(os.path.join(root, 'checks', 'WarpLintModule.cpp')).read()
    for e in entries:
        cid = e['id']
        if cid not in rows:
            errors.append('docs/checks/index.md does not list %s' % cid)
        elif rows[cid] != cid + '.md':
            errors.append('docs/checks/index.md: %s links %r, not %s.md' %
                          (cid, rows[cid], cid))
        if e['doc'] != 'docs/checks/%s.md' % cid:
            errors.append('%s: doc path %r is not docs/checks/%s.md' %
                          (cid, e['doc'], cid))
        for path in (e['doc'], 'test-inputs/%s.cu' % cid,
                     'checks/%s.h' % e['class'], 'checks/%s.cpp' % e['class']):
            if not os.path.isfile(os.path.join(root, path)):
                errors.append('%s: %s is missing' % (cid, path))
        if '#include "%s.h"' % e['class'] not in module:
            errors.append('checks/WarpLintModule.cpp does not include %s.h' %
                          e['class'])
        if e['level'] not in ('warning', 'error', 'note'):
            errors.append('%s: level %r is not a SARIF level' %
                          (cid, e['level']))
    for cid in rows:
        if cid not in ids:
            errors.append('docs/checks/index.md lists %s, which '
                          'checks/CheckList.def does not have' % cid)
    for err in errors:
        print('FAIL: ' + err)
    if not errors:
        print('PASS: %d checks agree with checks/CheckList.def' % len(ids))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
