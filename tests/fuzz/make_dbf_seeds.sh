#!/bin/sh
# Seeds for fuzz_dbf from the shared corpus: each .dbf as it is, followed
# by "\nLTMEMO", a kind byte and its memo file when it has one.  Writes into
# a scratch folder (never into the repository).
#   tests/fuzz/make_dbf_seeds.sh /work/shared/corpus/dbf /tmp/fuzz-dbf-seeds
set -eu
corpus=${1:?corpus folder}
out=${2:?output folder}
mkdir -p "$out"
n=0
find "$corpus" -type f -iname '*.dbf' | while read -r dbf; do
    n=$((n + 1))
    seed="$out/seed-$n"
    stem=${dbf%.*}
    memo=""
    for ext in fpt FPT dbt DBT; do
        if [ -f "$stem.$ext" ]; then memo="$stem.$ext"; kind=$(echo "$ext" | cut -c1 | tr 'FD' 'fd'); break; fi
    done
    if [ -n "$memo" ]; then
        { cat "$dbf"; printf '\nLTMEMO%s' "$kind"; cat "$memo"; } > "$seed"
    else
        cp "$dbf" "$seed"
    fi
done
ls "$out" | wc -l
