/*
** test_sql_functions.c — the scalar functions (func_string.c,
** func_numeric.c, func_datetime.c, func.c), plain and as ODBC escapes, and
** their result types, over the in-memory reader of test_sql_harness.h.
*/
#include "test_sql_harness.h"

static void assert_column(const char *sql, uint32_t i, lt_type type, uint32_t size, int16_t scale,
                          const char *type_name)
{
    sql_stmt *st;
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s: %s", sql, err.message);
    const sql_column *c = sql_column_at(st, i);
    if (c == NULL || c->desc.type != type || c->desc.size != size || c->desc.scale != scale ||
        strcmp(c->desc.type_name, type_name) != 0)
        fail_msg("%s, column %u: type %d size %u scale %d %s", sql, i, c ? (int)c->desc.type : -1,
                 c ? c->desc.size : 0, c ? c->desc.scale : 0, c ? c->desc.type_name : "-");
    sql_stmt_free(st);
}

static void test_string(void **state)
{
    (void)state;
    assert_rows("SELECT ASCII('A'), ASCII('\xC3\xA9t\xC3\xA9'), ASCII(''), CHAR(65), CHAR(233), CHAR(8364), CHAR(-1)",
                "65|233|NULL|A|\xC3\xA9|\xE2\x82\xAC|NULL");
    assert_rows("SELECT CONCAT('a', NULL, 'b'), {fn CONCAT(name, id)}, CONCAT(1, 2.5, TRUE) FROM people WHERE id = 1",
                "ab|Alice1|12.51");
    assert_rows("SELECT INSERT('abcdef', 2, 3, 'XY'), INSERT('abc', 5, 1, 'X'), INSERT('abc', 2, -1, 'X'), "
                "{fn INSERT('h\xC3\xA9llo', 2, 1, 'E')}",
                "aXYef|abc|aX|hEllo");
    assert_rows("SELECT LCASE('\xC3\x80\xC3\x89\xC3\x8E Ab'), UCASE('\xC3\xB1" "and\xC3\xBA \xC3\xBF'), "
                "UPPER('\xCE\xB1\xCE\xB2\xCF\x82'), LOWER('\xD0\x9F\xD0\xA0\xD0\x98'), UPPER('\xC5\x82\xC5\xBA'), "
                "LOWER('\xC5\x81\xC5\xB9\xC4\x80')",
                "\xC3\xA0\xC3\xA9\xC3\xAE ab|\xC3\x91" "AND\xC3\x9A \xC5\xB8|\xCE\x91\xCE\x92\xCE\xA3|"
                "\xD0\xBF\xD1\x80\xD0\xB8|\xC5\x81\xC5\xB9|\xC5\x82\xC5\xBA\xC4\x81");
    assert_rows("SELECT UCASE(name), {fn LCASE(name)} FROM people WHERE id IN (1, 3, 7)",
                "ALICE|alice;NULL|NULL;\xC3\x88VE|\xC3\xA8ve");
    assert_rows("SELECT LEFT('h\xC3\xA9llo', 2), RIGHT('h\xC3\xA9llo', 3), LEFT('ab', 5), LEFT('ab', -1), "
                "RIGHT('ab', 0), {fn RIGHT('h\xC3\xA9llo', 4)}",
                "h\xC3\xA9|llo|ab|||\xC3\xA9llo");
    assert_rows("SELECT LENGTH('\xC3\xA9 '), CHAR_LENGTH('\xC3\xA9 '), CHARACTER_LENGTH('ab'), OCTET_LENGTH('\xC3\xA9 '), "
                "BIT_LENGTH('a'), LENGTH(''), LENGTH(12345)",
                "1|2|2|3|8|0|5");
    assert_rows("SELECT LOCATE('l', 'h\xC3\xA9llo'), LOCATE('l', 'h\xC3\xA9llo', 4), LOCATE('z', 'abc'), "
                "POSITION('lo' IN 'h\xC3\xA9llo'), LOCATE('', 'abc'), LOCATE('a', 'abc', 0), LOCATE('c', 'abc', 9)",
                "3|4|0|4|1|0|0");
    assert_rows("SELECT LTRIM('  a ') || '|', RTRIM('  a ') || '|', TRIM('  a  ') || '|', "
                "TRIM(LEADING 'x' FROM 'xxaxx'), TRIM(BOTH 'xy' FROM 'yxaxy'), TRIM(TRAILING FROM ' b  ') || '|', "
                "LTRIM('\xC3\xA9\xC3\xA9z', '\xC3\xA9')",
                "a ||  a||a||axx|a| b||z");
    assert_rows("SELECT REPEAT('ab', 3), REPEAT('a', 0), SPACE(3) || '|', REPLACE('banana', 'an', 'AN'), "
                "REPLACE('aaa', 'a', ''), REPLACE('abc', '', 'x')",
                "ababab||   ||bANANa||abc");
    assert_rows("SELECT SUBSTRING('h\xC3\xA9llo', 2, 3), SUBSTRING('hello' FROM 0 FOR 3), SUBSTRING('hello', 4), "
                "SUBSTR('abc', 5), SUBSTRING('hello' FROM 2), {fn SUBSTRING('abc', -1, 3)}",
                "\xC3\xA9ll|he|lo||ello|a");
    assert_rows("SELECT UCASE(born), LEFT(price, 2) FROM people WHERE id = 1", "1990-01-02|10");
    assert_rows("SELECT name FROM people WHERE UPPER(name) LIKE '%A%' ORDER BY LENGTH(name), 1", "Alice;Carol;dave_x");
    assert_rows("SELECT SUBSTRING(name, 1, 1), COUNT(*) FROM people WHERE name <> '' GROUP BY SUBSTRING(name, 1, 1) "
                "ORDER BY 1", "1|1;A|1;C|1;b|1;d|1;\xC3\x88|1");

    assert_column("SELECT UCASE(name) FROM people", 0, LT_TEXT, 20, 0, "VARCHAR");
    assert_column("SELECT LENGTH(name) FROM people", 0, LT_INT64, 10, 0, "INTEGER");
    assert_column("SELECT CONCAT(name, 'ab') FROM people", 0, LT_TEXT, 22, 0, "VARCHAR");
    assert_column("SELECT REPEAT(name, 2) FROM people", 0, LT_TEXT, 0, 0, "VARCHAR");
    assert_column("SELECT CHAR(65)", 0, LT_TEXT, 1, 0, "VARCHAR");

    assert_error("SELECT SUBSTRING('abc', 1, -1)", "22011", "negative length");
    assert_error("SELECT REPEAT('abcdefgh', 100000000)", "22001", "longer than");
    assert_error("SELECT LENGTH(SPACE(20000000))", "22001", "the result of SPACE would be longer");
    assert_error("SELECT {fn LEFT('a')}", "42000", "function LEFT takes 2 arguments, not 1");
    assert_error("SELECT LOCATE('a')", "42000", "function LOCATE takes 2 to 3 arguments, not 1");
    assert_error("SELECT UPPER(DISTINCT name) FROM people", "42000", "DISTINCT is only allowed in an aggregate");
    assert_error("SELECT LEFT('abc', 'x')", "22018", "'x' is not a number");
    assert_error("SELECT LEFT('abc', born) FROM people", "42000", "argument 2 of LEFT must be a number, not DATE");
}

static void test_numeric(void **state)
{
    (void)state;
    assert_rows("SELECT ABS(-5), ABS(-2.50), ABS(-1.5e0), ABS(NULL), {fn ABS(3)}", "5|2.50|1.5|NULL|3");
    assert_rows("SELECT CEILING(2.1), FLOOR(-2.1), CEILING(-2.5e0), FLOOR(7), {fn CEILING(2.00)}, CEIL(0.5), FLOOR(2.9e0)",
                "3|-3|-2|7|2|1|2");
    assert_rows("SELECT ROUND(2.345, 2), ROUND(1234, -2), ROUND(-2.5), ROUND(2.5e0), ROUND(1.2345e0, 2), ROUND(1250, -2)",
                "2.350|1200|-3.0|3|1.23|1300");
    /* A DOUBLE rounds as its decimal form reads (SQLite does the same):
    ** 2.675e0 is 2.67499999999999982… as a double, yet 2.68. */
    assert_rows("SELECT ROUND(2.675e0, 2), ROUND(-9.075e0, 2), ROUND(0.535e0, 2), TRUNCATE(0.29e0, 2), "
                "ROUND(0.49999999999999994e0), ROUND(1234.5e0, -2), ROUND(1e300, 2), ROUND(-0.4e0)",
                "2.68|-9.08|0.54|0.29|1|1200|1e+300|-0");
    assert_rows("SELECT TRUNCATE(2.789, 1), TRUNCATE(-2.789e0, 1), TRUNCATE(1299, -2), {fn TRUNCATE(-1.5, 0)}, ROUND(9.99, 1)",
                "2.700|-2.7|1200|-1.0|10.00");
    assert_rows("SELECT MOD(7, 3), MOD(-7, 3), {fn MOD(10, 4)}, MOD(7.5, 2)", "1|-1|2|1.5");
    assert_rows("SELECT POWER(2, 10), SQRT(16), EXP(0), LOG(1), LOG10(1000), {fn POWER(2.5, 2)}", "1024|4|1|0|3|6.25");
    assert_rows("SELECT SIGN(-3), SIGN(0), SIGN(2.5), SIGN(-0.5e0), PI(), DEGREES(PI()), RADIANS(180)",
                "-1|0|1|-1|3.14159|180|3.14159");
    assert_rows("SELECT SIN(0), COS(0), TAN(0), ASIN(1), ACOS(1), ATAN(1), ATAN2(1, 1), ROUND(COT(PI() / 4), 6)",
                "0|1|0|1.5708|0|0.785398|0.785398|1");
    assert_rows("SELECT ROUND(AVG(score), 1), ABS(MIN(score)), FLOOR(SUM(price)) FROM people", "1.5|1|125");
    assert_rows("SELECT RAND() >= 0 AND RAND() < 1, RAND(7) = RAND(7)", "1|1");
    /* RAND(seed) repeats its sequence from one execution to the next. */
    assert_int_equal(run("SELECT RAND(42) FROM people"), 0);
    char first[8192];
    strcpy(first, result);
    assert_int_equal(run("SELECT RAND(42) FROM people"), 0);
    assert_string_equal(first, result);
    assert_non_null(strchr(first, ';'));
    assert_true(strncmp(first, strchr(first, ';') + 1, 5) != 0);

    assert_column("SELECT ABS(price) FROM people", 0, LT_DECIMAL, 10, 2, "DECIMAL");
    assert_column("SELECT ROUND(price, 1) FROM people", 0, LT_DECIMAL, 11, 2, "DECIMAL");
    assert_column("SELECT FLOOR(price) FROM people", 0, LT_DECIMAL, 9, 0, "DECIMAL");
    assert_column("SELECT ABS(age) FROM people", 0, LT_INT64, 19, 0, "BIGINT");
    assert_column("SELECT SQRT(age) FROM people", 0, LT_DOUBLE, 15, 0, "DOUBLE");
    assert_column("SELECT SIGN(score) FROM people", 0, LT_INT64, 10, 0, "INTEGER");
    assert_column("SELECT MOD(age, 7) FROM people", 0, LT_INT64, 19, 0, "BIGINT");

    assert_error("SELECT SQRT(-1)", "22003", "SQRT is not defined for -1");
    assert_error("SELECT LOG(0)", "22003", "LOG is not defined for 0");
    assert_error("SELECT ACOS(2)", "22003", "ACOS is not defined for 2");
    assert_error("SELECT COT(0)", "22003", "COT is not defined");
    assert_error("SELECT ABS(-9223372036854775808)", "22003", "out of range in ABS");
    assert_error("SELECT POWER(10, 400)", "22003", "out of range in POWER");
    assert_error("SELECT POWER(-8, 0.5)", "22003", "POWER is not defined");
    assert_error("SELECT EXP(1000)", "22003", "out of range in EXP");
    assert_error("SELECT ROUND(9223372036854775807, -1)", "22003", "out of range in ROUND");
    assert_error("SELECT MOD(1, 0)", "22012", "division by zero");
    assert_error("SELECT ABS(name) FROM people", "42000", "argument 1 of ABS must be a number, not TEXT");
    assert_error("SELECT PI(1)", "42000", "function PI takes 0 arguments, not 1");
}

static void test_datetime(void **state)
{
    (void)state;
    assert_rows("SELECT YEAR({d '2020-02-29'}), MONTH({d '2020-02-29'}), DAYOFMONTH({d '2020-02-29'}), "
                "DAYOFYEAR({d '2020-02-29'}), QUARTER({d '2020-02-29'}), DAYOFWEEK({d '2020-02-29'}), "
                "WEEK({d '2020-02-29'}), DAY({d '2020-02-29'})",
                "2020|2|29|60|1|7|9|29");
    assert_rows("SELECT WEEK({d '2021-01-01'}), WEEK({d '2021-01-03'}), WEEK({d '2020-12-31'}), DAYOFWEEK({d '1970-01-01'})",
                "1|2|53|5");
    assert_rows("SELECT HOUR({t '13:45:30'}), MINUTE({t '13:45:30'}), SECOND({t '13:45:30'}), "
                "HOUR({ts '2020-01-01 07:08:09'}), SECOND({ts '2020-01-01 07:08:09.75'}), HOUR({d '2020-01-01'})",
                "13|45|30|7|9|0");
    assert_rows("SELECT MONTHNAME(born), DAYNAME(born), {fn YEAR(born)} FROM people WHERE id = 1", "January|Tuesday|1990");
    assert_rows("SELECT YEAR('2021-05-06'), HOUR('10:30:00'), HOUR('2021-05-06 07:00:00'), MONTH('2021-05-06 07:00')",
                "2021|10|7|5");
    assert_rows("SELECT EXTRACT(YEAR FROM born), EXTRACT(MINUTE FROM TIME '10:20:30'), "
                "EXTRACT(DAY FROM TIMESTAMP '2020-03-04 05:06:07'), EXTRACT(SECOND FROM TIMESTAMP '2020-03-04 05:06:07'), "
                "EXTRACT(QUARTER FROM born) FROM people WHERE id = 4",
                "2000|20|4|7|1");
    assert_rows("SELECT YEAR(born), COUNT(*) FROM people WHERE born IS NOT NULL GROUP BY YEAR(born) "
                "HAVING YEAR(born) < 1990 ORDER BY 1", "1970|1;1985|1");

    assert_rows("SELECT TIMESTAMPADD(SQL_TSI_DAY, 1, {d '2020-02-28'}), TIMESTAMPADD(SQL_TSI_MONTH, 1, {d '2020-01-31'}), "
                "TIMESTAMPADD(SQL_TSI_YEAR, -1, {ts '2020-02-29 10:00:00'})",
                "2020-02-29 00:00:00|2020-02-29 00:00:00|2019-02-28 10:00:00");
    assert_rows("SELECT {fn TIMESTAMPADD(SQL_TSI_HOUR, 25, {ts '2020-01-01 00:00:00'})}, "
                "TIMESTAMPADD(SQL_TSI_FRAC_SECOND, 1500, {ts '2020-01-01 00:00:00'}), "
                "TIMESTAMPADD(QUARTER, 1, {d '2020-11-30'}), TIMESTAMPADD(SQL_TSI_WEEK, 2, {d '2020-01-01'}), "
                "TIMESTAMPADD(MINUTE, -90, {ts '2020-01-01 00:00:00'}), TIMESTAMPADD(SECOND, 1, '2020-01-01')",
                "2020-01-02 01:00:00|2020-01-01 00:00:00.000001|2021-02-28 00:00:00|2020-01-15 00:00:00|"
                "2019-12-31 22:30:00|2020-01-01 00:00:01");
    assert_rows("SELECT TIMESTAMPDIFF(SQL_TSI_DAY, {d '2020-01-01'}, {d '2020-03-01'}), "
                "TIMESTAMPDIFF(SQL_TSI_MONTH, {d '2020-01-31'}, {d '2020-02-29'}), "
                "TIMESTAMPDIFF(MONTH, {d '2020-01-15'}, {d '2020-03-15'}), "
                "TIMESTAMPDIFF(SQL_TSI_YEAR, {d '2000-02-29'}, {d '2020-02-28'}), "
                "TIMESTAMPDIFF(HOUR, {ts '2020-01-02 00:00:00'}, {ts '2020-01-01 01:30:00'}), "
                "{fn TIMESTAMPDIFF(SQL_TSI_FRAC_SECOND, {ts '2020-01-01 00:00:00'}, {ts '2020-01-01 00:00:01'})}, "
                "TIMESTAMPDIFF(SQL_TSI_QUARTER, {d '2020-01-01'}, {d '2020-12-31'}), "
                "TIMESTAMPDIFF(MONTH, {d '2020-03-31'}, {d '2020-01-31'})",
                "60|0|2|19|-22|1000000000|3|-2");
    assert_rows("SELECT id, TIMESTAMPDIFF(SQL_TSI_YEAR, born, {d '2020-06-15'}) FROM people WHERE born < {d '1991-01-01'}",
                "1|30;2|35;5|50");

    /* The clock is read once per execution. */
    assert_rows("SELECT CURRENT_TIMESTAMP = NOW(), CURRENT_DATE = CURDATE(), CAST(NOW() AS DATE) = {fn CURDATE()}, "
                "YEAR(CURRENT_DATE) >= 2024, CURTIME() = CURRENT_TIME, LOCALTIMESTAMP = NOW()",
                "1|1|1|1|1|1");
    assert_rows("SELECT COUNT(DISTINCT NOW()) FROM nums", "1");

    assert_column("SELECT YEAR(born) FROM people", 0, LT_INT64, 10, 0, "INTEGER");
    assert_column("SELECT NOW()", 0, LT_TIMESTAMP, 26, 6, "TIMESTAMP");
    assert_column("SELECT CURRENT_TIME", 0, LT_TIME, 8, 0, "TIME");
    assert_column("SELECT {fn CURDATE()}", 0, LT_DATE, 10, 0, "DATE");
    assert_column("SELECT TIMESTAMPADD(SQL_TSI_DAY, 1, born) FROM people", 0, LT_TIMESTAMP, 26, 6, "TIMESTAMP");
    assert_column("SELECT TIMESTAMPDIFF(SQL_TSI_DAY, born, born) FROM people", 0, LT_INT64, 19, 0, "BIGINT");
    assert_column("SELECT MONTHNAME(born) FROM people", 0, LT_TEXT, 9, 0, "VARCHAR");
    assert_column("SELECT CURRENT_DATE", 0, LT_DATE, 10, 0, "DATE");

    assert_error("SELECT YEAR(name) FROM people", "42000", "argument 1 of YEAR must be a date or a timestamp, not TEXT");
    assert_error("SELECT YEAR(TIME '10:00:00')", "42000", "must be a date or a timestamp, not TIME");
    assert_error("SELECT YEAR('soon')", "22007", "'soon' is not a timestamp");
    assert_error("SELECT TIMESTAMPADD(FORTNIGHT, 1, born) FROM people", "42000",
                 "TIMESTAMPADD needs an interval name such as SQL_TSI_DAY or DAY");
    assert_error("SELECT TIMESTAMPADD(SQL_TSI_YEAR, 10000, {d '2020-01-01'})", "22008", "outside the years 1 to 9999");
    assert_error("SELECT TIMESTAMPADD(SQL_TSI_DAY, 9999999, {d '2020-01-01'})", "22008", "outside the years");
    assert_error("SELECT EXTRACT(YEAR FROM TIME '10:00:00')", "42000", "EXTRACT of a date field from a TIME");
}

/* Date arithmetic in days (docs/sql-types.md). */
static void test_date_arithmetic(void **state)
{
    (void)state;
    assert_rows("SELECT born + 1, born - 1, 1 + born, born + age FROM people WHERE id IN (1, 3, 4) ORDER BY id",
                "1990-01-03|1990-01-01|1990-01-03|1990-02-01;NULL|NULL|NULL|NULL;"
                "2000-03-01|2000-02-28|2000-03-01|2000-03-30");
    assert_rows("SELECT DATE '2020-03-01' - 1, DATE '2020-12-31' + 1, {d '2021-01-01'} - -365", "2020-02-29|2021-01-01|2022-01-01");
    assert_rows("SELECT born + 0.5, born - 1.25e0 FROM people WHERE id = 1",
                "1990-01-02 12:00:00|1989-12-31 18:00:00");
    assert_rows("SELECT TIMESTAMP '2020-01-01 06:00:00' + 1, TIMESTAMP '2020-01-01 06:00:00' - 0.25, "
                "{ts '2020-01-01 00:00:00'} + 1.000001", "2020-01-02 06:00:00|2020-01-01 00:00:00|2020-01-02 00:00:00.086400");
    assert_rows("SELECT DATE '2020-03-01' - DATE '2020-02-01', born - DATE '1990-01-01' FROM people WHERE id = 1", "29|1");
    assert_rows("SELECT TIMESTAMP '2020-01-02 12:00:00' - TIMESTAMP '2020-01-01 00:00:00', "
                "TIMESTAMP '2020-01-02 12:00:00' - DATE '2020-01-03'", "1.5|-0.5");
    assert_rows("SELECT id FROM people WHERE born + 30 > DATE '2000-03-29' ORDER BY id", "4;7");
    assert_rows("SELECT born + NULL, NULL + born FROM people WHERE id = 1", "NULL|NULL");
    /* a text constant is a number of days, or in a difference a date */
    assert_rows("SELECT born + '1', born - '1990-01-01', '1990-01-03 12:00' - born FROM people WHERE id = 1",
                "1990-01-03|1|1.5");
    assert_error("SELECT born - 'x' FROM people", "22007", "'x' is not a date");
    assert_error("SELECT '2020-01-01' + born FROM people", "22018", "'2020-01-01' is not a number");
    assert_rows("SELECT DATE '9999-12-30' + 1, DATE '0001-01-02' - 1", "9999-12-31|0001-01-01");
    assert_column("SELECT born + 1 FROM people", 0, LT_DATE, 10, 0, "DATE");
    assert_column("SELECT born + 1.5 FROM people", 0, LT_TIMESTAMP, 26, 6, "TIMESTAMP");
    assert_column("SELECT born - born FROM people", 0, LT_INT64, 10, 0, "INTEGER");
    assert_column("SELECT NOW() - born FROM people", 0, LT_DOUBLE, 15, 0, "DOUBLE");
    /* a parameter beside a date is a number of days */
    lt_value p = int_value(2);
    assert_int_equal(runp("SELECT born + ? FROM people WHERE id = 1", &p, 1), 0);
    assert_string_equal(result, "1990-01-04");
    assert_error("SELECT DATE '9999-12-31' + 1", "22008", "outside the years 1 to 9999");
    assert_error("SELECT DATE '0001-01-01' - 1", "22008", "outside the years 1 to 9999");
    assert_error("SELECT born + 9223372036854775807 FROM people", "22008", "outside the years");
    assert_error("SELECT TIMESTAMP '9999-12-31 23:00:00' + 0.5", "22008", "outside the years");
    assert_error("SELECT born + 1e300 FROM people", "22008", "outside the years");
    assert_error("SELECT born + born FROM people", "42000", "adds or subtracts a number of days, not DATE and DATE");
    assert_error("SELECT 1 - born FROM people", "42000", "adds or subtracts a number of days");
    assert_error("SELECT born * 2 FROM people", "42000", "arithmetic needs numbers, not DATE and INTEGER");
    assert_error("SELECT born + name FROM people", "42000", "not DATE and TEXT");
    assert_error("SELECT TIME '10:00:00' + 1", "42000", "arithmetic needs numbers, not TIME");
    /* no interval type: SQLGetInfo(SQL_DATETIME_LITERALS) declares no interval literal */
    assert_error("SELECT born + {INTERVAL '1' DAY} FROM people", "42000",
                 "column 16: interval literals are not supported");
    assert_error("SELECT born + INTERVAL '1' DAY FROM people", "42000", "interval literals are not supported");
    assert_error("SELECT {interval -'1:30' HOUR TO MINUTE}", "42000", "interval literals are not supported");
    assert_rows("SELECT {fn TIMESTAMPADD(SQL_TSI_DAY, 1, born)} FROM people WHERE id = 1", "1990-01-03 00:00:00");
}

static void test_system_and_niladic(void **state)
{
    (void)state;
    assert_rows("SELECT DATABASE(), USER(), {fn USER()}, CURRENT_USER, {fn DATABASE()} || '!'", "memory||||memory!");
    assert_rows("SELECT USER, SESSION_USER, SYSTEM_USER FROM people WHERE id = 1", "||");
    sql_stmt *st;
    sql_cursor *cur;
    const char *sql = "SELECT DATABASE(), CURRENT_DATE IS NOT NULL";
    assert_int_equal(sql_prepare(NULL, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_execute(st, NULL, 0, &cur, &err), 0);
    result[0] = '\0';
    assert_int_equal(drain(cur, result, sizeof result, &err), 0);
    assert_string_equal(result, "|1");
    sql_cursor_close(cur);
    sql_stmt_free(st);
    /* Functions in WHERE and with parameters. */
    lt_value p[2] = {text_value("AL"), int_value(2)};
    assert_int_equal(runp("SELECT id FROM people WHERE UCASE(LEFT(name, ?)) = ?", (lt_value[]){int_value(2), text_value("AL")}, 2), 0);
    assert_string_equal(result, "1");
    assert_int_equal(runp("SELECT LEFT(?, ?)", p, 2), 0);
    assert_string_equal(result, "AL");
    sql = "SELECT LEFT(?, ?), YEAR(?)";
    assert_int_equal(sql_prepare(&source.base, sql, strlen(sql), &st, &err), 0);
    assert_int_equal(sql_param_type(st, 0), LT_TEXT);
    assert_int_equal(sql_param_type(st, 1), LT_INT64);
    assert_int_equal(sql_param_type(st, 2), LT_TIMESTAMP);
    sql_stmt_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_string, setup_default),
        cmocka_unit_test_setup(test_numeric, setup_default),
        cmocka_unit_test_setup(test_datetime, setup_default),
        cmocka_unit_test_setup(test_date_arithmetic, setup_default),
        cmocka_unit_test_setup(test_system_and_niladic, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
