"""Instruction-level evidence for a whole file: what each check's fix must
show in the PTX, and the same claims in the SASS of a cubin."""

import re


INSTR = re.compile(r"^\s*(@!?%p\d+\s+)?([a-z][\w.]*)", re.M)


def ptx_instructions(ptx, operands=False):
    """The PTX instructions (opcodes; with operands=True the whole
    instruction, registers renumbered away)."""
    out = []
    for line in ptx.splitlines():
        s = line.strip()
        if not s or s.startswith(("//", ".", "{", "}", "$")):
            continue
        m = INSTR.match(s)
        if m:
            out.append(re.sub(r"%\w+", "%", s) if operands else m.group(2))
    return out


def ptx_shared_decls(ptx):
    return sorted(re.findall(r"\.shared\s+[^;]*;", ptx))


# Integer arithmetic that computes addresses and indices: what a padded
# shared-memory tile (a different row stride) may change besides its
# declaration.
ADDRESS_ARITH = re.compile(r"(mad|mul|add|sub|shl|shr|cvt|cvta|mov|and|or|neg|min|max)(\.\w+)*"
                           r"\.(s|u|b)(16|32|64)$")


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def warp_sync_expectations(src_o, src_f):
    """What a cuda-warp-synchronous fix did, from the source: each construct
    it added (a shuffle, __syncwarp(), __syncthreads()) and the PTX that
    must show it."""
    so, sf = strip_comments(src_o or ""), strip_comments(src_f or "")
    out = []
    for pat, what in ((r"__shfl_\w*sync\b", "shuffles"), (r"__syncwarp\b", "__syncwarp"),
                      (r"__syncthreads\b", "__syncthreads")):
        if len(re.findall(pat, sf)) > len(re.findall(pat, so)):
            out.append(what)
    return out


WARP_PTX = {
    "shuffles": ("shfl.sync", lambda i: i.startswith("shfl.sync")),
    "__syncwarp": ("bar.warp.sync", lambda i: i.startswith("bar.warp.sync")),
    "__syncthreads": ("bar.sync/barrier.sync",
                      lambda i: i.startswith(("bar.sync", "barrier.sync")) or i == "bar"),
}


def evidence(kind, ptx_o, ptx_f, src_o=None, src_f=None, single=False):
    """(passed, detail) for the claim `kind` of a check's fix. single: the fix
    of one finding of several, validated alone: the claim need only not be
    contradicted (one literal of an expression may leave its f64 operations
    until the next is fixed); the fixes that pass are validated together
    with the full claim."""
    io, iff = ptx_instructions(ptx_o), ptx_instructions(ptx_f)

    def count(instrs, pred):
        return sum(1 for i in instrs if pred(i))

    if kind == "no-f64":
        f64 = lambda i: ".f64" in i
        a, b = count(io, f64), count(iff, f64)
        return (b <= a) if single else (b == 0 and a > 0), "f64 instructions %d -> %d" % (a, b)
    if kind == "ld-global-nc":
        nc = lambda i: i.startswith("ld.global.nc")
        a, b = count(io, nc), count(iff, nc)
        return (b >= a) if single else (b > a), "ld.global.nc %d -> %d" % (a, b)
    if kind == "no-div-rem":
        dr = lambda i: re.match(r"(div|rem)\.(s|u)(32|64)", i) is not None
        a, b = count(io, dr), count(iff, dr)
        return (b <= a) if single else (b < a), "div/rem %d -> %d" % (a, b)
    if kind == "shfl-sync":
        sf = lambda i: i.startswith("shfl.sync")
        a, b = count(io, sf), count(iff, sf)
        return b > a, "shfl.sync %d -> %d" % (a, b)
    if kind == "less-local":
        # A per-thread array moved from local memory to registers: fewer
        # ld.local/st.local instructions (math functions' slow paths may
        # keep some of their own).
        lc = lambda i: i.startswith(("ld.local", "st.local"))
        a, b = count(io, lc), count(iff, lc)
        return (b <= a) if single else (b < a), "ld.local/st.local %d -> %d" % (a, b)
    if kind == "warp-sync":
        # Each construct the fix added must show in the PTX: shuffles as
        # shfl.sync, __syncwarp() as bar.warp.sync, __syncthreads() as
        # bar.sync (barrier.sync).
        added = warp_sync_expectations(src_o, src_f)
        if not added:
            return False, "the fix adds no shuffle, __syncwarp() or __syncthreads()"
        ok, parts = True, []
        for what in added:
            name, pred = WARP_PTX[what]
            a, b = count(io, pred), count(iff, pred)
            ok = ok and b > a
            parts.append("%s %d -> %d" % (name, a, b))
        return ok, ", ".join(parts)
    if kind == "shared-decl-changed":
        so, sf = ptx_shared_decls(ptx_o), ptx_shared_decls(ptx_f)
        # The rest of the code: the same, or different only in integer
        # address arithmetic (a padded row stride), or different beyond it
        # (information: the outputs, compared bit for bit, decide).
        if ptx_instructions(ptx_o, True) == ptx_instructions(ptx_f, True):
            stream = "identical"
        else:
            keep = lambda ins: [i for i in ins if not ADDRESS_ARITH.match(i)]
            stream = ("differs in address arithmetic only" if keep(io) == keep(iff) else
                      "differs beyond address arithmetic (%d -> %d instructions; information)"
                      % (len(io), len(iff)))
        return so != sf, "shared decls changed: %s; instruction stream %s" % (
            "yes" if so != sf else "no", stream)
    return True, "no instruction-level claim"


# SASS (cuobjdump -sass of a cubin): the same claims in the machine code.
# Checked against the suite's cases and small kernels with nvcc 13 for sm_80,
# sm_90 and sm_100: a run-time integer division or remainder (32 or 64 bits,
# signed or not) sets up its reciprocal with I2F.RP, I2F.U32.RP or
# I2F.U64.RP, and a shift, a mask, a division by a constant and a float
# division have none; one setup serves every division by the same divisor,
# so the count is of divisors, not of divisions.
SASS_OP = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")

F64_OPS = {"DADD", "DMUL", "DFMA", "DSETP", "DSET", "DMNMX", "DMMA"}


def sass_opcodes(sass):
    return [m.group(2) for m in SASS_OP.finditer(sass)]


def sass_evidence(kind, sass_o, sass_f, src_o=None, src_f=None, single=False):
    """(passed, detail): passed is None where the SASS only adds detail and
    the PTX decides. It decides where it shows the PTX claim one to one: no
    f64 operation left, more SHFL. Restrict (ptxas may already use the
    read-only path for the original's loads) and division (one reciprocal
    per divisor) are reported only."""
    oo, of = sass_opcodes(sass_o), sass_opcodes(sass_f)

    def count(ops, pred):
        return sum(1 for o in ops if pred(o))

    if kind == "no-f64":
        def f64(o):
            parts = o.split(".")
            return (parts[0] in F64_OPS or
                    (parts[0] in ("F2F", "I2F", "F2I", "FRND") and "F64" in parts[1:]) or
                    (parts[0] == "MUFU" and o.endswith("64H")))
        a, b = count(oo, f64), count(of, f64)
        return (None if single else b == 0), "SASS: f64 ops %d -> %d" % (a, b)
    if kind == "ld-global-nc":
        nc = lambda o: o.startswith("LDG") and any(p in ("CONSTANT", "CI", "NC") for p in o.split(".")[1:])
        a, b = count(oo, nc), count(of, nc)
        return None, "SASS: LDG.CONSTANT %d -> %d" % (a, b)
    if kind == "no-div-rem":
        rp = lambda o: o.startswith("I2F") and "RP" in o.split(".")[1:]
        a, b = count(oo, rp), count(of, rp)
        return None, "SASS: integer-division reciprocals (I2F.RP) %d -> %d" % (a, b)
    if kind == "shfl-sync" or (kind == "warp-sync" and
                               "shuffles" in warp_sync_expectations(src_o, src_f)):
        sf = lambda o: o.startswith("SHFL")
        a, b = count(oo, sf), count(of, sf)
        return b > a, "SASS: SHFL %d -> %d" % (a, b)
    if kind == "warp-sync":
        # __syncwarp() with a full mask may compile to WARPSYNC or to
        # nothing on sm_70+: information only.
        ws = lambda o: o.startswith(("WARPSYNC", "BAR", "NOP"))
        return None, "SASS: WARPSYNC/BAR/NOP %d -> %d" % (count(oo, ws), count(of, ws))
    if kind == "less-local":
        ll = lambda o: o.startswith(("LDL", "STL"))
        return None, "SASS: LDL/STL %d -> %d" % (count(oo, ll), count(of, ll))
    if kind == "shared-decl-changed":
        ls = lambda o: o.startswith(("LDS", "STS"))
        return None, "SASS: LDS/STS %d -> %d, instructions %d -> %d" % (
            count(oo, ls), count(of, ls), len(oo), len(of))
    return None, "SASS: instructions %d -> %d" % (len(oo), len(of))
