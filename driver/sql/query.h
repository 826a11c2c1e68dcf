/*
** query.h — a bound query: what the binder makes of a parsed SELECT, what
** typing.c types and what the planner turns into operators.
**
** Names are resolved (columns point at the table's lt_column), `*` is
** expanded, WHERE is split into its AND-ed conjuncts, ORDER BY items point
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

typedef struct sql_sort_key {
    uint32_t output;         /* index in outputs */
    bool desc;
    bool nulls_first;
} sql_sort_key;

typedef struct sql_query {
    lt_source *src;
    int64_t table;           /* position in src->tables; -1 when FROM-less */
    const char *range_name;  /* what qualifies its columns: alias or table name */
    bool distinct;
    uint32_t noutputs;       /* visible then hidden */
    uint32_t nvisible;
    sql_output *outputs;
    uint32_t nconj;          /* WHERE a AND b AND c -> a, b, c */
    sql_expr **conj;
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
    uint32_t nscan;          /* table columns the scan decodes, in batch order */
    uint32_t *scan_cols;
} sql_query;

/* binder.c: resolve names and build the query, then type it
** (sql_type_query with no parameter values). */
int sql_bind(lt_source *src, const sql_select *sel, const char *text,
             lt_arena *arena, sql_query **out, lt_error *err);

/* typing.c: set every node's type and conversions and every output's
** description.  `params` are the values of an execution, or NULL at prepare
** (parameters then take the type their context implies, recorded in
** param_hints, or LT_NULL). */
int sql_type_query(sql_query *q, const lt_value *params, lt_error *err);

/* planner.c: number the nodes and choose the columns the scan decodes. */
int sql_plan_prepare(sql_query *q, lt_arena *arena, lt_error *err);

#endif /* SQL_QUERY_H */
