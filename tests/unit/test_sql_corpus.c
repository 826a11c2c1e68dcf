/*
** test_sql_corpus.c — the engine over real readers: queries on the dBASE
** files of the shared corpus, checked against their oracle CSVs.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "driver/sql/sql.h"

static lt_error err;
static char result[1 << 16];

static void format_value(char *out, size_t cap, const lt_value *v, int16_t scale)
{
    int y, m, d;
    switch (v->type) {
    case LT_NULL:    snprintf(out, cap, "NULL"); break;
    case LT_BOOL:    snprintf(out, cap, "%d", v->u.b ? 1 : 0); break;
    case LT_INT64:   snprintf(out, cap, "%lld", (long long)v->u.i64); break;
    case LT_DOUBLE:  snprintf(out, cap, "%.15g", v->u.f64); break;
    case LT_DECIMAL: {
        double x = (double)v->u.dec;
        for (int i = 0; i < scale; i++)
            x /= 10;
        snprintf(out, cap, "%.15g", x);
        break;
    }
    case LT_TEXT:    snprintf(out, cap, "%.*s", (int)v->u.bytes.len, v->u.bytes.ptr); break;
    case LT_DATE:
        lt_civil_from_days(v->u.date, &y, &m, &d);
        snprintf(out, cap, "%04d-%02d-%02d", y, m, d);
        break;
    default:         snprintf(out, cap, "?"); break;
    }
}

/* Run `sql` on `src`: rows as "a|b;c|d" in `result`, the count returned
** (-1 on error). */
static long run(lt_source *src, const char *sql)
{
    sql_stmt *st;
    sql_cursor *cur;
    long rows = 0;
    size_t len = 0;
    result[0] = '\0';
    if (sql_prepare(src, sql, strlen(sql), &st, &err) != 0)
        return -1;
    if (sql_execute(st, NULL, 0, &cur, &err) != 0) {
        sql_stmt_free(st);
        return -1;
    }
    for (;;) {
        lt_batch *b;
        if (sql_cursor_next(cur, &b, &err) != 0) {
            rows = -1;
            break;
        }
        if (b->count == 0)
            break;
        for (uint32_t r = 0; r < b->count; r++, rows++) {
            for (uint32_t c = 0; c < b->ncols; c++) {
                lt_value v;
                char cell[256];
                lt_batch_get(b, c, r, &v);
                format_value(cell, sizeof cell, &v, b->cols[c].scale);
                len += (size_t)snprintf(result + len, len < sizeof result ? sizeof result - len : 0,
                                        "%s%s", c ? "|" : (rows ? ";" : ""), cell);
            }
        }
    }
    sql_cursor_close(cur);
    sql_stmt_free(st);
    return rows;
}

#define assert_rows(src, sql, expected)                                      \
    do {                                                                     \
        if (run(src, sql) < 0)                                               \
            fail_msg("%s: %s %s", sql, err.sqlstate, err.message);           \
        if (strcmp(result, expected) != 0)                                   \
            fail_msg("%s\n  got:      %s\n  expected: %s", sql, result, expected); \
    } while (0)

static void test_dbase3_types(void **state)
{
    (void)state;
    lt_source *src;
    if (lt_source_open(LT_CORPUS_DIR "/dbf/generated/dbase3_types.dbf", NULL, &src, &err) != 0)
        fail_msg("%s", err.message);
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE QTY > 0 ORDER BY QTY DESC", "5;12;11;10;8;1");
    assert_rows(src, "SELECT id FROM DBASE3_TYPES WHERE born >= '2000-01-01'", "2;8");
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE NAME LIKE '%e%'", "1;4;6;7;8;10;11");
    assert_rows(src, "SELECT DISTINCT OK FROM dbase3_types ORDER BY OK", "NULL;0;1");
    assert_rows(src, "SELECT NAME FROM dbase3_types WHERE OK IS NULL ORDER BY ID",
                "  indented;\xC3\x9Cn\xC3\xAF" "c\xC3\xB6" "d\xC3\xA9 \xC3\x9F\xC3\x9F \xC3\xB1");
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE PRICE BETWEEN 1 AND 13", "1;8;10;11");
    assert_rows(src, "SELECT ID, RATIO FROM dbase3_types WHERE RATIO < 0", "2|-1.5");
    assert_rows(src, "SELECT ID FROM dbase3_types LIMIT 3", "1;2;4");
    assert_rows(src, "SELECT 1 FROM dbase3_types", "1;1;1;1;1;1;1;1;1;1");
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE ID = 2 OR NAME IS NULL", "2");
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE ID IN (4, 12) OR NAME = 'overflow'", "4;6;12");
    assert_rows(src, "SELECT ID * 2 + QTY FROM dbase3_types WHERE ID < 3", "3;-38");
    assert_rows(src, "SELECT NAME FROM dbase3_types WHERE NAME = ''", "");
    assert_rows(src, "SELECT ID FROM dbase3_types WHERE LONGNAME10 = ''", "4");
    lt_source_close(src);
}

/* Every table the oracle read: all its rows come back, also through the
** operators that hold rows (DISTINCT, ORDER BY). */
static void test_manifest_row_counts(void **state)
{
    (void)state;
    FILE *f = fopen(LT_CORPUS_DIR "/dbf/MANIFEST.tsv", "r");
    assert_non_null(f);
    char line[4096];
    int tables = 0;
    if (fgets(line, sizeof line, f) == NULL) /* header */
        fail_msg("empty manifest");
    while (fgets(line, sizeof line, f) != NULL) {
        char *file = strtok(line, "\t");
        char *table = strtok(NULL, "\t");
        char *csv = strtok(NULL, "\t");
        char *rows = strtok(NULL, "\t");
        if (file == NULL || table == NULL || csv == NULL || rows == NULL || strcmp(csv, "-") == 0)
            continue;
        char path[1024], sql[1200];
        snprintf(path, sizeof path, "%s/dbf/%s", LT_CORPUS_DIR, file);
        lt_source *src;
        if (lt_source_open(path, NULL, &src, &err) != 0)
            fail_msg("%s: %s", path, err.message);
        assert_true(src->ntables >= 1);
        long expected = atol(rows);
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", src->tables[0].name);
        long got = run(src, sql);
        if (got != expected)
            fail_msg("%s: %ld rows, oracle %ld (%s)", path, got, expected, err.message);
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY 1 DESC, 2", src->tables[0].name);
        if (src->tables[0].ncols >= 2 && run(src, sql) != expected)
            fail_msg("%s: ORDER BY lost rows (%s)", path, err.message);
        snprintf(sql, sizeof sql, "SELECT DISTINCT * FROM \"%s\"", src->tables[0].name);
        got = run(src, sql);
        if (got < (expected > 0) || got > expected)
            fail_msg("%s: DISTINCT gave %ld of %ld rows (%s)", path, got, expected, err.message);
        lt_source_close(src);
        tables++;
    }
    fclose(f);
    assert_true(tables > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dbase3_types),
        cmocka_unit_test(test_manifest_row_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
