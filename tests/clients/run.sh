#!/usr/bin/env bash
# tests/clients/run.sh BUILD_DIR — the client matrix of issue 9: real clients
# (pyodbc, a C program making Power Query's calls, optionally LibreOffice
# Base) talking to the driver built in BUILD_DIR through unixODBC, with a
# private odbcinst.ini/odbc.ini in BUILD_DIR/tests/clients/odbc (never /etc).
#
# Installs python3-pyodbc with apt-get when it is missing.  LibreOffice Base
# (libreoffice-base, python3-uno: large) runs only when it is already
# installed or LECTOR_CLIENTS_FULL=1; LECTOR_CLIENTS_FULL=1 makes its
# absence a failure; LECTOR_CLIENTS_LO=0 skips it.  Exit status: 0 only when every part that ran passed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BUILD=$(cd "${1:?usage: tests/clients/run.sh BUILD_DIR}" && pwd)
CORPUS=${LECTOR_CORPUS_DIR:-$(cd "$REPO/../shared/corpus" 2>/dev/null && pwd)}
FULL=${LECTOR_CLIENTS_FULL:-0}
PY=/usr/bin/python3          # Debian's python, where python3-pyodbc lives
LIB="$BUILD/liblectorodbc.so"
WORK="$BUILD/tests/clients"
ODBC="$WORK/odbc"

die() { echo "clients: $*" >&2; exit 1; }
test -f "$LIB" || die "$LIB not built (cmake --build $BUILD --target lectorodbc)"
test -n "$CORPUS" && test -f "$CORPUS/README.md" || die "corpus not found (set LECTOR_CORPUS_DIR)"

# apt_need PACKAGE CHECK-COMMAND...: install PACKAGE when CHECK fails.
apt_need() {
  local pkg=$1; shift
  "$@" >/dev/null 2>&1 && return 0
  echo "clients: installing $pkg"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$pkg" >"$WORK/apt-$pkg.log" 2>&1 ||
         { apt-get update >/dev/null 2>&1 &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$pkg" >"$WORK/apt-$pkg.log" 2>&1; }; }; then
    tail -5 "$WORK/apt-$pkg.log" >&2
    return 1
  fi
  "$@" >/dev/null 2>&1
}

mkdir -p "$ODBC"
# The private driver-manager configuration: one driver, one DSN per format.
cat >"$ODBC/odbcinst.ini" <<INI
[Lector]
Description = Lector (client matrix)
Driver      = $LIB
Threading   = 0
FileUsage   = 1
INI
{
  echo "[ODBC Data Sources]"
  for f in dbf sqlite xls xlsb access; do echo "LectorClients_$f = Lector"; done
  echo
  dsn() { printf '[LectorClients_%s]\nDriver   = Lector\nDatabase = %s\n%s\n' "$1" "$2" "${3:-}"; }
  dsn dbf    "$CORPUS/dbf/real/GeospatialPython-pyshp/edit.dbf"
  dsn sqlite "$CORPUS/sqlite/realworld/Chinook_Sqlite.sqlite"
  dsn xls    "$CORPUS/xls/calamine_date.xls"   "HDR      = No"
  dsn xlsb   "$CORPUS/xlsb/calamine_date.xlsb" "HDR      = No"
  dsn access "$CORPUS/access/testV1997.mdb"
} >"$ODBC/odbc.ini"
export ODBCSYSINI="$ODBC" ODBCINSTINI=odbcinst.ini ODBCINI="$ODBC/odbc.ini"
export LECTOR_CORPUS_DIR="$CORPUS" LECTOR_CLIENTS_WORK="$WORK"

status=0
fail() { echo "clients: FAILED: $*" >&2; status=1; }

# 1. pyodbc: the typed-fetch tests and pyodbc's own Excel tests, adapted.
if apt_need python3-pyodbc "$PY" -c "import pyodbc"; then
  "$PY" "$HERE/test_pyodbc.py" || fail "pyodbc tests"
  "$PY" "$HERE/test_pyodbc_excel.py" || fail "pyodbc Excel tests"
else
  fail "python3-pyodbc could not be installed"
fi

# 2. Power Query's calls, a C client built here against unixODBC.
CC=${CC:-cc}
if "$CC" -std=c11 -Wall -Wextra -Werror -o "$WORK/powerquery" "$HERE/powerquery.c" -lodbc; then
  "$WORK/powerquery" "$CORPUS" || fail "Power Query calls"
else
  fail "powerquery.c does not build"
fi

# 3. LibreOffice Base: only when installed, or when asked (then installed).
lo_ready() { command -v soffice >/dev/null && "$PY" -c "import uno" 2>/dev/null &&
             dpkg -s libreoffice-base >/dev/null 2>&1; }
if [ "$FULL" = 1 ] && ! lo_ready; then
  apt_need libreoffice-base lo_ready && apt_need python3-uno lo_ready
fi
if [ "${LECTOR_CLIENTS_LO:-1}" = 0 ] && [ "$FULL" != 1 ]; then
  echo "clients: LibreOffice Base test not run (LECTOR_CLIENTS_LO=0)"
elif lo_ready; then
  timeout 600 "$PY" "$HERE/libreoffice_base.py" || fail "LibreOffice Base"
elif [ "$FULL" = 1 ]; then
  fail "LibreOffice Base requested (LECTOR_CLIENTS_FULL=1) but libreoffice-base/python3-uno are not installed"
else
  echo "clients: LibreOffice Base test not run (libreoffice-base, python3-uno not installed; LECTOR_CLIENTS_FULL=1 installs and runs it)"
fi

[ $status = 0 ] && echo "clients: all client tests passed"
exit $status
