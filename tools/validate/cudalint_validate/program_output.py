"""A program's printed output, as program mode reads it: the lines whose
numbers are results (compared), the timing lines (times and rates, never
compared: reported, and the speedup made of them) and the status lines
(PASS, FAIL ...)."""

import re
import statistics


# Lines that report a time or a rate: their numbers are times, not results.
# Clock counts and the efficiencies made of them (the CUDA samples' clock:
# "Total clocks = #", "Execution efficiency = #") vary from run to run like
# any time.
TIMING_LINE = re.compile(
    r"(?i)(\btimed?\b|\btimes\b(?=\s*[:=(])|\btiming|\belapsed|\bduration|(?<![\w'-])[mun\u00b5]?s\b|\bsecs?\b|"
    r"\bseconds?\b|\bmsecs?\b|\busecs?\b|\bmilliseconds?\b|\bmicroseconds?\b|"
    r"\b[kmgtp]?i?(b|bytes|flop|op|element)s?/s(ec)?\b|\b[kmgtp]?flops\b|\bthroughput|"
    r"\bbandwidth|\bspeed-?up\b|\bfps\b|\bcycles\b|\bclocks\b|\befficiency\b)")

# Lines that say whether the program passed its own check.
STATUS_LINE = re.compile(r"(?i)\b(pass(ed|es)?|fail(ed|s|ure|ures)?|success(ful|fully)?|"
                         r"correct(ly)?|incorrect|mismatch(es|ed)?|errors?|wrong|"
                         r"verif(y|ied|ication)|valid(ation)?)\b")

# A number (3, -1.5e-3, nan, the 3 of 3ms), not a part of a name (sm_90).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?i:nan|inf(?:inity)?)\b)")

# Lower is better for times; rates (GB/s, GFLOPS) are the other way round.
RATE_LINE = re.compile(r"(?i)(/s(ec)?\b|flops|throughput|bandwidth|fps|efficiency)")

# A time unit or keyword right before which a line's value is printed ("2.3
# ms", "12 GB/s"), rather than after it ("time: 2.3").
UNIT_AFTER_VALUE = re.compile(
    r"(?i)^\s*\(?(?:[mun\u00b5]?s|secs?|seconds?|msecs?|usecs?|milliseconds?|"
    r"microseconds?|[kmgtp]?i?(?:b|bytes|flop|op|element)s?/s(?:ec)?|[kmgtp]?flops|"
    r"fps|cycles)\b")


def timing_pick(s):
    """The number a timing line reports, and whether it is a rate (higher is
    better) rather than a time: the first one printed with a unit ("45.2"
    in "Time for 100 iterations: 45.2 ms", "12" in "12 GB/s"), else the one
    after the first time keyword ("5.0e6" in "NRepetitions=100 ... elapsed
    time=5.0e6 GDOF/s=0.7", a time although the line also prints a rate),
    else the first. (None, False) when the line has no number."""
    nums = list(NUMBER.finditer(s))
    if not nums:
        return None, False
    blank = NUMBER.sub(lambda m: " " * len(m.group()), s)
    for m in nums:
        unit = UNIT_AFTER_VALUE.match(blank[m.end():])
        if unit:
            return float(m.group()), bool(RATE_LINE.search(unit.group()))
    kw = TIMING_LINE.search(blank)
    if kw:
        after = [m for m in nums if m.start() >= kw.end()]
        if after:
            return float(after[0].group()), bool(RATE_LINE.search(kw.group()))
    return float(nums[0].group()), bool(RATE_LINE.search(s))


def timing_value(s):
    """The number a timing line reports (see timing_pick)."""
    return timing_pick(s)[0]


def timing_is_rate(masked):
    """Whether the number timing_pick takes from a line, given with its
    numbers masked as '#', is a rate."""
    return timing_pick(masked.replace("#", "1"))[1]


def parse_output(text, compare=None):
    """A program's output as the lines whose numbers count (each as its text
    with the numbers masked, and the numbers), the timing lines (the same) and
    the status lines (masked). `compare` (a regex) picks the lines that count;
    timing lines never count."""
    counted, times, status = [], [], []
    for line in text.splitlines():
        s = " ".join(line.split())
        if not s:
            continue
        masked = NUMBER.sub("#", s)
        nums = [float(x) for x in NUMBER.findall(s)]
        if TIMING_LINE.search(NUMBER.sub(" ", s)):
            v = timing_value(s)
            times.append((masked, [v] if v is not None else []))
            continue
        if compare and not compare.search(s):
            continue
        counted.append((masked, nums))
        if STATUS_LINE.search(s):
            status.append(masked)
    return {"counted": counted, "times": times, "status": status}


def close(a, b, tol):
    if a != a or b != b:
        return a != a and b != b
    if tol == "exact" or a == b:
        return a == b
    return abs(a - b) <= tol.get("abs", 0.0) + tol.get("rel", 0.0) * max(abs(a), abs(b))


def unstable_numbers(parsed_runs):
    """The positions (line, number) whose values differ between the
    original's own runs: not results the fixed program can be held to. None
    where the runs print different lines."""
    first = parsed_runs[0]["counted"]
    if any([m for m, _ in p["counted"]] != [m for m, _ in first] for p in parsed_runs[1:]):
        return None
    out = set()
    for p in parsed_runs[1:]:
        for i, ((_, na), (_, nb)) in enumerate(zip(first, p["counted"])):
            for j, (x, y) in enumerate(zip(na, nb)):
                if not close(x, y, "exact"):
                    out.add((i, j))
    return out


def compare_outputs(ref, unstable, fixed, tol):
    """(same, detail): the fixed program's counted lines against the
    original's: the same lines (numbers masked), and their numbers within
    `tol` except those that vary between the original's own runs."""
    a, b = ref["counted"], fixed["counted"]
    if unstable is None:
        # The original prints different lines from run to run: its status
        # lines alone are compared.
        same = sorted(ref["status"]) == sorted(fixed["status"])
        return same, ("status lines %s (the original's other lines vary between runs)" %
                      ("the same" if same else "differ: %s / %s" % (
                          "; ".join(ref["status"]) or "none", "; ".join(fixed["status"]) or "none")))
    # The text of the lines (numbers masked: a status line that says FAIL
    # instead of PASS), then their numbers.
    text = next(("line %d differs: '%s' / '%s'" % (i + 1, ma[:80], mb[:80])
                 for i, ((ma, _), (mb, _)) in enumerate(zip(a, b)) if ma != mb), None)
    if text is None and len(a) != len(b):
        text = "%d lines / %d lines" % (len(a), len(b))
    n = bad = 0
    worst, first_bad = 0.0, None
    for i, ((m, na), (mb, nb)) in enumerate(zip(a, b)):
        if m != mb or len(na) != len(nb):
            continue
        for j, (x, y) in enumerate(zip(na, nb)):
            if (i, j) in unstable:
                continue
            n += 1
            if not close(x, y, tol):
                bad += 1
                first_bad = first_bad or "'%s': %.9g / %.9g" % (m[:60], x, y)
            if x == x and y == y and max(abs(x), abs(y)) > 0:
                worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
    tol_text = "exact" if tol == "exact" else "rel %.0e abs %.0e" % (tol.get("rel", 0), tol.get("abs", 0))
    detail = "%d lines, %d numbers (%s): %d outside" % (len(a), n, tol_text, bad)
    if worst:
        detail += ", max rel diff %.2e" % worst
    if unstable:
        detail += "; %d numbers vary between the original's runs, not compared" % len(unstable)
    if first_bad:
        detail += "; first: " + first_bad
    if text:
        detail += "; " + text
    return bad == 0 and not text, detail


def program_times(parsed_runs, walls):
    """Each timing line's numbers (median over the runs) and the run
    command's wall time (median), in seconds."""
    lines = {}
    for p in parsed_runs:
        for k, (m, nums) in enumerate(p["times"]):
            if nums:
                lines.setdefault((k, m), []).append(nums[0])
    return {"lines": [{"index": k, "line": m, "value": statistics.median(v)}
                      for (k, m), v in sorted(lines.items())],
            "wall_s": statistics.median(walls) if walls else None}


def program_speedup(to, tf):
    """The geometric mean of the speedups the timing lines printed by both
    show (time: original / fixed; a rate: fixed / original), else the wall
    time's."""
    # A program may print the same line several times (one per kernel or
    # block size, the numbers masked): pair the lines by their position too.
    fixed = {(l.get("index"), l["line"]): l["value"] for l in tf["lines"]}
    ratios = []
    for l in to["lines"]:
        b, a = fixed.get((l.get("index"), l["line"])), l["value"]
        if a and b and a > 0 and b > 0:
            ratios.append(b / a if timing_is_rate(l["line"]) else a / b)
    if ratios:
        g = 1.0
        for r in ratios:
            g *= r
        return g ** (1.0 / len(ratios)), "program's own times"
    if to.get("wall_s") and tf.get("wall_s"):
        return to["wall_s"] / tf["wall_s"], "wall time"
    return None, None
