/*
** test_common_wbcells.c — the cells a workbook's type scan keeps for its
** scans (readers/common/wbcells.c): every kind of cell reads back as it
** went in (numbers bit for bit, -0 and large integers included), rows
** that go back, texts copied or kept by reference, chunks crossed, and a
** budget that drops everything once passed.
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

#include "common/wbgrid.h"

static lt_wb_cell number(double v, uint8_t fmt)
{
    lt_wb_cell c = {0};
    c.kind = LT_WB_NUMBER;
    c.num = v;
    c.fmt = fmt;
    return c;
}

static lt_wb_cell text(const char *s, uint32_t len, uint32_t units)
{
    lt_wb_cell c = {0};
    c.kind = LT_WB_TEXT;
    c.text = s;
    c.len = len;
    c.units = units;
    return c;
}

static void same_cell(const lt_wb_cell *want, const lt_wb_cell *got)
{
    assert_int_equal(got->kind, want->kind);
    switch ((lt_wb_kind)want->kind) {
    case LT_WB_NUMBER:
        assert_int_equal(got->fmt, want->fmt);
        assert_memory_equal(&got->num, &want->num, sizeof got->num);
        break;
    case LT_WB_BOOL:
        assert_int_equal(got->b, want->b);
        break;
    case LT_WB_TEXT:
        assert_int_equal(got->len, want->len);
        assert_int_equal(got->units, want->units);
        if (want->len > 0)
            assert_memory_equal(got->text, want->text, want->len);
        break;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        break;
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    static const char stable[] = "shared strings";
    char copied[] = "caf\xC3\xA9 \xF0\x9F\x98\x80";   /* 2-byte and 4-byte sequences */
    struct { uint32_t row, col; lt_wb_cell cell; } in[20];
    size_t n = 0;
    in[n].row = 0, in[n].col = 0, in[n++].cell = number(42, 0);
    in[n].row = 0, in[n].col = 1, in[n++].cell = number(-0.0, 0);
    in[n].row = 0, in[n].col = 2, in[n++].cell = number(0.1, 0);
    in[n].row = 0, in[n].col = 7, in[n++].cell = number(4294967296.0, 0);
    in[n].row = 3, in[n].col = 0, in[n++].cell = number(-2147483648.0, LT_WB_FMT_DATE);
    in[n].row = 3, in[n].col = 1, in[n++].cell = number(NAN, LT_WB_FMT_DATE | LT_WB_FMT_TIME);
    in[n].row = 3, in[n].col = 2, in[n].cell = (lt_wb_cell){0};
    in[n].cell.kind = LT_WB_BOOL, in[n++].cell.b = true;
    in[n].row = 3, in[n].col = 3, in[n].cell = (lt_wb_cell){0};
    in[n++].cell.kind = LT_WB_BOOL;
    in[n].row = 3, in[n].col = 4, in[n].cell = (lt_wb_cell){0};
    in[n++].cell.kind = LT_WB_ERROR;
    in[n].row = 2, in[n].col = 16383, in[n++].cell = text(stable + 7, 7, 7);     /* a row back */
    in[n].row = 1048575, in[n].col = 5, in[n++].cell = text(copied, (uint32_t)strlen(copied), 7);
    in[n].row = 1048575, in[n].col = 6, in[n++].cell = text(NULL, 0, 0);
    in[n].row = 0, in[n].col = 0, in[n++].cell = text("", 0, 0);
    in[n].row = UINT32_MAX, in[n].col = UINT32_MAX, in[n++].cell = number(1, 0);
    in[n].row = 0, in[n].col = 0, in[n++].cell = number(2, 0);     /* row and column wrap round */

    lt_wb_cells c;
    lt_wb_cells_init(&c, LT_WB_CELLS_BUDGET);
    c.stable = stable;
    c.stable_end = stable + sizeof stable - 1;
    for (size_t i = 0; i < n; i++)
        assert_true(lt_wb_cells_add(&c, in[i].row, in[i].col, &in[i].cell));
    /* A copied text no longer depends on the cell's. */
    static const char original[] = "caf\xC3\xA9 \xF0\x9F\x98\x80";
    memset(copied, 'x', sizeof copied - 1);
    in[10].cell.text = original;

    lt_wb_cells_pos pos;
    lt_wb_cells_begin(&c, &pos);
    for (size_t i = 0; i < n; i++) {
        uint32_t row, col;
        lt_wb_cell got;
        assert_true(lt_wb_cells_next(&pos, &row, &col, &got));
        assert_int_equal(row, in[i].row);
        assert_int_equal(col, in[i].col);
        same_cell(&in[i].cell, &got);
        if (i == 9)
            assert_ptr_equal(got.text, stable + 7);        /* by reference */
        if (i == 10)
            assert_ptr_not_equal(got.text, copied);        /* a copy */
    }
    uint32_t row, col;
    lt_wb_cell got;
    assert_false(lt_wb_cells_next(&pos, &row, &col, &got));
    assert_false(c.over);
    lt_wb_cells_free(&c);
}

/* Enough cells to fill several chunks, one text larger than a chunk; a
** copied position reads the same cell again (how a scan peeks). */
static void test_chunks(void **state)
{
    (void)state;
    size_t big_len = (size_t)3 << 20;
    char *big = malloc(big_len);
    assert_non_null(big);
    memset(big, 'b', big_len);
    lt_wb_cells c;
    lt_wb_cells_init(&c, LT_WB_CELLS_BUDGET);
    char buf[32];
    for (uint32_t r = 0; r < 200000; r++) {
        lt_wb_cell n = number(r * 0.5, 0);
        size_t len = (size_t)snprintf(buf, sizeof buf, "row %u", (unsigned)r);
        lt_wb_cell t = text(buf, (uint32_t)len, (uint32_t)len);
        assert_true(lt_wb_cells_add(&c, r, 0, &n));
        assert_true(lt_wb_cells_add(&c, r, 1, &t));
        if (r == 100000) {
            lt_wb_cell b = text(big, (uint32_t)big_len, (uint32_t)big_len);
            assert_true(lt_wb_cells_add(&c, r, 2, &b));
        }
    }
    lt_wb_cells_pos pos;
    lt_wb_cells_begin(&c, &pos);
    for (uint32_t r = 0; r < 200000; r++) {
        uint32_t row, col;
        lt_wb_cell got;
        lt_wb_cells_pos at = pos;
        assert_true(lt_wb_cells_next(&pos, &row, &col, &got));
        assert_int_equal(row, r);
        assert_int_equal(col, 0);
        assert_true(got.num == r * 0.5);
        pos = at;                       /* again, from the copy */
        assert_true(lt_wb_cells_next(&pos, &row, &col, &got));
        assert_true(got.num == r * 0.5);
        assert_true(lt_wb_cells_next(&pos, &row, &col, &got));
        size_t len = (size_t)snprintf(buf, sizeof buf, "row %u", (unsigned)r);
        assert_int_equal(col, 1);
        assert_int_equal(got.len, len);
        assert_memory_equal(got.text, buf, len);
        if (r == 100000) {
            assert_true(lt_wb_cells_next(&pos, &row, &col, &got));
            assert_int_equal(col, 2);
            assert_int_equal(got.len, big_len);
            assert_memory_equal(got.text, big, big_len);
        }
    }
    uint32_t row, col;
    lt_wb_cell got;
    assert_false(lt_wb_cells_next(&pos, &row, &col, &got));
    assert_true(c.bytes > big_len);
    lt_wb_cells_free(&c);
    free(big);
}

/* Past the budget: nothing kept, nothing read back, later adds refused. */
static void test_budget(void **state)
{
    (void)state;
    lt_wb_cells c;
    lt_wb_cells_init(&c, (size_t)2 << 20);
    bool ok = true;
    uint32_t r = 0;
    for (; ok && r < 10000000; r++) {
        lt_wb_cell n = number(r + 0.25, 0);
        ok = lt_wb_cells_add(&c, r, 0, &n);
    }
    assert_false(ok);
    assert_true(r > 50000);             /* 11 bytes a cell, in 1 MiB chunks */
    assert_true(c.over);
    assert_int_equal(c.bytes, 0);
    lt_wb_cell n = number(1, 0);
    assert_false(lt_wb_cells_add(&c, 0, 0, &n));
    lt_wb_cells_pos pos;
    uint32_t row, col;
    lt_wb_cell got;
    lt_wb_cells_begin(&c, &pos);
    assert_false(lt_wb_cells_next(&pos, &row, &col, &got));
    lt_wb_cells_free(&c);

    /* A budget of nothing keeps nothing. */
    lt_wb_cells_init(&c, 0);
    assert_false(lt_wb_cells_add(&c, 0, 0, &n));
    assert_true(c.over);
    lt_wb_cells_free(&c);
}

static size_t budget_of(const lt_options *opts)
{
    size_t bytes = 1;
    lt_error err = {0};
    assert_int_equal(lt_wb_cells_budget(opts, &bytes, &err), 0);
    return bytes;
}

static void budget_refused(const lt_options *opts)
{
    size_t bytes;
    lt_error err = {0};
    assert_int_equal(lt_wb_cells_budget(opts, &bytes, &err), -1);
    assert_string_equal(err.sqlstate, "08001");
    assert_non_null(strstr(err.message, "CellCacheMB="));
}

static void test_type_rows_option(void **state)
{
    (void)state;
    lt_option o[1] = {{"TypeGuessRows", "8"}};
    lt_options opts = {1, o};
    uint32_t rows = 0;
    lt_error err = {0};
    assert_int_equal(lt_wb_type_rows(&opts, &rows, &err), 0);
    assert_int_equal(rows, 8);
    o[0].value = "abc";
    assert_int_equal(lt_wb_type_rows(&opts, &rows, &err), -1);
    assert_string_equal(err.sqlstate, "08001");
    assert_non_null(strstr(err.message, "TypeGuessRows=abc"));
}

static void test_budget_option(void **state)
{
    (void)state;
    lt_option o[1] = {{"CellCacheMB", "8"}};
    lt_options opts = {1, o};
    assert_int_equal(budget_of(&opts), (size_t)8 << 20);
    o[0].value = "0";
    assert_int_equal(budget_of(&opts), 0);
    o[0].value = "99999999999999999999";
    assert_int_equal(budget_of(&opts), SIZE_MAX);
    o[0].value = "-1";
    budget_refused(&opts);
    o[0].value = "12x";
    budget_refused(&opts);
    o[0].value = "";
    budget_refused(&opts);
    lt_options none = {0, NULL};
    assert_int_equal(budget_of(&none), LT_WB_CELLS_BUDGET);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_budget_option),
        cmocka_unit_test(test_type_rows_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
