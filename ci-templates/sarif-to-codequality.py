#!/usr/bin/env python3
"""Converts warp-lint's SARIF 2.1.0 output into a GitLab Code Quality report
(the Code Climate JSON subset GitLab reads): one issue per SARIF result.

    sarif-to-codequality.py warp-lint.sarif > gl-code-quality-report.json

A SARIF whose run did not complete (invocations[0].executionSuccessful is
false: a file that does not compile, a crash) is refused with exit status 2
and nothing on stdout, so an incomplete report never replaces a complete one.
"""
import hashlib
import json
import sys

SEVERITY = {'error': 'critical', 'warning': 'major', 'note': 'minor',
            'none': 'info'}


def issues(sarif):
    for run in sarif.get('runs', []):
        for result in run.get('results', []):
            loc = (result.get('locations') or [{}])[0].get(
                'physicalLocation', {})
            path = loc.get('artifactLocation', {}).get('uri', '')
            line = loc.get('region', {}).get('startLine', 1)
            rule = result.get('ruleId', 'warp-lint')
            text = result.get('message', {}).get('text', '')
            key = '%s:%s:%s:%s' % (rule, path, line, text)
            yield {
                'type': 'issue',
                'check_name': rule,
                'description': '%s [%s]' % (text, rule),
                'categories': ['Bug Risk'],
                'severity': SEVERITY.get(result.get('level', 'warning'),
                                         'major'),
                'fingerprint': hashlib.sha256(key.encode()).hexdigest(),
                'location': {'path': path, 'lines': {'begin': line}},
            }


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    with open(argv[0], encoding='utf-8') as f:
        text = f.read()
    sarif = json.loads(text) if text.strip() else {}
    for run in sarif.get('runs', []):
        for invocation in run.get('invocations', []):
            if invocation.get('executionSuccessful') is False:
                sys.stderr.write('sarif-to-codequality: %s: the run did not '
                                 'complete; no report written\n' % argv[0])
                sys.exit(2)
    json.dump(list(issues(sarif)), sys.stdout, indent=2)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv[1:])
