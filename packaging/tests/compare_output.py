#!/usr/bin/env python3
"""compare_output.py — check a client tool's printed result set against an
oracle CSV of the test corpus (../shared/corpus/README.md gives its rules).

    compare_output.py KIND OUTPUT CSV [ordered|unordered]

KIND says how OUTPUT is laid out:
  isql       `isql -b -c -d'|'`: the column names, then one row a line
  iodbctest  iodbctest's table: names, a ----+---- rule, padded rows
             (NULL is a cell of '*')
  csv        canonical CSV (packaging/windows/wintest.exe prints it)
Cells compare as the corpus README says: numbers with a relative tolerance
of 1e-9, timestamps as instants, trailing blanks ignored (the tools pad),
binary as hex with or without \\x, a workbook's TRUE/FALSE as 1/0. The
tools print NULL and "" alike, so for isql and iodbctest they are one.
`unordered` compares the rows as a multiset (Access, as the README says).
Prints `ok` or every difference, and exits 1 on any."""
import csv
import io
import math
import re
import sys


def parse_isql(text):
    lines = [l for l in text.splitlines() if l.strip() != ""]
    return [l.split("|") for l in lines]


def parse_iodbctest(text):
    lines = text.splitlines()
    rule = next((i for i, l in enumerate(lines) if re.fullmatch(r"-+(\+-+)*", l)), None)
    if rule is None:
        return None
    rows = [lines[rule - 1].split("|")]
    for l in lines[rule + 1:]:
        if l.strip() == "" or l.startswith(" result set"):
            break
        # iodbctest fills a NULL cell with '*' to the column's width.
        rows.append(["" if re.fullmatch(r"\*+ *", c) else c for c in l.split("|")])
    return rows


def parse_csv(text):
    return [row for row in csv.reader(io.StringIO(text, newline=""))]


csv.field_size_limit(1 << 30)   # long memos and blobs
TS = re.compile(r"^(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d)(?::(\d\d)(?:\.(\d+))?)?)?$")


def same(a, b):
    a, b = a.rstrip(), b.rstrip()
    if a == b:
        return True
    # A binary value read as text is hex (ODBC's SQL_C_CHAR conversion), and
    # a workbook's logical cell in a text column reads TRUE/FALSE; the
    # project's unit tests (tests/unit/support/corpus.c) accept both too.
    if b.startswith("\\x") and a.lower() in (b, b[2:]):
        return True
    if (a, b) in (("TRUE", "1"), ("FALSE", "0")):
        return True
    try:
        x, y = float(a), float(b)
        return x == y or math.isclose(x, y, rel_tol=1e-9) or (math.isnan(x) and math.isnan(y))
    except ValueError:
        pass
    ma, mb = TS.match(a), TS.match(b)
    if ma and mb:
        def key(m):
            return (m.group(1), m.group(2) or "00:00", m.group(3) or "00",
                    (m.group(4) or "").rstrip("0"))
        return key(ma) == key(mb)
    return False


def compare(got, want, unordered=False):
    """Differences between parsed rows `got` and the oracle's `want` (both
    with the names first), as a list of messages; empty when they agree."""
    if not got:
        return ["no result set"]
    if unordered:
        def key(row):
            return [c.rstrip() for c in row]
        got = got[:1] + sorted(got[1:], key=key)
        want = want[:1] + sorted(want[1:], key=key)
    bad = []
    if len(got) != len(want):
        bad.append(f"{len(got) - 1} rows, the oracle has {len(want) - 1}")
    for r, (g, w) in enumerate(zip(got, want)):
        if len(g) != len(w):
            bad.append(f"row {r}: {len(g)} columns, the oracle has {len(w)}")
            continue
        for c, (x, y) in enumerate(zip(g, w)):
            if not same(x, y):
                what = "names" if r == 0 else f"row {r}"
                bad.append(f"{what}, column {c + 1}: {x.rstrip()!r}, the oracle says {y!r}")
        if len(bad) > 10:
            break
    return bad


PARSERS = {"isql": parse_isql, "iodbctest": parse_iodbctest, "csv": parse_csv}


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[4:] not in ([], ["ordered"], ["unordered"]):
        sys.exit(__doc__)
    kind, out_path, csv_path = sys.argv[1:4]
    with open(out_path, encoding="utf-8", errors="replace", newline="") as f:
        got = PARSERS[kind](f.read())
    with open(csv_path, encoding="utf-8", newline="") as f:
        want = parse_csv(f.read())
    bad = compare(got, want, sys.argv[4:] == ["unordered"])
    for b in bad:
        print(f"FAIL {kind}: {b}")
    if bad:
        return 1
    print(f"ok {kind}: {len(got) - 1} rows match {csv_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
