/*
** test_sql_cond.c — CASE, CAST, CONVERT, COALESCE, IFNULL, NULLIF, IIF and
** `||` (eval_cond.c, cast.c and their typing rules), over the in-memory
** reader of test_sql_harness.h.
*/
#include "test_sql_harness.h"

/* The description of column i of `sql` at prepare. */
static void assert_column(const char *sql, uint32_t i, lt_type type, uint32_t size, int16_t scale,
                          bool nullable, const char *type_name)
{
    sql_stmt *st;
    if (sql_prepare(&source.base, sql, strlen(sql), &st, &err) != 0)
        fail_msg("%s: %s", sql, err.message);
    const sql_column *c = sql_column_at(st, i);
    if (c == NULL || c->desc.type != type || c->desc.size != size || c->desc.scale != scale ||
        c->desc.nullable != nullable || strcmp(c->desc.type_name, type_name) != 0)
        fail_msg("%s, column %u: type %d size %u scale %d nullable %d %s", sql, i,
                 c ? (int)c->desc.type : -1, c ? c->desc.size : 0, c ? c->desc.scale : 0,
                 c ? c->desc.nullable : 0, c ? c->desc.type_name : "-");
    sql_stmt_free(st);
}

static void test_case(void **state)
{
    (void)state;
    assert_rows("SELECT id, CASE WHEN age < 20 THEN 'young' WHEN age < 35 THEN 'mid' ELSE 'old' END FROM people",
                "1|mid;2|old;3|mid;4|mid;5|old;6|mid;7|old;8|young");
    assert_rows("SELECT CASE WHEN age < 20 THEN 'young' WHEN age >= 35 THEN 'old' END FROM people WHERE id IN (1, 5, 8)",
                "NULL;old;young");
    assert_rows("SELECT CASE active WHEN TRUE THEN 'yes' WHEN FALSE THEN 'no' ELSE '?' END FROM people",
                "yes;no;?;yes;no;?;yes;no");
    assert_rows("SELECT CASE age WHEN 30 THEN 1 WHEN 25 THEN 2.5 END FROM people WHERE id <= 4", "1.0;NULL;2.5;1.0");
    /* The operand and the WHEN values compare as a group: text constants
    ** read as the operand's type. */
    assert_rows("SELECT CASE born WHEN '1970-01-01' THEN 'epoch' ELSE 'later' END FROM people WHERE id IN (1, 5)",
                "later;epoch");
    /* Branches are evaluated only for their rows. */
    assert_rows("SELECT CASE WHEN age = 25 THEN 0 ELSE 10 / (age - 25) END FROM people WHERE age IS NOT NULL",
                "2;0;2;0;0;-1");
    assert_rows("SELECT id FROM people WHERE CASE WHEN age IS NULL THEN active ELSE age > 29 END", "1;4;5;7");
    assert_rows("SELECT CASE WHEN NULL THEN 1 ELSE 2 END, CASE NULL WHEN NULL THEN 1 ELSE 2 END", "2|2");
    assert_rows("SELECT CASE WHEN 1 = 1 THEN NULL END", "NULL");
    /* Numbers widen: INT64 and DOUBLE -> DOUBLE; dates to timestamps. */
    assert_rows("SELECT CASE WHEN id < 3 THEN id ELSE score END FROM people WHERE id IN (1, 4, 5)", "1;0.5;-1");
    assert_rows("SELECT CASE WHEN id = 1 THEN born ELSE TIMESTAMP '2001-02-03 04:05:06' END FROM people WHERE id < 3",
                "1990-01-02 00:00:00;2001-02-03 04:05:06");
    assert_rows("SELECT age, COUNT(*), CASE WHEN COUNT(*) > 1 THEN 'many' ELSE 'one' END FROM people GROUP BY age ORDER BY 1",
                "NULL|2|many;18|1|one;25|2|many;30|2|many;41|1|one");
    assert_rows("SELECT SUM(CASE WHEN active THEN price ELSE 0 END) FROM people", "22.00");

    assert_column("SELECT CASE WHEN age > 1 THEN 'ab' ELSE 'abcd' END FROM people", 0, LT_TEXT, 4, 0, false, "VARCHAR");
    assert_column("SELECT CASE WHEN age > 1 THEN 'ab' END FROM people", 0, LT_TEXT, 2, 0, true, "VARCHAR");
    assert_column("SELECT CASE WHEN age > 1 THEN 1 ELSE price END FROM people", 0, LT_DECIMAL, 21, 2, true, "DECIMAL");
    assert_column("SELECT CASE WHEN age > 1 THEN 1 ELSE 2.5e0 END FROM people", 0, LT_DOUBLE, 15, 0, false, "DOUBLE");
    assert_column("SELECT CASE WHEN age > 1 THEN id ELSE 2 END FROM people", 0, LT_INT64, 19, 0, false, "BIGINT");

    assert_error("SELECT CASE WHEN age THEN 1 END FROM people", "42000", "CASE WHEN needs a BOOLEAN");
    assert_error("SELECT CASE WHEN age > 1 THEN 1 ELSE name END FROM people", "42000", "cannot mix INTEGER and TEXT");
    assert_error("SELECT CASE WHEN age > 1 THEN 1 ELSE 'x' END FROM people", "22018", "'x' is not a number");
    assert_error("SELECT CASE age WHEN 'a' THEN 1 END FROM people", "22018", "not a number");
    assert_error("SELECT CASE name WHEN 1 THEN 1 END FROM people", "42000", "cannot compare TEXT and INTEGER");
    assert_error("SELECT CASE WHEN 1 THEN 2", "42000", "expected END at end of input");
    assert_error("SELECT CASE END", "42000", "expected an expression near 'END'");
    assert_error("SELECT CASE 1 END", "42000", "expected WHEN near 'END'");
}

static void test_coalesce_nullif_iif(void **state)
{
    (void)state;
    assert_rows("SELECT COALESCE(age, -1), IFNULL(name, '?'), COALESCE(score, price, 0) FROM people WHERE id IN (2, 3, 7)",
                "-1|bob|2.5;25|?|0;-1|\xC3\x88ve|1");
    assert_rows("SELECT COALESCE(NULL, NULL, 3), COALESCE(NULL), {fn IFNULL(NULL, 'x')}", "3|NULL|x");
    /* Later arguments are evaluated only for the rows still NULL. */
    assert_rows("SELECT COALESCE(age, 1 / (id - 2)) FROM people WHERE id IN (1, 3, 7)", "30;25;0");
    assert_rows("SELECT NULLIF(age, 30), NULLIF(name, 'bob'), NULLIF(1, 1), NULLIF(1, NULL) FROM people WHERE id IN (1, 2)",
                "NULL|Alice|NULL|1;NULL|NULL|NULL|1");
    assert_rows("SELECT IIF(age > 25, 'old', 'young'), IIF(active, 1, 0) FROM people WHERE id IN (1, 2, 3)",
                "old|1;young|0;young|0");
    assert_rows("SELECT COUNT(NULLIF(age, 25)), SUM(COALESCE(age, 100)) FROM people", "4|369");

    assert_column("SELECT COALESCE(age, 0) FROM people", 0, LT_INT64, 19, 0, false, "BIGINT");
    assert_error("SELECT COALESCE(age, name) FROM people", "42000", "cannot mix INTEGER and TEXT");
}

static void test_cast(void **state)
{
    (void)state;
    assert_rows("SELECT CAST('12' AS INTEGER), CAST(2.7 AS INT), CAST(-2.7 AS BIGINT), CAST(2.5e0 AS SMALLINT)",
                "12|2|-2|2");
    assert_rows("SELECT CAST(1.005 AS DECIMAL(5,2)), CAST(-1.005 AS NUMERIC(5,2)), CAST(7 AS DECIMAL), CAST(1.5e0 AS DEC(3,1))",
                "1.01|-1.01|7|1.5");
    assert_rows("SELECT CAST(123 AS VARCHAR(2)), CAST('ab' AS CHAR(4)) || '|', CAST(12.50 AS VARCHAR), CAST(1.5e0 AS TEXT)",
                "12|ab  ||12.50|1.5");
    assert_rows("SELECT CAST('\xC3\xA9t\xC3\xA9' AS VARCHAR(2)), CAST(0.1e0 AS VARCHAR), CAST(1e100 AS VARCHAR(30))",
                "\xC3\xA9t|0.1|1e+100");
    assert_rows("SELECT CAST('2020-01-02' AS DATE), CAST('10:11:12.5' AS TIME), CAST('2020-01-02 03:04:05.123456' AS TIMESTAMP(3))",
                "2020-01-02|10:11:12|2020-01-02 03:04:05.123000");
    assert_rows("SELECT CAST(TIMESTAMP '2020-01-02 03:04:05' AS DATE), CAST(DATE '2020-01-02' AS TIMESTAMP), "
                "CAST(TIMESTAMP '2020-01-02 03:04:05' AS TIME)",
                "2020-01-02|2020-01-02 00:00:00|03:04:05");
    assert_rows("SELECT CAST(born AS VARCHAR(10)), CAST(active AS INTEGER), CAST(price AS DOUBLE), CAST(score AS DECIMAL(4,1)) "
                "FROM people WHERE id = 1", "1990-01-02|1|10.5|1.5");
    assert_rows("SELECT CAST(1 AS BIT), CAST(0 AS BOOLEAN), CAST('yes' AS BIT), CAST(2.5 AS BIT)", "1|0|1|1");
    assert_rows("SELECT CAST(NULL AS INTEGER), CAST(age AS VARCHAR(5)) FROM people WHERE id = 2", "NULL|NULL");
    assert_rows("SELECT CAST(1.5e0 AS REAL), CAST(0.1e0 AS REAL) = 0.1e0, CAST(0.1e0 AS FLOAT) = 0.1e0", "1.5|0|1");
    assert_rows("SELECT CAST('{12345678-9abc-def0-1234-56789abcdef0}' AS GUID) IS NOT NULL", "1");
    assert_rows("SELECT CAST(CAST('12345678-9abc-def0-1234-56789abcdef0' AS UNIQUEIDENTIFIER) AS VARCHAR(40))",
                "12345678-9ABC-DEF0-1234-56789ABCDEF0");
    assert_rows("SELECT CAST(TRUE AS VARCHAR(5)), CAST(-0.5 AS VARCHAR(10)), CAST(-9223372036854775808 AS VARCHAR(30))",
                "1|-0.5|-9223372036854775808");
    /* ODBC's CONVERT, plain and escaped. */
    assert_rows("SELECT {fn CONVERT('42', SQL_INTEGER)} + 1, CONVERT(3.75, SQL_DECIMAL(4,1)), {fn CONVERT(7, SQL_VARCHAR)} || 'x'",
                "43|3.8|7x");
    assert_rows("SELECT {fn CONVERT('2020-02-03', SQL_TYPE_DATE)}, {fn CONVERT(1, SQL_DOUBLE)} / 4", "2020-02-03|0.25");

    assert_column("SELECT CAST(age AS INTEGER) FROM people", 0, LT_INT64, 10, 0, true, "INTEGER");
    assert_column("SELECT CAST(id AS SMALLINT) FROM people", 0, LT_INT64, 5, 0, false, "SMALLINT");
    assert_column("SELECT CAST(1 AS TINYINT)", 0, LT_INT64, 3, 0, false, "TINYINT");
    assert_column("SELECT CAST(1 AS REAL)", 0, LT_DOUBLE, 7, 0, false, "REAL");
    assert_column("SELECT CAST(1 AS FLOAT(53))", 0, LT_DOUBLE, 15, 0, false, "DOUBLE");
    assert_column("SELECT CAST(score AS NUMERIC(10,3)) FROM people", 0, LT_DECIMAL, 10, 3, true, "DECIMAL");
    assert_column("SELECT CAST(1 AS DECIMAL)", 0, LT_DECIMAL, 18, 0, false, "DECIMAL");
    assert_column("SELECT CAST(name AS CHAR(10)) FROM people", 0, LT_TEXT, 10, 0, true, "VARCHAR");
    assert_column("SELECT CAST(age AS VARCHAR) FROM people", 0, LT_TEXT, 4, 0, true, "VARCHAR");
    assert_column("SELECT CAST(price AS CHARACTER VARYING) FROM people", 0, LT_TEXT, 12, 0, true, "VARCHAR");
    assert_column("SELECT CAST('x' AS DOUBLE PRECISION)", 0, LT_DOUBLE, 15, 0, false, "DOUBLE");
    assert_column("SELECT CAST(born AS TIMESTAMP(0)) FROM people", 0, LT_TIMESTAMP, 19, 0, true, "TIMESTAMP");
    assert_column("SELECT CAST(born AS TIMESTAMP) FROM people", 0, LT_TIMESTAMP, 26, 6, true, "TIMESTAMP");
    assert_column("SELECT CAST(? AS INTEGER)", 0, LT_INT64, 10, 0, true, "INTEGER");
    sql_stmt *st;
    assert_int_equal(sql_prepare(NULL, "SELECT CAST(? AS DATE)", 22, &st, &err), 0);
    assert_int_equal(sql_param_type(st, 0), LT_DATE);
    sql_stmt_free(st);

    assert_error("SELECT CAST(70000 AS SMALLINT)", "22003", "out of range for SMALLINT");
    assert_error("SELECT CAST(3000000000 AS INTEGER)", "22003", "out of range for INTEGER");
    assert_error("SELECT CAST(200 AS TINYINT)", "22003", "out of range for TINYINT");
    assert_error("SELECT CAST(1e300 AS REAL)", "22003", "out of range for REAL");
    assert_error("SELECT CAST(1000 AS DECIMAL(5,2))", "22003", "out of range for DECIMAL(5,2)");
    assert_error("SELECT CAST(1e30 AS BIGINT)", "22003", "out of range");
    assert_error("SELECT CAST('abc' AS INTEGER)", "22018", "'abc' is not a number (line 1, column 8)");
    assert_error("SELECT CAST('2020-13-01' AS DATE)", "22007", "is not a date");
    assert_error("SELECT CAST(name AS INTEGER) FROM people", "22018", "'Alice' is not a number");
    assert_error("SELECT CAST(born AS TIME) FROM people", "42000", "cannot CAST DATE to TIME");
    assert_error("SELECT CAST(born AS INTEGER) FROM people", "42000", "cannot CAST DATE to INTEGER");
    assert_error("SELECT CAST(1 AS WHATEVER)", "42000", "unknown type name 'WHATEVER'");
    assert_error("SELECT CAST(1 AS DECIMAL(40))", "42000", "DECIMAL(p, s) needs 1 <= p <= 38");
    assert_error("SELECT CAST(1 AS VARCHAR(0))", "42000", "a length must be at least 1");
    assert_error("SELECT CAST(1 INTEGER)", "42000", "expected AS near 'INTEGER'");
    assert_error("SELECT CONVERT(1)", "42000", "expected ','");
}

static void test_concat(void **state)
{
    (void)state;
    assert_rows("SELECT name || '!', 'a' || 1 || 2.50 || TRUE, id || '/' || age FROM people WHERE id IN (1, 2)",
                "Alice!|a12.501|1/30;bob!|a12.501|NULL");
    assert_rows("SELECT name & '-' & id FROM people WHERE id = 4", "Carol-4");
    assert_rows("SELECT born || '', score || '' FROM people WHERE id = 1", "1990-01-02|1.5");
    assert_rows("SELECT name FROM people WHERE name || 'x' = 'bobx'", "bob");
    assert_rows("SELECT 'x' || NULL, NULL || NULL", "NULL|NULL");
    assert_column("SELECT name || 'ab' FROM people", 0, LT_TEXT, 22, 0, true, "VARCHAR");
    assert_column("SELECT id || 'ab' FROM people", 0, LT_TEXT, 13, 0, false, "VARCHAR");
    /* Concatenation keeps a batch's text alive across batches and sorts. */
    source_init(3, false);
    assert_rows("SELECT name || id FROM people WHERE name IS NOT NULL ORDER BY 1 DESC",
                "\xC3\x88ve7;dave_x5;bob2;Carol4;Alice1;8;100%6");
    assert_rows("SELECT DISTINCT s || 'x' FROM nums WHERE i < 30 ORDER BY 1 LIMIT 3", "NULL;s0x;s10x");
}

/* lt_source.dialect: how the source's own engine compares text. */
static void test_dialect_standard_sqlite(void **state)
{
    (void)state;
    /* Standard and SQLite: bytes for comparisons, ASCII case folded by LIKE. */
    for (int d = 0; d < 2; d++) {
        source.base.dialect = d == 0 ? LT_DIALECT_STANDARD : LT_DIALECT_SQLITE;
        assert_rows("SELECT id FROM people WHERE Name = 'alice'", "");
        assert_rows("SELECT id FROM people WHERE Name LIKE 'ALICE'", "1");
        assert_rows("SELECT id FROM people WHERE Name LIKE '\xC3\xA8ve'", ""); /* ASCII only */
        assert_rows("SELECT id FROM people WHERE Name LIKE 'a*'", "");
        assert_rows("SELECT id FROM people WHERE Name LIKE '1%\\%' {escape '\\'}", "6");
        assert_rows("SELECT id FROM people WHERE Name LIKE '%\\_%' {escape '\\'}", "5");
        assert_rows("SELECT id FROM people WHERE Name < 'c' ORDER BY id", "1;2;4;6;8");
        assert_rows("SELECT id FROM people ORDER BY Name, id", "3;8;6;1;4;2;5;7");
        assert_rows("SELECT MAX(Name) FROM people WHERE id IN (1, 2, 4)", "bob");
        assert_rows("SELECT DISTINCT CASE WHEN id < 3 THEN 'Ab' ELSE 'aB' END FROM people", "Ab;aB");
        assert_rows("SELECT CASE WHEN id < 3 THEN 'X' ELSE 'x' END, COUNT(*) FROM people "
                    "GROUP BY CASE WHEN id < 3 THEN 'X' ELSE 'x' END", "X|2;x|6");
        assert_rows("SELECT COUNT(DISTINCT CASE WHEN id < 3 THEN 'Ab' ELSE 'aB' END) FROM people", "2");
    }
}

/* `&`: `||` everywhere but in Access, where NULL reads as '' and only two
** NULLs give NULL. */
static void test_amp_concat(void **state)
{
    (void)state;
    source.base.dialect = LT_DIALECT_STANDARD;
    assert_rows("SELECT name & 'x', 'x' & NULL FROM people WHERE id IN (1, 3) ORDER BY id", "Alicex|NULL;NULL|NULL");
    source.base.dialect = LT_DIALECT_SQLITE;
    assert_rows("SELECT name & 'x' FROM people WHERE id = 3", "NULL");
    source.base.dialect = LT_DIALECT_ACCESS;
    assert_rows("SELECT name & 'x', age & name, 'x' & NULL, NULL & 'x', NULL & NULL, name & age "
                "FROM people WHERE id IN (1, 2, 3) ORDER BY id",
                "Alicex|30Alice|x|x|NULL|Alice30;bobx|bob|x|x|NULL|bob;x|25|x|x|NULL|25");
    /* numbers and dates are written as text; two NULL columns give NULL */
    assert_rows("SELECT id & ':' & price & ':' & born & ':' & score & ':' & active FROM people WHERE id IN (1, 3) ORDER BY id",
                "1:10.50:1990-01-02:1.5:1;3::::");
    assert_rows("SELECT score & price FROM people WHERE id IN (3, 7) ORDER BY id", "NULL;1.00");
    /* `||` keeps its NULL rule in Access */
    assert_rows("SELECT name || 'x' FROM people WHERE id = 3", "NULL");
    assert_column("SELECT name & 'ab' FROM people", 0, LT_TEXT, 22, 0, false, "VARCHAR");
    assert_column("SELECT name & score FROM people", 0, LT_TEXT, 44, 0, true, "VARCHAR");
    assert_column("SELECT name || 'ab' FROM people", 0, LT_TEXT, 22, 0, true, "VARCHAR");
    source.base.dialect = LT_DIALECT_STANDARD;
}

static void test_dialect_access(void **state)
{
    (void)state;
    source.base.dialect = LT_DIALECT_ACCESS;
    /* Comparisons ignore case, beyond ASCII too. */
    assert_rows("SELECT id FROM people WHERE Name = 'alice'", "1");
    assert_rows("SELECT id FROM people WHERE Name = '\xC3\xA8VE'", "7");
    assert_rows("SELECT id FROM people WHERE Name <> 'ALICE' AND id < 3", "2");
    assert_rows("SELECT id FROM people WHERE Name < 'c' ORDER BY id", "1;2;6;8");
    assert_rows("SELECT id FROM people WHERE Name BETWEEN 'a' AND 'c' ORDER BY id", "1;2");
    assert_rows("SELECT id FROM people WHERE Name IN ('ALICE', 'BOB') ORDER BY id", "1;2");
    /* a list long enough for the hash set, which would compare bytes */
    assert_rows("SELECT id FROM people WHERE Name IN ('ALICE', 'a1', 'a2', 'a3', 'a4', 'a5', "
                "'a6', 'a7', 'a8', 'a9') ORDER BY id", "1");
    assert_rows("SELECT NULLIF(Name, 'ALICE'), CASE Name WHEN 'alice' THEN 'yes' END "
                "FROM people WHERE id = 1", "NULL|yes");
    /* ORDER BY, MIN/MAX, DISTINCT and GROUP BY fold case too; a group
    ** shows its first key as written. */
    assert_rows("SELECT id FROM people ORDER BY Name, id", "3;8;6;1;2;4;5;7");
    assert_rows("SELECT id FROM people ORDER BY Name DESC LIMIT 3", "7;5;4");
    assert_rows("SELECT MAX(Name), MIN(Name) FROM people WHERE id IN (1, 2, 4)", "Carol|Alice");
    assert_rows("SELECT DISTINCT CASE WHEN id < 3 THEN 'Ab' ELSE 'aB' END FROM people", "Ab");
    assert_rows("SELECT CASE WHEN id < 3 THEN 'X' ELSE 'x' END, COUNT(*) FROM people "
                "GROUP BY CASE WHEN id < 3 THEN 'X' ELSE 'x' END", "X|8");
    assert_rows("SELECT kind, COUNT(*) FROM pets GROUP BY kind ORDER BY 1", "cat|2;dog|2;fish|2");
    assert_rows("SELECT COUNT(DISTINCT CASE WHEN id < 3 THEN 'Ab' ELSE 'aB' END), "
                "COUNT(DISTINCT Name) FROM people", "1|7");
    assert_rows("SELECT id < 5, COUNT(DISTINCT CASE WHEN id < 3 THEN 'Ab' ELSE 'aB' END) "
                "FROM people GROUP BY id < 5", "1|1;0|1");
    /* LIKE: * ? # [list] [!list] beside % and _, any letter's case. */
    assert_rows("SELECT id FROM people WHERE Name LIKE 'a*'", "1");
    assert_rows("SELECT id FROM people WHERE Name LIKE 'A%'", "1");
    assert_rows("SELECT id FROM people WHERE Name LIKE '?ob'", "2");
    assert_rows("SELECT id FROM people WHERE Name LIKE '_OB'", "2");
    assert_rows("SELECT id FROM people WHERE Name LIKE '###*'", "6");
    assert_rows("SELECT id FROM people WHERE Name LIKE '#'", "");
    assert_rows("SELECT id FROM people WHERE Name LIKE '[a-c]*' ORDER BY id", "1;2;4");
    assert_rows("SELECT id FROM people WHERE Name LIKE '[!a-c]*' ORDER BY id", "5;6;7");
    assert_rows("SELECT id FROM people WHERE Name LIKE '*[_]x'", "5");
    assert_rows("SELECT id FROM people WHERE Name LIKE '*[%]'", "6");
    assert_rows("SELECT id FROM people WHERE Name LIKE '\xC3\xA8VE'", "7");
    assert_rows("SELECT id FROM people WHERE Name LIKE '[\xC3\xA8]*'", "7");
    assert_rows("SELECT id FROM people WHERE Name LIKE '[ab'", ""); /* unclosed: a literal [ */
    assert_rows("SELECT id FROM people WHERE Name LIKE 'dave!_x' ESCAPE '!'", "5");
    assert_rows("SELECT id FROM people WHERE Name LIKE 'dave!*' ESCAPE '!'", "");
    assert_error("SELECT id FROM people WHERE Name LIKE 'a!' ESCAPE '!'", "22025", "escape");
    assert_rows("SELECT id FROM people WHERE Name LIKE 'dave\\_x' {escape '\\'}", "5");
    assert_rows("SELECT id FROM people WHERE Name LIKE 'dave\\*' {escape '\\'}", "");
    assert_rows("SELECT COUNT(*) FROM people WHERE Name NOT LIKE '*e*'", "4");
    source.base.dialect = LT_DIALECT_STANDARD;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_dialect_standard_sqlite, setup_default),
        cmocka_unit_test_setup(test_dialect_access, setup_default),
        cmocka_unit_test_setup(test_amp_concat, setup_default),
        cmocka_unit_test_setup(test_case, setup_default),
        cmocka_unit_test_setup(test_coalesce_nullif_iif, setup_default),
        cmocka_unit_test_setup(test_cast, setup_default),
        cmocka_unit_test_setup(test_concat, setup_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
