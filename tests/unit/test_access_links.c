/*
** test_access_links.c — linked tables: followed when the target file is
** found beside the database (the corpus's linked.mdb stores C:\db\linkee1.mdb),
** a clear error naming the target otherwise, and a link cycle that ends;
** a link carries its target's foreign keys (databases written by the
** bench's mdbwrite, LT_MDBWRITE, which writes links with #link).
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

/* Write `rows` (mdbwrite's input) as the Access file `out`. */
static void mdbwrite(const char *dir, const char *rows, const char *out)
{
    char input[512], cmd[2048];
    snprintf(input, sizeof input, "%s/rows.txt", dir);
    FILE *f = fopen(input, "w");
    assert_non_null(f);
    fputs(rows, f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "'%s' '%s' < '%s'", LT_MDBWRITE, out, input);
    assert_int_equal(system(cmd), 0);
    unlink(input);
}

static const lt_foreign_key *key_named(const lt_table *t, const char *name)
{
    for (uint32_t k = 0; k < t->nforeign; k++)
        if (t->foreign[k].name != NULL && strcmp(t->foreign[k].name, name) == 0)
            return &t->foreign[k];
    return NULL;
}

/* A link carries its target's foreign keys, the referenced tables named as
** the linking database names them. */
static void test_link_keys(void **state)
{
    (void)state;
    char dir[] = "/tmp/lector-linkkeys-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char target[512], local[512], rows[2048];
    snprintf(target, sizeof target, "%s/target.mdb", dir);
    snprintf(local, sizeof local, "%s/local.mdb", dir);
    /* Child refers to Parent (cascades), Grand (no integrity) and Other (SET NULL) */
    mdbwrite(dir,
             "#table Parent pid:long name:text:20\n1\tp\n"
             "#table Child cid:long pid:long gid:long oid:long\n1\t1\t\\N\t\\N\n"
             "#table Grand id:long\n"
             "#table Other x:long\n"
             "#table MSysRelationships szRelationship:text:64 grbit:long ccolumn:long icolumn:long "
             "szObject:text:64 szColumn:text:64 szReferencedObject:text:64 szReferencedColumn:text:64\n"
             "ParentChild\t4352\t1\t0\tChild\tpid\tParent\tpid\n"
             "GrandChild\t2\t1\t0\tChild\tgid\tGrand\tid\n"
             "OtherChild\t8192\t1\t0\tChild\toid\tOther\tx\n",
             target);
    /* the linking database: Kids and Mom link Child and Parent; its own
    ** Other is another table than the target's */
    snprintf(rows, sizeof rows, "#link Kids %s Child\n#link Mom %s Parent\n#table Other y:long\n",
             target, target);
    mdbwrite(dir, rows, local);

    lt_source *src = NULL;
    lt_error err;
    assert_int_equal(lt_access_reader.open(target, NULL, &src, &err), 0);
    int64_t child = find(src, "Child");
    assert_true(child >= 0);
    assert_int_equal(src->tables[child].nforeign, 3);   /* the target itself */
    src->reader->close(src);

    assert_int_equal(lt_access_reader.open(local, NULL, &src, &err), 0);
    int64_t kids = find(src, "Kids"), mom = find(src, "Mom");
    assert_true(kids >= 0 && mom >= 0);
    const lt_table *t = &src->tables[kids];
    assert_string_equal(t->kind, "LINK");
    assert_null(t->error);
    assert_int_equal(t->ncols, 4);
    assert_int_equal(t->nforeign, 2);
    const lt_foreign_key *fk = key_named(t, "ParentChild");
    assert_non_null(fk);
    assert_string_equal(fk->ref_table, "Mom");          /* the link's name */
    assert_int_equal(fk->ncols, 1);
    assert_int_equal(fk->cols[0], 1);                   /* Kids.pid */
    assert_string_equal(fk->ref_cols[0], "pid");
    assert_int_equal(fk->update_rule, 0);               /* SQL_CASCADE */
    assert_int_equal(fk->delete_rule, 0);
    fk = key_named(t, "GrandChild");
    assert_non_null(fk);
    assert_string_equal(fk->ref_table, "Grand");        /* not here: the target's name */
    assert_int_equal(fk->cols[0], 2);
    assert_int_equal(fk->update_rule, 3);               /* SQL_NO_ACTION */
    assert_int_equal(fk->delete_rule, 3);
    assert_null(key_named(t, "OtherChild"));            /* Other is another table here */
    assert_int_equal(src->tables[mom].nforeign, 0);
    assert_int_equal(src->reader->count_rows(src, (uint32_t)kids, &err), 1);
    src->reader->close(src);

    /* the target missing: the links fail, with no keys */
    unlink(target);
    assert_int_equal(lt_access_reader.open(local, NULL, &src, &err), 0);
    kids = find(src, "Kids");
    assert_non_null(src->tables[kids].error);
    assert_int_equal(src->tables[kids].nforeign, 0);
    src->reader->close(src);

    unlink(local);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow),
        cmocka_unit_test(test_link_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
