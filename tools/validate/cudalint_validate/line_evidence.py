"""Evidence per finding, from the line table.

The PTX and the SASS are compiled with -lineinfo: PTX has a .file table and
a .loc FILE LINE COLUMN before the instructions of each source position
(the callee's own line for inlined code), nvdisasm -g prints a
'//## File "PATH", line N' comment before the SASS of each. Each
instruction is attributed to the source line of the last of these, so that
a fix is held to the instructions of its own lines, not of the whole file
(which may compute in double on purpose)."""

import os
import re

from .evidence import ADDRESS_ARITH, F64_OPS, INSTR, SASS_OP, ptx_shared_decls
from .source import (blank_comments, finding_lines, kernel_param, line_map, line_starts,
                     span_text)


PTX_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)")

PTX_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')

PTX_FUNC = re.compile(r"^\s*(?:\.(?:visible|extern|weak)\s+)*\.(?:entry|func)\s+"
                      r"(?:\([^)]*\)\s*)?([\w$.]+)")

SASS_LOC = re.compile(r'//##\s*File\s+"([^"]+)",\s*line\s+(\d+)')


def ptx_line_table(ptx):
    """The PTX's instructions, each as (source path, line, function, opcode,
    instruction text): the path and line of the .loc before it (None where
    there is none)."""
    files, rows, loc, func = {}, [], (None, None), None
    for line in ptx.splitlines():
        m = PTX_FILE.match(line)
        if m:
            files[m.group(1)] = m.group(2)
            continue
        m = PTX_LOC.match(line)
        if m:
            loc = (m.group(1), int(m.group(2)))
            continue
        m = PTX_FUNC.match(line)
        if m:
            func, loc = m.group(1), (None, None)
            continue
        s = line.strip()
        if not s or s.startswith(("//", ".", "{", "}", "$", ")", "(")):
            continue
        m = INSTR.match(s)
        if m:
            rows.append((loc[0], loc[1], func, m.group(2), s))
    # The .file table comes after the code.
    return [(files.get(f), l, fn, op, s) for f, l, fn, op, s in rows]


def sass_line_table(sass):
    """nvdisasm -g's SASS, each instruction as (source path, line, None,
    opcode, text)."""
    rows, loc = [], (None, None)
    for line in sass.splitlines():
        m = SASS_LOC.search(line)
        if m:
            loc = (m.group(1), int(m.group(2)))
            continue
        m = SASS_OP.search(line)
        if m:
            rows.append((loc[0], loc[1], None, m.group(2), line.strip()))
    return rows


def of_source(table, path):
    """The rows of `table` for the source file `path` (the same file, or
    where no row names it, a file of the same name)."""
    want = os.path.realpath(path)
    rows = [r for r in table if r[0] and os.path.realpath(r[0]) == want]
    if not rows:
        base = os.path.basename(path)
        rows = [r for r in table if r[0] and os.path.basename(r[0]) == base]
    return rows


def is_f64_ptx(op):
    return ".f64" in op


def is_div_rem_ptx(op):
    return re.match(r"(div|rem)\.(s|u)(32|64)", op) is not None


def is_f64_sass(o):
    parts = o.split(".")
    return (parts[0] in F64_OPS or
            (parts[0] in ("F2F", "I2F", "F2I", "FRND") and "F64" in parts[1:]) or
            (parts[0] == "MUFU" and o.endswith("64H")))


def is_div_rp_sass(o):
    return o.startswith("I2F") and "RP" in o.split(".")[1:]


def param_loads(table, name, index):
    """For each PTX function named `name` (mangled or not): the global loads
    whose address derives from its parameter `index` (through register
    arithmetic, not through a loaded value), as (all, ld.global.nc)."""
    mangled = "%d%s" % (len(name), name)
    funcs = sorted(set(r[2] for r in table if r[2] and (r[2] == name or mangled in r[2])))
    total = nc = 0
    for fn in funcs:
        body = [(op, s) for _, _, f, op, s in table if f == fn]
        param = re.compile(r"\[\s*%s_param_%d\s*\]" % (re.escape(fn), index))
        tainted, changed = set(), True
        while changed:
            changed = False
            for op, s in body:
                regs = re.findall(r"%[\w.]+", s.split(";")[0])
                if not regs or op.startswith(("st.", "bra", "ret", "bar", "call")):
                    continue
                dest = regs[0]
                if dest in tainted:
                    continue
                if op.startswith("ld.param") and param.search(s) or \
                        (not op.startswith("ld.") and any(r in tainted for r in regs[1:])):
                    tainted.add(dest)
                    changed = True
        for op, s in body:
            if op.startswith("ld.global"):
                addr = re.search(r"\[([^\]]*)\]", s)
                if addr and any(r in tainted for r in re.findall(r"%[\w.]+", addr.group(1))):
                    total += 1
                    nc += op.startswith("ld.global.nc")
    return total, nc


def shared_decl(ptx, name):
    """The .shared declarations of the variable `name` (a kernel's static
    __shared__ array is mangled into it: _ZZ9transposePfS_E4tile)."""
    mangled = "%d%s" % (len(name), name)
    return sorted(d for d in ptx_shared_decls(ptx)
                  if re.search(r"(\b%s|%s)\s*\[" % (re.escape(name), re.escape(mangled)), d))


def finding_key(f):
    return "%s:%d:%d" % (f["check"], f["line"], f["column"])


def count_on(rows, lines, pred):
    """The instructions of `rows` on `lines` that `pred` picks."""
    return sum(1 for _, l, _, op, _ in rows if l in lines and pred(op))


def count_all(rows, pred):
    return sum(1 for r in rows if pred(r[3]))


class LineTables:
    """The line tables of a case's two versions (pt: the PTX's, st: the
    SASS's, {} without nvdisasm's lines), the original's source and the map
    from its lines to the fixed source's."""

    def __init__(self, pt, st, src_o, src_f, single):
        self.pt, self.st, self.src_o, self.single = pt, st, src_o, single
        self.blank_o = blank_comments(src_o)
        self.starts_o = line_starts(src_o)
        self.lmap = line_map(src_o, src_f)

    def to_fixed(self, lines):
        return set(n for l in lines for n in self.lmap.get(l, ()))

    def offset(self, f):
        """The offset of a finding's position in the original."""
        starts = self.starts_o
        return starts[min(f["line"], len(starts)) - 1] + f["column"] - 1


def line_evidence(kind, ptx, sass, paths, src_o, src_f, findings, single):
    """Evidence per finding from the line tables (PTX, and SASS where nvdisasm
    gave its lines): (passed, detail, {finding key: detail}) for the claim
    `kind`, or None where the PTX has no line of the source (no -lineinfo,
    or no device code in it): then the whole file decides."""
    if kind not in ("no-f64", "no-div-rem", "ld-global-nc", "shared-decl-changed") or not findings:
        return None
    pt = {t: of_source(ptx_line_table(ptx[t]), paths[t]) for t in ("original", "fixed")}
    if not pt["original"]:
        return None
    st = {}
    if sass:
        st = {t: of_source(sass_line_table(sass[t]), paths[t]) for t in ("original", "fixed")}
        if not st["original"]:
            st = {}
    t = LineTables(pt, st, src_o, src_f, single)
    if kind in ("no-f64", "no-div-rem"):
        return count_evidence(kind, t, findings)
    if kind == "ld-global-nc":
        return restrict_evidence(t, findings)
    return padding_evidence(ptx, t, findings)


def count_evidence(kind, t, findings):
    """no-f64, no-div-rem: the f64 (div/rem) instructions on each finding's
    lines before and after the fix, then on the lines of all of them; those
    elsewhere are information."""
    pt, st, single = t.pt, t.st, t.single
    pred = is_f64_ptx if kind == "no-f64" else is_div_rem_ptx
    spred = is_f64_sass if kind == "no-f64" else is_div_rp_sass
    what = "f64 instructions" if kind == "no-f64" else "div/rem"
    swhat = "f64 ops" if kind == "no-f64" else "I2F.RP"
    ok, union, per = True, set(), {}
    for f in findings:
        lo = finding_lines(t.src_o, t.blank_o, t.starts_o, f)
        union |= lo
        a, b = count_on(pt["original"], lo, pred), count_on(pt["fixed"], t.to_fixed(lo), pred)
        if kind == "no-f64":
            good = b <= a if single else b == 0
        else:
            good = b <= a if single or a == 0 else b < a
        text = "%s on %s: %d -> %d" % (what, span_text(lo), a, b)
        if st:
            sa = count_on(st["original"], lo, spred)
            sb = count_on(st["fixed"], t.to_fixed(lo), spred)
            text += " (SASS %s %d -> %d)" % (swhat, sa, sb)
            if kind == "no-f64" and not single:
                good = good and sb == 0
        if a == 0 and b == 0:
            text += (" (none there before the fix: the compiler merged or removed it)"
                     if any(r[1] in lo for r in pt["original"]) else
                     " (no device code there)")
        per[finding_key(f)] = ("yes: " if good else "MISSING: ") + text
        ok = ok and good
    a, b = count_on(pt["original"], union, pred), count_on(pt["fixed"], t.to_fixed(union), pred)
    ra = count_all(pt["original"], pred) - a
    rb = count_all(pt["fixed"], pred) - b
    if kind == "no-f64":
        ok = ok and (b <= a if single else b == 0 and a > 0)
    else:
        ok = ok and (b <= a if single else b < a)
    detail = "%s on the fixed lines %d -> %d (%s)" % (what, a, b, span_text(union))
    if st:
        sa = count_on(st["original"], union, spred)
        sb = count_on(st["fixed"], t.to_fixed(union), spred)
        detail += ", SASS %s %d -> %d" % (swhat, sa, sb)
    detail += "; elsewhere %d -> %d" % (ra, rb)
    if rb:
        detail += " (not on a fixed line: information)"
    return ok, detail, per


def restrict_evidence(t, findings):
    """ld-global-nc: the loads through each finding's kernel parameter;
    None where none of them is found (the file decides)."""
    pt, single = t.pt, t.single
    ok, decided, parts, per = True, False, [], {}
    for f in findings:
        off = t.offset(f)
        kp = kernel_param(t.blank_o, off)
        name = re.match(r"\w*", t.blank_o[off:]).group(0) or "?"
        if not kp:
            per[finding_key(f)] = "not a kernel parameter: the file decides"
            continue
        ta, na = param_loads(pt["original"], *kp)
        tb, nb = param_loads(pt["fixed"], *kp)
        text = "loads of '%s' in %s: ld.global.nc %d -> %d (of %d -> %d)" % (
            name, kp[0], na, nb, ta, tb)
        if not ta and not tb:
            per[finding_key(f)] = text + " (none found: the file decides)"
            continue
        good = nb >= na if single else nb > na
        decided = True
        ok = ok and good
        per[finding_key(f)] = ("yes: " if good else "MISSING: ") + text
        parts.append(text)
    if not decided:
        return None
    a = count_all(pt["original"], lambda o: o.startswith("ld.global.nc"))
    b = count_all(pt["fixed"], lambda o: o.startswith("ld.global.nc"))
    return ok, "; ".join(parts) + "; in the file ld.global.nc %d -> %d" % (a, b), per


def padding_evidence(ptx, t, findings):
    """shared-decl-changed (padding): the declaration of the array the
    finding accesses changed; where else the code changed is information
    (the outputs, compared bit for bit, decide)."""
    pt = t.pt
    ok, parts, per = True, [], {}
    keep = lambda op: not ADDRESS_ARITH.match(op)
    for f in findings:
        off = t.offset(f)
        name = re.match(r"\w*", t.blank_o[off:]).group(0)
        do, df = shared_decl(ptx["original"], name), shared_decl(ptx["fixed"], name)
        if not name or not do:
            per[finding_key(f)] = "no shared declaration of '%s' found: the file decides" % name
            continue
        good = do != df
        ok = ok and good
        size = lambda ds: ", ".join(re.sub(r".*(\[[^\]]*\]);$", r"\1", d) for d in ds) or "none"
        text = "shared '%s' %s -> %s bytes" % (name, size(do), size(df))
        per[finding_key(f)] = ("yes: " if good else "MISSING: ") + text
        parts.append(text)
    if not parts:
        return None
    beyond = []
    lines = sorted(set(r[1] for r in pt["original"] if r[1]))
    for l in lines:
        io = [r[3] for r in pt["original"] if r[1] == l and keep(r[3])]
        fl = t.lmap.get(l, set())
        iff = [r[3] for r in pt["fixed"] if r[1] in fl and keep(r[3])]
        if io != iff:
            beyond.append(l)
    detail = "; ".join(parts) + ("; other instructions the same on every line, or address "
                                 "arithmetic only" if not beyond else
                                 "; instructions beyond address arithmetic differ on %s "
                                 "(information)" % span_text(set(beyond)))
    return ok, detail, per
