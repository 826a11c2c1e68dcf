/*
** catalog.c — MSysObjects: which tables, views and links a database has.
**
** MSysObjects is the table whose definition is on page 2.  Each row is an
** object: its Type (1 local table, 4 ODBC-linked table, 5 saved query,
** 6 linked Access table; others are containers and relations, and values
** with the top bit set are forms, reports, macros and modules), its Name, its Id (for a table, the page of its TDEF in the low 24
** bits) and its Flags (0x80000000 or 0x2: a system object).
**
** Tables are listed in MSysObjects order: user tables as "TABLE", system
** tables (MSys*, and whatever the flags mark) as "SYSTEM TABLE" and linked
** tables as "LINK"; saved SELECT and UNION queries follow as "VIEW" with their
** SQL (query.c).  Links are listed with lt_table.error set: reading them
** fails with a message that says which file and table they point at —
** except links whose target file is found (as stored, or by its name beside
** this database): those are opened with the same options and read through.
*/
#include "access_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MSYSOBJECTS_PAGE 2

#define OBJ_TABLE 1
#define OBJ_ODBC_LINK 4
#define OBJ_QUERY 5
#define OBJ_LINK 6

#define SYSTEM_FLAGS 0x80000002u

/* The catalog columns we read, by name. */
enum { C_ID, C_NAME, C_TYPE, C_FLAGS, C_DATABASE, C_FOREIGN, C_CONNECT, C_COUNT };
static const char *const catalog_cols[C_COUNT] = {
    "Id", "Name", "Type", "Flags", "Database", "ForeignName", "Connect",
};

typedef struct object {
    int64_t id, type, flags;
    char *name, *database, *foreign, *connect;   /* NULL when NULL */
} object;

static char *dup_text(const lt_value *v)
{
    if (v->type != LT_TEXT)
        return NULL;
    char *s = malloc(v->u.bytes.len + 1u);
    if (s != NULL) {
        memcpy(s, v->u.bytes.ptr, v->u.bytes.len);
        s[v->u.bytes.len] = '\0';
    }
    return s;
}

static void object_clear(object *o)
{
    free(o->name);
    free(o->database);
    free(o->foreign);
    free(o->connect);
    memset(o, 0, sizeof *o);
}

lt_table *mdb_add_table(access_source *s)
{
    if (s->base.ntables == s->tables_cap) {
        uint32_t n = s->tables_cap ? s->tables_cap * 2 : 16;
        lt_table *t = realloc(s->base.tables, n * sizeof *t);
        if (t == NULL)
            return NULL;
        s->base.tables = t;
        mdb_table *m = realloc(s->mtables, n * sizeof *m);
        if (m == NULL)
            return NULL;
        s->mtables = m;
        char **e = realloc(s->errors, n * sizeof *e);
        if (e == NULL)
            return NULL;
        s->errors = e;
        lt_source **l = realloc(s->links, n * sizeof *l);
        if (l == NULL)
            return NULL;
        s->links = l;
        uint32_t *lt = realloc(s->link_tables, n * sizeof *lt);
        if (lt == NULL)
            return NULL;
        s->link_tables = lt;
        char **q = realloc(s->queries, n * sizeof *q);
        if (q == NULL)
            return NULL;
        s->queries = q;
        s->tables_cap = n;
    }
    uint32_t i = s->base.ntables++;
    memset(&s->base.tables[i], 0, sizeof s->base.tables[i]);
    memset(&s->mtables[i], 0, sizeof s->mtables[i]);
    s->errors[i] = NULL;
    s->links[i] = NULL;
    s->link_tables[i] = 0;
    s->queries[i] = NULL;
    s->base.tables[i].row_estimate = -1;
    return &s->base.tables[i];
}

static bool listed(const access_source *s, const char *name)
{
    for (uint32_t i = 0; i < s->base.ntables; i++)
        if (strcasecmp(s->base.tables[i].name, name) == 0)
            return true;
    return false;
}

/* The last path component of a Windows or POSIX path. */
static const char *base_name(const char *p)
{
    const char *b = p;
    for (const char *q = p; *q; q++)
        if (*q == '\\' || *q == '/')
            b = q + 1;
    return b;
}

static int set_error(access_source *s, uint32_t i, const char *text)
{
    s->errors[i] = strdup(text);
    if (s->errors[i] == NULL)
        return -1;
    s->base.tables[i].error = s->errors[i];
    return 0;
}

/* The file a link names, if it exists: the path as stored, with Windows
** separators turned, or a file of its name beside this database.  A
** malloc'ed path, or NULL. */
static char *find_target(const char *self, const char *database)
{
    if (lt_is_regular_file(database))
        return strdup(database);
    char *slashed = strdup(database);
    if (slashed == NULL)
        return NULL;
    for (char *p = slashed; *p; p++)
        if (*p == '\\')
            *p = '/';
    if (lt_is_regular_file(slashed))
        return slashed;
    free(slashed);
    const char *name = base_name(database);
    size_t dir = (size_t)(base_name(self) - self);
    size_t n = strlen(name);
    char *beside = malloc(dir + n + 1);
    if (beside == NULL)
        return NULL;
    memcpy(beside, self, dir);
    memcpy(beside + dir, name, n + 1);
    if (*name != '\0' && lt_is_regular_file(beside))
        return beside;
    free(beside);
    return NULL;
}

/* Copy a target table's columns and indexes into the link's entry. */
static int copy_shape(lt_table *to, const lt_table *from)
{
    to->cols = calloc(from->ncols ? from->ncols : 1, sizeof *to->cols);
    to->indexes = calloc(from->nindexes ? from->nindexes : 1, sizeof *to->indexes);
    if (to->cols == NULL || to->indexes == NULL)
        return -1;
    for (uint32_t c = 0; c < from->ncols; c++) {
        to->cols[c] = from->cols[c];
        to->cols[c].name = strdup(from->cols[c].name);
        if (to->cols[c].name == NULL)
            return -1;
        to->ncols = c + 1;
    }
    for (uint32_t k = 0; k < from->nindexes; k++) {
        const lt_index *fx = &from->indexes[k];
        lt_index *ix = &to->indexes[k];
        *ix = *fx;
        ix->name = strdup(fx->name);
        ix->cols = malloc((fx->ncols ? fx->ncols : 1) * sizeof *ix->cols);
        to->nindexes = k + 1;
        if (ix->name == NULL || ix->cols == NULL)
            return -1;
        memcpy(ix->cols, fx->cols, fx->ncols * sizeof *ix->cols);
    }
    to->row_estimate = from->row_estimate;
    return 0;
}

/* Follow link `i` to its target; 1 when followed, 0 when not (text says
** why), -1 when out of memory. */
static int follow_link(access_source *s, uint32_t i, const object *o, char *text, size_t cap)
{
    const char *target = o->database ? o->database : "";
    const char *remote = o->foreign ? o->foreign : o->name;
    char *path = s->own_file && s->depth < MDB_MAX_LINK_DEPTH ? find_target(s->base.path, target) : NULL;
    if (path == NULL) {
        snprintf(text, cap,
                 "'%s': table '%s' is linked to table '%s' of '%s', which Lector cannot open "
                 "(neither that path nor '%s' beside this database exists)",
                 s->base.path, o->name, remote, target, base_name(target));
        return 0;
    }
    lt_source *child = NULL;
    lt_error cerr;
    lt_error_clear(&cerr);
    if (mdb_open_linked(path, s->opts, s->depth + 1, &child, &cerr) != 0) {
        snprintf(text, cap, "'%s': table '%s' is linked to table '%s' of '%s': %s", s->base.path,
                 o->name, remote, path, cerr.message);
        free(path);
        return strcmp(cerr.sqlstate, "HY001") == 0 ? -1 : 0;
    }
    int64_t ti = -1;
    for (uint32_t k = 0; k < child->ntables && ti < 0; k++)
        if (strcasecmp(child->tables[k].name, remote) == 0)
            ti = k;
    if (ti < 0 || child->tables[ti].error != NULL) {
        snprintf(text, cap, "'%s': table '%s' is linked to table '%s' of '%s', %s", s->base.path,
                 o->name, remote, path, ti < 0 ? "which has no such table" : child->tables[ti].error);
        free(path);
        child->reader->close(child);
        return 0;
    }
    free(path);
    s->links[i] = child;
    s->link_tables[i] = (uint32_t)ti;
    return copy_shape(&s->base.tables[i], &child->tables[ti]) == 0 ? 1 : -1;
}

/* One object of MSysObjects into the table list. */
/* Remember a saved query until MSysQueries says what it is. */
static int add_query(access_source *s, const object *o)
{
    if (s->npending == s->pending_cap) {
        uint32_t n = s->pending_cap ? s->pending_cap * 2 : 8;
        mdb_query_obj *p = realloc(s->pending, n * sizeof *p);
        if (p == NULL)
            return -1;
        s->pending = p;
        s->pending_cap = n;
    }
    mdb_query_obj *q = &s->pending[s->npending];
    if ((q->name = strdup(o->name)) == NULL)
        return -1;
    q->id = (int32_t)o->id;
    q->flags = (uint32_t)o->flags;
    s->npending++;
    return 0;
}

static int add_object(access_source *s, const object *o, lt_error *err)
{
    /* Access's own objects (forms 0x8000, reports 0x8004, modules ...)
    ** have the top bit of the 16-bit Type set: compare the whole value. */
    int64_t type = o->type;
    if (o->name == NULL || o->name[0] == '\0' || listed(s, o->name))
        return 0;
    if (type != OBJ_TABLE && type != OBJ_QUERY && type != OBJ_LINK && type != OBJ_ODBC_LINK)
        return 0;
    if (type == OBJ_QUERY && o->name[0] == '~')
        return 0;    /* hidden queries Access makes for forms and reports */
    if (type == OBJ_QUERY)
        return add_query(s, o) == 0 ? 0 : lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
    lt_table *t = mdb_add_table(s);
    if (t == NULL)
        goto oom;
    uint32_t i = s->base.ntables - 1;
    t->name = strdup(o->name);
    if (t->name == NULL)
        goto oom;
    const char *path = s->db.path;
    char text[4 * LT_ERROR_MESSAGE_MAX];
    if (type == OBJ_TABLE) {
        bool system = ((uint32_t)o->flags & SYSTEM_FLAGS) != 0 || strncasecmp(o->name, "MSys", 4) == 0;
        t->kind = system ? "SYSTEM TABLE" : "TABLE";
        lt_error terr;
        lt_error_clear(&terr);
        uint32_t page = (uint32_t)o->id & 0xffffff;
        if (mdb_tdef_read(&s->db, page, &s->mtables[i], t, &terr) != 0) {
            if (strcmp(terr.sqlstate, "HY001") == 0) {
                *err = terr;
                return -1;
            }
            snprintf(text, sizeof text, "%s (table '%.200s')", terr.message, o->name);
            if (set_error(s, i, text) != 0)
                goto oom;
        }
        return 0;
    }
    if (type == OBJ_LINK) {
        t->kind = "LINK";
        int r = follow_link(s, i, o, text, sizeof text);
        if (r < 0)
            goto oom;
        if (r > 0)
            return 0;
    } else {
        t->kind = "LINK";
        snprintf(text, sizeof text,
                 "'%s': table '%s' is linked through ODBC (%s); Lector does not follow ODBC links",
                 path, o->name, o->connect ? o->connect : "no connection string");
    }
    if (set_error(s, i, text) != 0)
        goto oom;
    return 0;
oom:
    return lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
}

int mdb_each_row(const mdb_db *db, const mdb_table *mt, const lt_table *t, const int64_t *pos,
                 uint32_t n, int (*cb)(void *ctx, const lt_value *vals, lt_error *err), void *ctx,
                 lt_error *err)
{
    lt_arena arena;
    lt_arena_init(&arena);
    mdb_decoder d = {.db = db, .mt = mt, .table = t, .arena = &arena};
    lt_value vals[MDB_EACH_MAX];
    mdb_cursor cur;
    int rc = -1;
    if (n > MDB_EACH_MAX || mdb_cursor_open(&cur, db, mt, err) != 0) {
        if (n > MDB_EACH_MAX)
            lt_error_set(err, "HY000", "'%s': too many columns asked for", db->path);
        lt_arena_free(&arena);
        return -1;
    }
    mdb_row row;
    int r;
    while ((r = mdb_cursor_next(&cur, &row, err)) > 0) {
        if (mdb_row_crack(db, mt, &row, err) != 0)
            goto done;
        for (uint32_t k = 0; k < n; k++) {
            memset(&vals[k], 0, sizeof vals[k]);
            if (pos[k] >= 0 && mdb_value(&d, &row, (uint32_t)pos[k], &vals[k], err) != 0)
                goto done;
        }
        if (cb(ctx, vals, err) != 0)
            goto done;
        lt_arena_reset(&arena);
    }
    rc = r == 0 ? 0 : -1;
done:
    mdb_cursor_close(&cur);
    mdb_decoder_free(&d);
    lt_arena_free(&arena);
    return rc;
}

/* The position of the column named `name` in `t`, or -1. */
int64_t mdb_column_named(const lt_table *t, const char *name)
{
    for (uint32_t c = 0; c < t->ncols; c++)
        if (strcasecmp(t->cols[c].name, name) == 0)
            return c;
    return -1;
}

static int catalog_row(void *ctx, const lt_value *v, lt_error *err)
{
    access_source *s = ctx;
    object o;
    memset(&o, 0, sizeof o);
    o.id = v[C_ID].type == LT_INT64 ? v[C_ID].u.i64 : 0;
    o.type = v[C_TYPE].type == LT_INT64 ? v[C_TYPE].u.i64 : -1;
    o.flags = v[C_FLAGS].type == LT_INT64 ? v[C_FLAGS].u.i64 : 0;
    o.name = dup_text(&v[C_NAME]);
    o.database = dup_text(&v[C_DATABASE]);
    o.foreign = dup_text(&v[C_FOREIGN]);
    o.connect = dup_text(&v[C_CONNECT]);
    int rc = add_object(s, &o, err);
    object_clear(&o);
    return rc;
}

int mdb_catalog_load(access_source *s, lt_error *err)
{
    const mdb_db *db = &s->db;
    mdb_table mt;
    lt_table t;
    memset(&t, 0, sizeof t);
    t.name = "MSysObjects";
    int rc = -1;
    if (mdb_tdef_read(db, MSYSOBJECTS_PAGE, &mt, &t, err) != 0)
        goto done;
    int64_t pos[C_COUNT];
    for (int k = 0; k < C_COUNT; k++)
        pos[k] = mdb_column_named(&t, catalog_cols[k]);
    if (pos[C_ID] < 0 || pos[C_NAME] < 0 || pos[C_TYPE] < 0) {
        lt_error_set(err, "HY000", "'%s' is corrupt: MSysObjects lacks its Id, Name or Type column", db->path);
        goto done;
    }
    if (mdb_each_row(db, &mt, &t, pos, C_COUNT, catalog_row, s, err) != 0)
        goto done;
    if (mdb_queries_load(s, err) != 0 || mdb_relations_load(s, err) != 0 ||
        mdb_link_keys(s, err) != 0)
        goto done;
    rc = mdb_complex_load(s, err);
done:
    mdb_table_free(&mt);
    t.name = NULL;
    lt_table_clear(&t);
    return rc;
}

void mdb_catalog_free(access_source *s)
{
    mdb_complex_free(s);
    mdb_queries_free(s);
    for (uint32_t i = 0; i < s->base.ntables; i++) {
        free(s->queries[i]);
        lt_table_clear(&s->base.tables[i]);
        mdb_table_free(&s->mtables[i]);
        free(s->errors[i]);
        if (s->links[i] != NULL)
            s->links[i]->reader->close(s->links[i]);
    }
    free(s->base.tables);
    free(s->mtables);
    free(s->errors);
    free(s->links);
    free(s->link_tables);
    free(s->queries);
    s->queries = NULL;
    s->tables_cap = 0;
    s->links = NULL;
    s->link_tables = NULL;
    s->base.tables = NULL;
    s->mtables = NULL;
    s->errors = NULL;
    s->base.ntables = 0;
}
