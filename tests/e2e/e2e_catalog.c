/*
** e2e_catalog.c — catalog functions agree with each other and the spec.
**
** SQLTables' four '%' enumeration forms and its type filter; SQLGetTypeInfo
** (19 columns, ordered by DATA_TYPE, wide types and TIMESTAMP 93 listed);
** for every readable table of the corpus folder, SQLColumns' TYPE_NAME and
** DATA_TYPE pairs are rows of SQLGetTypeInfo, and equal what
** SQLDescribeColW and SQLColAttribute(SQL_DESC_TYPE_NAME/CONCISE_TYPE) say
** of `SELECT *` (Power Query checks exactly that); dates and timestamps of
** the VFP all-types table are DATA_TYPE 91 and 93.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

typedef struct typeinfo {
    int n;
    char names[128][64];
    int types[128];
} typeinfo;

static void stmt_diag(e2e_buf *why, SQLHSTMT st, const char *what)
{
    e2e_diag d;
    e2e_diag_get(SQL_HANDLE_STMT, st, &d);
    e2e_buf_printf(why, "%s: %s", what, d.text);
}

/* Text of column `col`, "" for NULL (and *null set). */
static int get_text(SQLHSTMT st, int col, char *out, size_t cap, bool *null,
                    e2e_buf *why)
{
    e2e_cell c = {0};
    int rc = e2e_get_cell(st, (SQLUSMALLINT)col, K_TEXT, 64, &c, why);
    if (rc == 0)
        snprintf(out, cap, "%s", c.null ? "" : e2e_buf_str(&c.text));
    if (null)
        *null = c.null;
    e2e_buf_free(&c.text);
    return rc;
}

static int get_int(SQLHSTMT st, int col, long *out, bool *null, e2e_buf *why)
{
    SQLINTEGER v = 0;
    SQLLEN ind = 0;
    if (!SQL_SUCCEEDED(SQLGetData(st, (SQLUSMALLINT)col, SQL_C_SLONG, &v, 0, &ind))) {
        stmt_diag(why, st, "SQLGetData(SQL_C_SLONG)");
        return -1;
    }
    *out = v;
    if (null)
        *null = ind == SQL_NULL_DATA;
    return 0;
}

static int check_colnames(SQLHSTMT st, const char *const *names, int n,
                          const char *what, e2e_buf *why)
{
    SQLSMALLINT have = 0;
    SQLNumResultCols(st, &have);
    if (have < n) {
        e2e_buf_printf(why, "%s: %d result columns, expected at least %d", what,
                       (int)have, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char name[128] = "";
        SQLSMALLINT len;
        SQLColAttribute(st, (SQLUSMALLINT)(i + 1), SQL_DESC_NAME, name,
                        sizeof name, &len, NULL);
        if (strcmp(name, names[i]) != 0) {
            e2e_buf_printf(why, "%s: column %d is \"%s\", expected \"%s\"", what,
                           i + 1, name, names[i]);
            return -1;
        }
    }
    return 0;
}

static int load_typeinfo(SQLHDBC dbc, typeinfo *ti, e2e_buf *why)
{
    static const char *const cols[] = {
        "TYPE_NAME", "DATA_TYPE", "COLUMN_SIZE", "LITERAL_PREFIX",
        "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE",
        "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE",
        "AUTO_UNIQUE_VALUE", "LOCAL_TYPE_NAME", "MINIMUM_SCALE",
        "MAXIMUM_SCALE", "SQL_DATA_TYPE", "SQL_DATETIME_SUB",
        "NUM_PREC_RADIX", "INTERVAL_PRECISION"
    };
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    ti->n = 0;
    if (!SQL_SUCCEEDED(SQLGetTypeInfo(st, SQL_ALL_TYPES))) {
        stmt_diag(why, st, "SQLGetTypeInfo");
        goto done;
    }
    if (check_colnames(st, cols, 19, "SQLGetTypeInfo", why))
        goto done;
    while (ti->n < 128) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(why, st, "SQLGetTypeInfo fetch");
            break;
        }
        long t = 0;
        if (get_text(st, 1, ti->names[ti->n], sizeof ti->names[0], NULL, why) ||
            get_int(st, 2, &t, NULL, why))
            break;
        if (ti->n > 0 && t < ti->types[ti->n - 1]) {
            e2e_buf_printf(why, "SQLGetTypeInfo not ordered by DATA_TYPE: %s (%ld) "
                           "after %s (%d)", ti->names[ti->n], t,
                           ti->names[ti->n - 1], ti->types[ti->n - 1]);
            break;
        }
        ti->types[ti->n++] = (int)t;
    }
    if (!why->len) {
        bool ts = false, wide = false;
        for (int i = 0; i < ti->n; i++) {
            ts |= ti->types[i] == SQL_TYPE_TIMESTAMP;
            wide |= ti->types[i] == SQL_WVARCHAR || ti->types[i] == SQL_WCHAR ||
                    ti->types[i] == SQL_WLONGVARCHAR;
        }
        if (!ts || !wide)
            e2e_buf_printf(why, "SQLGetTypeInfo lists %d types, %s%s", ti->n,
                           ts ? "" : "no TIMESTAMP (93) ",
                           wide ? "" : "no wide character type");
    }
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return why->len ? -1 : 0;
}

/* Is `name` a TYPE_NAME of the type info (with DATA_TYPE `type` unless
** `any_type`)? */
static bool typeinfo_has(const typeinfo *ti, const char *name, long type,
                         bool any_type)
{
    for (int i = 0; i < ti->n; i++)
        if (strcmp(ti->names[i], name) == 0 && (any_type || ti->types[i] == type))
            return true;
    return false;
}

/* One SQLTables call: returns its rows as "cat|schem|name|type" lines
** with NULL written as \N. */
static int tables_call(SQLHDBC dbc, const char *cat, const char *schem,
                       const char *name, const char *type, e2e_buf *rows,
                       e2e_buf *why)
{
    static const char *const cols[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS"
    };
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_buf_clear(rows);
    SQLRETURN rc = SQLTables(st, (SQLCHAR *)cat, cat ? SQL_NTS : 0,
                             (SQLCHAR *)schem, schem ? SQL_NTS : 0,
                             (SQLCHAR *)name, name ? SQL_NTS : 0,
                             (SQLCHAR *)type, type ? SQL_NTS : 0);
    if (!SQL_SUCCEEDED(rc)) {
        stmt_diag(why, st, "SQLTables");
        goto done;
    }
    if (check_colnames(st, cols, 5, "SQLTables", why))
        goto done;
    for (;;) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(why, st, "SQLTables fetch");
            break;
        }
        for (int c = 1; c <= 4; c++) {
            char v[512];
            bool null = false;
            if (get_text(st, c, v, sizeof v, &null, why))
                goto done;
            e2e_buf_printf(rows, "%s%s", null ? "\\N" : v, c < 4 ? "|" : "\n");
        }
    }
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return why->len ? -1 : 0;
}

/* Field `k` (0-based, '|'-separated) of one line: start and length. */
static const char *field_at(const char *line, size_t len, int k, size_t *flen)
{
    const char *p = line, *end = line + len;
    for (; k > 0; k--) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        if (!bar)
            return NULL;
        p = bar + 1;
    }
    const char *bar = memchr(p, '|', (size_t)(end - p));
    *flen = bar ? (size_t)(bar - p) : (size_t)(end - p);
    return p;
}

/* Every line of `rows` matches `pattern` ("a|b|c|d"), '*' matching any
** field. */
static bool all_rows_like(const char *rows, const char *pattern)
{
    for (const char *line = rows; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        for (int k = 0; k < 4; k++) {
            size_t fl = 0, pl = 0;
            const char *f = field_at(line, len, k, &fl);
            const char *p = field_at(pattern, strlen(pattern), k, &pl);
            if (!f || !p)
                return false;
            if (!(pl == 1 && *p == '*') && (pl != fl || memcmp(p, f, fl) != 0))
                return false;
        }
        line += len + (nl ? 1 : 0);
    }
    return true;
}

static void check(e2e_tally *t, const e2e_config *cfg, const char *what,
                  e2e_buf *why)
{
    if (why->len)
        e2e_fail(t, what, "%s", why->ptr);
    else
        e2e_pass(t, cfg, what);
    e2e_buf_clear(why);
}

static void tables_forms(SQLHDBC dbc, const char *table, const e2e_config *cfg,
                         e2e_tally *t)
{
    e2e_buf rows = {0}, why = {0}, line = {0};
    e2e_buf_printf(&line, "|%s|TABLE\n", table);

    if (tables_call(dbc, SQL_ALL_CATALOGS, "", "", NULL, &rows, &why) == 0 &&
        !all_rows_like(rows.ptr ? rows.ptr : "", "*|\\N|\\N|\\N"))
        e2e_buf_printf(&why, "catalog enumeration has non-NULL columns: %s", rows.ptr);
    check(t, cfg, "SQLTables(SQL_ALL_CATALOGS, \"\", \"\")", &why);

    if (tables_call(dbc, "", SQL_ALL_SCHEMAS, "", NULL, &rows, &why) == 0 &&
        !all_rows_like(rows.ptr ? rows.ptr : "", "\\N|*|\\N|\\N"))
        e2e_buf_printf(&why, "schema enumeration has non-NULL columns: %s", rows.ptr);
    check(t, cfg, "SQLTables(\"\", SQL_ALL_SCHEMAS, \"\")", &why);

    if (tables_call(dbc, "", "", "", SQL_ALL_TABLE_TYPES, &rows, &why) == 0) {
        if (!all_rows_like(rows.ptr ? rows.ptr : "", "\\N|\\N|\\N|*"))
            e2e_buf_printf(&why, "table-type enumeration has non-NULL columns: %s",
                           rows.ptr);
        else if (!rows.ptr || !strstr(rows.ptr, "|TABLE\n"))
            e2e_buf_printf(&why, "table types lack TABLE: %s",
                           rows.ptr ? rows.ptr : "(none)");
    }
    check(t, cfg, "SQLTables(\"\", \"\", \"\", SQL_ALL_TABLE_TYPES)", &why);

    static const struct { const char *type; bool listed; } filters[] = {
        { NULL, true }, { "TABLE", true }, { "'TABLE'", true },
        { "'VIEW','TABLE'", true }, { "VIEW", false }, { "SYSTEM TABLE", false },
    };
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++) {
        char what[200];
        snprintf(what, sizeof what, "SQLTables(NULL, NULL, \"%%\", %s%s%s)",
                 filters[i].type ? "\"" : "",
                 filters[i].type ? filters[i].type : "NULL",
                 filters[i].type ? "\"" : "");
        if (tables_call(dbc, NULL, NULL, "%", filters[i].type, &rows, &why) == 0) {
            bool listed = rows.ptr && strstr(rows.ptr, line.ptr) != NULL;
            if (listed != filters[i].listed)
                e2e_buf_printf(&why, "%s lists %s: %s", filters[i].listed ?
                               "expected \"%s\" as a TABLE," : "did not expect",
                               table, rows.ptr ? rows.ptr : "(no rows)");
        }
        check(t, cfg, what, &why);
    }
    e2e_buf_free(&rows);
    e2e_buf_free(&why);
    e2e_buf_free(&line);
}

typedef struct colinfo {
    char name[256];
    char type_name[64];
    long data_type, sql_data_type, sub, ordinal;
} colinfo;

/* SQLColumns of a table, checked against the type info. */
static int columns_of(SQLHDBC dbc, const char *table, const typeinfo *ti,
                      colinfo *ci, int cap, e2e_buf *why)
{
    static const char *const cols[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
        "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS",
        "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE",
        "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION",
        "IS_NULLABLE"
    };
    SQLHSTMT st;
    int n = 0;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    if (!SQL_SUCCEEDED(SQLColumns(st, NULL, 0, NULL, 0, (SQLCHAR *)table, SQL_NTS,
                                  (SQLCHAR *)"%", SQL_NTS))) {
        stmt_diag(why, st, "SQLColumns");
        goto done;
    }
    if (check_colnames(st, cols, 18, "SQLColumns", why))
        goto done;
    while (n < cap) {
        SQLRETURN fr = SQLFetch(st);
        if (fr == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(fr)) {
            stmt_diag(why, st, "SQLColumns fetch");
            goto done;
        }
        colinfo *c = &ci[n++];
        bool null = false;
        if (get_text(st, 4, c->name, sizeof c->name, NULL, why) ||
            get_int(st, 5, &c->data_type, NULL, why) ||
            get_text(st, 6, c->type_name, sizeof c->type_name, NULL, why) ||
            get_int(st, 14, &c->sql_data_type, NULL, why) ||
            get_int(st, 15, &c->sub, &null, why) ||
            get_int(st, 17, &c->ordinal, NULL, why))
            goto done;
        if (null)
            c->sub = 0;
        if (c->ordinal != n)
            e2e_buf_printf(why, "column %s: ORDINAL_POSITION %ld at row %d",
                           c->name, c->ordinal, n);
        else if (!typeinfo_has(ti, c->type_name, c->data_type, false))
            e2e_buf_printf(why, "column %s: TYPE_NAME \"%s\" with DATA_TYPE %ld "
                           "is no row of SQLGetTypeInfo%s", c->name, c->type_name,
                           c->data_type, typeinfo_has(ti, c->type_name, 0, true)
                           ? " (the name is, with another DATA_TYPE)" : "");
        else if (c->data_type >= SQL_TYPE_DATE && c->data_type <= SQL_TYPE_TIMESTAMP &&
                 (c->sql_data_type != SQL_DATETIME ||
                  c->sub != c->data_type - SQL_TYPE_DATE + SQL_CODE_DATE))
            e2e_buf_printf(why, "column %s: DATA_TYPE %ld but SQL_DATA_TYPE %ld, "
                           "SQL_DATETIME_SUB %ld", c->name, c->data_type,
                           c->sql_data_type, c->sub);
        else if ((c->data_type < SQL_TYPE_DATE || c->data_type > SQL_TYPE_TIMESTAMP) &&
                 c->data_type < 100 && c->sql_data_type != c->data_type)
            e2e_buf_printf(why, "column %s: DATA_TYPE %ld but SQL_DATA_TYPE %ld",
                           c->name, c->data_type, c->sql_data_type);
        if (why->len)
            goto done;
    }
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return why->len ? -1 : n;
}

/* SQLColumns against the description of SELECT *. */
static void against_select(SQLHDBC dbc, const char *table, const colinfo *ci,
                           int n, e2e_buf *why)
{
    SQLHSTMT st;
    e2e_buf sql = {0};
    e2e_col *cols = NULL;
    e2e_diag d;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    e2e_select_all(&sql, table);
    if (!SQL_SUCCEEDED(e2e_exec(st, sql.ptr, true))) {
        stmt_diag(why, st, "SQLExecDirectW");
        goto done;
    }
    int ncols = e2e_describe(st, true, &cols, &d);
    if (ncols != n) {
        e2e_buf_printf(why, "SELECT * has %d columns, SQLColumns %d%s%s", ncols, n,
                       ncols < 0 ? ": " : "", ncols < 0 ? d.text : "");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        char tn[128] = "";
        SQLSMALLINT len = 0;
        SQLLEN concise = 0;
        SQLColAttribute(st, (SQLUSMALLINT)(i + 1), SQL_DESC_TYPE_NAME, tn,
                        sizeof tn, &len, NULL);
        SQLColAttribute(st, (SQLUSMALLINT)(i + 1), SQL_DESC_CONCISE_TYPE, NULL, 0,
                        NULL, &concise);
        if (strcmp(cols[i].name, ci[i].name) != 0)
            e2e_buf_printf(why, "column %d: SQLDescribeColW \"%s\", SQLColumns "
                           "\"%s\"", i + 1, cols[i].name, ci[i].name);
        else if (cols[i].type != ci[i].data_type || concise != ci[i].data_type)
            e2e_buf_printf(why, "column %s: SQLDescribeColW type %d, "
                           "SQL_DESC_CONCISE_TYPE %ld, SQLColumns DATA_TYPE %ld",
                           ci[i].name, (int)cols[i].type, (long)concise,
                           ci[i].data_type);
        else if (strcmp(tn, ci[i].type_name) != 0)
            e2e_buf_printf(why, "column %s: SQL_DESC_TYPE_NAME \"%s\", SQLColumns "
                           "TYPE_NAME \"%s\"", ci[i].name, tn, ci[i].type_name);
        if (why->len)
            break;
    }
done:
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    e2e_buf_free(&sql);
    free(cols);
}

static const colinfo *find_col(const colinfo *ci, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(ci[i].name, name) == 0)
            return &ci[i];
    return NULL;
}

int e2e_cmd_catalog(const e2e_config *cfg)
{
    e2e_tally t = {0};
    e2e_case *cases = NULL;
    int ncases = e2e_cases_load(cfg->corpus, cfg->format, &cases);
    if (ncases < 0)
        return 2;
    SQLHENV env = e2e_env_new();
    e2e_buf cs = {0}, why = {0};
    static colinfo ci[1024];
    for (int i = 0; i < ncases; i++) {
        const e2e_case *c = &cases[i];
        if (c->expect != EXPECT_ROWS)
            continue;
        char what[600];
        snprintf(what, sizeof what, "catalog %s/%s", cfg->format, c->file);
        e2e_diag d;
        e2e_connstr(&cs, cfg->driver, c->path, c->connect);
        SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
        if (!dbc) {
            e2e_fail(&t, what, "connect: %s", d.text);
            continue;
        }
        typeinfo ti;
        bool vfp = strcmp(c->file, "generated/vfp_alltypes.dbf") == 0;
        if (load_typeinfo(dbc, &ti, &why) == 0) {
            int n = columns_of(dbc, c->table, &ti, ci, 1024, &why);
            if (n == 0 && !why.len)
                e2e_buf_printf(&why, "SQLColumns returned no columns");
            if (n > 0)
                against_select(dbc, c->table, ci, n, &why);
            if (vfp && !why.len) {
                const colinfo *stamp = find_col(ci, n, "STAMP");
                const colinfo *born = find_col(ci, n, "BORN");
                if (!stamp || stamp->data_type != SQL_TYPE_TIMESTAMP)
                    e2e_buf_printf(&why, "STAMP (VFP T) has DATA_TYPE %ld, not 93",
                                   stamp ? stamp->data_type : -1);
                else if (!born || born->data_type != SQL_TYPE_DATE)
                    e2e_buf_printf(&why, "BORN (D) has DATA_TYPE %ld, not 91",
                                   born ? born->data_type : -1);
            }
        }
        check(&t, cfg, what, &why);
        if (vfp)
            tables_forms(dbc, c->table, cfg, &t);
        e2e_disconnect(dbc);
    }
    e2e_buf_free(&cs);
    e2e_buf_free(&why);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    e2e_cases_free(cases, ncases);
    return e2e_summary(&t);
}
