#!/usr/bin/env python3
"""run_corpus.py — read corpus tables through lectorodbc.dll under Wine and
compare each with its oracle CSV.

    run_corpus.py BUILD_DIR CORPUS_DIR [--all | --ansi]

It reads the tables listed in sample.tsv beside it (five of each format,
chosen for what they exercise), or with --all every readable table of every
MANIFEST.tsv (dbf, sqlite, xls, xlsb, access), with the connection keywords of
the folder's EXPECT.tsv and the project's tests/corpus/OVERRIDES.tsv, runs
`wine64 wintest.exe lectorodbc.dll "Driver=Lector;Database=Z:\\...;..."
"SELECT * FROM <table>"` and compares its CSV with the oracle's.  Tables the
oracle could not read, or that EXPECT.tsv says must fail, are skipped; for
`rows-or-error` a clear error (exit status 1 with a diagnostic) passes too.

With --ansi it reads the tables of ansi.tsv as an ANSI application does
(wintest.exe --ansi: SQLDriverConnect, SQLExecDirect, SQLDescribeCol and
SQL_C_CHAR through the ANSI code page), each under the Unix locale the row
names, from which Wine takes its code page (en_US 1252, ru_RU 1251, zh_CN
936), and compares with the oracle put through that code page: a character
it lacks is one '?', as the driver makes it (driver/narrow.h).  Then the
rows of ansi_param.tsv (wintest.exe --ansi-param): a SQL_C_CHAR parameter
value, bound and sent in pieces, must select the rows of the oracle that hold
it, SQLBrowseConnect must connect in two steps, and the query through
SQLNativeSql, a cursor name, a parameter's
SQL_DESC_NAME and the column's name in the IRD must come back as the
application wrote them, in its code page.

Ends with the line `N passed, M failed`."""
import urllib.parse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from compare_output import compare, parse_csv  # noqa: E402

FORMATS = ["dbf", "sqlite", "xls", "xlsb", "access"]
WINE = os.environ.get("WINE", "/usr/lib/wine/wine64")
# The ANSI code page Wine picks for a locale, as Python names it.
CODEPAGES = {"en_US.UTF-8": "cp1252", "ru_RU.UTF-8": "cp1251", "zh_CN.UTF-8": "gbk"}


def in_codepage(text, cp):
    """`text` as an application in code page `cp` reads it."""
    return text.encode(cp, "replace").decode(cp)


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def expectations(corpus, fmt, overrides, overrides_dir):
    """(file, table) -> (expect, connect, csv); '*' matches every file; an
    override's CSV (a path under tests/corpus/) replaces the oracle's."""
    out = {}
    for row in read_tsv(os.path.join(corpus, fmt, "EXPECT.tsv")):
        out[(row["file"], row["table"])] = (row["expect"], row["connect"], "")
    for row in overrides:
        if row["format"] == fmt:
            own = os.path.join(overrides_dir, row["csv"]) if row["csv"] else ""
            out[(row["file"], row["table"])] = (row["expect"], row["connect"], own)
    return out


def lookup(exp, file, table):
    for key in ((file, table), (file, "*"), ("*", table), ("*", "*")):
        if key in exp:
            return exp[key]
    return ("rows", "", "")


def windows_path(path):
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    build, corpus = args[0], args[1]
    sample = None
    ansi = "--ansi" in args
    locales = {}
    if ansi:
        for r in read_tsv(os.path.join(HERE, "ansi.tsv")):
            locales.setdefault((r["format"], r["file"], r["table"]), []).append(r["locale"])
        sample = set(locales)
    elif "--all" not in args:
        sample = {(r["format"], r["file"], r["table"])
                  for r in read_tsv(os.path.join(HERE, "sample.tsv"))}
    repo = os.path.abspath(os.path.join(HERE, "..", ".."))
    overrides_dir = os.path.join(repo, "tests", "corpus")
    overrides = read_tsv(os.path.join(overrides_dir, "OVERRIDES.tsv"))
    dll = windows_path(os.path.join(build, "lectorodbc.dll"))
    exe = os.path.join(build, "wintest.exe")
    passed = failed = 0
    for fmt in FORMATS:
        exp = expectations(corpus, fmt, overrides, overrides_dir)
        cases = []
        for row in read_tsv(os.path.join(corpus, fmt, "MANIFEST.tsv")):
            expect, connect, csv_override = lookup(exp, row["file"], row["table"])
            oracle = csv_override or (os.path.join(corpus, fmt, row["csv"]) if row["csv"] != "-" else "")
            if expect == "error" or not oracle:
                continue
            if sample is None or (fmt, row["file"], row["table"]) in sample:
                for locale in locales.get((fmt, row["file"], row["table"]), [None]):
                    cases.append((row["file"], row["table"], expect, connect, oracle, locale))
        if sample is not None:
            listed = {s for s in sample if s[0] == fmt}
            found = {(fmt, c[0], c[1]) for c in cases}
            for missing in sorted(listed - found):
                print(f"FAIL sample.tsv: {' '.join(missing)} is not a readable table of the manifest")
                failed += 1
        for file, table, expect, connect, oracle, locale in cases:
            path = os.path.join(corpus, fmt, file)
            if table == "-":
                table = os.path.splitext(os.path.basename(file))[0]
            conn = f"Driver=Lector;Database={windows_path(path)}"
            if connect:
                conn += ";" + connect
            query = 'SELECT * FROM "%s"' % table.replace('"', '""')
            name = f"{fmt} {file} {table}"
            command = [WINE, exe, dll, conn, query]
            env = None
            cp = "utf-8"
            if locale is not None:
                cp = CODEPAGES[locale]
                name += f" (ANSI, {cp})"
                command = [WINE, exe, "--ansi", dll] + [
                    urllib.parse.quote(a, safe=" :;=\\\"*$") for a in (conn, query)]
                env = dict(os.environ, LC_ALL=locale, LANG=locale)
            run = None
            # Two tries: Wine's first start in a prefix can stall on its own.
            for attempt in range(2):
                try:
                    run = subprocess.run(command, capture_output=True, timeout=60, env=env)
                    break
                except subprocess.TimeoutExpired:
                    print(f"note {name}: no answer in 60 s" + (", trying again" if attempt == 0 else ""))
            if run is None:
                print(f"FAIL {name}: no answer in 60 s, twice")
                failed += 1
                continue
            err = run.stderr.decode("utf-8", "replace").strip()
            if run.returncode != 0:
                if expect == "rows-or-error" and "failed" in err:
                    print(f"ok {name} (a clear error: {err.splitlines()[-1].strip()})")
                    passed += 1
                else:
                    print(f"FAIL {name}: exit status {run.returncode}\n    " +
                          err.replace("\n", "\n    "))
                    failed += 1
                continue
            try:
                with open(oracle, encoding="utf-8", newline="") as f:
                    want = parse_csv(in_codepage(f.read(), cp) if locale else f.read())
                got = parse_csv(run.stdout.decode(cp, "replace"))
                bad = compare(got, want, unordered=(fmt == "access"))
            except csv.Error as e:
                got, bad = [], [f"unreadable CSV: {e}"]
            if bad:
                print(f"FAIL {name}:\n    " + "\n    ".join(bad))
                failed += 1
            else:
                print(f"ok {name}: {len(got) - 1} rows")
                passed += 1
    if ansi:
        p, f = param_cases(build, corpus, dll, exe, overrides, overrides_dir)
        passed += p
        failed += f
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def param_cases(build, corpus, dll, exe, overrides, overrides_dir):
    """The rows of ansi_param.tsv; (passed, failed)."""
    passed = failed = 0
    for r in read_tsv(os.path.join(HERE, "ansi_param.tsv")):
        fmt, file, table, locale = r["format"], r["file"], r["table"], r["locale"]
        cp = CODEPAGES[locale]
        name = f"{fmt} {file} {table} parameter, cursor and descriptor names (ANSI, {cp})"
        manifest = {(m["file"], m["table"]): m
                    for m in read_tsv(os.path.join(corpus, fmt, "MANIFEST.tsv"))}
        _, connect, csv_override = lookup(expectations(corpus, fmt, overrides, overrides_dir),
                                          file, table)
        oracle = csv_override or os.path.join(corpus, fmt, manifest[(file, table)]["csv"])
        with open(oracle, encoding="utf-8", newline="") as f:
            grid = list(csv.reader(f))
        col = grid[0].index(r["column"])
        rows = sum(1 for row in grid[1:] if len(row) > col and row[col] == r["value"])
        if table == "-":
            table = os.path.splitext(os.path.basename(file))[0]
        conn = f"Driver=Lector;Database={windows_path(os.path.join(corpus, fmt, file))}"
        if connect:
            conn += ";" + connect
        args = [conn, table, r["column"], r["value"], r["cursor"], r["param"]]
        command = [WINE, exe, "--ansi-param", dll] + [
            urllib.parse.quote(a, safe=" :;=\\\"*$") for a in args]
        env = dict(os.environ, LC_ALL=locale, LANG=locale)
        query = f'SELECT "{r["column"]}" FROM "{table}" WHERE "{r["column"]}" = ?'
        want = ["browse ok", f"native {query}", f"cursor {r['cursor']}", f"ipd {r['param']}", f"ird {r['column']}",
                f"rec {r['column']}", f"bound {rows}", f"pieces {rows}"]
        want = [in_codepage(w, cp) for w in want]
        try:
            run = subprocess.run(command, capture_output=True, timeout=120, env=env)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: no answer in 120 s")
            failed += 1
            continue
        got = run.stdout.decode(cp, "replace").splitlines()
        if rows == 0:
            print(f"FAIL {name}: the oracle has no row with {r['column']} = {r['value']}")
            failed += 1
        elif run.returncode != 0 or got != want:
            err = run.stderr.decode("utf-8", "replace").strip()
            print(f"FAIL {name}: exit status {run.returncode}\n    want {want}\n    got  {got}"
                  + (f"\n    {err}" if err else ""))
            failed += 1
        else:
            print(f"ok {name}: {rows} rows")
            passed += 1
    return passed, failed


if __name__ == "__main__":
    sys.exit(main())
