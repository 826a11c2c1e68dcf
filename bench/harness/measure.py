"""measure.py — running the client and the baselines, and one pairing case.

A case is one query on one fixture through side a and side b.  Method
(bench/README.md): a warm-up run of each side with the checksum on, which is
also the parity gate (different checksums or row counts abort the case);
then N timed runs alternating a b a b with the checksum off, so the timed
work is the driver's, not the hash's; medians, min/max and the ratio a/b
pair by pair.  Each run is a fresh process; its own report gives seconds
(connect + execute + fetch, from inside the process) and peak RSS.
"""

import os
import statistics
import subprocess

TIMEOUT = 900


def parse_line(text):
    """The last `rows=...` line of a program's output, as a dict."""
    for line in reversed(text.splitlines()):
        if line.startswith("rows="):
            out = {}
            for item in line.split():
                k, _, v = item.partition("=")
                try:
                    out[k] = int(v)
                except ValueError:
                    try:
                        out[k] = float(v)
                    except ValueError:
                        out[k] = v
            return out
    return None


def run(argv, env):
    """Run one program; returns (status, report, message)."""
    try:
        r = subprocess.run(argv, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "error", None, "timed out after %d s" % TIMEOUT
    except OSError as e:
        return "error", None, str(e)
    err = r.stderr.strip().splitlines()
    message = err[-1] if err else ""
    if r.returncode == 3:
        return "unsupported", None, message
    if r.returncode != 0:
        return "error", None, message or "exit status %d" % r.returncode
    report = parse_line(r.stdout)
    if report is None:
        return "error", None, "no result line in the output"
    return "ok", report, ""


def _spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _side_stats(reports, round_trip):
    s = {"runs": [r["seconds"] for r in reports],
         "seconds": _spread([r["seconds"] for r in reports]),
         "maxrss_kb": max(r["maxrss_kb"] for r in reports),
         "anon_kb": max(r.get("anon_kb", -1) for r in reports),
         "file_kb": max(r.get("file_kb", -1) for r in reports)}
    for k in ("connect", "execute", "fetch"):
        s[k] = statistics.median(r[k] for r in reports)
    if round_trip:
        s["warm_round_trip"] = _spread([r["warm_median"] for r in reports])
    return s


def measure_case(a, b, runs, round_trip_cycles=0, checksum_every_run=False, show=None):
    """a, b: (argv before the connection/file arguments, arguments, env).

    Returns a dict with status ok | unsupported | n/a | error | parity-failed.
    """
    def argv(side, checksum, extra=()):
        pre, args, _ = side
        flags = [] if checksum else ["--no-checksum"]
        if round_trip_cycles:
            flags += ["--repeat", str(round_trip_cycles)]
        return pre + flags + list(extra) + args

    warm = {}
    for name, side in (("a", a), ("b", b)):
        status, report, msg = run(argv(side, True), side[2])
        if status != "ok":
            if status == "unsupported" and name == "b":
                status = "n/a"
            return {"status": status, "side": name, "message": msg}
        warm[name] = report
    case = {"rows": warm["a"]["rows"], "columns": warm["a"]["columns"],
            "checksum": {"a": warm["a"]["checksum"], "b": warm["b"]["checksum"]}}
    if (warm["a"]["checksum"] != warm["b"]["checksum"] or
            warm["a"]["rows"] != warm["b"]["rows"]):
        case["status"] = "parity-failed"
        case["rows_b"] = warm["b"]["rows"]
        case["message"] = "checksums %s / %s, rows %d / %d" % (
            warm["a"]["checksum"], warm["b"]["checksum"], warm["a"]["rows"], warm["b"]["rows"])
        if show is not None:   # the first rows of each, for the report
            case["first_rows"] = {n: show(s) for n, s in (("a", a), ("b", b))}
        return case

    timed = {"a": [], "b": []}
    for _ in range(runs):
        for name, side in (("a", a), ("b", b)):
            status, report, msg = run(argv(side, checksum_every_run), side[2])
            if status != "ok":
                return dict(case, status="error", side=name, message=msg)
            if report["rows"] != case["rows"] or (
                    checksum_every_run and report["checksum"] != case["checksum"][name]):
                return dict(case, status="parity-failed", side=name,
                            message="a timed run returned %d rows" % report["rows"])
            timed[name].append(report)
    case["status"] = "ok"
    case["a"] = _side_stats(timed["a"], round_trip_cycles > 0)
    case["b"] = _side_stats(timed["b"], round_trip_cycles > 0)
    ratios = [x["seconds"] / y["seconds"] if y["seconds"] > 0 else float("inf")
              for x, y in zip(timed["a"], timed["b"])]
    case["ratio"] = _spread(ratios)
    if round_trip_cycles:
        warm_ratios = [x["warm_median"] / y["warm_median"]
                       for x, y in zip(timed["a"], timed["b"]) if y["warm_median"] > 0]
        if warm_ratios:
            case["warm_ratio"] = _spread(warm_ratios)
    return case


def show_rows(side, n=3):
    """The first n rows of a side's output, for a parity failure report."""
    pre, args, env = side
    r = subprocess.run(pre + ["--show", str(n)] + args, env=env, capture_output=True,
                       text=True, timeout=TIMEOUT)
    return [line for line in r.stdout.splitlines() if not line.startswith("rows=")][:n]


def profile(argv, env, data_path, limit=15):
    """perf record one run (flat: the build has no frame pointers, so call
    graphs would be guesses); returns the top self-time entries."""
    os.makedirs(os.path.dirname(data_path), exist_ok=True)
    rec = subprocess.run(["perf", "record", "-q", "-F", "2999", "-o", data_path,
                          "--"] + argv, env=env, capture_output=True, text=True,
                         timeout=TIMEOUT)
    if rec.returncode != 0:
        return {"error": (rec.stderr.strip().splitlines() or ["perf record failed"])[-1]}
    rep = subprocess.run(["perf", "report", "-i", data_path, "--stdio",
                          "--sort", "dso,symbol", "--percent-limit", "0.5"],
                         capture_output=True, text=True, timeout=TIMEOUT)
    entries = []
    for line in rep.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].endswith("%") and not line.startswith("#"):
            try:
                pct = float(parts[0].rstrip("%"))
            except ValueError:
                continue
            dso = parts[1]
            sym = " ".join(p for p in parts[2:] if p not in ("[.]", "[k]", "-"))
            entries.append({"percent": pct, "dso": dso, "symbol": sym})
        if len(entries) >= limit:
            break
    return {"top": entries, "data": data_path}
