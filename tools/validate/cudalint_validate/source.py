"""The source text a finding's fix is held to: comments blanked, line
offsets, the statement around a position, the lines of a finding, and the
map from the original's lines to the fixed source's."""

import difflib
import re


def blank_comments(text):
    """`text` with comments, string and character literals blanked out
    (newlines kept, so offsets and lines stay)."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def line_starts(text):
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def line_of(starts, off):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= off:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def statement_span(blank, off):
    """The offsets of the statement around `off` in comment-free text: back
    to the `;`, `{` or `}` before it and on to the one after it, outside
    parentheses (a for header's clauses are statements of their own)."""
    depth, i, close = 0, off - 1, None
    while i >= 0:
        c = blank[i]
        if c == ")":
            if depth == 0:
                close = i
            depth += 1
        elif c == "(":
            depth -= 1
            # The condition of an if, for, while or switch is not part of
            # the statement it controls.
            if depth == 0 and close is not None and \
                    re.search(r"\b(if|for|while|switch)\s*$", blank[:i]):
                i = close
                break
        elif c in ";{}" and depth <= 0:
            break
        elif c == "\n" and blank[i + 1:].lstrip(" \t").startswith("#"):
            break
        i -= 1
    start = i + 1
    while start < off and blank[start].isspace():
        start += 1
    depth, j = 0, off
    while j < len(blank):
        c = blank[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in ";{}" and depth <= 0:
            break
        elif c == "\n" and blank[j + 1:].lstrip(" \t").startswith("#"):
            break
        j += 1
    return start, j


def finding_lines(src, blank, starts, finding):
    """The source lines a finding's fix is held to: the statement of the
    finding and of each of its replacements (the lines their values flow
    into within the statement), at most 40 lines of each."""
    offs = []
    if finding.get("line"):
        ln = min(finding["line"], len(starts))
        offs.append(min(starts[ln - 1] + max(finding.get("column", 1) - 1, 0), len(src)))
    lines = set()
    for r in finding.get("fixes", []):
        a = line_of(starts, r["offset"])
        b = line_of(starts, r["offset"] + max(r["length"] - 1, 0))
        lines.update(range(a, b + 1))
        offs.append(r["offset"])
    for off in offs:
        s, e = statement_span(blank, off)
        a, b = line_of(starts, s), line_of(starts, max(e, s))
        if b - a < 40:
            lines.update(range(a, b + 1))
        else:
            lines.add(line_of(starts, off))
    return lines


def line_map(src_o, src_f):
    """Each line of the original to the lines of the fixed source it became
    (a fix may add or remove lines)."""
    a, b = src_o.splitlines(), src_f.splitlines()
    out = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal" or i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                out[i1 + k + 1] = {j1 + k + 1}
        else:
            for k in range(i1, i2):
                out[k + 1] = set(range(j1 + 1, j2 + 1))
    return out


def span_text(lines):
    """Lines {3, 4, 5, 9} as '3-5, 9'."""
    out, run = [], []
    for n in sorted(lines):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
        run = [n]
    if run:
        out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(out)


def kernel_param(blank, off):
    """(function name, parameter index) of the parameter declaration at
    `off`, or None where `off` is not in a parameter list."""
    depth, i, commas = 0, off - 1, 0
    while i >= 0:
        c = blank[i]
        if c in ")]>":
            depth += 1
        elif c in "[<" and depth:
            depth -= 1
        elif c == "(":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            commas += 1
        elif c in ";{}":
            return None
        i -= 1
    if i < 0:
        return None
    m = re.search(r"(\w+)\s*$", blank[:i])
    return (m.group(1), commas) if m else None
