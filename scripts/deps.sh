#!/usr/bin/env bash
# deps.sh — install what Lector builds and tests with (Debian 12), and unpack
# iODBC's headers into the build tree.
#
# unixodbc-dev and libiodbc2-dev conflict as Debian packages, so iODBC's
# headers are fetched with `apt-get download` and unpacked with `dpkg -x`
# into $BUILD/deps/iodbc, leaving unixODBC's headers installed.
set -euo pipefail
BUILD=${1:-build}
PACKAGES=(cmake make gcc clang libclang-rt-14-dev python3 valgrind
          unixodbc unixodbc-dev odbcinst libcmocka-dev iodbc libiodbc2
          mdbtools sqlite3 libsqlite3-dev libssl-dev zlib1g-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

mkdir -p "$BUILD/deps"
if [ ! -f "$BUILD/deps/iodbc/usr/include/iodbc/sql.h" ]; then
  ( cd "$BUILD/deps" && rm -f libiodbc2-dev_*.deb && apt-get download libiodbc2-dev 2>/dev/null &&
    dpkg -x libiodbc2-dev_*.deb iodbc )
fi
test -f "$BUILD/deps/iodbc/usr/include/iodbc/sql.h" || { echo "deps.sh: iODBC headers missing" >&2; exit 1; }
