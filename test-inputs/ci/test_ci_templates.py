#!/usr/bin/env python3
"""Tests ci-templates/: the job files are valid YAML with the steps docs/ci.md
describes, and warp-lint's SARIF on the bundled example converts into a
GitLab Code Quality report naming the finding.

Exit status: 0 pass, 1 fail, 77 skipped (warp-lint not built: the YAML part
still runs, and fails the test if it is wrong).
"""
import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
TEMPLATES = os.path.join(REPO, 'ci-templates')


def check_yaml(failures):
    try:
        import yaml  # python3-yaml, a dependency of Debian's pre-commit
    except ImportError:
        print('note: python3-yaml missing, template YAML not parsed')
        return
    with open(os.path.join(TEMPLATES, 'github-actions.yml')) as f:
        gh = yaml.safe_load(f)
    steps = gh['jobs']['warp-lint']['steps']
    uses = [s.get('uses', '') for s in steps]
    runs = ' '.join(s.get('run', '') for s in steps)
    if not any(u.startswith('github/codeql-action/upload-sarif') for u in uses):
        failures.append('github-actions.yml: no upload-sarif step')
    if '--format=sarif' not in runs:
        failures.append('github-actions.yml: warp-lint not run with SARIF')
    if gh.get('permissions', {}).get('security-events') != 'write':
        failures.append('github-actions.yml: needs security-events: write')
    with open(os.path.join(TEMPLATES, 'gitlab-ci.yml')) as f:
        gl = yaml.safe_load(f)['warp-lint']
    if gl['artifacts']['reports'].get('codequality') != \
            'gl-code-quality-report.json':
        failures.append('gitlab-ci.yml: no codequality report')
    if '--format=sarif' not in ' '.join(gl['script']):
        failures.append('gitlab-ci.yml: warp-lint not run with SARIF')


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--warp-lint', required=True)
    o = p.parse_args()
    failures = []
    check_yaml(failures)
    if not os.path.exists(o.warp_lint):
        for f in failures:
            print('FAIL: ' + f)
        if failures:
            return 1
        print('SKIP: warp-lint not built yet (%s); templates parse' %
              o.warp_lint)
        return 77
    example = os.path.join(REPO, 'examples', 'reduction.cu')
    lint = subprocess.run([o.warp_lint, '--format=sarif', example],
                          cwd=REPO, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if lint.returncode != 1:
        failures.append('warp-lint --format=sarif on the example exited %d '
                        '(expected 1, findings):\n%s' % (lint.returncode,
                                                         lint.stderr))
    conv = subprocess.run(
        [sys.executable, os.path.join(TEMPLATES, 'sarif-to-codequality.py'),
         '/dev/stdin'], input=lint.stdout, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        issues = json.loads(conv.stdout)
    except ValueError:
        issues = []
        failures.append('converter output is not JSON:\n%s%s' % (conv.stdout,
                                                                 conv.stderr))
    names = [(i['check_name'], i['location']['path']) for i in issues]
    if not any(c.startswith('warp-') and p.endswith('examples/reduction.cu')
               for c, p in names):
        failures.append('no warp-* issue on examples/reduction.cu in the Code '
                        'Quality report: %s' % names)
    for f in failures:
        print('FAIL: ' + f)
    if not failures:
        print('PASS: templates parse; SARIF -> Code Quality: %s' % names)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
