/*
** test_sql_value.c — reading numbers, dates and times from text, decimal
** helpers and single-value conversions (driver/sql/value.c).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/datetime.h"
#include "driver/sql/value.h"

static bool number(const char *s, lt_value *v)
{
    return sql_parse_number(s, strlen(s), v);
}

static void test_numbers(void **state)
{
    (void)state;
    lt_value v;
    assert_true(number("42", &v));
    assert_int_equal(v.type, LT_INT64);
    assert_int_equal(v.u.i64, 42);
    assert_true(number("  -7 ", &v));
    assert_int_equal(v.u.i64, -7);
    assert_true(number("+0", &v));
    assert_int_equal(v.u.i64, 0);
    assert_true(number("-9223372036854775808", &v));
    assert_int_equal(v.type, LT_INT64);
    assert_true(v.u.i64 == INT64_MIN);
    assert_true(number("9223372036854775808", &v));
    assert_int_equal(v.type, LT_DECIMAL);
    assert_int_equal(v.scale, 0);
    assert_true(number("1.50", &v));
    assert_int_equal(v.type, LT_DECIMAL);
    assert_int_equal(v.scale, 2);
    assert_true(v.u.dec == 150);
    assert_true(number("-.5", &v));
    assert_true(v.u.dec == -5 && v.scale == 1);
    assert_true(number("7.", &v));
    assert_true(v.type == LT_DECIMAL && v.u.dec == 7 && v.scale == 0);
    assert_true(number("0.000001", &v));
    assert_true(v.u.dec == 1 && v.scale == 6);
    assert_true(number("12345678901234567890123456789012345678", &v)); /* 38 digits */
    assert_int_equal(v.type, LT_DECIMAL);
    assert_true(number("123456789012345678901234567890123456789", &v)); /* 39 */
    assert_int_equal(v.type, LT_DOUBLE);
    assert_true(number("1e3", &v));
    assert_true(v.type == LT_DOUBLE && v.u.f64 == 1000);
    assert_true(number("-2.5E-1", &v));
    assert_true(v.u.f64 == -0.25);
    assert_false(number("", &v));
    assert_false(number(" ", &v));
    assert_false(number(".", &v));
    assert_false(number("1e", &v));
    assert_false(number("1e+", &v));
    assert_false(number("12a", &v));
    assert_false(number("--1", &v));
    assert_false(number("1 2", &v));
    assert_false(number("1e999", &v));
}

static void test_dates_and_times(void **state)
{
    (void)state;
    int32_t d;
    int64_t t;
    assert_true(sql_parse_date("1970-01-01", 10, &d));
    assert_int_equal(d, 0);
    assert_true(sql_parse_date(" 2000-2-29 ", 11, &d));
    assert_int_equal(d, lt_days_from_civil(2000, 2, 29));
    assert_false(sql_parse_date("1900-02-29", 10, &d));
    assert_false(sql_parse_date("2020-13-01", 10, &d));
    assert_false(sql_parse_date("20-01-01", 8, &d));
    assert_false(sql_parse_date("2020-01-01x", 11, &d));
    assert_true(sql_parse_time("12:34", 5, &t));
    assert_true(t == (12 * 3600 + 34 * 60) * INT64_C(1000000));
    assert_true(sql_parse_time("23:59:59.5", 10, &t));
    assert_true(t == INT64_C(86399500000));
    assert_true(sql_parse_time("00:00:00.123456789", 18, &t));
    assert_true(t == 123456);
    assert_false(sql_parse_time("24:00:00", 8, &t));
    assert_false(sql_parse_time("12:60", 5, &t));
    assert_false(sql_parse_time("12:00:00.", 9, &t));
    assert_false(sql_parse_time("12:00:00.1234567890", 19, &t));
    assert_true(sql_parse_timestamp("1970-01-02 00:00:01", 19, &t));
    assert_true(t == LT_USEC_PER_DAY + 1000000);
    assert_true(sql_parse_timestamp("1970-01-02T00:00", 16, &t));
    assert_true(t == LT_USEC_PER_DAY);
    assert_true(sql_parse_timestamp("1969-12-31", 10, &t));
    assert_true(t == -LT_USEC_PER_DAY);
    assert_false(sql_parse_timestamp("1970-01-02 25:00", 16, &t));
    assert_false(sql_parse_timestamp("1970-01-02  10:00", 17, &t));
}

static void test_bool_and_guid(void **state)
{
    (void)state;
    bool b;
    assert_true(sql_parse_bool("TRUE", 4, &b) && b);
    assert_true(sql_parse_bool(" no", 3, &b) && !b);
    assert_true(sql_parse_bool("1", 1, &b) && b);
    assert_true(sql_parse_bool("off", 3, &b) && !b);
    assert_false(sql_parse_bool("2", 1, &b));
    assert_false(sql_parse_bool("", 0, &b));
    lt_guid g;
    const char *s = "{6F9619FF-8B86-D011-B42D-00C04FC964FF}";
    assert_true(sql_parse_guid(s, strlen(s), &g));
    assert_true(g.data1 == 0x6F9619FF && g.data2 == 0x8B86 && g.data3 == 0xD011);
    assert_true(g.data4[0] == 0xB4 && g.data4[7] == 0xFF);
    assert_true(sql_parse_guid(s + 1, 36, &g));
    assert_false(sql_parse_guid(s + 1, 35, &g));
    assert_false(sql_parse_guid("6F9619FF+8B86-D011-B42D-00C04FC964FF", 36, &g));
    assert_false(sql_parse_guid("6F9619FG-8B86-D011-B42D-00C04FC964FF", 36, &g));
}

static void test_decimals(void **state)
{
    (void)state;
    lt_int128 m;
    assert_int_equal(sql_decimal_digits(0), 1);
    assert_int_equal(sql_decimal_digits(-999), 3);
    assert_int_equal(sql_decimal_digits(SQL_DEC_MAX), 38);
    assert_int_equal(sql_decimal_rescale(125, 2, 4, &m), 0);
    assert_true(m == 12500);
    assert_int_equal(sql_decimal_rescale(125, 2, 1, &m), 0);
    assert_true(m == 13);  /* 1.25 -> 1.3: half away from zero */
    assert_int_equal(sql_decimal_rescale(-125, 2, 1, &m), 0);
    assert_true(m == -13);
    assert_int_equal(sql_decimal_rescale(-124, 2, 0, &m), 0);
    assert_true(m == -1);
    assert_int_equal(sql_decimal_rescale(SQL_DEC_MAX, 0, 1, &m), -1);
    assert_true(sql_decimal_rescale_sat(SQL_DEC_MAX, 0, 5) > SQL_DEC_MAX);
    assert_true(sql_decimal_rescale_sat(-SQL_DEC_MAX, 0, 5) < -SQL_DEC_MAX);
    assert_true(sql_decimal_to_double(-12345, 2) == -123.45);
    assert_true(sql_decimal_to_double(1, 30) == 1e-30);
}

static void test_convert(void **state)
{
    (void)state;
    lt_value in, out;
    lt_error err;
    in = (lt_value){.type = LT_TEXT, .u.bytes = {"12", 2}};
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), 0);
    assert_true(out.type == LT_INT64 && out.u.i64 == 12);
    assert_int_equal(sql_convert_value(&in, LT_DECIMAL, 3, &out, &err), 0);
    assert_true(out.type == LT_DECIMAL && out.u.dec == 12000 && out.scale == 3);
    in.u.bytes = (lt_bytes){"1.5", 3};
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), -1);
    assert_string_equal(err.sqlstate, "22018");
    in.u.bytes = (lt_bytes){"2.0", 3};
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), 0);
    assert_int_equal(out.u.i64, 2);
    in.u.bytes = (lt_bytes){"99999999999999999999", 20};
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), -1);
    assert_string_equal(err.sqlstate, "22003");
    in.u.bytes = (lt_bytes){"2020-01-02 00:00:00", 19};
    assert_int_equal(sql_convert_value(&in, LT_DATE, 0, &out, &err), 0);
    assert_int_equal(out.u.date, lt_days_from_civil(2020, 1, 2));
    in.u.bytes = (lt_bytes){"2020-01-02 10:00:00", 19};
    assert_int_equal(sql_convert_value(&in, LT_DATE, 0, &out, &err), -1);
    assert_string_equal(err.sqlstate, "22007");
    in = (lt_value){.type = LT_DOUBLE, .u.f64 = 2.675};
    assert_int_equal(sql_convert_value(&in, LT_DECIMAL, 1, &out, &err), 0);
    assert_true(out.u.dec == 27);
    in.u.f64 = 1e300;
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), -1);
    assert_string_equal(err.sqlstate, "22003");
    in = (lt_value){.type = LT_DATE, .u.date = 1};
    assert_int_equal(sql_convert_value(&in, LT_TIMESTAMP, 0, &out, &err), 0);
    assert_true(out.u.i64 == LT_USEC_PER_DAY);
    assert_int_equal(sql_convert_value(&in, LT_INT64, 0, &out, &err), -1);
    assert_string_equal(err.sqlstate, "07006");
    in = (lt_value){.type = LT_TIMESTAMP, .u.i64 = -1};
    assert_int_equal(sql_convert_value(&in, LT_DATE, 0, &out, &err), 0);
    assert_int_equal(out.u.date, -1);
    in = (lt_value){.type = LT_BOOL, .u.b = true};
    assert_int_equal(sql_convert_value(&in, LT_DOUBLE, 0, &out, &err), 0);
    assert_true(out.u.f64 == 1.0);
    in = (lt_value){.type = LT_NULL};
    assert_int_equal(sql_convert_value(&in, LT_GUID, 0, &out, &err), 0);
    assert_int_equal(out.type, LT_NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_dates_and_times),
        cmocka_unit_test(test_bool_and_guid),
        cmocka_unit_test(test_decimals),
        cmocka_unit_test(test_convert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
