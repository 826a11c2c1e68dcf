/*
** catalog.c — MSysObjects: which tables, views and links a database has.
**
** MSysObjects is the table whose definition is on page 2.  Each row is an
** object: its Type (low 7 bits: 1 local table, 4 ODBC-linked table, 5 saved
** query, 6 linked Access table; the rest are forms, containers, relations
** ...), its Name, its Id (for a table, the page of its TDEF in the low 24
** bits) and its Flags (0x80000000 or 0x2: a system object).
**
** Tables are listed in MSysObjects order: user tables as "TABLE", system
** tables (MSys*, and whatever the flags mark) as "SYSTEM TABLE", saved
** queries as "VIEW" and linked tables as "LINK".  Views and links are listed
** with lt_table.error set: reading them fails with a message that says why
** (for a link, which file and table it points at).
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

/* What lt_table_clear() does, without linking readers/source.c (and with it
** every other reader) into programs that use only this reader. */
static void table_clear(lt_table *t)
{
    free(t->name);
    for (uint32_t c = 0; c < t->ncols; c++)
        free(t->cols[c].name);
    free(t->cols);
    for (uint32_t i = 0; i < t->nindexes; i++) {
        free(t->indexes[i].name);
        free(t->indexes[i].cols);
    }
    free(t->indexes);
    memset(t, 0, sizeof *t);
}

static void object_clear(object *o)
{
    free(o->name);
    free(o->database);
    free(o->foreign);
    free(o->connect);
    memset(o, 0, sizeof *o);
}

/* Append one lt_table (zeroed) to the source; NULL when out of memory. */
static lt_table *add_table(access_source *s, uint32_t *cap)
{
    if (s->base.ntables == *cap) {
        uint32_t n = *cap ? *cap * 2 : 16;
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
        *cap = n;
    }
    uint32_t i = s->base.ntables++;
    memset(&s->base.tables[i], 0, sizeof s->base.tables[i]);
    memset(&s->mtables[i], 0, sizeof s->mtables[i]);
    s->errors[i] = NULL;
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

/* One object of MSysObjects into the table list. */
static int add_object(access_source *s, const object *o, uint32_t *cap, lt_error *err)
{
    int64_t type = o->type & 0x7f;
    if (o->name == NULL || o->name[0] == '\0' || listed(s, o->name))
        return 0;
    if (type != OBJ_TABLE && type != OBJ_QUERY && type != OBJ_LINK && type != OBJ_ODBC_LINK)
        return 0;
    if (type == OBJ_QUERY && o->name[0] == '~')
        return 0;    /* hidden queries Access makes for forms and reports */
    lt_table *t = add_table(s, cap);
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
    if (type == OBJ_QUERY) {
        t->kind = "VIEW";
        snprintf(text, sizeof text,
                 "'%s': '%s' is a saved query (an Access view); Lector lists saved queries "
                 "but does not run them yet", path, o->name);
    } else if (type == OBJ_LINK) {
        t->kind = "LINK";
        const char *target = o->database ? o->database : "(no file named)";
        snprintf(text, sizeof text,
                 "'%s': table '%s' is linked to table '%s' of '%s', which Lector cannot open "
                 "(neither that path nor '%s' beside this database exists)",
                 path, o->name, o->foreign ? o->foreign : o->name, target, base_name(target));
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

/* Read one row of MSysObjects into `o`. */
static int read_object(mdb_decoder *d, const mdb_row *row, const int64_t *pos, object *o,
                       lt_error *err)
{
    for (int k = 0; k < C_COUNT; k++) {
        if (pos[k] < 0)
            continue;
        lt_value v;
        if (mdb_value(d, row, (uint32_t)pos[k], &v, err) != 0)
            return -1;
        switch (k) {
        case C_ID: o->id = v.type == LT_INT64 ? v.u.i64 : 0; break;
        case C_TYPE: o->type = v.type == LT_INT64 ? v.u.i64 : -1; break;
        case C_FLAGS: o->flags = v.type == LT_INT64 ? v.u.i64 : 0; break;
        case C_NAME: o->name = dup_text(&v); break;
        case C_DATABASE: o->database = dup_text(&v); break;
        case C_FOREIGN: o->foreign = dup_text(&v); break;
        case C_CONNECT: o->connect = dup_text(&v); break;
        }
    }
    return 0;
}

int mdb_catalog_load(access_source *s, lt_error *err)
{
    const mdb_db *db = &s->db;
    mdb_table mt;
    lt_table t;
    memset(&t, 0, sizeof t);
    t.name = "MSysObjects";
    if (mdb_tdef_read(db, MSYSOBJECTS_PAGE, &mt, &t, err) != 0) {
        mdb_table_free(&mt);
        t.name = NULL;
        table_clear(&t);
        return -1;
    }
    int64_t pos[C_COUNT];
    for (int k = 0; k < C_COUNT; k++) {
        pos[k] = -1;
        for (uint32_t c = 0; c < t.ncols; c++)
            if (strcasecmp(t.cols[c].name, catalog_cols[k]) == 0)
                pos[k] = c;
    }
    int rc = -1;
    lt_arena arena;
    lt_arena_init(&arena);
    mdb_decoder d = {.db = db, .mt = &mt, .table = &t, .arena = &arena};
    mdb_cursor cur;
    memset(&cur, 0, sizeof cur);
    if (pos[C_ID] < 0 || pos[C_NAME] < 0 || pos[C_TYPE] < 0) {
        lt_error_set(err, "HY000", "'%s' is corrupt: MSysObjects lacks its Id, Name or Type column", db->path);
        goto done;
    }
    if (mdb_cursor_open(&cur, db, &mt, err) != 0)
        goto done;
    uint32_t cap = 0;
    mdb_row row;
    int r;
    while ((r = mdb_cursor_next(&cur, &row, err)) > 0) {
        if (mdb_row_crack(db, &mt, &row, err) != 0)
            goto done;
        object o;
        memset(&o, 0, sizeof o);
        if (read_object(&d, &row, pos, &o, err) != 0 || add_object(s, &o, &cap, err) != 0) {
            object_clear(&o);
            goto done;
        }
        object_clear(&o);
        lt_arena_reset(&arena);
    }
    if (r == 0)
        rc = 0;
done:
    mdb_cursor_close(&cur);
    mdb_decoder_free(&d);
    lt_arena_free(&arena);
    mdb_table_free(&mt);
    t.name = NULL;
    table_clear(&t);
    return rc;
}

void mdb_catalog_free(access_source *s)
{
    for (uint32_t i = 0; i < s->base.ntables; i++) {
        table_clear(&s->base.tables[i]);
        mdb_table_free(&s->mtables[i]);
        free(s->errors[i]);
    }
    free(s->base.tables);
    free(s->mtables);
    free(s->errors);
    s->base.tables = NULL;
    s->mtables = NULL;
    s->errors = NULL;
    s->base.ntables = 0;
}
