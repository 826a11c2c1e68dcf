#!/usr/bin/env bash
# fuzz.sh [SECONDS] [BUILD_DIR] — build the libFuzzer targets (clang, ASan+UBSan)
# and run each for SECONDS (default 60) on seeds made from the corpus.
# scripts/test.sh runs it briefly; run it longer by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
BUILD=${2:-build-fuzz}
scripts/build.sh "$BUILD" -DLECTOR_FUZZ=ON -DLECTOR_TESTS=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug
CORPUS=$(cd .. && pwd)/shared/corpus
for fuzzer in "$BUILD"/tests/fuzz/fuzz_*; do
  name=$(basename "$fuzzer"); module=${name#fuzz_}
  seeds=$(mktemp -d)
  if [ "$module" = dbf ]; then
    tests/fuzz/make_dbf_seeds.sh "$CORPUS/dbf" "$seeds"   # tables with their memos
  elif [ -d "$CORPUS/$module" ]; then          # a reader: its corpus files
    find "$CORPUS/$module" -type f ! -name '*.csv' ! -name '*.tsv' ! -name '*.md' \
      ! -name '*.py' ! -name '*.js' -size -600k -exec cp {} "$seeds"/ \;
  fi
  echo "== $name: ${SECS}s"
  "$fuzzer" -max_total_time="$SECS" -max_len=600000 -rss_limit_mb=4096 -print_final_stats=1 \
    "$seeds" 2>&1 | tail -3
  rm -rf "$seeds"
done
