/*
** query.h — a bound query: what the binder makes of a parsed SELECT, what
** typing.c types and what the planner turns into operators.
**
** Names are resolved (columns point at their FROM table, a range, and its
** lt_column), `*` is expanded, WHERE and ON are split into their AND-ed
** conjuncts, ORDER BY items point
** at output columns (ones the select list does not show are added as hidden
** outputs after the visible ones).
*/
#ifndef SQL_QUERY_H
#define SQL_QUERY_H

#include "ast.h"
#include "sql.h"

typedef struct sql_output {
    sql_expr *expr;
    const char *label;       /* alias, column name or the expression's text */
    const char *base_table;  /* "" when computed */
    const char *base_column;
    sql_column col;          /* description after the last typing */
} sql_output;

struct sql_query;

/* JOIN ... USING (c): column lcol of range lrange and column rcol of the
** joined range are one column (the latter is hidden from `*` and from
** unqualified names). */
typedef struct sql_using {
    uint32_t lrange, lcol, rcol;
} sql_using;

/* A table of FROM, with how it joins the ones before it. */
typedef struct sql_range {
    uint32_t table;          /* position in src->tables; UINT32_MAX: derived */
    const lt_table *desc;    /* a derived table's: `derived` */
    struct sql_query *sub;   /* derived tables and views: the bound query,
                             ** whose visible outputs are desc's columns */
    lt_table derived;
    const char *name;        /* what qualifies its columns: alias or table name */
    sql_join join;           /* SQL_JOIN_NONE for the first */
    uint32_t non;
    sql_expr **on;           /* ON a AND b -> a, b */
    bool outer;              /* the right side of a LEFT JOIN, a side of a FULL JOIN,
                             ** the left of a RIGHT JOIN: its columns may be NULL */
    uint32_t nusing;         /* USING / NATURAL: the merged columns */
    sql_using *usings;
    uint8_t *hidden;         /* per column: merged into an earlier range's (or NULL) */
    const char **owners;     /* a parenthesised join (name ""): per column, the
                             ** table (alias) it comes from, which qualifies it
                             ** (NULL: none); NULL for other ranges */

    /* planner.c */
    uint32_t nscan;          /* table columns its scan decodes, in batch order */
    uint32_t *scan_cols;
    uint32_t offset;         /* where those columns start in the joined row */
    uint32_t npushed;        /* conditions on this table alone, under the join */
    sql_expr **pushed;       /* (offered to the reader; over the scan's batch) */
    uint32_t nkeys;          /* the join: lkeys[i] = rkeys[i] */
    sql_expr **lkeys;        /* over the rows joined so far */
    sql_expr **rkeys;        /* over this table's scan batch */
    uint32_t nresidual;
    sql_expr **residual;     /* the join's other conditions, over the joined row */
} sql_range;

typedef struct sql_sort_key {
    uint32_t output;         /* index in outputs */
    bool desc;
    bool nulls_first;
} sql_sort_key;

typedef struct sql_query {
    lt_source *src;
    /* Compound queries (setop != NONE): lhs op rhs; the outputs (no
    ** expressions) are the unified columns, keys refer to them, limit and
    ** offset apply to the whole; nothing else is used. */
    sql_setop setop;
    struct sql_query *lhs, *rhs;
    sql_type *set_types;     /* compound: the unified type of each output */
    /* Correlated subqueries: the number of outer values (SQL_E_OUTER nodes'
    ** `param` < nouter) an execution is given. */
    uint32_t nouter;
    bool planned;            /* sql_plan_prepare done (a query shared by copies) */
    uint32_t line, column;   /* where it starts (compound: its operator) */
    uint32_t nranges;        /* 0 when FROM-less */
    sql_range *ranges;
    bool distinct;
    uint32_t noutputs;       /* visible then hidden */
    uint32_t nvisible;
    sql_output *outputs;
    uint32_t nconj;          /* WHERE a AND b AND c -> a, b, c */
    sql_expr **conj;
    uint32_t npost;          /* planner.c: those not pushed under or into a */
    sql_expr **post;         /* join, evaluated over the joined row */
    /* Grouped queries (GROUP BY, HAVING or an aggregate in the outputs):
    ** the aggregation reads the filtered rows and makes one row per group,
    ** its columns the keys then the aggregates; outputs and HAVING are
    ** evaluated over that row (their keys and aggregates are marked
    ** `from_input`). */
    bool grouped;
    uint32_t ngroups;
    sql_expr **groups;       /* GROUP BY keys, over the table's rows */
    uint32_t naggs;
    sql_expr **aggs;         /* one node per distinct aggregate call */
    uint32_t nhaving;
    sql_expr **having;       /* HAVING conjuncts, over the groups */
    uint32_t nkeys;
    sql_sort_key *keys;
    sql_expr *limit, *offset;/* constants, or NULL */
    uint32_t nparams;
    sql_expr **params;       /* the ? nodes, in order */
    lt_type *param_hints;    /* the type each ? is expected to have */

    /* planner.c (sql_plan_prepare) */
    uint32_t nslots;         /* expression nodes, numbered by their slot */
    sql_expr **slots;        /* slot -> node */
    /* planner.c: the sub-query of a correlated [NOT] EXISTS or IN whose one
    ** outer value is read only by the top-level WHERE conjunct `key = outer`
    ** (conj[semi_conj], the key its left side when semi_left): `semi` is
    ** the same query without that conjunct, its outputs the key then (IN)
    ** the value, run once for a semi-join (exec_subquery.c).  NULL: none. */
    struct sql_query *semi;
    uint32_t semi_conj;
    bool semi_left;
} sql_query;

/* binder.c: resolve names and build the query, then type it
** (sql_type_query with no parameter values). */
int sql_bind(lt_source *src, const sql_select *sel, const char *text,
             lt_arena *arena, sql_query **out, lt_error *err);

/* The type of output i as its expression has it (LT_NULL for an untyped
** NULL; the unified type of a compound's column). */
sql_type sql_output_type(const sql_query *q, uint32_t i);

/* typing.c: set every node's type and conversions and every output's
** description (sub-queries, derived tables and compounds' sides included).  `params` are the values of an execution, or NULL at prepare
** (parameters then take the type their context implies, recorded in
** param_hints, or LT_NULL). */
int sql_type_query(sql_query *q, const lt_value *params, lt_error *err);

/* Is e an `a & b` that reads NULL as '' (Access's `&`: NULL only when both
** operands are)?  Elsewhere `&` is `||`. */
static inline bool sql_amp_reads_null_as_empty(const lt_source *src, const sql_expr *e)
{
    return e->op == SQL_OP_AMP && src != NULL && src->dialect == LT_DIALECT_ACCESS;
}

/* planner.c: number the nodes and choose the columns the scan decodes. */
int sql_plan_prepare(sql_query *q, lt_arena *arena, lt_error *err);

#endif /* SQL_QUERY_H */
