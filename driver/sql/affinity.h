/*
** affinity.h — SQLite's comparison affinity (affinity.c), for SQLite
** sources: the affinity of a declared type, the pair rule, and the
** row-by-row comparison of operands that mix numbers and text.
*/
#ifndef SQL_AFFINITY_H
#define SQL_AFFINITY_H

#include "exec.h"

/* The affinity of a column declared with type name `type` (SQL_AFF_BLOB
** for none), by sqlite3AffinityType's rule (common/sqlite_rules.h; its
** INTEGER and REAL are SQL_AFF_NUMERIC here). */
uint8_t sql_affinity_of_declared(const char *type);
/* The affinity CAST(x AS t) gives, t of engine type `type`. */
uint8_t sql_affinity_of_type(lt_type type);
/* The affinity a comparison of operands with affinities x and y applies
** to both (sqlite3CompareAffinity); SQL_AFF_NONE and SQL_AFF_BLOB change
** nothing. */
uint8_t sql_affinity_pair(uint8_t x, uint8_t y);
/* Is text s[0..len) a number by SQLite's numeric affinity (blanks around
** it allowed, nothing else; lt_sqlite_text_number)?  Then *out is that
** INT64 or DOUBLE. */
bool sql_sqlite_text_number(const char *s, uint32_t len, lt_value *out);

/* A number (BOOL, INT64, DOUBLE, DECIMAL) as SQLite writes it as text:
** integers in full, reals as printf's "%!.15g" (always with a point: 2.0,
** 1.0e+20; lt_sqlite_real_text); the length written into buf (room for
** `cap`, at least 64); 0 (no text) for NaN. */
uint32_t sql_sqlite_number_text(const lt_value *v, char *buf, size_t cap);

/* Compare operands a and b (their vectors l and r; a column's tagged rows
** are read from `in` as they are) of rows sel[0..n) into cmp/null, with
** affinity `aff` applied to both values, then by storage class: numbers by
** value < text by bytes < blobs. */
void sql_compare_affinity(const sql_expr *a, const sql_expr *b, uint8_t aff,
                          const lt_batch *in, const lt_vector *l, const lt_vector *r,
                          const uint32_t *sel, uint32_t n, int8_t *cmp, uint8_t *null);

/* x IN (SELECT ...): rows sel[0..n) of operand e (its vector v; a
** column's tagged rows read from `in`; e NULL: v as it is) with affinity
** `aff` applied, each as a key — TEXT that equals another key exactly
** when SQLite finds the two values equal — into out (a TEXT vector with
** room for every row number), the bytes in `arena`.  -1: out of memory. */
int sql_affinity_keys(const sql_expr *e, const lt_batch *in, const lt_vector *v, uint8_t aff,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_arena *arena);

/* compare.c: two non-NULL values of any types, mixed kinds ordered
** numbers < dates < text < binary (SQLite's storage classes). */
int sql_compare_values(const lt_value *a, const lt_value *b);

#endif /* SQL_AFFINITY_H */
