# mingw64.cmake — CMake toolchain file: cross-compile for 64-bit Windows with
# Debian's mingw-w64 (apt-get install gcc-mingw-w64-x86-64-win32
# libz-mingw-w64-dev).  Used by scripts/build-windows.sh.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(LECTOR_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${LECTOR_MINGW}-gcc)
set(CMAKE_RC_COMPILER ${LECTOR_MINGW}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${LECTOR_MINGW})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
