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
#include "../client/canon.h"

#include <freexl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct timing {
    double connect, execute, fetch, close;
    long anon_kb, file_kb;   /* resident memory when the last row is read */
} timing;

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

static uint64_t run_once(const char *file, const char *sheet, const char *query,
                         int checksum, canon *c, timing *t, int *ncols_out)
{
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
    if (strncmp(query, "scan", 4) == 0) {     /* scan, scan_wide */
        rows = scan(h, nrows, ncols, c, checksum);
        *ncols_out = ncols;
    } else if (strcmp(query, "agg") == 0) {
        rows = aggregate(h, nrows, ncols, c, checksum);
        *ncols_out = 4;
    } else {
        fprintf(stderr, "error: query %s is not one this baseline has\n", query);
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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int checksum = 1, repeat = 1, i = 1;
    long show = 0;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--no-checksum") == 0)
            checksum = 0;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc)
            show = atol(argv[++i]);
        else
            break;
    }
    if (argc - i != 3 || repeat < 1) {
        fprintf(stderr, "usage: freexl_loop [--no-checksum] [--repeat K] [--show N] "
                        "FILE.xls SHEET scan|scan_wide|agg\n");
        return 2;
    }
    double *cycle = malloc(sizeof(double) * (size_t)repeat);
    if (cycle == NULL)
        return 2;
    canon c;
    timing t = {0}, first = {0};
    uint64_t rows = 0;
    int ncols = 0;
    for (int k = 0; k < repeat; k++) {
        canon_init(&c, k == 0 ? show : 0);
        rows = run_once(argv[i], argv[i + 1], argv[i + 2], checksum, &c, &t, &ncols);
        cycle[k] = t.connect + t.execute + t.fetch;
        if (k == 0)
            first = t;
    }
    double median = cycle[0], best = cycle[0];
    if (repeat > 1) {
        qsort(cycle + 1, (size_t)repeat - 1, sizeof(double), by_value);
        median = cycle[1 + (repeat - 1) / 2];
        best = cycle[1];
    }
    char sum[24] = "off";
    if (checksum)
        snprintf(sum, sizeof sum, "%016llx", (unsigned long long)c.hash);
    printf("rows=%llu columns=%d values=%llu checksum=%s seconds=%.6f connect=%.6f "
           "execute=%.6f fetch=%.6f close=%.6f cycles=%d warm_median=%.6f "
           "warm_min=%.6f maxrss_kb=%ld anon_kb=%ld file_kb=%ld\n",
           (unsigned long long)rows, ncols, (unsigned long long)c.values, sum,
           first.connect + first.execute + first.fetch, first.connect, first.execute,
           first.fetch, first.close, repeat, median, best, canon_max_rss_kb(),
           first.anon_kb, first.file_kb);
    free(cycle);
    return 0;
}
