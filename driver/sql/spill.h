/*
** spill.h — rows on temporary files past the execution's memory budget
** (spill.c): sorted runs merged back (ORDER BY), and rows split by hash
** into partitions read back one by one (hash aggregation, hash joins).
*/
#ifndef LT_SQL_SPILL_H
#define LT_SQL_SPILL_H

#include "exec.h"

#include <stdio.h>

/* The sort's comparison of row ra of columns a with row rb of columns b. */
typedef int (*sql_spill_cmp)(const void *ctx, const lt_vector *a, uint32_t ra,
                             const lt_vector *b, uint32_t rb);

typedef struct sql_spill_run sql_spill_run;

typedef struct sql_spill {
    sql_spill_run *runs;  /* in input order: run i holds rows before run i+1's */
    uint32_t nruns, cap;
    uint32_t ncols;
    lt_type *types;       /* the stored columns' types and scales */
    int16_t *scales;
    uint32_t *heap;       /* runs with rows left, the next to return first */
    uint32_t heap_n;
    sql_spill_cmp cmp;
    const void *ctx;
    sql_budget *budget;
    const char *what;
    uint64_t held;        /* the merge's buffers, taken from budget */
} sql_spill;

/* Write stored rows perm[0..n) of rs, in that order, as a new run. */
int sql_spill_write(sql_spill *sp, const sql_rowstore *rs, const uint32_t *perm, uint32_t n,
                    lt_error *err);
/* Start merging the runs (buffers taken from b for `what`). */
int sql_spill_merge_begin(sql_spill *sp, sql_spill_cmp cmp, const void *ctx, sql_budget *b,
                          const char *what, lt_error *err);
/* Free *out, then fill it (budgeted like the sort's store) with the next
** rows in order, at most max; out->count == 0 at the end. */
int sql_spill_merge_next(sql_spill *sp, sql_rowstore *out, uint32_t max, lt_error *err);
void sql_spill_free(sql_spill *sp);

/* Partitions: rows of ncols columns split by a hash of their key into
** SQL_SPILL_FANOUT temporary files; a partition still too big is split
** again one level deeper (other bits of the hash), at most
** SQL_SPILL_DEPTH levels. */
#define SQL_SPILL_FANOUT 16
#define SQL_SPILL_DEPTH 4

typedef struct sql_spill_parts {
    uint32_t ncols;
    uint32_t depth;       /* 0: the first split */
    lt_type *types;       /* the columns' types and scales */
    int16_t *scales;
    const char *purpose;  /* "GROUP BY", "a join": for I/O error messages */
    FILE *files[SQL_SPILL_FANOUT]; /* NULL until a row goes there */
    uint64_t rows[SQL_SPILL_FANOUT];
} sql_spill_parts;

/* The partition (< SQL_SPILL_FANOUT) of a row whose key hashes to `hash`
** at split depth `depth`. */
uint32_t sql_spill_part_of(uint64_t hash, uint32_t depth);
/* Partitions of rows shaped like cols[0..ncols). */
int sql_spill_parts_init(sql_spill_parts *p, const lt_vector *cols, uint32_t ncols,
                         uint32_t depth, const char *purpose, lt_error *err);
/* Append row `row` of cols (shaped as at init) to partition `part`. */
int sql_spill_parts_put(sql_spill_parts *p, uint32_t part, const lt_vector *cols, uint32_t row,
                        lt_error *err);
/* *out: partition `part`'s file, rewound, now the caller's (NULL when no
** row went there). */
int sql_spill_parts_take(sql_spill_parts *p, uint32_t part, FILE **out, lt_error *err);
void sql_spill_parts_free(sql_spill_parts *p);

/* Reading a partition back as batches of its columns. */
typedef struct sql_spill_reader sql_spill_reader;
/* Takes `f` (closed by sql_spill_reader_free, even on error; NULL reads as
** no rows). */
int sql_spill_reader_open(sql_spill_reader **out, FILE *f, const sql_spill_parts *shape,
                          lt_error *err);
/* The next rows (*out valid until the next call); count 0 at the end. */
int sql_spill_reader_next(sql_spill_reader *rd, lt_batch **out, lt_error *err);
void sql_spill_reader_free(sql_spill_reader *rd);

/* budget.c: would `bytes` more fit within the budget? */
bool sql_budget_fits(const sql_budget *b, uint64_t bytes);
/* rowstore.c: the bytes sql_rowstore_append(rs, b, row) would take. */
uint64_t sql_rowstore_need(const sql_rowstore *rs, const lt_batch *b, uint32_t row);

#endif
