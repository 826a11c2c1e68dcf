/*
** test_sqlite_format.c — the SQLite reader's building blocks one at a time:
** varints, serial types, the record header walk, local payload sizes,
** affinity rules, DEFAULT constants, REAL rendering, UTF-16, the delivery of
** dynamically typed values into typed vectors, and damaged files (truncated
** and bit-flipped corpus databases must give clean errors, never crashes).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "sqlite/sqlite.h"
#include "sqlite/sqlite_internal.h"

#define SQLITE_DIR LT_CORPUS_DIR "/sqlite"

/* ---- varints ----------------------------------------------------------------- */

static void test_varint(void **state)
{
    (void)state;
    uint64_t v;
    const uint8_t one[] = {0x7f};
    assert_int_equal(sqlite_varint(one, one + 1, &v), 1);
    assert_int_equal(v, 127);
    const uint8_t two[] = {0x81, 0x00};
    assert_int_equal(sqlite_varint(two, two + 2, &v), 2);
    assert_int_equal(v, 128);
    const uint8_t three[] = {0x82, 0x80, 0x01};
    assert_int_equal(sqlite_varint(three, three + 3, &v), 3);
    assert_int_equal(v, (2u << 14) | 1);
    /* nine bytes: the last contributes all eight bits */
    const uint8_t nine[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(sqlite_varint(nine, nine + 9, &v), 9);
    assert_true(v == UINT64_MAX);
    const uint8_t neg1[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    assert_int_equal(sqlite_varint(neg1, neg1 + 9, &v), 9);
    assert_true(v == UINT64_MAX - 128);
    /* running past the end is an error, never a read beyond */
    assert_int_equal(sqlite_varint(two, two + 1, &v), 0);
    assert_int_equal(sqlite_varint(nine, nine + 8, &v), 0);
    assert_int_equal(sqlite_varint(one, one, &v), 0);
}

/* ---- serial types and records --------------------------------------------------- */

static void test_serial_sizes(void **state)
{
    (void)state;
    const int64_t want[] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1, 0, 0, 1, 1};
    for (uint64_t t = 0; t < 16; t++)
        assert_int_equal(sqlite_serial_size(t), want[t]);
    assert_int_equal(sqlite_serial_size(12 + 2 * 1000), 1000);
    assert_int_equal(sqlite_serial_size(13 + 2 * 1000), 1000);
}

static void test_serial_decode(void **state)
{
    (void)state;
    sqlite_val v;
    const uint8_t m128[] = {0x80};
    sqlite_decode(1, m128, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.cls, SQLITE_INT);
    assert_int_equal(v.i, -128);
    const uint8_t s16[] = {0x80, 0x00};
    sqlite_decode(2, s16, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.i, -32768);
    const uint8_t s24[] = {0x7f, 0xff, 0xff};
    sqlite_decode(3, s24, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.i, 8388607);
    const uint8_t s24n[] = {0xff, 0xff, 0xfe};
    sqlite_decode(3, s24n, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.i, -2);
    const uint8_t s48[] = {0x80, 0, 0, 0, 0, 0};
    sqlite_decode(5, s48, SQLITE_ENC_UTF8, &v);
    assert_true(v.i == -(INT64_C(1) << 47));
    const uint8_t s64[] = {0x80, 0, 0, 0, 0, 0, 0, 0};
    sqlite_decode(6, s64, SQLITE_ENC_UTF8, &v);
    assert_true(v.i == INT64_MIN);
    const uint8_t f64[] = {0x3f, 0xf8, 0, 0, 0, 0, 0, 0};  /* 1.5 */
    sqlite_decode(7, f64, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.cls, SQLITE_REAL);
    assert_true(v.r == 1.5);
    sqlite_decode(8, NULL, SQLITE_ENC_UTF8, &v);
    assert_true(v.cls == SQLITE_INT && v.i == 0);
    sqlite_decode(9, NULL, SQLITE_ENC_UTF8, &v);
    assert_true(v.cls == SQLITE_INT && v.i == 1);
    sqlite_decode(0, NULL, SQLITE_ENC_UTF8, &v);
    assert_int_equal(v.cls, SQLITE_NULL);
    const uint8_t txt[] = "abc";
    sqlite_decode(13 + 2 * 3, txt, SQLITE_ENC_UTF8, &v);
    assert_true(v.cls == SQLITE_TEXT && v.n == 3 && memcmp(v.p, "abc", 3) == 0);
    sqlite_decode(12, txt, SQLITE_ENC_UTF8, &v);   /* empty blob, not NULL */
    assert_true(v.cls == SQLITE_BLOB && v.n == 0);
    sqlite_decode(13, txt, SQLITE_ENC_UTF8, &v);   /* empty text */
    assert_true(v.cls == SQLITE_TEXT && v.n == 0);
}

static void test_record_header(void **state)
{
    (void)state;
    /* header 4 bytes: [4, int8, text(2), null], body: 7 'h' 'i' */
    const uint8_t rec[] = {4, 1, 17, 0, 7, 'h', 'i'};
    uint64_t serials[8];
    uint32_t offsets[8], nf, hlen;
    assert_int_equal(sqlite_record_header(rec, sizeof rec, sizeof rec, 8, serials, offsets, &nf, &hlen), 0);
    assert_int_equal(nf, 3);
    assert_int_equal(hlen, 4);
    assert_int_equal(serials[1], 17);
    assert_int_equal(offsets[0], 4);
    assert_int_equal(offsets[1], 5);
    assert_int_equal(offsets[2], 7);
    /* walk stops at the limit */
    assert_int_equal(sqlite_record_header(rec, sizeof rec, sizeof rec, 1, serials, offsets, &nf, &hlen), 0);
    assert_int_equal(nf, 1);
    /* a field running past the payload */
    const uint8_t longer[] = {3, 1, 21, 7, 'h'};
    assert_int_equal(sqlite_record_header(longer, sizeof longer, sizeof longer, 8, serials, offsets, &nf, &hlen), -1);
    /* reserved serial types 10 and 11 */
    const uint8_t reserved[] = {2, 10};
    assert_int_equal(sqlite_record_header(reserved, 2, 2, 8, serials, offsets, &nf, &hlen), -1);
    /* header size beyond the payload */
    const uint8_t big[] = {90, 1, 1};
    assert_int_equal(sqlite_record_header(big, 3, 3, 8, serials, offsets, &nf, &hlen), -1);
}

/* ---- local payload sizes ------------------------------------------------------ */

static void test_local_size(void **state)
{
    (void)state;
    sqlite_db db;
    memset(&db, 0, sizeof db);
    /* 4096-byte page, no reserved bytes: X = 4061 (table), 1002 (index), M = 489 */
    const uint8_t *none = NULL;
    (void)none;
    db.page_size = db.usable = 4096;
    db.max_local_table = 4096 - 35;
    db.max_local_index = ((4096 - 12) * 64 / 255) - 23;
    db.min_local = ((4096 - 12) * 32 / 255) - 23;
    assert_int_equal(db.max_local_index, 1002);
    assert_int_equal(db.min_local, 489);
    assert_int_equal(sqlite_local_size(&db, 100, false), 100);
    assert_int_equal(sqlite_local_size(&db, 4061, false), 4061);
    /* one byte more: K = 489 + (4062 - 489) % 4092 = 4062 > X, so M */
    assert_int_equal(sqlite_local_size(&db, 4062, false), 489);
    /* K <= X: the tail fills whole overflow pages */
    assert_int_equal(sqlite_local_size(&db, 489 + 4092 + 100, false), 589);
    assert_int_equal(sqlite_local_size(&db, 1002, true), 1002);
    assert_int_equal(sqlite_local_size(&db, 1003, true), 489 + (1003 - 489) % 4092 <= 1002 ? 489 + (1003 - 489) % 4092 : 489);
    /* the header computes the same limits, with reserved bytes */
    const char *path = SQLITE_DIR "/generated/reserved_bytes.db";
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t whole[20480];
    assert_int_equal(fread(whole, 1, sizeof whole, f), sizeof whole);
    fclose(f);
    /* a prefix is a truncated database: refused */
    assert_int_equal(sqlite_header_parse(&db, path, whole, 1024, NULL), -1);
    assert_int_equal(sqlite_header_parse(&db, path, whole, sizeof whole, NULL), 0);
    assert_int_equal(db.page_size, 1024);
    assert_int_equal(db.usable, 992);
    assert_int_equal(db.max_local_table, 992 - 35);
    assert_int_equal(db.min_local, ((992 - 12) * 32 / 255) - 23);
}

/* ---- affinity, defaults, text ---------------------------------------------------- */

static void test_affinity(void **state)
{
    (void)state;
    struct { const char *type; uint8_t aff; } cases[] = {
        {"INTEGER", SQLITE_AFF_INTEGER}, {"TINYINT", SQLITE_AFF_INTEGER},
        {"UNSIGNED BIG INT", SQLITE_AFF_INTEGER}, {"FLOATING POINT", SQLITE_AFF_INTEGER},
        {"CHARINT", SQLITE_AFF_INTEGER}, {"VARCHAR(30)", SQLITE_AFF_TEXT},
        {"NVARCHAR", SQLITE_AFF_TEXT}, {"CLOB", SQLITE_AFF_TEXT}, {"BLOB", SQLITE_AFF_BLOB},
        {"", SQLITE_AFF_BLOB}, {"REAL", SQLITE_AFF_REAL}, {"DOUBLE PRECISION", SQLITE_AFF_REAL},
        {"FLOAT", SQLITE_AFF_REAL}, {"NUMERIC", SQLITE_AFF_NUMERIC},
        {"DECIMAL(10,2)", SQLITE_AFF_NUMERIC}, {"BOOLEAN", SQLITE_AFF_NUMERIC},
        {"DATETIME", SQLITE_AFF_NUMERIC}, {"STRING", SQLITE_AFF_NUMERIC},
        {"JSON", SQLITE_AFF_NUMERIC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t a = lt_sqlite_affinity(cases[i].type, strlen(cases[i].type));
        if (a != cases[i].aff)
            fail_msg("affinity of '%s': %u, expected %u", cases[i].type, a, cases[i].aff);
    }
}

static void check_default(const char *text, uint8_t aff, uint8_t cls, int64_t i, double r,
                          const char *bytes, size_t n)
{
    sqlite_val v;
    if (sqlite_default_value(text, strlen(text), aff, &v) != 0)
        fail_msg("DEFAULT %s not read", text);
    if (v.cls != cls)
        fail_msg("DEFAULT %s: class %u, expected %u", text, v.cls, cls);
    if (cls == SQLITE_INT)
        assert_true(v.i == i);
    if (cls == SQLITE_REAL)
        assert_true(v.r == r);
    if (cls == SQLITE_TEXT || cls == SQLITE_BLOB) {
        assert_int_equal(v.n, n);
        assert_memory_equal(v.p, bytes, n);
        free((void *)v.p);
    }
}

static void test_defaults(void **state)
{
    (void)state;
    check_default("42", SQLITE_AFF_INTEGER, SQLITE_INT, 42, 0, NULL, 0);
    check_default("-7", SQLITE_AFF_INTEGER, SQLITE_INT, -7, 0, NULL, 0);
    check_default("0x1F", SQLITE_AFF_BLOB, SQLITE_INT, 31, 0, NULL, 0);
    check_default("'0012'", SQLITE_AFF_INTEGER, SQLITE_INT, 12, 0, NULL, 0);
    check_default("1e3", SQLITE_AFF_INTEGER, SQLITE_INT, 1000, 0, NULL, 0);
    check_default("12.50", SQLITE_AFF_TEXT, SQLITE_TEXT, 0, 0, "12.50", 5);
    check_default("-1.5", SQLITE_AFF_REAL, SQLITE_REAL, 0, -1.5, NULL, 0);
    check_default("TRUE", SQLITE_AFF_NUMERIC, SQLITE_INT, 1, 0, NULL, 0);
    check_default("+9223372036854775807", SQLITE_AFF_INTEGER, SQLITE_INT, INT64_MAX, 0, NULL, 0);
    check_default("'it''s'", SQLITE_AFF_TEXT, SQLITE_TEXT, 0, 0, "it's", 4);
    check_default("X'CAFEBABE'", SQLITE_AFF_BLOB, SQLITE_BLOB, 0, 0, "\xca\xfe\xba\xbe", 4);
    check_default("(5)", SQLITE_AFF_INTEGER, SQLITE_INT, 5, 0, NULL, 0);
    check_default("NULL", SQLITE_AFF_TEXT, SQLITE_NULL, 0, 0, NULL, 0);
    check_default("7", SQLITE_AFF_TEXT, SQLITE_TEXT, 0, 0, "7", 1);
    sqlite_val v;
    assert_int_equal(sqlite_default_value("CURRENT_TIMESTAMP", 17, SQLITE_AFF_TEXT, &v), -1);
    assert_int_equal(sqlite_default_value("(1 + 2)", 7, SQLITE_AFF_INTEGER, &v), -1);
}

static void test_real_text(void **state)
{
    (void)state;
    char buf[64];
    lt_sqlite_real_text(12.5, buf, sizeof buf);
    assert_string_equal(buf, "12.5");
    lt_sqlite_real_text(1000.0, buf, sizeof buf);
    assert_string_equal(buf, "1000.0");
    lt_sqlite_real_text(1e300, buf, sizeof buf);
    assert_string_equal(buf, "1.0e+300");
    lt_sqlite_real_text(-0.25, buf, sizeof buf);
    assert_string_equal(buf, "-0.25");
    lt_sqlite_real_text(0.1, buf, sizeof buf);
    assert_string_equal(buf, "0.1");
}

static void test_utf16(void **state)
{
    (void)state;
    /* "aé€😀" in UTF-16le, then a lone high surrogate */
    const uint8_t le[] = {'a', 0, 0xe9, 0, 0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0x3d, 0xd8};
    char out[64];
    size_t n = sqlite_utf16_to_utf8(le, sizeof le, false, out);
    const char want[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbd";
    assert_int_equal(n, sizeof want - 1);
    assert_memory_equal(out, want, n);
    const uint8_t be[] = {0, 'h', 0, 'i'};
    n = sqlite_utf16_to_utf8(be, sizeof be, true, out);
    assert_int_equal(n, 2);
    assert_memory_equal(out, "hi", 2);
}

/* ---- dynamic typing --------------------------------------------------------------- */

static void test_put_tags(void **state)
{
    (void)state;
    lt_type types[3] = {LT_INT64, LT_DOUBLE, LT_TEXT};
    lt_batch *b = lt_batch_new(3, types, NULL, 4);
    assert_non_null(b);
    sqlite_batch_untag(b);
    sqlite_val v;
    memset(&v, 0, sizeof v);
    v.cls = SQLITE_INT;
    v.i = 12;
    assert_int_equal(sqlite_put(b, 0, 0, &v), 0);
    assert_null(b->cols[0].tags);            /* exact: no tag needed */
    assert_int_equal(b->cols[0].v.i64[0], 12);
    v.cls = SQLITE_TEXT;
    v.enc = SQLITE_ENC_UTF8;
    v.p = (const uint8_t *)"12abc";
    v.n = 5;
    assert_int_equal(sqlite_put(b, 0, 1, &v), 0);   /* text in INTEGER */
    assert_non_null(b->cols[0].tags);
    assert_int_equal(lt_vector_row_type(&b->cols[0], 0), LT_INT64);
    assert_int_equal(lt_vector_row_type(&b->cols[0], 1), LT_TEXT);
    assert_int_equal(b->cols[0].other[1].u.bytes.len, 5);
    assert_memory_equal(b->cols[0].other[1].u.bytes.ptr, "12abc", 5);
    v.cls = SQLITE_REAL;
    v.r = 1e300;
    assert_int_equal(sqlite_put(b, 0, 2, &v), 0);   /* too big for INTEGER */
    assert_int_equal(lt_vector_row_type(&b->cols[0], 2), LT_DOUBLE);
    assert_true(b->cols[0].other[2].u.f64 == 1e300);
    /* integers into REAL: converted, as SQLite reads REAL columns */
    v.cls = SQLITE_INT;
    v.i = 7;
    assert_int_equal(sqlite_put(b, 1, 0, &v), 0);
    assert_null(b->cols[1].tags);
    assert_true(b->cols[1].v.f64[0] == 7.0);
    /* a number in a TEXT column stays a number */
    assert_int_equal(sqlite_put(b, 2, 0, &v), 0);
    assert_int_equal(lt_vector_row_type(&b->cols[2], 0), LT_INT64);
    /* UTF-16 text is converted into the arena */
    const uint8_t le[] = {'o', 0, 'k', 0};
    v.cls = SQLITE_TEXT;
    v.enc = SQLITE_ENC_UTF16LE;
    v.p = le;
    v.n = 4;
    assert_int_equal(sqlite_put(b, 2, 1, &v), 0);
    assert_int_equal(b->cols[2].v.bytes[1].len, 2);
    assert_memory_equal(b->cols[2].v.bytes[1].ptr, "ok", 2);
    /* NULL */
    v.cls = SQLITE_NULL;
    assert_int_equal(sqlite_put(b, 2, 2, &v), 0);
    assert_int_equal(b->cols[2].nulls[2], 1);
    lt_batch_reset(b);
    sqlite_batch_untag(b);
    assert_null(b->cols[0].tags);
    lt_batch_free(b);
}

/* ---- damaged files ------------------------------------------------------------------ */

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* Open and scan every table; 0 when all of it read, -1 on the first error
** (whose message must be non-empty and name the file). */
static int read_all(const uint8_t *data, size_t len, size_t *rows)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    *rows = 0;
    if (lt_sqlite_open_memory(data, len, "damaged.db", NULL, &src, &err) != 0) {
        assert_non_null(strstr(err.message, "damaged.db"));
        return -1;
    }
    int rc = 0;
    for (uint32_t t = 0; t < src->ntables && rc == 0; t++) {
        const lt_table *tab = &src->tables[t];
        if (tab->error != NULL)
            continue;
        uint32_t *cols = calloc(tab->ncols + 1, sizeof *cols);
        lt_type *types = calloc(tab->ncols + 1, sizeof *types);
        for (uint32_t c = 0; c < tab->ncols; c++) {
            cols[c] = c;
            types[c] = tab->cols[c].type;
        }
        lt_scan_spec spec = {.table = t, .ncols = tab->ncols, .cols = cols, .limit = -1};
        lt_batch *b = lt_batch_new(tab->ncols, types, NULL, 64);
        lt_scan *scan = NULL;
        if (src->reader->scan_open(src, &spec, &scan, &err) != 0) {
            rc = -1;
        } else {
            for (;;) {
                if (src->reader->scan_next(scan, b, &err) != 0) {
                    rc = -1;
                    break;
                }
                if (b->count == 0)
                    break;
                *rows += b->count;
            }
            src->reader->scan_close(scan);
        }
        if (rc != 0) {
            assert_true(err.message[0] != '\0');
            assert_string_equal(err.sqlstate, "HY000");
        }
        int64_t n = src->reader->count_rows(src, t, &err);
        (void)n;
        lt_batch_free(b);
        free(cols);
        free(types);
    }
    src->reader->close(src);
    return rc;
}

static void test_damaged(void **state)
{
    (void)state;
    const char *files[] = {"generated/overflow.db", "generated/without_rowid.db",
                           "generated/enc_utf16le.db", "generated/autovacuum_full.db",
                           "generated/wide_200_columns.db", "generated/pagesize_512.db"};
    uint32_t seed = 12345;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", SQLITE_DIR, files[f]);
        size_t len;
        uint8_t *orig = slurp(path, &len);
        assert_non_null(orig);
        size_t rows;
        assert_int_equal(read_all(orig, len, &rows), 0);
        uint8_t *copy = malloc(len);
        /* truncations: a whole file cut short is refused at open */
        for (size_t cut = 0; cut < len; cut += len / 7 + 1) {
            memcpy(copy, orig, cut);
            int rc = read_all(copy, cut, &rows);
            if (cut > 0)
                assert_int_equal(rc, -1);
        }
        /* bit flips and byte overwrites: errors or (when harmless) data */
        for (int k = 0; k < 300; k++) {
            memcpy(copy, orig, len);
            int flips = 1 + k % 8;
            for (int i = 0; i < flips; i++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % len;
                /* aim half of them at b-tree page headers */
                if (k % 2 == 0)
                    at = (at / 512) * 512 + (seed >> 24) % 12;
                copy[at] ^= (uint8_t)(1u << ((seed >> 4) % 8));
            }
            read_all(copy, len, &rows);
        }
        free(copy);
        free(orig);
    }
}

/* A page type overwritten: that table fails naming the page. */
static void test_corrupt_page_message(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = slurp(SQLITE_DIR "/generated/overflow.db", &len);
    assert_non_null(data);
    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_sqlite_open_memory(data, len, "x.db", NULL, &src, &err), 0);
    /* the first table's root page is 2 */
    src->reader->close(src);
    data[4096] = 0x42;
    assert_int_equal(lt_sqlite_open_memory(data, len, "x.db", NULL, &src, &err), 0);
    uint32_t col = 0;
    lt_type type = src->tables[0].cols[0].type;
    lt_scan_spec spec = {.table = 0, .ncols = 1, .cols = &col, .limit = -1};
    lt_scan *scan = NULL;
    lt_batch *b = lt_batch_new(1, &type, NULL, 16);
    int rc = src->reader->scan_open(src, &spec, &scan, &err);
    if (rc == 0) {
        rc = src->reader->scan_next(scan, b, &err);
        src->reader->scan_close(scan);
    }
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.message, "x.db"));
    assert_non_null(strstr(err.message, "page 2"));
    lt_batch_free(b);
    src->reader->close(src);
    free(data);
}

/* A cycle in child pointers ends as corruption, bounded by the page count. */
static void test_btree_loop(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = slurp(SQLITE_DIR "/generated/rows_100k.db", &len);
    assert_non_null(data);
    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_sqlite_open_memory(data, len, "loop.db", NULL, &src, &err), 0);
    int64_t n = src->reader->count_rows(src, 0, &err);
    assert_int_equal(n, 100000);
    src->reader->close(src);
    /* find the root (interior page) of table r and point its right child at itself */
    assert_int_equal(lt_sqlite_open_memory(data, len, "loop.db", NULL, &src, &err), 0);
    sqlite_source *s = (sqlite_source *)src;
    uint32_t root = s->tables[0].root;
    size_t page = (size_t)(root - 1) * 1024;
    assert_int_equal(data[page], SQLITE_PAGE_TABLE_INTERIOR);
    src->reader->close(src);
    data[page + 8] = (uint8_t)(root >> 24);
    data[page + 9] = (uint8_t)(root >> 16);
    data[page + 10] = (uint8_t)(root >> 8);
    data[page + 11] = (uint8_t)root;
    size_t rows;
    assert_int_equal(read_all(data, len, &rows), -1);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint),
        cmocka_unit_test(test_serial_sizes),
        cmocka_unit_test(test_serial_decode),
        cmocka_unit_test(test_record_header),
        cmocka_unit_test(test_local_size),
        cmocka_unit_test(test_affinity),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_real_text),
        cmocka_unit_test(test_utf16),
        cmocka_unit_test(test_put_tags),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_corrupt_page_message),
        cmocka_unit_test(test_btree_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
