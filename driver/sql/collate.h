/*
** collate.h — text comparison as the source's own engine does it
** (lt_source.dialect, readers/reader.h).
**
** Standard and SQLite sources compare text by its bytes (SQLite's BINARY
** collation); LIKE ignores the case of ASCII letters in all dialects, as
** SQLite's LIKE does.  Access compares text without regard to case
** everywhere: =, <, IN, BETWEEN, CASE, NULLIF, ORDER BY, MIN/MAX (its
** default collation is case-insensitive), and its LIKE also takes the
** wildcards * ? # and [...] character lists.  Case folding covers ASCII,
** Latin-1, Latin Extended-A, Greek and Cyrillic (the letters UCASE/LCASE
** map, func_string.c).
*/
#ifndef SQL_COLLATE_H
#define SQL_COLLATE_H

#include "exec.h"

/* Does this execution compare text without regard to case (Access)? */
static inline bool sql_text_nocase(const sql_exec *ex)
{
    return ex != NULL && ex->q != NULL && ex->q->src != NULL &&
           ex->q->src->dialect == LT_DIALECT_ACCESS;
}

/* Is the source SQLite (dynamically typed columns compare as SQLite
** compares them)? */
static inline bool sql_dialect_sqlite(const sql_exec *ex)
{
    return ex != NULL && ex->q != NULL && ex->q->src != NULL &&
           ex->q->src->dialect == LT_DIALECT_SQLITE;
}

/* func_string.c: the code point at s[i] (a malformed sequence reads as
** its first byte) and how many bytes it takes; the lower-case letter of c. */
uint32_t sql_utf8_char(const char *s, uint32_t len, uint32_t i, uint32_t *bytes);
uint32_t sql_char_lower(uint32_t c);
/* c as UTF-8 into out (room for 4 bytes); returns the bytes written. */
uint32_t sql_utf8_put(uint32_t c, char *out);

/* compare.c: text ordered by case-folded code points (-1, 0, 1). */
int sql_text_compare_nocase(lt_bytes a, lt_bytes b);
/* sql_compare_vectors, with TEXT against TEXT compared case-insensitively
** when `nocase`. */
void sql_compare_vectors_coll(const lt_vector *a, const lt_vector *b, const uint32_t *sel,
                              uint32_t n, int8_t *cmp, uint8_t *null, bool nocase);
/* sql_compare_cells, the same way. */
int sql_compare_cells_coll(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb,
                           bool nocase);

/* SQLite: after comparing operands a and b (a comparison's sides, IN's
** left side and an item, BETWEEN's and a bound) into cmp/null from their
** vectors l and r, redo the rows where an operand is a column whose row
** holds a value of another type than the column (reader.h tags): instead
** of NULL (the value read as the column's type), SQLite's order: numbers
** by value, then text, then blobs ('abc' in an INTEGER column is greater
** than every number, 2.5 compares as 2.5). */
void sql_compare_dynamic(const sql_expr *a, const sql_expr *b, const lt_batch *in,
                         const lt_vector *l,
                         const lt_vector *r, const uint32_t *sel, uint32_t n, int8_t *cmp,
                         uint8_t *null);

/* For GROUP BY and DISTINCT: rows sel[0..n) of a TEXT vector lower-cased
** into `out` (its nulls shared with `in`, its text cells in `cells`, room
** for LT_BATCH_ROWS, the bytes in `arena`); any other vector, or one with
** dynamically typed rows, is copied as it is.  -1 when out of memory. */
int sql_fold_text_vector(const lt_vector *in, const uint32_t *sel, uint32_t n, lt_vector *out,
                         lt_bytes *cells, lt_arena *arena);

/* like.c: Access's LIKE: * or % any run, ? or _ one character, # one
** digit, [abc] [a-z] one of the characters, [!abc] one not among them
** (an unclosed [ is itself); letters match either case.  1 match, 0 no
** match, -1 a pattern ending in the escape. */
int sql_like_access(const char *s, size_t slen, const char *p, size_t plen,
                    const char *esc, size_t esc_len);

#endif /* SQL_COLLATE_H */
