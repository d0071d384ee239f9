#!/usr/bin/env python3
"""Tests ci-templates/ on a real project: the job files are valid YAML with
the steps docs/ci.md describes; their own commands (GitHub's configure and
lint steps, GitLab's script, the plain shell stage) run on the sample CMake
+ nvcc project in sample/ (its own include directory, a source generated
at build time, vendored code under third_party/) with the real warp-lint;
a run that did not complete (status 2) is never uploaded or published; the
sample's stale compile-database entry, generated source and third_party/
behave as docs/ci.md says; warp-lint's SARIF converts into a GitLab Code
Quality report.

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
SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sample')

# A planted bug: lanes 16..31 never reach the full-mask shuffles.
PLANTED = r"""
__global__ void half_sum(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (lane_id() < 16)
    v += __shfl_down_sync(kFullMask, v, 8);
  out[threadIdx.x] = v;
}
"""


def load_yaml(name):
    import yaml  # python3-yaml, a dependency of Debian's pre-commit
    with open(os.path.join(TEMPLATES, name)) as f:
        return yaml.safe_load(f)


def check_yaml(failures):
    try:
        import yaml  # noqa: F401
    except ImportError:
        print('note: python3-yaml missing, template YAML not parsed')
        return
    gh = load_yaml('github-actions.yml')
    steps = gh['jobs']['warp-lint']['steps']
    uses = [s.get('uses', '') for s in steps]
    runs = ' '.join(s.get('run', '') for s in steps)
    if not any(u.startswith('github/codeql-action/upload-sarif') for u in uses):
        failures.append('github-actions.yml: no upload-sarif step')
    if '--format=sarif' not in runs or 'warp-lint -p build' not in runs:
        failures.append('github-actions.yml: warp-lint not run with -p and '
                        'SARIF')
    if '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON' not in runs:
        failures.append('github-actions.yml: no configure step writing the '
                        'compile database')
    if gh.get('permissions', {}).get('security-events') != 'write':
        failures.append('github-actions.yml: needs security-events: write')
    gl = load_yaml('gitlab-ci.yml')['warp-lint']
    if gl['artifacts']['reports'].get('codequality') != \
            'gl-code-quality-report.json':
        failures.append('gitlab-ci.yml: no codequality report')
    script = ' '.join(gl['script'])
    if '--format=sarif' not in script or 'warp-lint -p build' not in script \
            or '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON' not in script:
        failures.append('gitlab-ci.yml: no configure + warp-lint -p with '
                        'SARIF')
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


def github_step(steps, name):
    return next(s for s in steps if s.get('name') == name)


def check_upload_policy(failures):
    """An errored run (status 2) never becomes the uploaded report (GitHub's
    condition evaluated, GitLab's script run with stand-ins)."""
    try:
        import yaml  # noqa: F401
    except ImportError:
        return
    steps = load_yaml('github-actions.yml')['jobs']['warp-lint']['steps']
    upload = next(s for s in steps
                  if s.get('uses', '').startswith('github/codeql-action/'
                                                  'upload-sarif'))
    for status, want in ((0, True), (1, True), (2, False)):
        if github_condition(str(upload.get('if', 'success()')),
                            status) != want:
            failures.append('github-actions.yml: with warp-lint status %d the '
                            'SARIF is %suploaded' % (status,
                                                     '' if not want else 'not '))
    script = load_yaml('gitlab-ci.yml')['warp-lint']['script']
    # The job's script with a stand-in warp-lint exiting 0, 1 or 2 (and a
    # cmake that does nothing).
    for status in (0, 1, 2):
        work = tempfile.mkdtemp(prefix='warp-lint-ci-')
        fake = os.path.join(work, 'warp-lint')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\nfor a; do case $a in --output=*) out=${a#*=};; '
                    'esac; done\nprintf \'{"version": "2.1.0", "runs": [{"invocations": '
                    '[{"executionSuccessful": %s}], "results": []}]}\' > "$out"\n'
                    'exit %d\n' % ('false' if status == 2 else 'true', status))
        with open(os.path.join(work, 'cmake'), 'w') as f:
            f.write('#!/bin/sh\nexit 0\n')
        for tool in ('warp-lint', 'cmake'):
            os.chmod(os.path.join(work, tool), 0o755)
        lines = [l.replace('/usr/share/warp-lint/ci-templates', TEMPLATES)
                 for l in script]
        p = subprocess.run(['bash', '-c', '\n'.join(lines)], cwd=work,
                           env=dict(os.environ, PATH=work + ':' +
                                    os.environ.get('PATH', ''),
                                    CUDA_PATH='/nonexistent',
                                    WARP_LINT_ARGS='', WARP_LINT_CMAKE_ARGS=''),
                           capture_output=True, text=True)
        report = os.path.exists(os.path.join(work, 'gl-code-quality-report.json'))
        if p.returncode != status or report != (status <= 1):
            failures.append('gitlab-ci.yml: with warp-lint status %d the job '
                            'exits %d and %s a Code Quality report' % (
                                status, p.returncode,
                                'publishes' if report else 'publishes no'))
        shutil.rmtree(work, ignore_errors=True)


def tool_env(warp_lint, cuda, home, extra=None):
    """The environment of a CI job: warp-lint and nvcc on PATH."""
    env = dict(os.environ)
    env['PATH'] = os.pathsep.join([os.path.dirname(warp_lint),
                                   os.path.join(cuda, 'bin'),
                                   env.get('PATH', '')])
    env['CUDA_PATH'] = cuda
    env['HOME'] = home  # Nothing the job does reaches the user's files.
    env.pop('WARP_LINT_ARGS', None)
    env.pop('WARP_LINT_CMAKE_ARGS', None)
    env.update(extra or {})
    return env


def copy_sample(tmp, name, planted=False):
    """A copy of the sample project, as a CI job checks it out."""
    d = os.path.join(tmp, name)
    shutil.copytree(SAMPLE, d)
    if planted:
        with open(os.path.join(d, 'src', 'reduce.cu'), 'a') as f:
            f.write(PLANTED)
    return d


def sarif_of(path):
    with open(path) as f:
        doc = json.load(f)
    run = doc['runs'][0]
    uris = [r['locations'][0]['physicalLocation']['artifactLocation']['uri']
            for r in run.get('results', [])]
    inv = run['invocations'][0]
    return uris, inv.get('executionSuccessful'), \
        inv.get('toolExecutionNotifications', [])


def run_github(failures, warp_lint, cuda, tmp, d, label):
    """The template's configure and lint steps, as the runner runs them;
    returns the lint step's status, its stderr and whether the SARIF is
    uploaded."""
    job = load_yaml('github-actions.yml')['jobs']['warp-lint']
    steps = job['steps']
    out_file = os.path.join(tmp, label + '.github-output')
    open(out_file, 'w').close()
    env = tool_env(warp_lint, cuda, tmp, {
        k: str(v) for k, v in job.get('env', {}).items()
        if k not in ('CUDA_PATH',)})
    env['GITHUB_OUTPUT'] = out_file
    env['GITHUB_WORKSPACE'] = d
    err = ''
    for name in ('Configure (compile database only)', 'Run warp-lint'):
        step = github_step(steps, name)
        p = subprocess.run(['bash', '-e', '-c', step['run']], cwd=d, env=env,
                           capture_output=True, text=True, timeout=900)
        err = p.stdout + p.stderr
        if name.startswith('Configure') and p.returncode != 0:
            failures.append('%s: the configure step failed:\n%s' %
                            (label, err[-3000:]))
            return None, err, False
    outputs = dict(l.split('=', 1) for l in open(out_file).read().split()
                   if '=' in l)
    status = int(outputs.get('status', '-1'))
    upload = github_step(steps, 'Upload findings to code scanning')
    return status, err, github_condition(upload['if'], status)


def sample_runs(failures, warp_lint, cuda, tmp):
    """The templates' own commands on the sample project."""
    # GitHub: the project as it is: its own code is clean, third_party/ is
    # excluded by .warp-lint.yaml, the generated source is not generated
    # by configuring alone: a note, not a failure.
    d = copy_sample(tmp, 'github')
    status, err, uploaded = run_github(failures, warp_lint, cuda, tmp, d,
                                       'github')
    if status is None:
        return
    uris, complete, notes = sarif_of(os.path.join(d, 'warp-lint.sarif'))
    if status != 0 or not uploaded or not complete or uris:
        failures.append('github, clean sample: status %s, uploaded %s, '
                        'complete %s, results %s (expected 0, uploaded, '
                        'complete, none):\n%s' % (status, uploaded, complete,
                                                  uris, err[-3000:]))
    if 'not generated yet' not in err or 'scale.cu' not in err:
        failures.append('github: the generated source is not named as not '
                        'generated yet:\n' + err[-2000:])
    if not any(n.get('level') == 'note' and 'scale.cu' in
               n['message']['text'] for n in notes):
        failures.append('github: no SARIF note about the generated source: %s'
                        % notes)
    if 'warp-lint: 3 units in ' not in err or '1 excluded' not in err:
        failures.append('github: the summary does not count 3 units with 1 '
                        'excluded:\n' + err[-2000:])
    # The same job after a commit plants a bug: uploaded, then failed.
    with open(os.path.join(d, 'src', 'reduce.cu'), 'a') as f:
        f.write(PLANTED)
    status, err, uploaded = run_github(failures, warp_lint, cuda, tmp, d,
                                       'github-bug')
    steps = load_yaml('github-actions.yml')['jobs']['warp-lint']['steps']
    fail_step = github_step(steps, 'Fail on findings')
    uris, complete, notes = sarif_of(os.path.join(d, 'warp-lint.sarif'))
    if status != 1 or not uploaded or not complete or \
            uris != ['src/reduce.cu'] or \
            not github_condition(fail_step['if'], status):
        failures.append('github, planted bug: status %s, uploaded %s, '
                        'complete %s, results %s (expected 1, uploaded, '
                        'complete, src/reduce.cu, then failed):\n%s' % (
                            status, uploaded, complete, uris, err[-3000:]))
    if 'src/reduce.cu:' not in err or 'warning:' not in err:
        failures.append('github: the log does not show the finding:\n' +
                        err[-2000:])

    # GitLab: the job's script, with the planted bug.
    d = copy_sample(tmp, 'gitlab', planted=True)
    job = load_yaml('gitlab-ci.yml')['warp-lint']
    env = tool_env(warp_lint, cuda, tmp, {
        k: str(v) for k, v in job.get('variables', {}).items()
        if k != 'CUDA_PATH'})
    lines = [l.replace('/usr/share/warp-lint/ci-templates', TEMPLATES)
             for l in job['script']]
    p = subprocess.run(['bash', '-c', '\n'.join(lines)], cwd=d, env=env,
                       capture_output=True, text=True, timeout=900)
    report = os.path.join(d, 'gl-code-quality-report.json')
    issues = json.load(open(report)) if os.path.exists(report) else None
    if p.returncode != 1 or not issues or \
            [i['location']['path'] for i in issues] != ['src/reduce.cu']:
        failures.append('gitlab, planted bug: exit %d, issues %s (expected 1 '
                        'and one issue in src/reduce.cu):\n%s' % (
                            p.returncode, issues, (p.stdout + p.stderr)[-3000:]))

    # The plain shell stage, building the generated source first: it is
    # linted like the others.
    d = copy_sample(tmp, 'stage', planted=True)
    env = tool_env(warp_lint, cuda, tmp, {'WARP_LINT_BUILD_TARGETS': 'codegen'})
    p = subprocess.run(['sh', os.path.join(TEMPLATES, 'warp-lint-stage.sh')],
                       cwd=d, env=env, capture_output=True, text=True,
                       timeout=900)
    err = p.stdout + p.stderr
    uris, complete, notes = sarif_of(os.path.join(d, 'warp-lint.sarif')) \
        if os.path.exists(os.path.join(d, 'warp-lint.sarif')) else ([], None, [])
    if p.returncode != 1 or uris != ['src/reduce.cu'] or not complete:
        failures.append('stage: exit %d, results %s, complete %s (expected 1, '
                        'src/reduce.cu, complete):\n%s' % (
                            p.returncode, uris, complete, err[-3000:]))
    if 'not generated yet' in err or 'warp-lint: 4 units in ' not in err:
        failures.append('stage: the generated source built first is not '
                        'linted as the fourth unit:\n' + err[-2000:])

    # A stale entry: a source deleted since the build was configured. It is
    # named in one line and in the SARIF, the other units are analysed and
    # reported, and the status says the run is incomplete (2).
    os.remove(os.path.join(d, 'src', 'histogram.cu'))
    p = subprocess.run(['warp-lint', '-p', 'build', '--format=sarif',
                        '--output=stale.sarif'], cwd=d, env=env,
                       capture_output=True, text=True, timeout=900)
    errors = [l for l in p.stderr.splitlines()
              if l.startswith('warp-lint: error: ')]
    uris, complete, notes = sarif_of(os.path.join(d, 'stale.sarif'))
    if p.returncode != 2 or len(errors) != 1 or \
            'histogram.cu: no such file' not in errors[0] or \
            uris != ['src/reduce.cu'] or complete is not False or \
            not any('histogram.cu' in n['message']['text'] for n in notes):
        failures.append('stale entry: exit %d, errors %s, results %s, '
                        'complete %s, notifications %s' % (
                            p.returncode, errors, uris, complete, notes))


def converts_example(failures, warp_lint):
    """warp-lint's SARIF on the bundled example becomes a Code Quality report
    naming the finding; an errored run's SARIF is refused."""
    example = os.path.join(REPO, 'examples', 'reduction.cu')
    lint = subprocess.run([warp_lint, '--format=sarif', example],
                          cwd=REPO, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if lint.returncode != 1:
        failures.append('warp-lint --format=sarif on the example exited %d '
                        '(expected 1, findings):\n%s' % (lint.returncode,
                                                         lint.stderr))
    conv = subprocess.run(
        [sys.executable, os.path.join(TEMPLATES, 'sarif-to-codequality.py'),
         '/dev/stdin'], input=lint.stdout, capture_output=True, text=True)
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
    p.add_argument('--cuda-path', default='/usr/local/cuda')
    o = p.parse_args()
    o.warp_lint = os.path.abspath(o.warp_lint)
    failures = []
    check_yaml(failures)
    check_upload_policy(failures)
    if not os.path.exists(o.warp_lint):
        for f in failures:
            print('FAIL: ' + f)
        if failures:
            return 1
        print('SKIP: warp-lint not built yet (%s); templates parse' %
              o.warp_lint)
        return 77
    converts_example(failures, o.warp_lint)
    nvcc = os.path.join(o.cuda_path, 'bin', 'nvcc')
    if shutil.which('cmake') and os.path.exists(nvcc):
        with tempfile.TemporaryDirectory(prefix='warp-lint-ci-') as tmp:
            tmp = os.path.realpath(tmp)
            # warp-lint on PATH by its own name, as the package installs it.
            bindir = os.path.join(tmp, 'bin')
            os.makedirs(bindir)
            os.symlink(o.warp_lint, os.path.join(bindir, 'warp-lint'))
            sample_runs(failures, os.path.join(bindir, 'warp-lint'),
                        o.cuda_path, tmp)
    else:
        print('note: cmake or %s missing: the templates were not run on the '
              'sample project' % nvcc)
    for f in failures:
        print('FAIL: ' + f)
    if not failures:
        print('PASS: templates parse, run on the sample project, and publish '
              'only completed runs')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
