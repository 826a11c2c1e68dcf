#!/usr/bin/python3
"""LibreOffice Base through Lector: a headless soffice, its SDBC-ODBC bridge
(sdbc:odbc:DSN) on the private DSNs run.sh writes, listing the tables of
each format's DSN and reading one table of each.  Needs libreoffice-base
and python3-uno.  Usage: libreoffice_base.py (environment from run.sh)."""
import os
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue

# The table read from each DSN run.sh writes, and the oracle's row count.
READ = {"dbf": ("edit", 663), "sqlite": ("Album", 347), "xls": ("Sheet1$", 3),
        "xlsb": ("Sheet1$", 3), "access": ("Table1", 2)}
FORMATS = list(READ)


def connect_office():
    profile = tempfile.mkdtemp(prefix="lector-lo-")
    pipe = "lector_clients_%d" % os.getpid()
    proc = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo",
                             "-env:UserInstallation=file://" + profile,
                             "--accept=pipe,name=%s;urp;" % pipe],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return proc, ctx
        except Exception:
            time.sleep(0.5)
    proc.kill()
    sys.exit("libreoffice: soffice did not answer")


def main():
    proc, ctx = connect_office()
    failed = 0
    try:
        manager = ctx.ServiceManager.createInstanceWithContext("com.sun.star.sdbc.DriverManager", ctx)
        for fmt in FORMATS:
            try:
                info = (PropertyValue("CharSet", 0, "UTF-8", 0),)
                con = manager.getConnectionWithInfo("sdbc:odbc:LectorClients_%s" % fmt, info)
                meta = con.getMetaData().getTables(None, "%", "%", ("TABLE", "VIEW"))
                tables = []
                while meta.next():
                    tables.append(meta.getString(3))
                # Close every result set before its connection: LibreOffice
                # 7.4's ODBC bridge frees a result set's statement handle when
                # the object is released, even after the connection is gone
                # (SQLFreeStmt on a freed handle crashes soffice in libodbc).
                meta.close()
                name, want = READ[fmt]
                assert name in tables, "%s not in %s" % (name, tables)
                quote = con.getMetaData().getIdentifierQuoteString()
                stmt = con.createStatement()
                rs = stmt.executeQuery("SELECT * FROM %s%s%s" % (quote, name, quote))
                ncols = rs.getMetaData().getColumnCount()
                rows = 0
                while rs.next():
                    rows += 1
                    for c in range(1, ncols + 1):
                        rs.getString(c)
                rs.close()
                stmt.close()
                meta = rs = stmt = None
                assert rows == want, "%s: %d rows, the oracle has %d" % (name, rows, want)
                print("libreoffice %s: %d tables, %s: %d rows x %d columns" % (fmt, len(tables), name, rows, ncols))
                con.close()
            except Exception as e:   # report every format, then fail
                failed += 1
                print("libreoffice %s: FAIL %s" % (fmt, e))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print("libreoffice: %d passed, %d failed" % (len(FORMATS) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
