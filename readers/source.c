/*
** source.c — the list of readers and opening a path with the right one.
*/
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "common/platform.h"
#include "access/access.h"
#include "dbf/dbf.h"
#include "sqlite/sqlite.h"
#include "xls/xls.h"
#include "xlsb/xlsb.h"

const lt_reader *const lt_readers[] = {
    &lt_sqlite_reader,
    &lt_access_reader,
    &lt_xls_reader,
    &lt_xlsb_reader,
    &lt_dbf_reader,
    NULL,
};

/* Up to 512 first bytes of a regular file, for probing. */
static size_t read_head(const char *path, uint8_t *head, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    size_t n = fread(head, 1, cap, f);
    fclose(f);
    return n;
}

int lt_source_open(const char *path, const lt_options *opts, lt_source **out,
                   lt_error *err)
{
    *out = NULL;
    if (path == NULL || *path == '\0')
        return lt_error_set(err, "08001", "no data file given: set Database= (or DBQ=) to a file or folder");
    bool dir = lt_is_directory(path);
    if (!dir && !lt_is_regular_file(path))
        return lt_error_set(err, "08001", "cannot open '%s': no such file or folder", path);
    uint8_t head[512];
    size_t head_len = dir ? 0 : read_head(path, head, sizeof head);
    if (!dir && head_len == 0)
        return lt_error_set(err, "08001", "cannot read '%s' (empty or unreadable)", path);
    const lt_reader *best = NULL;
    int best_score = 0;
    for (size_t i = 0; lt_readers[i] != NULL; i++) {
        int score = lt_readers[i]->probe(head, head_len, path);
        if (score > best_score) {
            best_score = score;
            best = lt_readers[i];
        }
    }
    if (best == NULL)
        return lt_error_set(err, "08001", "'%s' is not a file format Lector reads (SQLite 3, Access .mdb/.accdb, Excel .xls/.xlsb, dBASE/FoxPro .dbf)", path);
    return best->open(path, opts, out, err);
}

void lt_source_close(lt_source *src)
{
    if (src != NULL)
        src->reader->close(src);
}

static int64_t find_exact(const lt_source *src, const char *name, size_t len)
{
    for (uint32_t i = 0; i < src->ntables; i++) {
        const char *t = src->tables[i].name;
        if (strncasecmp(t, name, len) == 0 && t[len] == '\0')
            return i;
    }
    return -1;
}

/* A listed table: the name exactly, or a worksheet "Sheet1$" named as
** "Sheet1", as in Microsoft's Excel driver. */
static int64_t find_listed(const lt_source *src, const char *name, size_t len)
{
    int64_t i = find_exact(src, name, len);
    if (i >= 0 || (len > 0 && name[len - 1] == '$'))
        return i;
    for (uint32_t k = 0; k < src->ntables; k++) {
        const char *t = src->tables[k].name;
        if (strncasecmp(t, name, len) == 0 && t[len] == '$' && t[len + 1] == '\0')
            return k;
    }
    return -1;
}

int lt_source_describe(const lt_source *src, uint32_t table, lt_error *err)
{
    if (src->reader->describe == NULL)
        return 0;
    /* The reader fills the table under its own lock (see find_extra). */
    return src->reader->describe((lt_source *)src, table, err);
}

int64_t lt_source_find_table_err(const lt_source *src, const char *name, size_t len,
                                 lt_error *err)
{
    int64_t i = find_listed(src, name, len);
    if (i >= 0) {
        /* A table unreadable for good is returned with its error set. */
        if (lt_source_describe(src, (uint32_t)i, err) != 0 && src->tables[i].error == NULL)
            return -1;
        return i;
    }
    if (src->reader->find_extra != NULL) {
        uint32_t t;
        /* The reader adds to the source under its own lock: the source is
        ** shared, never read-only memory, so the cast is sound. */
        int r = src->reader->find_extra((lt_source *)src, name, len, &t, err);
        if (r < 0)
            return -1;
        if (r > 0)
            return t;
    }
    lt_error_set(err, "42S02", "unknown table '%.*s'", (int)(len < 256 ? len : 256), name);
    return -1;
}

int64_t lt_source_find_table(const lt_source *src, const char *name, size_t len)
{
    lt_error err;
    return lt_source_find_table_err(src, name, len, &err);
}
