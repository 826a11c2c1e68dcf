/*
** test_access_links.c — linked tables: followed when the target file is
** found beside the database (the corpus's linked.mdb stores C:\db\linkee1.mdb),
** a clear error naming the target otherwise, and a link cycle that ends.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access/access.h"
#include "support/corpus.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"

/* The README's rules alone: dates compare as text, booleans as 1/0. */
static const ts_rules access_rules = {0, 0};

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = ts_slurp(from, &len);
    assert_non_null(data);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    free(data);
}

static int64_t find(const lt_source *src, const char *name)
{
    for (uint32_t i = 0; i < src->ntables; i++)
        if (strcmp(src->tables[i].name, name) == 0)
            return i;
    return -1;
}

static void test_follow(void **state)
{
    (void)state;
    char dir[] = "/tmp/lector-links-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char linked[512], linkee[512];
    snprintf(linked, sizeof linked, "%s/linked.mdb", dir);
    snprintf(linkee, sizeof linkee, "%s/linkee1.mdb", dir);
    copy_file(ACCESS_DIR "/linked.mdb", linked);
    copy_file(ACCESS_DIR "/testV1997.mdb", linkee);

    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_access_reader.open(linked, NULL, &src, &err), 0);
    int64_t t1 = find(src, "Table1"), t2 = find(src, "table2");
    assert_true(t1 >= 0 && t2 >= 0);
    assert_string_equal(src->tables[t1].kind, "LINK");
    assert_null(src->tables[t1].error);
    assert_int_equal(src->tables[t1].ncols, 9);
    assert_non_null(src->tables[t2].error);
    assert_non_null(strstr(src->tables[t2].error, "linkee2.mdb"));

    ts_result res;
    memset(&res, 0, sizeof res);
    ts_scan(src, (uint32_t)t1, 1, &res);
    assert_true(res.ok);
    size_t len;
    char *text = ts_slurp(ACCESS_DIR "/csv/testV1997.Table1.csv", &len);
    assert_non_null(text);
    ts_csv oracle;
    ts_csv_parse(text, len, &oracle);
    free(text);
    char why[2048];
    if (!ts_compare_multiset(&res, &oracle, &access_rules, why, sizeof why)) {
        printf("%s\n", why);
        fail();
    }
    ts_csv_free(&oracle);
    ts_result_free(&res);
    assert_int_equal(src->reader->count_rows(src, (uint32_t)t1, &err), 2);
    src->reader->close(src);

    /* a cycle: linkee1.mdb is linked.mdb itself; opening ends, the link fails */
    copy_file(ACCESS_DIR "/linked.mdb", linkee);
    assert_int_equal(lt_access_reader.open(linked, NULL, &src, &err), 0);
    t1 = find(src, "Table1");
    assert_non_null(src->tables[t1].error);
    src->reader->close(src);

    unlink(linked);
    unlink(linkee);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
