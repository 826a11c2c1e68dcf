/*
** test_xls_units.c — the pieces of the .xls reader on inputs built by hand:
** RK numbers, date serials, number formats, the text form of numbers,
** column names and typing (common/workbook.c), the compound file (sectors
** in order, scattered, in the mini stream; loops, chains out of the file,
** truncation), SST strings split by CONTINUE records, and sheets (header
** row, cells out of order, embedded charts, chart and dialog sheets,
** formulas, the 1904 system, BIFF5 code pages, malformed records).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "common/workbook.h"
#include "reader.h"
#include "support/corpus.h"
#include "test_xls_build.h"
#include "xls/xls.h"
#include "xls/xls_internal.h"

/* ---- helpers -------------------------------------------------------------------- */

/* Pad a stream past the mini-stream cut-off (4096) with bytes nobody reads. */
static void pad_stream(xb *s)
{
    while (s->len < 4200)
        xb_u8(s, 0);
}

static int open_stream(const xb *s, int layout, const char *hdr, xb *file, lt_source **src, lt_error *err)
{
    memset(file, 0, sizeof *file);
    if (layout < 0)
        xb_put(file, s->p, s->len);
    else
        xb_cfb(file, "Workbook", s->p, s->len, layout);
    lt_option items[1] = {{"HDR", hdr}};
    lt_options opts = {1, items};
    lt_error_clear(err);
    return lt_xls_open_memory(file->p, file->len, "test.xls", &opts, src, err);
}

/* The whole table as text: "name:TYPE|..." then one line per row. */
static char *dump_table(lt_source *src, const char *name, uint32_t capacity)
{
    int64_t ti = lt_wb_find_table(src, name, strlen(name));
    if (ti < 0)
        return strdup("<no such table>");
    const lt_table *t = &src->tables[ti];
    if (t->error != NULL) {
        char *e = malloc(strlen(t->error) + 8);
        sprintf(e, "ERROR: %s", t->error);
        return e;
    }
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    out[0] = '\0';
#define PUT(...) (len += (size_t)snprintf(out + len, cap - len, __VA_ARGS__))
    lt_type types[64];
    uint32_t cols[64];
    assert_true(t->ncols <= 64);
    for (uint32_t c = 0; c < t->ncols; c++) {
        types[c] = t->cols[c].type;
        cols[c] = c;
        PUT("%s%s:%s", c ? "|" : "", t->cols[c].name, ts_type_name(t->cols[c].type));
    }
    PUT("\n");
    lt_scan_spec spec = {.table = (uint32_t)ti, .ncols = t->ncols, .cols = cols, .limit = -1};
    lt_batch *b = lt_batch_new(t->ncols, types, NULL, capacity);
    lt_scan *scan = NULL;
    lt_error err;
    if (src->reader->scan_open(src, &spec, &scan, &err) != 0) {
        PUT("SCAN ERROR: %s", err.message);
        lt_batch_free(b);
        return out;
    }
    for (;;) {
        if (src->reader->scan_next(scan, b, &err) != 0) {
            PUT("SCAN ERROR: %s", err.message);
            break;
        }
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count; r++) {
            for (uint32_t c = 0; c < t->ncols; c++) {
                lt_value v;
                lt_batch_get(b, c, r, &v);
                int y, mo, d, h, mi, s, us;
                int32_t days;
                int64_t usec;
                if (c)
                    PUT("|");
                switch (v.type) {
                case LT_NULL: PUT("NULL"); break;
                case LT_TEXT: PUT("%.*s", (int)v.u.bytes.len, v.u.bytes.ptr); break;
                case LT_INT64: PUT("%lld", (long long)v.u.i64); break;
                case LT_DOUBLE: PUT("%.17g", v.u.f64); break;
                case LT_BOOL: PUT("%s", v.u.b ? "T" : "F"); break;
                case LT_DATE:
                    lt_civil_from_days(v.u.date, &y, &mo, &d);
                    PUT("%04d-%02d-%02d", y, mo, d);
                    break;
                case LT_TIMESTAMP:
                    lt_timestamp_split(v.u.i64, &days, &usec);
                    lt_civil_from_days(days, &y, &mo, &d);
                    lt_time_split(usec, &h, &mi, &s, &us);
                    PUT("%04d-%02d-%02d %02d:%02d:%02d.%03d", y, mo, d, h, mi, s, us / 1000);
                    break;
                case LT_TIME:
                    lt_time_split(v.u.i64, &h, &mi, &s, &us);
                    PUT("%02d:%02d:%02d.%03d", h, mi, s, us / 1000);
                    break;
                default: PUT("?"); break;
                }
            }
            PUT("\n");
        }
    }
#undef PUT
    src->reader->scan_close(scan);
    lt_batch_free(b);
    return out;
}

static void expect_table(lt_source *src, const char *name, const char *want)
{
    for (uint32_t cap = 1; cap <= 2048; cap = cap == 1 ? 2 : cap == 2 ? 2048 : 4096) {
        char *got = dump_table(src, name, cap);
        if (strcmp(got, want) != 0) {
            print_error("table %s (batches of %u):\n--- got\n%s--- want\n%s", name, cap, got, want);
            free(got);
            fail();
        }
        free(got);
    }
}

/* Globals with the given XF formats (ifmt per XF), then BOUNDSHEETs. */
typedef struct book {
    xb s;
    size_t ply[8];
    int nsheets;
    int biff8;
} book;

static void book_start(book *bk, int biff8, unsigned datemode, unsigned codepage)
{
    memset(bk, 0, sizeof *bk);
    bk->biff8 = biff8;
    xb_bof(&bk->s, biff8 ? 0x0600 : 0x0500, 0x0005);
    xb_u16rec(&bk->s, 0x0042, codepage);
    xb_u16rec(&bk->s, 0x0022, datemode);
    xb_format(&bk->s, 164, "yyyy\\-mm\\-dd", biff8);
    xb_format(&bk->s, 165, "hh:mm:ss", biff8);
    xb_format(&bk->s, 166, "0.00 \"h\"", biff8);
    xb_xf(&bk->s, 0);     /* 0: General */
    xb_xf(&bk->s, 164);   /* 1: date */
    xb_xf(&bk->s, 22);    /* 2: built-in m/d/yy h:mm */
    xb_xf(&bk->s, 165);   /* 3: time */
    xb_xf(&bk->s, 166);   /* 4: a number with a quoted h */
}

static void book_sheet(book *bk, const char *name, unsigned hidden, unsigned dt)
{
    bk->ply[bk->nsheets++] = xb_boundsheet(&bk->s, name, hidden, dt, bk->biff8);
}

/* Ends the globals (after the SST, if any) and starts sheet i's substream. */
static void book_begin_sheet(book *bk, int i, unsigned dt)
{
    if (i == 0)
        xb_empty(&bk->s, 0x000A);
    xb_set32(&bk->s, bk->ply[i], (uint32_t)bk->s.len);
    xb_bof(&bk->s, bk->biff8 ? 0x0600 : 0x0500, dt);
}

/* ---- workbook.c -------------------------------------------------------------------- */

static void test_rk(void **state)
{
    (void)state;
    assert_true(xls_rk(6) == 1.0);                       /* integer 1 */
    assert_true(xls_rk(0xFFFFFFFE) == -1.0);              /* integer -1 */
    assert_true(xls_rk((12345u << 2) | 3) == 123.45);     /* integer / 100 */
    assert_true(xls_rk(0x3FF80000) == 1.5);               /* double */
    assert_true(xls_rk(0x3FF80001) == 0.015);             /* double / 100 */
    assert_true(xls_rk(0x7FFFFFFE) == 536870911.0);       /* largest integer */
    assert_true(xls_rk(0x80000002) == -536870912.0);      /* smallest */
    assert_true(xls_rk(0xC0240000) == -10.0);             /* negative double */
}

static void expect_serial(double serial, bool d1904, const char *want)
{
    int64_t ts;
    char got[64] = "NULL";
    if (lt_wb_serial_to_timestamp(serial, d1904, &ts)) {
        int32_t days;
        int64_t usec;
        int y, mo, d, h, mi, s, us;
        lt_timestamp_split(ts, &days, &usec);
        lt_civil_from_days(days, &y, &mo, &d);
        lt_time_split(usec, &h, &mi, &s, &us);
        snprintf(got, sizeof got, "%04d-%02d-%02d %02d:%02d:%02d.%03d", y, mo, d, h, mi, s, us / 1000);
    }
    if (strcmp(got, want) != 0) {
        print_error("serial %.17g (%s): got %s, want %s\n", serial, d1904 ? "1904" : "1900", got, want);
        fail();
    }
}

static void test_serials(void **state)
{
    (void)state;
    expect_serial(0, false, "1899-12-31 00:00:00.000");
    expect_serial(0.5, false, "1899-12-31 12:00:00.000");
    expect_serial(1, false, "1900-01-01 00:00:00.000");
    expect_serial(59, false, "1900-02-28 00:00:00.000");
    expect_serial(59.75, false, "1900-02-28 18:00:00.000");
    expect_serial(60, false, "NULL");                      /* the phantom 1900-02-29 */
    expect_serial(60.5, false, "NULL");
    expect_serial(61, false, "1900-03-01 00:00:00.000");
    expect_serial(36526, false, "2000-01-01 00:00:00.000");
    expect_serial(43831.99998842592, false, "2020-01-01 23:59:59.000");
    expect_serial(43831.999999999, false, "2020-01-02 00:00:00.000");   /* rounds up */
    expect_serial(2958465, false, "9999-12-31 00:00:00.000");
    expect_serial(2958466, false, "NULL");
    expect_serial(-1, false, "NULL");
    expect_serial(NAN, false, "NULL");
    expect_serial(INFINITY, false, "NULL");
    expect_serial(0, true, "1904-01-01 00:00:00.000");
    expect_serial(1462, true, "1908-01-02 00:00:00.000");
    expect_serial(60, true, "1904-03-01 00:00:00.000");
    expect_serial(0.25 + 1.0 / 86400000 * 0.4, false, "1899-12-31 06:00:00.000");
}

static void test_formats(void **state)
{
    (void)state;
    const unsigned D = LT_WB_FMT_DATE, T = LT_WB_FMT_TIME, N = LT_WB_FMT_NODAY;
    static const struct { const char *fmt; unsigned flags; } cases[] = {
        {"General", 0}, {"0.00", 0}, {"#,##0", 0}, {"@", 0}, {"0.00E+00", 0},
        {"[Red]0.00", 0}, {"0.00 \"h\"", 0}, {"#,##0 \"days\"", 0}, {"_(* #,##0_)", 0},
        {"yyyy-mm-dd", 1}, {"d/m/yyyy", 1}, {"mmm-yy", 1}, {"[$-409]mmmm d, yyyy", 1},
        {"yyyy\\-mm\\-dd", 1}, {"dd.mm.yyyy;@", 1},
        {"h:mm", 1 | 2 | 4}, {"hh:mm:ss", 1 | 2 | 4}, {"[h]:mm:ss", 1 | 2 | 4}, {"mm:ss", 1 | 2 | 4},
        {"h:mm AM/PM", 1 | 2 | 4}, {"m/d/yy h:mm", 1 | 2}, {"yyyy-mm-dd hh:mm:ss", 1 | 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned want = (cases[i].flags & 1 ? D : 0) | (cases[i].flags & 2 ? T : 0) | (cases[i].flags & 4 ? N : 0);
        unsigned got = lt_wb_format_classify(cases[i].fmt, strlen(cases[i].fmt));
        if (got != want) {
            print_error("format '%s': flags %u, want %u\n", cases[i].fmt, got, want);
            fail();
        }
    }
    assert_int_equal(lt_wb_format_builtin(0), 0);
    assert_int_equal(lt_wb_format_builtin(2), 0);
    assert_int_equal(lt_wb_format_builtin(14), D);
    assert_int_equal(lt_wb_format_builtin(18), D | T | N);
    assert_int_equal(lt_wb_format_builtin(22), D | T);
    assert_int_equal(lt_wb_format_builtin(46), D | T | N);
    assert_int_equal(lt_wb_format_builtin(49), 0);
    assert_int_equal(lt_wb_format_builtin(200), 0);
}

static void test_render_number(void **state)
{
    (void)state;
    static const struct { double v; const char *want; } cases[] = {
        {42, "42"}, {-7, "-7"}, {0, "0"}, {-0.0, "0"}, {0.1, "0.1"}, {2.5, "2.5"},
        {-1234.5678, "-1234.5678"}, {1.5e-10, "1.5e-10"}, {1e-5, "1e-05"}, {0.0001, "0.0001"},
        {1e16, "1e+16"}, {1e22, "1e+22"}, {1.2345678901234567e+300, "1.2345678901234567e+300"},
        {0.30000000000000004, "0.30000000000000004"}, {3.141592653589793, "3.141592653589793"},
        {9007199254740992.0, "9007199254740992"}, {9007199254740994.0, "9007199254740994.0"},
        {123456.789, "123456.789"}, {1e15 + 0.5, "1000000000000000.5"}, {-2.5e-300, "-2.5e-300"},
    };
    char buf[LT_WB_RENDER_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = lt_wb_render_number(cases[i].v, buf);
        if (n != strlen(cases[i].want) || strcmp(buf, cases[i].want) != 0) {
            print_error("%.17g renders '%s', want '%s'\n", cases[i].v, buf, cases[i].want);
            fail();
        }
    }
    assert_int_equal(lt_wb_render_number(NAN, buf), 0);
    assert_int_equal(lt_wb_render_number(-INFINITY, buf), 0);
    assert_int_equal(lt_wb_render_date(36526.5, 0, false, buf), 19);
    assert_string_equal(buf, "2000-01-01 12:00:00");
    assert_int_equal(lt_wb_render_date(36526, 0, false, buf), 10);
    assert_string_equal(buf, "2000-01-01");
    assert_int_equal(lt_wb_render_date(36526, LT_WB_FMT_DATE | LT_WB_FMT_TIME, false, buf), 19);
    assert_int_equal(lt_wb_render_date(0.5 + 0.25 / 86400, LT_WB_FMT_DATE, false, buf), 22);
    assert_string_equal(buf, "1899-12-31 12:00:00.25");
    assert_int_equal(lt_wb_render_date(60, LT_WB_FMT_DATE, false, buf), 0);
}

/* Significant digits of a rendered number ("-0.00120" -> 2). */
static int sig_digits(const char *s)
{
    char d[64];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9' && (n > 0 || *s != '0'))
            d[n++] = *s;
    while (n > 0 && d[n - 1] == '0')
        n--;
    return n;
}

/* Every rendering reads back exactly, with as few digits as any decimal
** that reads back, in Python's layout (fixed from 1e-4 to below 1e16). */
static void test_render_number_property(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ull;
    char buf[LT_WB_RENDER_MAX], tmp[64];
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        if (i % 3 == 0) {
            uint64_t bits = x;
            memcpy(&v, &bits, 8);
        } else {
            static const double scale[] = {1, 10, 100, 1000, 1e4, 1e6, 1e9, 1e12};
            v = (double)(int64_t)(x % 2000000000000ull - 1000000000000ull) / scale[(x >> 50) % 8];
            if (i % 3 == 2)
                v /= 1e7;
        }
        size_t n = lt_wb_render_number(v, buf);
        if (v != v || v - v != 0) {
            assert_int_equal(n, 0);
            continue;
        }
        assert_int_equal(n, strlen(buf));
        assert_true(strtod(buf, NULL) == v || (v == 0 && strcmp(buf, "0") == 0));
        int shortest = 17;
        for (int p = 1; p <= 17; p++) {
            snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
            if (strtod(tmp, NULL) == v) {
                shortest = p;
                break;
            }
        }
        double a = v < 0 ? -v : v;
        bool integral = a <= 9007199254740992.0 && a == (double)(int64_t)a;
        if (!integral && sig_digits(buf) != shortest) {
            print_error("%.17g renders '%s' (%d digits), shortest is %d\n", v, buf, sig_digits(buf), shortest);
            fail();
        }
        bool fixed = integral || (a >= 1e-4 && a < 1e16);
        assert_true((strchr(buf, 'e') == NULL) == fixed);
    }
}

static void test_column_names(void **state)
{
    (void)state;
    lt_bytes h[6] = {{"a", 1}, {"", 0}, {"A", 1}, {"F2", 2}, {NULL, 0}, {"  ", 2}};
    char *names[6];
    assert_int_equal(lt_wb_column_names(6, h, names), 0);
    const char *want[6] = {"a", "F2", "A_2", "F2_2", "F5", "F6"};
    for (int i = 0; i < 6; i++) {
        assert_string_equal(names[i], want[i]);
        free(names[i]);
    }
    assert_int_equal(lt_wb_column_names(3, NULL, names), 0);
    assert_string_equal(names[0], "F1");
    assert_string_equal(names[2], "F3");
    for (int i = 0; i < 3; i++)
        free(names[i]);
}

static lt_type type_of(const lt_wb_cell *cells, size_t n, uint32_t *size)
{
    lt_wb_stats st = {0};
    for (size_t i = 0; i < n; i++)
        lt_wb_stats_add(&st, &cells[i], false);
    for (size_t i = 0; i < n && lt_wb_stats_needs_size(&st); i++)
        lt_wb_stats_size(&st, &cells[i]);
    lt_column col;
    memset(&col, 0, sizeof col);
    lt_wb_describe_column(&st, &col);
    *size = col.size;
    return col.type;
}

static void test_typing(void **state)
{
    (void)state;
    const uint8_t D = LT_WB_FMT_DATE, T = LT_WB_FMT_TIME, N = LT_WB_FMT_NODAY;
    lt_wb_cell i1 = {.kind = LT_WB_NUMBER, .num = 1}, i2 = {.kind = LT_WB_NUMBER, .num = -123456};
    lt_wb_cell f1 = {.kind = LT_WB_NUMBER, .num = 0.1}, big = {.kind = LT_WB_NUMBER, .num = 1e300};
    lt_wb_cell d1 = {.kind = LT_WB_NUMBER, .num = 36526, .fmt = D};
    lt_wb_cell dt = {.kind = LT_WB_NUMBER, .num = 36526.5, .fmt = D};
    lt_wb_cell dm = {.kind = LT_WB_NUMBER, .num = 36526, .fmt = D | T};
    lt_wb_cell t1 = {.kind = LT_WB_NUMBER, .num = 0.25, .fmt = D | T | N};
    lt_wb_cell b1 = {.kind = LT_WB_BOOL, .b = true}, e1 = {.kind = LT_WB_ERROR};
    lt_wb_cell s1 = {.kind = LT_WB_TEXT, .text = "abc", .len = 3, .units = 3};
    uint32_t size;
    assert_int_equal(type_of((lt_wb_cell[]){i1, i2, e1}, 3, &size), LT_INT64);
    assert_int_equal(type_of((lt_wb_cell[]){i1, f1}, 2, &size), LT_DOUBLE);
    assert_int_equal(type_of((lt_wb_cell[]){i1, big}, 2, &size), LT_DOUBLE);
    assert_int_equal(type_of((lt_wb_cell[]){d1, d1}, 2, &size), LT_DATE);
    assert_int_equal(type_of((lt_wb_cell[]){d1, dt}, 2, &size), LT_TIMESTAMP);
    assert_int_equal(type_of((lt_wb_cell[]){d1, dm}, 2, &size), LT_TIMESTAMP);
    assert_int_equal(type_of((lt_wb_cell[]){t1, t1}, 2, &size), LT_TIME);
    assert_int_equal(type_of((lt_wb_cell[]){t1, d1}, 2, &size), LT_TIMESTAMP);
    assert_int_equal(type_of((lt_wb_cell[]){b1, e1}, 2, &size), LT_BOOL);
    assert_int_equal(type_of((lt_wb_cell[]){e1}, 1, &size), LT_TEXT);
    assert_int_equal(size, 255);
    assert_int_equal(type_of((lt_wb_cell[]){s1, i2}, 2, &size), LT_TEXT);
    assert_int_equal(size, 7);                              /* "-123456" */
    assert_int_equal(type_of((lt_wb_cell[]){s1, f1, b1}, 3, &size), LT_TEXT);
    assert_int_equal(size, 4);                              /* "TRUE" */
    assert_int_equal(type_of((lt_wb_cell[]){s1, big, dt}, 3, &size), LT_TEXT);
    assert_int_equal(size, 19);                             /* "2000-01-01 12:00:00" */
    assert_int_equal(type_of((lt_wb_cell[]){i1, d1}, 2, &size), LT_TEXT);
    assert_int_equal(type_of((lt_wb_cell[]){i1, b1}, 2, &size), LT_TEXT);
}

/* ---- the compound file ---------------------------------------------------------------- */

/* A one-sheet workbook: A1 "x" (LABEL), B1 1, A2 2.5, B2 TRUE. */
static void small_book(xb *s, int pad)
{
    book bk;
    book_start(&bk, 1, 0, 1200);
    book_sheet(&bk, "Data", 0, 0);
    book_begin_sheet(&bk, 0, 0x0010);
    xb_label(&bk.s, 0, 0, "x", 1);
    xb_rk(&bk.s, 0, 1, 0, 6);
    xb_number(&bk.s, 1, 0, 0, 2.5);
    xb_boolerr(&bk.s, 1, 1, 1, 0);
    xb_empty(&bk.s, 0x000A);
    if (pad)
        pad_stream(&bk.s);
    *s = bk.s;
}

static const char small_want[] = "F1:TEXT|F2:TEXT\nx|1\n2.5|TRUE\n";

static void test_cfb_layouts(void **state)
{
    (void)state;
    xb s, f;
    lt_source *src;
    lt_error err;
    small_book(&s, 1);
    for (int layout = -1; layout <= XB_SCATTERED; layout++) {
        assert_int_equal(open_stream(&s, layout, "No", &f, &src, &err), 0);
        assert_int_equal(src->ntables, 1);
        assert_string_equal(src->tables[0].name, "Data$");
        expect_table(src, "Data", small_want);
        src->reader->close(src);
        xb_free(&f);
    }
    xb_free(&s);
    small_book(&s, 0);                 /* under 4096 bytes: the mini stream */
    assert_true(s.len < 4096);
    assert_int_equal(open_stream(&s, XB_MINI, "No", &f, &src, &err), 0);
    expect_table(src, "Data$", small_want);
    src->reader->close(src);
    xb_free(&f);
    xb_free(&s);
}

/* Open a damaged file; the error must say `what`. */
static void expect_open_error(const xb *f, const char *what)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    int rc = lt_xls_open_memory(f->p, f->len, "broken.xls", NULL, &src, &err);
    if (rc == 0) {
        src->reader->close(src);
        print_error("opened a file that should fail with '%s'\n", what);
        fail();
    }
    if (strstr(err.message, what) == NULL || strstr(err.message, "broken.xls") == NULL) {
        print_error("error '%s' does not say '%s'\n", err.message, what);
        fail();
    }
}

static void set_fat(xb *f, uint32_t sector, uint32_t next)
{
    xb_set32(f, 512 + 4 * (size_t)sector, next);
}

static void test_cfb_malformed(void **state)
{
    (void)state;
    xb s, f;
    small_book(&s, 1);
    lt_source *src;
    lt_error err;
    /* A chain that loops back on itself. */
    assert_int_equal(open_stream(&s, XB_CONTIGUOUS, "No", &f, &src, &err), 0);
    src->reader->close(src);
    set_fat(&f, 4, 3);
    expect_open_error(&f, "loops");
    set_fat(&f, 4, 4);
    expect_open_error(&f, "loops");
    /* A chain that leaves the file, and one that ends early. */
    set_fat(&f, 4, 5000);
    expect_open_error(&f, "leaves the file");
    set_fat(&f, 4, 0xFFFFFFFE);
    expect_open_error(&f, "ends early");
    xb_free(&f);
    /* Truncated: the last sectors are gone. */
    assert_int_equal(open_stream(&s, XB_CONTIGUOUS, "No", &f, &src, &err), 0);
    src->reader->close(src);
    f.len -= 1500;
    expect_open_error(&f, "broken.xls");
    f.len = 600;
    expect_open_error(&f, "broken.xls");
    f.len = 100;
    expect_open_error(&f, "too short");
    xb_free(&f);
    /* The directory's start sector outside the file; too many FAT sectors. */
    assert_int_equal(open_stream(&s, XB_CONTIGUOUS, "No", &f, &src, &err), 0);
    src->reader->close(src);
    xb_set32(&f, 0x30, 7777);
    expect_open_error(&f, "directory");
    xb_set32(&f, 0x30, 1);
    xb_set32(&f, 0x2C, 100000);
    expect_open_error(&f, "FAT sectors");
    xb_set32(&f, 0x2C, 1);
    f.p[0x1E] = 7;                                  /* sector shift */
    expect_open_error(&f, "sector sizes");
    f.p[0x1E] = 9;
    f.p[1024 + 128 + 0x40] = 0;                      /* the stream loses its name */
    expect_open_error(&f, "without a Workbook");
    xb_free(&f);
    xb_free(&s);
    /* Mini stream: a mini FAT loop. */
    small_book(&s, 0);
    assert_int_equal(open_stream(&s, XB_MINI, "No", &f, &src, &err), 0);
    src->reader->close(src);
    xb_set32(&f, 1536 + 4, 0);                      /* mini sector 1 -> 0 */
    expect_open_error(&f, "loops");
    xb_free(&f);
    xb_free(&s);
}

/*
** A compound file with 110 FAT sectors, so the 110th is found through a
** DIFAT sector: sectors 0-109 FAT, 110 DIFAT, 111 directory, 112- the stream.
*/
static void difat_file(xb *f, const xb *s)
{
    size_t nsec = (s->len + 511) / 512;
    memset(f, 0, sizeof *f);
    xb_cfb_header_start(f);
    xb_u32(f, 0);
    xb_u32(f, 110);          /* FAT sectors */
    xb_u32(f, 111);          /* directory */
    xb_u32(f, 0);
    xb_u32(f, 4096);
    xb_u32(f, 0xFFFFFFFE);
    xb_u32(f, 0);
    xb_u32(f, 110);          /* first DIFAT sector */
    xb_u32(f, 1);
    for (uint32_t i = 0; i < 109; i++)
        xb_u32(f, i);
    for (uint32_t sec = 0; sec < 110 * 128; sec++) {      /* the FAT */
        uint32_t v = 0xFFFFFFFF;
        if (sec < 110)
            v = 0xFFFFFFFD;
        else if (sec == 110)
            v = 0xFFFFFFFC;
        else if (sec == 111)
            v = 0xFFFFFFFE;
        else if (sec < 112 + nsec)
            v = sec + 1 < 112 + nsec ? sec + 1 : 0xFFFFFFFE;
        xb_u32(f, v);
    }
    xb_u32(f, 109);                                      /* the DIFAT sector */
    for (int i = 1; i < 127; i++)
        xb_u32(f, 0xFFFFFFFF);
    xb_u32(f, 0xFFFFFFFE);
    xb_dir_entry(f, "Root Entry", 5, 1, 0xFFFFFFFE, 0);  /* the directory */
    xb_dir_entry(f, "Workbook", 2, 0xFFFFFFFF, 112, (uint32_t)s->len);
    xb_dir_entry(f, "", 0, 0xFFFFFFFF, 0, 0);
    xb_dir_entry(f, "", 0, 0xFFFFFFFF, 0, 0);
    xb_put(f, s->p, s->len);
    while (f->len % 512)
        xb_u8(f, 0);
}

static void test_cfb_difat(void **state)
{
    (void)state;
    xb s, f;
    small_book(&s, 1);
    difat_file(&f, &s);
    lt_source *src;
    lt_error err;
    assert_int_equal(lt_xls_open_memory(f.p, f.len, "difat.xls", NULL, &src, &err), 0);
    src->reader->close(src);
    lt_option items[1] = {{"HDR", "No"}};
    lt_options opts = {1, items};
    assert_int_equal(lt_xls_open_memory(f.p, f.len, "difat.xls", &opts, &src, &err), 0);
    expect_table(src, "Data", small_want);
    src->reader->close(src);
    /* The DIFAT sector names a FAT sector that is no sector (and points at
    ** itself as the next DIFAT sector). */
    size_t difat = 512 + 110 * 512;
    xb_set32(&f, difat + 127 * 4, 110);
    xb_set32(&f, difat, 0xFFFFFFF0);
    expect_open_error(&f, "FAT sector #109");
    /* The header counts no DIFAT sector, yet 110 FAT sectors. */
    xb_set32(&f, difat, 109);
    xb_set32(&f, difat + 127 * 4, 0xFFFFFFFE);
    xb_set32(&f, 0x48, 0);
    expect_open_error(&f, "DIFAT ends after 109 of 110");
    xb_free(&f);
    xb_free(&s);
}

/* ---- SST and CONTINUE -------------------------------------------------------------------- */

static void test_sst_continue(void **state)
{
    (void)state;
    book bk;
    book_start(&bk, 1, 0, 1200);
    book_sheet(&bk, "S", 0, 0);
    /* SST: 5 strings, split over the SST record and two CONTINUEs. */
    xb a = {0}, c1 = {0}, c2 = {0};
    xb_u32(&a, 5);
    xb_u32(&a, 5);
    xb_u16(&a, 5); xb_u8(&a, 0); xb_put(&a, "alpha", 5);            /* 0: alpha */
    xb_u16(&a, 10); xb_u8(&a, 0); xb_put(&a, "abcd", 4);            /* 1: 4 of 10 chars here */
    xb_u8(&c1, 1);                                                  /* ... the rest is 16-bit */
    const uint16_t rest[6] = {'e', 'f', 0x03A9, 'h', 'i', 'j'};
    for (int i = 0; i < 6; i++)
        xb_u16(&c1, rest[i]);
    xb_u16(&c1, 3); xb_u8(&c1, 0x08); xb_u16(&c1, 2); xb_put(&c1, "xyz", 3);   /* 2: rich, 2 runs */
    xb_u32(&c1, 0x00010000);                                        /* run 1 here ... */
    xb_u32(&c2, 0x00020002);                                        /* run 2 after the boundary */
    xb_u16(&c2, 2); xb_u8(&c2, 0x05); xb_u32(&c2, 6);               /* 3: 16-bit, phonetic data */
    xb_u16(&c2, 0x00E9); xb_u16(&c2, 0x20AC);
    xb_put(&c2, "\1\2\3\4\5\6", 6);
    xb_u16(&c2, 0); xb_u8(&c2, 0);                                  /* 4: empty */
    xb_rec(&bk.s, 0x00FC, &a);
    xb_rec(&bk.s, 0x003C, &c1);
    xb_rec(&bk.s, 0x003C, &c2);
    xb_free(&a);
    xb_free(&c1);
    xb_free(&c2);
    book_begin_sheet(&bk, 0, 0x0010);
    for (unsigned i = 0; i < 5; i++)
        xb_labelsst(&bk.s, i, 0, i);
    xb_empty(&bk.s, 0x000A);
    xb f;
    lt_source *src;
    lt_error err;
    assert_int_equal(open_stream(&bk.s, -1, "No", &f, &src, &err), 0);
    expect_table(src, "S", "F1:TEXT\nalpha\nabcdef\xCE\xA9hij\nxyz\n\xC3\xA9\xE2\x82\xAC\n\n");
    src->reader->close(src);
    xb_free(&f);
    /* A LABELSST past the table fails the sheet, not the workbook. */
    bk.s.len -= 4;                                   /* drop the EOF */
    xb_labelsst(&bk.s, 5, 0, 5);
    xb_empty(&bk.s, 0x000A);
    assert_int_equal(open_stream(&bk.s, -1, "No", &f, &src, &err), 0);
    char *got = dump_table(src, "S", 10);
    assert_non_null(strstr(got, "shared string 5 of 5"));
    free(got);
    src->reader->close(src);
    xb_free(&f);
    xb_free(&bk.s);
}

/* ---- sheets ---------------------------------------------------------------------------------- */

static void test_sheets(void **state)
{
    (void)state;
    book bk;
    book_start(&bk, 1, 0, 1200);
    book_sheet(&bk, "Main", 0, 0);
    book_sheet(&bk, "Chart1", 0, 2);     /* a chart sheet: no table */
    book_sheet(&bk, "Hidden", 1, 0);
    book_sheet(&bk, "Dialog", 0, 0);     /* a dialog sheet: no table */
    book_sheet(&bk, "Late", 2, 0);       /* very hidden, cells out of order */
    book_begin_sheet(&bk, 0, 0x0010);
    /* Main: header row 1 (B1:E1), data from row 2; the used range starts at B. */
    xb_u16rec(&bk.s, 0x0081, 0x04C1);                   /* WSBOOL, not a dialog */
    xb_label(&bk.s, 1, 1, "when", 1);
    xb_label(&bk.s, 1, 2, "n", 1);
    xb_label(&bk.s, 1, 3, "n", 1);
    xb_label(&bk.s, 1, 4, "", 1);
    xb_label(&bk.s, 1, 5, "flag", 1);
    xb_number(&bk.s, 2, 1, 1, 36526);
    xb_rk(&bk.s, 2, 2, 0, (7u << 2) | 2);
    xb_number(&bk.s, 2, 3, 4, 1.25);
    xb_formula(&bk.s, 2, 4, 0, 's', 0, 0);
    xb_empty(&bk.s, 0x04BC);                            /* SHRFMLA before the STRING */
    xb_string8(&bk.s, "from formula");
    xb_formula(&bk.s, 2, 5, 0, 'b', 0, 1);
    /* An embedded chart: its cells are not the sheet's. */
    xb_bof(&bk.s, 0x0600, 0x0020);
    xb_number(&bk.s, 100, 9, 0, 99);
    xb_empty(&bk.s, 0x000A);
    xb_number(&bk.s, 3, 1, 1, 36527);
    xb d = {0};                                         /* MULRK C4:D4 */
    xb_u16(&d, 3); xb_u16(&d, 2);
    xb_u16(&d, 0); xb_u32(&d, (8u << 2) | 2);
    xb_u16(&d, 0); xb_u32(&d, 0x3FF80000);
    xb_u16(&d, 3);
    xb_rec(&bk.s, 0x00BD, &d);
    xb_free(&d);
    xb_formula(&bk.s, 3, 4, 0, 'E', 0, 0);
    xb_formula(&bk.s, 3, 5, 0, 'e', 0, 7);
    xb_formula(&bk.s, 4, 5, 0, 'b', 0, 0);
    d = (xb){0};                                        /* MULBLANK far right: not used */
    xb_u16(&d, 4); xb_u16(&d, 10); xb_u16(&d, 0); xb_u16(&d, 0); xb_u16(&d, 11);
    xb_rec(&bk.s, 0x00BE, &d);
    xb_free(&d);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 1, 0x0020);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 2, 0x0010);
    xb_number(&bk.s, 0, 0, 3, 0.75);
    xb_number(&bk.s, 1, 0, 3, 0.5);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 3, 0x0010);
    xb_u16rec(&bk.s, 0x0081, 0x0010);                   /* WSBOOL fDialog */
    xb_number(&bk.s, 0, 0, 0, 1);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 4, 0x0010);
    xb_label(&bk.s, 3, 0, "c", 1);
    xb_label(&bk.s, 1, 0, "a", 1);
    xb_number(&bk.s, 0, 1, 0, 10);
    xb_label(&bk.s, 0, 0, "head", 1);
    xb_number(&bk.s, 2, 1, 2, 36526.25);
    xb_empty(&bk.s, 0x000A);
    pad_stream(&bk.s);

    xb f;
    lt_source *src;
    lt_error err;
    assert_int_equal(open_stream(&bk.s, XB_SCATTERED, "Yes", &f, &src, &err), 0);
    assert_int_equal(src->ntables, 3);
    assert_string_equal(src->tables[0].name, "Main$");
    assert_string_equal(src->tables[1].name, "Hidden$");
    assert_string_equal(src->tables[2].name, "Late$");
    assert_int_equal(lt_wb_find_table(src, "main", 4), 0);
    assert_int_equal(lt_wb_find_table(src, "LATE$", 5), 2);
    assert_int_equal(lt_wb_find_table(src, "Chart1", 6), -1);
    expect_table(src, "Main$",
                 "when:DATE|n:INT64|n_2:DOUBLE|F4:TEXT|flag:BOOL\n"
                 "2000-01-01|7|1.25|from formula|T\n"
                 "2000-01-02|8|1.5||NULL\n"
                 "NULL|NULL|NULL|NULL|F\n");
    assert_int_equal(src->tables[0].row_estimate, 3);
    assert_int_equal(src->reader->count_rows(src, 0, &err), 3);
    assert_int_equal(src->tables[0].cols[3].size, 12);  /* "from formula" */
    expect_table(src, "Hidden", "1899-12-31 18:00:00:TIME\n12:00:00.000\n");
    expect_table(src, "Late", "head:TEXT|10:TIMESTAMP\na|NULL\nNULL|2000-01-01 06:00:00.000\nc|NULL\n");
    src->reader->close(src);
    xb_free(&f);

    assert_int_equal(open_stream(&bk.s, XB_CONTIGUOUS, "No", &f, &src, &err), 0);
    expect_table(src, "Main",
                 "F1:TEXT|F2:TEXT|F3:TEXT|F4:TEXT|F5:TEXT\n"
                 "when|n|n||flag\n"
                 "2000-01-01|7|1.25|from formula|TRUE\n"
                 "2000-01-02|8|1.5||NULL\n"
                 "NULL|NULL|NULL|NULL|FALSE\n");
    expect_table(src, "Hidden", "F1:TIME\n18:00:00.000\n12:00:00.000\n");
    expect_table(src, "Late", "F1:TEXT|F2:TEXT\nhead|10\na|NULL\nNULL|2000-01-01 06:00:00\nc|NULL\n");
    /* Columns in any order, one of them twice. */
    uint32_t cols[3] = {4, 0, 4};
    lt_type types[3] = {LT_TEXT, LT_TEXT, LT_TEXT};
    lt_scan_spec spec = {.table = 0, .ncols = 3, .cols = cols, .limit = -1};
    lt_batch *b = lt_batch_new(3, types, NULL, 16);
    lt_scan *scan;
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
    assert_int_equal(src->reader->scan_next(scan, b, &err), 0);
    assert_int_equal(b->count, 4);
    lt_value v;
    lt_batch_get(b, 2, 1, &v);
    assert_int_equal(v.type, LT_TEXT);
    assert_memory_equal(v.u.bytes.ptr, "TRUE", 4);
    lt_batch_get(b, 1, 1, &v);
    assert_memory_equal(v.u.bytes.ptr, "2000-01-01", 10);
    assert_int_equal(src->reader->scan_next(scan, b, &err), 0);
    assert_int_equal(b->count, 0);
    src->reader->scan_close(scan);
    lt_batch_free(b);
    src->reader->close(src);
    xb_free(&f);
    xb_free(&bk.s);
}

static void test_biff5_and_1904(void **state)
{
    (void)state;
    book bk;
    book_start(&bk, 0, 1, 1251);
    book_sheet(&bk, "\xcb\xe8\xf1\xf2", 0, 0);         /* "Лист" in cp1251 */
    book_begin_sheet(&bk, 0, 0x0010);
    xb_label(&bk.s, 0, 0, "\xcf\xf0\xe8\xe2\xe5\xf2", 0);   /* "Привет" */
    xb_number(&bk.s, 1, 0, 1, 0);
    xb_formula(&bk.s, 2, 0, 0, 's', 0, 0);
    xb d = {0};                                         /* BIFF5 STRING */
    xb_u16(&d, 2);
    xb_put(&d, "\xe4\xe0", 2);
    xb_rec(&bk.s, 0x0207, &d);
    xb_free(&d);
    xb_empty(&bk.s, 0x000A);
    xb f;
    lt_source *src;
    lt_error err;
    assert_int_equal(open_stream(&bk.s, -1, "No", &f, &src, &err), 0);
    assert_string_equal(src->tables[0].name, "\xd0\x9b\xd0\xb8\xd1\x81\xd1\x82$");
    expect_table(src, "\xd0\x9b\xd0\xb8\xd1\x81\xd1\x82",
                 "F1:TEXT\n\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82\n1904-01-01\n\xd0\xb4\xd0\xb0\n");
    src->reader->close(src);
    xb_free(&f);
    xb_free(&bk.s);
}

static void test_malformed_records(void **state)
{
    (void)state;
    xb f;
    lt_source *src;
    lt_error err;
    /* Not a workbook: a worksheet BOF first, BIFF4, garbage. */
    xb s = {0};
    xb_bof(&s, 0x0600, 0x0010);
    xb_empty(&s, 0x000A);
    assert_int_equal(open_stream(&s, -1, "No", &f, &src, &err), -1);
    assert_non_null(strstr(err.message, "not the workbook globals"));
    xb_free(&f);
    xb_free(&s);
    xb_u16(&s, 0x0409);
    xb_u16(&s, 6);
    xb_put(&s, "\0\0\x10\0\0\0", 6);
    assert_int_equal(open_stream(&s, -1, "No", &f, &src, &err), -1);
    assert_non_null(strstr(err.message, "BIFF4"));
    xb_free(&f);
    xb_free(&s);
    /* Globals without EOF; a sheet whose BOF offset points nowhere. */
    book bk;
    book_start(&bk, 1, 0, 1200);
    assert_int_equal(open_stream(&bk.s, -1, "No", &f, &src, &err), -1);
    assert_non_null(strstr(err.message, "without an EOF"));
    xb_free(&f);
    book_sheet(&bk, "Far", 0, 0);
    book_sheet(&bk, "Short", 0, 0);
    book_sheet(&bk, "Cut", 0, 0);
    book_begin_sheet(&bk, 0, 0x0010);
    xb_set32(&bk.s, bk.ply[0], 0x7FFFFFF0);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 1, 0x0010);
    xb d = {0};
    xb_u16(&d, 0); xb_u16(&d, 0); xb_u16(&d, 0); xb_u16(&d, 0);    /* MULRK without a cell */
    xb_rec(&bk.s, 0x00BD, &d);
    xb_free(&d);
    xb_empty(&bk.s, 0x000A);
    book_begin_sheet(&bk, 2, 0x0010);
    xb_number(&bk.s, 0, 0, 0, 1);
    bk.s.len -= 3;                                        /* the NUMBER record is cut */
    assert_int_equal(open_stream(&bk.s, -1, "No", &f, &src, &err), 0);
    assert_int_equal(src->ntables, 3);
    char *got = dump_table(src, "Far", 4);
    assert_non_null(strstr(got, "no BOF record"));
    free(got);
    got = dump_table(src, "Short", 4);
    assert_non_null(strstr(got, "malformed record 0x00BD"));
    free(got);
    got = dump_table(src, "Cut", 4);
    assert_non_null(strstr(got, "runs past the end"));
    free(got);
    assert_int_equal(src->reader->count_rows(src, 2, &err), -1);
    src->reader->close(src);
    xb_free(&f);
    xb_free(&bk.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rk),
        cmocka_unit_test(test_serials),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_render_number),
        cmocka_unit_test(test_render_number_property),
        cmocka_unit_test(test_column_names),
        cmocka_unit_test(test_typing),
        cmocka_unit_test(test_cfb_layouts),
        cmocka_unit_test(test_cfb_malformed),
        cmocka_unit_test(test_cfb_difat),
        cmocka_unit_test(test_sst_continue),
        cmocka_unit_test(test_sheets),
        cmocka_unit_test(test_biff5_and_1904),
        cmocka_unit_test(test_malformed_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
