/*
** reader.c — the dBASE reader's lt_reader: probing, opening files, folders
** and memory buffers, scans.
**
** A folder is opened table by table: a file that cannot be read (dBASE 7,
** garbage, unreadable) does not make the folder unusable; it is listed with
** lt_table.error set, and scanning it fails with that message.  A single
** file that cannot be read fails the open.  A table whose memo file is
** missing is listed with its columns and fails when scanned.
**
** The source is immutable after open; a scan only reads it, so scans on
** several threads need no lock.  Each batch checks that the files still have
** the size and mtime they had at open, so a file rewritten under a scan fails
** the statement instead of yielding a mix of old and new rows.
*/
#include "dbf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/codepage.h"
#include "dbf_internal.h"

#define DEFAULT_CODEPAGE 437

struct lt_scan {
    dbf_source *src;
    const dbf_table *table;
    const lt_scan_spec *spec;
    int64_t next;            /* next record to look at */
    int64_t produced;        /* rows handed out */
    const uint8_t **recs;    /* records of the batch being filled */
    uint32_t recs_cap;
};

/* ---- helpers ------------------------------------------------------------ */

static bool has_dbf_extension(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".dbf") == 0;
}

static int set_table_error(dbf_table *t, lt_table *tab, const lt_error *e)
{
    free(t->error);
    t->error = strdup(e->message);
    tab->error = t->error;
    return t->error ? 0 : -1;
}

/* The code page: CodePage= option, else the .cpg companion, else the
** language-driver byte, else 437 (what DOS dBASE wrote). */
static int choose_codepage(const dbf_source *s, const char *path, uint8_t ldid)
{
    if (s->codepage_override)
        return s->codepage_override;
    if (path != NULL) {
        char *cpg = lt_find_companion(path, "cpg");
        if (cpg != NULL) {
            lt_mapped_file f;
            int cp = 0;
            if (lt_map_file(cpg, &f, NULL) == 0) {
                if (f.data != NULL)
                    cp = lt_codepage_from_name((const char *)f.data, f.size < 64 ? f.size : 64);
                lt_unmap_file(&f);
            }
            free(cpg);
            if (cp != 0)
                return cp;
        }
    }
    int cp = lt_codepage_from_ldid(ldid);
    return cp != 0 ? cp : DEFAULT_CODEPAGE;
}

static dbf_memo_kind memo_kind_for(const dbf_table *t, const char *ext)
{
    if (strcasecmp(ext, "fpt") == 0)
        return DBF_MEMO_FPT;
    return t->version == 0x83 ? DBF_MEMO_DBT3 : DBF_MEMO_DBT4;
}

/* Find and map the memo companion (.fpt first, then .dbt, any case).  A
** missing or broken memo file is the table's error, not the open's. */
static int open_memo_file(dbf_table *t, lt_table *tab)
{
    static const char *const exts[] = {"fpt", "dbt"};
    char *memo_path = NULL;
    const char *ext = NULL;
    for (size_t i = 0; i < 2 && memo_path == NULL; i++) {
        memo_path = lt_find_companion(t->path, exts[i]);
        ext = exts[i];
    }
    lt_error e;
    if (memo_path == NULL) {
        lt_error_set(&e, "HY000", "'%s' has memo fields but its memo file (.dbt or .fpt) is missing", t->path);
        return set_table_error(t, tab, &e);
    }
    t->memo_path = memo_path;
    t->memo.name = memo_path;
    if (lt_map_file(memo_path, &t->memo_file, &e) != 0)
        return set_table_error(t, tab, &e);
    t->own_memo = true;
    if (dbf_memo_open(&t->memo, memo_kind_for(t, ext), t->memo_file.data,
                      t->memo_file.size, memo_path, &e) != 0)
        return set_table_error(t, tab, &e);
    return 0;
}

static void table_free(dbf_table *t, lt_table *tab)
{
    if (t->own_file)
        lt_unmap_file(&t->file);
    if (t->own_memo)
        lt_unmap_file(&t->memo_file);
    free(t->memo_path);
    free(t->path);
    free(t->fields);
    free(t->error);
    memset(t, 0, sizeof *t);
    lt_table_clear(tab);
    memset(tab, 0, sizeof *tab);
}

/* Forget the columns of a table that cannot be read. */
static void drop_columns(dbf_table *t, lt_table *tab)
{
    for (uint32_t c = 0; c < tab->ncols; c++)
        free(tab->cols[c].name);
    free(tab->cols);
    tab->cols = NULL;
    tab->ncols = 0;
    free(t->fields);
    t->fields = NULL;
    t->nfields = 0;
    tab->row_estimate = -1;
}

/* Open one table file into t/tab.  -1: the file itself is unusable (err). */
static int open_table_file(dbf_source *s, dbf_table *t, lt_table *tab,
                           const char *path, lt_error *err)
{
    tab->kind = "TABLE";
    tab->row_estimate = -1;
    t->path = strdup(path);
    tab->name = lt_path_stem(path);
    if (t->path == NULL || tab->name == NULL)
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    if (lt_map_file(path, &t->file, err) != 0)
        return -1;
    t->own_file = true;
    t->codepage = choose_codepage(s, path, dbf_header_ldid(t->file.data, t->file.size));
    if (dbf_header_parse(t, tab, err) != 0) {
        drop_columns(t, tab);
        return -1;
    }
    if (t->needs_memo && open_memo_file(t, tab) != 0)
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    return 0;
}

static int parse_options(dbf_source *s, const lt_options *opts, lt_error *err)
{
    s->show_deleted = lt_options_bool(opts, "ShowDeleted", false);
    const char *cp = lt_options_get(opts, "CodePage");
    if (cp != NULL && *cp != '\0') {
        char *end;
        errno = 0;
        long v = strtol(cp, &end, 10);
        if (errno != 0 || *end != '\0' || v <= 0 || v > 65535 || !lt_codepage_known((int)v))
            return lt_error_set(err, "HY000", "CodePage=%s is not a code page Lector can decode (use a Windows code page number such as 1252 or 65001)", cp);
        s->codepage_override = (int)v;
    }
    return 0;
}

static dbf_source *source_new(const char *path, uint32_t ntables)
{
    dbf_source *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->base.reader = &lt_dbf_reader;
    s->base.path = strdup(path);
    s->base.tables = calloc(ntables ? ntables : 1, sizeof *s->base.tables);
    s->tables = calloc(ntables ? ntables : 1, sizeof *s->tables);
    if (s->base.path == NULL || s->base.tables == NULL || s->tables == NULL) {
        free(s->base.path);
        free(s->base.tables);
        free(s->tables);
        free(s);
        return NULL;
    }
    return s;
}

/* ---- the vtable --------------------------------------------------------- */

static void dbf_close(lt_source *base)
{
    dbf_source *s = (dbf_source *)base;
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->base.ntables; i++)
        table_free(&s->tables[i], &s->base.tables[i]);
    free(s->tables);
    free(s->base.tables);
    free(s->base.path);
    free(s);
}

static int dbf_probe(const uint8_t *head, size_t len, const char *path)
{
    if (len == 0 && lt_is_directory(path)) {
        char **names = NULL;
        long n = lt_list_directory(path, &names, NULL);
        bool any = false;
        for (long i = 0; i < n && !any; i++)
            any = has_dbf_extension(names[i]);
        lt_free_names(names, n);
        return any ? 50 : 5;    /* an empty folder is an empty dBASE database */
    }
    int score = dbf_header_plausible(head, len);
    if (has_dbf_extension(path) && score < 50)
        score = 50;             /* ours even when broken: say why it fails */
    return score;
}

static int open_directory(dbf_source **out, const char *path, const lt_options *opts,
                          lt_error *err)
{
    char **names = NULL;
    long n = lt_list_directory(path, &names, err);
    if (n < 0)
        return -1;
    uint32_t count = 0;
    for (long i = 0; i < n; i++)
        count += has_dbf_extension(names[i]);
    dbf_source *s = source_new(path, count);
    if (s == NULL) {
        lt_free_names(names, n);
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    }
    *out = s;
    if (parse_options(s, opts, err) != 0)
        goto fail;
    for (long i = 0; i < n; i++) {
        if (!has_dbf_extension(names[i]))
            continue;
        char *file = lt_path_join(path, names[i]);
        if (file == NULL) {
            lt_error_set(err, "HY001", "out of memory opening '%s'", path);
            goto fail;
        }
        uint32_t k = s->base.ntables++;
        lt_error e;
        int rc = open_table_file(s, &s->tables[k], &s->base.tables[k], file, &e);
        free(file);
        if (rc != 0 && (strcmp(e.sqlstate, "HY001") == 0 ||
                        set_table_error(&s->tables[k], &s->base.tables[k], &e) != 0)) {
            lt_error_set(err, "HY001", "out of memory opening '%s'", path);
            goto fail;
        }
    }
    lt_free_names(names, n);
    return 0;
fail:
    lt_free_names(names, n);
    return -1;
}

static int dbf_open(const char *path, const lt_options *opts, lt_source **out,
                    lt_error *err)
{
    *out = NULL;
    dbf_source *s = NULL;
    if (lt_is_directory(path)) {
        if (open_directory(&s, path, opts, err) != 0) {
            if (s != NULL)
                dbf_close(&s->base);
            return -1;
        }
        *out = &s->base;
        return 0;
    }
    s = source_new(path, 1);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    s->base.ntables = 1;
    if (parse_options(s, opts, err) != 0 ||
        open_table_file(s, &s->tables[0], &s->base.tables[0], path, err) != 0) {
        dbf_close(&s->base);
        return -1;
    }
    *out = &s->base;
    return 0;
}

int lt_dbf_open_memory(const uint8_t *table, size_t table_len,
                       const uint8_t *memo, size_t memo_len,
                       const char *memo_ext, const char *name,
                       const lt_options *opts, lt_source **out, lt_error *err)
{
    *out = NULL;
    if (name == NULL)
        name = "memory";
    dbf_source *s = source_new(name, 1);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    s->base.ntables = 1;
    dbf_table *t = &s->tables[0];
    lt_table *tab = &s->base.tables[0];
    tab->kind = "TABLE";
    t->path = strdup(name);
    tab->name = strdup(name);
    if (t->path == NULL || tab->name == NULL) {
        dbf_close(&s->base);
        return lt_error_set(err, "HY001", "out of memory");
    }
    t->file.data = table_len ? table : NULL;
    t->file.size = table_len;
    if (parse_options(s, opts, err) != 0)
        goto fail;
    t->codepage = choose_codepage(s, NULL, dbf_header_ldid(table, table_len));
    if (dbf_header_parse(t, tab, err) != 0)
        goto fail;
    if (t->needs_memo) {
        lt_error e;
        t->memo.name = t->path;
        if (memo == NULL || memo_ext == NULL) {
            lt_error_set(&e, "HY000", "'%s' has memo fields but its memo file (.dbt or .fpt) is missing", name);
            if (set_table_error(t, tab, &e) != 0)
                goto oom;
        } else {
            t->memo_file.data = memo_len ? memo : NULL;
            t->memo_file.size = memo_len;
            if (dbf_memo_open(&t->memo, memo_kind_for(t, memo_ext), t->memo_file.data,
                              memo_len, t->path, &e) != 0 &&
                set_table_error(t, tab, &e) != 0)
                goto oom;
        }
    }
    *out = &s->base;
    return 0;
oom:
    lt_error_set(err, "HY001", "out of memory");
fail:
    dbf_close(&s->base);
    return -1;
}

static int dbf_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out,
                         lt_error *err)
{
    dbf_source *s = (dbf_source *)base;
    *out = NULL;
    if (spec->table >= s->base.ntables)
        return lt_error_set(err, "HY000", "no table %u in '%s'", spec->table, s->base.path);
    const dbf_table *t = &s->tables[spec->table];
    if (t->error != NULL)
        return lt_error_set(err, "HY000", "%s", t->error);
    for (uint32_t c = 0; c < spec->ncols; c++)
        if (spec->cols[c] >= t->nfields)
            return lt_error_set(err, "HY000", "'%s' has no column %u", t->path, spec->cols[c]);
    /* Predicates are left to the engine: records are text, decoding is
    ** the cost, and the engine filters decoded vectors fast. */
    for (uint32_t p = 0; p < spec->npreds; p++)
        spec->preds[p].use = LT_PUSH_UNUSED;
    lt_scan *scan = calloc(1, sizeof *scan);
    if (scan == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    scan->src = s;
    scan->table = t;
    scan->spec = spec;
    *out = scan;
    return 0;
}

/* Fail the scan if a file changed since open (another program wrote it). */
static int check_files(const dbf_table *t, lt_error *err)
{
    if (lt_file_check(&t->file, err) != 0)
        return -1;
    if (t->own_memo && lt_file_check(&t->memo_file, err) != 0)
        return -1;
    return 0;
}

static int dbf_scan_next(lt_scan *scan, lt_batch *batch, lt_error *err)
{
    const dbf_table *t = scan->table;
    const lt_scan_spec *spec = scan->spec;
    lt_batch_reset(batch);
    if (batch->ncols != spec->ncols)
        return lt_error_set(err, "HY000", "internal error: batch has %u columns, scan wants %u",
                            batch->ncols, spec->ncols);
    int64_t want = batch->capacity;
    if (spec->limit >= 0 && spec->limit - scan->produced < want)
        want = spec->limit - scan->produced;
    if (want <= 0 || scan->next >= t->nrecords)
        return 0;
    if (check_files(t, err) != 0)
        return -1;
    if (scan->recs_cap < batch->capacity) {
        const uint8_t **grown = realloc(scan->recs, batch->capacity * sizeof *grown);
        if (grown == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        scan->recs = grown;
        scan->recs_cap = batch->capacity;
    }

    /* Pick the live records of this batch, then decode column by column.
    ** A stretch of deleted records is skipped without ending the scan. */
    const uint8_t *base = t->file.data + t->header_len;
    bool show_deleted = scan->src->show_deleted;
    uint32_t n = 0;
    int64_t r = scan->next;
    while (n < want && r < t->nrecords) {
        const uint8_t *rec = base + (size_t)r * t->record_len;
        r++;
        if (rec[0] == '*' && !show_deleted)
            continue;
        scan->recs[n++] = rec;
    }
    scan->next = r;
    for (uint32_t c = 0; c < spec->ncols; c++) {
        const dbf_field *f = &t->fields[spec->cols[c]];
        if (dbf_decode_column(t, f, scan->recs, n, &batch->cols[c], &batch->arena, err) != 0)
            return -1;
    }
    batch->count = n;
    scan->produced += n;
    return 0;
}

static void dbf_scan_close(lt_scan *scan)
{
    if (scan == NULL)
        return;
    free(scan->recs);
    free(scan);
}

static int64_t dbf_count_rows(lt_source *base, uint32_t table, lt_error *err)
{
    dbf_source *s = (dbf_source *)base;
    if (table >= s->base.ntables) {
        lt_error_set(err, "HY000", "no table %u in '%s'", table, s->base.path);
        return -1;
    }
    const dbf_table *t = &s->tables[table];
    if (t->error != NULL) {
        lt_error_set(err, "HY000", "%s", t->error);
        return -1;
    }
    if (check_files(t, err) != 0)
        return -1;
    if (s->show_deleted)
        return t->nrecords;
    int64_t live = 0;
    const uint8_t *p = t->file.data + t->header_len;
    for (int64_t r = 0; r < t->nrecords; r++, p += t->record_len)
        live += *p != '*';
    return live;
}

const lt_reader lt_dbf_reader = {
    .name = "dbf",
    .probe = dbf_probe,
    .open = dbf_open,
    .close = dbf_close,
    .scan_open = dbf_scan_open,
    .scan_next = dbf_scan_next,
    .scan_close = dbf_scan_close,
    .count_rows = dbf_count_rows,
};
