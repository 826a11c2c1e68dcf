/*
** freexl_loop.c — the floor for .xls: a plain C loop over FreeXL (libfreexl),
** the reader a C programmer on Linux would pick for Excel 97-2003 files.
**
** Two queries, written by hand since FreeXL has no SQL, over the worksheet
** named like the table, whose first row is the header:
**   scan  every cell of every data row (SELECT * FROM t; also scan_wide);
**   agg   COUNT(*), SUM(qty), MIN(price), MAX(name) WHERE qty > 500.
** freexl_open parses the whole workbook (cells included) into memory; that
** is "connect" here, the cell loop is "fetch".  FreeXL hands numbers back as
** INT or DOUBLE, date-formatted numbers as 'YYYY-MM-DD' text (typed as a
** date), booleans as INT 0/1, text as UTF-8: each is hashed as its canonical
** family (bench/client/canon.h), as the ODBC client does with what a driver
** describes.  Output is the client's key=value line.
**
** usage: freexl_loop [--no-checksum] [--repeat K] [--show N] FILE.xls SHEET scan|agg
*/
#define _POSIX_C_SOURCE 200809L
#include "../client/cycles.h"

#include <freexl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct query {
    const char *file, *sheet, *name;   /* name: scan, scan_wide or agg */
} query;

static volatile uint64_t sink;   /* keeps the unchecked reads from vanishing */

static void fail(const char *what, int rc)
{
    fprintf(stderr, "error: %s failed (FreeXL status %d)\n", what, rc);
    exit(2);
}

static void hash_cell(canon *c, const FreeXL_CellValue *v, int checksum)
{
    switch (v->type) {
    case FREEXL_CELL_INT:
        if (checksum) canon_int(c, v->value.int_value); else sink += (uint64_t)v->value.int_value;
        break;
    case FREEXL_CELL_DOUBLE:
        if (checksum) canon_double(c, v->value.double_value);
        else sink += (uint64_t)v->value.double_value;
        break;
    case FREEXL_CELL_TEXT:
    case FREEXL_CELL_SST_TEXT:
        if (checksum) canon_text(c, v->value.text_value, strlen(v->value.text_value));
        else sink += (uint64_t)(uintptr_t)v->value.text_value;
        break;
    case FREEXL_CELL_DATE:
        if (checksum) canon_date_text(c, v->value.text_value, strlen(v->value.text_value));
        else sink += (uint64_t)(uintptr_t)v->value.text_value;
        break;
    case FREEXL_CELL_DATETIME:
        if (checksum) canon_timestamp_text(c, v->value.text_value, strlen(v->value.text_value));
        else sink += (uint64_t)(uintptr_t)v->value.text_value;
        break;
    case FREEXL_CELL_TIME:
        if (checksum) canon_time_text(c, v->value.text_value, strlen(v->value.text_value));
        else sink += (uint64_t)(uintptr_t)v->value.text_value;
        break;
    default:
        if (checksum) canon_null(c);
        break;
    }
}

static int column_of(const void *h, unsigned short ncols, const char *name)
{
    FreeXL_CellValue v;
    for (unsigned short k = 0; k < ncols; k++) {
        if (freexl_get_cell_value(h, 0, k, &v) == FREEXL_OK &&
            (v.type == FREEXL_CELL_TEXT || v.type == FREEXL_CELL_SST_TEXT) &&
            strcmp(v.value.text_value, name) == 0)
            return k;
    }
    fprintf(stderr, "error: no column %s\n", name);
    exit(3);
}

static double number_of(const FreeXL_CellValue *v)
{
    return v->type == FREEXL_CELL_INT ? v->value.int_value
         : v->type == FREEXL_CELL_DOUBLE ? v->value.double_value : 0;
}

static uint64_t scan(const void *h, unsigned nrows, unsigned short ncols, canon *c,
                     int checksum)
{
    FreeXL_CellValue v;
    for (unsigned r = 1; r < nrows; r++) {
        for (unsigned short k = 0; k < ncols; k++) {
            int rc = freexl_get_cell_value(h, r, k, &v);
            if (rc != FREEXL_OK)
                fail("freexl_get_cell_value", rc);
            hash_cell(c, &v, checksum);
        }
        if (checksum)
            canon_end_row(c);
    }
    return nrows > 0 ? nrows - 1 : 0;
}

static uint64_t aggregate(const void *h, unsigned nrows, unsigned short ncols, canon *c,
                          int checksum)
{
    int qty = column_of(h, ncols, "qty"), price = column_of(h, ncols, "price"),
        name = column_of(h, ncols, "name");
    int64_t count = 0, sum = 0;
    double min = 0;
    const char *max = "";
    FreeXL_CellValue q, p, n;
    for (unsigned r = 1; r < nrows; r++) {
        if (freexl_get_cell_value(h, r, (unsigned short)qty, &q) != FREEXL_OK)
            fail("freexl_get_cell_value", 0);
        double qv = number_of(&q);
        if (!(qv > 500))
            continue;
        if (freexl_get_cell_value(h, r, (unsigned short)price, &p) != FREEXL_OK ||
            freexl_get_cell_value(h, r, (unsigned short)name, &n) != FREEXL_OK)
            fail("freexl_get_cell_value", 0);
        double pv = number_of(&p);
        const char *nv = (n.type == FREEXL_CELL_TEXT || n.type == FREEXL_CELL_SST_TEXT)
                       ? n.value.text_value : "";
        if (count == 0 || pv < min)
            min = pv;
        if (count == 0 || strcmp(nv, max) > 0)   /* UTF-8 byte order = code point order */
            max = nv;
        count++;
        sum += (int64_t)qv;
    }
    if (checksum) {
        canon_int(c, count);
        if (count == 0) {
            canon_null(c);
            canon_null(c);
            canon_null(c);
        } else {
            canon_int(c, sum);
            canon_double(c, min);
            canon_text(c, max, strlen(max));
        }
        canon_end_row(c);
    } else {
        sink += (uint64_t)sum;
    }
    return 1;
}

static uint64_t run_once(void *ctx, const bench_options *o, canon *c, bench_cycle *t,
                         int *ncols_out)
{
    const query *q = ctx;
    const char *file = q->file, *sheet = q->sheet, *name = q->name;
    int checksum = o->checksum;
    double t0 = canon_now();
    const void *h = NULL;
    int rc = freexl_open(file, &h);
    if (rc != FREEXL_OK)
        fail("freexl_open", rc);
    unsigned int count = 0;
    if ((rc = freexl_get_info(h, FREEXL_BIFF_SHEET_COUNT, &count)) != FREEXL_OK)
        fail("freexl_get_info", rc);
    unsigned short idx = 0;
    int found = 0;
    for (unsigned short k = 0; k < count && !found; k++) {
        const char *name = NULL;
        if (freexl_get_worksheet_name(h, k, &name) == FREEXL_OK && name &&
            strcmp(name, sheet) == 0) {
            idx = k;
            found = 1;
        }
    }
    if (!found) {
        fprintf(stderr, "error: no worksheet %s in %s\n", sheet, file);
        exit(3);
    }
    unsigned nrows = 0;
    unsigned short ncols = 0;
    if ((rc = freexl_select_active_worksheet(h, idx)) != FREEXL_OK)
        fail("freexl_select_active_worksheet", rc);
    if ((rc = freexl_worksheet_dimensions(h, &nrows, &ncols)) != FREEXL_OK)
        fail("freexl_worksheet_dimensions", rc);
    double t1 = canon_now();
    uint64_t rows;
    if (strncmp(name, "scan", 4) == 0) {     /* scan, scan_wide */
        rows = scan(h, nrows, ncols, c, checksum);
        *ncols_out = ncols;
    } else if (strcmp(name, "agg") == 0) {
        rows = aggregate(h, nrows, ncols, c, checksum);
        *ncols_out = 4;
    } else {
        fprintf(stderr, "error: query %s is not one this baseline has\n", name);
        exit(3);
    }
    double t2 = canon_now();
    canon_rss_now(&t->anon_kb, &t->file_kb);
    freexl_close(h);
    double t3 = canon_now();
    t->connect = t1 - t0;
    t->execute = 0;
    t->fetch = t2 - t1;
    t->close = t3 - t2;
    return rows;
}

int main(int argc, char **argv)
{
    bench_options o = BENCH_OPTIONS_INIT;
    int i = 1;
    while (i < argc && bench_common_option(&o, argc, argv, &i))
        i++;
    if (argc - i != 3 || o.repeat < 1) {
        fprintf(stderr, "usage: freexl_loop [--no-checksum] [--repeat K] [--show N] "
                        "FILE.xls SHEET scan|scan_wide|agg\n");
        return 2;
    }
    query q = {argv[i], argv[i + 1], argv[i + 2]};
    return bench_run_cycles(&o, run_once, &q);
}
