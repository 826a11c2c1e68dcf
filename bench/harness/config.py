"""config.py — read bench/pairings.ini into plain objects.

The file names formats (fixtures and scales), queries, sides (an ODBC
driver behind a driver manager, or a driverless program) and pairings (side
a against side b on one format).  A format or pairing with `skip = reason` is
kept, with its reason, so the report can say what was not measured and why.
"""

import configparser
from dataclasses import dataclass, field


@dataclass
class Format:
    name: str
    generator: str = ""
    rows: list = field(default_factory=list)
    quick_rows: list = field(default_factory=list)
    skip: str = ""
    wide: str = "same"        # same: bulk_wide in the 1x fixture; separate: its own file


@dataclass
class Query:
    name: str
    sql: str
    table: str
    first_scale_only: bool
    round_trip: bool


@dataclass
class Side:
    name: str
    label: str
    kind: str                 # odbc | program
    manager: str = ""         # unixodbc | iodbc (odbc sides)
    library: str = ""
    dsn: str = ""             # keywords of the DSN, e.g. Database={fixture}
    package: str = ""         # Debian package that provides the library
    command: str = ""         # program sides
    queries: list = None      # program sides: the queries it can run (None: any)
    requires: str = ""        # a program that must be on PATH (e.g. soffice)
    install: str = "always"   # always | full: install `package` on full runs only
    client_args: list = None  # odbc sides: extra client options (e.g. --rowset 1)


@dataclass
class Pairing:
    name: str
    format: str
    a: str
    b: str
    mode: str = "block"
    text: str = "char"
    queries: list = field(default_factory=list)
    target: float = None
    skip: str = ""
    quick: bool = True        # False: full runs only (recorded as skipped in --quick)
    runs: int = 0             # timed runs per side if fewer than the session's (slow sides)


@dataclass
class Config:
    settings: dict
    formats: dict
    queries: dict
    sides: dict
    pairings: list


def _words(s):
    return s.split() if s else []


def load(path):
    cp = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=None)
    cp.optionxform = str
    with open(path, encoding="utf-8") as f:
        cp.read_file(f)
    settings = dict(cp["settings"]) if cp.has_section("settings") else {}
    formats, queries, sides, pairings = {}, {}, {}, []
    for sec in cp.sections():
        kind, _, name = sec.partition(".")
        s = cp[sec]
        if kind == "format":
            formats[name] = Format(name, s.get("generator", ""),
                                   [int(x) for x in _words(s.get("rows"))],
                                   [int(x) for x in _words(s.get("quick_rows"))],
                                   s.get("skip", ""), s.get("wide", "same"))
        elif kind == "query":
            queries[name] = Query(name, s["sql"], s.get("table", "bulk"),
                                  s.get("scales", "all") == "1x",
                                  s.getboolean("round_trip", False))
        elif kind == "side":
            q = s.get("queries")
            sides[name] = Side(name, s.get("label", name), s["kind"],
                               s.get("manager", ""), s.get("library", ""),
                               s.get("dsn", ""), s.get("package", ""),
                               s.get("command", ""), _words(q) if q else None,
                               s.get("requires", ""), s.get("install", "always"),
                               _words(s.get("client_args")))
        elif kind == "pairing":
            t = s.get("target")
            pairings.append(Pairing(name, s["format"], s["a"], s["b"],
                                    s.get("mode", "block"), s.get("text", "char"),
                                    _words(s.get("queries")),
                                    float(t) if t else None, s.get("skip", ""),
                                    s.getboolean("quick", True), s.getint("runs", 0)))
        elif kind != "settings":
            raise SystemExit("%s: unknown section [%s]" % (path, sec))
    for p in pairings:
        if p.format not in formats:
            raise SystemExit("%s: pairing %s names unknown format %s"
                             % (path, p.name, p.format))
        if not formats[p.format].skip and not p.skip:
            for side in (p.a, p.b):
                if side not in sides:
                    raise SystemExit("%s: pairing %s names unknown side %s"
                                     % (path, p.name, side))
            for q in p.queries:
                if q not in queries:
                    raise SystemExit("%s: pairing %s names unknown query %s"
                                     % (path, p.name, q))
    return Config(settings, formats, queries, sides, pairings)
