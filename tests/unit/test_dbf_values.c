/*
** test_dbf_values.c — field values: numbers (exact decimals, rounding,
** exponents, junk), dates, logicals, VFP binary types, _NullFlags bits,
** deleted records and ShowDeleted, CodePage=, the row-limit hint.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "common/datetime.h"
#include "test_dbf_build.h"

/* One-field dBASE III tables: each record holds one value. */
static void one_field_table(tb *b, const tb_field *f, const char *const *values, size_t n)
{
    tb_header(b, 0x03, 0x03, (uint32_t)n, f, 1, 1, 0);
    for (size_t i = 0; i < n; i++) {
        tb_byte(b, ' ');
        tb_record(b, values[i], f->width);
    }
    tb_byte(b, 0x1A);
}

static void test_decimal_numbers(void **state)
{
    (void)state;
    static const tb_field f = {"AMOUNT", 'N', 8, 2, 0};
    static const char *const values[] = {
        "    1.25", "   1.235", "  -1.235", "     1e2", "********", "     1,5",
        "    -   ", "     .5 ", "      +3", "        ", "\0\0\0\0\0\0\0\0", "   7\0\0\0\0",
        "  **12**", " 1.0E-01", "    1.2.", "   -0.00",
    };
    static const struct { int null; long long scaled; } want[] = {
        {0, 125}, {0, 124}, {0, -124}, {0, 10000}, {1, 0}, {1, 0},
        {1, 0}, {0, 50}, {0, 300}, {1, 0}, {1, 0}, {0, 700},
        {0, 1200}, {0, 10}, {1, 0}, {0, 0},
    };
    tb b = {0};
    one_field_table(&b, &f, values, sizeof values / sizeof *values);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].cols[0].type, LT_DECIMAL);
    assert_int_equal(r.batch->cols[0].scale, 2);
    for (uint32_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (want[i].null != tb_is_null(&r, 0, i) ||
            (!want[i].null && r.batch->cols[0].v.dec[i] != want[i].scaled))
            fail_msg("value %u '%s': null %d, scaled %lld", i, values[i], tb_is_null(&r, 0, i),
                     (long long)r.batch->cols[0].v.dec[i]);
    }
    tb_read_free(&r);
    tb_free(&b);
}

static void test_integer_numbers(void **state)
{
    (void)state;
    static const tb_field f = {"N", 'N', 6, 0, 0};
    static const char *const values[] = {
        "    42", "   2.5", "  -2.5", " 1E+03", "-99999", "   abc", "     0", "  +7  ",
        "   2.4", " 1e300",
    };
    static const struct { int null; long long v; } want[] = {
        {0, 42}, {0, 3}, {0, -3}, {0, 1000}, {0, -99999}, {1, 0}, {0, 0}, {0, 7},
        {0, 2}, {1, 0},
    };
    tb b = {0};
    one_field_table(&b, &f, values, sizeof values / sizeof *values);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].cols[0].type, LT_INT64);
    for (uint32_t i = 0; i < sizeof want / sizeof *want; i++)
        if (want[i].null != tb_is_null(&r, 0, i) ||
            (!want[i].null && r.batch->cols[0].v.i64[i] != want[i].v))
            fail_msg("value %u '%s': null %d, %lld", i, values[i], tb_is_null(&r, 0, i),
                     (long long)r.batch->cols[0].v.i64[i]);
    tb_read_free(&r);
    tb_free(&b);

    /* 20 digits: beyond int64, exact as DECIMAL(20,0). */
    static const tb_field wide = {"N20", 'N', 20, 0, 0};
    static const char *const big[] = {"12345678901234567890", "-9223372036854775808"};
    one_field_table(&b, &wide, big, 2);
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].cols[0].type, LT_DECIMAL);
    lt_int128 v = r.batch->cols[0].v.dec[0];
    assert_true(v / 1000000000 == 12345678901LL && v % 1000000000 == 234567890LL);
    assert_true(r.batch->cols[0].v.dec[1] == (lt_int128)INT64_MIN);
    tb_read_free(&r);
    tb_free(&b);

    /* Leading zeros are not significant digits: 1 at scale 25 fits. */
    static const tb_field scaled = {"N30_25", 'N', 30, 25, 0};
    static const char *const small[] = {"           0000000000000000001", "   0.0000000000000000000000001"};
    one_field_table(&b, &scaled, small, 2);
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    lt_int128 p25 = 1;
    for (int i = 0; i < 25; i++)
        p25 *= 10;
    assert_false(tb_is_null(&r, 0, 0));
    assert_true(r.batch->cols[0].v.dec[0] == p25);
    assert_true(r.batch->cols[0].v.dec[1] == 1);
    tb_read_free(&r);
    tb_free(&b);
}

static void test_float_numbers(void **state)
{
    (void)state;
    static const tb_field f = {"F", 'F', 20, 3, 0};
    static const char *const values[] = {
        "                 0.1", "             1.0E+10", " 123456789.123456789",
        "              -0.000", "                 inf", "                 nan",
        "        1.5e-400    ", "             1.2e400",
    };
    tb b = {0};
    one_field_table(&b, &f, values, sizeof values / sizeof *values);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    const double *d = r.batch->cols[0].v.f64;
    assert_int_equal(r.src->tables[0].cols[0].type, LT_DOUBLE);
    assert_true(d[0] == 0.1);
    assert_true(d[1] == 1e10);
    assert_true(d[2] == 123456789.123456789);
    assert_true(d[3] == 0.0);
    assert_true(tb_is_null(&r, 0, 4));     /* not finite: not a number here */
    assert_true(tb_is_null(&r, 0, 5));
    assert_true(d[6] == 0.0);
    assert_true(tb_is_null(&r, 0, 7));
    tb_read_free(&r);
    tb_free(&b);
}

static void test_dates_and_logicals(void **state)
{
    (void)state;
    static const tb_field fd = {"D", 'D', 10, 0, 0};
    static const char *const dates[] = {
        "20240229  ", "20230229  ", "          ", "00000000  ", "2024 101  ",
        " 19991231 ", "\0\0\0\0\0\0\0\0\0\0", "NotAYear  ", "00010101  ",
    };
    static const int valid[] = {1, 0, 0, 0, 0, 1, 0, 0, 1};
    tb b = {0};
    one_field_table(&b, &fd, dates, sizeof dates / sizeof *dates);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    for (uint32_t i = 0; i < sizeof valid / sizeof *valid; i++)
        if (valid[i] == tb_is_null(&r, 0, i))
            fail_msg("date %u '%.10s': null %d", i, dates[i], tb_is_null(&r, 0, i));
    assert_int_equal(r.batch->cols[0].v.date[0], lt_days_from_civil(2024, 2, 29));
    assert_int_equal(r.batch->cols[0].v.date[5], lt_days_from_civil(1999, 12, 31));
    assert_int_equal(r.batch->cols[0].v.date[8], lt_days_from_civil(1, 1, 1));
    tb_read_free(&r);
    tb_free(&b);

    static const tb_field fl = {"L", 'L', 1, 0, 0};
    static const char *const logicals[] = {"T", "t", "Y", "y", "F", "f", "N", "n", "?", " ", "x"};
    static const int want[] = {1, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1};
    one_field_table(&b, &fl, logicals, sizeof logicals / sizeof *logicals);
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    for (uint32_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (want[i] < 0)
            assert_true(tb_is_null(&r, 0, i));
        else
            assert_int_equal(r.batch->cols[0].v.b[i], want[i]);
    }
    tb_read_free(&r);
    tb_free(&b);
}

static void put_double_le(tb *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    tb_le32(b, (uint32_t)u);
    tb_le32(b, (uint32_t)(u >> 32));
}

/* dBASE 7 'O': big-endian, sign bit set for positives, inverted negatives. */
static void put_db7(tb *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    u = (u >> 63) ? ~u : u | UINT64_C(0x8000000000000000);
    for (int i = 7; i >= 0; i--)
        tb_byte(b, (uint8_t)(u >> (8 * i)));
}

static void test_vfp_binary_types(void **state)
{
    (void)state;
    static const tb_field f[] = {
        {"I", 'I', 4, 0, 0}, {"Y", 'Y', 8, 4, 0}, {"B", 'B', 8, 2, 0},
        {"T", 'T', 8, 0, 0}, {"O", 'O', 8, 0, 0},
    };
    tb b = {0};
    tb_header(&b, 0x30, 0x03, 3, f, 5, 1, 1);
    /* row 1 */
    tb_byte(&b, ' ');
    tb_le32(&b, (uint32_t)-5);
    tb_le32(&b, 123456); tb_le32(&b, 0);             /* 12.3456 */
    put_double_le(&b, 2.75);
    tb_le32(&b, 2440588 + 1); tb_le32(&b, 45296789); /* 1970-01-02 12:34:56.789 */
    put_db7(&b, 1.5);
    /* row 2 */
    tb_byte(&b, ' ');
    tb_le32(&b, 0x7FFFFFFF);
    tb_le32(&b, (uint32_t)-10000); tb_le32(&b, 0xFFFFFFFF);   /* -1.0000 */
    put_double_le(&b, -0.5);
    tb_le32(&b, 0); tb_le32(&b, 0);                  /* day 0: NULL */
    put_db7(&b, -2.0);
    /* row 3 */
    tb_byte(&b, ' ');
    tb_le32(&b, 0);
    tb_le32(&b, 0); tb_le32(&b, 0);
    put_double_le(&b, 0.0);
    tb_put(&b, "        ", 8);                       /* blank: NULL */
    tb_zeros(&b, 8);                                 /* O zero bytes: NULL */
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    const lt_vector *c = r.batch->cols;
    assert_int_equal(c[0].v.i64[0], -5);
    assert_int_equal(c[0].v.i64[1], 2147483647);
    assert_true(c[1].v.dec[0] == 123456 && c[1].scale == 4);
    assert_true(c[1].v.dec[1] == -10000);
    assert_true(c[2].v.f64[0] == 2.75 && c[2].v.f64[1] == -0.5);
    assert_int_equal(c[3].v.i64[0], LT_USEC_PER_DAY + INT64_C(45296789000));
    assert_true(tb_is_null(&r, 3, 1));
    assert_true(tb_is_null(&r, 3, 2));
    assert_true(c[4].v.f64[0] == 1.5 && c[4].v.f64[1] == -2.0);
    assert_true(tb_is_null(&r, 4, 2));
    tb_read_free(&r);
    tb_free(&b);
}

/* _NullFlags: in field order, a V/Q field takes a varlength bit, then each
** nullable field a null bit. */
static void test_nullflags(void **state)
{
    (void)state;
    static const tb_field f[] = {
        {"V", 'V', 10, 0, 0},       /* varbit 0 */
        {"VN", 'V', 10, 0, 0x02},   /* varbit 1, nullbit 2 */
        {"N", 'N', 5, 0, 0x02},     /* nullbit 3 */
        {"Q", 'Q', 4, 0, 0},        /* varbit 4 */
        {"C", 'C', 3, 0, 0x02},     /* nullbit 5 */
        {"_NullFlags", '0', 1, 0, 0x05},
    };
    tb b = {0};
    tb_header(&b, 0x32, 0x03, 2, f, 6, 1, 1);
    tb_byte(&b, ' ');
    tb_put(&b, "abc\0\0\0\0\0\0\x03", 10);
    tb_put(&b, "0123456789", 10);
    tb_put(&b, "   42", 5);
    tb_put(&b, "\x01\x02\x00\x02", 4);
    tb_put(&b, "xyz", 3);
    tb_byte(&b, 0x01 | 0x10);                        /* V and Q varlength */
    tb_byte(&b, ' ');
    tb_put(&b, " spaced   ", 10);
    tb_put(&b, "ignored   ", 10);
    tb_put(&b, "    7", 5);
    tb_put(&b, "\x01\x02\x03\x04", 4);
    tb_put(&b, "abc", 3);
    tb_byte(&b, 0x04 | 0x08 | 0x20);                 /* VN, N, C null */
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].ncols, 5);
    assert_string_equal(tb_text(&r, 0, 0), "abc");
    assert_string_equal(tb_text(&r, 1, 0), "0123456789");
    assert_int_equal(r.batch->cols[2].v.i64[0], 42);
    assert_int_equal(r.batch->cols[3].v.bytes[0].len, 2);
    assert_string_equal(tb_text(&r, 4, 0), "xyz");
    assert_string_equal(tb_text(&r, 0, 1), " spaced   ");  /* V is not trimmed */
    assert_true(tb_is_null(&r, 1, 1));
    assert_true(tb_is_null(&r, 2, 1));
    assert_int_equal(r.batch->cols[3].v.bytes[1].len, 4);
    assert_true(tb_is_null(&r, 4, 1));
    tb_read_free(&r);
    tb_free(&b);
}

/* Null bits beyond the _NullFlags field's width are not set. */
static void test_nullflags_too_narrow(void **state)
{
    (void)state;
    tb_field f[10];
    static char names[9][4];
    for (int i = 0; i < 9; i++) {
        snprintf(names[i], sizeof names[i], "C%d", i);
        f[i] = (tb_field){names[i], 'C', 1, 0, 0x02};
    }
    f[9] = (tb_field){"_NullFlags", '0', 1, 0, 0x05};
    tb b = {0};
    tb_header(&b, 0x30, 0x03, 1, f, 10, 1, 1);
    tb_put(&b, " abcdefghi", 10);
    tb_byte(&b, 0xFF);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    for (uint32_t c = 0; c < 8; c++)
        assert_true(tb_is_null(&r, c, 0));
    assert_string_equal(tb_text(&r, 8, 0), "i");
    tb_read_free(&r);
    tb_free(&b);
}

static void test_deleted_and_show_deleted(void **state)
{
    (void)state;
    static const tb_field f = {"X", 'C', 2, 0, 0};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 5, &f, 1, 1, 0);
    tb_put(&b, "*d1 a1*d2\0a2*d3", 15);   /* a record starting 0x00 is live */
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.batch->count, 2);
    assert_string_equal(tb_text(&r, 0, 0), "a1");
    assert_string_equal(tb_text(&r, 0, 1), "a2");
    assert_int_equal(r.src->reader->count_rows(r.src, 0, &r.err), 2);
    tb_read_free(&r);

    lt_option opt = {"ShowDeleted", "1"};
    lt_options opts = {1, &opt};
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, &opts), 0);
    assert_int_equal(r.batch->count, 5);
    assert_string_equal(tb_text(&r, 0, 0), "d1");
    assert_int_equal(r.src->reader->count_rows(r.src, 0, &r.err), 5);
    tb_read_free(&r);
    tb_free(&b);
}

static void test_codepage_option(void **state)
{
    (void)state;
    static const tb_field f = {"T", 'C', 4, 0, 0};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 1, &f, 1, 1, 0);   /* LDID 0x03: cp1252 */
    tb_put(&b, " \xe9t\xe9 ", 5);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_string_equal(tb_text(&r, 0, 0), "\xc3\xa9t\xc3\xa9");        /* été */
    tb_read_free(&r);
    lt_option opt = {"CodePage", "1251"};
    lt_options opts = {1, &opt};
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, &opts), 0);
    assert_string_equal(tb_text(&r, 0, 0), "\xd0\xb9t\xd0\xb9");        /* йtй */
    tb_read_free(&r);
    lt_option bad = {"CodePage", "abc"};
    lt_options badopts = {1, &bad};
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, &badopts), -1);
    assert_non_null(strstr(r.err.message, "CodePage=abc"));
    tb_read_free(&r);
    tb_free(&b);
}

/* The limit hint stops the scan early; batches of 2 cross record runs. */
static void test_limit_and_small_batches(void **state)
{
    (void)state;
    static const tb_field f = {"X", 'C', 1, 0, 0};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 7, &f, 1, 1, 0);
    tb_put(&b, " a*b*c d e*f g", 14);
    lt_source *src;
    lt_error err;
    assert_int_equal(lt_dbf_open_memory(b.p, b.len, NULL, 0, NULL, "t", NULL, &src, &err), 0);
    lt_type type = LT_TEXT;
    uint32_t col = 0;
    const char *want = "adeg";
    for (int64_t limit = -1; limit <= 4; limit++) {
        lt_scan_spec spec = {.table = 0, .ncols = 1, .cols = &col, .limit = limit};
        lt_scan *scan;
        assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
        lt_batch *batch = lt_batch_new(1, &type, NULL, 2);
        char got[8] = "";
        size_t n = 0;
        for (;;) {
            assert_int_equal(src->reader->scan_next(scan, batch, &err), 0);
            if (batch->count == 0)
                break;
            for (uint32_t i = 0; i < batch->count; i++)
                got[n++] = batch->cols[0].v.bytes[i].ptr[0];
        }
        size_t expect = limit < 0 ? 4 : (size_t)limit;
        assert_int_equal(n, expect);
        assert_memory_equal(got, want, n);
        lt_batch_free(batch);
        src->reader->scan_close(scan);
    }
    lt_source_close(src);
    tb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_numbers),
        cmocka_unit_test(test_integer_numbers),
        cmocka_unit_test(test_float_numbers),
        cmocka_unit_test(test_dates_and_logicals),
        cmocka_unit_test(test_vfp_binary_types),
        cmocka_unit_test(test_nullflags),
        cmocka_unit_test(test_nullflags_too_narrow),
        cmocka_unit_test(test_deleted_and_show_deleted),
        cmocka_unit_test(test_codepage_option),
        cmocka_unit_test(test_limit_and_small_batches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
