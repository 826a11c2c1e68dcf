#!/usr/bin/env bash
# test-windows.sh [BUILD_DIR] [--all] — build lectorodbc.dll with mingw-w64
# (scripts/build-windows.sh) and read corpus tables through it under Wine:
# wintest.exe loads the DLL itself (Wine's odbc32 would hand the connection
# to the host's unixODBC) and prints each table as CSV, which
# packaging/windows/run_corpus.py compares with the oracle.  Default: the 25
# tables of packaging/windows/sample.tsv (five per format); --all: every
# readable table.  Then the tables of packaging/windows/ansi.tsv as an ANSI
# application reads them, in the code page of a locale.  Wine (Debian's wine64) is installed if missing; its
# prefix lives in BUILD_DIR/wineprefix, so ~/.wine is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=build-win ALL=
for a in "$@"; do
  case $a in --all) ALL=--all ;; *) BUILD=$a ;; esac
done
scripts/build-windows.sh "$BUILD"
WINE=/usr/lib/wine/wine64
if [ ! -x "$WINE" ]; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wine64
fi
BUILD_ABS=$(cd "$BUILD" && pwd)
export WINE WINEPREFIX="$BUILD_ABS/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export LC_ALL=C.UTF-8   # Wine reads the command line's file and sheet names as UTF-8
echo "== windows: Wine prefix"
mkdir -p "$WINEPREFIX"
# One persistent server for every run, not one per run (exit 2: one runs).
/usr/lib/wine/wineserver -p || [ $? -eq 2 ]
trap '/usr/lib/wine/wineserver -k 2>/dev/null || true' EXIT
"$WINE" wineboot --init >/dev/null 2>&1 || true
echo "== windows: corpus through lectorodbc.dll under Wine"
python3 packaging/windows/run_corpus.py "$BUILD_ABS" "$(cd .. && pwd)/shared/corpus" $ALL
echo "== windows: an ANSI application in code pages 1252, 1251 and 936"
# SQLDriverConnect/SQLExecDirect/SQLDescribeCol/SQL_C_CHAR through the ANSI
# code page, which Wine takes from the locale each row of ansi.tsv names.
python3 packaging/windows/run_corpus.py "$BUILD_ABS" "$(cd .. && pwd)/shared/corpus" --ansi

echo "== windows: lector.reg, ConfigDSN and a DSN read through odbccp32"
# The installer recipe of the README: the DLL in C:\Program Files\Lector,
# lector.reg imported; ConfigDSN (as odbcconf calls it) adds a data source,
# and a connection by DSN reads it back from the registry.
LECTOR_DIR="$WINEPREFIX/drive_c/Program Files/Lector"
mkdir -p "$LECTOR_DIR"
cp "$BUILD_ABS/lectorodbc.dll" "$LECTOR_DIR/"
"$WINE" regedit /S "Z:$(pwd | tr / '\\')\\packaging\\windows\\lector.reg"
DLL='C:\Program Files\Lector\lectorodbc.dll'
CORPUS_WIN="Z:$(cd .. && pwd | tr / '\\')\\shared\\corpus"
out="$BUILD_ABS/dsn-test.csv"
ok=1
"$WINE" reg query 'HKLM\SOFTWARE\ODBC\ODBCINST.INI\Lector' /v Driver 2>/dev/null | grep -q 'lectorodbc.dll' || ok=0
"$WINE" "$BUILD_ABS/wintest.exe" --add-dsn "$DLL" "DSN=LectorWineTest;Database=$CORPUS_WIN\\xls\\calamine_date.xls;HDR=No" || ok=0
"$WINE" "$BUILD_ABS/wintest.exe" "$DLL" "DSN=LectorWineTest" 'SELECT * FROM "Sheet1$"' > "$out" || ok=0
python3 packaging/tests/compare_output.py csv "$out" ../shared/corpus/xls/csv/calamine_date.s1.csv || ok=0
if [ "$ok" = 1 ]; then echo "windows registry: 1 passed, 0 failed"; else echo "windows registry: 0 passed, 1 failed"; exit 1; fi
