/*
** error.h — the one error record every layer fills.
**
** A failure carries what the ODBC layer needs for a diagnostic record: the
** SQLSTATE, a native code and a message.  Readers name the file and the
** place (page, record, offset) in the message.
*/
#ifndef LT_ERROR_H
#define LT_ERROR_H

#define LT_ERROR_MESSAGE_MAX 1024

typedef struct lt_error {
    char sqlstate[6];                    /* "HY000", NUL-terminated */
    int native;                          /* 0 unless a source has codes */
    char message[LT_ERROR_MESSAGE_MAX];  /* UTF-8, NUL-terminated */
} lt_error;

/* Fill `err` (if not NULL) and return -1, so callers can write
** `return lt_error_set(err, "HY001", "out of memory");`. */
int lt_error_set(lt_error *err, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void lt_error_clear(lt_error *err);

#endif /* LT_ERROR_H */
