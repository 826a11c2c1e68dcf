#!/usr/bin/env bash
# build-windows.sh [BUILD_DIR] — cross-compile lectorodbc.dll (64-bit Windows)
# and its test client wintest.exe with Debian's mingw-w64 into BUILD_DIR
# (default build-win), then check that packaging/windows/lectorodbc.def
# exports every SQL* function the driver defines.  (No 32-bit build: the
# readers use __int128, which i686 GCC lacks.)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-win}
MINGW=x86_64-w64-mingw32
PACKAGES=(gcc-mingw-w64-x86-64-win32 libz-mingw-w64-dev cmake make)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
cmake -S packaging/windows -B "$BUILD" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/packaging/windows/mingw64.cmake" >/dev/null
cmake --build "$BUILD" -j"$(nproc)"

# The .def is written by hand: a new entry point must be added there too.
defined=$(find "$BUILD" -path '*/driver/*.obj' -exec "$MINGW-nm" -g --defined-only {} + |
          awk '$2 == "T" && $3 ~ /^SQL/ {print $3}' | sort -u)
listed=$(awk '/^EXPORTS/ {on = 1; next} on && $1 ~ /^SQL/ {print $1}' packaging/windows/lectorodbc.def | sort -u)
if [ "$defined" != "$listed" ]; then
  echo "build-windows.sh: packaging/windows/lectorodbc.def does not match the driver's SQL* functions:" >&2
  diff <(echo "$listed") <(echo "$defined") | sed -n 's/^> /  missing from the .def: /p; s/^< /  not defined by the driver: /p' >&2
  exit 1
fi
echo "built $BUILD/lectorodbc.dll ($(echo "$listed" | wc -l) exports) and $BUILD/wintest.exe"
