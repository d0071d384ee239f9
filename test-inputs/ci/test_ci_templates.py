#!/usr/bin/env python3
"""Tests ci-templates/: the job files are valid YAML with the steps docs/ci.md
describes, a run that did not complete (status 2) is never uploaded or
published (the GitHub condition evaluated, the GitLab script run with a
stand-in warp-lint), and warp-lint's SARIF on the bundled example converts
into a GitLab Code Quality report naming the finding.

Exit status: 0 pass, 1 fail, 77 skipped (warp-lint not built: the YAML part
still runs, and fails the test if it is wrong).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

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
    # Both install the release package from the URL the user sets.
    gl_install = ' '.join(gl['before_script'])
    if 'WARP_LINT_DEB_URL' not in gl.get('variables', {}) or \
            'apt-get install' not in gl_install or '.deb' not in gl_install:
        failures.append('gitlab-ci.yml: does not install the package from '
                        'WARP_LINT_DEB_URL')
    env = gh['jobs']['warp-lint'].get('env', {})
    if 'WARP_LINT_DEB_URL' not in env or '/tmp/warp-lint.deb' not in runs:
        failures.append('github-actions.yml: does not install the package '
                        'from WARP_LINT_DEB_URL')


def github_condition(expr, status):
    """Evaluates a GitHub Actions `if:` expression of the template for a lint
    step that exited with `status` (the few forms the template uses)."""
    e = expr.replace('${{', '').replace('}}', '')
    e = re.sub(r"hashFiles\([^)]*\)\s*!=\s*''", 'True', e)
    e = e.replace('always()', 'True').replace('success()', str(status <= 1))
    e = e.replace('steps.lint.outputs.status', repr(str(status)))
    e = e.replace('&&', ' and ').replace('||', ' or ').replace('!', ' not ')
    e = e.replace(' not =', '!=')
    return bool(eval(e, {'__builtins__': {}}, {'True': True, 'False': False}))


def check_upload_policy(failures, warp_lint):
    """An errored run (status 2) never becomes the uploaded report."""
    try:
        import yaml
    except ImportError:
        return
    with open(os.path.join(TEMPLATES, 'github-actions.yml')) as f:
        steps = yaml.safe_load(f)['jobs']['warp-lint']['steps']
    upload = next(s for s in steps
                  if s.get('uses', '').startswith('github/codeql-action/'
                                                  'upload-sarif'))
    for status, want in ((0, True), (1, True), (2, False)):
        if github_condition(str(upload.get('if', 'success()')),
                            status) != want:
            failures.append('github-actions.yml: with warp-lint status %d the '
                            'SARIF is %suploaded' % (status,
                                                     '' if not want else 'not '))
    with open(os.path.join(TEMPLATES, 'gitlab-ci.yml')) as f:
        script = yaml.safe_load(f)['warp-lint']['script']
    # Run the job's script with a stand-in warp-lint exiting 0, 1 or 2.
    for status in (0, 1, 2):
        work = tempfile.mkdtemp(prefix='warp-lint-ci-')
        fake = os.path.join(work, 'warp-lint')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\nfor a; do case $a in --output=*) out=${a#*=};; '
                    'esac; done\nprintf \'{"version": "2.1.0", "runs": [{"invocations": '
                    '[{"executionSuccessful": %s}], "results": []}]}\' > "$out"\n'
                    'exit %d\n' % ('false' if status == 2 else 'true', status))
        os.chmod(fake, 0o755)
        lines = [l.replace('/usr/share/warp-lint/ci-templates', TEMPLATES)
                 .replace("$(git ls-files '*.cu')", 'k.cu') for l in script]
        p = subprocess.run(['bash', '-c', '\n'.join(lines)], cwd=work,
                           env=dict(os.environ, PATH=work + ':' +
                                    os.environ.get('PATH', '')),
                           capture_output=True, text=True)
        report = os.path.exists(os.path.join(work, 'gl-code-quality-report.json'))
        if p.returncode != status or report != (status <= 1):
            failures.append('gitlab-ci.yml: with warp-lint status %d the job '
                            'exits %d and %s a Code Quality report' % (
                                status, p.returncode,
                                'publishes' if report else 'publishes no'))
        shutil.rmtree(work, ignore_errors=True)
    # The converter itself refuses a run that did not complete.
    if os.path.exists(warp_lint):
        work = tempfile.mkdtemp(prefix='warp-lint-ci-')
        with open(os.path.join(work, 'broken.cu'), 'w') as f:
            f.write('__global__ void k( {\n')
        lint = subprocess.run([warp_lint, '--format=sarif', 'broken.cu'],
                              cwd=work, capture_output=True, text=True)
        conv = subprocess.run(
            [sys.executable, os.path.join(TEMPLATES, 'sarif-to-codequality.py'),
             '/dev/stdin'], input=lint.stdout, capture_output=True, text=True)
        if lint.returncode != 2 or conv.returncode == 0 or conv.stdout:
            failures.append('sarif-to-codequality.py converts the SARIF of an '
                            'errored run (warp-lint exit %d, converter exit %d)'
                            % (lint.returncode, conv.returncode))
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--warp-lint', required=True)
    o = p.parse_args()
    o.warp_lint = os.path.abspath(o.warp_lint)
    failures = []
    check_yaml(failures)
    check_upload_policy(failures, o.warp_lint)
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
