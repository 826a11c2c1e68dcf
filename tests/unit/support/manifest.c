/*
** manifest.c — walking a corpus's MANIFEST: each file opened once (with
** the connection keywords of EXPECT.tsv when the corpus asks), every row
** checked, and the rows known not to match yet tallied apart, so that a
** listed row that starts to match fails the run as much as an unlisted
** row that does not: nothing is skipped silently.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "corpus.h"

static const ts_known *find_known(const ts_known *known, size_t nknown, const char *file, const char *table)
{
    for (size_t i = 0; i < nknown; i++)
        if (known[i].file != NULL && strcmp(known[i].file, file) == 0 && strcmp(known[i].table, table) == 0)
            return &known[i];
    return NULL;
}

void ts_tally_row(ts_tally *t, const ts_known *known, size_t nknown, const char *file,
                  const char *table, bool ok, const char *why)
{
    const ts_known *k = find_known(known, nknown, file, table);
    t->total++;
    if (ok && k == NULL) {
        t->matched++;
    } else if (ok) {
        printf("NOW PASSES (remove from the known list): %s [%s]\n", file, table);
        t->matched++;
        t->bad++;
    } else if (k != NULL) {
        printf("known: %s [%s]: %s (%s)\n", file, table, k->why, why);
        t->known++;
    } else {
        printf("FAIL: %s [%s]: %s\n", file, table, why);
        t->bad++;
    }
}

void ts_tally_print(const ts_tally *t, const char *name)
{
    printf("%s corpus: %zu/%zu MANIFEST rows match their oracle (%zu known, %zu unexpected)\n", name,
           t->matched, t->total, t->known, t->bad);
}

/* Open file (relative to the corpus) into *src, or NULL with the error. */
static void open_file(const ts_corpus *c, const char *file, const char *connect, lt_source **src,
                      char *open_error, size_t cap)
{
    char path[1024], buf[512];
    lt_option items[16];
    snprintf(path, sizeof path, "%s/%s", c->dir, file);
    lt_options opts = ts_parse_connect(c->connect ? connect : "", buf, sizeof buf, items, 16);
    lt_error err;
    lt_error_clear(&err);
    if (c->reader->open(path, c->connect ? &opts : NULL, src, &err) != 0) {
        *src = NULL;
        snprintf(open_error, cap, "%s", err.message);
        return;
    }
    /* Workbooks type their sheets on first use (reader.h describe): the
    ** checks read every table's columns directly. */
    for (uint32_t i = 0; c->reader->describe != NULL && i < (*src)->ntables; i++)
        (void)c->reader->describe(*src, i, &err);
}

ts_tally ts_corpus_run(const ts_corpus *c)
{
    char path[1024];
    ts_tsv manifest, ex;
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", c->dir);
    assert_true(ts_tsv_load(path, 7, &manifest));
    snprintf(path, sizeof path, "%s/EXPECT.tsv", c->dir);
    ts_tsv_load(path, 5, &ex);   /* optional */
    assert_true(manifest.nrows > 0);
    ts_tally tally = {0};
    const char *opened = NULL;
    lt_source *src = NULL;
    char open_error[LT_ERROR_MESSAGE_MAX] = "";
    for (size_t r = 0; r < manifest.nrows; r++) {
        char **f = ts_tsv_row(&manifest, r);
        const char *expect, *connect;
        ts_expectation(&ex, f[0], f[1], &expect, &connect);
        if (opened == NULL || strcmp(opened, f[0]) != 0) {
            if (src != NULL)
                src->reader->close(src);
            src = NULL;
            opened = f[0];
            open_file(c, f[0], connect, &src, open_error, sizeof open_error);
        }
        char why[1400] = "";
        bool ok = c->check(c, src, open_error, f, expect, why, sizeof why);
        ts_tally_row(&tally, c->known, c->nknown, f[0], f[1], ok, why);
    }
    if (src != NULL)
        src->reader->close(src);
    ts_tally_print(&tally, c->name);
    ts_tsv_free(&manifest);
    ts_tsv_free(&ex);
    return tally;
}
