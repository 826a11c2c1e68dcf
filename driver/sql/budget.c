/*
** budget.c — the memory an execution's operators may hold (MemoryLimit).
**
** The operators that keep rows (sort, hash aggregation, a hash join's
** build side, DISTINCT and set operations: row stores and their hash
** tables) take the bytes they are about to allocate from the execution's
** budget before allocating them, and give them back when they free them.
** A query that needs more than the budget fails with HY001 and a message
** naming what it was doing and the setting to raise, instead of growing
** until the system kills the process.  Hash aggregation and hash joins
** watch the budget between batches and split their rows into partitions
** on temporary files past half of what is left to them (spill.c); they
** fail only when one partition, split SQL_SPILL_DEPTH times, still does
** not fit (sql_budget_fail).  An execution and its sub-queries
** share one budget (they run in one thread, one after another or nested).
*/
#include "exec.h"
#include "spill.h"

#include <stdio.h>
#include <string.h>

#define MIB ((uint64_t)1 << 20)

/* "N MiB" (or KiB, or bytes, for limits set below a MiB by a caller). */
static void format_size(char *out, size_t cap, uint64_t bytes)
{
    if (bytes % MIB == 0)
        snprintf(out, cap, "%llu MiB", (unsigned long long)(bytes / MIB));
    else if (bytes % 1024 == 0)
        snprintf(out, cap, "%llu KiB", (unsigned long long)(bytes / 1024));
    else
        snprintf(out, cap, "%llu bytes", (unsigned long long)bytes);
}

int sql_budget_fail(const sql_budget *b, const char *what, const char *why, lt_error *err)
{
    char size[48];
    uint64_t limit = b != NULL ? b->limit : 0;
    format_size(size, sizeof size, limit);
    if (what == NULL)
        what = "hold its rows";
    if (why == NULL)
        why = "";
    if (limit % MIB == 0)
        return lt_error_set(err, "HY001",
                            "the query needs more than %s to %s%s (MemoryLimit=%llu); raise "
                            "MemoryLimit (in MiB, 0 for no limit) in the connection string "
                            "or DSN, or narrow the query with WHERE or fewer columns",
                            size, what, why, (unsigned long long)(limit / MIB));
    return lt_error_set(err, "HY001",
                        "the query needs more than %s to %s%s (the statement's memory limit); "
                        "raise the limit or narrow the query with WHERE or fewer columns",
                        size, what, why);
}

int sql_budget_take(sql_budget *b, uint64_t bytes, const char *what, uint64_t *held,
                    lt_error *err)
{
    if (b == NULL)
        return 0;
    if (b->limit > 0 && (bytes > b->limit || b->used > b->limit - bytes))
        return sql_budget_fail(b, what, NULL, err);
    b->used += bytes;
    if (held != NULL)
        *held += bytes;
    return 0;
}

bool sql_budget_fits(const sql_budget *b, uint64_t bytes)
{
    return b == NULL || b->limit == 0 || (bytes <= b->limit && b->used <= b->limit - bytes);
}

void sql_budget_release(sql_budget *b, uint64_t *held)
{
    if (b == NULL || held == NULL)
        return;
    b->used -= *held <= b->used ? *held : b->used;
    *held = 0;
}

/* A table by its own name (the alias for a derived table). */
static const char *range_name(const sql_range *r)
{
    if (r->desc != NULL && r->desc->name != NULL && r->table != UINT32_MAX)
        return r->desc->name;
    return r->name != NULL ? r->name : "?";
}

const char *sql_budget_what(sql_exec *ex, const char *verb, const char *table)
{
    char buf[320];
    size_t len = 0;
    const sql_query *q = ex->q;
    if (table != NULL) {
        len = (size_t)snprintf(buf, sizeof buf, "%s '%s'", verb, table);
    } else if (q != NULL && q->nranges > 0) {
        len = (size_t)snprintf(buf, sizeof buf, "%s the rows of", verb);
        for (uint32_t r = 0; r < q->nranges && len < sizeof buf; r++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s '%s'",
                                    r == 0 ? "" : r + 1 == q->nranges ? " joined with" : ",",
                                    range_name(&q->ranges[r]));
    } else {
        len = (size_t)snprintf(buf, sizeof buf, "%s the rows", verb);
    }
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    char *s = lt_arena_strndup(&ex->arena, buf, len);
    return s != NULL ? s : verb;
}
