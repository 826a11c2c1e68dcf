#!/usr/bin/env bash
# package.sh [BUILD_DIR] — build the Debian package lector_<version>_<arch>.deb
# with CPack into BUILD_DIR (default build-pkg): an optimised build (stripped)
# under /usr, drivers in /usr/lib/<multiarch>/odbc, registered by its postinst.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-pkg}
scripts/deps.sh "$BUILD"
BUILD_ABS=$(cd "$BUILD" && pwd)
cmake -S . -B "$BUILD" -DLECTOR_IODBC_INCLUDE="$BUILD_ABS/deps/iodbc/usr/include/iodbc" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr -DLECTOR_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target lectorodbc lectorodbc-iodbc
( cd "$BUILD" && cpack -G DEB >/dev/null )
ls "$BUILD_ABS"/lector_*.deb
