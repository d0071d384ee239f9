#!/usr/bin/env python3
"""Tests .pre-commit-hooks.yaml with the real `pre-commit`: a temporary hook
repository holding the current hook file, a temporary project with a buggy
and a clean .cu file, and `pre-commit try-repo <hooks> warp-lint --files F`.

The hook must fail on the buggy file showing the finding, pass on the clean
one, and not run on a .cpp file (types_or: [cuda]).

--warp-lint PATH puts that binary on PATH as `warp-lint`; --plugin PATH
instead puts a stand-in there that runs the plugin in clang-tidy with
warp-lint's default flags (so the hook is tested before the CLI exists).
Exit status: 0 pass, 1 fail, 77 skipped (warp-lint not built).
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import run_test  # noqa: E402  (default CUDA arguments)

BUGGY = """\
__global__ void half_warp(float *out, const float *in) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v;
}
"""
CLEAN = """\
__global__ void warp_sum(float *out, const float *in) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}
"""
GIT = ['git', '-c', 'user.name=warp-lint test', '-c',
       'user.email=test@warp-lint.invalid', '-c', 'init.defaultBranch=main',
       '-c', 'commit.gpgsign=false']


def sh(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace')
    return p.returncode, p.stdout


def git_repo(path, files):
    os.makedirs(path)
    for name, text in files.items():
        with open(os.path.join(path, name), 'w') as f:
            f.write(text)
    for cmd in (['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'init']):
        rc, out = sh(GIT + cmd, path)
        if rc:
            sys.exit('git %s failed in %s:\n%s' % (cmd[0], path, out))


def shim(bin_dir, o):
    """A `warp-lint` that runs the plugin with warp-lint's default flags."""
    args = run_test.default_cuda_args(o.cuda_path, 'sm_90')
    script = os.path.join(bin_dir, 'warp-lint')
    with open(script, 'w') as f:
        f.write('#!/bin/sh\n# stand-in for warp-lint (see test_hook.py)\n'
                'out=$(%s --load=%s "--checks=-*,warp-*" "$@" -- %s 2>&1) '
                '|| { printf "%%s\\n" "$out"; exit 2; }\n'
                'printf "%%s\\n" "$out"\n'
                'case "$out" in *": warning: "*) exit 1;; esac\nexit 0\n' % (
                    shlex.quote(o.clang_tidy), shlex.quote(o.plugin),
                    ' '.join(shlex.quote(a) for a in args)))
    os.chmod(script, 0o755)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--warp-lint')
    p.add_argument('--plugin')
    p.add_argument('--clang-tidy', default='clang-tidy-22')
    p.add_argument('--cuda-path', default=run_test.default_cuda_path())
    p.add_argument('--pre-commit', default='pre-commit')
    o = p.parse_args()
    for name in ('warp_lint', 'plugin', 'clang_tidy', 'cuda_path'):
        value = getattr(o, name)
        if value and os.sep in value:
            setattr(o, name, os.path.abspath(value))
    if not shutil.which(o.pre_commit):
        print('FAIL: pre-commit not found (apt-get install pre-commit)')
        return 1
    if o.warp_lint and not os.path.exists(o.warp_lint):
        print('SKIP: warp-lint not built yet: %s' % o.warp_lint)
        return 77

    tmp = tempfile.mkdtemp(prefix='warp-lint-hook-')
    try:
        bin_dir = os.path.join(tmp, 'bin')
        os.makedirs(bin_dir)
        if o.warp_lint:
            os.symlink(os.path.abspath(o.warp_lint),
                       os.path.join(bin_dir, 'warp-lint'))
        else:
            shim(bin_dir, o)
        hooks = os.path.join(tmp, 'hooks')
        with open(os.path.join(REPO, '.pre-commit-hooks.yaml')) as f:
            git_repo(hooks, {'.pre-commit-hooks.yaml': f.read()})
        project = os.path.join(tmp, 'project')
        git_repo(project, {'buggy.cu': BUGGY, 'clean.cu': CLEAN,
                           'host.cpp': 'int main() { return 0; }\n'})

        env = dict(os.environ, PRE_COMMIT_HOME=os.path.join(tmp, 'cache'),
                   PATH=bin_dir + os.pathsep + os.environ.get('PATH', ''),
                   PRE_COMMIT_COLOR='never', NO_COLOR='1')
        env.pop('PRE_COMMIT', None)
        failures = []

        def try_repo(name):
            return sh([o.pre_commit, 'try-repo', hooks, 'warp-lint',
                       '--files', name], project, env)

        rc, out = try_repo('buggy.cu')
        print('--- pre-commit try-repo on buggy.cu (exit %d):\n%s' % (rc, out))
        if rc == 0:
            failures.append('the hook passed on buggy.cu')
        if 'Failed' not in out:
            failures.append('pre-commit did not report the hook as Failed')
        if 'buggy.cu:4:10: warning: ' not in out or \
                '[warp-shuffle-source-outside-mask]' not in out:
            failures.append('the finding buggy.cu:4:10 '
                            '[warp-shuffle-source-outside-mask] is not shown')

        rc, out = try_repo('clean.cu')
        print('--- pre-commit try-repo on clean.cu (exit %d):\n%s' % (rc, out))
        if rc != 0 or 'Passed' not in out:
            failures.append('the hook did not pass on clean.cu')

        rc, out = try_repo('host.cpp')
        print('--- pre-commit try-repo on host.cpp (exit %d):\n%s' % (rc, out))
        if rc != 0 or 'no files to check' not in out:
            failures.append('the hook ran on a .cpp file (types_or: [cuda])')

        for f in failures:
            print('FAIL: ' + f)
        if not failures:
            print('PASS: hook fails on buggy.cu, passes on clean.cu, skips '
                  'host.cpp')
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
