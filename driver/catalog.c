/*
** catalog.c — the catalog functions: SQLTables, SQLColumns, SQLStatistics,
** SQLPrimaryKeys, SQLSpecialColumns, SQLForeignKeys, SQLProcedures,
** SQLProcedureColumns, SQLTablePrivileges, SQLColumnPrivileges and
** SQLGetTypeInfo.
**
** Each builds its whole result as one batch (lt_result, below) from the
** connection's source and hands it to lt_stmt_open_cursor() as a cursor made
** by sql_cursor_from_batch(): fetching a catalog result is fetching any other
** result.  Column names are the ODBC 3 names of the reference.
**
** Lector has neither catalogs nor schemas (SQLGetInfo SQL_CATALOG_NAME "N",
** SQL_SCHEMA_USAGE 0): TABLE_CAT and TABLE_SCHEM are NULL in every row, and a
** catalog or schema argument matches them only when it is NULL, empty or a
** pattern matching the empty string ("%").  SQLTables("%", "", "") — the
** catalog enumeration — is therefore empty, as LibreOffice and Excel expect
** of a driver that says it has no catalogs, and so is the schema
** enumeration.  Names compare case-insensitively, as SQL resolves them
** (SQL_IDENTIFIER_CASE is SQL_IC_MIXED).
*/
#include "types.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Result sets built from rows in hand                                       */
/* ------------------------------------------------------------------------ */

void lt_result_init(lt_result *r, const lt_result_col *cols, uint32_t ncols)
{
    memset(r, 0, sizeof *r);
    r->cols = cols;
    r->ncols = ncols;
}

int lt_result_alloc(lt_result *r, lt_error *err)
{
    lt_type types[32];
    if (r->ncols > 32)
        return lt_error_set(err, "HY000", "internal: result of %u columns",
                            (unsigned)r->ncols);
    for (uint32_t i = 0; i < r->ncols; i++)
        types[i] = r->cols[i].type;
    r->batch = lt_batch_new(r->ncols, types, NULL, r->row ? r->row : 1);
    if (r->batch == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    r->row = 0;
    return 0;
}

static void set_cell(lt_result *r, uint32_t col, const lt_value *v)
{
    if (r->batch == NULL || col >= r->ncols || r->row >= r->batch->capacity)
        return;
    if (lt_batch_set(r->batch, col, r->row, v) != 0)
        r->oom = true;
}

void lt_result_text(lt_result *r, uint32_t col, const char *s)
{
    lt_value v = {.type = LT_NULL};
    if (s != NULL) {
        v.type = LT_TEXT;
        v.u.bytes.ptr = s;
        v.u.bytes.len = (uint32_t)strlen(s);
    }
    set_cell(r, col, &v);
}

void lt_result_int(lt_result *r, uint32_t col, int64_t i)
{
    lt_value v = {.type = LT_INT64, .u.i64 = i};
    set_cell(r, col, &v);
}

void lt_result_null(lt_result *r, uint32_t col)
{
    lt_value v = {.type = LT_NULL};
    set_cell(r, col, &v);
}

void lt_result_end_row(lt_result *r)
{
    r->row++;
    if (r->batch != NULL && r->row <= r->batch->capacity)
        r->batch->count = r->row;
}

void lt_result_free(lt_result *r)
{
    lt_batch_free(r->batch);
    r->batch = NULL;
}

int lt_result_cursor(lt_result *r, sql_cursor **out, lt_error *err)
{
    sql_column cols[32];
    *out = NULL;
    if (r->oom || r->batch == NULL || r->ncols > 32) {
        lt_result_free(r);
        return lt_error_set(err, "HY001", "out of memory");
    }
    memset(cols, 0, sizeof cols);
    for (uint32_t i = 0; i < r->ncols; i++) {
        lt_column *c = &cols[i].desc;
        c->name = (char *)r->cols[i].name;
        c->type = r->cols[i].type;
        c->size = r->cols[i].size;
        c->nullable = r->cols[i].nullable;
        c->type_name = r->cols[i].type == LT_TEXT ? "VARCHAR"
                       : r->cols[i].size == 5     ? "SMALLINT"
                                                  : "INTEGER";
        cols[i].base_table = "";
        cols[i].base_column = "";
    }
    *out = sql_cursor_from_batch(cols, r->ncols, r->batch);
    r->batch = NULL; /* the cursor owns it, or freed it on failure */
    if (*out == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Search patterns                                                           */
/* ------------------------------------------------------------------------ */

static int fold(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* Bytes of the UTF-8 character starting with `c` (1 for stray bytes). */
static size_t utf8_step(const char *s)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return i;
    return n;
}

/* Iterative matching with one backtracking point, the last '%' seen: a
** later '%' makes earlier choices final, so this is complete. */
bool lt_pattern_match(const char *pat, size_t plen, const char *s)
{
    if (pat == NULL)
        return true;
    size_t p = 0, star_p = (size_t)-1;
    const char *star_s = NULL;
    for (;;) {
        if (p < plen && pat[p] == '%') {
            while (p < plen && pat[p] == '%')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        if (*s == '\0') {
            if (p == plen)
                return true;
            return false; /* only a trailing '%' run could match "" */
        }
        if (p < plen) {
            if (pat[p] == '_') {
                p++;
                s += utf8_step(s);
                continue;
            }
            size_t q = p;
            if (pat[q] == '\\' && q + 1 < plen)
                q++;
            if (fold((unsigned char)pat[q]) == fold((unsigned char)*s)) {
                p = q + 1;
                s++;
                continue;
            }
        }
        if (star_s == NULL)
            return false;
        star_s += utf8_step(star_s);
        s = star_s;
        p = star_p;
    }
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                 */
/* ------------------------------------------------------------------------ */

/* A catalog function's string argument. */
typedef struct arg {
    const char *s;    /* NULL when the application passed a null pointer */
    size_t len;
} arg;

typedef enum arg_kind {
    ARG_ORDINARY,     /* OA: the name itself */
    ARG_PATTERN,      /* PV: a search pattern */
} arg_kind;

static bool get_arg(SQLCHAR *s, SQLSMALLINT len, arg *out)
{
    out->s = (const char *)s;
    out->len = 0;
    if (s == NULL)
        return true;
    if (len == SQL_NTS)
        out->len = strlen((const char *)s);
    else if (len < 0)
        return false;
    else
        out->len = (size_t)len;
    return true;
}

static bool ieq(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return false;
    for (size_t i = 0; i < alen; i++)
        if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
            return false;
    return true;
}

/* Does `name` (NUL-terminated; "" for the absent catalog and schema) match
** argument `a`?  With SQL_ATTR_METADATA_ID set every argument is an
** identifier: quoted, it is taken literally; unquoted, its trailing blanks go
** and case does not matter. */
static bool arg_match(const arg *a, arg_kind kind, bool metadata_id,
                      const char *name)
{
    if (a->s == NULL)
        return true;
    if (metadata_id) {
        const char *s = a->s;
        size_t len = a->len;
        if (len >= 2 && s[0] == '"' && s[len - 1] == '"')
            return len - 2 == strlen(name) && memcmp(s + 1, name, len - 2) == 0;
        while (len > 0 && s[len - 1] == ' ')
            len--;
        return ieq(s, len, name);
    }
    if (kind == ARG_PATTERN)
        return lt_pattern_match(a->s, a->len, name);
    return ieq(a->s, a->len, name);
}

/* ------------------------------------------------------------------------ */
/* Common frame of every catalog function                                    */
/* ------------------------------------------------------------------------ */

typedef struct catalog_call {
    lt_stmt *stmt;
    const lt_source *src;      /* NULL: no tables */
    bool metadata_id;
    SQLINTEGER odbc_version;
} catalog_call;

/* Enter the statement; NULL for an invalid handle (*rc then says so).
** *rc is SQL_ERROR with 24000 posted when a cursor is open (the driver
** manager checks that too). */
static lt_stmt *catalog_enter(SQLHSTMT hstmt, catalog_call *call, SQLRETURN *rc)
{
    lt_handle *h = lt_enter(hstmt, SQL_HANDLE_STMT);
    if (h == NULL) {
        *rc = SQL_INVALID_HANDLE;
        return NULL;
    }
    lt_stmt *stmt = (lt_stmt *)h;
    memset(call, 0, sizeof *call);
    call->stmt = stmt;
    call->src = stmt->dbc != NULL ? stmt->dbc->source : NULL;
    call->metadata_id = stmt->metadata_id == SQL_TRUE;
    call->odbc_version = stmt->dbc != NULL && stmt->dbc->env != NULL
                             ? stmt->dbc->env->odbc_version
                             : (SQLINTEGER)SQL_OV_ODBC3;
    *rc = SQL_SUCCESS;
    if (stmt->cursor != NULL) {
        lt_diag_post(&stmt->h, "24000", 0, "a cursor is open on the statement");
        *rc = SQL_ERROR;
    }
    return stmt;
}

/* Read `n` string arguments.  Posts HY090 for a bad length and HY009 for a
** null pointer where SQL_ATTR_METADATA_ID forbids one, or where bit i of
** `required` says the function always does. */
static SQLRETURN get_args(catalog_call *call, arg *args, SQLCHAR *const *ptrs,
                          const SQLSMALLINT *lens, size_t n, unsigned required)
{
    for (size_t i = 0; i < n; i++) {
        if (!get_arg(ptrs[i], lens[i], &args[i])) {
            lt_diag_post(&call->stmt->h, "HY090", 0,
                         "invalid string length %d", (int)lens[i]);
            return SQL_ERROR;
        }
        if (args[i].s == NULL &&
            (call->metadata_id || (required & (1u << i)) != 0)) {
            lt_diag_post(&call->stmt->h, "HY009", 0,
                         "a name argument is a null pointer");
            return SQL_ERROR;
        }
    }
    return SQL_SUCCESS;
}

/* Fill a result (counting, then for real), open it as the statement's
** cursor.  `fill` adds every row to `r`. */
typedef void fill_fn(lt_result *r, const catalog_call *call, const void *ctx);

static SQLRETURN run(catalog_call *call, const lt_result_col *cols,
                     uint32_t ncols, fill_fn *fill, const void *ctx)
{
    lt_result r;
    lt_error err;
    sql_cursor *cur;
    lt_result_init(&r, cols, ncols);
    if (fill != NULL)
        fill(&r, call, ctx);
    if (lt_result_alloc(&r, &err) != 0)
        return lt_diag_error(&call->stmt->h, &err);
    if (fill != NULL)
        fill(&r, call, ctx);
    if (lt_result_cursor(&r, &cur, &err) != 0)
        return lt_diag_error(&call->stmt->h, &err);
    return lt_stmt_open_cursor(call->stmt, cur);
}

static SQLRETURN oom(catalog_call *call)
{
    lt_diag_post(&call->stmt->h, "HY001", 0, "out of memory");
    return SQL_ERROR;
}

static int64_t clamp_int32(int64_t v)
{
    return v > 2147483647 ? 2147483647 : v;
}

static void int_or_null(lt_result *r, uint32_t col, bool present, int64_t v)
{
    if (present)
        lt_result_int(r, col, v);
    else
        lt_result_null(r, col);
}

/* ------------------------------------------------------------------------ */
/* Finding tables                                                            */
/* ------------------------------------------------------------------------ */

static int table_name_cmp(const void *a, const void *b)
{
    const lt_table *x = *(const lt_table *const *)a;
    const lt_table *y = *(const lt_table *const *)b;
    const char *p = x->name, *q = y->name;
    for (; *p && *q; p++, q++) {
        int d = fold((unsigned char)*p) - fold((unsigned char)*q);
        if (d != 0)
            return d;
    }
    if (*p || *q)
        return *p ? 1 : -1;
    return strcmp(x->name, y->name);
}

static const char *table_kind(const lt_table *t)
{
    return t->kind != NULL && t->kind[0] != '\0' ? t->kind : "TABLE";
}

/* A table argument triple: catalog, schema, table, and how each matches.
** `reach`: when no listed table matches, the table argument read as a
** name finds a table the way a query's FROM does (lt_source_find_table):
** a worksheet by its bare name, a range of a workbook made on demand. */
typedef struct table_args {
    arg cat, schem, table;
    arg_kind cat_kind, schem_kind, table_kind;
    bool reach;
} table_args;

/*
** The table argument as the literal name it stands for: with
** SQL_ATTR_METADATA_ID a quoted identifier's inside or an unquoted one
** without its trailing blanks; a pattern without its escapes, its '_'
** taken as itself (no listed table matched it as a wildcard).  False when
** it is no single name (a '%' wildcard) or longer than `cap`.
*/
static bool literal_name(const arg *a, arg_kind kind, bool metadata_id, char *buf, size_t cap,
                         size_t *len)
{
    const char *s = a->s;
    size_t n = a->len;
    if (metadata_id) {
        if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
            s++;
            n -= 2;
        } else {
            while (n > 0 && s[n - 1] == ' ')
                n--;
        }
        kind = ARG_ORDINARY;
    }
    *len = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (kind == ARG_PATTERN && c == '%')
            return false;
        if (kind == ARG_PATTERN && c == '\\' && i + 1 < n)
            c = s[++i];
        if (*len == cap)
            return false;
        buf[(*len)++] = c;
    }
    return *len > 0;
}

/* The table a query naming `ta->table` would read, when no listed table
** matched: 1 with its index, 0 when there is none. */
static int reach_table(const catalog_call *call, const table_args *ta, uint32_t *out)
{
    char name[1024];
    size_t len;
    if (!ta->reach || ta->table.s == NULL ||
        !literal_name(&ta->table, ta->table_kind, call->metadata_id, name, sizeof name, &len))
        return 0;
    int64_t i = lt_source_find_table(call->src, name, len);
    if (i < 0)
        return 0;
    *out = (uint32_t)i;
    return 1;
}

/* The tables `ta` names, sorted by name: malloc'ed, NULL when none
** (*n 0).  Returns false when out of memory. */
static bool find_tables(const catalog_call *call, const table_args *ta,
                        const lt_table ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    const lt_source *src = call->src;
    if (src == NULL || src->ntables == 0)
        return true;
    /* no catalogs, no schemas: they are "" to a pattern */
    if (!arg_match(&ta->cat, ta->cat_kind, call->metadata_id, "") ||
        !arg_match(&ta->schem, ta->schem_kind, call->metadata_id, ""))
        return true;
    const lt_table **v = malloc(src->ntables * sizeof *v);
    if (v == NULL)
        return false;
    for (uint32_t i = 0; i < src->ntables; i++)
        if (arg_match(&ta->table, ta->table_kind, call->metadata_id,
                      src->tables[i].name))
            v[(*n)++] = &src->tables[i];
    uint32_t reached;
    if (*n == 0 && reach_table(call, ta, &reached))
        v[(*n)++] = &src->tables[reached];
    if (*n == 0) {
        free(v);
        return true;
    }
    qsort(v, *n, sizeof *v, table_name_cmp);
    *out = v;
    return true;
}

/* Read catalog, schema and table arguments and find the tables; on error
** the diagnostic is posted. */
static SQLRETURN table_args_get(catalog_call *call, table_args *ta,
                                SQLCHAR *cat, SQLSMALLINT l1, SQLCHAR *schem,
                                SQLSMALLINT l2, SQLCHAR *table, SQLSMALLINT l3,
                                bool table_required, const lt_table ***v,
                                size_t *n)
{
    arg a[3];
    SQLCHAR *ptrs[3] = {cat, schem, table};
    SQLSMALLINT lens[3] = {l1, l2, l3};
    *v = NULL;
    *n = 0;
    SQLRETURN rc = get_args(call, a, ptrs, lens, 3, table_required ? 4u : 0u);
    if (rc != SQL_SUCCESS)
        return rc;
    ta->cat = a[0];
    ta->schem = a[1];
    ta->table = a[2];
    return find_tables(call, ta, v, n) ? SQL_SUCCESS : oom(call);
}

/* ------------------------------------------------------------------------ */
/* SQLTables                                                                 */
/* ------------------------------------------------------------------------ */

static const lt_result_col tables_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, true},
    {"TABLE_TYPE", LT_TEXT, 128, true},
    {"REMARKS", LT_TEXT, 254, true},
};

/* The table types any source may report; readers may add others. */
static const char *const std_table_types[] = {"SYSTEM TABLE", "TABLE", "VIEW"};

/* Is `kind` in the TableType list ("TABLE,VIEW", "'TABLE', 'VIEW'")? */
static bool type_listed(const arg *types, const char *kind)
{
    if (types->s == NULL || types->len == 0)
        return true;
    const char *p = types->s, *end = types->s + types->len;
    while (p < end) {
        const char *item = p;
        while (p < end && *p != ',')
            p++;
        const char *e = p;
        while (item < e && (*item == ' ' || *item == '\''))
            item++;
        while (e > item && (e[-1] == ' ' || e[-1] == '\''))
            e--;
        if ((e - item == 1 && *item == '%') ||
            ieq(item, (size_t)(e - item), kind))
            return true;
        if (p < end)
            p++;
    }
    return false;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* SQLTables(..., TableType = "%") with the others "": the distinct types. */
static void fill_table_types(lt_result *r, const catalog_call *call,
                             const void *ctx)
{
    const lt_source *src = call->src;
    const char *kinds[64];
    size_t n = 0;
    (void)ctx;
    for (size_t i = 0; i < sizeof std_table_types / sizeof *std_table_types; i++)
        kinds[n++] = std_table_types[i];
    for (uint32_t t = 0; src != NULL && t < src->ntables; t++) {
        const char *k = table_kind(&src->tables[t]);
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = strcmp(kinds[i], k) == 0;
        if (!seen && n < sizeof kinds / sizeof *kinds)
            kinds[n++] = k;
    }
    qsort(kinds, n, sizeof *kinds, str_cmp);
    for (size_t i = 0; i < n; i++) {
        lt_result_null(r, 0);
        lt_result_null(r, 1);
        lt_result_null(r, 2);
        lt_result_text(r, 3, kinds[i]);
        lt_result_null(r, 4);
        lt_result_end_row(r);
    }
}

static int kind_then_name_cmp(const void *a, const void *b)
{
    const lt_table *x = *(const lt_table *const *)a;
    const lt_table *y = *(const lt_table *const *)b;
    int d = strcmp(table_kind(x), table_kind(y));
    return d != 0 ? d : table_name_cmp(a, b);
}

typedef struct table_list {
    const lt_table **v;
    size_t n;
} table_list;

static void fill_tables(lt_result *r, const catalog_call *call, const void *ctx)
{
    const table_list *tl = ctx;
    (void)call;
    for (size_t i = 0; i < tl->n; i++) {
        lt_result_null(r, 0);
        lt_result_null(r, 1);
        lt_result_text(r, 2, tl->v[i]->name);
        lt_result_text(r, 3, table_kind(tl->v[i]));
        lt_result_null(r, 4);
        lt_result_end_row(r);
    }
}

static bool is_str(const arg *a, const char *s)
{
    return a->s != NULL && a->len == strlen(s) && memcmp(a->s, s, a->len) == 0;
}

SQLRETURN SQL_API SQLTables(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                            SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                            SQLSMALLINT NameLength2, SQLCHAR *TableName,
                            SQLSMALLINT NameLength3, SQLCHAR *TableType,
                            SQLSMALLINT NameLength4)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    table_args ta = {.cat_kind = ARG_PATTERN, .schem_kind = ARG_PATTERN,
                     .table_kind = ARG_PATTERN};
    arg types;
    if (rc == SQL_SUCCESS && !get_arg(TableType, NameLength4, &types)) {
        lt_diag_post(&stmt->h, "HY090", 0, "invalid string length %d",
                     (int)NameLength4);
        rc = SQL_ERROR;
    }
    table_list tl = {NULL, 0};
    if (rc == SQL_SUCCESS)
        rc = table_args_get(&call, &ta, CatalogName, NameLength1, SchemaName,
                            NameLength2, TableName, NameLength3, false, &tl.v,
                            &tl.n);
    if (rc != SQL_SUCCESS)
        return lt_leave(&stmt->h, rc);

    /* The three enumerations (ODBC reference, SQLTables, Comments). */
    if (is_str(&ta.cat, SQL_ALL_CATALOGS) && is_str(&ta.schem, "") &&
        is_str(&ta.table, "")) {
        rc = run(&call, tables_cols, 5, NULL, NULL);          /* no catalogs */
    } else if (is_str(&ta.schem, SQL_ALL_SCHEMAS) && is_str(&ta.cat, "") &&
               is_str(&ta.table, "")) {
        rc = run(&call, tables_cols, 5, NULL, NULL);          /* no schemas */
    } else if (is_str(&types, SQL_ALL_TABLE_TYPES) && is_str(&ta.cat, "") &&
               is_str(&ta.schem, "") && is_str(&ta.table, "")) {
        rc = run(&call, tables_cols, 5, fill_table_types, NULL);
    } else {
        size_t k = 0;
        for (size_t i = 0; i < tl.n; i++)
            if (type_listed(&types, table_kind(tl.v[i])))
                tl.v[k++] = tl.v[i];
        tl.n = k;
        if (k > 0)
            qsort(tl.v, k, sizeof *tl.v, kind_then_name_cmp);
        rc = run(&call, tables_cols, 5, fill_tables, &tl);
    }
    free(tl.v);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLColumns                                                                */
/* ------------------------------------------------------------------------ */

static const lt_result_col columns_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, false},
    {"COLUMN_NAME", LT_TEXT, 128, false},
    {"DATA_TYPE", LT_INT64, 5, false},
    {"TYPE_NAME", LT_TEXT, 128, false},
    {"COLUMN_SIZE", LT_INT64, 10, true},
    {"BUFFER_LENGTH", LT_INT64, 10, true},
    {"DECIMAL_DIGITS", LT_INT64, 5, true},
    {"NUM_PREC_RADIX", LT_INT64, 5, true},
    {"NULLABLE", LT_INT64, 5, false},
    {"REMARKS", LT_TEXT, 254, true},
    {"COLUMN_DEF", LT_TEXT, 254, true},
    {"SQL_DATA_TYPE", LT_INT64, 5, false},
    {"SQL_DATETIME_SUB", LT_INT64, 5, true},
    {"CHAR_OCTET_LENGTH", LT_INT64, 10, true},
    {"ORDINAL_POSITION", LT_INT64, 10, false},
    {"IS_NULLABLE", LT_TEXT, 3, true},
};

typedef struct columns_ctx {
    table_list tl;
    arg column;
    lt_arena arena;          /* views' columns */
    lt_column **view_cols;   /* per listed table: a view's columns, or NULL */
    uint32_t *view_ncols;
} columns_ctx;

/* A view's columns are those of `SELECT * FROM view` (the engine binds its
** query); a view whose query does not bind keeps what the reader says. */
static int describe_views(const catalog_call *call, columns_ctx *cc)
{
    size_t n = cc->tl.n ? cc->tl.n : 1;
    cc->view_cols = lt_arena_alloc(&cc->arena, n * sizeof *cc->view_cols);
    cc->view_ncols = lt_arena_alloc(&cc->arena, n * sizeof *cc->view_ncols);
    if (cc->view_cols == NULL || cc->view_ncols == NULL)
        return -1;
    for (size_t i = 0; i < cc->tl.n; i++) {
        const lt_table *t = cc->tl.v[i];
        sql_column *sc;
        uint32_t k;
        lt_error err;
        cc->view_cols[i] = NULL;
        cc->view_ncols[i] = 0;
        /* A workbook types a sheet on first use (reader.h describe); one
        ** that cannot be read is listed without columns, as before. */
        if (call->src != NULL)
            (void)lt_source_describe(call->src, (uint32_t)(t - call->src->tables), &err);
        if (t->query == NULL || t->error != NULL || call->src == NULL ||
            sql_describe_table((lt_source *)call->src, (uint32_t)(t - call->src->tables),
                               &cc->arena, &sc, &k, &err) != 0)
            continue;
        lt_column *cols = lt_arena_alloc(&cc->arena, (k ? k : 1) * sizeof *cols);
        if (cols == NULL)
            return -1;
        for (uint32_t c = 0; c < k; c++)
            cols[c] = sc[c].desc;
        cc->view_cols[i] = cols;
        cc->view_ncols[i] = k;
    }
    return 0;
}

static void fill_columns(lt_result *r, const catalog_call *call, const void *ctx)
{
    const columns_ctx *cc = ctx;
    for (size_t i = 0; i < cc->tl.n; i++) {
        const lt_table *t = cc->tl.v[i];
        const lt_column *tcols = cc->view_cols[i] ? cc->view_cols[i] : t->cols;
        uint32_t ncols = cc->view_cols[i] ? cc->view_ncols[i] : t->ncols;
        for (uint32_t c = 0; c < ncols; c++) {
            const lt_column *col = &tcols[c];
            if (!arg_match(&cc->column, ARG_PATTERN, call->metadata_id,
                           col->name))
                continue;
            lt_sqltype st;
            lt_sqltype_of(col, &st);
            lt_result_null(r, 0);
            lt_result_null(r, 1);
            lt_result_text(r, 2, t->name);
            lt_result_text(r, 3, col->name);
            lt_result_int(r, 4, lt_sqltype_for_version(st.concise,
                                                       call->odbc_version));
            lt_result_text(r, 5, st.name);
            lt_result_int(r, 6, clamp_int32((int64_t)st.column_size));
            lt_result_int(r, 7, clamp_int32(st.octet_length));
            int_or_null(r, 8, st.has_scale, st.decimal_digits);
            int_or_null(r, 9, st.num_prec_radix != 0, st.num_prec_radix);
            lt_result_int(r, 10, col->nullable ? SQL_NULLABLE : SQL_NO_NULLS);
            lt_result_text(r, 11, col->type_name);
            lt_result_null(r, 12);
            lt_result_int(r, 13, st.verbose);
            int_or_null(r, 14, st.datetime_code != 0, st.datetime_code);
            int_or_null(r, 15, st.char_octet_length != 0,
                        clamp_int32(st.char_octet_length));
            lt_result_int(r, 16, (int64_t)c + 1);
            lt_result_text(r, 17, col->nullable ? "YES" : "NO");
            lt_result_end_row(r);
        }
    }
}

SQLRETURN SQL_API SQLColumns(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                             SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                             SQLSMALLINT NameLength2, SQLCHAR *TableName,
                             SQLSMALLINT NameLength3, SQLCHAR *ColumnName,
                             SQLSMALLINT NameLength4)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    table_args ta = {.cat_kind = ARG_ORDINARY, .schem_kind = ARG_PATTERN,
                     .table_kind = ARG_PATTERN, .reach = true};
    columns_ctx cc;
    memset(&cc, 0, sizeof cc);
    lt_arena_init(&cc.arena);
    if (rc == SQL_SUCCESS)
        rc = get_args(&call, &cc.column, &ColumnName, &NameLength4, 1, 0);
    if (rc == SQL_SUCCESS)
        rc = table_args_get(&call, &ta, CatalogName, NameLength1, SchemaName,
                            NameLength2, TableName, NameLength3, false,
                            &cc.tl.v, &cc.tl.n);
    if (rc == SQL_SUCCESS && describe_views(&call, &cc) != 0)
        rc = oom(&call);
    if (rc == SQL_SUCCESS)
        rc = run(&call, columns_cols, 18, fill_columns, &cc);
    free(cc.tl.v);
    lt_arena_free(&cc.arena);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLStatistics                                                             */
/* ------------------------------------------------------------------------ */

static const lt_result_col statistics_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, false},
    {"NON_UNIQUE", LT_INT64, 5, true},
    {"INDEX_QUALIFIER", LT_TEXT, 128, true},
    {"INDEX_NAME", LT_TEXT, 128, true},
    {"TYPE", LT_INT64, 5, false},
    {"ORDINAL_POSITION", LT_INT64, 5, true},
    {"COLUMN_NAME", LT_TEXT, 128, true},
    {"ASC_OR_DESC", LT_TEXT, 1, true},
    {"CARDINALITY", LT_INT64, 10, true},
    {"PAGES", LT_INT64, 10, true},
    {"FILTER_CONDITION", LT_TEXT, 128, true},
};

typedef struct statistics_ctx {
    table_list tl;
    const int64_t *rows;       /* per table: rows, -1 unknown */
    bool unique_only;
} statistics_ctx;

/* Unique indexes first (NON_UNIQUE 0), then by name: the spec's order. */
static int index_cmp(const void *a, const void *b)
{
    const lt_index *x = *(const lt_index *const *)a;
    const lt_index *y = *(const lt_index *const *)b;
    if (x->unique != y->unique)
        return x->unique ? -1 : 1;
    return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void fill_index(lt_result *r, const lt_table *t, const lt_index *x,
                       int64_t rows)
{
    for (uint32_t k = 0; k < x->ncols; k++) {
        lt_result_null(r, 0);
        lt_result_null(r, 1);
        lt_result_text(r, 2, t->name);
        lt_result_int(r, 3, x->unique ? SQL_FALSE : SQL_TRUE);
        lt_result_null(r, 4);
        lt_result_text(r, 5, x->name);
        lt_result_int(r, 6, SQL_INDEX_OTHER);
        lt_result_int(r, 7, (int64_t)k + 1);
        lt_result_text(r, 8, x->cols[k] < t->ncols ? t->cols[x->cols[k]].name
                                                   : NULL);
        lt_result_text(r, 9, "A");
        /* a unique index has as many distinct keys as the table rows */
        int_or_null(r, 10, x->unique && rows >= 0, clamp_int32(rows));
        lt_result_null(r, 11);
        lt_result_null(r, 12);
        lt_result_end_row(r);
    }
}

static void fill_statistics(lt_result *r, const catalog_call *call,
                            const void *ctx)
{
    const statistics_ctx *sc = ctx;
    (void)call;
    for (size_t i = 0; i < sc->tl.n; i++) {
        const lt_table *t = sc->tl.v[i];
        int64_t rows = sc->rows[i];
        lt_result_null(r, 0);
        lt_result_null(r, 1);
        lt_result_text(r, 2, t->name);
        for (uint32_t c = 3; c <= 5; c++)
            lt_result_null(r, c);
        lt_result_int(r, 6, SQL_TABLE_STAT);
        for (uint32_t c = 7; c <= 9; c++)
            lt_result_null(r, c);
        int_or_null(r, 10, rows >= 0, clamp_int32(rows));
        lt_result_null(r, 11);
        lt_result_null(r, 12);
        lt_result_end_row(r);
        const lt_index *stack[32], **idx = stack;
        if (t->nindexes > 32 &&
            (idx = malloc(t->nindexes * sizeof *idx)) == NULL) {
            r->oom = true;
            return;
        }
        uint32_t n = 0;
        for (uint32_t k = 0; k < t->nindexes; k++)
            if (!sc->unique_only || t->indexes[k].unique)
                idx[n++] = &t->indexes[k];
        qsort(idx, n, sizeof *idx, index_cmp);
        for (uint32_t k = 0; k < n; k++)
            fill_index(r, t, idx[k], rows);
        if (idx != stack)
            free(idx);
    }
}

SQLRETURN SQL_API SQLStatistics(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                SQLSMALLINT NameLength3, SQLUSMALLINT Unique,
                                SQLUSMALLINT Reserved)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    if (rc == SQL_SUCCESS && Unique != SQL_INDEX_UNIQUE &&
        Unique != SQL_INDEX_ALL) {
        lt_diag_post(&stmt->h, "HY100", 0, "invalid Unique option %u",
                     (unsigned)Unique);
        rc = SQL_ERROR;
    }
    if (rc == SQL_SUCCESS && Reserved != SQL_ENSURE && Reserved != SQL_QUICK) {
        lt_diag_post(&stmt->h, "HY101", 0, "invalid Reserved option %u",
                     (unsigned)Reserved);
        rc = SQL_ERROR;
    }
    table_args ta = {.cat_kind = ARG_ORDINARY, .schem_kind = ARG_ORDINARY,
                     .table_kind = ARG_ORDINARY, .reach = true};
    statistics_ctx sc = {{NULL, 0}, NULL, Unique == SQL_INDEX_UNIQUE};
    if (rc == SQL_SUCCESS)
        rc = table_args_get(&call, &ta, CatalogName, NameLength1, SchemaName,
                            NameLength2, TableName, NameLength3, true,
                            &sc.tl.v, &sc.tl.n);
    int64_t *rows = NULL;
    if (rc == SQL_SUCCESS && sc.tl.n > 0) {
        rows = malloc(sc.tl.n * sizeof *rows);
        if (rows == NULL)
            rc = oom(&call);
        for (size_t i = 0; rows != NULL && i < sc.tl.n; i++) {
            const lt_table *t = sc.tl.v[i];
            rows[i] = t->row_estimate;
            /* SQL_ENSURE asks for the exact count where one is cheap */
            if (Reserved == SQL_ENSURE && call.src->reader->count_rows != NULL) {
                lt_error err;
                int64_t exact = call.src->reader->count_rows(
                    (lt_source *)call.src, (uint32_t)(t - call.src->tables),
                    &err);
                if (exact >= 0)
                    rows[i] = exact;
            }
        }
    }
    sc.rows = rows;
    if (rc == SQL_SUCCESS)
        rc = run(&call, statistics_cols, 13, fill_statistics, &sc);
    free(rows);
    free(sc.tl.v);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLPrimaryKeys                                                            */
/* ------------------------------------------------------------------------ */

static const lt_result_col primary_keys_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, false},
    {"COLUMN_NAME", LT_TEXT, 128, false},
    {"KEY_SEQ", LT_INT64, 5, false},
    {"PK_NAME", LT_TEXT, 128, true},
};

static const lt_index *primary_index(const lt_table *t)
{
    for (uint32_t i = 0; i < t->nindexes; i++)
        if (t->indexes[i].primary)
            return &t->indexes[i];
    return NULL;
}

static void fill_primary_keys(lt_result *r, const catalog_call *call,
                              const void *ctx)
{
    const table_list *tl = ctx;
    (void)call;
    for (size_t i = 0; i < tl->n; i++) {
        const lt_table *t = tl->v[i];
        const lt_index *pk = primary_index(t);
        for (uint32_t k = 0; pk != NULL && k < pk->ncols; k++) {
            if (pk->cols[k] >= t->ncols)
                continue;
            lt_result_null(r, 0);
            lt_result_null(r, 1);
            lt_result_text(r, 2, t->name);
            lt_result_text(r, 3, t->cols[pk->cols[k]].name);
            lt_result_int(r, 4, (int64_t)k + 1);
            lt_result_text(r, 5, pk->name);
            lt_result_end_row(r);
        }
    }
}

SQLRETURN SQL_API SQLPrimaryKeys(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                 SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                 SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                 SQLSMALLINT NameLength3)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    table_args ta = {.cat_kind = ARG_ORDINARY, .schem_kind = ARG_ORDINARY,
                     .table_kind = ARG_ORDINARY, .reach = true};
    table_list tl = {NULL, 0};
    if (rc == SQL_SUCCESS)
        rc = table_args_get(&call, &ta, CatalogName, NameLength1, SchemaName,
                            NameLength2, TableName, NameLength3, true, &tl.v,
                            &tl.n);
    if (rc == SQL_SUCCESS)
        rc = run(&call, primary_keys_cols, 6, fill_primary_keys, &tl);
    free(tl.v);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLSpecialColumns                                                         */
/* ------------------------------------------------------------------------ */

static const lt_result_col special_columns_cols[] = {
    {"SCOPE", LT_INT64, 5, true},
    {"COLUMN_NAME", LT_TEXT, 128, false},
    {"DATA_TYPE", LT_INT64, 5, false},
    {"TYPE_NAME", LT_TEXT, 128, false},
    {"COLUMN_SIZE", LT_INT64, 10, true},
    {"BUFFER_LENGTH", LT_INT64, 10, true},
    {"DECIMAL_DIGITS", LT_INT64, 5, true},
    {"PSEUDO_COLUMN", LT_INT64, 5, true},
};

typedef struct special_ctx {
    table_list tl;
    bool no_nulls;             /* Nullable = SQL_NO_NULLS */
} special_ctx;

static bool index_has_nullable(const lt_table *t, const lt_index *x)
{
    for (uint32_t k = 0; k < x->ncols; k++)
        if (x->cols[k] >= t->ncols || t->cols[x->cols[k]].nullable)
            return true;
    return false;
}

/* The best row identifier: the primary key, else the first unique index
** over non-nullable columns.  Files never change under a connection, so
** the identifier holds for the session. */
static const lt_index *best_rowid(const lt_table *t, bool no_nulls)
{
    const lt_index *pk = primary_index(t);
    if (pk != NULL && pk->ncols > 0 && !(no_nulls && index_has_nullable(t, pk)))
        return pk;
    for (uint32_t i = 0; i < t->nindexes; i++) {
        const lt_index *x = &t->indexes[i];
        if (x->unique && x->ncols > 0 && !index_has_nullable(t, x))
            return x;
    }
    return NULL;
}

static void fill_special_columns(lt_result *r, const catalog_call *call,
                                 const void *ctx)
{
    const special_ctx *sc = ctx;
    for (size_t i = 0; i < sc->tl.n; i++) {
        const lt_table *t = sc->tl.v[i];
        const lt_index *x = best_rowid(t, sc->no_nulls);
        for (uint32_t k = 0; x != NULL && k < x->ncols; k++) {
            const lt_column *col = &t->cols[x->cols[k]];
            lt_sqltype st;
            lt_sqltype_of(col, &st);
            lt_result_int(r, 0, SQL_SCOPE_SESSION);
            lt_result_text(r, 1, col->name);
            lt_result_int(r, 2, lt_sqltype_for_version(st.concise,
                                                       call->odbc_version));
            lt_result_text(r, 3, st.name);
            lt_result_int(r, 4, clamp_int32((int64_t)st.column_size));
            lt_result_int(r, 5, clamp_int32(st.octet_length));
            int_or_null(r, 6, st.has_scale, st.decimal_digits);
            lt_result_int(r, 7, SQL_PC_NOT_PSEUDO);
            lt_result_end_row(r);
        }
    }
}

SQLRETURN SQL_API SQLSpecialColumns(SQLHSTMT hstmt, SQLUSMALLINT IdentifierType,
                                    SQLCHAR *CatalogName,
                                    SQLSMALLINT NameLength1,
                                    SQLCHAR *SchemaName,
                                    SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                    SQLSMALLINT NameLength3, SQLUSMALLINT Scope,
                                    SQLUSMALLINT Nullable)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    if (rc == SQL_SUCCESS && IdentifierType != SQL_BEST_ROWID &&
        IdentifierType != SQL_ROWVER) {
        lt_diag_post(&stmt->h, "HY097", 0, "invalid IdentifierType %u",
                     (unsigned)IdentifierType);
        rc = SQL_ERROR;
    }
    if (rc == SQL_SUCCESS && Scope != SQL_SCOPE_CURROW &&
        Scope != SQL_SCOPE_TRANSACTION && Scope != SQL_SCOPE_SESSION) {
        lt_diag_post(&stmt->h, "HY098", 0, "invalid Scope %u", (unsigned)Scope);
        rc = SQL_ERROR;
    }
    if (rc == SQL_SUCCESS && Nullable != SQL_NO_NULLS &&
        Nullable != SQL_NULLABLE) {
        lt_diag_post(&stmt->h, "HY099", 0, "invalid Nullable %u",
                     (unsigned)Nullable);
        rc = SQL_ERROR;
    }
    table_args ta = {.cat_kind = ARG_ORDINARY, .schem_kind = ARG_ORDINARY,
                     .table_kind = ARG_ORDINARY, .reach = true};
    special_ctx sc = {{NULL, 0}, Nullable == SQL_NO_NULLS};
    if (rc == SQL_SUCCESS)
        rc = table_args_get(&call, &ta, CatalogName, NameLength1, SchemaName,
                            NameLength2, TableName, NameLength3, true,
                            &sc.tl.v, &sc.tl.n);
    /* Nothing changes a row behind the application's back: no ROWVER. */
    if (rc == SQL_SUCCESS && IdentifierType == SQL_ROWVER)
        sc.tl.n = 0;
    if (rc == SQL_SUCCESS)
        rc = run(&call, special_columns_cols, 8, fill_special_columns, &sc);
    free(sc.tl.v);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLForeignKeys                                                            */
/* ------------------------------------------------------------------------ */

static const lt_result_col foreign_keys_cols[] = {
    {"PKTABLE_CAT", LT_TEXT, 128, true},
    {"PKTABLE_SCHEM", LT_TEXT, 128, true},
    {"PKTABLE_NAME", LT_TEXT, 128, false},
    {"PKCOLUMN_NAME", LT_TEXT, 128, false},
    {"FKTABLE_CAT", LT_TEXT, 128, true},
    {"FKTABLE_SCHEM", LT_TEXT, 128, true},
    {"FKTABLE_NAME", LT_TEXT, 128, false},
    {"FKCOLUMN_NAME", LT_TEXT, 128, false},
    {"KEY_SEQ", LT_INT64, 5, false},
    {"UPDATE_RULE", LT_INT64, 5, true},
    {"DELETE_RULE", LT_INT64, 5, true},
    {"FK_NAME", LT_TEXT, 128, true},
    {"PK_NAME", LT_TEXT, 128, true},
    {"DEFERRABILITY", LT_INT64, 5, true},
};

/* One foreign key in the result, and the name it sorts by. */
typedef struct fk_entry {
    const lt_table *table;        /* the referencing table */
    const lt_foreign_key *fk;
    const lt_table *ref;          /* the referenced table, NULL if absent */
    const char *sort_name;        /* PKTABLE_NAME, or FKTABLE_NAME when only
                                     the primary key table was given */
} fk_entry;

typedef struct foreign_ctx {
    fk_entry *v;
    size_t n;
} foreign_ctx;

/* Names in the order SQLTables lists tables: case folded, then as is. */
static int name_cmp(const char *p, const char *q)
{
    const char *a = p, *b = q;
    for (; *a && *b; a++, b++) {
        int d = fold((unsigned char)*a) - fold((unsigned char)*b);
        if (d != 0)
            return d;
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return strcmp(p, q);
}

static int fk_entry_cmp(const void *a, const void *b)
{
    const fk_entry *x = a, *y = b;
    int d = name_cmp(x->sort_name, y->sort_name);
    if (d != 0)
        return d;
    return name_cmp(x->fk->name ? x->fk->name : "", y->fk->name ? y->fk->name : "");
}

/* The name of the referenced table's key the foreign key points at: its
** primary key, else a unique index, over exactly the referenced columns. */
static const char *referenced_key_name(const lt_table *ref,
                                       const lt_foreign_key *fk)
{
    const lt_index *best = NULL;
    for (uint32_t i = 0; ref != NULL && i < ref->nindexes; i++) {
        const lt_index *x = &ref->indexes[i];
        if (!(x->unique || x->primary) || x->ncols != fk->ncols)
            continue;
        bool same = true;
        for (uint32_t k = 0; k < x->ncols && same; k++)
            same = x->cols[k] < ref->ncols &&
                   ieq(fk->ref_cols[k], strlen(fk->ref_cols[k]),
                       ref->cols[x->cols[k]].name);
        if (same && (best == NULL || x->primary))
            best = x;
    }
    return best != NULL ? best->name : NULL;
}

static void fill_foreign_keys(lt_result *r, const catalog_call *call,
                              const void *ctx)
{
    const foreign_ctx *fc = ctx;
    (void)call;
    for (size_t i = 0; i < fc->n; i++) {
        const fk_entry *e = &fc->v[i];
        const lt_foreign_key *fk = e->fk;
        const char *pk_name = referenced_key_name(e->ref, fk);
        for (uint32_t k = 0; k < fk->ncols; k++) {
            if (fk->cols[k] >= e->table->ncols)
                continue;
            lt_result_null(r, 0);
            lt_result_null(r, 1);
            lt_result_text(r, 2, e->ref != NULL ? e->ref->name : fk->ref_table);
            lt_result_text(r, 3, fk->ref_cols[k]);
            lt_result_null(r, 4);
            lt_result_null(r, 5);
            lt_result_text(r, 6, e->table->name);
            lt_result_text(r, 7, e->table->cols[fk->cols[k]].name);
            lt_result_int(r, 8, (int64_t)k + 1);
            lt_result_int(r, 9, fk->update_rule);
            lt_result_int(r, 10, fk->delete_rule);
            lt_result_text(r, 11, fk->name);
            lt_result_text(r, 12, pk_name);
            lt_result_int(r, 13, SQL_NOT_DEFERRABLE);
            lt_result_end_row(r);
        }
    }
}

/* The foreign keys the arguments ask for (a[2] the primary key table, a[5]
** the foreign key table; either may be absent), sorted as the reference
** orders them: by FKTABLE_NAME when only the primary key table is given,
** else by PKTABLE_NAME. */
static bool find_foreign_keys(const catalog_call *call, const arg *a,
                              foreign_ctx *fc)
{
    const lt_source *src = call->src;
    fc->v = NULL;
    fc->n = 0;
    if (src == NULL)
        return true;
    /* no catalogs, no schemas: they are "" */
    for (int i = 0; i < 6; i++)
        if (i != 2 && i != 5 &&
            !arg_match(&a[i], ARG_ORDINARY, call->metadata_id, ""))
            return true;
    size_t cap = 0;
    for (uint32_t t = 0; t < src->ntables; t++)
        cap += src->tables[t].nforeign;
    if (cap == 0)
        return true;
    if ((fc->v = malloc(cap * sizeof *fc->v)) == NULL)
        return false;
    bool by_fk_table = a[5].s == NULL;
    for (uint32_t t = 0; t < src->ntables; t++) {
        const lt_table *tab = &src->tables[t];
        if (tab->nforeign == 0 ||
            !arg_match(&a[5], ARG_ORDINARY, call->metadata_id, tab->name))
            continue;
        for (uint32_t k = 0; k < tab->nforeign; k++) {
            const lt_foreign_key *fk = &tab->foreign[k];
            if (fk->ref_table == NULL ||
                !arg_match(&a[2], ARG_ORDINARY, call->metadata_id,
                           fk->ref_table))
                continue;
            int64_t ri = lt_source_find_table(src, fk->ref_table,
                                              strlen(fk->ref_table));
            fk_entry *e = &fc->v[fc->n++];
            e->table = tab;
            e->fk = fk;
            e->ref = ri >= 0 && ri < (int64_t)src->ntables
                         ? &src->tables[ri] : NULL;
            e->sort_name = by_fk_table ? tab->name : fk->ref_table;
        }
    }
    qsort(fc->v, fc->n, sizeof *fc->v, fk_entry_cmp);
    return true;
}

SQLRETURN SQL_API SQLForeignKeys(SQLHSTMT hstmt, SQLCHAR *PKCatalogName,
                                 SQLSMALLINT NameLength1,
                                 SQLCHAR *PKSchemaName, SQLSMALLINT NameLength2,
                                 SQLCHAR *PKTableName, SQLSMALLINT NameLength3,
                                 SQLCHAR *FKCatalogName,
                                 SQLSMALLINT NameLength4,
                                 SQLCHAR *FKSchemaName, SQLSMALLINT NameLength5,
                                 SQLCHAR *FKTableName, SQLSMALLINT NameLength6)
{
    SQLCHAR *ptrs[6] = {PKCatalogName, PKSchemaName, PKTableName,
                        FKCatalogName, FKSchemaName, FKTableName};
    SQLSMALLINT lens[6] = {NameLength1, NameLength2, NameLength3,
                           NameLength4, NameLength5, NameLength6};
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    arg a[6];
    for (int i = 0; rc == SQL_SUCCESS && i < 6; i++) {
        if (!get_arg(ptrs[i], lens[i], &a[i])) {
            lt_diag_post(&stmt->h, "HY090", 0, "invalid string length %d",
                         (int)lens[i]);
            rc = SQL_ERROR;
        }
    }
    /* A null table name selects the call's form; both null is an error.
    ** Lector has no catalogs or schemas, so null ones are no error even
    ** with SQL_ATTR_METADATA_ID set. */
    if (rc == SQL_SUCCESS && PKTableName == NULL && FKTableName == NULL) {
        lt_diag_post(&stmt->h, "HY009", 0,
                     "both table names are null pointers");
        rc = SQL_ERROR;
    }
    foreign_ctx fc = {NULL, 0};
    if (rc == SQL_SUCCESS && !find_foreign_keys(&call, a, &fc))
        rc = oom(&call);
    if (rc == SQL_SUCCESS)
        rc = run(&call, foreign_keys_cols, 14, fill_foreign_keys, &fc);
    free(fc.v);
    return lt_leave(&stmt->h, rc);
}

/* ------------------------------------------------------------------------ */
/* Always empty: procedures, privileges                                      */
/* ------------------------------------------------------------------------ */

static const lt_result_col procedures_cols[] = {
    {"PROCEDURE_CAT", LT_TEXT, 128, true},
    {"PROCEDURE_SCHEM", LT_TEXT, 128, true},
    {"PROCEDURE_NAME", LT_TEXT, 128, false},
    {"NUM_INPUT_PARAMS", LT_INT64, 10, true},
    {"NUM_OUTPUT_PARAMS", LT_INT64, 10, true},
    {"NUM_RESULT_SETS", LT_INT64, 10, true},
    {"REMARKS", LT_TEXT, 254, true},
    {"PROCEDURE_TYPE", LT_INT64, 5, true},
};

static const lt_result_col procedure_columns_cols[] = {
    {"PROCEDURE_CAT", LT_TEXT, 128, true},
    {"PROCEDURE_SCHEM", LT_TEXT, 128, true},
    {"PROCEDURE_NAME", LT_TEXT, 128, false},
    {"COLUMN_NAME", LT_TEXT, 128, false},
    {"COLUMN_TYPE", LT_INT64, 5, false},
    {"DATA_TYPE", LT_INT64, 5, false},
    {"TYPE_NAME", LT_TEXT, 128, false},
    {"COLUMN_SIZE", LT_INT64, 10, true},
    {"BUFFER_LENGTH", LT_INT64, 10, true},
    {"DECIMAL_DIGITS", LT_INT64, 5, true},
    {"NUM_PREC_RADIX", LT_INT64, 5, true},
    {"NULLABLE", LT_INT64, 5, false},
    {"REMARKS", LT_TEXT, 254, true},
    {"COLUMN_DEF", LT_TEXT, 254, true},
    {"SQL_DATA_TYPE", LT_INT64, 5, false},
    {"SQL_DATETIME_SUB", LT_INT64, 5, true},
    {"CHAR_OCTET_LENGTH", LT_INT64, 10, true},
    {"ORDINAL_POSITION", LT_INT64, 10, false},
    {"IS_NULLABLE", LT_TEXT, 3, true},
};

static const lt_result_col table_privileges_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, false},
    {"GRANTOR", LT_TEXT, 128, true},
    {"GRANTEE", LT_TEXT, 128, false},
    {"PRIVILEGE", LT_TEXT, 128, false},
    {"IS_GRANTABLE", LT_TEXT, 3, true},
};

static const lt_result_col column_privileges_cols[] = {
    {"TABLE_CAT", LT_TEXT, 128, true},
    {"TABLE_SCHEM", LT_TEXT, 128, true},
    {"TABLE_NAME", LT_TEXT, 128, false},
    {"COLUMN_NAME", LT_TEXT, 128, false},
    {"GRANTOR", LT_TEXT, 128, true},
    {"GRANTEE", LT_TEXT, 128, false},
    {"PRIVILEGE", LT_TEXT, 128, false},
    {"IS_GRANTABLE", LT_TEXT, 3, true},
};

/* Validate `n` string arguments and open an empty result. */
static SQLRETURN empty_result(SQLHSTMT hstmt, const lt_result_col *cols,
                              uint32_t ncols, SQLCHAR *const *ptrs,
                              const SQLSMALLINT *lens, size_t n,
                              unsigned required)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    arg a[6];
    if (rc == SQL_SUCCESS)
        rc = get_args(&call, a, ptrs, lens, n, required);
    if (rc == SQL_SUCCESS)
        rc = run(&call, cols, ncols, NULL, NULL);
    return lt_leave(&stmt->h, rc);
}

SQLRETURN SQL_API SQLProcedures(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                SQLSMALLINT NameLength2, SQLCHAR *ProcName,
                                SQLSMALLINT NameLength3)
{
    SQLCHAR *ptrs[3] = {CatalogName, SchemaName, ProcName};
    SQLSMALLINT lens[3] = {NameLength1, NameLength2, NameLength3};
    return empty_result(hstmt, procedures_cols, 8, ptrs, lens, 3, 0);
}

SQLRETURN SQL_API SQLProcedureColumns(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                      SQLSMALLINT NameLength1,
                                      SQLCHAR *SchemaName,
                                      SQLSMALLINT NameLength2,
                                      SQLCHAR *ProcName,
                                      SQLSMALLINT NameLength3,
                                      SQLCHAR *ColumnName,
                                      SQLSMALLINT NameLength4)
{
    SQLCHAR *ptrs[4] = {CatalogName, SchemaName, ProcName, ColumnName};
    SQLSMALLINT lens[4] = {NameLength1, NameLength2, NameLength3, NameLength4};
    return empty_result(hstmt, procedure_columns_cols, 19, ptrs, lens, 4, 0);
}

SQLRETURN SQL_API SQLTablePrivileges(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                     SQLSMALLINT NameLength1,
                                     SQLCHAR *SchemaName,
                                     SQLSMALLINT NameLength2,
                                     SQLCHAR *TableName,
                                     SQLSMALLINT NameLength3)
{
    SQLCHAR *ptrs[3] = {CatalogName, SchemaName, TableName};
    SQLSMALLINT lens[3] = {NameLength1, NameLength2, NameLength3};
    return empty_result(hstmt, table_privileges_cols, 7, ptrs, lens, 3, 0);
}

SQLRETURN SQL_API SQLColumnPrivileges(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                      SQLSMALLINT NameLength1,
                                      SQLCHAR *SchemaName,
                                      SQLSMALLINT NameLength2,
                                      SQLCHAR *TableName,
                                      SQLSMALLINT NameLength3,
                                      SQLCHAR *ColumnName,
                                      SQLSMALLINT NameLength4)
{
    SQLCHAR *ptrs[4] = {CatalogName, SchemaName, TableName, ColumnName};
    SQLSMALLINT lens[4] = {NameLength1, NameLength2, NameLength3, NameLength4};
    return empty_result(hstmt, column_privileges_cols, 8, ptrs, lens, 4,
                        1u << 2);
}

/* ------------------------------------------------------------------------ */
/* SQLGetTypeInfo                                                            */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLGetTypeInfo(SQLHSTMT hstmt, SQLSMALLINT DataType)
{
    catalog_call call;
    SQLRETURN rc;
    lt_stmt *stmt = catalog_enter(hstmt, &call, &rc);
    if (stmt == NULL)
        return rc;
    if (rc == SQL_SUCCESS) {
        lt_error err;
        sql_cursor *cur;
        if (lt_typeinfo_cursor_v(DataType, call.odbc_version, &cur, &err) != 0)
            rc = lt_diag_error(&stmt->h, &err);
        else
            rc = lt_stmt_open_cursor(stmt, cur);
    }
    return lt_leave(&stmt->h, rc);
}
