#!/usr/bin/python3
"""report.py — turn a results JSON into the Markdown tables and the plots.

bench/run calls write(); run it by hand to redo the .md and plots of a
results file:  python3 bench/harness/report.py bench/results/HOST.json
"""

import json
import os
import shutil
import subprocess
import sys

HEADER_NOTE = ("Ratios are a/b, side a being Lector: **a ratio below 1 means "
               "Lector is faster**.  Times are medians of the timed runs "
               "(min–max in brackets), measured inside each client process: "
               "connect + execute + fetch of every row.  Peak RSS counts the "
               "pages of a memory-mapped data file (Lector maps the file it "
               "reads); the bracket is the anonymous memory (heap) when the "
               "last row was read.")


def _s(x):
    if x is None:
        return "–"
    if x >= 100:
        return "%.0f" % x
    if x >= 1:
        return "%.2f" % x
    if x >= 0.01:
        return "%.3f" % x
    return "%.4f" % x


def _spread(d, scale=1.0):
    return "%s (%s–%s)" % (_s(d["median"] * scale), _s(d["min"] * scale), _s(d["max"] * scale))


def _rate(rows, seconds):
    if not seconds:
        return "–"
    r = rows / seconds
    return "%.1fM" % (r / 1e6) if r >= 1e6 else "%.0fk" % (r / 1e3)


def _rss(side):
    """Peak RSS, and in brackets the anonymous part when the last row was read
    (a driver that maps its file counts the file in the peak)."""
    peak = "%.0f" % (side["maxrss_kb"] / 1024)
    if side.get("anon_kb", -1) >= 0:
        peak += " (%.0f)" % (side["anon_kb"] / 1024)
    return peak


def _mode(p):
    if p["mode"] == "block":
        return "block cursor, 1,024 rows, typed binds"
    return "SQLFetch + SQLGetData as %s" % ("SQL_C_WCHAR" if p["text"] == "wchar" else "SQL_C_CHAR")


def case_rows(p):
    lines = ["| query | rows | %s s | %s s | ratio a/b | a rows/s | b rows/s | "
             "peak RSS (anon) a / b MiB | parity |" % (p["labels"]["a"], p["labels"]["b"]),
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for c in p["cases"]:
        q = c["query"] + ("" if c["table"] == "bulk" else " (%s)" % c["table"])
        if c["status"] != "ok":
            msg = c.get("message", "")
            lines.append("| %s | %s | | | **%s** | | | | %s |" % (
                q, c["scale_rows"], c["status"], msg.replace("|", "\\|")))
            continue
        a, b = c["a"], c["b"]
        # rows read: the table's rows (agg reads them all to return one)
        read = c["scale_rows"] if c["query"] in ("scan", "agg") else c["rows"]
        if c["query"] == "one":
            q, read, rate_a, rate_b = "SELECT 1", 1, "–", "–"
        else:
            rate_a = _rate(read, a["seconds"]["median"])
            rate_b = _rate(read, b["seconds"]["median"])
        lines.append("| %s | %d | %s | %s | **%s** (%s–%s) | %s | %s | %s / %s | ok |" % (
            q, read, _spread(a["seconds"]), _spread(b["seconds"]),
            _s(c["ratio"]["median"]), _s(c["ratio"]["min"]), _s(c["ratio"]["max"]),
            rate_a, rate_b, _rss(a), _rss(b)))
    return lines


def markdown(doc, plots=()):
    env = doc["environment"]
    out = ["# Lector DSN-swap benchmark — %s" % env["hostname"], "",
           "Written by `bench/run%s` on %s UTC (%s, %d timed run%s per side, "
           "alternating a b a b after a warm-up that checks parity)." % (
               " --quick" if doc["quick"] else "", env["date_utc"],
               "quick" if doc["quick"] else "full", doc["runs"],
               "" if doc["runs"] == 1 else "s"),
           "", HEADER_NOTE, "", "## Environment", "", "| | |", "|---|---|"]
    lec = env["lector"]
    for k, v in (("CPU", "%s, %s cores" % (env["cpu_model"], env["cores"])),
                 ("memory", "%.1f GiB" % (env["memory_kb"] / 1048576) if env["memory_kb"] else None),
                 ("OS / kernel", "%s / %s" % (env["os"], env["kernel"])),
                 ("compiler", env["compiler"]),
                 ("Lector", "%s%s, %s" % ((lec["commit"] or "?")[:12],
                                         " + uncommitted changes" if lec["modified_files"] else "",
                                         lec["build_type"])),
                 ("load average start / end", "%s / %s" % (
                     " ".join("%.2f" % x for x in env["load_average_at_start"]),
                     " ".join("%.2f" % x for x in env.get("load_average_at_end", [])))),
                 ("packages", ", ".join("%s %s" % (k, v) for k, v in env["packages"].items() if v))):
        out.append("| %s | %s |" % (k, v))
    for fmt in sorted({p["format"] for p in doc["pairings"]}):
        ps = [p for p in doc["pairings"] if p["format"] == fmt and p["status"] == "measured"]
        if not ps:
            continue
        out += ["", "## %s" % fmt]
        for p in ps:
            out += ["", "### %s: %s vs %s" % (p["name"], p["labels"]["a"], p["labels"]["b"]), "",
                    "Client mode: %s." % _mode(p), ""]
            out += case_rows(p)
            for c in p["cases"]:
                if c.get("first_rows"):
                    out += ["", "First rows of %s (a, then b):" % c["id"], "", "```"]
                    out += c["first_rows"]["a"] + ["--"] + c["first_rows"]["b"] + ["```"]
            if p.get("targets"):
                out.append("")
            for t in p.get("targets", []):
                out.append("- target %s: %s (%s)" % (
                    t["what"], "**met**" if t["met"] else "**missed**", _s(t["value"])))
    scal = [(p, s) for p in doc["pairings"] for s in p.get("scaling", [])]
    if scal:
        out += ["", "## Scaling (time at 10x rows / time at 1x; target ≤ 10.5)", "",
                "From the fastest run at each scale (the least noisy estimate on a shared "
                "machine); the multiple of the medians is beside it.", "",
                "| pairing | query | side | multiple (min) | multiple (median) |",
                "|---|---|---|---:|---:|"]
        for p, s in scal:
            out.append("| %s | %s | %s | %.2f | %.2f |" % (
                p["name"], s["query"], p["labels"][s["side"]], s["multiple"],
                s.get("multiple_of_medians", float("nan"))))
    rts = [(p, c) for p in doc["pairings"] for c in p.get("cases", [])
           if c["query"] == "one" and c["status"] == "ok"]
    if rts:
        out += ["", "## SELECT 1 round trip (connect + execute + fetch, ms)", "",
                "First: the process's first connection (the driver manager loads the "
                "driver). Warm: median of the next %d cycles in the same process." % (
                    doc["round_trip_cycles"] - 1), "",
                "| pairing | a | a first | a warm | b | b first | b warm |",
                "|---|---|---:|---:|---|---:|---:|"]
        for p, c in rts:
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                p["name"], p["labels"]["a"], _s(c["a"]["seconds"]["median"] * 1000),
                _s(c["a"]["warm_round_trip"]["median"] * 1000), p["labels"]["b"],
                _s(c["b"]["seconds"]["median"] * 1000),
                _s(c["b"]["warm_round_trip"]["median"] * 1000)))
    other = [(p, c) for p in doc["pairings"] for c in p.get("cases", [])
             if c["status"] in ("unsupported", "n/a")]
    if other:
        out += ["", "## Not measured: unsupported (Lector) or n/a (the other side)", ""]
        for p, c in other:
            out.append("- %s: %s — %s" % (c["id"], c["status"], c.get("message", "")))
    skipped = [p for p in doc["pairings"] if p["status"] == "skipped"]
    if skipped:
        out += ["", "## Skipped pairings", ""]
        for p in skipped:
            out.append("- %s (%s vs %s): %s" % (p["name"], p["a"], p["b"], p["reason"]))
    for cid, prof in doc.get("profiles", {}).items():
        out += ["", "## Profile: %s" % cid, "", "Target missed: %s. `perf record` of one "
                "Lector client run (checksum off), self time by DSO and symbol:"
                % prof.get("target", ""), ""]
        if "error" in prof:
            out.append("perf failed: %s" % prof["error"])
            continue
        out += ["| self % | DSO | symbol |", "|---:|---|---|"]
        for e in prof["top"]:
            out.append("| %.1f | %s | `%s` |" % (e["percent"], e["dso"], e["symbol"]))
    if plots:
        out += ["", "## Plots", ""] + ["![%s](%s)" % (t, f) for t, f in plots]
    out.append("")
    return "\n".join(out)


def _plot(doc, resdir, stem):
    """SVG plots with gnuplot: seconds per case at the largest scale, and scaling."""
    if not shutil.which("gnuplot"):
        return []
    made = []
    rows = []
    for p in doc["pairings"]:
        if p["status"] != "measured":
            continue
        for c in p["cases"]:
            if c["status"] == "ok" and c["query"] != "one":
                biggest = max(x["scale_rows"] for x in p["cases"] if x["query"] == c["query"])
                if c["scale_rows"] == biggest:
                    rows.append(("%s:%s" % (p["name"], c["query"]),
                                 c["a"]["seconds"]["median"], c["b"]["seconds"]["median"]))
    if rows:
        dat = os.path.join(resdir, stem + "-time.dat")
        with open(dat, "w") as f:
            for name, a, b in rows:
                f.write('"%s" %.6f %.6f\n' % (name, a, b))
        svg = stem + "-time.svg"
        script = """set terminal svg size 1000,560 dynamic font "sans,11"
set termoption noenhanced
set output '{svg}'
set title 'Seconds per case at the largest scale (lower is better; a = Lector)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.01:*]
set ylabel 'seconds (log scale)'
set xtics rotate by 35 right scale 0 font ",9"
set bmargin 12
set lmargin 24
set key top left
plot '{dat}' using 2:xtic(1) title 'a (Lector)', '' using 3 title 'b (other)'
""".format(svg=os.path.join(resdir, svg), dat=dat)
        if subprocess.run(["gnuplot"], input=script, text=True,
                          capture_output=True).returncode == 0:
            made.append(("seconds per case", svg))
        os.remove(dat)
    scal = [(p, s) for p in doc["pairings"] for s in p.get("scaling", [])]
    if scal:
        dat = os.path.join(resdir, stem + "-scaling.dat")
        seen = set()
        with open(dat, "w") as f:
            for p, s in scal:
                mode = p["mode"] + ("-wchar" if p["text"] == "wchar" else "")
                if not p[s["side"]].startswith("lector") and "odbc" not in p[s["side"]]:
                    mode = "C loop"     # a driverless baseline: no client mode
                label = "%s %s, %s: %s" % (p["format"], s["query"], mode,
                                           p["labels"][s["side"]].replace(" C loop", ""))
                if label in seen:
                    continue
                seen.add(label)
                f.write('"%s" %.4f\n' % (label, s["multiple"]))
        svg = stem + "-scaling.svg"
        script = """set terminal svg size 1000,560 dynamic font "sans,11"
set termoption noenhanced
set output '{svg}'
set title 'Time at 10x rows / time at 1x, fastest runs (target <= 10.5)'
set style data histogram
set style fill solid 0.8 border -1
set yrange [0:*]
set xtics rotate by 35 right scale 0 font ",9"
set bmargin 12
set lmargin 24
set key off
plot '{dat}' using 2:xtic(1), 10.5 with lines lw 2 dt 2
""".format(svg=os.path.join(resdir, svg), dat=dat)
        if subprocess.run(["gnuplot"], input=script, text=True,
                          capture_output=True).returncode == 0:
            made.append(("scaling", svg))
        os.remove(dat)
    return made


def write(doc, resdir, stem, plots=True):
    made = _plot(doc, resdir, stem) if plots else []
    path = os.path.join(resdir, stem + ".md")
    with open(path, "w") as f:
        f.write(markdown(doc, made))
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: report.py RESULTS.json")
    src = os.path.abspath(sys.argv[1])
    with open(src) as f:
        d = json.load(f)
    print(write(d, os.path.dirname(src), os.path.splitext(os.path.basename(src))[0]))
