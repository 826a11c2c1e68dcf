/*
** schema.c — sqlite_schema and the CREATE TABLE text, to tables and columns.
**
** SQLite keeps no column catalog: the only description of a table is the
** CREATE TABLE statement stored in sqlite_schema, so this file tokenizes and
** parses it the way SQLite's grammar does: every quote form ("x", [x], `x`,
** 'x', each with its doubled-quote escape), comments, multi-word type names
** with sizes, column constraints (PRIMARY KEY, NOT NULL, DEFAULT, COLLATE,
** CHECK, REFERENCES, GENERATED/AS), table constraints and the table options
** after the closing parenthesis (WITHOUT ROWID, STRICT).
**
** From the parse come: the column names and declared types; the affinity
** (sqlite3AffinityType's rule, common/sqlite_rules.c); the logical type
** handed to clients; which column is the rowid alias (INTEGER PRIMARY
** KEY, with SQLite's quirks); where each column sits in the record
** (WITHOUT ROWID tables store the key columns first; VIRTUAL generated
** columns are not stored); DEFAULTs for records written before ALTER
** TABLE ADD COLUMN; keys and indexes for the catalog functions.
*/
#include "sqlite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Text and blob columns whose declared type gives no length are
** SQL_LONGVARCHAR / SQL_LONGVARBINARY sized by what the file can hold:
** no value is longer than SQLITE_MAX_LENGTH (10^9 bytes, SQLite's
** default), nor than every page of the database strung together on one
** overflow chain (see long_size). */
#define SQLITE_MAX_LENGTH 1000000000u

/* ---- the parse ------------------------------------------------------------ */

typedef struct col_def {
    char *name;
    const char *type;          /* span in the SQL text */
    size_t type_len;
    int64_t size, scale;       /* -1 when not given */
    bool notnull, pk, pk_desc, unique;
    const char *dflt;          /* DEFAULT span */
    size_t dflt_len;
    const char *gen;           /* AS (...) inner span */
    size_t gen_len;
    bool gen_virtual;
    bool collated;             /* COLLATE other than BINARY */
} col_def;

/* A FOREIGN KEY or REFERENCES clause. */
typedef struct fk_def {
    char *name;                /* CONSTRAINT name, or NULL */
    uint32_t ncols;
    uint32_t *cols;            /* child columns */
    char *ref_table;
    uint32_t nref;             /* 0: the parent's primary key */
    char **ref_cols;
    int16_t on_update, on_delete;
} fk_def;

typedef struct table_def {
    col_def *cols;
    uint32_t ncols, cap;
    uint32_t *pk;              /* table-constraint PRIMARY KEY columns */
    uint32_t npk;
    bool pk_constraint;        /* PRIMARY KEY given as a table constraint */
    bool pk0_desc, pk0_collated;  /* its first column: DESC, COLLATE not BINARY */
    uint32_t nunique;          /* UNIQUE constraints seen (autoindexes) */
    bool without_rowid, strict;
    bool is_virtual;
    char *module;
    fk_def *fks;
    uint32_t nfks;
} table_def;

static void fk_def_free(fk_def *f)
{
    free(f->name);
    free(f->cols);
    free(f->ref_table);
    for (uint32_t i = 0; i < f->nref; i++)
        free(f->ref_cols[i]);
    free(f->ref_cols);
    memset(f, 0, sizeof *f);
}

static void table_def_free(table_def *d)
{
    for (uint32_t i = 0; i < d->nfks; i++)
        fk_def_free(&d->fks[i]);
    free(d->fks);
    for (uint32_t i = 0; i < d->ncols; i++)
        free(d->cols[i].name);
    free(d->cols);
    free(d->pk);
    free(d->module);
    memset(d, 0, sizeof *d);
}

static bool is_constraint_start(const sqlite_lexer *lx)
{
    static const char *const kws[] = {"CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE",
                                      "CHECK", "DEFAULT", "COLLATE", "REFERENCES",
                                      "GENERATED", "AS", NULL};
    for (int i = 0; kws[i]; i++)
        if (sqlite_lex_is_kw(lx, kws[i]))
            return true;
    return false;
}

static int64_t parse_int(const char *t, size_t n)
{
    int64_t v = 0;
    for (size_t i = 0; i < n && isdigit((unsigned char)t[i]); i++)
        if (v < INT32_MAX)
            v = v * 10 + (t[i] - '0');
    return v;
}

static int find_col(const table_def *d, const char *name)
{
    for (uint32_t i = 0; i < d->ncols; i++)
        if (strcasecmp(d->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Skip "ON CONFLICT x". */
static void skip_conflict(sqlite_lexer *lx)
{
    if (sqlite_lex_accept(lx, "ON") && sqlite_lex_accept(lx, "CONFLICT"))
        sqlite_lex_next(lx);
}

/* ODBC's numbers for a referential action (SQL_CASCADE 0 ... SQL_SET_DEFAULT
** 4); SQLite's default is NO ACTION. */
enum { FK_CASCADE = 0, FK_RESTRICT = 1, FK_SET_NULL = 2, FK_NO_ACTION = 3,
       FK_SET_DEFAULT = 4 };

static int16_t parse_fk_action(sqlite_lexer *lx)
{
    if (sqlite_lex_accept(lx, "CASCADE"))
        return FK_CASCADE;
    if (sqlite_lex_accept(lx, "RESTRICT"))
        return FK_RESTRICT;
    if (sqlite_lex_accept(lx, "SET")) {
        if (sqlite_lex_accept(lx, "NULL"))
            return FK_SET_NULL;
        sqlite_lex_accept(lx, "DEFAULT");
        return FK_SET_DEFAULT;
    }
    if (sqlite_lex_accept(lx, "NO"))
        sqlite_lex_accept(lx, "ACTION");
    return FK_NO_ACTION;
}

static void free_names(char **names, uint32_t n);

/* A parenthesised list of names into a malloc'ed array (freed again when
** the list is not understood). */
static bool name_list(sqlite_lexer *lx, char ***names, uint32_t *n);

static bool parse_name_list(sqlite_lexer *lx, char ***names, uint32_t *n)
{
    if (name_list(lx, names, n))
        return true;
    free_names(*names, *n);
    *names = NULL;
    *n = 0;
    return false;
}

static bool name_list(sqlite_lexer *lx, char ***names, uint32_t *n)
{
    *names = NULL;
    *n = 0;
    if (lx->kind != SQLITE_TK_LP)
        return false;
    sqlite_lex_next(lx);
    while (lx->kind != SQLITE_TK_RP) {
        if (!sqlite_lex_is_name(lx) || *n >= 1000)
            return false;
        char **p = realloc(*names, (*n + 1) * sizeof *p);
        if (p == NULL)
            return false;
        *names = p;
        p[*n] = sqlite_dequote(lx->tok, lx->len);
        (*n)++;
        if (p[*n - 1] == NULL)
            return false;
        sqlite_lex_next(lx);
        /* COLLATE x, ASC, DESC may follow a name */
        while (lx->kind != SQLITE_TK_COMMA && lx->kind != SQLITE_TK_RP) {
            if (lx->kind == SQLITE_TK_END || lx->kind == SQLITE_TK_LP)
                return false;
            sqlite_lex_next(lx);
        }
        if (lx->kind == SQLITE_TK_COMMA)
            sqlite_lex_next(lx);
    }
    sqlite_lex_next(lx);
    return true;
}

static void free_names(char **names, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static bool references(sqlite_lexer *lx, table_def *d, const uint32_t *cols,
                       uint32_t ncols, char **name);

/* After REFERENCES: "parent [(cols)] [ON DELETE|UPDATE action | MATCH x |
** [NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE]]...", appended to d->fks
** for the child columns `cols` (copied); *name (the CONSTRAINT name) is
** taken over.  A clause not understood (or out of memory) adds nothing and
** returns false; the caller's loop skips what is left of it. */
static bool parse_references(sqlite_lexer *lx, table_def *d, const uint32_t *cols,
                             uint32_t ncols, char **name)
{
    uint32_t before = d->nfks;
    if (references(lx, d, cols, ncols, name))
        return true;
    while (d->nfks > before)
        fk_def_free(&d->fks[--d->nfks]);
    return false;
}

static bool references(sqlite_lexer *lx, table_def *d, const uint32_t *cols,
                       uint32_t ncols, char **name)
{
    if (!sqlite_lex_is_name(lx))
        return false;
    fk_def *fks = realloc(d->fks, (d->nfks + 1) * sizeof *fks);
    if (fks == NULL)
        return false;
    d->fks = fks;
    fk_def *f = &fks[d->nfks++];
    memset(f, 0, sizeof *f);
    f->on_update = f->on_delete = FK_NO_ACTION;
    f->name = *name;
    *name = NULL;
    f->ref_table = sqlite_dequote(lx->tok, lx->len);
    f->cols = malloc((ncols ? ncols : 1) * sizeof *f->cols);
    if (f->ref_table == NULL || f->cols == NULL)
        return false;
    memcpy(f->cols, cols, ncols * sizeof *cols);
    f->ncols = ncols;
    sqlite_lex_next(lx);
    if (lx->kind == SQLITE_TK_LP && !parse_name_list(lx, &f->ref_cols, &f->nref))
        return false;
    for (;;) {
        if (sqlite_lex_accept(lx, "ON")) {
            if (sqlite_lex_accept(lx, "DELETE"))
                f->on_delete = parse_fk_action(lx);
            else if (sqlite_lex_accept(lx, "UPDATE"))
                f->on_update = parse_fk_action(lx);
            else
                return false;
        } else if (sqlite_lex_accept(lx, "MATCH")) {
            sqlite_lex_next(lx);
        } else if (sqlite_lex_is_kw(lx, "NOT") || sqlite_lex_is_kw(lx, "DEFERRABLE")) {
            /* NOT alone is NOT NULL: leave it to the caller */
            sqlite_lexer save = *lx;
            sqlite_lex_accept(lx, "NOT");
            if (!sqlite_lex_accept(lx, "DEFERRABLE")) {
                *lx = save;
                return true;
            }
            if (sqlite_lex_accept(lx, "INITIALLY"))
                sqlite_lex_next(lx);
        } else {
            return true;
        }
    }
}

/* A new column of d named by the (maybe quoted) text s[0..len), no type
** yet; NULL out of memory. */
static col_def *add_column(table_def *d, const char *s, size_t len)
{
    if (d->ncols == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 16;
        col_def *c = realloc(d->cols, cap * sizeof *c);
        if (c == NULL)
            return NULL;
        d->cols = c;
        d->cap = cap;
    }
    col_def *c = &d->cols[d->ncols];
    memset(c, 0, sizeof *c);
    c->size = c->scale = -1;
    c->name = sqlite_dequote(s, len);
    if (c->name == NULL)
        return NULL;
    d->ncols++;
    return c;
}

static bool parse_column(sqlite_lexer *lx, table_def *d)
{
    col_def *c = add_column(d, lx->tok, lx->len);
    if (c == NULL)
        return false;
    sqlite_lex_next(lx);
    /* The type: names up to a constraint keyword, then an optional (n[,m]). */
    const char *tstart = NULL, *tend = NULL;
    while ((lx->kind == SQLITE_TK_ID && !is_constraint_start(lx)) || lx->kind == SQLITE_TK_QID ||
           lx->kind == SQLITE_TK_STRING) {
        if (tstart == NULL)
            tstart = lx->tok;
        tend = lx->tok + lx->len;
        sqlite_lex_next(lx);
    }
    if (tstart != NULL && lx->kind == SQLITE_TK_LP) {
        sqlite_lex_next(lx);
        int nth = 0;
        while (lx->kind != SQLITE_TK_RP && lx->kind != SQLITE_TK_END) {
            if (lx->kind == SQLITE_TK_NUM) {
                if (nth == 0)
                    c->size = parse_int(lx->tok, lx->len);
                else if (nth == 1)
                    c->scale = parse_int(lx->tok, lx->len);
                nth++;
            }
            sqlite_lex_next(lx);
        }
        if (lx->kind != SQLITE_TK_RP)
            return false;
        tend = lx->tok + 1;
        sqlite_lex_next(lx);
    }
    c->type = tstart;
    c->type_len = tstart ? (size_t)(tend - tstart) : 0;
    /* Constraints. */
    char *cname = NULL;      /* the last CONSTRAINT name, for REFERENCES */
    uint32_t self = d->ncols - 1;
    while (lx->kind != SQLITE_TK_COMMA && lx->kind != SQLITE_TK_RP) {
        if (lx->kind == SQLITE_TK_END) {
            free(cname);
            return false;
        }
        if (sqlite_lex_accept(lx, "CONSTRAINT")) {
            free(cname);
            cname = sqlite_lex_is_name(lx) ? sqlite_dequote(lx->tok, lx->len) : NULL;
            sqlite_lex_next(lx);
            continue;
        }
        if (sqlite_lex_accept(lx, "REFERENCES")) {
            parse_references(lx, d, &self, 1, &cname);
            free(cname);
            cname = NULL;
            continue;
        }
        free(cname);
        cname = NULL;
        if (sqlite_lex_accept(lx, "PRIMARY")) {
            sqlite_lex_accept(lx, "KEY");
            c->pk = true;
            if (sqlite_lex_accept(lx, "DESC"))
                c->pk_desc = true;
            else
                sqlite_lex_accept(lx, "ASC");
            skip_conflict(lx);
            sqlite_lex_accept(lx, "AUTOINCREMENT");
        } else if (sqlite_lex_accept(lx, "NOT")) {
            if (sqlite_lex_accept(lx, "NULL"))
                c->notnull = true;
            skip_conflict(lx);
        } else if (sqlite_lex_accept(lx, "UNIQUE")) {
            c->unique = true;
            skip_conflict(lx);
        } else if (sqlite_lex_accept(lx, "DEFAULT")) {
            const char *s = lx->tok;
            if (lx->kind == SQLITE_TK_LP) {
                if (!sqlite_lex_skip_parens(lx))
                    return false;
            } else {
                if (lx->kind == SQLITE_TK_OTHER && (*lx->tok == '-' || *lx->tok == '+'))
                    sqlite_lex_next(lx);
                sqlite_lex_next(lx);
            }
            c->dflt = s;
            c->dflt_len = (size_t)(lx->tok - s);
            while (c->dflt_len > 0 && isspace((unsigned char)s[c->dflt_len - 1]))
                c->dflt_len--;
        } else if (sqlite_lex_accept(lx, "COLLATE")) {
            c->collated = !sqlite_lex_is_kw(lx, "BINARY");
            sqlite_lex_next(lx);
        } else if (sqlite_lex_accept(lx, "GENERATED")) {
            sqlite_lex_accept(lx, "ALWAYS");
        } else if (sqlite_lex_accept(lx, "AS")) {
            if (lx->kind != SQLITE_TK_LP)
                return false;
            const char *s = lx->p;
            if (!sqlite_lex_skip_parens(lx))
                return false;
            /* inner text: after '(' up to the ')' just passed */
            const char *e = lx->tok;
            while (e > s && *--e != ')')
                ;
            c->gen = s;
            c->gen_len = (size_t)(e - s);
            c->gen_virtual = true;
            if (sqlite_lex_accept(lx, "STORED"))
                c->gen_virtual = false;
            else
                sqlite_lex_accept(lx, "VIRTUAL");
        } else if (lx->kind == SQLITE_TK_LP) {
            if (!sqlite_lex_skip_parens(lx))
                return false;
        } else {
            sqlite_lex_next(lx);  /* NULL, COLLATE x, CHECK (...), ASC ... */
        }
    }
    free(cname);
    return true;
}

/* FOREIGN KEY (a, b) REFERENCES ...: a key naming no column of the table
** (which SQLite refuses) or one not understood is left out. */
static void parse_foreign_key(sqlite_lexer *lx, table_def *d, char **cname)
{
    char **names;
    uint32_t n;
    if (!sqlite_lex_accept(lx, "KEY"))
        return;
    bool ok = parse_name_list(lx, &names, &n) && n > 0;
    uint32_t *cols = ok ? malloc(n * sizeof *cols) : NULL;
    ok = cols != NULL;
    for (uint32_t i = 0; ok && i < n; i++) {
        int k = find_col(d, names[i]);
        ok = k >= 0;
        if (ok)
            cols[i] = (uint32_t)k;
    }
    free_names(names, n);
    if (ok && sqlite_lex_accept(lx, "REFERENCES"))
        parse_references(lx, d, cols, n, cname);
    free(cols);
}

static bool parse_table_constraint(sqlite_lexer *lx, table_def *d)
{
    char *cname = NULL;
    if (sqlite_lex_accept(lx, "CONSTRAINT")) {
        cname = sqlite_lex_is_name(lx) ? sqlite_dequote(lx->tok, lx->len) : NULL;
        sqlite_lex_next(lx);
    }
    if (sqlite_lex_accept(lx, "FOREIGN"))
        parse_foreign_key(lx, d, &cname);
    free(cname);
    if (sqlite_lex_accept(lx, "PRIMARY")) {
        sqlite_lex_accept(lx, "KEY");
        if (lx->kind != SQLITE_TK_LP)
            return false;
        sqlite_lex_next(lx);
        d->pk_constraint = true;
        bool first_item = true;
        while (lx->kind != SQLITE_TK_RP) {
            if (lx->kind == SQLITE_TK_END)
                return false;
            if (sqlite_lex_is_name(lx)) {
                char *name = sqlite_dequote(lx->tok, lx->len);
                if (name == NULL)
                    return false;
                int k = find_col(d, name);
                free(name);
                bool dup = false;
                for (uint32_t i = 0; i < d->npk; i++)
                    dup |= k >= 0 && d->pk[i] == (uint32_t)k;
                if (k >= 0 && !dup) {
                    uint32_t *pk = realloc(d->pk, (d->npk + 1) * sizeof *pk);
                    if (pk == NULL)
                        return false;
                    d->pk = pk;
                    d->pk[d->npk++] = (uint32_t)k;
                }
                sqlite_lex_next(lx);
            }
            /* COLLATE x, ASC/DESC, up to the sqlite_lex_next ',' or ')';
            ** the first column's order and collation decide its seeks */
            while (lx->kind != SQLITE_TK_COMMA && lx->kind != SQLITE_TK_RP && lx->kind != SQLITE_TK_END) {
                if (lx->kind == SQLITE_TK_LP) {
                    if (!sqlite_lex_skip_parens(lx))
                        return false;
                } else if (sqlite_lex_accept(lx, "COLLATE")) {
                    if (first_item && !sqlite_lex_is_kw(lx, "BINARY"))
                        d->pk0_collated = true;
                    sqlite_lex_next(lx);
                } else {
                    if (first_item && sqlite_lex_is_kw(lx, "DESC"))
                        d->pk0_desc = true;
                    sqlite_lex_next(lx);
                }
            }
            first_item = false;
            if (lx->kind == SQLITE_TK_COMMA)
                sqlite_lex_next(lx);
        }
        sqlite_lex_next(lx);
    } else if (sqlite_lex_is_kw(lx, "UNIQUE")) {
        d->nunique++;
    }
    /* The rest of the constraint: up to ',' or ')' at depth 0. */
    while (lx->kind != SQLITE_TK_COMMA && lx->kind != SQLITE_TK_RP) {
        if (lx->kind == SQLITE_TK_END)
            return false;
        if (lx->kind == SQLITE_TK_LP) {
            if (!sqlite_lex_skip_parens(lx))
                return false;
        } else {
            sqlite_lex_next(lx);
        }
    }
    return true;
}

/* Skip "[schema .] name"; returns false when no name is there. */
static bool skip_table_name(sqlite_lexer *lx)
{
    if (!sqlite_lex_is_name(lx))
        return false;
    sqlite_lex_next(lx);
    if (lx->kind == SQLITE_TK_OTHER && *lx->tok == '.') {
        sqlite_lex_next(lx);
        if (!sqlite_lex_is_name(lx))
            return false;
        sqlite_lex_next(lx);
    }
    return true;
}

/* Parse CREATE [VIRTUAL] TABLE text.  Returns false when it cannot. */
static bool parse_create_table(const char *sql, size_t len, table_def *d)
{
    memset(d, 0, sizeof *d);
    sqlite_lexer lx = {sql, sql + len, SQLITE_TK_END, sql, 0};
    sqlite_lex_next(&lx);
    if (!sqlite_lex_accept(&lx, "CREATE"))
        return false;
    if (!sqlite_lex_accept(&lx, "TEMP"))
        sqlite_lex_accept(&lx, "TEMPORARY");
    if (sqlite_lex_accept(&lx, "VIRTUAL")) {
        d->is_virtual = true;
        if (!sqlite_lex_accept(&lx, "TABLE"))
            return false;
        if (sqlite_lex_accept(&lx, "IF")) {
            sqlite_lex_accept(&lx, "NOT");
            sqlite_lex_accept(&lx, "EXISTS");
        }
        if (!skip_table_name(&lx) || !sqlite_lex_accept(&lx, "USING") || !sqlite_lex_is_name(&lx))
            return false;
        d->module = sqlite_dequote(lx.tok, lx.len);
        sqlite_lex_next(&lx);
        /* Arguments that are a lone name are the module's columns (fts3/4/5,
        ** rtree); options such as tokenize=... are not. */
        if (lx.kind == SQLITE_TK_LP) {
            sqlite_lex_next(&lx);
            while (lx.kind != SQLITE_TK_RP && lx.kind != SQLITE_TK_END) {
                const char *s = lx.tok;
                size_t n = lx.len;
                bool single = sqlite_lex_is_name(&lx);
                sqlite_lex_next(&lx);
                int tokens = 1;
                while (lx.kind != SQLITE_TK_COMMA && lx.kind != SQLITE_TK_RP && lx.kind != SQLITE_TK_END) {
                    if (lx.kind == SQLITE_TK_LP && !sqlite_lex_skip_parens(&lx))
                        return false;
                    else if (lx.kind != SQLITE_TK_LP)
                        sqlite_lex_next(&lx);
                    tokens++;
                }
                if (single && tokens <= 2 && add_column(d, s, n) == NULL)
                    return false;
                if (lx.kind == SQLITE_TK_COMMA)
                    sqlite_lex_next(&lx);
            }
        }
        return true;
    }
    if (!sqlite_lex_accept(&lx, "TABLE"))
        return false;
    if (sqlite_lex_accept(&lx, "IF")) {
        if (!sqlite_lex_accept(&lx, "NOT") || !sqlite_lex_accept(&lx, "EXISTS"))
            return false;
    }
    if (!skip_table_name(&lx) || lx.kind != SQLITE_TK_LP)
        return false;
    sqlite_lex_next(&lx);
    bool constraints = false;
    for (;;) {
        if (lx.kind == SQLITE_TK_END)
            return false;
        if (!constraints && (sqlite_lex_is_kw(&lx, "CONSTRAINT") || sqlite_lex_is_kw(&lx, "PRIMARY") ||
                             sqlite_lex_is_kw(&lx, "UNIQUE") || sqlite_lex_is_kw(&lx, "CHECK") ||
                             sqlite_lex_is_kw(&lx, "FOREIGN")))
            constraints = true;
        if (constraints) {
            if (!parse_table_constraint(&lx, d))
                return false;
        } else {
            if (!sqlite_lex_is_name(&lx) || !parse_column(&lx, d))
                return false;
        }
        if (lx.kind == SQLITE_TK_COMMA) {
            sqlite_lex_next(&lx);
            continue;
        }
        if (lx.kind == SQLITE_TK_RP)
            break;
        return false;
    }
    sqlite_lex_next(&lx);
    while (lx.kind != SQLITE_TK_END) {
        if (sqlite_lex_accept(&lx, "WITHOUT")) {
            if (!sqlite_lex_accept(&lx, "ROWID"))
                return false;
            d->without_rowid = true;
        } else if (sqlite_lex_accept(&lx, "STRICT")) {
            d->strict = true;
        } else if (lx.kind == SQLITE_TK_COMMA || (lx.kind == SQLITE_TK_OTHER && *lx.tok == ';')) {
            sqlite_lex_next(&lx);
        } else {
            return false;
        }
    }
    return d->ncols > 0;
}

/* "CREATE [TEMP] VIEW [IF NOT EXISTS] name [(a, b)] AS select": the
** select's text as written (blanks around it trimmed) and the column names
** when the view gives them.  False when the text is not understood. */
static bool parse_create_view(const char *sql, const char **query, size_t *qlen,
                              char ***names, uint32_t *nnames)
{
    *names = NULL;
    *nnames = 0;
    sqlite_lexer lx = {sql, sql + strlen(sql), SQLITE_TK_END, sql, 0};
    sqlite_lex_next(&lx);
    if (!sqlite_lex_accept(&lx, "CREATE"))
        return false;
    if (!sqlite_lex_accept(&lx, "TEMP"))
        sqlite_lex_accept(&lx, "TEMPORARY");
    if (!sqlite_lex_accept(&lx, "VIEW"))
        return false;
    if (sqlite_lex_accept(&lx, "IF") &&
        (!sqlite_lex_accept(&lx, "NOT") || !sqlite_lex_accept(&lx, "EXISTS")))
        return false;
    if (!skip_table_name(&lx))
        return false;
    if (lx.kind == SQLITE_TK_LP && !parse_name_list(&lx, names, nnames))
        return false;
    if (!sqlite_lex_is_kw(&lx, "AS"))
        return false;
    const char *q = lx.p, *end = sql + strlen(sql);
    while (q < end && isspace((unsigned char)*q))
        q++;
    while (end > q && (isspace((unsigned char)end[-1]) || end[-1] == ';'))
        end--;
    if (q == end)
        return false;
    *query = q;
    *qlen = (size_t)(end - q);
    return true;
}

static int set_error(sqlite_table *st, lt_table *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A view: its SELECT text for the engine and the names it gives its
** columns (types are the engine's to find); an error when the text cannot
** be read. */
static int build_view(sqlite_source *src, sqlite_table *st, lt_table *t, const char *sql)
{
    const char *q = NULL;
    size_t qlen = 0;
    char **names = NULL;
    uint32_t n = 0;
    if (sql == NULL || !parse_create_view(sql, &q, &qlen, &names, &n)) {
        free_names(names, n);
        return set_error(st, t, "'%s': cannot read the definition of view '%s' (%s)",
                         src->db.path, t->name,
                         sql ? "CREATE VIEW text not understood" : "no CREATE VIEW text");
    }
    st->query = malloc(qlen + 1);
    t->cols = calloc(n ? n : 1, sizeof *t->cols);
    if (st->query == NULL || t->cols == NULL) {
        free_names(names, n);
        return -1;
    }
    memcpy(st->query, q, qlen);
    st->query[qlen] = '\0';
    t->query = st->query;
    for (uint32_t i = 0; i < n; i++) {
        lt_column *c = &t->cols[i];
        c->name = names[i];
        c->type = LT_NULL;
        c->nullable = true;
        c->type_name = "";
    }
    t->ncols = n;
    free(names);
    return 0;
}

/* ---- types ---------------------------------------------------------------- */

static bool contains_ci(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (strncasecmp(s + i, needle, m) == 0)
            return true;
    return false;
}

/* The logical type, size and digits clients see for a declared type. */
static void map_type(const col_def *c, uint8_t aff, lt_column *out)
{
    const char *t = c->type;
    size_t n = c->type_len;
    out->scale = 0;
    out->is_long = false;
    switch (aff) {
    case SQLITE_AFF_INTEGER:
        out->type = LT_INT64;
        out->size = 19;
        return;
    case SQLITE_AFF_REAL:
        out->type = LT_DOUBLE;
        out->size = 15;
        return;
    case SQLITE_AFF_TEXT:
        out->type = LT_TEXT;
        break;
    case SQLITE_AFF_BLOB:
        /* untyped (and STRICT's ANY) columns hold text more often than blobs */
        out->type = (n == 0 || (n == 3 && strncasecmp(t, "ANY", 3) == 0)) ? LT_TEXT : LT_BINARY;
        break;
    default:
        if (contains_ci(t, n, "BOOL")) {
            out->type = LT_BOOL;
            out->size = 1;
            return;
        }
        if (contains_ci(t, n, "DATETIME") || contains_ci(t, n, "TIMESTAMP")) {
            out->type = LT_TIMESTAMP;
            out->size = 23;
            out->scale = 3;
            return;
        }
        if (contains_ci(t, n, "DATE")) {
            out->type = LT_DATE;
            out->size = 10;
            return;
        }
        if (contains_ci(t, n, "TIME")) {
            out->type = LT_TIME;
            out->size = 12;
            out->scale = 3;
            return;
        }
        if (contains_ci(t, n, "BINARY")) {
            out->type = LT_BINARY;
            break;
        }
        if (contains_ci(t, n, "DEC") || contains_ci(t, n, "NUM") ||
            contains_ci(t, n, "MONEY") || contains_ci(t, n, "CURRENCY")) {
            out->type = LT_DOUBLE;
            out->size = 15;
            return;
        }
        out->type = LT_TEXT;
        break;
    }
    if (c->size > 0) {
        out->size = (uint32_t)c->size;
    } else {
        out->size = SQLITE_MAX_LENGTH;
        out->is_long = true;
    }
}

/* The longest value the file can hold, in characters of text (UTF-16
** takes two bytes for each) or bytes of a blob: a value is one record's
** payload, and a payload cannot use more bytes than the usable part of
** every page.  Cheap (no scan) and true for every stored value; a 40 KiB
** database says 40 KiB, not a gigabyte a client would allocate. */
static uint32_t long_size(const sqlite_db *db, lt_type type)
{
    uint64_t bytes = (uint64_t)db->npages * db->usable;
    if (type == LT_TEXT && db->encoding != SQLITE_ENC_UTF8)
        bytes /= 2;
    if (bytes == 0)
        bytes = 1;
    return bytes < SQLITE_MAX_LENGTH ? (uint32_t)bytes : SQLITE_MAX_LENGTH;
}

/* ---- building tables ------------------------------------------------------ */

static const char *keep(sqlite_source *src, char *s)
{
    if (s == NULL)
        return NULL;
    if (src->nstrings == src->strings_cap) {
        size_t cap = src->strings_cap ? src->strings_cap * 2 : 64;
        char **p = realloc(src->strings, cap * sizeof *p);
        if (p == NULL) {
            free(s);
            return NULL;
        }
        src->strings = p;
        src->strings_cap = cap;
    }
    src->strings[src->nstrings++] = s;
    return s;
}

/* "VARCHAR ( 30 )" -> "VARCHAR" (owned by the source). */
static const char *type_name(sqlite_source *src, const col_def *c)
{
    size_t n = c->type_len;
    const char *lp = c->type ? memchr(c->type, '(', n) : NULL;
    if (lp != NULL)
        n = (size_t)(lp - c->type);
    while (n > 0 && isspace((unsigned char)c->type[n - 1]))
        n--;
    char *s = malloc(n + 1);
    if (s == NULL)
        return NULL;
    if (n)
        memcpy(s, c->type, n);
    s[n] = '\0';
    return keep(src, s);
}

static bool type_is_integer(const col_def *c)
{
    return c->type_len == 7 && strncasecmp(c->type, "INTEGER", 7) == 0;
}

static int add_index(lt_table *t, const char *name, bool unique, bool primary,
                     const uint32_t *cols, uint32_t ncols)
{
    lt_index *ix = realloc(t->indexes, (t->nindexes + 1) * sizeof *ix);
    if (ix == NULL)
        return -1;
    t->indexes = ix;
    lt_index *x = &ix[t->nindexes];
    memset(x, 0, sizeof *x);
    x->name = strdup(name);
    x->cols = malloc((ncols ? ncols : 1) * sizeof *x->cols);
    if (x->name == NULL || x->cols == NULL) {
        free(x->name);
        free(x->cols);
        return -1;
    }
    memcpy(x->cols, cols, ncols * sizeof *cols);
    x->ncols = ncols;
    x->unique = unique;
    x->primary = primary;
    t->nindexes++;
    return 0;
}

static int set_error(sqlite_table *st, lt_table *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int set_error(sqlite_table *st, lt_table *t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(st->error);
    st->error = strdup(msg);
    t->error = st->error;
    return st->error ? 0 : -1;
}

/* The parsed FOREIGN KEY / REFERENCES clauses become lt_table.foreign (the
** fk_defs are emptied).  A key whose parent columns are not named gets
** them later from the parent's primary key (resolve_foreign_keys); one
** naming a different number of columns than it has is left out, as
** SQLite refuses to use it. */
static int take_foreign_keys(lt_table *t, table_def *d)
{
    if (d->nfks == 0)
        return 0;
    t->foreign = calloc(d->nfks, sizeof *t->foreign);
    if (t->foreign == NULL)
        return -1;
    for (uint32_t i = 0; i < d->nfks; i++) {
        fk_def *f = &d->fks[i];
        if (f->nref != 0 && f->nref != f->ncols)
            continue;
        lt_foreign_key *k = &t->foreign[t->nforeign];
        k->ref_cols = f->nref ? f->ref_cols : calloc(f->ncols, sizeof *k->ref_cols);
        if (k->ref_cols == NULL)
            return -1;
        k->name = f->name;
        k->ref_table = f->ref_table;
        k->ncols = f->ncols;
        k->cols = f->cols;
        k->update_rule = f->on_update;
        k->delete_rule = f->on_delete;
        t->nforeign++;
        memset(f, 0, sizeof *f);
    }
    return 0;
}

/* Keys that name no parent columns refer to the parent's primary key; a
** parent that is missing or has none leaves the key unusable (SQLite
** reports "foreign key mismatch" when it checks one), so it is dropped. */
static int resolve_foreign_keys(lt_source *base)
{
    for (uint32_t ti = 0; ti < base->ntables; ti++) {
        lt_table *t = &base->tables[ti];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < t->nforeign; i++) {
            lt_foreign_key *k = &t->foreign[i];
            bool ok = k->ncols > 0 && k->ref_cols[0] != NULL;
            if (!ok) {
                int64_t p = lt_source_find_table(base, k->ref_table, strlen(k->ref_table));
                const lt_table *pt = p >= 0 ? &base->tables[p] : NULL;
                const lt_index *pk = NULL;
                for (uint32_t x = 0; pt != NULL && x < pt->nindexes; x++)
                    if (pt->indexes[x].primary)
                        pk = &pt->indexes[x];
                ok = pk != NULL && pk->ncols == k->ncols;
                for (uint32_t c = 0; ok && c < k->ncols; c++) {
                    k->ref_cols[c] = strdup(pt->cols[pk->cols[c]].name);
                    if (k->ref_cols[c] == NULL)
                        return -1;
                }
            }
            if (!ok) {
                lt_table one = {.nforeign = 1, .foreign = malloc(sizeof *k)};
                if (one.foreign == NULL)
                    return -1;
                one.foreign[0] = *k;
                lt_table_clear(&one);
                continue;
            }
            t->foreign[kept++] = *k;
        }
        t->nforeign = kept;
    }
    return 0;
}

/* Fill one table from its parsed definition. */
static int build_table(sqlite_source *src, sqlite_table *st, lt_table *t,
                       table_def *d)
{
    t->ncols = d->ncols;
    t->cols = calloc(d->ncols ? d->ncols : 1, sizeof *t->cols);
    st->cols = calloc(d->ncols ? d->ncols : 1, sizeof *st->cols);
    if (t->cols == NULL || st->cols == NULL)
        return -1;
    st->without_rowid = d->without_rowid;
    st->strict = d->strict;
    /* The primary key: column constraints, else the table constraint. */
    uint32_t npk = 0;
    uint32_t *pk = malloc((d->ncols + 1) * sizeof *pk);
    if (pk == NULL)
        return -1;
    bool col_form = false, col_desc = false;
    for (uint32_t i = 0; i < d->ncols; i++)
        if (d->cols[i].pk && npk == 0) {
            pk[npk++] = i;
            col_form = true;
            col_desc = d->cols[i].pk_desc;
        }
    if (npk == 0)
        for (uint32_t i = 0; i < d->npk; i++)
            pk[npk++] = d->pk[i];
    int alias = -1;
    if (!d->is_virtual && !d->without_rowid && npk == 1 && type_is_integer(&d->cols[pk[0]]) &&
        !(col_form && col_desc))
        alias = (int)pk[0];

    for (uint32_t i = 0; i < d->ncols; i++) {
        col_def *c = &d->cols[i];
        sqlite_col *sc = &st->cols[i];
        lt_column *lc = &t->cols[i];
        lc->name = strdup(c->name);
        if (lc->name == NULL)
            return -1;
        sc->affinity = lt_sqlite_affinity(c->type, c->type_len);
        if (d->strict && c->type_len == 3 && strncasecmp(c->type, "ANY", 3) == 0)
            sc->affinity = SQLITE_AFF_BLOB;
        map_type(c, sc->affinity, lc);
        if (lc->is_long && c->gen == NULL)   /* a computed value may be longer */
            lc->size = long_size(&src->db, lc->type);
        lc->type_name = type_name(src, c);
        if (lc->type_name == NULL)
            return -1;
        for (uint32_t k = 0; k < npk; k++)
            sc->pk |= pk[k] == i;
        sc->collated = c->collated;
        lc->nullable = !(c->notnull || (int)i == alias || (d->without_rowid && sc->pk));
        if (c->dflt != NULL) {
            sc->has_default = true;
            sc->default_ok = sqlite_default_value(c->dflt, c->dflt_len, sc->affinity,
                                                  &sc->dflt) == 0;
        }
        if (c->gen != NULL) {
            char *g = malloc(c->gen_len + 1);
            if (g == NULL)
                return -1;
            memcpy(g, c->gen, c->gen_len);
            g[c->gen_len] = '\0';
            sc->generated = g;
        }
    }
    /* Where each column is stored. */
    uint32_t field = 0;
    if (d->without_rowid) {
        for (uint32_t k = 0; k < npk; k++)
            st->cols[pk[k]].field = (int32_t)field++;
        for (uint32_t i = 0; i < d->ncols; i++) {
            if (st->cols[i].pk)
                continue;
            st->cols[i].field = d->cols[i].gen && d->cols[i].gen_virtual
                                    ? SQLITE_FIELD_VIRTUAL : (int32_t)field++;
        }
    } else {
        for (uint32_t i = 0; i < d->ncols; i++) {
            if (d->cols[i].gen && d->cols[i].gen_virtual) {
                st->cols[i].field = SQLITE_FIELD_VIRTUAL;
                continue;
            }
            st->cols[i].field = (int)i == alias ? SQLITE_FIELD_ROWID : (int32_t)field;
            field++;
        }
    }
    st->nfields = field;
    for (uint32_t i = 0; i < d->ncols; i++)
        if (st->cols[i].field == SQLITE_FIELD_VIRTUAL && st->cols[i].generated != NULL)
            st->cols[i].expr = sqlite_expr_compile(st->cols[i].generated, t, st->cols);
    /* A WITHOUT ROWID table is an index b-tree keyed on its primary key:
    ** its leading column seeks it like an index's (reader.c). */
    if (d->without_rowid && npk > 0) {
        bool desc = col_form ? col_desc : d->pk0_desc;
        bool coll = st->cols[pk[0]].collated || (!col_form && d->pk0_collated);
        st->pk_seek = (sqlite_seek_index){0, pk[0], !coll, desc};   /* root: below */
        st->pk_seekable = true;
    }
    if (npk > 0 && add_index(t, "PRIMARY", true, true, pk, npk) != 0) {
        free(pk);
        return -1;
    }
    free(pk);
    return take_foreign_keys(t, d);
}

/* "CREATE [UNIQUE] INDEX name ON t (a, b DESC)" -> an lt_index on `t`, when
** every item is a plain column. */
static int add_create_index(lt_table *t, sqlite_table *st, const char *name, const char *sql,
                            int64_t root)
{
    bool first_desc = false;
    int first_coll = 0;        /* 0 none given, 1 BINARY, 2 another */
    sqlite_lexer lx = {sql, sql + strlen(sql), SQLITE_TK_END, sql, 0};
    sqlite_lex_next(&lx);
    if (!sqlite_lex_accept(&lx, "CREATE"))
        return 0;
    bool unique = sqlite_lex_accept(&lx, "UNIQUE");
    if (!sqlite_lex_accept(&lx, "INDEX"))
        return 0;
    if (sqlite_lex_accept(&lx, "IF")) {
        sqlite_lex_accept(&lx, "NOT");
        sqlite_lex_accept(&lx, "EXISTS");
    }
    if (!skip_table_name(&lx) || !sqlite_lex_accept(&lx, "ON") || !skip_table_name(&lx) ||
        lx.kind != SQLITE_TK_LP)
        return 0;
    sqlite_lex_next(&lx);
    uint32_t cols[64];
    uint32_t n = 0;
    while (lx.kind != SQLITE_TK_RP) {
        if (!sqlite_lex_is_name(&lx) || n == 64)
            return 0;
        char *cn = sqlite_dequote(lx.tok, lx.len);
        if (cn == NULL)
            return -1;
        int64_t pos = -1;
        for (uint32_t i = 0; i < t->ncols; i++)
            if (strcasecmp(t->cols[i].name, cn) == 0)
                pos = i;
        free(cn);
        if (pos < 0)
            return 0;
        cols[n++] = (uint32_t)pos;
        sqlite_lex_next(&lx);
        if (sqlite_lex_accept(&lx, "COLLATE")) {
            if (n == 1)
                first_coll = sqlite_lex_is_kw(&lx, "BINARY") ? 1 : 2;
            sqlite_lex_next(&lx);
        }
        if (!sqlite_lex_accept(&lx, "ASC") && sqlite_lex_accept(&lx, "DESC") && n == 1)
            first_desc = true;
        if (lx.kind == SQLITE_TK_COMMA)
            sqlite_lex_next(&lx);
        else if (lx.kind != SQLITE_TK_RP)
            return 0;   /* an expression: not a column index */
    }
    /* WHERE (a partial index) lacks rows: not one to seek */
    sqlite_lex_next(&lx);
    bool partial = sqlite_lex_is_kw(&lx, "WHERE");
    /* Its leading column, ascending, whole (not partial): numbers sort the
    ** same under any collation; text only when both the index and the
    ** column (whose collation comparisons use) are BINARY. */
    if (n >= 1 && !partial && root >= 2 && root <= st->db_pages && !st->without_rowid) {
        sqlite_seek_index *x = realloc(st->seekable, (st->nseekable + 1) * sizeof *x);
        if (x == NULL)
            return -1;
        st->seekable = x;
        bool text_ok = first_coll != 2 && !st->cols[cols[0]].collated;
        x[st->nseekable++] = (sqlite_seek_index){(uint32_t)root, cols[0], text_ok, first_desc};
    }
    return add_index(t, name, unique, false, cols, n);
}

/* ---- reading sqlite_schema ------------------------------------------------ */

typedef struct schema_row {
    char *type, *name, *tbl_name, *sql;
    int64_t rootpage;
} schema_row;

static void schema_row_free(schema_row *r)
{
    free(r->type);
    free(r->name);
    free(r->tbl_name);
    free(r->sql);
}

static int read_schema_row(const sqlite_db *db, const sqlite_cell *cell,
                           sqlite_buf *buf, schema_row *row, lt_error *err)
{
    memset(row, 0, sizeof *row);
    const uint8_t *rec = cell->local;
    if (cell->local_len < cell->payload_len) {
        if (sqlite_payload_read(db, cell, cell->payload_len, buf, err) != 0)
            return -1;
        rec = buf->p;
    }
    uint64_t serials[5];
    uint32_t offsets[5], nfields, hlen;
    if (sqlite_record_header(rec, cell->payload_len, cell->payload_len, 5, serials,
                             offsets, &nfields, &hlen) != 0)
        return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: bad sqlite_schema record",
                            db->path, cell->pgno);
    char **texts[5] = {&row->type, &row->name, &row->tbl_name, NULL, &row->sql};
    for (uint32_t k = 0; k < nfields; k++) {
        sqlite_val v;
        sqlite_decode(serials[k], rec + offsets[k], db->encoding, &v);
        if (k == 3) {
            row->rootpage = v.cls == SQLITE_INT ? v.i : 0;
        } else if (v.cls == SQLITE_TEXT) {
            *texts[k] = sqlite_text_dup(v.p, v.n, v.enc);
            if (*texts[k] == NULL)
                return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        }
    }
    return 0;
}

static bool starts_with_sqlite(const char *name)
{
    return strncasecmp(name, "sqlite_", 7) == 0;
}

int sqlite_schema_load(sqlite_source *src, lt_error *err)
{
    sqlite_db *db = &src->db;
    if (db->npages == 0)
        return 0;
    schema_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    sqlite_buf buf = {0};
    sqlite_cursor cur;
    int rc = -1;
    if (sqlite_cursor_open(&cur, db, 1, false, err) != 0)
        goto done;
    for (;;) {
        sqlite_cell cell;
        int r = sqlite_cursor_next(&cur, &cell, err);
        if (r < 0)
            goto done;
        if (r == 0)
            break;
        if (nrows == cap) {
            cap = cap ? cap * 2 : 32;
            schema_row *p = realloc(rows, cap * sizeof *p);
            if (p == NULL) {
                lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
                goto done;
            }
            rows = p;
        }
        if (read_schema_row(db, &cell, &buf, &rows[nrows], err) != 0) {
            schema_row_free(&rows[nrows]);
            goto done;
        }
        nrows++;
    }
    /* Tables and views, in sqlite_schema order. */
    size_t ntables = 0;
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].type && rows[i].name &&
            (strcmp(rows[i].type, "table") == 0 || strcmp(rows[i].type, "view") == 0))
            ntables++;
    src->base.tables = calloc(ntables ? ntables : 1, sizeof *src->base.tables);
    src->tables = calloc(ntables ? ntables : 1, sizeof *src->tables);
    if (src->base.tables == NULL || src->tables == NULL) {
        lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        goto done;
    }
    for (size_t i = 0; i < nrows; i++) {
        schema_row *r = &rows[i];
        if (!r->type || !r->name ||
            (strcmp(r->type, "table") != 0 && strcmp(r->type, "view") != 0))
            continue;
        uint32_t ti = src->base.ntables++;
        lt_table *t = &src->base.tables[ti];
        sqlite_table *st = &src->tables[ti];
        t->name = strdup(r->name);
        t->row_estimate = -1;
        if (t->name == NULL)
            goto oom;
        if (strcmp(r->type, "view") == 0) {
            t->kind = "VIEW";
            if (build_view(src, st, t, r->sql) != 0)
                goto oom;
            continue;
        }
        t->kind = starts_with_sqlite(r->name) ? "SYSTEM TABLE" : "TABLE";
        table_def d;
        bool parsed = r->sql != NULL && parse_create_table(r->sql, strlen(r->sql), &d);
        if (!parsed) {
            if (r->sql != NULL)
                table_def_free(&d);
            if (set_error(st, t, "'%s': cannot read the definition of table '%s' (%s)", db->path, r->name,
                          r->sql ? "CREATE TABLE text not understood" : "no CREATE TABLE text") != 0)
                goto oom;
            continue;
        }
        if (build_table(src, st, t, &d) != 0) {
            table_def_free(&d);
            goto oom;
        }
        if (d.is_virtual) {
            char what[160];
            snprintf(what, sizeof what, "module %.100s", d.module ? d.module : "?");
            table_def_free(&d);
            if (set_error(st, t, "'%s': '%s' is a virtual table (%s): its rows come from module "
                          "code that Lector does not run; its shadow tables can be read",
                          db->path, r->name, what) != 0)
                goto oom;
            continue;
        }
        table_def_free(&d);
        if (r->rootpage < 2 || r->rootpage > db->npages) {
            if (set_error(st, t, "'%s' is corrupt: table '%s' has root page %lld, outside the file's %u pages",
                          db->path, r->name, (long long)r->rootpage, db->npages) != 0)
                goto oom;
            continue;
        }
        st->root = (uint32_t)r->rootpage;
        st->pk_seek.root = st->root;
    }
    if (resolve_foreign_keys(&src->base) != 0)
        goto oom;
    /* Indexes, for the catalog. */
    for (size_t i = 0; i < nrows; i++) {
        schema_row *r = &rows[i];
        if (!r->type || strcmp(r->type, "index") != 0 || !r->sql || !r->tbl_name)
            continue;
        int64_t ti = -1;
        for (uint32_t k = 0; k < src->base.ntables && ti < 0; k++)
            if (strcasecmp(src->base.tables[k].name, r->tbl_name) == 0)
                ti = k;
        if (ti < 0 || src->tables[ti].error != NULL)
            continue;
        src->tables[ti].db_pages = db->npages;
        if (add_create_index(&src->base.tables[ti], &src->tables[ti], r->name ? r->name : "",
                             r->sql, r->rootpage) != 0)
            goto oom;
    }
    rc = 0;
    goto done;
oom:
    lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
done:
    for (size_t i = 0; i < nrows; i++)
        schema_row_free(&rows[i]);
    free(rows);
    free(buf.p);
    return rc;
}

void sqlite_schema_free(sqlite_source *src)
{
    for (uint32_t i = 0; i < src->base.ntables; i++) {
        sqlite_table *st = &src->tables[i];
        if (st->cols != NULL)
            for (uint32_t c = 0; c < src->base.tables[i].ncols; c++) {
                free(st->cols[c].generated);
                sqlite_expr_free(st->cols[c].expr);
                if (st->cols[c].default_ok &&
                    (st->cols[c].dflt.cls == SQLITE_TEXT || st->cols[c].dflt.cls == SQLITE_BLOB))
                    free((void *)st->cols[c].dflt.p);
            }
        free(st->cols);
        free(st->error);
        free(st->query);
        free(st->seekable);
        lt_table_clear(&src->base.tables[i]);
    }
    free(src->base.tables);
    free(src->tables);
    for (size_t i = 0; i < src->nstrings; i++)
        free(src->strings[i]);
    free(src->strings);
    src->base.tables = NULL;
    src->tables = NULL;
    src->strings = NULL;
    src->base.ntables = 0;
    src->nstrings = src->strings_cap = 0;
}
