/*
** sqlite_rules.h — SQLite's value rules, shared by the SQLite reader
** (readers/sqlite) and the engine's SQLite dialect (driver/sql/affinity.c):
** the affinity of a declared type, a REAL as SQLite writes it as text and
** text that SQLite reads as a number.  One copy, so a file read by the
** reader and a comparison made by the engine follow the same rule.
**
** Everything here is locale-independent and allocates nothing.
*/
#ifndef LT_SQLITE_RULES_H
#define LT_SQLITE_RULES_H

#include <stddef.h>
#include <stdint.h>

/* A column's affinity (https://www.sqlite.org/datatype3.html 3.1). */
enum {
    LT_SQLITE_AFF_BLOB = 0,
    LT_SQLITE_AFF_TEXT,
    LT_SQLITE_AFF_NUMERIC,
    LT_SQLITE_AFF_INTEGER,
    LT_SQLITE_AFF_REAL
};

/* The affinity of declared type name type[0..len) (sqlite3AffinityType);
** no name (NULL or len 0) is BLOB. */
uint8_t lt_sqlite_affinity(const char *type, size_t len);

/* Room lt_sqlite_real_text needs, terminating NUL included. */
#define LT_SQLITE_REAL_TEXT_MAX 32

/* REAL r as SQLite writes it as text ("%!.15g": 2.0, 1.0e+20, 0.1), with
** '.' whatever LC_NUMERIC says; NaN as "NaN", infinities as "Inf" and
** "-Inf".  Returns the length written into dst (NUL-terminated); 0 when
** cap is below LT_SQLITE_REAL_TEXT_MAX. */
size_t lt_sqlite_real_text(double r, char *dst, size_t cap);

/* Is text s[0..n) wholly a number as sqlite3AtoF reads one (blanks around
** it allowed, nothing else)?  0: no; 1: an integer that fits int64 (*i);
** 2: a real (*r). */
int lt_sqlite_text_number(const char *s, size_t n, int64_t *i, double *r);

#endif /* LT_SQLITE_RULES_H */
