/*
** shapelib_loop.c — the floor for dBASE: a plain C loop over shapelib's DBF
** API (libshp), the reader a C programmer on Linux would pick.
**
** Two queries, written by hand since shapelib has no SQL:
**   scan  every column of every live record (SELECT * FROM t; also scan_wide);
**   agg   COUNT(*), SUM(qty), MIN(price), MAX(name) WHERE qty > 500.
** It is the fastest correct loop, not a defensive one: numbers are read with
** DBFRead{Integer,Double}Attribute and no DBFIsAttributeNULL check (which
** would parse each value twice), so a blank number would read as 0; the
** fixtures have no NULLs.  Text comes back in code page 1252 and is turned
** into UTF-8 here, because that is what an ODBC client receives.  Output is
** the client's key=value line (bench/client/client.c).
**
** usage: shapelib_loop [--no-checksum] [--repeat K] [--show N] FILE.dbf scan|agg
*/
#define _POSIX_C_SOURCE 200809L
#include "../client/cycles.h"

#include <shapefil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct query {
    const char *file, *name;   /* name: scan, scan_wide or agg */
} query;

static volatile uint64_t sink;   /* keeps the unchecked reads from vanishing */

/* Code page 1252's 0x80..0x9F; 0xA0..0xFF are Latin-1. 0 = undefined. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030,
    0x0160, 0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D,
    0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
    0x0178};

/* cp1252 → UTF-8, NUL-terminated; out holds 3 bytes per input byte and the
** terminator.  Returns the length. */
static size_t to_utf8(const char *s, char *out)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned cp = *p;
        if (cp < 0x80) {
            out[o++] = (char)cp;
            continue;
        }
        if (cp < 0xA0)
            cp = cp1252_high[cp - 0x80] ? cp1252_high[cp - 0x80] : 0xFFFD;
        if (cp < 0x800) {
            out[o++] = (char)(0xC0 | (cp >> 6));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[o++] = (char)(0xE0 | (cp >> 12));
            out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    out[o] = '\0';
    return o;
}

static int field_index(DBFHandle h, const char *name)
{
    int k = DBFGetFieldIndex(h, name);
    if (k < 0) {
        fprintf(stderr, "error: no field %s\n", name);
        exit(3);
    }
    return k;
}

static uint64_t scan(DBFHandle h, canon *c, int checksum, int *ncols)
{
    int nf = DBFGetFieldCount(h), nrec = DBFGetRecordCount(h);
    DBFFieldType type[256];
    char native[256];
    char utf8[256 * 3 + 1];
    if (nf > 256) {
        fprintf(stderr, "error: more than 256 fields\n");
        exit(2);
    }
    for (int k = 0; k < nf; k++) {
        type[k] = DBFGetFieldInfo(h, k, NULL, NULL, NULL);
        native[k] = DBFGetNativeFieldType(h, k);
    }
    uint64_t rows = 0;
    for (int r = 0; r < nrec; r++) {
        if (DBFIsRecordDeleted(h, r))
            continue;
        for (int k = 0; k < nf; k++) {
            if (type[k] == FTInteger) {
                int v = DBFReadIntegerAttribute(h, r, k);
                if (checksum) canon_int(c, v); else sink += (uint64_t)v;
            } else if (type[k] == FTDouble) {
                double v = DBFReadDoubleAttribute(h, r, k);
                if (checksum) canon_double(c, v); else sink += (uint64_t)v;
            } else if (type[k] == FTLogical) {
                const char *v = DBFReadLogicalAttribute(h, r, k);
                int b = v && strchr("TtYy", v[0]) && v[0];
                if (checksum) canon_int(c, b); else sink += (uint64_t)b;
            } else if (native[k] == 'D') {
                const char *v = DBFReadStringAttribute(h, r, k);
                int y = 0, m = 0, d = 0;
                if (v && sscanf(v, "%4d%2d%2d", &y, &m, &d) == 3) {
                    if (checksum) canon_date(c, y, m, d); else sink += (uint64_t)d;
                } else if (checksum) {
                    canon_null(c);
                }
            } else {
                const char *v = DBFReadStringAttribute(h, r, k);
                size_t n = to_utf8(v ? v : "", utf8);
                if (checksum) canon_text(c, utf8, n); else sink += n;
            }
        }
        if (checksum)
            canon_end_row(c);
        rows++;
    }
    *ncols = nf;
    return rows;
}

static uint64_t aggregate(DBFHandle h, canon *c, int checksum, int *ncols)
{
    int qty = field_index(h, "QTY"), price = field_index(h, "PRICE"),
        name = field_index(h, "NAME");
    int nrec = DBFGetRecordCount(h);
    int64_t count = 0, sum = 0;
    double min = 0;
    char max[256 * 3 + 1] = "", utf8[256 * 3 + 1];
    for (int r = 0; r < nrec; r++) {
        if (DBFIsRecordDeleted(h, r))
            continue;
        int q = DBFReadIntegerAttribute(h, r, qty);
        if (q <= 500)
            continue;
        double p = DBFReadDoubleAttribute(h, r, price);
        to_utf8(DBFReadStringAttribute(h, r, name), utf8);
        if (count == 0 || p < min)
            min = p;
        if (count == 0 || strcmp(utf8, max) > 0)
            strcpy(max, utf8);
        count++;
        sum += q;
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
    *ncols = 4;
    return 1;
}

static uint64_t run_once(void *ctx, const bench_options *o, canon *c, bench_cycle *t,
                         int *ncols)
{
    const query *q = ctx;
    const char *file = q->file, *name = q->name;
    int checksum = o->checksum;
    double t0 = canon_now();
    DBFHandle h = DBFOpen(file, "rb");
    if (h == NULL) {
        fprintf(stderr, "error: DBFOpen failed: %s\n", file);
        exit(2);
    }
    double t1 = canon_now();
    uint64_t rows;
    if (strncmp(name, "scan", 4) == 0) {     /* scan, scan_wide */
        rows = scan(h, c, checksum, ncols);
    } else if (strcmp(name, "agg") == 0) {
        rows = aggregate(h, c, checksum, ncols);
    } else {
        fprintf(stderr, "error: query %s is not one this baseline has\n", name);
        exit(3);
    }
    double t2 = canon_now();
    canon_rss_now(&t->anon_kb, &t->file_kb);
    DBFClose(h);
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
    if (argc - i != 2 || o.repeat < 1) {
        fprintf(stderr, "usage: shapelib_loop [--no-checksum] [--repeat K] [--show N] "
                        "FILE.dbf scan|scan_wide|agg\n");
        return 2;
    }
    query q = {argv[i], argv[i + 1]};
    return bench_run_cycles(&o, run_once, &q);
}
