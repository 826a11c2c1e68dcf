#!/usr/bin/python3
"""pyodbc's own read-only Excel tests (upstream tests/old/exceltests.py,
formerly tests2/ and tests3/exceltests.py) adapted to Lector.

Upstream connects to "Microsoft Excel Driver (*.xls)" with DBQ= on its
test.xls; here the workbook is written by make_excel_fixture.py (same
sheets, same named range) and opened with Lector's DBQ= keyword.  The
upstream checks are kept as they are; where upstream only tolerated a
failure (dropping tables in setUp) Lector's read-only answer is asserted.
Environment: LECTOR_CLIENTS_WORK (a writable folder), the private ODBC
configuration exported by run.sh (driver name Lector).
"""
import os
import subprocess
import sys
import unittest

import pyodbc

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("LECTOR_CLIENTS_WORK", "/tmp")
FILENAME = os.path.join(WORK, "pyodbc-test.xls")
CNXNSTRING = "Driver={Lector};DBQ=%s;READONLY=FALSE" % FILENAME


def setUpModule():
    subprocess.run([sys.executable, os.path.join(HERE, "make_excel_fixture.py"), FILENAME], check=True)


class ExcelTestCase(unittest.TestCase):

    def setUp(self):
        # READONLY=FALSE is the Excel driver's keyword; Lector takes it as an
        # unknown reader option and stays read-only.
        self.cnxn = pyodbc.connect(CNXNSTRING, autocommit=True)
        self.cursor = self.cnxn.cursor()
        for i in range(3):
            # Upstream ignores the outcome; Lector refuses every write.
            with self.assertRaises(pyodbc.Error):
                self.cursor.execute("drop table t%d" % i)
        self.cnxn.rollback()

    def tearDown(self):
        self.cursor.close()
        self.cnxn.close()

    def test_getinfo_string(self):
        value = self.cnxn.getinfo(pyodbc.SQL_CATALOG_NAME_SEPARATOR)
        self.assertTrue(isinstance(value, str))

    def test_getinfo_bool(self):
        value = self.cnxn.getinfo(pyodbc.SQL_ACCESSIBLE_TABLES)
        self.assertTrue(isinstance(value, bool))

    def test_getinfo_int(self):
        value = self.cnxn.getinfo(pyodbc.SQL_DEFAULT_TXN_ISOLATION)
        self.assertTrue(isinstance(value, int))

    def test_getinfo_smallint(self):
        value = self.cnxn.getinfo(pyodbc.SQL_CONCAT_NULL_BEHAVIOR)
        self.assertTrue(isinstance(value, int))

    def test_read_sheet(self):
        # Worksheets by name, as [name$]: Sheet2 holds 10, 20, 30 ...
        rows = self.cursor.execute("select * from [Sheet2$]").fetchall()
        self.assertEqual(len(rows), 5)
        for index, row in enumerate(rows):
            self.assertEqual(row.s2num, float(index + 1) * 10)

    def test_read_range(self):
        # A named range as a table: Table1 holds 1, 2, 3 ... and 'a', 'b' ...
        rows = self.cursor.execute("select * from Table1").fetchall()
        self.assertEqual(len(rows), 10)
        for index, row in enumerate(rows):
            self.assertEqual(row.num, float(index + 1))
            self.assertEqual(row.val, chr(ord('a') + index))

    def test_tables(self):
        tables = [row.table_name for row in self.cursor.tables()]
        assert 'Sheet2$' in tables, 'tables: %s' % ' '.join(tables)
        # Lector's addition: the named range is listed too.
        self.assertIn('Table1', tables)

    def test_append_refused(self):
        # Upstream's commented-out test_append: the Excel driver can append
        # rows; Lector is read-only and says so.
        with self.assertRaises(pyodbc.Error) as cm:
            self.cursor.execute("insert into [Sheet2$](s2num, s2val) values (?, 'z')", 60)
        self.assertIn(cm.exception.args[0], ("HY000", "42000", "25000", "HYC00"))
        rows = self.cursor.execute("select s2num from [Sheet2$] where s2num = ?", 60).fetchall()
        self.assertEqual(rows, [])


if __name__ == '__main__':
    unittest.main(verbosity=2)
