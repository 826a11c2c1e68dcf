#!/usr/bin/env bash
# test-package.sh [BUILD_DIR] — build the .deb (scripts/package.sh), install
# it on this machine with dpkg -i, and check it as a user would: the drivers
# are registered in /etc/odbcinst.ini, lector-dsn adds system DSNs for corpus
# files of every format, and isql, iusql (unixODBC) and iodbctest (iODBC)
# print what the oracle CSV says, and so does iodbctestw: iODBC's own
# iodbctest.c (shipped by libiodbc2-dev as an example, which scripts/deps.sh
# unpacks into BUILD_DIR/deps/iodbc) compiled here with -DUNICODE, as iODBC's
# build makes it, since Debian ships no iodbctestw binary.  A reinstall must
# keep the usage count at 1; dpkg -r must unregister both drivers.  Whatever
# happens, the package and the test's DSNs are removed at the end; other
# drivers and DSNs are left alone.  Needs root (dpkg, /etc/odbc.ini).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-pkg}
CORPUS=$(cd .. && pwd)/shared/corpus
COMPARE=$PWD/packaging/tests/compare_output.py
# The system configuration, not a private one a caller may have exported.
unset ODBCSYSINI ODBCINSTINI ODBCINI SYSODBCINSTINI SYSODBCINI
export LC_ALL=C.UTF-8
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo

if dpkg-query -W -f='${Status}' lector 2>/dev/null | grep -q "install ok installed"; then
  echo "test-package.sh: the lector package is already installed; remove it first (dpkg -r lector)" >&2
  exit 1
fi
# dpkg-query answers only for installed packages: iusql/isql and iodbctest.
for p in unixodbc iodbc python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$p"; }
done

echo "== package: build"
scripts/package.sh "$BUILD"
DEB=$(ls "$BUILD"/lector_*.deb | tail -1)

echo "== package: build iodbctestw from libiodbc2-dev's iodbctest.c"
IODBC_DEV=$BUILD/deps/iodbc/usr
IODBCTESTW=$BUILD/iodbctestw
gzip -dc "$IODBC_DEV/share/doc/libiodbc2-dev/examples/iodbctest.c.gz" > "$BUILD/iodbctestw.c" ||
  { echo "test-package.sh: libiodbc2-dev's iodbctest.c.gz is missing from $IODBC_DEV" >&2; exit 1; }
# Debian's libiodbc2 has no libiodbc.so link (that is libiodbc2-dev's, not
# installed): link the runtime's soname itself.
${CC:-cc} -DUNICODE -I"$IODBC_DEV/include/iodbc" -o "$IODBCTESTW" "$BUILD/iodbctestw.c" \
  -l:libiodbc.so.2 -l:libiodbcinst.so.2 ||
  { echo "test-package.sh: iodbctestw does not build" >&2; exit 1; }

# Each case: format, file (relative to the corpus), table, oracle CSV,
# connection keywords for the DSN.  Workbooks are compared as the oracle's
# cell grid (HDR=No, as the corpus's EXPECT.tsv says).
CASES=(
  "dbf|dbf/generated/cpg_1251.dbf|cpg_1251|dbf/csv/generated__cpg_1251.csv|"
  "sqlite|sqlite/realworld/Chinook_Sqlite.sqlite|MediaType|sqlite/csv/realworld/Chinook_Sqlite.sqlite/08_MediaType.csv|"
  "xls|xls/calamine_date.xls|Sheet1\$|xls/csv/calamine_date.s1.csv|HDR=No"
  "xlsb|xlsb/calamine_date.xlsb|Sheet1\$|xlsb/csv/calamine_date.s1.csv|HDR=No"
  "access|access/overflowTestV1997.mdb|Table1|access/csv/overflowTestV1997.Table1.csv|"
)

WORK=$(mktemp -d)
cleanup() {
  for c in "${CASES[@]}"; do
    f=${c%%|*}
    lector-dsn remove --system "LectorPkgTest_$f" >/dev/null 2>&1 || true
    lector-dsn remove --system "LectorPkgTest_${f}_iodbc" >/dev/null 2>&1 || true
  done
  $SUDO dpkg -r lector >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

passed=0 failed=0
check() {  # name command...
  local name=$1; shift
  if "$@" > "$WORK/check.log" 2>&1; then
    passed=$((passed + 1)); echo "ok $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/    /' "$WORK/check.log"
  fi
}
usage_count() {  # driver -> its UsageCount in the system odbcinst.ini
  odbcinst -q -d -n "$1" 2>/dev/null | sed -n 's/^UsageCount=//p'
}

echo "== package: install $DEB"
drivers_before=$(odbcinst -q -d | grep -v -x -e '\[Lector\]' -e '\[Lector-iODBC\]' || true)
if ! $SUDO dpkg -i "$DEB"; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -f -y -qq
fi
check "driver registered (odbcinst -q -d)" sh -c "odbcinst -q -d | grep -x -F '[Lector]' && odbcinst -q -d | grep -x -F '[Lector-iODBC]'"
check "usage count 1 after install" test "$(usage_count Lector)" = 1
check "driver path in /etc/odbcinst.ini" sh -c "odbcinst -q -d -n Lector | grep -x 'Driver=/usr/lib/.*/odbc/liblectorodbc.so' && test -f \"\$(odbcinst -q -d -n Lector | sed -n 's/^Driver=//p')\""

# Reinstalling runs prerm upgrade + postinst configure: the count must stay.
$SUDO dpkg -i "$DEB" >/dev/null
check "usage count still 1 after reinstall" test "$(usage_count Lector)" = 1

for c in "${CASES[@]}"; do
  IFS='|' read -r fmt file table oracle keys <<<"$c"
  dsn=LectorPkgTest_$fmt
  # $keys: none or one KEY=VALUE, so it is left unquoted to vanish when empty.
  # shellcheck disable=SC2086
  $SUDO lector-dsn add --system "$dsn" "$CORPUS/$file" $keys >/dev/null
  # shellcheck disable=SC2086
  $SUDO lector-dsn add --system --iodbc "${dsn}_iodbc" "$CORPUS/$file" $keys >/dev/null
  query="SELECT * FROM \"$table\""
  order=ordered; [ "$fmt" = access ] && order=unordered   # the corpus README: Access compares as a multiset
  printf '%s\n' "$query" | isql -b -c -d'|' "$dsn" > "$WORK/isql.$fmt" 2>&1 || true
  check "isql $fmt" "$COMPARE" isql "$WORK/isql.$fmt" "$CORPUS/$oracle" $order
  # iusql prints each UTF-16 unit as one byte (unixODBC 2.3.11), so it is
  # compared only on oracles that are plain ASCII.
  if LC_ALL=C grep -q -P '[^\x00-\x7F]' "$CORPUS/$oracle"; then
    printf '%s\n' "$query" | iusql -b "$dsn" > "$WORK/iusql.$fmt" 2>&1 || true
    check "iusql $fmt (non-ASCII: runs without error)" sh -c "! grep -q -i -E 'error|\\[ISQL\\]' '$WORK/iusql.$fmt'"
  else
    printf '%s\n' "$query" | iusql -b -c -d'|' "$dsn" > "$WORK/iusql.$fmt" 2>&1 || true
    check "iusql $fmt" "$COMPARE" isql "$WORK/iusql.$fmt" "$CORPUS/$oracle" $order
  fi
  printf '%s\nquit\n' "$query" | iodbctest "DSN=${dsn}_iodbc" > "$WORK/iodbctest.$fmt" 2>&1 || true
  check "iodbctest $fmt" "$COMPARE" iodbctest "$WORK/iodbctest.$fmt" "$CORPUS/$oracle" $order
  # The same through the W calls: SQLExecDirectW, SQLDescribeColW, SQL_C_WCHAR
  # data (4-byte SQLWCHAR), printed in the UTF-8 locale.
  printf '%s\nquit\n' "$query" | "$IODBCTESTW" "DSN=${dsn}_iodbc" > "$WORK/iodbctestw.$fmt" 2>&1 || true
  check "iodbctestw $fmt" "$COMPARE" iodbctest "$WORK/iodbctestw.$fmt" "$CORPUS/$oracle" $order
done
check "isql with a connection string, no DSN" sh -c \
  "echo 'SELECT COUNT(*) FROM demo' | isql -b -k 'Driver=Lector;Database=/usr/share/lector/demo.dbf' | grep -E '^[| ]*[0-9]+[| ]*\$'"
check "lector-dsn list" sh -c "lector-dsn list --system | grep -q '^LectorPkgTest_dbf'"

echo "== package: remove"
for c in "${CASES[@]}"; do
  f=${c%%|*}
  $SUDO lector-dsn remove --system "LectorPkgTest_$f" >/dev/null
  $SUDO lector-dsn remove --system "LectorPkgTest_${f}_iodbc" >/dev/null
done
$SUDO dpkg -r lector >/dev/null
check "drivers unregistered after dpkg -r" sh -c "! odbcinst -q -d | grep -i -E '^\\[Lector'"
drivers_after=$(odbcinst -q -d || true)
check "other drivers untouched" test "$drivers_before" = "$drivers_after"
check "files removed" test ! -e /usr/lib/x86_64-linux-gnu/odbc/liblectorodbc.so -a ! -e /usr/bin/lector-dsn

echo "package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
