/*
** ast.h — the syntax tree the parser builds and the binder annotates.
**
** Expression nodes are made once by the parser (kind, operands, source span)
** and then filled in place by the later stages: the binder resolves column
** names, typing.c sets the types and the conversions each operand needs,
** the planner numbers the nodes for their evaluation state.  All nodes live
** in the statement's arena.
*/
#ifndef SQL_AST_H
#define SQL_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "../../readers/reader.h"

/* Deepest expression tree accepted, so that the recursive stages (binder,
** typing, evaluation) run in bounded stack for any input. */
#define SQL_MAX_DEPTH 256
/* Deepest nesting of views over views. */
#define SQL_MAX_VIEW_DEPTH 32

/* A type as the engine tracks it: the logical type plus what ODBC describes. */
typedef struct sql_type {
    lt_type type;     /* LT_NULL: only NULL (an untyped NULL or parameter) */
    int16_t scale;    /* DECIMAL: digits after the point */
    uint32_t size;    /* ODBC column size (precision for DECIMAL) */
    bool nullable;
    /* A compound's column, or a CASE / COALESCE / NULLIF result, mixing
    ** numbers and text on a SQLite source: described as TEXT, its rows of
    ** other types tagged with their own (reader.h's dynamically typed
    ** rows), as SQLite keeps each value's storage class. */
    bool dynamic;
} sql_type;

/* SQLite's affinities (https://www.sqlite.org/datatype3.html section 3). */
#define SQL_AFF_NONE    0
#define SQL_AFF_BLOB    'B'
#define SQL_AFF_TEXT    'T'
#define SQL_AFF_NUMERIC 'N'  /* INTEGER, REAL and NUMERIC alike for comparisons */

typedef enum sql_expr_kind {
    SQL_E_LITERAL,   /* value */
    SQL_E_PARAM,     /* ?, number `param` */
    SQL_E_COLUMN,    /* [qualifier.]name */
    SQL_E_NEG,       /* -left */
    SQL_E_ARITH,     /* left op right: + - * / % */
    SQL_E_COMPARE,   /* left op right: = <> < <= > >= */
    SQL_E_AND,       /* left AND right */
    SQL_E_OR,        /* left OR right */
    SQL_E_NOT,       /* NOT left */
    SQL_E_IS_NULL,   /* left IS [NOT] NULL */
    SQL_E_LIKE,      /* left [NOT] LIKE right [ESCAPE third] */
    SQL_E_IN,        /* left [NOT] IN (args) */
    SQL_E_BETWEEN,   /* left [NOT] BETWEEN right AND third */
    SQL_E_FUNC,      /* name(args), name(*) when `star` */
    SQL_E_CONCAT,    /* left || right */
    SQL_E_CASE,      /* CASE [left] WHEN args[0] THEN args[1] ... [ELSE right] END */
    SQL_E_CAST,      /* CAST(left AS cast), {fn CONVERT(left, SQL_x)} */
    SQL_E_SUBQUERY,  /* (SELECT ...) as a value: `sub`, bound as `subq`; args are
                     ** the outer values a correlated one reads (binder) */
    SQL_E_EXISTS,    /* [NOT] EXISTS left, left a SUBQUERY */
    SQL_E_IN_SELECT, /* left [NOT] IN right, right a SUBQUERY of one column */
    SQL_E_OUTER      /* inside a correlated subquery: outer value number `param`
                     ** (the enclosing SUBQUERY's args[param], `corr`) */
} sql_expr_kind;

typedef enum sql_op {
    SQL_OP_NONE = 0,
    SQL_OP_ADD, SQL_OP_SUB, SQL_OP_MUL, SQL_OP_DIV, SQL_OP_MOD,
    SQL_OP_EQ, SQL_OP_NE, SQL_OP_LT, SQL_OP_LE, SQL_OP_GT, SQL_OP_GE,
    SQL_OP_AMP  /* CONCAT written `&` (Access reads NULL as '') */
} sql_op;

struct sql_func;
struct sql_select;
struct sql_query;
typedef struct sql_expr sql_expr;
struct sql_expr {
    sql_expr_kind kind;
    sql_op op;
    bool negated;           /* NOT LIKE, NOT IN, NOT BETWEEN, IS NOT NULL */
    bool star;              /* FUNC: name(*) */
    bool distinct;          /* FUNC: name(DISTINCT ...) */
    sql_expr *left, *right, *third;
    sql_expr **args;        /* IN list, function arguments */
    uint32_t nargs;
    lt_value value;         /* LITERAL (text in the statement arena) */
    uint32_t param;         /* PARAM: 0-based, in order of appearance */
    const char *qualifier;  /* COLUMN: table or alias, NULL when none */
    const char *name;       /* COLUMN, FUNC */
    sql_type cast;          /* CAST: the target type (size 0: no length given) */
    bool pad;               /* CAST to CHAR(n): padded with blanks to n */
    uint32_t line, column;  /* where the expression starts */
    uint32_t start, end;    /* its bytes in the statement text */
    uint32_t depth;         /* 1 + deepest operand */
    struct sql_select *sub; /* SUBQUERY: the parsed query */

    /* binder */
    uint32_t range;         /* COLUMN: which FROM table (query.h's ranges) */
    uint32_t table_col;     /* COLUMN: position in the table */
    const lt_column *source;/* COLUMN: the table's description of it */
    uint32_t input;         /* COLUMN: position in the operator's input batch */
    const struct sql_func *fn; /* FUNC: the function called (func.h) */
    struct sql_query *subq; /* SUBQUERY: the bound query */
    const sql_expr *corr;   /* OUTER: the outer expression whose value it is */
    /* Grouped queries: the node is a GROUP BY key or an aggregate, whose
    ** value is column `input` of the aggregation's output batch. */
    bool from_input;

    /* typing.c */
    sql_type t;             /* type of the result */
    bool conv;              /* the parent reads it converted to `want` */
    lt_type want;
    int16_t want_scale;
    /* typing.c, SQLite sources: the node's affinity (a column's declared
    ** type's, CAST's target's, else none: SQL_AFF_*), and for a comparison
    ** group (comparison, IN, BETWEEN, simple CASE, NULLIF) whose operands
    ** mix numbers and text, that it compares row by row with SQLite's
    ** affinity conversions (compare.c, sql_compare_affinity). */
    uint8_t affinity;
    bool affinity_cmp;

    /* planner: index of the evaluation state (exec.h) */
    uint32_t slot;
};

/* Operand i of any node: left, right, third, then args (NULLs skipped by
** sql_expr_nchildren's count). */
uint32_t sql_expr_nchildren(const sql_expr *e);
sql_expr *sql_expr_child(const sql_expr *e, uint32_t i);
/* Same shape, same operands, same constants (for matching ORDER BY items to
** select items). */
bool sql_expr_equal(const sql_expr *a, const sql_expr *b);
/* True for literals, parameters and outer values (constant for one
** execution). */
bool sql_expr_is_constant(const sql_expr *e);
/* A deep copy of `e` in `arena` (binder rewrites that use an operand
** twice); NULL when out of memory. */
sql_expr *sql_expr_copy(const sql_expr *e, lt_arena *arena);

/* Append where `e` stands to the error just made: "(literal at line L,
** column C)", "(parameter N at ...)" or "(line L, column C)".  Returns -1. */
int sql_error_at(lt_error *err, const sql_expr *e);

typedef struct sql_select_item {
    sql_expr *expr;         /* NULL for * and t.* */
    const char *star_table; /* t of t.*; NULL for * or an expression */
    const char *alias;      /* AS name; NULL when none */
    uint32_t line, column;
} sql_select_item;

typedef struct sql_order_item {
    sql_expr *expr;
    bool desc;
    int8_t nulls;           /* 0: default, 1: NULLS FIRST, -1: NULLS LAST */
} sql_order_item;

typedef enum sql_join {
    SQL_JOIN_NONE = 0,      /* the first table */
    SQL_JOIN_INNER,         /* [INNER] JOIN ... ON */
    SQL_JOIN_LEFT,          /* LEFT [OUTER] JOIN ... ON, {oj ...} */
    SQL_JOIN_CROSS,         /* CROSS JOIN, or a comma */
    SQL_JOIN_RIGHT,         /* RIGHT [OUTER] JOIN ... ON */
    SQL_JOIN_FULL           /* FULL [OUTER] JOIN ... ON */
} sql_join;

typedef struct sql_table_ref {
    const char *name;       /* NULL for a derived table */
    const char *alias;      /* NULL when none (required for a derived table) */
    uint32_t line, column;
    sql_join join;          /* how it joins the tables before it */
    sql_expr *on;           /* the ON condition; NULL for CROSS and commas */
    struct sql_select *sub; /* (SELECT ...) AS alias: the derived table */
    uint32_t ncolnames;     /* AS alias (c1, c2, ...) */
    const char **colnames;
    uint32_t nusing;        /* JOIN ... USING (a, b) */
    const char **using_cols;
    bool natural;           /* NATURAL JOIN: USING every common column */
    bool nested;            /* a parenthesised join `(a JOIN b ON ...)`: sub is
                            ** SELECT * over its tables, whose names (not an
                            ** alias) qualify its columns */
} sql_table_ref;

/* A compound query: lhs op rhs. */
typedef enum sql_setop {
    SQL_SET_NONE = 0,
    SQL_SET_UNION,
    SQL_SET_UNION_ALL,
    SQL_SET_EXCEPT,
    SQL_SET_INTERSECT,
    SQL_SET_EXCEPT_ALL,     /* multisets: max(m - n, 0) copies of a row */
    SQL_SET_INTERSECT_ALL   /* min(m, n) copies */
} sql_setop;

typedef struct sql_select {
    /* Compound (setop != NONE): only lhs, rhs, order, limit, offset and
    ** line/column are used; ORDER BY and LIMIT apply to the whole. */
    sql_setop setop;
    struct sql_select *lhs, *rhs;
    uint32_t line, column;  /* where the query (or the operator) starts */
    bool distinct;
    uint32_t nitems;
    sql_select_item *items;
    uint32_t nfrom;
    sql_table_ref *from;    /* the FROM tables, in order; NULL: FROM-less */
    sql_expr *where;
    uint32_t ngroup;
    sql_expr **group;       /* GROUP BY items */
    sql_expr *having;
    uint32_t norder;
    sql_order_item *order;
    sql_expr *limit, *offset;
    uint32_t nparams;
    sql_expr **params;      /* the ? nodes, in order */
} sql_select;

/* Parse one statement (an optional trailing ';' allowed).  Writes fail with
** the read-only 42000; anything else not in the language with a 42000 that
** names the place. */
int sql_parse(const char *text, size_t len, lt_arena *arena, sql_select **out,
              lt_error *err);

#endif /* SQL_AST_H */
