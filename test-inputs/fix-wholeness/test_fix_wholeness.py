#!/usr/bin/env python3
"""Every fix is whole on its own: with any one finding suppressed, the fixes
of the others still compile.

Each input here marks the lines of its findings with `// SITE(<check>)`,
and the collectives a finding covers besides its own line (one finding per
cause: "also here" notes) with `// ALSO(<check>)`: those share the
finding's fix and its NOLINT, and are not suppressed one by one.
For the input as it is and for each site in turn suppressed (the marker
becomes `// SITE NOLINT(<check>)`), through one front end:

  - `--fix` on a copy: the fixed file compiles with nvcc, the suppressed
    line is untouched, a second `--fix` changes nothing and reports nothing;
  - `--export-fixes` on another copy, then clang-apply-replacements: the
    same file as `--fix` wrote (identical insertions carried by several
    fixes are applied once by every consumer).

usage: test_fix_wholeness.py --front-end=plugin|warp-lint [--plugin=SO]
       [--warp-lint=BIN] [--clang-tidy=BIN] [--apply=BIN] [--nvcc=BIN]
       [--cuda-path=DIR] input.cu...
Exit status: 0 pass, 1 fail, 77 skipped (front end not built).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_test  # noqa: E402  (default CUDA arguments)

SITE_RE = re.compile(r'// SITE\(([\w-]+)\)')
FAILURES = []


def fail(what):
    FAILURES.append(what)
    print('FAIL: ' + what)


def variants(text):
    """Yields (name, text, suppressed line number or None)."""
    yield 'no site suppressed', text, None
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = SITE_RE.search(line)
        if m:
            changed = list(lines)
            changed[i] = line.replace(m.group(0),
                                      '// SITE NOLINT(%s)' % m.group(1))
            yield 'line %d suppressed' % (i + 1), ''.join(changed), i + 1


def command(o, path, extra):
    if o.front_end == 'plugin':
        return ([o.clang_tidy, '--load=' + o.plugin, '--checks=-*,warp-*']
                + extra + [path, '--']
                + run_test.default_cuda_args(o.cuda_path, 'sm_90'))
    return [o.warp_lint, '--quiet'] + extra + [path]


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=600)


def compiles(o, path):
    p = subprocess.run([o.nvcc, '-arch=sm_90', '-c', '-o', os.devnull, path],
                       capture_output=True, text=True, timeout=600)
    return p.returncode == 0, p.stdout + p.stderr


def check_variant(o, tmp, name, label, text, suppressed):
    what = '%s, %s' % (name, label)
    fixed_dir = tempfile.mkdtemp(dir=tmp)
    fixed = os.path.join(fixed_dir, name)
    with open(fixed, 'w') as f:
        f.write(text)
    r = run(command(o, fixed, ['--fix']), fixed_dir)
    if r.returncode < 0 or (o.front_end == 'warp-lint' and r.returncode > 1):
        fail('%s: --fix exited with %d\n%s' % (what, r.returncode, r.stderr))
        return
    with open(fixed) as f:
        after = f.read()
    sites_left = len(SITE_RE.findall(text))
    if after == text and sites_left:
        fail('%s: --fix changed nothing' % what)
    if after != text and not sites_left:
        fail('%s: --fix changed a file whose every finding is suppressed'
             % what)
    ok, log = compiles(o, fixed) if sites_left else (True, '')
    if not ok:
        fail('%s: the fixed file does not compile:\n%s\n%s' % (what, log,
                                                             after))
    if suppressed is not None:
        line = text.splitlines()[suppressed - 1]
        if line not in after.splitlines():
            fail('%s: the suppressed line was changed:\n%s' % (what, after))
    again = run(command(o, fixed, ['--fix']), fixed_dir)
    with open(fixed) as f:
        if f.read() != after:
            fail('%s: a second --fix changed the file again' % what)
    left = [l for l in (again.stdout + again.stderr).splitlines()
            if re.search(r': (warning|error): ', l)]
    if left:
        fail('%s: findings left after --fix: %s' % (what, left))

    yaml_dir = tempfile.mkdtemp(dir=tmp)
    exported = os.path.join(yaml_dir, name)
    with open(exported, 'w') as f:
        f.write(text)
    fixes = os.path.join(yaml_dir, 'fixes.yaml')
    r = run(command(o, exported, ['--export-fixes=' + fixes]), yaml_dir)
    a = run([o.apply, yaml_dir], yaml_dir)
    with open(exported) as f:
        applied = f.read()
    if a.returncode != 0 or applied != after:
        fail('%s: clang-apply-replacements on the exported fixes (exit %d) '
             'gives other code than --fix:\n%s%s\n--- --fix wrote:\n%s' % (
                 what, a.returncode, a.stderr, applied, after))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('inputs', nargs='+')
    p.add_argument('--front-end', choices=('plugin', 'warp-lint'),
                   required=True)
    p.add_argument('--plugin')
    p.add_argument('--warp-lint')
    p.add_argument('--skip-if-missing', action='store_true',
                   help='accepted for symmetry with run_test.py: a front end '
                   'not built is always a skip here')
    p.add_argument('--clang-tidy', default='clang-tidy-22')
    p.add_argument('--apply', default='clang-apply-replacements-22')
    p.add_argument('--nvcc', default='nvcc')
    p.add_argument('--cuda-path', default=run_test.default_cuda_path())
    o = p.parse_args()
    binary = o.plugin if o.front_end == 'plugin' else o.warp_lint
    if not binary or not os.path.exists(binary):
        print('SKIP: %s front end not built (%s)' % (o.front_end, binary))
        return 77
    for tool in (o.apply, o.nvcc, o.clang_tidy):
        if not shutil.which(tool):
            print('FAIL: %s not found' % tool)
            return 1
    with tempfile.TemporaryDirectory(prefix='warp-lint-wholeness-') as tmp:
        for path in o.inputs:
            with open(path) as f:
                text = f.read()
            count = 0
            for label, variant, line in variants(text):
                check_variant(o, tmp, os.path.basename(path), label, variant,
                              line)
                count += 1
            print('%s: %d variant(s) checked' % (os.path.basename(path),
                                                 count))
    print('%s: %d failure(s)' % (o.front_end, len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
