/*
** exec.h — the executor: operators that pull batches, and the evaluation
** of expressions over whole vectors.
**
** Operators form a tree; each `next` returns a chunk: a batch and the rows
** of it that are live (a selection vector), so that a filter passes batches
** on without copying.  A chunk stays valid until the next call on the same
** operator.  n == 0 only at the end.
**
** One sql_exec holds the state of one execution of a query: the parameter
** values, per expression node a slot (result vectors, scratch space, the
** constant's converted value), and an arena that everything of the
** execution comes from, freed at once when the cursor closes.  Nothing is
** global, so statements run concurrently in different threads.
*/
#ifndef SQL_EXEC_H
#define SQL_EXEC_H

#include <stdatomic.h>

#include "query.h"

typedef struct sql_chunk {
    lt_batch *batch;
    const uint32_t *sel;  /* live rows, ascending; NULL means 0 .. n-1 */
    uint32_t n;
} sql_chunk;

/* Evaluation state of one expression node. */
typedef struct sql_slot {
    lt_vector out;        /* the node's result (constants: filled once) */
    lt_vector conv;       /* the result converted to the node's `want` */
    uint32_t *sel;        /* scratch selection (AND, OR) */
    int8_t *cmp;          /* comparison results (COMPARE, IN, BETWEEN) */
    uint8_t *cmp_null;
    lt_value cval;        /* constants: the value as the parent reads it */
    lt_vector untag;      /* columns: tagged rows read as the column's type */
    /* IN with a long list of constants of the left side's type: a hash set */
    int in_mode;          /* 0 undecided, 1 hash set, 2 item by item */
    lt_vector in_items;   /* the non-NULL items */
    uint32_t *in_set;     /* item + 1, 0 empty; mask + 1 entries */
    uint32_t in_mask;
    bool in_null;         /* some item is NULL */
    uint32_t *rest;       /* CASE, COALESCE: rows still undecided */
    const lt_vector **args; /* FUNC: the arguments' vectors */
    lt_arena text;        /* text the node makes; reset at each evaluation */
    uint64_t rng;         /* RAND: generator state, 0 until seeded */
    struct sql_subq_state *subq; /* SUBQUERY, EXISTS, IN (SELECT): exec_subquery.c */
} sql_slot;

/* budget.c: the bytes the operators of one execution (and its
** sub-queries) may hold in the rows they keep: MemoryLimit. */
typedef struct sql_budget {
    uint64_t limit;       /* bytes; 0: no limit */
    uint64_t used;
} sql_budget;

typedef struct sql_exec {
    lt_arena arena;
    sql_query *q;
    const lt_value *params;
    const lt_value *outer; /* a correlated subquery's outer values (SQL_E_OUTER) */
    sql_slot *slots;
    uint32_t *identity;   /* 0, 1, ..., LT_BATCH_ROWS - 1 */
    const atomic_int *cancel;
    int64_t now;          /* local time at execute, microseconds (CURRENT_TIMESTAMP) */
    sql_budget *budget;   /* NULL: no limit */
} sql_exec;

/* budget.c */
/* Take `bytes` about to be allocated for `what` ("sort the rows of 'orders'")
** from budget `b` (NULL: no limit), adding them to *held (the caller's
** count, for sql_budget_release; may be NULL).  Past the limit: HY001
** "the query needs more than N MiB to <what> (MemoryLimit=N); ...". */
int sql_budget_take(sql_budget *b, uint64_t bytes, const char *what, uint64_t *held,
                    lt_error *err);
/* HY001 as sql_budget_take words it past the limit, with `why` (may be
** NULL) after what the query was doing: for an operator that spilled and
** still cannot finish within the budget. */
int sql_budget_fail(const sql_budget *b, const char *what, const char *why, lt_error *err);
/* Give back the *held bytes (then 0). */
void sql_budget_release(sql_budget *b, uint64_t *held);
/* "<verb> '<table>'", or with table NULL "<verb> the rows of 'a' joined
** with 'b'" (the query's tables), from the execution's arena. */
const char *sql_budget_what(sql_exec *ex, const char *verb, const char *table);

/* eval.c */
/* Set up the slots of every node and the constants' values (conversions
** of constants fail here: 22018, 22007, 22003). */
int sql_exec_init(sql_exec *ex, sql_query *q, const lt_value *params,
                  const atomic_int *cancel, lt_error *err);
/* The same for a sub-query's execution given its outer values (NULL
** when it reads none). */
int sql_exec_init_outer(sql_exec *ex, sql_query *q, const lt_value *params,
                        const lt_value *outer, const atomic_int *cancel, lt_error *err);
void sql_exec_free(sql_exec *ex);
/* Evaluate `e` for the rows `sel[0..n)` of `in`; the result vector (typed
** as the parent wants it) holds the values at those row positions. */
int sql_eval(sql_exec *ex, const sql_expr *e, const lt_batch *in,
             const uint32_t *sel, uint32_t n, const lt_vector **out,
             lt_error *err);
/* A constant's value as its parent reads it (after sql_exec_init). */
const lt_value *sql_const_value(const sql_exec *ex, const sql_expr *e);
/* A vector of `type` with room for `cap` rows, from the execution arena. */
int sql_vector_alloc(lt_arena *arena, lt_vector *v, lt_type type,
                     int16_t scale, uint32_t cap);
/* HY008 when the cursor was cancelled. */
int sql_check_cancel(const sql_exec *ex, lt_error *err);

/* eval_cond.c: CASE, COALESCE and NULLIF, which evaluate an operand only
** for the rows that still need it. */
/* A dynamically typed result (typing.c's type_dynamic, SQLite sources):
** row `row` of src into the same row of out (TEXT, its tags and other
** allocated) with its own type — text as text, any other value tagged
** (reader.h), its text as SQLite writes it kept in the row's text slot (in
** `text`) for the kernels that read text.  -1: out of memory. */
int sql_put_dynamic(lt_vector *out, const lt_vector *src, uint32_t row, lt_arena *text,
                    lt_error *err);
int sql_eval_case(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                  uint32_t n, lt_vector *out, lt_error *err);
int sql_eval_coalesce(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err);
int sql_eval_nullif(sql_exec *ex, const sql_expr *e, const lt_batch *in, const uint32_t *sel,
                    uint32_t n, lt_vector *out, lt_error *err);

/* cast.c: rows `sel` of `in` converted as CAST does into `out` (text in
** `arena`). */
int sql_cast_vector(const lt_vector *in, const uint32_t *sel, uint32_t n, const sql_type *to,
                    bool pad, lt_vector *out, lt_arena *arena, lt_error *err);

/* convert.c: convert rows `sel` of `in` into `out` (type and scale set). */
int sql_convert_vector(const lt_vector *in, const uint32_t *sel, uint32_t n,
                       lt_vector *out, lt_error *err);
/* One cell as a value (text points into the vector). */
void sql_vector_get(const lt_vector *v, uint32_t row, lt_value *out);
/* Store a value of the vector's type into a cell (text not copied). */
void sql_vector_set(lt_vector *v, uint32_t row, const lt_value *val);
/* Copy cell `from` of `src` to cell `to` of `dst` (same type). */
void sql_vector_copy_cell(lt_vector *dst, uint32_t to, const lt_vector *src,
                          uint32_t from);

/* dst rows sel[i] = src rows sel[i], i < n; same type (LT_NULL src: NULL). */
void sql_vector_copy_rows(lt_vector *dst, const lt_vector *src, const uint32_t *sel, uint32_t n);
/* dst rows 0..n-1 = src rows sel[0..n) (sel NULL: 0..n-1); same type. */
void sql_vector_gather(lt_vector *dst, const lt_vector *src, const uint32_t *sel,
                       uint32_t n);

/* The same for dynamically typed rows (reader.h, lt_vector.tags): carry
** src's tags and other values to dst rows 0..n-1 (dst's buffers come from
** `arena` the first time).  -1 when out of memory. */
int sql_vector_gather_tags(lt_vector *dst, const lt_vector *src, const uint32_t *sel,
                           uint32_t n, lt_arena *arena);
/* Rows sel of a tagged vector with every row of its own type: tagged values
** converted when they convert, else NULL (dst: same type, rows at their
** positions). */
int sql_vector_untag(lt_vector *dst, const lt_vector *src, const uint32_t *sel, uint32_t n);

/* compare.c */
/* For each row of `sel`: null[row] = 1 when either side is NULL, else
** cmp[row] = -1, 0 or 1.  The vectors' types are a pair typing.c allows. */
void sql_compare_vectors(const lt_vector *a, const lt_vector *b,
                         const uint32_t *sel, uint32_t n, int8_t *cmp,
                         uint8_t *null);
bool sql_op_holds(sql_op op, int cmp);
/* Cells of two vectors of the same type, neither NULL; tagged cells (any
** type) order numbers by value, then dates, text, binary. */
int sql_compare_cells(const lt_vector *a, uint32_t ra, const lt_vector *b,
                      uint32_t rb);
/* The same for cells of any two types (join keys: INT64 against DOUBLE
** exactly, DECIMALs of any scale); kinds that do not compare order by
** kind as dynamically typed cells do. */
int sql_compare_any(const lt_vector *a, uint32_t ra, const lt_vector *b, uint32_t rb);
/* NULL equals NULL here (DISTINCT). */
bool sql_equal_cells(const lt_vector *a, uint32_t ra, const lt_vector *b,
                     uint32_t rb);
uint64_t sql_hash_cell(const lt_vector *v, uint32_t row, uint64_t seed);
/* The same over rows sel[0..n): hashes[row] is the seed in, the hash out. */
void sql_hash_vector(const lt_vector *v, const uint32_t *sel, uint32_t n, uint64_t *hashes);
/* An order-preserving prefix of a non-NULL, untagged cell: a < b implies
** prefix(a) <= prefix(b), so sorting compares prefixes first and whole
** values only on ties. */
uint64_t sql_sort_prefix(const lt_vector *v, uint32_t row);

/* like.c: 1 match, 0 no match, -1 a pattern ending in the escape. */
int sql_like(const char *s, size_t slen, const char *p, size_t plen,
             const char *esc, size_t esc_len);

/* rowstore.c: rows copied out of batches that must outlive them (sort,
** distinct).  Text and binary are copied into the store's arena. */
typedef struct sql_rowstore {
    uint32_t ncols;
    lt_vector *cols;
    uint32_t count, capacity;
    lt_arena text;
    sql_budget *budget;  /* what growth is taken from (sql_rowstore_budget) */
    const char *what;
    uint64_t held;       /* bytes taken, given back by sql_rowstore_free */
} sql_rowstore;

int sql_rowstore_init(sql_rowstore *rs, const lt_batch *shape, uint32_t ncols);
int sql_rowstore_append(sql_rowstore *rs, const lt_batch *b, uint32_t row,
                        lt_error *err);
/* Overwrite stored row `to` (< count) with row `row` of `b` (the old row's
** text stays in the arena until the store is freed). */
int sql_rowstore_set(sql_rowstore *rs, uint32_t to, const lt_batch *b, uint32_t row,
                     lt_error *err);
void sql_rowstore_free(sql_rowstore *rs);
/* After init: take the store's growth (and a row set's tables) from `b`
** for `what` (see sql_budget_take). */
void sql_rowstore_budget(sql_rowstore *rs, sql_budget *b, const char *what);

/* A hash set of rows over a row store: stored row r is the r-th distinct
** row inserted. */
typedef struct sql_rowset {
    sql_rowstore rows;
    uint64_t *hashes;    /* per stored row */
    uint32_t hash_cap;
    uint32_t *table;     /* stored row + 1; 0 empty */
    uint32_t mask;       /* table size - 1 */
} sql_rowset;

/* Rows of the first `ncols` columns of batches shaped like `shape`. */
int sql_rowset_init(sql_rowset *set, const lt_batch *shape, uint32_t ncols, lt_error *err);
/* hashes[row] for rows sel[0..n) of the set's columns of `b` (the hash
** sql_rowset_insert wants). */
void sql_rowset_hashes(const sql_rowset *set, const lt_batch *b, const uint32_t *sel, uint32_t n,
                       uint64_t *hashes);
/* The number of the stored row equal to row `row` of `b` (whose hash is
** `hash`), which is stored first when new (*added then true); -1 on
** error. */
int64_t sql_rowset_insert(sql_rowset *set, const lt_batch *b, uint32_t row, uint64_t hash,
                          bool *added, lt_error *err);
/* The number of the stored row equal to row `row` of `b` (hash `hash`), or
** -1 when there is none (nothing is stored). */
int64_t sql_rowset_find(const sql_rowset *set, const lt_batch *b, uint32_t row, uint64_t hash);
void sql_rowset_free(sql_rowset *set);

/* Operators */
typedef struct sql_operator sql_operator;
struct sql_operator {
    int (*next)(sql_operator *op, sql_chunk *out, lt_error *err);
    void (*close)(sql_operator *op);
    sql_exec *ex;
    sql_operator *child;
};

/* The next chunk of `op` (n == 0 at the end). */
static inline int sql_next(sql_operator *op, sql_chunk *out, lt_error *err)
{
    return op->next(op, out, err);
}
void sql_close(sql_operator *op);

/* exec_scan.c: rows of a table; the spec and its arrays must outlive it. */
int sql_op_scan(sql_exec *ex, lt_source *src, lt_scan_spec *spec,
                sql_operator **out, lt_error *err);
/* exec_values.c: one row without columns (FROM-less SELECT). */
int sql_op_values(sql_exec *ex, sql_operator **out, lt_error *err);
/* exec_filter.c: rows for which every conjunct is TRUE. */
int sql_op_filter(sql_exec *ex, sql_operator *child, sql_expr **conj,
                  uint32_t nconj, sql_operator **out, lt_error *err);
/* exec_project.c: dense batches of the outputs' values. */
int sql_op_project(sql_exec *ex, sql_operator *child, const sql_output *outs,
                   uint32_t nouts, sql_operator **out, lt_error *err);
/* exec_distinct.c: the first occurrence of each distinct row. */
int sql_op_distinct(sql_exec *ex, sql_operator *child, sql_operator **out,
                    lt_error *err);
/* exec_sort.c: all rows, ordered by the keys (columns of the child); with
** top >= 0 only the first `top` rows of that order. */
int sql_op_sort(sql_exec *ex, sql_operator *child, const sql_sort_key *keys,
                uint32_t nkeys, int64_t top, sql_operator **out, lt_error *err);
/* exec_join.c: the rows of `left` (the tables before range r, their
** columns in the joined row's order) joined with those of `right` (range
** r's scan batch) as r says: INNER, LEFT or CROSS, by a hash table on
** r's keys, checking r's residual conditions on each joined row. */
int sql_op_join(sql_exec *ex, sql_operator *left, sql_operator *right, const sql_range *r,
                sql_operator **out, lt_error *err);
/* exec_aggregate.c: one row per group of equal `groups` keys (one row in
** all without keys), its columns the keys then the aggregates' values.
** `preset` >= 0: every aggregate is COUNT(*) and this is its value (the
** reader counted); the child is then not read. */
int sql_op_aggregate(sql_exec *ex, sql_operator *child, sql_expr **groups, uint32_t ngroups,
                     sql_expr **aggs, uint32_t naggs, int64_t preset, sql_operator **out,
                     lt_error *err);
/* exec_limit.c: skip `offset` rows, then pass at most `count` (-1: all). */
int sql_op_limit(sql_exec *ex, sql_operator *child, int64_t offset,
                 int64_t count, sql_operator **out, lt_error *err);

/* planner.c: the operator tree of an execution (the scan offered the
** simple predicates; those it answers exactly are not filtered again). */
int sql_plan_open(sql_exec *ex, sql_operator **out, lt_error *err);

/* exec_subquery.c */
/* The rows of sub-query `q` run as an execution of its own (same
** parameters, cancel flag and clock as `ex`; `outer` its outer values):
** batches of its outputs, column i of the output being `cols[i]` of the
** sub-query's (cols NULL: the first ncols), converted to `types[i]` when
** given and different.  Derived tables, views and the sides of a
** compound. */
int sql_op_subquery(sql_exec *ex, sql_query *q, const lt_value *outer, const uint32_t *cols,
                    uint32_t ncols, const sql_type *types, sql_operator **out, lt_error *err);
/* SUBQUERY (scalar: one row at most, else 21000; no row: NULL), EXISTS and
** IN (SELECT ...) over the rows sel of `in`.  An uncorrelated one runs once
** per execution and its result is kept; a correlated one runs again for
** each row, its outer values bound as the sub-query's constants. */
int sql_eval_subquery(sql_exec *ex, const sql_expr *e, const lt_batch *in,
                      const uint32_t *sel, uint32_t n, lt_vector *out, lt_error *err);

/* exec_setop.c: lhs op rhs, both children's batches of the same column
** types: UNION ALL concatenates; UNION, EXCEPT and INTERSECT give each
** distinct row once (NULLs equal), in first-occurrence order. */
int sql_op_setop(sql_exec *ex, sql_setop op, sql_operator *lhs, sql_operator *rhs,
                 sql_operator **out, lt_error *err);

#endif /* SQL_EXEC_H */
