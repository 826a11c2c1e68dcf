#!/bin/sh
# check.sh — fails when the driver or its SQL engine can raise an SQLSTATE
# that no test asserts.
#
# Every SQLSTATE literal in driver/sql/*.c must appear, quoted, in
# tests/unit/test_sql_sqlstates.c; every one in driver/*.c must appear,
# quoted, in tests/unit/test_driver_sqlstates.c — unless
# tests/sqlstates/unreachable.txt lists it for that layer with the reason no
# test can reach it.  A listed state that the sources no longer contain is an
# error too, so that list cannot go stale either.
#
# Not counted: the tables of standard texts and ODBC subclass origins in
# driver/diag.c (lines holding nothing but string literals), which name
# states without raising them.
#
# Usage: check.sh <source dir>        (ctest passes CMAKE_SOURCE_DIR)
set -u
root=${1:-$(dirname "$0")/../..}
allow="$root/tests/sqlstates/unreachable.txt"
status=0

# The SQLSTATE literals of the given files, one per line, sorted, unique.
# A state is two class characters (digits, or HY/IM, or a digit and a
# letter such as 3C) and three subclass characters.
states_in() {
    grep -hvE '^[[:space:]]*(\{?"[^"]*"\}?,?[[:space:]]*)+$' "$@" |
        grep -oE '"([0-9]{2}|[0-9][A-Z]|HY|IM)[0-9A-Z]{3}"' | tr -d '"' | sort -u
}

# check <layer> <test file> <source files...>
check() {
    layer=$1
    test_file=$2
    shift 2
    if [ ! -f "$test_file" ]; then
        echo "check.sh: missing $test_file" >&2
        status=1
        return
    fi
    found=$(states_in "$@")
    if [ -z "$found" ]; then
        echo "check.sh: no SQLSTATE found in the $layer sources: is the pattern stale?" >&2
        status=1
        return
    fi
    for s in $found; do
        grep -q "\"$s\"" "$test_file" && continue
        if [ -f "$allow" ] && grep -qE "^$layer[[:space:]]+$s[[:space:]]+[^[:space:]]" "$allow"; then
            continue
        fi
        echo "untested $layer SQLSTATE $s (raised in:" \
            "$(for f in "$@"; do states_in "$f" | grep -qx "$s" && echo "${f#$root/}"; done |
                tr '\n' ' ')) — add a case to" \
            "${test_file#$root/} or list it in tests/sqlstates/unreachable.txt with the reason"
        status=1
    done
    if [ -f "$allow" ]; then
        for s in $(awk -v l="$layer" '$1 == l { print $2 }' "$allow"); do
            if ! echo "$found" | grep -qx "$s"; then
                echo "tests/sqlstates/unreachable.txt lists $layer $s, which the sources no longer raise"
                status=1
            fi
        done
    fi
    echo "$layer: $(echo "$found" | wc -l | tr -d ' ') SQLSTATEs raised, checked against ${test_file#$root/}"
}

check sql "$root/tests/unit/test_sql_sqlstates.c" "$root"/driver/sql/*.c
check driver "$root/tests/unit/test_driver_sqlstates.c" "$root"/driver/*.c
exit $status
