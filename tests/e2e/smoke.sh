#!/bin/sh
# smoke.sh — run a driver manager's own query tool on one query and check its
# output.  Usage: smoke.sh isql|iodbctest TOOL DSN QUERY EXPECTED-REGEX
# The caller (ctest) sets ODBCSYSINI/ODBCINSTINI/ODBCINI to the private
# configuration, and E2E_TOOL_PRELOAD to the sanitizer runtime in sanitizer
# builds (the tool needs it to load a sanitized driver).
set -u
kind=$1 tool=$2 dsn=$3 query=$4 expect=$5
preload=${E2E_TOOL_PRELOAD:-}
run() {
  if [ -n "$preload" ]; then env LD_PRELOAD="$preload" "$@"; else "$@"; fi
}
case $kind in
  isql)      out=$(printf '%s\n' "$query" | run "$tool" -b -v "$dsn" 2>&1); status=$? ;;
  iodbctest) out=$(printf '%s\nquit\n' "$query" | run "$tool" "DSN=$dsn" 2>&1); status=$? ;;
  *)         echo "smoke.sh: unknown tool kind $kind" >&2; exit 2 ;;
esac
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
  echo "FAIL $kind: exit status $status"
  exit 1
fi
if printf '%s\n' "$out" | grep -q -i -E '\[ISQL\]ERROR|\[iODBC\]|\[Lector\]|error'; then
  echo "FAIL $kind: the output reports an error"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -q -E "$expect"; then
  echo "FAIL $kind: no line matches /$expect/"
  exit 1
fi
echo "ok $kind: a line matches /$expect/"
