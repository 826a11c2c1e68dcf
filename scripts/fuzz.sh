#!/usr/bin/env bash
# fuzz.sh [SECONDS] [BUILD_DIR] — build the libFuzzer targets (clang, ASan+UBSan)
# and run each for SECONDS (default 60) on seeds made from the corpus.
# scripts/test.sh runs it briefly; run it longer by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
BUILD=${2:-build-fuzz}
scripts/deps.sh "$BUILD"
BUILD_ABS=$(cd "$BUILD" && pwd)
cmake -S . -B "$BUILD" -DLECTOR_IODBC_INCLUDE="$BUILD_ABS/deps/iodbc/usr/include/iodbc" \
  -DLECTOR_FUZZ=ON -DLECTOR_TESTS=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug >/dev/null
# Only the fuzzers: the driver .so cannot link the instrumented libraries.
targets=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)
cmake --build "$BUILD" -j"$(nproc)" --target $targets
CORPUS=$(cd .. && pwd)/shared/corpus
for fuzzer in "$BUILD"/tests/fuzz/fuzz_*; do
  name=$(basename "$fuzzer"); module=${name#fuzz_}
  seeds=$(mktemp -d)
  if [ "$module" = dbf ]; then
    tests/fuzz/make_dbf_seeds.sh "$CORPUS/dbf" "$seeds" >/dev/null  # tables with their memos
  elif [ -d "tests/fuzz/${module}_seeds" ]; then  # hand-written seeds (sql)
    cp "tests/fuzz/${module}_seeds"/* "$seeds"/
  elif [ -d "$CORPUS/$module" ]; then          # a reader: its corpus files
    find "$CORPUS/$module" -type f ! -name '*.csv' ! -name '*.tsv' ! -name '*.md' \
      ! -name '*.py' ! -name '*.js' -size -600k -exec cp {} "$seeds"/ \;
  fi
  echo "== $name: ${SECS}s"
  log=$(mktemp)
  if ! "$fuzzer" -max_total_time="$SECS" -max_len=600000 -rss_limit_mb=4096 "$seeds" >"$log" 2>&1; then
    cat "$log"
    echo "fuzz.sh: $name failed (crash input saved in the current folder)" >&2
    exit 1
  fi
  grep -E "^Done" "$log" || true
  rm -rf "$seeds" "$log"
done
