# packaging/cpack.cmake — install rules and the Debian package (CPack DEB).
#
# `cmake --install build --prefix /opt/lector` installs a source build;
# scripts/package.sh configures with CMAKE_INSTALL_PREFIX=/usr so that
# GNUInstallDirs picks Debian's multiarch libdir, and CPack packs the same
# rules into lector_<version>_<arch>.deb.  The drivers go where Debian's ODBC
# drivers live (<libdir>/odbc, as libsqliteodbc does); the maintainer scripts
# in packaging/debian register them in /etc/odbcinst.ini with usage counts.
include(GNUInstallDirs)

set(LECTOR_ODBC_DIR "${CMAKE_INSTALL_LIBDIR}/odbc" CACHE STRING
    "Where the driver .so files are installed, relative to the prefix")
set(LECTOR_SHARE_DIR "${CMAKE_INSTALL_DATADIR}/lector")

install(TARGETS lectorodbc lectorodbc-iodbc
        LIBRARY DESTINATION "${LECTOR_ODBC_DIR}" COMPONENT driver)
install(PROGRAMS odbcinst/lector-dsn DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT driver)
install(FILES odbcinst/dsn-template.ini examples/demo.dbf
        DESTINATION "${LECTOR_SHARE_DIR}" COMPONENT driver)
install(FILES packaging/README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT driver)

# The driver template (odbcinst/odbcinst.ini.in, shared with
# scripts/register.sh) names the .so files by absolute path, which is known
# only at install time (--prefix, or /usr for the package): write it then.
install(CODE "
  set(LECTOR_LIB \"\${CMAKE_INSTALL_PREFIX}/${LECTOR_ODBC_DIR}\")
  set(DRIVER \"\${LECTOR_LIB}/liblectorodbc.so\")
  set(DRIVER_IODBC \"\${LECTOR_LIB}/liblectorodbc-iodbc.so\")
  configure_file(\"${CMAKE_SOURCE_DIR}/odbcinst/odbcinst.ini.in\"
                 \"${CMAKE_BINARY_DIR}/lector.ini.install\" @ONLY)
  file(INSTALL \"${CMAKE_BINARY_DIR}/lector.ini.install\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${LECTOR_SHARE_DIR}\"
       RENAME lector.ini)
" COMPONENT driver)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "lector")
set(CPACK_PACKAGE_VENDOR "Lector")
set(CPACK_PACKAGE_CONTACT "Lector developers <lector@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "read-only ODBC driver for dBASE, SQLite, Excel and Access files")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Lector reads .dbf, SQLite 3, .xls, .xlsb, .mdb and .accdb files itself,
with no vendor library, and answers SQL over ODBC 3.x. Both flavours are
installed and registered in /etc/odbcinst.ini: Lector for unixODBC and
Lector-iODBC for iODBC. lector-dsn adds a data source for a file.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), odbcinst, libodbcinst2 | odbcinst1debian2, libodbc2 | libodbc1, zlib1g")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "unixodbc, libssl3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libiodbc2, iodbc")
set(CPACK_DEBIAN_PACKAGE_ENHANCES "unixodbc, libiodbc2")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${CMAKE_SOURCE_DIR}/packaging/debian/postinst;${CMAKE_SOURCE_DIR}/packaging/debian/prerm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
# DESTDIR staging keeps CMAKE_INSTALL_PREFIX the real one (/usr) while the
# install code above runs, so the template names the installed paths.
set(CPACK_SET_DESTDIR ON)
include(CPack)
