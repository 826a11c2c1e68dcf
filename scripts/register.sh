#!/usr/bin/env bash
# register.sh [BUILD_DIR] [--system] — register the Lector driver and the
# LectorDemo DSN.
#
# Default: a private configuration in $BUILD/odbc (odbcinst.ini + odbc.ini);
# use it with `export ODBCSYSINI=$PWD/$BUILD/odbc` (unixODBC) or
# ODBCINSTINI/ODBCINI (iODBC).  --system registers in /etc with odbcinst.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
SYSTEM=${2:-}
LIB="$PWD/$BUILD/liblectorodbc.so"
LIB_IODBC="$PWD/$BUILD/liblectorodbc-iodbc.so"
DEMO="$PWD/examples/demo.dbf"
test -f "$LIB" || { echo "register.sh: $LIB not built" >&2; exit 1; }

driver_ini() {
  sed -e "s|@DRIVER@|$LIB|" -e "s|@DRIVER_IODBC@|$LIB_IODBC|" odbcinst/odbcinst.ini.in
}
dsn_ini() {
  sed -e "s|@DATABASE@|$DEMO|" odbcinst/odbc.ini.in
}

if [ "$SYSTEM" = "--system" ]; then
  driver_ini > "$BUILD/odbcinst.tmp" && odbcinst -i -d -f "$BUILD/odbcinst.tmp"
  dsn_ini > "$BUILD/odbc.tmp" && odbcinst -i -s -l -f "$BUILD/odbc.tmp"
  rm -f "$BUILD/odbcinst.tmp" "$BUILD/odbc.tmp"
  echo "registered Lector in $(odbcinst -j | awk -F': ' '/DRIVERS/ {print $2}')"
else
  mkdir -p "$BUILD/odbc"
  driver_ini > "$BUILD/odbc/odbcinst.ini"
  dsn_ini > "$BUILD/odbc/odbc.ini"
  echo "registered Lector privately: export ODBCSYSINI=$PWD/$BUILD/odbc"
fi
