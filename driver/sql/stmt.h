/*
** stmt.h — the prepared statement and cursor structures behind sql.h.
*/
#ifndef SQL_STMT_H
#define SQL_STMT_H

#include <stdatomic.h>

#include "exec.h"

struct sql_stmt {
    lt_arena arena;          /* syntax tree, bound query, names */
    lt_source *src;
    sql_query *q;
    sql_column *cols;        /* visible outputs as described at prepare */
    sql_cursor *open;        /* the open cursor, or NULL */
    uint64_t memory_limit;   /* bytes an execution may hold; 0: no limit */
};

struct sql_cursor {
    sql_stmt *stmt;          /* NULL for a cursor over a given batch */
    uint32_t ncols;
    sql_column *cols;
    lt_arena arena;          /* column descriptions, parameter copies */
    lt_value *params;
    sql_exec ex;
    bool ex_live;
    sql_operator *top;
    lt_batch *out;           /* rows handed out when they need compacting */
    lt_batch *given;         /* sql_cursor_from_batch's batch */
    bool done, sent;
    lt_error failure;        /* repeated once a pull has failed */
    bool failed;
    atomic_int cancel;
    sql_budget budget;       /* the execution's memory (stmt->memory_limit) */
};

#endif /* SQL_STMT_H */
