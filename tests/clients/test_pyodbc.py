#!/usr/bin/python3
"""pyodbc (Debian's python3-pyodbc) against Lector through unixODBC: connect
by DSN and by connection string, the catalog calls, typed fetch of the
corpus types compared with the oracle CSVs, parameters, fetchmany, errors.

Run by tests/clients/run.sh, which exports the private ODBC configuration
(driver Lector, DSNs LectorClients_<format>) and LECTOR_CORPUS_DIR.
"""
import datetime
import decimal
import math
import os
import unittest
import uuid

import pyodbc

CORPUS = os.environ["LECTOR_CORPUS_DIR"]

# Sample tables per format: (file, table, connect keywords).  Together they
# hold every type the corpus has: integers, doubles, currency/numeric
# (Decimal), text, memo, binary, dates, times, timestamps and booleans.
SAMPLES = {
    "dbf": [("real/albfernandez-javadbf/numbers2.dbf", "-", ""),
            ("real/Valentin-Kaiser-go-dbase/expense reports.dbf", "-", ""),
            ("generated/dbase4_memo.dbf", "-", "")],
    "sqlite": [("generated/alter_add_column.db", "people", ""),
               ("generated/serial_types.db", "reals", ""),
               ("realworld/Chinook_Sqlite.sqlite", "Album", "")],
    "xls": [("gen_celltypes.xls", "Types$", "HDR=No"),
            ("calamine_date.xls", "Sheet1$", "HDR=No")],
    "xlsb": [("gen_celltypes_sst.xlsb", "Types$", "HDR=No"),
             ("calamine_date.xlsb", "Sheet1$", "HDR=No")],
    "access": [("testV1997.mdb", "Table1", ""),
               ("fixedNumericTestV2000.mdb", "test", ""),
               ("DateTestDatabase.mdb", "DateTest", ""),
               ("binIdxTestV2010.accdb", "Test", "")],
}


def manifest(fmt):
    """MANIFEST.tsv rows of a format folder as dicts."""
    with open(os.path.join(CORPUS, fmt, "MANIFEST.tsv"), encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        return [dict(zip(head, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def read_csv(path):
    """The oracle CSV (RFC 4180) keeping NULL (empty, unquoted) apart from ''."""
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    rows, row, field, quoted, i = [], [], [], False, 0
    at_start = True
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"' and text[i + 1:i + 2] == '"':
                field.append('"')
                i += 1
            elif ch == '"':
                quoted = False
            else:
                field.append(ch)
        elif ch == '"':
            quoted, at_start = True, False
            field.append("")   # marks the field as quoted: never NULL
        elif ch in ",\n":
            value = "".join(field) if field else None
            row.append(value)
            field, at_start = [], True
            if ch == "\n":
                rows.append(row)
                row = []
        else:
            field.append(ch)
            at_start = False
        i += 1
    if field or not at_start:
        row.append("".join(field) if field else None)
    if row:
        rows.append(row)
    return rows[0], rows[1:]


def connect(fmt, path, keywords=""):
    s = "Driver={Lector};Database=%s" % os.path.join(CORPUS, fmt, path)
    return pyodbc.connect(s + (";" + keywords if keywords else ""), autocommit=True)


def quote(name):
    return '"%s"' % name.replace('"', '""')


def table_name(path, table):
    return os.path.splitext(os.path.basename(path))[0] if table == "-" else table


def as_number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def numbers_equal(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)


def parse_instant(text):
    return datetime.datetime.fromisoformat(text.replace("T", " "))


def matches(value, want):
    """Does a value pyodbc returned equal the oracle's CSV field?"""
    if want is None or value is None:
        return want is None and value is None
    if isinstance(value, bool):
        return want == ("1" if value else "0")
    if isinstance(value, (int, float, decimal.Decimal)):
        w = as_number(want)
        return w is not None and numbers_equal(float(value), w)
    if isinstance(value, datetime.datetime):
        return value == parse_instant(want)
    if isinstance(value, datetime.date):
        return value.isoformat() == want or datetime.datetime.combine(value, datetime.time()) == parse_instant(want)
    if isinstance(value, datetime.time):
        return value == datetime.time.fromisoformat(want)
    if isinstance(value, (bytes, bytearray)):
        return want == "\\x" + bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return uuid.UUID(want) == value
    if isinstance(value, str):
        if value == want:
            return True
        # A boolean cell in a workbook column of mixed types is text, shown
        # as Excel shows it (issue 7); the oracle writes booleans as 1/0.
        if want in ("1", "0") and value == ("TRUE" if want == "1" else "FALSE"):
            return True
        a, b = as_number(value), as_number(want)   # a number the driver rendered as text
        return a is not None and b is not None and numbers_equal(a, b)
    return False


class Connect(unittest.TestCase):

    def test_dsn(self):
        cnxn = pyodbc.connect("DSN=LectorClients_dbf", autocommit=True)
        self.assertEqual(cnxn.getinfo(pyodbc.SQL_DRIVER_NAME), "liblectorodbc.so")
        row = cnxn.execute('SELECT "MEDIANRENT" FROM "edit" WHERE "BKG_KEY" = ?', "060750179029").fetchone()
        self.assertEqual(int(row[0]), 647)
        cnxn.close()

    def test_connection_string(self):
        for fmt, samples in SAMPLES.items():
            path, table, keywords = samples[0]
            with self.subTest(fmt=fmt):
                cnxn = connect(fmt, path, keywords)
                self.assertTrue(cnxn.getinfo(pyodbc.SQL_DATA_SOURCE_READ_ONLY) in ("Y", True))
                n = cnxn.execute("SELECT COUNT(*) FROM %s" % quote(table_name(path, table))).fetchone()[0]
                self.assertGreater(n, 0)
                cnxn.close()

    def test_dsn_keywords_overridden(self):
        # DSN= then Database=: the string's own keyword wins over the DSN's.
        other = os.path.join(CORPUS, "access", "testV1997.mdb")
        cnxn = pyodbc.connect("DSN=LectorClients_dbf;Database=%s" % other, autocommit=True)
        self.assertEqual(cnxn.execute("SELECT COUNT(*) FROM Table1").fetchone()[0], 2)
        cnxn.close()


class Catalog(unittest.TestCase):

    def test_tables_and_columns(self):
        for fmt, samples in SAMPLES.items():
            for path, table, keywords in samples:
                rows = [r for r in manifest(fmt) if r["file"] == path and r["table"] == table]
                header, _ = read_csv(os.path.join(CORPUS, fmt, rows[0]["csv"]))
                name = table_name(path, table)
                with self.subTest(fmt=fmt, file=path, table=name):
                    cnxn = connect(fmt, path, keywords)
                    cur = cnxn.cursor()
                    listed = [(r.table_name, r.table_type) for r in cur.tables()]
                    self.assertIn(name, [t for t, _ in listed])
                    self.assertTrue(all(k in ("TABLE", "VIEW", "SYSTEM TABLE") for _, k in listed), listed)
                    cols = list(cur.columns(table=name))
                    self.assertEqual([c.column_name for c in cols], header)
                    self.assertEqual([c.ordinal_position for c in cols], list(range(1, len(cols) + 1)))
                    for c in cols:
                        self.assertEqual(c.table_name, name)
                        self.assertIn(c.nullable, (0, 1, 2))
                        self.assertIsNotNone(c.type_name)
                    cnxn.close()

    def test_tables_table_type_filter(self):
        cnxn = connect("xlsb", "gen_celltypes_sst.xlsb", "HDR=No")
        names = [r.table_name for r in cnxn.cursor().tables(tableType="TABLE,VIEW")]
        self.assertIn("Types$", names)
        self.assertIn("Offset C5$", names)
        cnxn.close()


class TypedFetch(unittest.TestCase):

    def test_corpus_samples(self):
        seen = set()
        for fmt, samples in SAMPLES.items():
            for path, table, keywords in samples:
                row = [r for r in manifest(fmt) if r["file"] == path and r["table"] == table][0]
                header, want = read_csv(os.path.join(CORPUS, fmt, row["csv"]))
                name = table_name(path, table)
                with self.subTest(fmt=fmt, file=path, table=name):
                    cnxn = connect(fmt, path, keywords)
                    cur = cnxn.execute("SELECT * FROM %s" % quote(name))
                    self.assertEqual([d[0] for d in cur.description], header)
                    got = cur.fetchall()
                    if fmt == "access":   # Access: the oracle's scan order; compare as multisets
                        got = sorted(got, key=lambda r: repr(tuple(r)))
                        want = sorted(want, key=lambda r: repr(tuple(r)))
                        pairs = self.pair_rows(got, want)
                    else:
                        self.assertEqual(len(got), len(want))
                        pairs = zip(got, want)
                    for g, w in pairs:
                        for col, v, expect in zip(header, g, w):
                            seen.add(type(v).__name__)
                            self.assertTrue(matches(v, expect), "%s.%s: got %r (%s), oracle %r"
                                            % (name, col, v, type(v).__name__, expect))
                    cnxn.close()
        for t in ("int", "float", "Decimal", "str", "bytes", "date", "datetime", "bool", "NoneType"):
            self.assertIn(t, seen, "no sample produced a %s" % t)

    def pair_rows(self, got, want):
        """Match each fetched row with an oracle row (multiset comparison)."""
        self.assertEqual(len(got), len(want))
        left = list(want)
        pairs = []
        for g in got:
            for i, w in enumerate(left):
                if all(matches(v, e) for v, e in zip(g, w)):
                    pairs.append((g, left.pop(i)))
                    break
            else:
                self.fail("row %r not in the oracle" % (tuple(g),))
        return pairs

    def test_time_and_guid_types(self):
        # TIME: the engine's CAST gives a datetime.time through pyodbc.
        cnxn = connect("access", "testV1997.mdb")
        v = cnxn.execute("SELECT CAST('13:45:10' AS TIME) FROM Table1").fetchone()[0]
        self.assertEqual(v, datetime.time(13, 45, 10))
        # GUID: the corpus's Replication ID column (Table4, no rows) is SQL_GUID.
        cols = {c.column_name: c for c in cnxn.cursor().columns(table="Table4")}
        self.assertIn(pyodbc.SQL_GUID, [c.data_type for c in cols.values()],
                      [(c.column_name, c.data_type, c.type_name) for c in cols.values()])
        cnxn.close()


class SqliteDates(unittest.TestCase):

    def test_iso_text_dates(self):
        # SQLite keeps dates as text or numbers: ISO text reads as typed
        # dates; text that is no date is a 22018 for a typed fetch.
        header, want = read_csv(os.path.join(CORPUS, "sqlite", "csv/generated/dates.db/01_events.csv"))
        cnxn = connect("sqlite", "generated/dates.db")
        rows = cnxn.execute("SELECT * FROM events WHERE id IN (1, 6, 8) ORDER BY id").fetchall()
        oracle = [w for w in want if w[0] in ("1", "6", "8")]
        self.assertEqual(len(rows), 3)
        for g, w in zip(rows, oracle):
            for col, v, expect in zip(header, g, w):
                self.assertTrue(matches(v, expect), "%s: got %r, oracle %r" % (col, v, expect))
        self.assertIsInstance(rows[0].d, datetime.date)
        self.assertIsInstance(rows[0].dt, datetime.datetime)
        with self.assertRaises(pyodbc.Error) as cm:
            cnxn.execute("SELECT ts FROM events WHERE id = 7").fetchall()
        self.assertEqual(cm.exception.args[0], "22018")
        cnxn.close()


class Parameters(unittest.TestCase):

    def setUp(self):
        self.cnxn = connect("access", "testV1997.mdb")

    def tearDown(self):
        self.cnxn.close()

    def one(self, sql, *params):
        rows = self.cnxn.execute(sql, *params).fetchall()
        self.assertEqual(len(rows), 1, (sql, params, rows))
        return rows[0]

    def test_int(self):
        self.assertEqual(self.one("SELECT A FROM Table1 WHERE E = ?", 333333333)[0], "abcdefg")

    def test_str(self):
        self.assertEqual(self.one("SELECT E FROM Table1 WHERE A = ?", "abcdefg")[0], 333333333)

    def test_float(self):
        self.assertEqual(self.one("SELECT A FROM Table1 WHERE F = ?", 444.555)[0], "abcdefg")

    def test_datetime(self):
        self.assertEqual(self.one("SELECT A FROM Table1 WHERE G = ?", datetime.datetime(1974, 9, 21))[0], "abcdefg")

    def test_date(self):
        cnxn = connect("dbf", "real/albfernandez-javadbf/numbers2.dbf")
        n = cnxn.execute('SELECT COUNT(*) FROM numbers2 WHERE "DATE" = ?', datetime.date(2024, 1, 18)).fetchone()[0]
        total = cnxn.execute("SELECT COUNT(*) FROM numbers2").fetchone()[0]
        self.assertGreater(n, 0)
        self.assertLessEqual(n, total)
        cnxn.close()

    def test_several(self):
        row = self.one("SELECT A, B FROM Table1 WHERE E = ? AND A = ? AND F > ?", 333333333, "abcdefg", 1.5)
        self.assertEqual(tuple(row), ("abcdefg", "hijklmnop"))

    def test_null_matches_nothing(self):
        self.assertEqual(self.cnxn.execute("SELECT A FROM Table1 WHERE E = ?", None).fetchall(), [])


class FetchMany(unittest.TestCase):

    def test_arraysize(self):
        cnxn = connect("access", "testIndexCodesV1997.mdb")
        everything = cnxn.execute("SELECT * FROM Table1").fetchall()
        self.assertEqual(len(everything), 275)
        cur = cnxn.cursor()
        cur.arraysize = 50
        cur.execute("SELECT * FROM Table1")
        sizes, rows = [], []
        while True:
            block = cur.fetchmany()
            if not block:
                break
            sizes.append(len(block))
            rows.extend(block)
        self.assertEqual(sizes, [50, 50, 50, 50, 50, 25])
        self.assertEqual([tuple(r) for r in rows], [tuple(r) for r in everything])
        self.assertEqual(len(cur.execute("SELECT * FROM Table1").fetchmany(7)), 7)
        cnxn.close()


class Errors(unittest.TestCase):

    def test_missing_table(self):
        cnxn = connect("access", "testV1997.mdb")
        with self.assertRaises(pyodbc.Error) as cm:
            cnxn.execute("SELECT * FROM no_such_table")
        self.assertEqual(cm.exception.args[0], "42S02")
        self.assertIn("no_such_table", cm.exception.args[1])
        cnxn.close()

    def test_write_refused(self):
        cnxn = connect("sqlite", "generated/affinities.db")
        for sql in ("DELETE FROM types", "INSERT INTO types VALUES (1)", "UPDATE types SET x = 1",
                    "DROP TABLE types", "CREATE TABLE t (a INT)"):
            with self.subTest(sql=sql):
                with self.assertRaises(pyodbc.Error) as cm:
                    cnxn.execute(sql)
                self.assertEqual(cm.exception.args[0], "42000")
                self.assertIn("read-only", cm.exception.args[1])
        cnxn.close()

    def test_bad_files(self):
        for path in ("/nonexistent/x.dbf", os.path.join(CORPUS, "README.md")):
            with self.subTest(path=path):
                with self.assertRaises(pyodbc.Error) as cm:
                    pyodbc.connect("Driver={Lector};Database=%s" % path)
                self.assertEqual(cm.exception.args[0], "08001")
                self.assertIn(path, cm.exception.args[1])

    def test_corrupt_corpus_file(self):
        # A dBASE file the oracle could not read: a clear error naming it.
        bad = [r for r in manifest("dbf") if r["csv"] == "-"]
        self.assertTrue(bad)
        path = os.path.join(CORPUS, "dbf", bad[0]["file"])
        with self.assertRaises(pyodbc.Error) as cm:
            cnxn = pyodbc.connect("Driver={Lector};Database=%s" % path, autocommit=True)
            cnxn.execute("SELECT * FROM %s" % quote(table_name(bad[0]["file"], "-"))).fetchall()
        self.assertIn(os.path.basename(path), cm.exception.args[1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
