#!/usr/bin/env python3
"""A stand-in for warp-lint in the runner's self-tests: it reports what the
input dictates, so every failure run_test.py must catch can be provoked.

  // FAKE-WARNING: COL: message [check] | old => new
      a warning at COL of the line above; with `| old => new` it carries a
      fix replacing `old` on that line, and is reported only while the line
      still contains `old` (so a correct fix is idempotent)
  // FAKE-WARNING(WORD): COL: ...
      the same, reported only when --config= contains WORD (for the
      self-tests of WARP-LINT-RUN configurations)
  // FAKE-NOTE: LINE:COL: message  a note there, for the last warning
  // FAKE-TOUCH                    --fix rewrites the file even without fixes
  // FAKE-EXIT: N                  exit with N instead of 0/1

Accepts warp-lint's options: --format=text, --fix, --export-fixes=F,
--config=C, files, `-- args`.
"""
import os
import re
import sys
import tempfile

WARNING = re.compile(r'//\s*FAKE-WARNING(?:\((\w+)\))?:\s*(\d+):\s*(.*?)(?:\s*\|\s*(.*?)\s*=>\s*(.*?))?\s*$')
NOTE = re.compile(r'//\s*FAKE-NOTE:\s*(\d+):(\d+):\s*(.*?)\s*$')


def main(argv):
    fix, export, config, files = False, None, '', []
    for i, a in enumerate(argv):
        if a == '--':
            break
        if a == '--fix':
            fix = True
        elif a.startswith('--export-fixes='):
            export = a.split('=', 1)[1]
        elif a.startswith('--config='):
            config = a.split('=', 1)[1]
        elif not a.startswith('-'):
            files.append(a)
    path = os.path.abspath(files[0])
    text = open(path, encoding='utf-8').read()
    lines = text.split('\n')
    starts = [0]
    for l in lines:
        starts.append(starts[-1] + len(l.encode()) + 1)
    diags, exit_override, touch = [], None, False
    for n, line in enumerate(lines):
        if 'FAKE-TOUCH' in line:
            touch = True
        m = re.search(r'FAKE-EXIT:\s*(\d+)', line)
        if m:
            exit_override = int(m.group(1))
        w, note = WARNING.search(line), NOTE.search(line)
        target = lines[n - 1] if n else ''
        if w and w.group(1) and w.group(1) not in config:
            diags.append(None)  # not in this configuration: its notes go too
            continue
        if w:
            col, msg, old, new = int(w.group(2)), w.group(3), w.group(4), w.group(5)
            if old is not None and old not in target:
                diags.append(None)  # fixed already: its notes go too
                continue
            repl = None
            if old is not None:
                at = starts[n - 1] + len(target[:target.index(old)].encode())
                repl = (at, len(old.encode()), new)
            diags.append({'line': n, 'col': col, 'msg': msg, 'repl': repl,
                          'notes': []})
        elif note and diags and diags[-1] is not None:
            diags[-1]['notes'].append((int(note.group(1)), int(note.group(2)),
                                       note.group(3)))
    diags = [d for d in diags if d]
    for d in diags:
        print('%s:%d:%d: warning: %s' % (path, d['line'], d['col'], d['msg']))
        print('%5d | %s' % (d['line'], lines[d['line'] - 1]))
        print('      | %s^' % (' ' * (d['col'] - 1)))
        for line, col, msg in d['notes']:
            print('%s:%d:%d: note: %s' % (path, line, col, msg))
    if export:
        with open(export, 'w') as f:
            f.write("---\nMainSourceFile:  '%s'\nDiagnostics:\n" % path)
            for d in diags:
                check = re.search(r'\[([\w-]+)\]$', d['msg'])
                f.write("  - DiagnosticName:  %s\n    DiagnosticMessage:\n"
                        "      Message:         '%s'\n      FilePath:        '%s'\n"
                        "      FileOffset:      %d\n" % (
                            check.group(1) if check else 'x',
                            d['msg'].replace("'", "''"), path,
                            starts[d['line'] - 1] + d['col'] - 1))
                if d['repl']:
                    f.write("      Replacements:\n        - FilePath:        '%s'\n"
                            "          Offset:          %d\n          Length:          %d\n"
                            "          ReplacementText: '%s'\n" % (
                                path, d['repl'][0], d['repl'][1],
                                d['repl'][2].replace("'", "''")))
                else:
                    f.write("      Replacements:    []\n")
                f.write("    Level:           Warning\n")
            f.write("...\n")
    if fix:
        data = text.encode()
        for at, length, new in sorted((d['repl'] for d in diags if d['repl']),
                                      reverse=True):
            data = data[:at] + new.encode() + data[at + length:]
        if data != text.encode() or touch:
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
            with os.fdopen(fd, 'wb') as f:
                f.write(data)
            os.replace(tmp, path)
    if exit_override is not None:
        return exit_override
    return 1 if diags else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
