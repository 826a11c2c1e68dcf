#!/usr/bin/env bash
# setup.sh — the README's first command: install dependencies, build, register
# the driver and a demo DSN privately, and run a demo query through isql.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
scripts/build.sh "$BUILD"
scripts/register.sh "$BUILD"
export ODBCSYSINI="$PWD/$BUILD/odbc"
echo "SELECT ID, CITY, COUNTRY, POP_K, FOUNDED FROM demo WHERE CAPITAL = TRUE OR POP_K > 500 ORDER BY CITY" |
  isql -b -v LectorDemo
