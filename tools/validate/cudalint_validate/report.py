"""The results as a table (one row per finding), Markdown and the
environment they were made in."""

import datetime
import shutil

from .common import find_nvcc, sh


def sanitizer_cell(r):
    if "racecheck_original" not in r:
        return "-"
    parts = []
    for tool in ("racecheck", "synccheck"):
        o, f = r.get(tool + "_original"), r.get(tool + "_fixed")
        parts.append("%s %s->%s" % (tool, "?" if o is None else o, "?" if f is None else f))
    return "; ".join(parts)


def result_cell(r):
    return r["status"] + (": " + "; ".join(r["reasons"]) if r.get("reasons") else "")


def cells(r):
    """The compiled, outputs, sanitizer, time, speedup and result cells of a
    validation."""
    if r.get("report_only"):
        outputs = r.get("run", "-")
    elif "outputs_match" in r:
        outputs = ("yes" if r["outputs_match"] else "NO") + " (" + r.get("outputs", "-") + ")"
    elif r.get("original_check") and not r.get("run_failed"):
        outputs = "yes (%s)" % r["outputs"]
    elif r.get("run_failed"):
        outputs = ("NOT VALIDATED: " if r["run_failed"] == "original" else "NO: ") + r["run"]
    else:
        outputs = r.get("run", "-")
    if r.get("time_original_ms") and r.get("time_fixed_ms"):
        time = "%.4g / %.4g" % (r["time_original_ms"], r["time_fixed_ms"])
    elif r.get("time_original_ms"):
        time = "%.4g / -" % r["time_original_ms"]
    else:
        time = "-"
    return [r.get("compiled", "-"), outputs, sanitizer_cell(r), time,
            "%.2fx" % r["speedup"] if r.get("speedup") else "-", result_cell(r)]


def table(results):
    """One row per finding (per case where there are none), with the
    results of the finding's case, or of its own fix where the fixes of its
    file were validated one at a time; then a row for those fixes
    together."""
    cols = ["case", "check", "location", "compiled", "evidence", "outputs", "sanitizer",
            "time orig/fixed ms", "speedup", "result"]
    rows = []
    for r in results:
        shared = cells(r)
        for f in r.get("findings") or [None]:
            if f is None:
                check, where, ev = r["check"], "-", r.get("evidence", "-")
                c = shared
            else:
                check = f["check"] + ("" if f.get("fixed", True) else " (no fix)")
                where = "%s:%d:%d" % (f["file"], f["line"], f["column"])
                v = f.get("validation")
                if v:
                    ev, c = v.get("evidence", "-"), cells(v)
                    if f.get("applied"):
                        c = c[:-1] + [c[-1] + " (applied)"]
                else:
                    ev = r.get("finding_evidence", {}).get(
                        "%s:%d:%d" % (f["check"], f["line"], f["column"]),
                        r.get("evidence_by_check", {}).get(f["check"], r.get("evidence", "-")))
                    c = shared
                    if r.get("report_only"):
                        ev = "report only"
            rows.append([r["case"], check, where, c[0], ev] + c[1:])
        if r.get("per_finding"):
            rows.append([r["case"], r["check"], "all fixes together", shared[0],
                         r.get("evidence", "-")] + shared[1:])
        v = r.get("passing_fixes")
        if v:
            c = cells(v)
            rows.append([r["case"], v["check"], "the %d passing fixes together" % v["count"],
                         c[0], v.get("evidence", "-")] + c[1:])
    return cols, rows


def markdown_table(cols, rows):
    """The lines of a Markdown table."""
    return ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)] + [
        "| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]


def markdown(results, header, summary):
    cols, rows = table(results)
    lines = [header, ""] + markdown_table(cols, rows)
    return "\n".join(lines) + "\n\n" + summary + "\n"


def print_table(cols, rows):
    """The table on stdout, each column as wide as its widest cell."""
    widths = [max(len(str(c)) for c in [col] + [r[i] for r in rows]) for i, col in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip())
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())


def environment(cuobjdump):
    env = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    nvcc = find_nvcc()
    if nvcc:
        env["nvcc"] = sh([nvcc, "--version"])[1].strip().splitlines()[-1]
    if cuobjdump:
        env["cuobjdump"] = (sh([cuobjdump, "--version"])[1].strip().splitlines() or ["?"])[-1]
    smi = shutil.which("nvidia-smi")
    if smi:
        rc, out = sh([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"])
        if rc == 0:
            env["gpu"] = out.strip()
    return env


def program_table(r):
    """One row per finding (its own result: passed, or why the bisection
    took it out), then all fixes together and, where some were taken out,
    the fixes kept."""
    cols = ["program", "check", "location", "built", "exit", "results", "sanitizer",
            "time orig / fixed", "speedup", "result"]
    rows = []
    for f in r["findings"]:
        rows.append([r["case"], f["check"], "%s:%d:%d" % (f["file"], f["line"], f["column"]),
                     "", "", "", "", "", "", f.get("validation", "-") +
                     (" (applied)" if f.get("applied") else "")])

    def exits(v):
        return ",".join(str(x) for x in sorted(set(v.get("exit", [])))) or "-"

    def times(v):
        t = v.get("times") or {}
        own = ", ".join("%.4g" % l["value"] for l in t.get("lines", []))
        wall = t.get("wall_s")
        return (own + " " if own else "") + ("(%.3gs)" % wall if wall else "") or "-"

    o = r.get("original", {})

    def row(where, v, sanitizer, result):
        return [r["case"], ",".join(sorted(set(x["check"] for x in r["findings"]))), where,
                "yes" if v["build_rc"] == 0 else "NO", "%s -> %s" % (exits(o), exits(v)),
                v.get("results", "-"), sanitizer, "%s / %s" % (times(o), times(v)),
                "%.2fx (%s)" % (v["speedup"], v["speedup_basis"]) if v.get("speedup") else "-",
                result]

    san = sanitizer_cell(r) if "racecheck_original" in r else r.get("sanitizer", "-")
    kept = r.get("kept_version")
    if r.get("fixed"):
        f = r["fixed"]
        rows.append(row("all %d fixes together" % len(r["findings"]), f,
                        "-" if kept or f.get("reasons") else san,
                        "FAILED: " + "; ".join(f["reasons"]) if f.get("reasons") else
                        result_cell(r)))
    if kept:
        rows.append(row("the %d fixes kept" % len(r["kept"] or kept["fixes"]), kept, san,
                        "FAILED: " + "; ".join(kept["reasons"]) if kept.get("reasons") else
                        result_cell(r) if r["status"] != "FAILED" or not r["kept"] else
                        "passed"))
    if not r.get("fixed"):
        rows.append([r["case"], "-", "-", "NO" if o.get("build_rc") else "yes", "", "", "", "",
                     "", result_cell(r)])
    return cols, rows
