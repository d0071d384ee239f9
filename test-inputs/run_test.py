#!/usr/bin/env python3
"""Runs one test-inputs/*.cu file through one warp-lint front end and checks
the expectations written inline in it, clang-tidy lit style.

Directives (each in a `//` comment; [[@LINE]], [[@LINE+N]], [[@LINE-N]] are
relative to the directive's own line, a plain number is absolute):

  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: whole message [check-id]
      a reported warning (or error) at that line and column whose whole
      message, its ` [check-id]` suffix included, is the text after
      `warning: ` (the suffix is required). Every reported warning must be
      expected: unexpected diagnostics fail the test.
  // CHECK-NOTES: :[[@LINE-4]]:7: note: whole message
      a reported note there with exactly that message. Every note the front
      end prints (those of clang's renderer, `expanded from macro`, too)
      must be expected: an unexpected note fails the test, as with
      check_clang_tidy.py's CHECK-NOTES.
  // CHECK-NOTE-ORDER: :[[@LINE-1]]:10: [[@LINE-1]]:14 12:9 [[@LINE-30]]:3
      the warning at the first place has exactly the notes at the places
      that follow, in this file, in that order (the path a finding shows:
      CHECK-NOTES still expects each note and its message).
  // CHECK-FIXES: text
      after `--fix` on a copy, a line of the fixed file (with every
      `// CHECK-` comment line removed) contains `text` (a substring;
      `{{^}}` anchors it); CHECK-FIXES lines match in order, each on a later
      line than the previous one.
  // WARP-LINT-CONFIG: {CheckOptions: {...}}    passed as --config=
  // WARP-LINT-ARGS: -DFOO                      extra compiler arguments

Each expectation matches one diagnostic; two equal ones expect it twice.
In messages and fix lines, `{{regex}}` is a Python regular expression
(FileCheck style), the rest is literal; prefer the whole literal text.

Several configurations of one input (FileCheck --check-prefixes style):

  // WARP-LINT-RUN: NAME [{CheckOptions: {...}}]
      declares a run NAME ([a-z][a-z0-9-]*) with that --config= (none if
      left out). A file with WARP-LINT-RUN lines is tested once per run
      (`--run=NAME`; CMake registers `<file>:NAME:<front end>`) and has no
      WARP-LINT-CONFIG.
  // CHECK-MESSAGES-NAME: ...   CHECK-NOTES-NAME, CHECK-FIXES-NAME,
  // WARP-LINT-ARGS-NAME: ...   (NAME in capitals) apply in run NAME only;
      the unsuffixed directives apply in every run. A suffix naming no
      declared run is an error, and so is a directive name nobody knows.

Besides the expectations the runner checks what every fix must keep
(docs/getting-started.md, "Writing a test input"):
the input and the fixed file compile with nvcc; `--fix` leaves a file whose
warnings carry no fix untouched; a second `--fix` changes nothing; the fixed
file still has exactly the warnings that had no fix.

`--list-runs FILE` prints the file's run names, one a line (nothing for a
file with one configuration): CMake registers the tests from it.

Exit status: 0 pass, 1 fail, 77 skipped (front end not built yet).
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
KNOWN_DIRECTIVES = ('CHECK-MESSAGES', 'CHECK-NOTES', 'CHECK-NOTE-ORDER',
                    'CHECK-FIXES', 'WARP-LINT-CONFIG', 'WARP-LINT-ARGS',
                    'WARP-LINT-RUN')
# The directives that take a `-RUNNAME` suffix.
PER_RUN_DIRECTIVES = ('CHECK-MESSAGES', 'CHECK-NOTES', 'CHECK-NOTE-ORDER',
                      'CHECK-FIXES', 'WARP-LINT-ARGS')
DIRECTIVE_RE = re.compile(r'//\s*((?:CHECK|WARP-LINT)-[A-Z0-9-]+):(.*)$')
RUN_RE = re.compile(r'^\s*([a-z][a-z0-9-]*)(?:\s+(\S.*?))?\s*$')
# What a CHECK-MESSAGES text must end with: the printed ` [check-id]`.
EXPECTED_SUFFIX_RE = re.compile(r'\s\[[^\s\[\]]+\]$')
EXPECTATION_RE = re.compile(
    r'^\s*:(?:\[\[@LINE(?:([+-])(\d+))?\]\]|(\d+)):(\d+):\s*'
    r'(warning|error|note):\s*(.*?)\s*$')
# One place of a CHECK-NOTE-ORDER: [[@LINE-N]]:COL, [[@LINE]]:COL or LINE:COL.
PLACE_RE = re.compile(r'(?:\[\[@LINE(?:([+-])(\d+))?\]\]|(\d+)):(\d+)')
DIAG_RE = re.compile(r'^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): '
                     r'(?P<sev>warning|error|note|fatal error|remark): '
                     r'(?P<text>.*)$')
CHECK_SUFFIX_RE = re.compile(r' \[([A-Za-z0-9_.,-]+)\]$')
ANSI_RE = re.compile(r'\x1b\[[0-9;]*m')
COMMENT_LINE_RE = re.compile(r'^\s*//\s*CHECK-')
NVCC_ARG_RE = re.compile(r'^-(D|U|I|std=)')


class TestError(Exception):
    """A problem with the test input itself (bad directive)."""


class RunNeeded(TestError):
    """A file with WARP-LINT-RUN lines was read without naming a run."""

    def __init__(self, message, runs):
        TestError.__init__(self, message)
        self.runs = runs


# --- Expectations --------------------------------------------------------

def text_pattern(text):
    """Returns a regex for `text`: literal except `{{regex}}` parts."""
    out, pos = [], 0
    for m in re.finditer(r'\{\{(.*?)\}\}', text):
        out.append(re.escape(text[pos:m.start()]))
        out.append('(?:%s)' % m.group(1))
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return re.compile(''.join(out))


def split_directive(name):
    """Returns (directive, run suffix or None), or None if unknown."""
    if name in KNOWN_DIRECTIVES:
        return name, None
    for base in PER_RUN_DIRECTIVES:
        if name.startswith(base + '-') and len(name) > len(base) + 1:
            return base, name[len(base) + 1:]
    return None


class Expectation:
    def __init__(self, kind, src_line, line, col, sev, text):
        self.kind, self.src_line = kind, src_line
        self.line, self.col, self.sev, self.text = line, col, sev, text
        self.pattern = text_pattern(text)

    def __str__(self):
        return ':%d:%d: %s: %s  (%s on line %d)' % (
            self.line, self.col, self.sev, self.text, self.kind, self.src_line)


class TestInput:
    """The directives of one input file that apply in one of its runs
    (`run`: a WARP-LINT-RUN name; None for a file without runs)."""

    def __init__(self, path, run=None):
        self.path, self.run = path, run
        self.messages, self.notes, self.fixes = [], [], []
        self.orders = []  # (directive line, warning place, note places)
        self.config, self.args = None, []
        self.runs = {}  # name -> config (None: no --config)
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
        directives = []
        for number, line in enumerate(lines, 1):
            m = DIRECTIVE_RE.search(line)
            if m:
                directives.append((m.group(1), m.group(2), number))
        for name, rest, number in directives:
            if name == 'WARP-LINT-RUN':
                self._add_run(rest, number)
        where = os.path.basename(path)
        if self.runs:
            if run is None:
                raise RunNeeded(
                    '%s has runs (%s): choose one with --run (CMake '
                    'registers each; re-run cmake after adding runs)' % (
                        where, ', '.join(self.runs)), list(self.runs))
            if run not in self.runs:
                raise TestError('%s has no WARP-LINT-RUN named %r (runs: %s)'
                                % (where, run, ', '.join(self.runs)))
            self.config = self.runs[run]
        elif run is not None:
            raise TestError('%s has no WARP-LINT-RUN lines, so no run %r'
                            % (where, run))
        for name, rest, number in directives:
            if name != 'WARP-LINT-RUN':
                self._add(name, rest, number)

    def _where(self, number):
        return '%s:%d' % (os.path.basename(self.path), number)

    def _add_run(self, rest, number):
        m = RUN_RE.match(rest)
        if not m:
            raise TestError('%s: cannot read WARP-LINT-RUN; expected "NAME" '
                            'or "NAME {CheckOptions: {...}}" with NAME of '
                            '[a-z][a-z0-9-]*' % self._where(number))
        if m.group(1) in self.runs:
            raise TestError('%s: a second WARP-LINT-RUN named %s' % (
                self._where(number), m.group(1)))
        self.runs[m.group(1)] = m.group(2)

    def _add(self, name, rest, number):
        where = self._where(number)
        split = split_directive(name)
        if split is None:
            raise TestError('%s: unknown directive %s (known: %s, and %s with '
                            'a -RUNNAME suffix)' % (
                                where, name, ', '.join(KNOWN_DIRECTIVES),
                                ', '.join(PER_RUN_DIRECTIVES)))
        name, suffix = split
        if suffix is not None:
            run = suffix.lower()
            if run not in self.runs:
                raise TestError('%s: %s-%s names no run: %s' % (
                    where, name, suffix, 'the runs are %s' % ', '.join(
                        self.runs) if self.runs else
                    'the file has no WARP-LINT-RUN lines'))
        applies = suffix is None or suffix.lower() == self.run
        kind = name if suffix is None else '%s-%s' % (name, suffix)
        if name == 'CHECK-FIXES':
            if applies:
                self.fixes.append((number, rest.strip(),
                                   text_pattern(rest.strip())))
        elif name == 'WARP-LINT-CONFIG':
            if self.runs:
                raise TestError('%s: WARP-LINT-CONFIG in a file with '
                                'WARP-LINT-RUN lines; give each run its '
                                'configuration' % where)
            if self.config is not None:
                raise TestError('%s: more than one WARP-LINT-CONFIG' % where)
            self.config = rest.strip()
        elif name == 'WARP-LINT-ARGS':
            if applies:
                self.args += shlex.split(rest)
        elif name == 'CHECK-NOTE-ORDER':
            body = rest.strip()
            places = []
            for token in body[1:].split() if body.startswith(':') else []:
                m = PLACE_RE.fullmatch(token.rstrip(':'))
                if not m:
                    places = []
                    break
                sign, delta, absolute, col = m.groups()
                line = int(absolute) if absolute else number + (
                    int(delta or 0) * (-1 if sign == '-' else 1))
                places.append((line, int(col)))
            if len(places) < 2:
                raise TestError(
                    '%s: cannot read %s; expected ":[[@LINE-1]]:COL: '
                    'LINE:COL LINE:COL ..." (the warning, then its notes)'
                    % (where, kind))
            if applies:
                self.orders.append((number, places[0], places[1:]))
        else:
            m = EXPECTATION_RE.match(rest)
            if not m:
                raise TestError(
                    '%s: cannot read %s; expected ":[[@LINE-1]]:COL: '
                    'warning: text" or ":LINE:COL: note: text"' % (where, kind))
            sign, delta, absolute, col, sev, text = m.groups()
            if absolute:
                target = int(absolute)
            else:
                target = number + (int(delta or 0) * (-1 if sign == '-' else 1))
            want_note = name == 'CHECK-NOTES'
            if want_note != (sev == 'note'):
                raise TestError('%s: %s expects a %s, not "%s"' % (
                    where, kind, 'note' if want_note else 'warning or error',
                    sev))
            if not want_note and not EXPECTED_SUFFIX_RE.search(text):
                raise TestError('%s: %s text must be the whole message, its '
                                '[check-id] suffix included: %s' % (
                                    where, kind, text))
            if applies:
                exp = Expectation(kind, number, target, int(col), sev, text)
                (self.notes if want_note else self.messages).append(exp)


def run_names(path):
    """Returns the WARP-LINT-RUN names of `path` ([] for a file with one
    configuration) after reading its directives in each run."""
    try:
        TestInput(path)
        return []
    except RunNeeded as e:
        names = e.runs
    for name in names:
        TestInput(path, name)
    return names


# --- Front ends ----------------------------------------------------------

def cuda_version(cuda):
    """Returns the SDK version (e.g. "13.0") from <cuda>/include/cuda.h."""
    try:
        with open(os.path.join(cuda, 'include', 'cuda.h'), encoding='utf-8',
                  errors='replace') as f:
            m = re.search(r'#define\s+CUDA_VERSION\s+(\d+)', f.read())
    except OSError:
        return None
    if not m:
        return None
    v = int(m.group(1))
    return '%d.%d' % (v // 1000, (v % 1000) // 10)


def default_cuda_args(cuda, arch):
    """The device-pass arguments warp-lint uses by default (docs/cli.md)."""
    args = ['-x', 'cuda', '--cuda-path=' + cuda, '--cuda-gpu-arch=' + arch,
            '--cuda-device-only', '-nocudalib', '-Wno-unknown-cuda-version',
            '-isystem', os.path.join(cuda, 'include', 'cccl'),
            '-D_CG_CLUSTER_INTRINSICS_AVAILABLE', '-std=c++17']
    has_version_file = any(os.path.exists(os.path.join(cuda, name))
                           for name in ('version.json', 'version.txt'))
    version = cuda_version(cuda)
    if not has_version_file and version:
        args += ['-Xclang', '-target-sdk-version=' + version]
    # nvcc's version macros, as warp-lint defines them without a database.
    if version:
        major, minor = version.split('.')
        args += ['-D__CUDACC_VER_MAJOR__=' + major,
                 '-D__CUDACC_VER_MINOR__=' + minor]
    return args


class FrontEnd:
    def __init__(self, opts, test):
        self.opts, self.test = opts, test

    def command(self, path, fix=False, export=None):
        o, t = self.opts, self.test
        extra = []
        if t.config is not None:
            extra.append('--config=' + t.config)
        if fix:
            extra.append('--fix')
        if export:
            extra.append('--export-fixes=' + export)
        if o.front_end == 'plugin':
            return ([o.clang_tidy, '--load=' + o.plugin, '--checks=-*,warp-*']
                    + extra + [path, '--']
                    + default_cuda_args(o.cuda_path, o.gpu_arch) + t.args)
        cmd = [o.warp_lint, '--format=text'] + extra + [path]
        return cmd + (['--'] + t.args if t.args else [])

    def run(self, path, fix=False, export=None):
        cmd = self.command(path, fix, export)
        proc = subprocess.run(cmd, cwd=os.path.dirname(path),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              errors='replace')
        return Run(cmd, proc, path)


class Diag:
    def __init__(self, m, in_file, parent=None):
        self.file, self.in_file = m.group('file'), in_file
        self.parent = parent  # a note's warning (the one printed before it)
        self.line, self.col = int(m.group('line')), int(m.group('col'))
        self.sev, self.text = m.group('sev'), m.group('text')
        c = CHECK_SUFFIX_RE.search(self.text)
        self.check = c.group(1) if c else None

    def __str__(self):
        name = os.path.basename(self.file) if self.in_file else self.file
        return '%s:%d:%d: %s: %s' % (name, self.line, self.col, self.sev,
                                     self.text)


class Run:
    """One front-end run and the diagnostics it printed."""

    def __init__(self, cmd, proc, path):
        self.cmd, self.rc = cmd, proc.returncode
        self.stdout, self.stderr = proc.stdout, proc.stderr
        self.diags = []
        real = os.path.realpath(path)
        parent = None
        for line in (proc.stdout + '\n' + proc.stderr).splitlines():
            m = DIAG_RE.match(ANSI_RE.sub('', line))
            if m:
                f = os.path.join(os.path.dirname(path), m.group('file'))
                d = Diag(m, os.path.realpath(f) == real,
                         parent if m.group('sev') == 'note' else None)
                if d.sev != 'note':
                    parent = d
                self.diags.append(d)

    def of(self, *sevs):
        return [d for d in self.diags if d.sev in sevs]

    def describe(self):
        out = ['  command: ' + ' '.join(shlex.quote(c) for c in self.cmd),
               '  exit status: %d' % self.rc]
        for name, text in (('stdout', self.stdout), ('stderr', self.stderr)):
            if text.strip():
                out.append('  %s:' % name)
                lines = text.rstrip().splitlines()
                if len(lines) > 80:
                    lines = lines[:40] + ['... (%d lines left out)' % (
                        len(lines) - 80)] + lines[-40:]
                out += ['    | ' + l for l in lines]
        return '\n'.join(out)


# --- clang-tidy's --export-fixes YAML (a small block-YAML reader) ----------

def _scalar(s):
    if s == '[]':
        return []
    if s == '{}':
        return {}
    if s.startswith("'") and s.endswith("'") and len(s) >= 2:
        return s[1:-1].replace("''", "'")
    if s.startswith('"') and s.endswith('"') and len(s) >= 2:
        return s[1:-1].encode('latin-1', 'backslashreplace').decode(
            'unicode_escape')
    return s


def parse_yaml(text):
    """Parses the block YAML clang-tidy writes for --export-fixes."""
    toks = []
    for raw in text.splitlines():
        if not raw.strip() or raw.startswith(('---', '...')):
            continue
        ind = len(raw) - len(raw.lstrip(' '))
        content = raw.strip()
        while content == '-' or content.startswith('- '):
            toks.append((ind, '-'))
            rest = content[1:]
            ind += 1 + len(rest) - len(rest.lstrip(' '))
            content = rest.strip()
        if content:
            toks.append((ind, content))

    def node(pos):
        ind, content = toks[pos]
        if content == '-':
            items = []
            while pos < len(toks) and toks[pos] == (ind, '-'):
                pos += 1
                if pos < len(toks) and toks[pos][0] > ind:
                    value, pos = node(pos)
                else:
                    value = None
                items.append(value)
            return items, pos
        m = re.match(r'^([A-Za-z_][\w ]*):(?:\s+(.*))?$', content)
        if not m:
            return _scalar(content), pos + 1
        result = {}
        while pos < len(toks) and toks[pos][0] == ind and toks[pos][1] != '-':
            m = re.match(r'^([A-Za-z_][\w ]*):(?:\s+(.*))?$', toks[pos][1])
            if not m:
                raise ValueError('unexpected YAML line: %r' % toks[pos][1])
            pos += 1
            if m.group(2) is not None:
                result[m.group(1)] = _scalar(m.group(2).strip())
            elif pos < len(toks) and (toks[pos][0] > ind or
                                      toks[pos] == (ind, '-')):
                result[m.group(1)], pos = node(pos)
            else:
                result[m.group(1)] = None
        return result, pos

    return node(0)[0] if toks else {}


def exported_warnings(yaml_path, source_path):
    """Returns [(line, col, check, has_fix)] for the warnings in the YAML."""
    with open(yaml_path, encoding='utf-8') as f:
        doc = parse_yaml(f.read())
    with open(source_path, 'rb') as f:
        data = f.read()
    real = os.path.realpath(source_path)
    out = []
    for d in (doc or {}).get('Diagnostics') or []:
        if (d.get('Level') or 'Warning') not in ('Warning', 'Error'):
            continue
        msg = d.get('DiagnosticMessage') or {}
        offset = int(msg.get('FileOffset') or 0)
        path = msg.get('FilePath') or ''
        if path and os.path.realpath(os.path.join(os.path.dirname(source_path),
                                                  path)) != real:
            continue
        line = data.count(b'\n', 0, offset) + 1
        col = offset - (data.rfind(b'\n', 0, offset) + 1) + 1
        out.append((line, col, d.get('DiagnosticName'),
                    bool(msg.get('Replacements'))))
    return out


# --- The test ------------------------------------------------------------

class Tester:
    def __init__(self, opts):
        self.opts = opts
        self.failures = []
        self.runs = []
        self.tmp = tempfile.mkdtemp(prefix='warp-lint-test-')

    def fail(self, message, run=None):
        self.failures.append(message)
        if run is not None and run not in self.runs:
            self.runs.append(run)

    def copy(self, src, subdir):
        d = os.path.join(self.tmp, subdir)
        os.makedirs(d, exist_ok=True)
        dst = os.path.join(d, os.path.basename(self.opts.input))
        shutil.copyfile(src, dst)
        # An old mtime, so that a rewrite with equal content is still seen.
        os.utime(dst, ns=(10**18, 10**18))
        return dst

    def nvcc(self, path, what):
        args = [a for a in self.test.args if NVCC_ARG_RE.match(a)]
        cmd = [self.opts.nvcc, '-arch=' + self.opts.gpu_arch, '-c', '-o', os.devnull, '-x', 'cu', path] + args
        proc = subprocess.run(cmd, cwd=os.path.dirname(path),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors='replace')
        if proc.returncode != 0:
            self.fail('%s does not compile with nvcc:\n  %s\n%s' % (
                what, ' '.join(shlex.quote(c) for c in cmd),
                '\n'.join('    | ' + l for l in proc.stdout.splitlines())))

    def check_exit_status(self, run, what):
        """Front ends must exit 0/1 (warp-lint: 1 exactly when it found
        something); anything else is a crash or an input error."""
        if run.rc < 0:
            try:
                name = signal.Signals(-run.rc).name
            except ValueError:
                name = 'signal %d' % -run.rc
            self.fail('%s: %s crashed (%s); expectations not checked' % (
                what, os.path.basename(run.cmd[0]), name), run)
            return False
        if self.opts.front_end == 'plugin':
            if run.rc != 0:
                self.fail('%s: clang-tidy exited with %d' % (what, run.rc), run)
            return True
        findings = bool(run.of('warning', 'error'))
        if run.rc not in (0, 1):
            self.fail('%s: warp-lint exited with %d (2 = usage or input '
                      'error)' % (what, run.rc), run)
        elif run.rc != int(findings):
            self.fail('%s: warp-lint exited with %d but reported %s findings '
                      '(contract: 0 none, 1 findings)' % (
                          what, run.rc, 'some' if findings else 'no'), run)
        return True

    def match_messages(self, run):
        """Each expectation takes one diagnostic with its place, severity and
        whole message; every reported warning and note must be taken."""
        reported = [d for d in run.of('warning', 'error', 'fatal error')]
        for sevs, exps, kind in ((('warning', 'error', 'fatal error'),
                                  self.test.messages, 'CHECK-MESSAGES'),
                                 (('note',), self.test.notes, 'CHECK-NOTES')):
            printed = run.of(*sevs)
            unmatched = list(printed)
            for exp in exps:
                hit = next((d for d in unmatched if d.in_file and
                            (d.line, d.col, d.sev) ==
                            (exp.line, exp.col, exp.sev) and
                            exp.pattern.fullmatch(d.text)), None)
                if hit:
                    unmatched.remove(hit)
                    continue
                near = [str(d) for d in printed
                        if d.in_file and d.line == exp.line]
                self.fail('expected %s not reported: %s%s' % (
                    exp.sev, exp, ''.join('\n    reported on that line: ' + n
                                          for n in near)), run)
            for d in unmatched:
                of = (' (of %s)' % d.parent) if d.parent else ''
                self.fail('unexpected %s (no %s for it): %s%s' %
                          (d.sev, kind, d, of), run)
        self.match_note_orders(run)
        return reported

    def match_note_orders(self, run):
        """The notes of each CHECK-NOTE-ORDER's warning, in print order."""
        for number, (line, col), want in self.test.orders:
            warning = next((d for d in run.of('warning', 'error')
                            if d.in_file and (d.line, d.col) == (line, col)),
                           None)
            if warning is None:
                self.fail('CHECK-NOTE-ORDER on line %d: no warning at '
                          ':%d:%d' % (number, line, col), run)
                continue
            got = [(d.line, d.col) for d in run.diags
                   if d.parent is warning and d.in_file]
            if got != want:
                self.fail('CHECK-NOTE-ORDER on line %d: the notes of %s are '
                          'at %s, expected %s' % (
                              number, warning,
                              ' '.join('%d:%d' % p for p in got) or 'none',
                              ' '.join('%d:%d' % p for p in want)), run)

    def match_fixes(self, fixed_path):
        with open(fixed_path, encoding='utf-8', errors='replace') as f:
            lines = [l for l in f.read().splitlines()
                     if not COMMENT_LINE_RE.match(l)]
        pos = 0
        for number, text, pattern in self.test.fixes:
            found = next((i for i in range(pos, len(lines))
                          if pattern.search(lines[i])), None)
            if found is None:
                self.fail('CHECK-FIXES on line %d not found in the fixed file '
                          '%s: %s' % (number, 'after the previous match'
                                      if pos else '', text))
            else:
                pos = found + 1
        return lines

    def run_test(self):
        o = self.opts
        self.test = TestInput(o.input, o.run)
        front = FrontEnd(o, self.test)

        original = self.copy(o.input, 'original')
        self.nvcc(original, 'the input')

        # 1. Plain run: the diagnostics, and which warnings carry a fix.
        export = os.path.join(self.tmp, 'first-fixes.yaml')
        first = front.run(original, export=export)
        if not self.check_exit_status(first, 'plain run'):
            return
        reported = self.match_messages(first)
        with open(o.input, 'rb') as f:
            source = f.read()
        with open(original, 'rb') as f:
            if f.read() != source:
                self.fail('the run without --fix modified the file', first)
        in_file = [d for d in reported if d.in_file]
        if os.path.exists(export):
            warnings = exported_warnings(export, original)
        elif reported:
            self.fail('--export-fixes wrote no file', first)
            return
        else:
            warnings = []  # clang-tidy writes none when it reports nothing
        if len(warnings) != len(in_file):
            self.fail('--export-fixes lists %d warnings but the text output '
                      'shows %d' % (len(warnings), len(in_file)), first)
        with_fix = [w for w in warnings if w[3]]
        without_fix = len(warnings) - len(with_fix)

        # 2. --fix on a fresh copy.
        fixed = self.copy(o.input, 'fixed')
        before = os.stat(fixed).st_mtime_ns
        fix_run = front.run(fixed, fix=True)
        if fix_run.rc not in (0, 1):
            self.fail('--fix run exited with %d' % fix_run.rc, fix_run)
        with open(fixed, 'rb') as f:
            fixed_data = f.read()
        if not with_fix:
            if fixed_data != source:
                self.fail('--fix modified the file although no warning '
                          'carries a fix', fix_run)
            elif os.stat(fixed).st_mtime_ns != before:
                self.fail('--fix rewrote the file (same content) although no '
                          'warning carries a fix', fix_run)
        else:
            if fixed_data == source:
                self.fail('%d warning(s) carry a fix but --fix left the file '
                          'unchanged' % len(with_fix), fix_run)
            if not self.test.fixes:
                self.fail('--fix changed the file but the input has no '
                          'CHECK-FIXES lines; expect the fixed code:\n%s' %
                          unified_diff(source, fixed_data), fix_run)
        self.match_fixes(fixed)
        if fixed_data != source:
            self.nvcc(fixed, 'the fixed file')

            # 3. Idempotence: the remaining warnings carry no fix, and
            # another --fix changes nothing.
            again = self.copy(fixed, 'again')
            export2 = os.path.join(self.tmp, 'second-fixes.yaml')
            rerun = front.run(again, fix=True, export=export2)
            if rerun.rc not in (0, 1):
                self.fail('second --fix run exited with %d' % rerun.rc, rerun)
            with open(again, 'rb') as f:
                again_data = f.read()
            if again_data != fixed_data:
                self.fail('a second --fix changed the fixed file again (fixes '
                          'are not idempotent):\n%s' %
                          unified_diff(fixed_data, again_data, 'fixed',
                                               'fixed again'), rerun)
            left = [d for d in rerun.of('warning', 'error') if d.in_file]
            if len(left) != without_fix:
                self.fail('after --fix %d warning(s) remain, expected %d (the '
                          'original warnings without a fix):%s' % (
                              len(left), without_fix,
                              ''.join('\n    ' + str(d) for d in left)), rerun)
            if os.path.exists(export2):
                for line, col, check, has_fix in exported_warnings(export2,
                                                                   again):
                    if has_fix:
                        self.fail('after --fix a warning still carries a fix: '
                                  ':%d:%d: [%s]' % (line, col, check), rerun)


def unified_diff(a, b, before='input', after='fixed'):
    lines = difflib.unified_diff(
        a.decode('utf-8', 'replace').splitlines(),
        b.decode('utf-8', 'replace').splitlines(), before, after, lineterm='')
    return '\n'.join('    | ' + l for l in lines)


def default_cuda_path():
    nvcc = shutil.which('nvcc')
    if os.environ.get('CUDA_PATH'):
        return os.environ['CUDA_PATH']
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    return '/usr/local/cuda'


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('input', help='the .cu file with inline expectations')
    p.add_argument('--front-end', choices=('plugin', 'warp-lint'))
    p.add_argument('--run', metavar='NAME',
                   help='the WARP-LINT-RUN of the input to test')
    p.add_argument('--list-runs', action='store_true',
                   help="print the input's WARP-LINT-RUN names and exit")
    p.add_argument('--clang-tidy', default='clang-tidy-22')
    p.add_argument('--plugin', help='path of libWarpLint.so')
    p.add_argument('--warp-lint', help='path of the warp-lint executable')
    p.add_argument('--skip-if-missing', action='store_true',
                   help='exit 77 (skip) when the front end is not built yet')
    p.add_argument('--cuda-path', default=default_cuda_path())
    p.add_argument('--nvcc', default=None)
    p.add_argument('--gpu-arch', default='sm_90')
    p.add_argument('--expect-failure', metavar='REGEX',
                   help='self-test: pass only if the test fails with a '
                   'message matching REGEX')
    p.add_argument('--keep-temps', action='store_true')
    p.add_argument('--just-run', action='store_true',
                   help='only run the front end on the file and print its '
                   'output (for tests of the examples)')
    o = p.parse_args(argv)
    if not o.list_runs and not o.front_end:
        p.error('--front-end is required')
    # The front ends run inside temporary directories: make paths absolute.
    for name in ('plugin', 'warp_lint', 'input', 'cuda_path', 'nvcc',
                 'clang_tidy'):
        value = getattr(o, name)
        if value and os.sep in value:
            setattr(o, name, os.path.abspath(value))
    if o.nvcc is None:
        o.nvcc = (shutil.which('nvcc') or
                  os.path.join(o.cuda_path, 'bin', 'nvcc'))
    return o


def main(argv):
    o = parse_args(argv)
    if o.list_runs:
        try:
            runs = run_names(o.input)
        except (TestError, OSError) as e:
            print('bad test input: %s' % e, file=sys.stderr)
            return EXIT_FAIL
        for name in runs:
            print(name)
        return EXIT_PASS
    label = '%s%s [%s]' % (o.input, ':' + o.run if o.run else '', o.front_end)
    binary = o.plugin if o.front_end == 'plugin' else o.warp_lint
    if not binary or not os.path.exists(binary):
        why = '%s front end not built: %s' % (o.front_end, binary)
        if o.skip_if_missing:
            print('SKIP %s: %s' % (label, why))
            return EXIT_SKIP
        print('FAIL %s: %s' % (label, why))
        return EXIT_FAIL
    for tool in ([o.clang_tidy] if o.front_end == 'plugin' else []) + [o.nvcc]:
        if not shutil.which(tool):
            print('FAIL %s: %s not found (scripts/setup.sh installs the '
                  'toolchain; nvcc lives in <cuda>/bin)' % (label, tool))
            return EXIT_FAIL

    if o.just_run:
        run = FrontEnd(o, TestInput(o.input, o.run)).run(o.input)
        print(run.describe())
        return EXIT_PASS if run.rc in (0, 1) else EXIT_FAIL

    tester = Tester(o)
    try:
        tester.run_test()
    except TestError as e:
        tester.fail('bad test input: %s' % e)
    finally:
        if o.keep_temps:
            print('temporary files kept in %s' % tester.tmp)
        else:
            shutil.rmtree(tester.tmp, ignore_errors=True)

    report = '\n'.join('  - ' + f.replace('\n', '\n    ')
                       for f in tester.failures)
    if o.expect_failure is not None:
        if not tester.failures:
            print('FAIL %s: expected the test to fail (%s) but it passed'
                  % (label, o.expect_failure))
            return EXIT_FAIL
        if not re.search(o.expect_failure, report):
            print('FAIL %s: failed, but not with a message matching %r:\n%s'
                  % (label, o.expect_failure, report))
            return EXIT_FAIL
        print('PASS %s: failed as expected:\n%s' % (label, report))
        return EXIT_PASS
    if tester.failures:
        print('FAIL %s: %d problem(s)\n%s' % (label, len(tester.failures),
                                               report))
        for run in tester.runs:
            print(run.describe())
        return EXIT_FAIL
    print('PASS %s: %d warning(s), %d note(s), %d fix line(s) checked' % (
        label, len(tester.test.messages), len(tester.test.notes),
        len(tester.test.fixes)))
    return EXIT_PASS


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
