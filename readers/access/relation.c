/*
** relation.c — MSysRelationships: the relationships of the database as the
** foreign keys of its tables (SQLForeignKeys).
**
** One row per column of a relationship: szRelationship (its name), szObject
** and szColumn (the referencing table and column), szReferencedObject and
** szReferencedColumn (the referenced ones), icolumn (the column's position in
** the key), ccolumn (the key's column count) and grbit (jackcess's
** RelationshipImpl: 0x1 one-to-one, 0x2 no referential integrity, 0x100
** cascade updates, 0x1000 cascade deletes, 0x2000 deletes set NULL, 0x01000000
** and 0x02000000 the join Access's designer draws).
**
** Every relationship whose referencing table and columns are found becomes
** a foreign key of that table, with the rules Access enforces: cascade, set
** NULL, else no action.  Relationships drawn without referential integrity
** are listed too (with "no action" rules): they are the only record of how
** the tables relate, and ODBC has no way to say "not enforced".
**
** A followed link carries its target table's foreign keys (mdb_link_keys):
** the referenced table is named as this database names it — the link to
** that table of the same file, when there is one; the target's own name when
** no table here has that name; and a key whose referenced table this
** database names otherwise (a local table, a link elsewhere) is left out,
** since here that name means another table.
*/
#include "access_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REL_CASCADE_UPDATES 0x100
#define REL_CASCADE_DELETES 0x1000
#define REL_CASCADE_NULL 0x2000

/* ODBC's rule numbers (sqlext.h), which reader.h uses. */
#define RULE_CASCADE 0
#define RULE_SET_NULL 2
#define RULE_NO_ACTION 3

enum { F_NAME, F_GRBIT, F_CCOL, F_ICOL, F_OBJ, F_COL, F_ROBJ, F_RCOL, F_COUNT };
static const char *const rel_cols[F_COUNT] = {
    "szRelationship", "grbit", "ccolumn", "icolumn",
    "szObject", "szColumn", "szReferencedObject", "szReferencedColumn",
};

typedef struct rel_ctx {
    access_source *s;
} rel_ctx;

static bool text_is(const lt_value *v, const char *s)
{
    size_t n = strlen(s);
    return v->type == LT_TEXT && v->u.bytes.len == n && strncasecmp(v->u.bytes.ptr, s, n) == 0;
}

static char *dup_text(const lt_value *v)
{
    char *s = malloc(v->u.bytes.len + 1u);
    if (s != NULL) {
        memcpy(s, v->u.bytes.ptr, v->u.bytes.len);
        s[v->u.bytes.len] = '\0';
    }
    return s;
}

/* The table named by a text value, or NULL. */
static lt_table *find_table(access_source *s, const lt_value *v)
{
    if (v->type != LT_TEXT)
        return NULL;
    for (uint32_t i = 0; i < s->base.ntables; i++) {
        lt_table *t = &s->base.tables[i];
        if (t->query == NULL && t->ncols > 0 && text_is(v, t->name))
            return t;
    }
    return NULL;
}

static int64_t find_column(const lt_table *t, const lt_value *v)
{
    for (uint32_t c = 0; c < t->ncols && v->type == LT_TEXT; c++)
        if (text_is(v, t->cols[c].name))
            return c;
    return -1;
}

/* The foreign key of `t` named like the relationship, added when absent
** (NULL when out of memory). */
static lt_foreign_key *key_for(lt_table *t, const lt_value *name, uint32_t ncols, int grbit)
{
    for (uint32_t k = 0; k < t->nforeign; k++)
        if (text_is(name, t->foreign[k].name))
            return &t->foreign[k];
    lt_foreign_key *f = realloc(t->foreign, (t->nforeign + 1) * sizeof *f);
    if (f == NULL)
        return NULL;
    t->foreign = f;
    lt_foreign_key *fk = &f[t->nforeign];
    memset(fk, 0, sizeof *fk);
    fk->cols = calloc(ncols, sizeof *fk->cols);
    fk->ref_cols = calloc(ncols, sizeof *fk->ref_cols);
    fk->name = dup_text(name);
    if (fk->cols == NULL || fk->ref_cols == NULL || fk->name == NULL) {
        free(fk->cols);
        free(fk->ref_cols);
        free(fk->name);
        return NULL;
    }
    fk->ncols = ncols;
    fk->update_rule = (grbit & REL_CASCADE_UPDATES) ? RULE_CASCADE : RULE_NO_ACTION;
    fk->delete_rule = (grbit & REL_CASCADE_DELETES) ? RULE_CASCADE
                      : (grbit & REL_CASCADE_NULL) ? RULE_SET_NULL
                                                   : RULE_NO_ACTION;
    t->nforeign++;
    return fk;
}

static int rel_row(void *ctx, const lt_value *v, lt_error *err)
{
    rel_ctx *c = ctx;
    if (v[F_NAME].type != LT_TEXT || v[F_CCOL].type != LT_INT64 || v[F_ICOL].type != LT_INT64 ||
        v[F_RCOL].type != LT_TEXT || v[F_ROBJ].type != LT_TEXT)
        return 0;
    int64_t ncols = v[F_CCOL].u.i64, icol = v[F_ICOL].u.i64;
    if (ncols < 1 || ncols > 32 || icol < 0 || icol >= ncols)
        return 0;   /* Access keys have at most 10 columns */
    lt_table *t = find_table(c->s, &v[F_OBJ]);
    int64_t col = t != NULL ? find_column(t, &v[F_COL]) : -1;
    if (col < 0)
        return 0;
    int grbit = v[F_GRBIT].type == LT_INT64 ? (int)v[F_GRBIT].u.i64 : 0;
    lt_foreign_key *fk = key_for(t, &v[F_NAME], (uint32_t)ncols, grbit);
    if (fk == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if ((uint32_t)ncols != fk->ncols || fk->ref_cols[icol] != NULL)
        return 0;   /* inconsistent rows: the first wins */
    if (fk->ref_table == NULL && (fk->ref_table = dup_text(&v[F_ROBJ])) == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    fk->cols[icol] = (uint32_t)col;
    if ((fk->ref_cols[icol] = dup_text(&v[F_RCOL])) == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    return 0;
}

/* Keys missing a column (a row lost or unreadable) are dropped: a partial
** key would say something false. */
static void drop_partial(lt_table *t)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < t->nforeign; k++) {
        lt_foreign_key *fk = &t->foreign[k];
        bool whole = fk->ref_table != NULL;
        for (uint32_t c = 0; c < fk->ncols && whole; c++)
            whole = fk->ref_cols[c] != NULL;
        if (whole) {
            t->foreign[keep++] = *fk;
            continue;
        }
        for (uint32_t c = 0; c < fk->ncols; c++)
            free(fk->ref_cols[c]);
        free(fk->ref_cols);
        free(fk->cols);
        free(fk->name);
        free(fk->ref_table);
    }
    t->nforeign = keep;
}

int mdb_relations_load(access_source *s, lt_error *err)
{
    int64_t ti = -1;
    for (uint32_t i = 0; i < s->base.ntables && ti < 0; i++)
        if (strcasecmp(s->base.tables[i].name, "MSysRelationships") == 0 && s->links[i] == NULL &&
            s->base.tables[i].error == NULL)
            ti = i;
    if (ti < 0)
        return 0;
    const lt_table *t = &s->base.tables[ti];
    int64_t pos[F_COUNT];
    for (int k = 0; k < F_COUNT; k++)
        pos[k] = mdb_column_named(t, rel_cols[k]);
    if (pos[F_NAME] < 0 || pos[F_OBJ] < 0 || pos[F_COL] < 0 || pos[F_ROBJ] < 0 || pos[F_RCOL] < 0)
        return 0;
    rel_ctx ctx = {s};
    lt_error lerr;
    lt_error_clear(&lerr);
    int rc = mdb_each_row(&s->db, &s->mtables[ti], t, pos, F_COUNT, rel_row, &ctx, &lerr);
    for (uint32_t i = 0; i < s->base.ntables; i++)
        drop_partial(&s->base.tables[i]);
    if (rc != 0 && strcmp(lerr.sqlstate, "HY001") == 0) {
        *err = lerr;
        return -1;
    }
    /* an unreadable MSysRelationships: the keys read so far are whole */
    return 0;
}

/* The name this database gives table `name` of the file `path`: a link's
** name, or `name` itself when nothing here is called so, else NULL. */
static const char *local_name(const access_source *s, const char *path, const char *name)
{
    for (uint32_t j = 0; j < s->base.ntables; j++) {
        const lt_source *c = s->links[j];
        if (c != NULL && strcmp(c->path, path) == 0 &&
            strcasecmp(c->tables[s->link_tables[j]].name, name) == 0)
            return s->base.tables[j].name;
    }
    for (uint32_t j = 0; j < s->base.ntables; j++)
        if (strcasecmp(s->base.tables[j].name, name) == 0)
            return NULL;
    return name;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d != NULL ? memcpy(d, s, n) : NULL;
}

/* A copy of key `from` into t (its columns are the target's: a link has its
** target's columns in their order); -1 when out of memory. */
static int copy_key(lt_table *t, const lt_foreign_key *from, const char *ref_table)
{
    lt_foreign_key *f = realloc(t->foreign, (t->nforeign + 1) * sizeof *f);
    if (f == NULL)
        return -1;
    t->foreign = f;
    lt_foreign_key *fk = &f[t->nforeign];
    *fk = *from;
    fk->name = from->name != NULL ? dup_str(from->name) : NULL;
    fk->ref_table = dup_str(ref_table);
    fk->cols = malloc(from->ncols * sizeof *fk->cols);
    fk->ref_cols = calloc(from->ncols, sizeof *fk->ref_cols);
    bool ok = (fk->name != NULL || from->name == NULL) && fk->ref_table != NULL && fk->cols != NULL &&
              fk->ref_cols != NULL;
    for (uint32_t c = 0; ok && c < from->ncols; c++) {
        fk->cols[c] = from->cols[c];
        ok = (fk->ref_cols[c] = dup_str(from->ref_cols[c])) != NULL;
    }
    t->nforeign++;   /* counted even when partial: lt_table_clear frees it */
    return ok ? 0 : -1;
}

static bool has_key(const lt_table *t, const char *name)
{
    for (uint32_t k = 0; name != NULL && k < t->nforeign; k++)
        if (t->foreign[k].name != NULL && strcasecmp(t->foreign[k].name, name) == 0)
            return true;
    return false;
}

int mdb_link_keys(access_source *s, lt_error *err)
{
    for (uint32_t i = 0; i < s->base.ntables; i++) {
        const lt_source *c = s->links[i];
        if (c == NULL)
            continue;
        const lt_table *target = &c->tables[s->link_tables[i]];
        lt_table *t = &s->base.tables[i];
        for (uint32_t k = 0; k < target->nforeign; k++) {
            const lt_foreign_key *fk = &target->foreign[k];
            const char *ref = local_name(s, c->path, fk->ref_table);
            if (ref == NULL || has_key(t, fk->name))
                continue;
            if (copy_key(t, fk, ref) != 0)
                return lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
        }
    }
    return 0;
}
