/*
** test_dbf_folder.c — opening a folder of tables and single files through
** lt_source_open: table names from file stems, case-insensitive .dbf and
** companion look-up (.FPT, .cpg), broken tables listed with their error
** without spoiling the folder, missing memo files failing at scan time.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_dbf_build.h"

static char folder[256];

static void write_file(const char *name, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void remove_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    unlink(path);
}

static const char *const files[] = {
    "good.dbf", "good.cpg", "BROKEN.DBF", "memo.dbf", "memo2.dbf", "MEMO2.FPT",
    "notes.txt", "empty.Dbf",
};

static int setup(void **state)
{
    (void)state;
    snprintf(folder, sizeof folder, "/tmp/lector-dbf-folder-XXXXXX");
    assert_non_null(mkdtemp(folder));

    static const tb_field c4 = {"T", 'C', 4, 0, 0};
    tb b = {0};
    tb_header(&b, 0x03, 0x03, 1, &c4, 1, 1, 0);      /* LDID says 1252 ... */
    tb_put(&b, " \xe9t\xe9 ", 5);
    write_file("good.dbf", b.p, b.len);
    write_file("good.cpg", "1251\r\n", 6);           /* ... the .cpg wins */
    b.p[0] = 0x04;
    write_file("BROKEN.DBF", b.p, b.len);
    tb_free(&b);

    static const tb_field m = {"NOTES", 'M', 4, 0, 0};
    tb_header(&b, 0x30, 0x03, 1, &m, 1, 1, 1);
    tb_byte(&b, ' ');
    tb_le32(&b, 8);
    write_file("memo.dbf", b.p, b.len);
    write_file("memo2.dbf", b.p, b.len);
    tb_free(&b);
    tb_be32(&b, 9);
    tb_be32(&b, 64);          /* block size 64 (u16 BE at offset 6) */
    tb_zeros(&b, 504);
    tb_be32(&b, 1);
    tb_be32(&b, 5);
    tb_put(&b, "memo!", 5);
    write_file("MEMO2.FPT", b.p, b.len);
    tb_free(&b);
    write_file("notes.txt", "not a table", 11);
    tb_header(&b, 0x03, 0x03, 0, &c4, 1, 1, 0);
    write_file("empty.Dbf", b.p, b.len);
    tb_free(&b);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        remove_file(files[i]);
    rmdir(folder);
    return 0;
}

static void test_folder(void **state)
{
    (void)state;
    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_source_open(folder, NULL, &src, &err), 0);
    assert_string_equal(src->reader->name, "dbf");
    assert_int_equal(src->ntables, 5);
    /* Sorted by file name bytes: upper case first. */
    static const char *const names[] = {"BROKEN", "empty", "good", "memo", "memo2"};
    for (uint32_t i = 0; i < 5; i++)
        assert_string_equal(src->tables[i].name, names[i]);
    assert_int_equal(lt_source_find_table(src, "GOOD", 4), 2);

    /* The broken one is listed with its reason, and only it fails. */
    assert_non_null(src->tables[0].error);
    assert_non_null(strstr(src->tables[0].error, "BROKEN.DBF"));
    assert_non_null(strstr(src->tables[0].error, "dBASE 7"));
    tb_read r = {.src = src};
    assert_int_equal(tb_scan(&r, 0), -1);
    assert_string_equal(r.err.sqlstate, "HY000");
    assert_non_null(strstr(r.err.message, "BROKEN.DBF"));

    assert_null(src->tables[1].error);
    assert_int_equal(tb_scan(&r, 1), 0);
    assert_int_equal(r.batch->count, 0);

    assert_int_equal(tb_scan(&r, 2), 0);
    assert_string_equal(tb_text(&r, 0, 0), "\xd0\xb9t\xd0\xb9");    /* cp1251 via .cpg */

    /* memo.dbf has no memo file: listed with columns, fails when scanned. */
    assert_int_equal(src->tables[3].ncols, 1);
    assert_non_null(src->tables[3].error);
    assert_int_equal(tb_scan(&r, 3), -1);
    assert_non_null(strstr(r.err.message, "memo.dbf"));
    assert_non_null(strstr(r.err.message, "memo file"));
    assert_int_equal(src->reader->count_rows(src, 3, &err), -1);

    /* memo2.dbf finds MEMO2.FPT whatever the case. */
    assert_null(src->tables[4].error);
    assert_int_equal(tb_scan(&r, 4), 0);
    assert_string_equal(tb_text(&r, 0, 0), "memo!");
    lt_batch_free(r.batch);
    lt_source_close(src);
}

static void test_single_files(void **state)
{
    (void)state;
    char path[512];
    lt_source *src = NULL;
    lt_error err;
    snprintf(path, sizeof path, "%s/BROKEN.DBF", folder);
    assert_int_equal(lt_source_open(path, NULL, &src, &err), -1);
    assert_null(src);
    assert_string_equal(err.sqlstate, "HY000");
    assert_non_null(strstr(err.message, "BROKEN.DBF"));

    snprintf(path, sizeof path, "%s/nothere.dbf", folder);
    assert_int_equal(lt_source_open(path, NULL, &src, &err), -1);
    assert_string_equal(err.sqlstate, "08001");
    assert_non_null(strstr(err.message, "nothere.dbf"));

    snprintf(path, sizeof path, "%s/memo.dbf", folder);
    assert_int_equal(lt_source_open(path, NULL, &src, &err), 0);   /* open lists it */
    assert_int_equal(src->ntables, 1);
    assert_string_equal(src->tables[0].name, "memo");
    tb_read r = {.src = src};
    assert_int_equal(tb_scan(&r, 0), -1);                          /* scanning fails */
    lt_batch_free(r.batch);
    lt_source_close(src);

    snprintf(path, sizeof path, "%s/good.dbf", folder);
    assert_int_equal(lt_source_open(path, NULL, &src, &err), 0);
    assert_string_equal(src->tables[0].name, "good");
    lt_source_close(src);

    /* CodePage= beats the .cpg companion (keywords are case-insensitive). */
    lt_option opt = {"codepage", "1252"};
    lt_options opts = {1, &opt};
    assert_string_equal(lt_options_get(&opts, "CodePage"), "1252");
    assert_int_equal(lt_source_open(path, &opts, &src, &err), 0);
    r.src = src;
    r.batch = NULL;
    assert_int_equal(tb_scan(&r, 0), 0);
    assert_string_equal(tb_text(&r, 0, 0), "\xc3\xa9t\xc3\xa9");
    lt_batch_free(r.batch);
    lt_source_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folder),
        cmocka_unit_test(test_single_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
