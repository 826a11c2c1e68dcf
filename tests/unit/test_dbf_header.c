/*
** test_dbf_header.c — the dBASE reader's table header and field descriptors:
** truncated headers, descriptor arrays bounded by the header length,
** Clipper-wide C fields, record counts, unsupported versions, column types.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "test_dbf_build.h"

static const tb_field two[] = {{"NAME", 'C', 10, 0, 0}, {"QTY", 'N', 5, 0, 0}};

static void build_two(tb *b, uint32_t nrec)
{
    tb_header(b, 0x03, 0x03, nrec, two, 2, 1, 0);
    tb_record(b, " alpha       12", 16);
    tb_record(b, " beta          ", 16);
    tb_record(b, "*gamma       33", 16);
}

static void test_plain_table(void **state)
{
    (void)state;
    tb b = {0};
    build_two(&b, 3);
    tb_byte(&b, 0x1A);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    const lt_table *t = &r.src->tables[0];
    assert_string_equal(t->name, "t");
    assert_int_equal(t->ncols, 2);
    assert_null(t->error);
    assert_string_equal(t->cols[0].name, "NAME");
    assert_int_equal(t->cols[0].type, LT_TEXT);
    assert_int_equal(t->cols[0].size, 10);
    assert_string_equal(t->cols[0].type_name, "CHARACTER");
    assert_int_equal(t->cols[1].type, LT_INT64);
    assert_int_equal(t->cols[1].size, 10);
    assert_true(t->cols[1].nullable);
    assert_int_equal(t->row_estimate, 3);
    assert_int_equal(r.batch->count, 2);              /* the deleted one is skipped */
    assert_string_equal(tb_text(&r, 0, 0), "alpha");
    assert_int_equal(r.batch->cols[1].v.i64[0], 12);
    assert_string_equal(tb_text(&r, 0, 1), "beta");
    assert_true(tb_is_null(&r, 1, 1));
    assert_int_equal(r.src->reader->count_rows(r.src, 0, &r.err), 2);
    tb_read_free(&r);
    tb_free(&b);
}

static void expect_open_error(const tb *b, const char *fragment)
{
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    int rc = lt_dbf_open_memory(b->p, b->len, NULL, 0, NULL, "broken.dbf", NULL, &src, &err);
    if (rc == 0)
        fail_msg("expected an error containing '%s'", fragment);
    assert_null(src);
    assert_string_equal(err.sqlstate, "HY000");
    if (strstr(err.message, fragment) == NULL || strstr(err.message, "broken.dbf") == NULL)
        fail_msg("message '%s' lacks '%s' or the file name", err.message, fragment);
}

static void test_truncated_header(void **state)
{
    (void)state;
    tb full = {0};
    build_two(&full, 3);
    tb part = {0};
    static const size_t cuts[] = {0, 1, 12, 31};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        part.len = 0;
        tb_put(&part, full.p, cuts[i]);
        expect_open_error(&part, "too short");
    }
    /* A header whose descriptors are cut off after the first one: the
    ** descriptor array is bounded by the file's end, then the field sum
    ** cannot match the record length any more. */
    part.len = 0;
    tb_put(&part, full.p, 32 + 32 + 10);
    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_dbf_open_memory(part.p, part.len, NULL, 0, NULL, "cut", NULL, &src, &err), 0);
    assert_int_equal(src->tables[0].ncols, 1);
    assert_int_equal(src->tables[0].row_estimate, 0);   /* data would start past the end */
    lt_source_close(src);
    /* 32 bytes and nothing else: no fields. */
    part.len = 0;
    tb_put(&part, full.p, 32);
    expect_open_error(&part, "no fields");
    tb_free(&part);
    tb_free(&full);
}

/* Without the 0x0D terminator, the header length says where descriptors
** stop; what follows is record data that must not be read as a field. */
static void test_descriptors_bounded_by_header_length(void **state)
{
    (void)state;
    static const tb_field one[] = {{"CITY", 'C', 31, 0, 0}};
    tb b = {0};
    tb_header(&b, 0x03, 0x57, 2, one, 1, 0, 0);
    /* Records that look like descriptors: 32 bytes each. */
    tb_record(&b, " XXXXXXXXXXXC\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13", 32);
    tb_record(&b, " Lisbon                         ", 32);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].ncols, 1);
    assert_int_equal(r.batch->count, 2);
    assert_string_equal(tb_text(&r, 0, 1), "Lisbon");
    tb_read_free(&r);
    tb_free(&b);
}

static void test_header_length_short(void **state)
{
    (void)state;
    /* Header length 64 covering one descriptor, record length 11 (flag +
    ** C10): the second descriptor's bytes are the first record. */
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 1, two, 2, 0, 0);
    b.p[8] = 64; b.p[9] = 0;
    b.p[10] = 11; b.p[11] = 0;
    b.len = 64;
    tb_record(&b, " short     ", 11);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].ncols, 1);
    assert_int_equal(r.batch->count, 1);
    assert_string_equal(tb_text(&r, 0, 0), "short");
    tb_read_free(&r);
    tb_free(&b);
}

/* Clipper/FoxPro: C field of 300 bytes = length 44 + high byte 1. */
static void test_clipper_wide_char(void **state)
{
    (void)state;
    static const tb_field f[] = {{"ID", 'N', 2, 0, 0}, {"BIG", 'C', 300, 0, 0}, {"S", 'C', 1, 0, 0}};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 1, f, 3, 1, 0);
    char rec[304];
    memset(rec, ' ', sizeof rec);
    memcpy(rec + 1, " 7", 2);
    memset(rec + 3, 'x', 299);
    rec[303] = 'Z';
    tb_record(&b, rec, sizeof rec);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    const lt_table *t = &r.src->tables[0];
    assert_int_equal(t->cols[1].size, 300);
    assert_int_equal(strlen(tb_text(&r, 1, 0)), 299);
    assert_string_equal(tb_text(&r, 2, 0), "Z");
    tb_read_free(&r);
    tb_free(&b);

    /* A C field with a junk decimals byte whose widening would not add up to
    ** the record length: the byte is ignored. */
    static const tb_field g[] = {{"A", 'C', 4, 2, 0}, {"B", 'N', 3, 0, 0}};
    tb c = {0};
    tb_header(&c, 0x03, 0x03, 1, g, 2, 1, 0);
    tb_record(&c, " abcd 42", 8);
    assert_int_equal(tb_open_scan(&r, &c, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].cols[0].size, 4);
    assert_string_equal(tb_text(&r, 0, 0), "abcd");
    assert_int_equal(r.batch->cols[1].v.i64[0], 42);
    tb_read_free(&r);
    tb_free(&c);
}

/* The header's count is believed only as far as whole records follow. */
static void test_record_count(void **state)
{
    (void)state;
    tb b = {0};
    build_two(&b, 1000000);
    tb_record(&b, " half", 5);               /* a partial record, no 0x1A */
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].row_estimate, 3);
    assert_int_equal(r.batch->count, 2);
    tb_read_free(&r);
    tb_free(&b);

    tb c = {0};
    build_two(&c, 1);                         /* the header says 1: 1 it is */
    assert_int_equal(tb_open_scan(&r, &c, NULL, NULL, NULL), 0);
    assert_int_equal(r.batch->count, 1);
    assert_string_equal(tb_text(&r, 0, 0), "alpha");
    tb_read_free(&r);
    tb_free(&c);
}

static void test_unsupported_versions(void **state)
{
    (void)state;
    tb b = {0};
    build_two(&b, 3);
    b.p[0] = 0x02;
    expect_open_error(&b, "dBASE II");
    b.p[0] = 0x04;
    expect_open_error(&b, "dBASE 7");
    b.p[0] = 0x8C;
    expect_open_error(&b, "dBASE 7");
    tb_free(&b);
}

static void test_bad_fields(void **state)
{
    (void)state;
    /* Unknown type letter. */
    static const tb_field unknown[] = {{"A", 'C', 3, 0, 0}, {"WEIRD", 'S', 4, 0, 0}};
    tb b = {0};
    tb_header(&b, 0x03, 0, 0, unknown, 2, 1, 0);
    expect_open_error(&b, "WEIRD");
    tb_free(&b);
    /* Binary field of the wrong width. */
    static const tb_field narrow[] = {{"N", 'I', 3, 0, 0}};
    tb_header(&b, 0x30, 0, 0, narrow, 1, 1, 1);
    expect_open_error(&b, "must be 4");
    tb_free(&b);
    /* Fields wider than the record. */
    tb_header(&b, 0x03, 0, 0, two, 2, 1, 0);
    b.p[10] = 5;
    expect_open_error(&b, "bytes per record");
    tb_free(&b);
    /* Only the hidden _NullFlags field. */
    static const tb_field hidden[] = {{"_NullFlags", '0', 1, 0, 0x05}};
    tb_header(&b, 0x30, 0, 0, hidden, 1, 1, 1);
    expect_open_error(&b, "no columns");
    tb_free(&b);
}

/* The flags byte means something only in Visual FoxPro: elsewhere 0x01
** ("system") is junk, and the field is a column. */
static void test_flags_only_in_vfp(void **state)
{
    (void)state;
    static const tb_field f[] = {{"A", 'C', 3, 0, 0x10}, {"B", 'C', 3, 0, 0x11}};
    tb b = {0};
    tb_header(&b, 0x03, 0, 1, f, 2, 1, 0);
    tb_record(&b, " abcdef", 7);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].ncols, 2);
    tb_read_free(&r);
    b.p[0] = 0x30;      /* the same bytes as VFP: B is a system column */
    assert_int_equal(tb_open_scan(&r, &b, NULL, NULL, NULL), 0);
    assert_int_equal(r.src->tables[0].ncols, 1);
    assert_string_equal(r.src->tables[0].cols[0].name, "A");
    assert_string_equal(tb_text(&r, 0, 0), "abc");
    tb_read_free(&r);
    tb_free(&b);
}

static void test_column_types(void **state)
{
    (void)state;
    static const tb_field f[] = {
        {"N9", 'N', 9, 0, 0},    {"N10", 'N', 10, 0, 0}, {"N20", 'N', 20, 0, 0},
        {"N12_2", 'N', 12, 2, 0}, {"F12_3", 'F', 12, 3, 0}, {"D", 'D', 8, 0, 0},
        {"L", 'L', 1, 0, 0},     {"M", 'M', 4, 0, 0},    {"MB", 'M', 4, 0, 0x04},
        {"I", 'I', 4, 0, 0},     {"Y", 'Y', 8, 4, 0},    {"T", 'T', 8, 0, 0},
        {"B", 'B', 8, 0, 0},     {"V", 'V', 20, 0, 0},   {"Q", 'Q', 6, 0, 0},
        {"G", 'G', 4, 0, 0},     {"N50", 'N', 50, 0, 0}, {"N40_2", 'N', 40, 2, 0},
    };
    tb b = {0};
    tb_header(&b, 0x32, 0x03, 0, f, sizeof f / sizeof *f, 1, 1);
    lt_source *src;
    lt_error err;
    assert_int_equal(lt_dbf_open_memory(b.p, b.len, NULL, 0, NULL, "types", NULL, &src, &err), 0);
    const lt_table *t = &src->tables[0];
    struct { lt_type type; uint32_t size; int16_t scale; bool is_long; const char *name; } want[] = {
        {LT_INT64, 10, 0, false, "NUMERIC"}, {LT_INT64, 19, 0, false, "NUMERIC"},
        {LT_DECIMAL, 20, 0, false, "NUMERIC"}, {LT_DECIMAL, 12, 2, false, "NUMERIC"},
        {LT_DOUBLE, 15, 0, false, "FLOAT"}, {LT_DATE, 10, 0, false, "DATE"},
        {LT_BOOL, 1, 0, false, "LOGICAL"}, {LT_TEXT, 1073741823, 0, true, "MEMO"},
        {LT_BINARY, 1073741823, 0, true, "MEMO"}, {LT_INT64, 10, 0, false, "INTEGER"},
        {LT_DECIMAL, 19, 4, false, "CURRENCY"}, {LT_TIMESTAMP, 23, 3, false, "DATETIME"},
        {LT_DOUBLE, 15, 0, false, "DOUBLE"}, {LT_TEXT, 20, 0, false, "VARCHAR"},
        {LT_BINARY, 6, 0, false, "VARBINARY"}, {LT_BINARY, 1073741823, 0, true, "GENERAL"},
        {LT_DOUBLE, 15, 0, false, "NUMERIC"}, {LT_DOUBLE, 15, 0, false, "NUMERIC"},
    };
    assert_int_equal(t->ncols, sizeof want / sizeof *want);
    for (uint32_t c = 0; c < t->ncols; c++) {
        if (t->cols[c].type != want[c].type || t->cols[c].size != want[c].size ||
            t->cols[c].scale != want[c].scale || t->cols[c].is_long != want[c].is_long ||
            strcmp(t->cols[c].type_name, want[c].name) != 0)
            fail_msg("column %s: type %d size %u scale %d long %d name %s",
                     t->cols[c].name, t->cols[c].type, t->cols[c].size, t->cols[c].scale,
                     t->cols[c].is_long, t->cols[c].type_name);
    }
    /* Memo fields and no memo file: listed, but scanning fails. */
    assert_non_null(t->error);
    assert_non_null(strstr(t->error, "memo file"));
    lt_source_close(src);
    tb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_table),
        cmocka_unit_test(test_truncated_header),
        cmocka_unit_test(test_descriptors_bounded_by_header_length),
        cmocka_unit_test(test_header_length_short),
        cmocka_unit_test(test_clipper_wide_char),
        cmocka_unit_test(test_record_count),
        cmocka_unit_test(test_unsupported_versions),
        cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_flags_only_in_vfp),
        cmocka_unit_test(test_column_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
