#!/usr/bin/env bash
# build.sh [BUILD_DIR] [cmake options...] — configure and build Lector.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}; shift || true
scripts/deps.sh "$BUILD"
BUILD_ABS=$(cd "$BUILD" && pwd)
cmake -S . -B "$BUILD" -DLECTOR_IODBC_INCLUDE="$BUILD_ABS/deps/iodbc/usr/include/iodbc" "$@" >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
