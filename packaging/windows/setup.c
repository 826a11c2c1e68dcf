/*
** setup.c — ConfigDSN, the driver-setup entry point of lectorodbc.dll.
**
** The Windows ODBC installer (odbccp32: SQLConfigDataSource, odbcconf.exe,
** the ODBC Data Source Administrator) calls the DLL named by "Setup" in the
** driver's registry key to add, change or remove a data source.  Lector has
** no dialog: the data source is written from the attribute list it is given
** ("DSN=name\0Database=C:\\data\\file.xlsb\0HDR=No\0\0"), and a request
** without DSN and Database fails with a message saying how to make one.
** Windows only; not part of the Linux drivers.
*/
#include <windows.h>
#include <sql.h>
#include <sqlext.h>
#include <odbcinst.h>

#include <string.h>
#include <strings.h>

/* The value of `key` in the attribute list, copied into buf; 0 if absent. */
static int attribute(LPCSTR attrs, const char *key, char *buf, size_t size)
{
    size_t klen = strlen(key);
    for (const char *a = attrs; a != NULL && *a != '\0'; a += strlen(a) + 1) {
        if (strncasecmp(a, key, klen) == 0 && a[klen] == '=') {
            size_t vlen = strlen(a + klen + 1);
            if (vlen >= size)
                return 0;
            memcpy(buf, a + klen + 1, vlen + 1);
            return 1;
        }
    }
    return 0;
}

static BOOL fail(const char *message)
{
    SQLPostInstallerError(ODBC_ERROR_REQUEST_FAILED, message);
    return FALSE;
}

BOOL WINAPI ConfigDSN(HWND parent, WORD request, LPCSTR driver, LPCSTR attrs)
{
    (void)parent;
    char dsn[SQL_MAX_DSN_LENGTH + 1], value[1024];
    if (!attribute(attrs, "DSN", dsn, sizeof dsn) || dsn[0] == '\0')
        return fail("Lector has no setup dialog: give the data source as "
                    "DSN=name;Database=path (odbcconf /a {CONFIGSYSDSN \"Lector\" "
                    "\"DSN=name|Database=C:\\data\\file.xlsb\"}) or import lector-dsn.reg");
    if (request == ODBC_REMOVE_DSN)
        return SQLRemoveDSNFromIni(dsn) ? TRUE : fail("cannot remove the data source");
    if (request != ODBC_ADD_DSN && request != ODBC_CONFIG_DSN)
        return fail("unknown ConfigDSN request");
    if (request == ODBC_ADD_DSN && !attribute(attrs, "Database", value, sizeof value) &&
        !attribute(attrs, "DBQ", value, sizeof value))
        return fail("a Lector data source needs Database=path (a data file or a folder of .dbf files)");
    if (!SQLWriteDSNToIni(dsn, driver))
        return fail("cannot write the data source");
    /* Every other keyword becomes a value of the data source's section. */
    for (const char *a = attrs; *a != '\0'; a += strlen(a) + 1) {
        const char *eq = strchr(a, '=');
        if (eq == NULL || eq == a || (size_t)(eq - a) >= 128 || strncasecmp(a, "DSN=", 4) == 0)
            continue;
        char key[128];
        memcpy(key, a, (size_t)(eq - a));
        key[eq - a] = '\0';
        if (!SQLWritePrivateProfileString(dsn, key, eq + 1, "ODBC.INI"))
            return fail("cannot write a keyword of the data source");
    }
    return TRUE;
}
