#!/usr/bin/env bash
# test.sh — the README's second command and what CI runs: build, then the
# whole test suite three times: a normal build (unit + end-to-end through
# unixODBC and iODBC), an ASan+UBSan build, and the threaded tests under
# ThreadSanitizer; then the benchmark's parity smoke test, every fuzzer for
# a short while, the Debian package installed and used, and the Windows DLL
# under Wine.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)

run_suite() {  # build-dir label [ctest args] -- [cmake options]
  local dir=$1 label=$2; shift 2
  local ctest_args=() cmake_args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do ctest_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  cmake_args=("$@")
  echo "== $label: build ($dir)"
  scripts/build.sh "$dir" "${cmake_args[@]}"
  echo "== $label: tests"
  ( cd "$dir" && ctest --output-on-failure -j"$JOBS" "${ctest_args[@]}" )
}

run_suite build "default"
echo "== clients: pyodbc, pyodbc's Excel tests, Power Query's ODBC calls, LibreOffice Base"
LECTOR_CLIENTS_FULL=1 tests/clients/run.sh build
run_suite build-asan "ASan+UBSan" -- -DLECTOR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang
run_suite build-tsan "ThreadSanitizer" -L threads -- -DLECTOR_TSAN=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang
echo "== bench: quick parity smoke"
bench/run --quick --build build --no-perf
echo "== fuzz: 60 s per target"
scripts/fuzz.sh 60
echo "== package: .deb built, installed with dpkg, checked with isql/iusql/iodbctest, removed"
scripts/test-package.sh build-pkg
echo "== windows: lectorodbc.dll (mingw-w64) on corpus samples under Wine"
scripts/test-windows.sh build-win
echo "== all suites passed"
