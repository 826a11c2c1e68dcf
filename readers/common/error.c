/*
** error.c — filling lt_error records.
*/
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int lt_error_set(lt_error *err, const char *sqlstate, const char *fmt, ...)
{
    if (err == NULL)
        return -1;
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    err->native = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

void lt_error_clear(lt_error *err)
{
    if (err == NULL)
        return;
    memset(err->sqlstate, 0, sizeof err->sqlstate);
    err->native = 0;
    err->message[0] = '\0';
}
