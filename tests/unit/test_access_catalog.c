/*
** test_access_catalog.c — what the Access reader says about tables: kinds
** (TABLE, SYSTEM TABLE, VIEW, LINK), column types, sizes and type names,
** indexes and primary keys, nullability, and count_rows.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/access.h"
#include "reader.h"
#include "support/corpus.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"

static lt_source *open_file(const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, file);
    return ts_open(&lt_access_reader, path, NULL);
}

static const lt_table *table(const lt_source *src, const char *name)
{
    for (uint32_t i = 0; i < src->ntables; i++)
        if (strcmp(src->tables[i].name, name) == 0)
            return &src->tables[i];
    printf("no table %s\n", name);
    fail();
    return NULL;
}

static void test_probe(void **state)
{
    (void)state;
    static const uint8_t jet[20] = "\x00\x01\x00\x00Standard Jet DB";
    static const uint8_t ace[20] = "\x00\x01\x00\x00Standard ACE DB";
    assert_int_equal(lt_access_reader.probe(jet, 20, "x.mdb"), 100);
    assert_int_equal(lt_access_reader.probe(ace, 20, "x.bin"), 100);
    assert_int_equal(lt_access_reader.probe((const uint8_t *)"SQLite format 3", 16, "x.db"), 0);
    assert_true(lt_access_reader.probe((const uint8_t *)"garbage", 7, "x.accdb") > 0);
    assert_int_equal(lt_access_reader.probe(NULL, 0, "/tmp"), 0);
}

static void test_kinds(void **state)
{
    (void)state;
    lt_source *src = open_file("ASampleDatabase.accdb");
    assert_string_equal(table(src, "Asset Items")->kind, "TABLE");
    assert_null(table(src, "Asset Items")->error);
    const lt_table *v = table(src, "qryCostsSummedByOwner");
    assert_string_equal(v->kind, "VIEW");
    assert_null(v->error);
    assert_non_null(v->query);   /* its SQL: test_access_query.c */
    const lt_table *sys = table(src, "MSysObjects");
    assert_string_equal(sys->kind, "SYSTEM TABLE");
    /* reports and forms are not tables or links */
    for (uint32_t i = 0; i < src->ntables; i++)
        assert_true(strncmp(src->tables[i].name, "rpt", 3) != 0);
    /* a system table reads like any other */
    int64_t n = src->reader->count_rows(src, (uint32_t)(sys - src->tables), NULL);
    assert_true(n > 10);
    lt_error err;
    assert_int_equal(src->reader->count_rows(src, (uint32_t)(v - src->tables), &err), -1);
    src->reader->close(src);

    src = open_file("linked.mdb");
    const lt_table *l = table(src, "Table1");
    assert_string_equal(l->kind, "LINK");
    assert_non_null(strstr(l->error, "linkee1.mdb"));
    src->reader->close(src);
}

static void test_columns(void **state)
{
    (void)state;
    lt_source *src = open_file("testV2010.accdb");
    const lt_table *t = table(src, "Table1");
    assert_int_equal(t->ncols, 9);
    static const struct {
        const char *name;
        lt_type type;
        uint32_t size;
        int16_t scale;
        const char *type_name;
    } want[] = {
        {"A", LT_TEXT, 50, 0, "VARCHAR"},      {"B", LT_TEXT, 100, 0, "VARCHAR"},
        {"C", LT_INT64, 3, 0, "BYTE"},         {"D", LT_INT64, 5, 0, "SMALLINT"},
        {"E", LT_INT64, 10, 0, "INTEGER"},     {"F", LT_DOUBLE, 15, 0, "DOUBLE"},
        {"G", LT_TIMESTAMP, 23, 3, "DATETIME"}, {"H", LT_DECIMAL, 19, 4, "CURRENCY"},
        {"I", LT_BOOL, 1, 0, "BIT"},
    };
    for (uint32_t c = 0; c < 9; c++) {
        assert_string_equal(t->cols[c].name, want[c].name);
        assert_int_equal(t->cols[c].type, want[c].type);
        assert_int_equal(t->cols[c].size, want[c].size);
        assert_int_equal(t->cols[c].scale, want[c].scale);
        assert_string_equal(t->cols[c].type_name, want[c].type_name);
    }
    /* the primary key is on A; B has a plain index */
    int pk = 0;
    for (uint32_t k = 0; k < t->nindexes; k++) {
        const lt_index *ix = &t->indexes[k];
        if (ix->primary) {
            pk++;
            assert_true(ix->unique);
            assert_int_equal(ix->ncols, 1);
            assert_int_equal(ix->cols[0], 0);
        } else {
            assert_string_equal(ix->name, "B");
            assert_int_equal(ix->cols[0], 1);
        }
    }
    assert_int_equal(pk, 1);
    assert_false(t->cols[0].nullable);     /* in the primary key */
    assert_true(t->cols[1].nullable);
    assert_false(t->cols[8].nullable);     /* Yes/No */
    assert_int_equal(t->row_estimate, 2);
    src->reader->close(src);

    src = open_file("fixedNumericTestV2000.mdb");
    t = table(src, "test");
    assert_int_equal(t->cols[1].type, LT_DECIMAL);
    assert_int_equal(t->cols[1].size, 18);
    assert_true(t->cols[0].is_long);
    src->reader->close(src);

    src = open_file("extDateTestV2019.accdb");
    t = table(src, "Table1");
    assert_string_equal(t->cols[0].type_name, "COUNTER");
    assert_string_equal(t->cols[2].type_name, "DATETIME2");
    assert_int_equal(t->cols[2].scale, 6);
    src->reader->close(src);

    src = open_file("complexDataTestV2010.accdb");
    t = table(src, "Table1");
    assert_string_equal(t->cols[1].type_name, "VERSIONHISTORY");
    assert_string_equal(t->cols[4].type_name, "MULTIVALUE");
    assert_string_equal(t->cols[5].type_name, "ATTACHMENT");
    assert_int_equal(t->cols[5].type, LT_TEXT);
    src->reader->close(src);

    src = open_file("bigint.accdb");
    t = table(src, "Table");
    assert_string_equal(t->cols[1].type_name, "BIGINT");
    assert_int_equal(t->cols[1].size, 19);
    src->reader->close(src);
}

/* Only the wanted columns, in the asked order, and 1-row batches. */
static void test_projection(void **state)
{
    (void)state;
    lt_source *src = open_file("testV2010.accdb");
    const lt_table *t = table(src, "Table1");
    uint32_t ti = (uint32_t)(t - src->tables);
    uint32_t cols[2] = {7, 0};
    lt_type types[2] = {LT_DECIMAL, LT_TEXT};
    int16_t scales[2] = {4, 0};
    lt_scan_spec spec = {.table = ti, .ncols = 2, .cols = cols, .limit = -1};
    lt_batch *b = lt_batch_new(2, types, scales, 1);
    lt_scan *scan;
    lt_error err;
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
    int rows = 0, found = 0;
    while (src->reader->scan_next(scan, b, &err) == 0 && b->count > 0) {
        rows++;
        if (b->cols[1].v.bytes[0].len == 7 && memcmp(b->cols[1].v.bytes[0].ptr, "abcdefg", 7) == 0) {
            assert_true(b->cols[0].v.dec[0] == 35000);   /* 3.5 with scale 4 */
            found++;
        }
    }
    assert_int_equal(rows, 2);
    assert_int_equal(found, 1);
    src->reader->scan_close(scan);
    /* a column beyond the table */
    cols[0] = 99;
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), -1);
    lt_batch_free(b);
    src->reader->close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_projection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
