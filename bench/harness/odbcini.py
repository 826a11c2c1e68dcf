"""odbcini.py — the private driver-manager configuration the harness writes.

Every ODBC side of pairings.ini becomes a driver in <out>/odbc/odbcinst.ini
(named after the side) and, for every fixture it is paired on, a DSN in
<out>/odbc/odbc.ini: `<side>-<format>-<rows>`.  The client then connects
with `DSN=...`, so swapping a driver is swapping a DSN.  Nothing outside
<out> is read or written: unixODBC is pointed at the folder with ODBCSYSINI
(and ODBCINI), iODBC at the two files with ODBCINSTINI and ODBCINI.
"""

import os


def dsn_name(side, fmt, rows):
    return "%s-%s-%d" % (side, fmt, rows)


def write(folder, drivers, dsns):
    """drivers: {name: library path}; dsns: {dsn: (driver, {keyword: value})}."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "odbcinst.ini"), "w") as f:
        for name, lib in sorted(drivers.items()):
            f.write("[%s]\nDescription = %s (bench)\nDriver = %s\nThreading = 0\n"
                    "UsageCount = 1\n\n" % (name, name, lib))
    with open(os.path.join(folder, "odbc.ini"), "w") as f:
        f.write("[ODBC Data Sources]\n")
        for dsn, (driver, _) in sorted(dsns.items()):
            f.write("%s = %s\n" % (dsn, driver))
        f.write("\n")
        for dsn, (driver, keywords) in sorted(dsns.items()):
            f.write("[%s]\nDriver = %s\n" % (dsn, driver))
            for k, v in keywords.items():
                f.write("%s = %s\n" % (k, v))
            f.write("\n")


def environment(folder, manager):
    """Environment variables that point `manager` at the private files."""
    env = dict(os.environ)
    for k in ("ODBCSYSINI", "ODBCINSTINI", "ODBCINI"):
        env.pop(k, None)
    ini = os.path.join(folder, "odbc.ini")
    inst = os.path.join(folder, "odbcinst.ini")
    if manager == "iodbc":
        env.update(ODBCINSTINI=inst, ODBCINI=ini)
    else:
        env.update(ODBCSYSINI=folder, ODBCINI=ini)
    return env


def parse_keywords(template, values):
    """'Database={fixture};X=1' → {'Database': '/path', 'X': '1'}."""
    out = {}
    for part in template.split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip().format(**values)
    return out
