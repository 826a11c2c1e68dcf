/*
** test_dbf_memo.c — memo files: .fpt blocks (text, binary, block size 1),
** dBASE III .dbt (0x1A-terminated), dBASE IV .dbt (length-prefixed), and
** untrusted pointers and lengths that run past the end of the memo file.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "test_dbf_build.h"

/* ---- .fpt ----------------------------------------------------------------- */

/* An .fpt with 64-byte blocks; returns the block number of each memo. */
static uint32_t fpt_add(tb *m, uint32_t type, const void *data, uint32_t len)
{
    while (m->len % 64)
        tb_byte(m, 0);
    uint32_t block = (uint32_t)(m->len / 64);
    tb_be32(m, type);
    tb_be32(m, len);
    tb_put(m, data, len);
    return block;
}

static void fpt_header(tb *m, uint16_t block_size)
{
    tb_be32(m, 0);
    tb_byte(m, 0);
    tb_byte(m, 0);
    tb_byte(m, (uint8_t)(block_size >> 8));
    tb_byte(m, (uint8_t)block_size);
    tb_zeros(m, 504);
}

/* A VFP record: flag, M pointer (u32 LE), G pointer. */
static void vfp_record(tb *b, uint32_t memo, uint32_t general)
{
    tb_byte(b, ' ');
    tb_le32(b, memo);
    tb_le32(b, general);
}

static const tb_field vfp_memo_fields[] = {{"NOTES", 'M', 4, 0, 0}, {"PIC", 'G', 4, 0, 0}};

static void test_fpt_blocks(void **state)
{
    (void)state;
    tb m = {0};
    fpt_header(&m, 64);
    uint32_t text = fpt_add(&m, 1, "hello, memo", 11);
    uint32_t empty = fpt_add(&m, 1, "", 0);
    static const uint8_t png[] = {0x89, 'P', 'N', 'G', 0x00, 0x1A};
    uint32_t pic = fpt_add(&m, 0, png, sizeof png);
    char big[200];
    memset(big, 'b', sizeof big);         /* crosses several 64-byte blocks */
    uint32_t longer = fpt_add(&m, 1, big, sizeof big);

    tb b = {0};
    tb_header(&b, 0x30, 0x03, 4, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, text, pic);
    vfp_record(&b, empty, 0);
    vfp_record(&b, pic, 0);               /* a picture block in a text memo */
    vfp_record(&b, longer, 0);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "fpt", NULL), 0);
    assert_int_equal(r.batch->count, 4);
    assert_string_equal(tb_text(&r, 0, 0), "hello, memo");
    assert_int_equal(r.batch->cols[1].v.bytes[0].len, sizeof png);
    assert_memory_equal(r.batch->cols[1].v.bytes[0].ptr, png, sizeof png);
    assert_string_equal(tb_text(&r, 0, 1), "");  /* zero length: "", not NULL */
    assert_true(tb_is_null(&r, 1, 1));           /* pointer 0: NULL */
    assert_string_equal(tb_text(&r, 0, 2), "\\x89504e47001a");
    assert_int_equal(strlen(tb_text(&r, 0, 3)), 200);
    tb_read_free(&r);
    tb_free(&b);
    tb_free(&m);
}

/* Block size 1: pointers are byte offsets. */
static void test_fpt_block_size_one(void **state)
{
    (void)state;
    tb m = {0};
    fpt_header(&m, 1);
    uint32_t at = (uint32_t)m.len;
    tb_be32(&m, 1);
    tb_be32(&m, 3);
    tb_put(&m, "abc", 3);
    uint32_t at2 = (uint32_t)m.len;
    tb_be32(&m, 1);
    tb_be32(&m, 2);
    tb_put(&m, "de", 2);
    tb b = {0};
    tb_header(&b, 0x30, 0x03, 2, vfp_memo_fields, 1, 1, 1);
    b.p[10] = 5;                           /* record: flag + M4 */
    tb_byte(&b, ' '); tb_le32(&b, at);
    tb_byte(&b, ' '); tb_le32(&b, at2);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "fpt", NULL), 0);
    assert_string_equal(tb_text(&r, 0, 0), "abc");
    assert_string_equal(tb_text(&r, 0, 1), "de");
    tb_read_free(&r);
    tb_free(&b);
    tb_free(&m);
}

static void expect_scan_error(tb *b, tb *m, const char *ext, const char *fragment)
{
    tb_read r;
    int rc = tb_open_scan(&r, b, m, ext, NULL);
    if (rc == 0)
        fail_msg("expected a scan error containing '%s'", fragment);
    assert_string_equal(r.err.sqlstate, "HY000");
    if (strstr(r.err.message, fragment) == NULL)
        fail_msg("message '%s' lacks '%s'", r.err.message, fragment);
    tb_read_free(&r);
}

static void test_fpt_past_end(void **state)
{
    (void)state;
    tb m = {0};
    fpt_header(&m, 64);
    uint32_t ok = fpt_add(&m, 1, "fine", 4);
    tb b = {0};

    /* A pointer past the end of the memo file. */
    tb_header(&b, 0x30, 0x03, 2, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, ok, 0);
    vfp_record(&b, 1000, 0);
    expect_scan_error(&b, &m, "fpt", "record 2 points to memo block 1000 past the end");
    tb_free(&b);

    /* The largest pointer times the largest block size must not wrap. */
    tb big = {0};
    fpt_header(&big, 0xFFFF);
    tb_header(&b, 0x30, 0x03, 1, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, 0xFFFFFFFFu, 0);
    expect_scan_error(&b, &big, "fpt", "past the end");
    tb_free(&b);
    tb_free(&big);

    /* A length running past the end. */
    tb cut = {0};
    fpt_header(&cut, 64);
    uint32_t bad = fpt_add(&cut, 1, "abc", 3);
    cut.p[bad * 64 + 7] = 200;            /* says 200 bytes, 3 follow */
    tb_header(&b, 0x30, 0x03, 1, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, bad, 0);
    expect_scan_error(&b, &cut, "fpt", "says 200 bytes");
    tb_free(&b);

    /* A block header cut by the end of the file. */
    cut.len = bad * 64 + 5;
    tb_header(&b, 0x30, 0x03, 1, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, bad, 0);
    expect_scan_error(&b, &cut, "fpt", "cut short");
    tb_free(&b);

    /* A memo file too short for its own header. */
    cut.len = 5;
    tb_header(&b, 0x30, 0x03, 1, vfp_memo_fields, 2, 1, 1);
    vfp_record(&b, 0, 0);
    expect_scan_error(&b, &cut, "fpt", "too short");
    tb_free(&b);
    tb_free(&cut);
    tb_free(&m);
}

/* A NULL memo (VFP null bit) is not read at all, whatever its pointer. */
static void test_null_memo_not_followed(void **state)
{
    (void)state;
    static const tb_field f[] = {{"NOTES", 'M', 4, 0, 0x02}, {"_NullFlags", '0', 1, 0, 0x05}};
    tb m = {0};
    fpt_header(&m, 64);
    tb b = {0};
    tb_header(&b, 0x30, 0x03, 1, f, 2, 1, 1);
    tb_byte(&b, ' ');
    tb_le32(&b, 99999);                   /* garbage pointer ... */
    tb_byte(&b, 0x01);                    /* ... but the null bit is set */
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "fpt", NULL), 0);
    assert_true(tb_is_null(&r, 0, 0));
    tb_read_free(&r);
    tb_free(&b);
    tb_free(&m);
}

/* ---- .dbt ----------------------------------------------------------------- */

static const tb_field dbt_fields[] = {{"ID", 'N', 2, 0, 0}, {"BODY", 'M', 10, 0, 0}};

static void dbt_record(tb *b, int id, const char *pointer10)
{
    char rec[4];
    snprintf(rec, sizeof rec, " %2d", id);
    tb_record(b, rec, 3);
    tb_record(b, pointer10, 10);          /* may hold NULs */
}

static void test_dbt3(void **state)
{
    (void)state;
    tb m = {0};
    tb_zeros(&m, 512);                    /* header block */
    char first[700];
    memset(first, 'x', sizeof first);     /* block 1, crosses into block 2 */
    tb_put(&m, first, sizeof first);
    tb_put(&m, "\x1a\x1a", 2);
    while (m.len % 512)
        tb_byte(&m, 0);
    tb_put(&m, "line1\r\nline2", 12);     /* block 3, ends at the file end */
    tb b = {0};
    tb_header(&b, 0x83, 0x03, 6, dbt_fields, 2, 1, 0);
    dbt_record(&b, 1, "         1");
    dbt_record(&b, 2, "         3");
    dbt_record(&b, 3, "          ");      /* blank: NULL */
    dbt_record(&b, 4, "0000000000");      /* zero: NULL */
    dbt_record(&b, 5, "       abc");      /* not a number: NULL */
    dbt_record(&b, 6, "\0\0\0\0\0\0\0\0\0\0");
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "dbt", NULL), 0);
    assert_int_equal(r.batch->count, 6);
    assert_int_equal(strlen(tb_text(&r, 1, 0)), 700);
    assert_string_equal(tb_text(&r, 1, 1), "line1\r\nline2");
    for (uint32_t i = 2; i < 6; i++)
        assert_true(tb_is_null(&r, 1, i));
    tb_read_free(&r);

    /* Past the end. */
    tb c = {0};
    tb_header(&c, 0x83, 0x03, 1, dbt_fields, 2, 1, 0);
    dbt_record(&c, 1, "        99");
    expect_scan_error(&c, &m, "dbt", "memo block 99 past the end");
    tb_free(&c);
    tb_header(&c, 0x83, 0x03, 1, dbt_fields, 2, 1, 0);
    dbt_record(&c, 1, "9999999999");
    expect_scan_error(&c, &m, "dbt", "past the end");
    tb_free(&c);
    tb_free(&b);
    tb_free(&m);
}

static void test_dbt4(void **state)
{
    (void)state;
    tb m = {0};
    tb_le32(&m, 4);                       /* next free block */
    tb_le32(&m, 0);
    tb_zeros(&m, 12);
    tb_le16(&m, 256);                     /* block size at offset 20 */
    tb_zeros(&m, 256 - 22);
    /* block 1: "with \x1a inside" (length-delimited: 0x1A is data) */
    tb_put(&m, "\xff\xff\x08\x00", 4);
    tb_le32(&m, 8 + 14);
    tb_put(&m, "with \x1a inside", 14);
    while (m.len % 256)
        tb_byte(&m, 0);
    /* block 2: no signature: read to 0x1A */
    tb_put(&m, "old style\x1a", 10);
    while (m.len % 256)
        tb_byte(&m, 0);
    /* block 3: a length past the end of the file is cut there */
    tb_put(&m, "\xff\xff\x08\x00", 4);
    tb_le32(&m, 100000);
    tb_put(&m, "tail", 4);
    tb b = {0};
    tb_header(&b, 0x8B, 0x03, 3, dbt_fields, 2, 1, 0);
    dbt_record(&b, 1, "         1");
    dbt_record(&b, 2, "         2");
    dbt_record(&b, 3, "         3");
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "dbt", NULL), 0);
    assert_int_equal(r.batch->cols[1].v.bytes[0].len, 14);
    assert_memory_equal(r.batch->cols[1].v.bytes[0].ptr, "with \x1a inside", 14);
    assert_string_equal(tb_text(&r, 1, 1), "old style");
    assert_string_equal(tb_text(&r, 1, 2), "tail");
    tb_read_free(&r);
    tb_free(&b);
    tb_free(&m);
}

/* dBASE IV/5 'B' is a binary memo; in VFP it is a double. */
static void test_binary_memo_outside_vfp(void **state)
{
    (void)state;
    static const tb_field f[] = {{"BIN", 'B', 10, 0, 0}};
    tb m = {0};
    tb_zeros(&m, 512);
    tb_put(&m, "\xff\xff\x08\x00", 4);
    tb_le32(&m, 8 + 3);
    tb_put(&m, "\x00\x01\x02", 3);
    tb b = {0};
    tb_header(&b, 0x8B, 0x03, 1, f, 1, 1, 0);
    tb_record(&b, "          1", 11);
    tb_read r;
    assert_int_equal(tb_open_scan(&r, &b, &m, "dbt", NULL), 0);
    assert_int_equal(r.src->tables[0].cols[0].type, LT_BINARY);
    assert_int_equal(r.batch->cols[0].v.bytes[0].len, 3);
    assert_memory_equal(r.batch->cols[0].v.bytes[0].ptr, "\x00\x01\x02", 3);
    tb_read_free(&r);
    tb_free(&b);
    tb_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fpt_blocks),
        cmocka_unit_test(test_fpt_block_size_one),
        cmocka_unit_test(test_fpt_past_end),
        cmocka_unit_test(test_null_memo_not_followed),
        cmocka_unit_test(test_dbt3),
        cmocka_unit_test(test_dbt4),
        cmocka_unit_test(test_binary_memo_outside_vfp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
