/*
** func.h — the functions SQL can call.
**
** One table describes every function: its name, how many arguments it
** takes, how each argument is read (typing.c converts it so), the type of
** its result, and the vector implementation.  The table is split by
** family, one slice per file (func_string.c, func_numeric.c,
** func_datetime.c; func.c has the aggregates, the conditional and system
** functions and the look-up).  The same entries answer plain calls
** (UCASE(x)) and ODBC escapes ({fn UCASE(x)}).
**
** An implementation gets its arguments already evaluated over the selected
** rows and converted as the table says, and writes the result rows (value
** and null flag) at the same row positions.  Text results are allocated
** from `text`, an arena the evaluator resets before each call: they live
** until the node is evaluated again.
*/
#ifndef SQL_FUNC_H
#define SQL_FUNC_H

#include "ast.h"

struct sql_exec;

typedef enum sql_agg {
    SQL_AGG_NONE = 0,
    SQL_AGG_COUNT, SQL_AGG_SUM, SQL_AGG_AVG, SQL_AGG_MIN, SQL_AGG_MAX
} sql_agg;

/* How an argument is read. */
typedef enum sql_arg {
    SQL_ARG_ANY = 0,  /* any type, as it is */
    SQL_ARG_TEXT,     /* any type, converted to TEXT (numbers and dates formatted) */
    SQL_ARG_INT,      /* a number, as INT64 (fractions truncated) */
    SQL_ARG_NUMBER,   /* a number, as it is */
    SQL_ARG_DOUBLE,   /* a number, as DOUBLE */
    SQL_ARG_DATETIME, /* DATE or TIMESTAMP (or a text constant), as TIMESTAMP */
    SQL_ARG_TIME,     /* TIME or TIMESTAMP (DATE as TIMESTAMP), as it is */
    SQL_ARG_UNIT      /* an interval or field name (DAY, SQL_TSI_DAY ...):
                      ** the binder makes it an INT64 constant (sql_unit) */
} sql_arg;

/* The type of the result. */
typedef enum sql_result {
    SQL_RES_INT64 = 0,
    SQL_RES_DOUBLE,
    SQL_RES_TEXT,     /* size: the table's */
    SQL_RES_DATE,
    SQL_RES_TIME,
    SQL_RES_TIMESTAMP,
    SQL_RES_ARG0,     /* the first argument's type (ABS, SIGN) */
    SQL_RES_ROUND,    /* ROUND, TRUNCATE: ARG0, a DECIMAL one digit wider */
    SQL_RES_INTEGRAL, /* FLOOR, CEILING: ARG0, a DECIMAL at scale 0 */
    SQL_RES_CONCAT,   /* TEXT whose size is the sum of the arguments' */
    SQL_RES_COMMON,   /* COALESCE: the arguments' common type */
    SQL_RES_NULLIF,   /* NULLIF: the first argument as compared with the second */
    SQL_RES_AGGREGATE /* typing.c's aggregate rules */
} sql_result;

/* Result sizes the table may give besides a number: unknown (the driver
** then reports its default), or the first argument's. */
#define SQL_SIZE_UNKNOWN 0
#define SQL_SIZE_ARG0 UINT32_MAX

/* Interval and field units (TIMESTAMPADD, TIMESTAMPDIFF, EXTRACT). */
typedef enum sql_unit {
    SQL_UNIT_FRAC_SECOND = 1, /* ODBC: billionths of a second */
    SQL_UNIT_MICROSECOND,
    SQL_UNIT_MILLISECOND,
    SQL_UNIT_SECOND, SQL_UNIT_MINUTE, SQL_UNIT_HOUR, SQL_UNIT_DAY,
    SQL_UNIT_WEEK, SQL_UNIT_MONTH, SQL_UNIT_QUARTER, SQL_UNIT_YEAR,
    SQL_UNIT_DAYOFYEAR, SQL_UNIT_DAYOFWEEK
} sql_unit;

/* The unit a name means (case-insensitive, with or without SQL_TSI_), or 0. */
sql_unit sql_unit_from_name(const char *name);

typedef struct sql_fcall {
    struct sql_exec *ex;
    const sql_expr *e;
    const lt_vector *const *args;  /* e->nargs vectors */
    const uint32_t *sel;
    uint32_t n;
    lt_vector *out;                /* typed as e->t */
    lt_arena *text;
    lt_error *err;
} sql_fcall;

typedef int (*sql_func_eval)(sql_fcall *c);

#define SQL_ARGS_MANY 255

typedef struct sql_func {
    const char *name;
    uint8_t min_args, max_args;    /* max SQL_ARGS_MANY: no limit */
    sql_agg agg;
    sql_arg args[4];               /* argument i's class; the last repeats */
    sql_result result;
    uint32_t size;                 /* TEXT or INT64 result size (INT64: 10 is
                                   ** INTEGER, 0 BIGINT), SQL_SIZE_UNKNOWN or
                                   ** SQL_SIZE_ARG0 */
    sql_func_eval eval;            /* NULL: aggregates and the binder's rewrites */
    bool partial;                  /* may be NULL when no argument is */
} sql_func;

/* The function named `name` (case-insensitive), NULL when none. */
const sql_func *sql_func_find(const char *name);
/* How argument i of `fn` is read. */
sql_arg sql_func_arg(const sql_func *fn, uint32_t i);

/* func_datetime.c: the local date and time now, in microseconds since
** 1970-01-01 00:00:00 local time (read once per execution: every row of a
** statement sees the same CURRENT_TIMESTAMP). */
int64_t sql_local_now(void);

/* The table's slices. */
extern const sql_func sql_funcs_string[];
extern const uint32_t sql_funcs_string_count;
extern const sql_func sql_funcs_numeric[];
extern const uint32_t sql_funcs_numeric_count;
extern const sql_func sql_funcs_datetime[];
extern const uint32_t sql_funcs_datetime_count;

/* Rows where some argument is NULL are NULL: true when `row` is one (its
** null flag is set either way). */
static inline bool sql_fcall_null(sql_fcall *c, uint32_t row)
{
    for (uint32_t a = 0; a < c->e->nargs; a++) {
        const lt_vector *v = c->args[a];
        if (v->type == LT_NULL || v->nulls[row]) {
            c->out->nulls[row] = 1;
            return true;
        }
    }
    c->out->nulls[row] = 0;
    return false;
}

/* A loop over the call's selected rows where no argument is NULL. */
#define SQL_EACH_ROW(c, row)                                                  \
    for (uint32_t i_##row = 0, row = 0;                                      \
         i_##row < (c)->n && ((row = (c)->sel[i_##row]), 1); i_##row++)      \
        if (!sql_fcall_null((c), row))

/* Writing text results: room for `len` bytes of row `row`'s value in the
** call's arena (HY001 when out of memory, 22001 past SQL_TEXT_MAX). */
#define SQL_TEXT_MAX (16u << 20)
char *sql_fcall_text(sql_fcall *c, uint32_t row, size_t len);

#endif /* SQL_FUNC_H */
