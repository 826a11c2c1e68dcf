#!/usr/bin/env bash
# build.sh [BUILD_DIR] [cmake options...] — configure and build Lector.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}; shift || true
scripts/deps.sh "$BUILD"
cmake -S . -B "$BUILD" -DLECTOR_IODBC_INCLUDE="$PWD/$BUILD/deps/iodbc/usr/include/iodbc" "$@" >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
