#!/usr/bin/env python3
"""cuda-lint's JSON report (--format=json) as GitHub Actions workflow commands.

    annotate.py REPORT.json [--root DIR] [--summary FILE]

Prints one `::warning file=F,line=L,col=C,title=CHECK::MESSAGE` line per
finding (`::error` for errors, `::notice` for notes), which GitHub shows as
annotations on the pull request's changed files; one `::error` per file that
could not be analysed, one `::notice` per file analysed with compile errors.
Paths are made relative to --root (default: $GITHUB_WORKSPACE, else the
current directory), as annotations need. With --summary, appends a Markdown
table of the findings per check (for $GITHUB_STEP_SUMMARY). The exit status
is 0; the number of findings is the last line on standard error.
"""

import argparse
import json
import os
import sys


def escape_data(text):
    """The message of a workflow command: %, CR and LF escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text):
    """A property value of a workflow command: also ':' and ','."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def relative(path, root):
    if not path:
        return path
    absolute = os.path.normpath(os.path.join(root, path))
    rel = os.path.relpath(absolute, root)
    # A file outside the repository (a toolkit header) keeps its full path.
    return absolute if rel.startswith("..") else rel


def command(kind, message, file=None, line=None, col=None, title=None):
    props = []
    if file:
        props.append("file=" + escape_property(file))
    if line:
        props.append("line=%d" % line)
    if col:
        props.append("col=%d" % col)
    if title:
        props.append("title=" + escape_property(title))
    head = "::" + kind + (" " + ",".join(props) if props else "")
    return head + "::" + escape_data(message)


LEVELS = {"warning": "warning", "error": "error", "note": "notice", "remark": "notice"}


def convert(report, root):
    lines = []
    for f in report.get("findings", []):
        kind = LEVELS.get(f.get("level", "warning"), "warning")
        check = f.get("check", "")
        message = f.get("message", "")
        if check:
            message = "%s [%s]" % (message, check)
        if f.get("fixes"):
            message += " (cuda-lint --fix applies a fix)"
        lines.append(command(kind, message, relative(f.get("file", ""), root),
                             f.get("line"), f.get("column"), check or None))
    for f in report.get("failures", []):
        lines.append(command("error", "cuda-lint could not analyse this file: " +
                             f.get("reason", ""), relative(f.get("file", ""), root),
                             title="cuda-lint"))
    for f in report.get("analysedWithErrors", []):
        lines.append(command("notice", "analysed with compile errors (no fixes "
                             "applied here): " + f.get("error", ""),
                             relative(f.get("file", ""), root), title="cuda-lint"))
    return lines


def summary(report):
    counts = report.get("findingsPerCheck", {})
    out = ["### cuda-lint", ""]
    if not counts:
        out.append("No findings on the changed lines.")
    else:
        out += ["| check | findings |", "| --- | ---: |"]
        for check in sorted(counts):
            out.append("| `%s` | %d |" % (check, counts[check]))
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--root", default=os.environ.get("GITHUB_WORKSPACE") or os.getcwd())
    parser.add_argument("--summary")
    args = parser.parse_args(argv)
    with open(args.report, encoding="utf-8") as fh:
        report = json.load(fh)
    root = os.path.abspath(args.root)
    for line in convert(report, root):
        print(line)
    if args.summary:
        with open(args.summary, "a", encoding="utf-8") as fh:
            fh.write(summary(report))
    sys.stderr.write("cuda-lint findings: %d\n" % len(report.get("findings", [])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
