#!/usr/bin/env python3
"""Scaffolds a new warp- check: checks/<Class>.{h,cpp} (a WarpCheckBase shell
that visits the collectives of each device function), docs/checks/<id>.md,
test-inputs/<id>.cu, its line in checks/CheckList.def, its include in
checks/WarpLintModule.cpp, its source in checks/CMakeLists.txt and its row
in docs/checks/index.md. Existing files and lines are left as they are.

  scripts/new-check.py warp-foo-bar "One-line description" [--class FooBarCheck]

Then fill in the check, the page and the test input; `ctest -R
check-list` verifies that everything agrees with checks/CheckList.def.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEADER = '''//===--- {cls}.h - {id} {pad}-*- C++ -*-===//

#ifndef WARP_LINT_{guard}_H
#define WARP_LINT_{guard}_H

#include "WarpCheckBase.h"

namespace clang::tidy::warp {{

/// {short}
///
/// For the user-facing documentation see:
/// docs/checks/{id}.md
class {cls} : public WarpCheckBase {{
public:
  {cls}(StringRef Name, ClangTidyContext *Context)
      : WarpCheckBase(Name, Context) {{}}

protected:
  void checkFunction(const FunctionDecl *FD, const FunctionUniformity &FU,
                     WarpAnalysis &WA) override;
}};

}} // namespace clang::tidy::warp

#endif
'''

SOURCE = '''//===--- {cls}.cpp - {id} {pad2}===//

#include "{cls}.h"

namespace clang::tidy::warp {{

void {cls}::checkFunction(const FunctionDecl *FD,
{indent}const FunctionUniformity &FU, WarpAnalysis &WA) {{
  FU.forEachStmt([&](const Stmt *S) {{
    std::optional<CollectiveUse> Use = matchCollective(S);
    if (!Use)
      return;
    // TODO: decide from the analysis whether *Use is a finding.
  }});
}}

}} // namespace clang::tidy::warp
'''

DOC = '''# {id}

{short}.

## What it flags

## Why it is a bug

## How to fix it

## Silencing

`// NOLINT({id})` on the line of the finding, or
`// NOLINTNEXTLINE({id})` on the line before.

## Options

None besides the common `WarpAlignedBlockDimX`.

## Limits
'''

TEST = '''// Tests of {id}: {short_lower}.
//
// Part 1: true positives. Part 2: code that must stay silent, each with the
// reason it is correct. Directives: see run_test.py (clang-tidy lit style):
// CHECK-MESSAGES and CHECK-NOTES give the whole message (warnings with their
// [{id}] suffix), and every printed warning and note must be expected;
// WARP-LINT-RUN lines test the file under several configurations.
// Both the input and the file after --fix must compile with nvcc -arch=sm_90.

//===----------------------------------------------------------------------===//
// Part 2: silent
//===----------------------------------------------------------------------===//

__global__ void converged_full_mask(float *out, const float *in) {{
  float v = in[threadIdx.x];
  out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
}}
'''


def class_name(check_id):
    words = check_id[len('warp-'):].split('-')
    return ''.join(w.capitalize() for w in words) + 'Check'


def c_string(text):
    return '"%s"' % text.replace('\\', '\\\\').replace('"', '\\"')


def write_new(path, text, created):
    full = os.path.join(ROOT, path)
    if os.path.exists(full):
        return
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)
    created.append(path)


def edit(path, change, created):
    full = os.path.join(ROOT, path)
    text = open(full).read()
    new = change(text)
    if new != text:
        with open(full, 'w') as f:
            f.write(new)
        created.append(path + ' (edited)')


def add_def_line(text, check_id, cls, short):
    if '"%s"' % check_id in text:
        return text
    line = ('WARP_CHECK(%s, %s,\n           %s,\n           %s,\n'
            '           "warning", "docs/checks/%s.md")\n' %
            (c_string(check_id), cls, c_string(short), c_string(short + '.'),
             check_id))
    return text.replace('\n#undef WARP_CHECK', '\n' + line + '\n#undef WARP_CHECK'
                        ).replace('\n\n\n', '\n\n')


def add_include(text, cls):
    inc = '#include "%s.h"\n' % cls
    if inc in text:
        return text
    lines = text.splitlines(keepends=True)
    local = [i for i, l in enumerate(lines)
             if l.startswith('#include "') and 'clang-tidy/' not in l]
    at = next((i for i in local if lines[i] > inc), local[-1] + 1)
    lines.insert(at, inc)
    return ''.join(lines)


def add_source(text, cls):
    src = '  %s.cpp\n' % cls
    if src in text:
        return text
    return re.sub(r'(add_library\(warpChecks OBJECT\n(?:  .*\n)*?)(  \))',
                  lambda m: m.group(1) + src + m.group(2), text, count=1)


def add_index_row(text, check_id, short):
    if '[%s](' % check_id in text:
        return text
    row = '| [%s](%s.md) | %s | no | in development |\n' % (check_id, check_id,
                                                         short.lower())
    lines = text.splitlines(keepends=True)
    last = max(i for i, l in enumerate(lines) if l.startswith('| '))
    lines.insert(last + 1, row)
    return ''.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('id', help='check id, warp-...')
    ap.add_argument('short', help='one-line description (no final period)')
    ap.add_argument('--class', dest='cls', help='class name (default from id)')
    o = ap.parse_args()
    if not re.fullmatch(r'warp-[a-z0-9]+(-[a-z0-9]+)*', o.id):
        sys.exit('new-check.py: an id is warp- and lower-case words: ' + o.id)
    cls = o.cls or class_name(o.id)
    guard = re.sub(r'(?<!^)(?=[A-Z])', '', cls).upper()
    created = []
    title = '//===--- %s.h - %s ' % (cls, o.id)
    pad = '-' * max(1, 80 - len(title) - len('-*- C++ -*-===//'))
    title2 = '//===--- %s.cpp - %s ' % (cls, o.id)
    pad2 = '-' * max(1, 80 - len(title2) - len('===//'))
    fields = dict(cls=cls, id=o.id, short=o.short, guard=guard, pad=pad,
                  pad2=pad2, indent=' ' * (len('void %s::checkFunction(' % cls)),
                  short_lower=o.short[0].lower() + o.short[1:])
    write_new('checks/%s.h' % cls, HEADER.format(**fields), created)
    write_new('checks/%s.cpp' % cls, SOURCE.format(**fields), created)
    write_new('docs/checks/%s.md' % o.id, DOC.format(**fields), created)
    write_new('test-inputs/%s.cu' % o.id, TEST.format(**fields), created)
    edit('checks/CheckList.def',
         lambda t: add_def_line(t, o.id, cls, o.short), created)
    edit('checks/WarpLintModule.cpp', lambda t: add_include(t, cls), created)
    edit('checks/CMakeLists.txt', lambda t: add_source(t, cls), created)
    edit('docs/checks/index.md', lambda t: add_index_row(t, o.id, o.short),
         created)
    # The templates are close to LLVM style; clang-format makes them exact.
    sources = [os.path.join(ROOT, p) for p in created if p.endswith(('.h', '.cpp'))]
    for fmt in ('clang-format-22', 'clang-format'):
        if sources and shutil.which(fmt):
            subprocess.run([fmt, '-i'] + sources, check=False)
            break
    for path in created:
        print(path)


if __name__ == '__main__':
    main()
