/*
** func.c — the function table's look-up, its aggregate, conditional and
** system entries, and helpers the implementations share.
**
** The string, numeric and date/time functions have their slices in their
** own files; sql_func_find() searches every slice.  Aggregates are
** computed by the aggregation operator (exec_aggregate.c); COALESCE and
** NULLIF by eval_cond.c; IIF and MOD are rewritten by the binder.  The
** niladic names of the standard (CURRENT_DATE, USER ...) are calls too when
** no column has that name (binder.c).
*/
#include "func.h"
#include "exec.h"

#include <string.h>
#include <strings.h>

#define ARGS1(a) {a, a, a, a}

/* DATABASE(): the path the connection opened (SQL_DATABASE_NAME). */
static int fn_database(sql_fcall *c)
{
    const lt_source *src = c->ex->q->src;
    const char *path = src != NULL && src->path != NULL ? src->path : "";
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t row = c->sel[i];
        c->out->nulls[row] = 0;
        c->out->v.bytes[row].ptr = path;
        c->out->v.bytes[row].len = (uint32_t)strlen(path);
    }
    return 0;
}

/* USER(): files have no users; '' as SQL_USER_NAME says. */
static int fn_user(sql_fcall *c)
{
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t row = c->sel[i];
        c->out->nulls[row] = 0;
        c->out->v.bytes[row].ptr = "";
        c->out->v.bytes[row].len = 0;
    }
    return 0;
}

static const sql_func funcs_general[] = {
    /* aggregates */
    {"COUNT", 1, 1, SQL_AGG_COUNT, ARGS1(SQL_ARG_ANY), SQL_RES_AGGREGATE, 0, NULL, false},
    {"SUM", 1, 1, SQL_AGG_SUM, ARGS1(SQL_ARG_ANY), SQL_RES_AGGREGATE, 0, NULL, false},
    {"AVG", 1, 1, SQL_AGG_AVG, ARGS1(SQL_ARG_ANY), SQL_RES_AGGREGATE, 0, NULL, false},
    {"MIN", 1, 1, SQL_AGG_MIN, ARGS1(SQL_ARG_ANY), SQL_RES_AGGREGATE, 0, NULL, false},
    {"MAX", 1, 1, SQL_AGG_MAX, ARGS1(SQL_ARG_ANY), SQL_RES_AGGREGATE, 0, NULL, false},
    /* conditional */
    {"COALESCE", 1, SQL_ARGS_MANY, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_COMMON, 0, NULL, false},
    {"IFNULL", 2, 2, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_COMMON, 0, NULL, false},
    {"NULLIF", 2, 2, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_NULLIF, 0, NULL, false},
    {"IIF", 3, 3, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_COMMON, 0, NULL, false},
    /* system */
    {"DATABASE", 0, 0, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_database, false},
    {"USER", 0, 0, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_user, false},
    {"CURRENT_USER", 0, 0, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_user, false},
    {"SESSION_USER", 0, 0, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_user, false},
    {"SYSTEM_USER", 0, 0, SQL_AGG_NONE, ARGS1(SQL_ARG_ANY), SQL_RES_TEXT, SQL_SIZE_UNKNOWN, fn_user, false},
};

static const struct {
    const sql_func *funcs;
    const uint32_t *count;
} slices[] = {
    {sql_funcs_string, &sql_funcs_string_count},
    {sql_funcs_numeric, &sql_funcs_numeric_count},
    {sql_funcs_datetime, &sql_funcs_datetime_count},
};

const sql_func *sql_func_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof funcs_general / sizeof funcs_general[0]; i++)
        if (strcasecmp(funcs_general[i].name, name) == 0)
            return &funcs_general[i];
    for (size_t s = 0; s < sizeof slices / sizeof slices[0]; s++)
        for (uint32_t i = 0; i < *slices[s].count; i++)
            if (strcasecmp(slices[s].funcs[i].name, name) == 0)
                return &slices[s].funcs[i];
    return NULL;
}

sql_arg sql_func_arg(const sql_func *fn, uint32_t i)
{
    return fn->args[i < 3 ? i : 3];
}

sql_unit sql_unit_from_name(const char *name)
{
    static const struct {
        const char *name;
        sql_unit unit;
    } units[] = {
        {"FRAC_SECOND", SQL_UNIT_FRAC_SECOND}, {"MICROSECOND", SQL_UNIT_MICROSECOND},
        {"MILLISECOND", SQL_UNIT_MILLISECOND}, {"SECOND", SQL_UNIT_SECOND},
        {"MINUTE", SQL_UNIT_MINUTE}, {"HOUR", SQL_UNIT_HOUR}, {"DAY", SQL_UNIT_DAY},
        {"WEEK", SQL_UNIT_WEEK}, {"MONTH", SQL_UNIT_MONTH}, {"QUARTER", SQL_UNIT_QUARTER},
        {"YEAR", SQL_UNIT_YEAR}, {"DAYOFYEAR", SQL_UNIT_DAYOFYEAR}, {"DOY", SQL_UNIT_DAYOFYEAR},
        {"DAYOFWEEK", SQL_UNIT_DAYOFWEEK}, {"DOW", SQL_UNIT_DAYOFWEEK},
    };
    if (strncasecmp(name, "SQL_TSI_", 8) == 0)
        name += 8;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(units[i].name, name) == 0)
            return units[i].unit;
    return 0;
}

char *sql_fcall_text(sql_fcall *c, uint32_t row, size_t len)
{
    if (len > SQL_TEXT_MAX) {
        lt_error_set(c->err, "22001", "the result of %s would be longer than %u bytes",
                     c->e->fn != NULL ? c->e->fn->name : "the expression", SQL_TEXT_MAX);
        return NULL;
    }
    char *p = lt_arena_alloc(c->text, len ? len : 1);
    if (p == NULL) {
        lt_error_set(c->err, "HY001", "out of memory");
        return NULL;
    }
    c->out->nulls[row] = 0;
    c->out->v.bytes[row].ptr = p;
    c->out->v.bytes[row].len = (uint32_t)len;
    return p;
}
