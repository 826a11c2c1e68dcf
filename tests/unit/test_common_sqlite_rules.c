/*
** test_common_sqlite_rules.c — readers/common/sqlite_rules.c: the
** affinity of a declared type, REAL as SQLite writes it as text, and text
** SQLite reads as a number.  Expected values are what sqlite3 gives
** (typeof(), CAST(x AS TEXT), x + 0).
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/sqlite_rules.h"

static uint8_t aff(const char *type)
{
    return lt_sqlite_affinity(type, strlen(type));
}

static void test_affinity(void **state)
{
    (void)state;
    assert_int_equal(aff("INTEGER"), LT_SQLITE_AFF_INTEGER);
    assert_int_equal(aff("bigint"), LT_SQLITE_AFF_INTEGER);
    assert_int_equal(aff("VARCHAR(10)"), LT_SQLITE_AFF_TEXT);
    assert_int_equal(aff("CLOB"), LT_SQLITE_AFF_TEXT);
    assert_int_equal(aff("BLOB"), LT_SQLITE_AFF_BLOB);
    assert_int_equal(aff(""), LT_SQLITE_AFF_BLOB);
    assert_int_equal(lt_sqlite_affinity(NULL, 0), LT_SQLITE_AFF_BLOB);
    assert_int_equal(aff("DOUBLE PRECISION"), LT_SQLITE_AFF_REAL);
    assert_int_equal(aff("DOUB"), LT_SQLITE_AFF_REAL);
    assert_int_equal(aff("real"), LT_SQLITE_AFF_REAL);
    /* the 'int' in 'point' wins over 'floa' */
    assert_int_equal(aff("FLOATING POINT"), LT_SQLITE_AFF_INTEGER);
    /* 'char' first, then 'int': int wins at once */
    assert_int_equal(aff("CHARINT"), LT_SQLITE_AFF_INTEGER);
    assert_int_equal(aff("DECIMAL(10,2)"), LT_SQLITE_AFF_NUMERIC);
    assert_int_equal(aff("DATETIME"), LT_SQLITE_AFF_NUMERIC);
    /* text seen first: a later blob or real does not override it */
    assert_int_equal(aff("TEXTBLOB"), LT_SQLITE_AFF_TEXT);
    assert_int_equal(aff("REALBLOB"), LT_SQLITE_AFF_BLOB);
    assert_int_equal(aff("BLOBREAL"), LT_SQLITE_AFF_BLOB);
    /* only the first len bytes count */
    assert_int_equal(lt_sqlite_affinity("TEXTINT", 4), LT_SQLITE_AFF_TEXT);
}

static void check_real(double r, const char *want)
{
    char buf[LT_SQLITE_REAL_TEXT_MAX];
    size_t n = lt_sqlite_real_text(r, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void test_real_text(void **state)
{
    (void)state;
    check_real(2.0, "2.0");
    check_real(-0.5, "-0.5");
    check_real(0.1, "0.1");
    check_real(1e20, "1.0e+20");
    check_real(1.5e-7, "1.5e-07");
    check_real(123456789012345678.0, "1.23456789012346e+17");
    check_real(-1.2345678901234567e-308, "-1.23456789012346e-308");
    check_real(NAN, "NaN");
    check_real(INFINITY, "Inf");
    check_real(-INFINITY, "-Inf");
    char small[8] = "xxxxxxx";
    assert_int_equal(lt_sqlite_real_text(1.0, small, sizeof small), 0);
    assert_string_equal(small, "");
}

static void test_text_number(void **state)
{
    (void)state;
    int64_t i = 0;
    double r = 0;
#define NUM(s) lt_sqlite_text_number((s), strlen(s), &i, &r)
    assert_int_equal(NUM(" 12 "), 1);
    assert_int_equal(i, 12);
    assert_int_equal(NUM("-7"), 1);
    assert_int_equal(i, -7);
    assert_int_equal(NUM("+0"), 1);
    assert_int_equal(i, 0);
    assert_int_equal(NUM("9223372036854775807"), 1);
    assert_true(i == INT64_MAX);
    assert_int_equal(NUM("-9223372036854775808"), 1);
    assert_true(i == INT64_MIN);
    assert_int_equal(NUM("9223372036854775808"), 2);   /* too big: a real */
    assert_true(r == 9223372036854775808.0);
    assert_int_equal(NUM("1e2"), 2);
    assert_true(r == 100.0);
    assert_int_equal(NUM("\t1.5\n"), 2);
    assert_true(r == 1.5);
    assert_int_equal(NUM(".5"), 2);
    assert_true(r == 0.5);
    assert_int_equal(NUM("3."), 2);
    assert_true(r == 3.0);
    assert_int_equal(NUM("-2.5E-3"), 2);
    assert_true(r == -0.0025);
    assert_int_equal(NUM("12x"), 0);
    assert_int_equal(NUM("1 2"), 0);
    assert_int_equal(NUM(""), 0);
    assert_int_equal(NUM("   "), 0);
    assert_int_equal(NUM("."), 0);
    assert_int_equal(NUM("-"), 0);
    assert_int_equal(NUM("1e"), 0);
    assert_int_equal(NUM("1e+"), 0);
    assert_int_equal(NUM("e5"), 0);
    assert_int_equal(NUM("0x10"), 0);
    assert_int_equal(NUM("Inf"), 0);
    assert_int_equal(NUM("NaN"), 0);
#undef NUM
    /* only n bytes are read: no NUL needed after them */
    assert_int_equal(lt_sqlite_text_number("42abc", 2, &i, &r), 1);
    assert_int_equal(i, 42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_affinity),
        cmocka_unit_test(test_real_text),
        cmocka_unit_test(test_text_number),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
