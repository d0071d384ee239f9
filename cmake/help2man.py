#!/usr/bin/env python3
"""Writes warp-lint's man page from its own --help, so that the two never
disagree: the overview and usage become NAME and SYNOPSIS, each option of
the "warp-lint options" category an entry of OPTIONS, and the text after
the options (exit status, files) its own sections.

    help2man.py <warp-lint> <version> <out.1>
"""
import re
import subprocess
import sys


def roff(text):
    """Escapes text for a roff line: backslashes, leading dots and dashes."""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    if text.startswith(('.', "'")):
        text = '\\&' + text
    return text


def option_entry(spec, desc):
    """`--name=<value>` -> bold name, italic value."""
    m = re.match(r'(-{1,2}[\w-]+)(?:[= ](<[^>]*>|\S+))?$', spec)
    if not m:
        return '.TP\n\\fB%s\\fR\n%s\n' % (roff(spec), roff(desc))
    name, value = m.group(1), m.group(2)
    head = '\\fB%s\\fR' % roff(name)
    if value:
        sep = '=' if '=' in spec else ' '
        head += '%s\\fI%s\\fR' % (sep, roff(value.strip('<>')))
    return '.TP\n%s\n%s\n' % (head, roff(desc))


def main(tool, version, out):
    help_text = subprocess.run([tool, '--help'], capture_output=True,
                               text=True, check=True).stdout
    lines = help_text.splitlines()
    overview = next((l.split(':', 1)[1].strip() for l in lines
                     if l.startswith('OVERVIEW:')), 'warp-lint')
    usage = [l.strip() for l in lines if l.strip().startswith('warp-lint [')
             or l.startswith('USAGE:')]
    # Options of our category: "  --name=<v> - text", continuation lines
    # indented further.
    options, extra, section = [], [], None
    for line in lines:
        if line.rstrip().endswith('options:') and not line.startswith(' '):
            section = 'ours' if line.startswith('warp-lint') else 'other'
            continue
        if line.startswith('Generic Options:'):
            section = 'generic'
            continue
        if section in ('ours', 'generic'):
            m = re.match(r'^  (-\S+(?: <[^>]*>)?)\s+- (.*)$', line)
            if m:
                options.append([m.group(1), m.group(2).strip()])
            elif line.startswith('    ') and options and line.strip():
                options[-1][1] += ' ' + line.strip()
            elif line and not line.startswith(' '):
                section = 'extra'
                extra.append(line)
        elif section == 'extra':
            extra.append(line)
    name, _, summary = overview.partition(':')
    page = ['.TH WARP\\-LINT 1 "" "warp-lint %s" "User Commands"' % version,
            '.SH NAME', 'warp\\-lint \\- %s' % roff(summary.strip() or name),
            '.SH SYNOPSIS']
    for u in usage:
        u = u.replace('USAGE:', '').strip()
        if u:
            page.append(roff(u))
            page.append('.br')
    page += ['.SH DESCRIPTION',
             roff('warp-lint runs the warp- checks (the clang-tidy plugin '
                  'libWarpLint.so holds the same checks) on CUDA translation '
                  'units, with the command lines of an nvcc or clang compile '
                  'database, and reports in text, SARIF, JSON or HTML.'),
             '.SH OPTIONS']
    for spec, desc in options:
        page.append(option_entry(spec, desc).rstrip('\n'))
    # The text after the options: headings in capitals become sections,
    # "  term   text" lines entries, lines indented further continue them.
    for line in extra:
        entry = re.match(r'^  (\S+(?: \S+)*?)\s{2,}(.*)$', line)
        if re.match(r'^[A-Z][A-Z ]+:$', line.strip()):
            page.append('.SH ' + roff(line.strip().rstrip(':')))
        elif entry and not line.startswith('   '):
            page.append('.TP\n\\fB%s\\fR\n%s' % (roff(entry.group(1)),
                                                  roff(entry.group(2))))
        elif line.strip():
            page.append(roff(line.strip()))
    page += ['.SH SEE ALSO', 'clang\\-tidy\\-22(1), nvcc(1);',
             roff('the full reference: /usr/share/doc/warp-lint/docs/cli.md')]
    with open(out, 'w') as f:
        f.write('\n'.join(page) + '\n')


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
