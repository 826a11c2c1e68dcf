/*
** test_sql_parser.c — the syntax tree of statements (printed as
** S-expressions), source spans, and the errors with their places.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "driver/sql/ast.h"

static const char *op_name(sql_op op)
{
    static const char *const names[] = {"?", "+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">="};
    return names[op];
}

static void put(char *out, size_t cap, const char *fmt, const char *s)
{
    size_t len = strlen(out);
    snprintf(out + len, cap - len, fmt, s);
}

static void print_expr(const sql_expr *e, char *out, size_t cap)
{
    char buf[64];
    switch (e->kind) {
    case SQL_E_LITERAL:
        switch (e->value.type) {
        case LT_NULL:    put(out, cap, "%s", "NULL"); break;
        case LT_BOOL:    put(out, cap, "%s", e->value.u.b ? "TRUE" : "FALSE"); break;
        case LT_INT64:   snprintf(buf, sizeof buf, "%lld", (long long)e->value.u.i64); put(out, cap, "%s", buf); break;
        case LT_DOUBLE:  snprintf(buf, sizeof buf, "%gd", e->value.u.f64); put(out, cap, "%s", buf); break;
        case LT_DECIMAL:
            if (e->value.u.dec < 0)
                snprintf(buf, sizeof buf, "-%llum%d", (unsigned long long)-e->value.u.dec, e->value.scale);
            else
                snprintf(buf, sizeof buf, "%llum%d", (unsigned long long)e->value.u.dec, e->value.scale);
            put(out, cap, "%s", buf);
            break;
        case LT_TEXT:    snprintf(buf, sizeof buf, "'%.*s'", (int)e->value.u.bytes.len, e->value.u.bytes.ptr); put(out, cap, "%s", buf); break;
        case LT_DATE:    snprintf(buf, sizeof buf, "date:%d", e->value.u.date); put(out, cap, "%s", buf); break;
        case LT_TIME:
        case LT_TIMESTAMP: snprintf(buf, sizeof buf, "ts:%lld", (long long)e->value.u.i64); put(out, cap, "%s", buf); break;
        default:         put(out, cap, "%s", "?"); break;
        }
        return;
    case SQL_E_PARAM:
        snprintf(buf, sizeof buf, "?%u", e->param);
        put(out, cap, "%s", buf);
        return;
    case SQL_E_COLUMN:
        if (e->qualifier) {
            put(out, cap, "%s.", e->qualifier);
        }
        put(out, cap, "%s", e->star ? "*" : e->name);
        return;
    default:
        break;
    }
    put(out, cap, "%s", "(");
    switch (e->kind) {
    case SQL_E_NEG:     put(out, cap, "%s", "neg"); break;
    case SQL_E_ARITH:
    case SQL_E_COMPARE: put(out, cap, "%s", op_name(e->op)); break;
    case SQL_E_AND:     put(out, cap, "%s", "and"); break;
    case SQL_E_OR:      put(out, cap, "%s", "or"); break;
    case SQL_E_NOT:     put(out, cap, "%s", "not"); break;
    case SQL_E_IS_NULL: put(out, cap, "%s", e->negated ? "isnotnull" : "isnull"); break;
    case SQL_E_LIKE:    put(out, cap, "%s", e->negated ? "notlike" : "like"); break;
    case SQL_E_IN:      put(out, cap, "%s", e->negated ? "notin" : "in"); break;
    case SQL_E_BETWEEN: put(out, cap, "%s", e->negated ? "notbetween" : "between"); break;
    case SQL_E_CONCAT:  put(out, cap, "%s", "||"); break;
    case SQL_E_FUNC:    put(out, cap, "%s", e->name); if (e->star) put(out, cap, "%s", " *"); break;
    case SQL_E_CASE:    put(out, cap, "%s", "case"); break;
    case SQL_E_CAST:    put(out, cap, "%s", "cast"); break;
    case SQL_E_SUBQUERY: put(out, cap, "%s", "sub"); break;
    case SQL_E_EXISTS:  put(out, cap, "%s", e->negated ? "notexists" : "exists"); break;
    case SQL_E_IN_SELECT: put(out, cap, "%s", e->negated ? "notinsel" : "insel"); break;
    default: break;
    }
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++) {
        put(out, cap, "%s", " ");
        print_expr(sql_expr_child(e, i), out, cap);
    }
    put(out, cap, "%s", ")");
}

static lt_arena arena;
static lt_error err;
static char out[2048];

static sql_select *parse(const char *sql)
{
    sql_select *s;
    lt_arena_free(&arena);
    lt_arena_init(&arena);
    lt_error_clear(&err);
    if (sql_parse(sql, strlen(sql), &arena, &s, &err) != 0)
        return NULL;
    return s;
}

/* The WHERE clause of "SELECT 1 FROM t WHERE <expr>" as an S-expression. */
static void assert_expr(const char *expr, const char *expected)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT 1 FROM t WHERE %s", expr);
    sql_select *s = parse(sql);
    if (s == NULL)
        fail_msg("%s: %s", expr, err.message);
    out[0] = '\0';
    print_expr(s->where, out, sizeof out);
    if (strcmp(out, expected) != 0)
        fail_msg("%s\n  got:      %s\n  expected: %s", expr, out, expected);
}

static void assert_parse_error(const char *sql, const char *state, const char *message)
{
    if (parse(sql) != NULL)
        fail_msg("%s: parsed", sql);
    if (strcmp(err.sqlstate, state) != 0 || strcmp(err.message, message) != 0)
        fail_msg("%s\n  got:      %s %s\n  expected: %s %s", sql, err.sqlstate, err.message, state, message);
}

static void test_precedence(void **state)
{
    (void)state;
    assert_expr("a + b * c", "(+ a (* b c))");
    assert_expr("a * b + c", "(+ (* a b) c)");
    assert_expr("a - b - c", "(- (- a b) c)");
    assert_expr("a / b % c", "(% (/ a b) c)");
    assert_expr("(a + b) * c", "(* (+ a b) c)");
    assert_expr("-a * b", "(* (neg a) b)");
    assert_expr("- 5 * 2", "(* -5 2)");
    assert_expr("a = 1 OR b = 2 AND c = 3", "(or (= a 1) (and (= b 2) (= c 3)))");
    assert_expr("(a = 1 OR b = 2) AND c = 3", "(and (or (= a 1) (= b 2)) (= c 3))");
    assert_expr("NOT a = 1 AND b", "(and (not (= a 1)) b)");
    assert_expr("NOT NOT a", "(not (not a))");
    assert_expr("a + 1 > b * 2", "(> (+ a 1) (* b 2))");
    assert_expr("a <> b", "(<> a b)");
    assert_expr("a != b", "(<> a b)");
    assert_expr("a <= b", "(<= a b)");
    assert_expr("a || b", "(|| a b)");
    assert_expr("t.a = \"T\".[b]", "(= t.a T.b)");
}

static void test_predicates(void **state)
{
    (void)state;
    assert_expr("a IS NULL", "(isnull a)");
    assert_expr("a + 1 IS NOT NULL", "(isnotnull (+ a 1))");
    assert_expr("a LIKE 'x%'", "(like a 'x%')");
    assert_expr("a NOT LIKE 'x!%' ESCAPE '!'", "(notlike a 'x!%' '!')");
    /* ODBC's escape sequence for the LIKE escape character */
    assert_expr("a LIKE 'x\\%' {escape '\\'}", "(like a 'x\\%' '\\')");
    assert_expr("a NOT LIKE 'x!%' {ESCAPE '!'} AND b", "(and (notlike a 'x!%' '!') b)");
    assert_parse_error("SELECT a LIKE 'x' {escape '!' FROM t", "42000",
                       "syntax error at line 1, column 31: expected '}' to close {escape ...} near 'FROM'");
    assert_expr("a IN (1, 2, 3)", "(in a 1 2 3)");
    assert_expr("a NOT IN ('x')", "(notin a 'x')");
    assert_expr("a BETWEEN 1 AND 2 AND b", "(and (between a 1 2) b)");
    assert_expr("a NOT BETWEEN b + 1 AND c * 2", "(notbetween a (+ b 1) (* c 2))");
    assert_expr("NOT a BETWEEN 1 AND 2", "(not (between a 1 2))");
    assert_expr("a = ? AND b IN (?, ?)", "(and (= a ?0) (in b ?1 ?2))");
}

static void test_conditionals_and_calls(void **state)
{
    (void)state;
    assert_expr("CASE WHEN a THEN 1 ELSE 2 END = 1", "(= (case 2 a 1) 1)");
    assert_expr("CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' END", "(case a 1 'x' 2 'y')");
    assert_expr("CAST(a + 1 AS INTEGER) > 2", "(> (cast (+ a 1)) 2)");
    assert_expr("EXTRACT(YEAR FROM d) = 2020", "(= (EXTRACT 'YEAR' d) 2020)");
    assert_expr("POSITION('a' IN b || c) = 1", "(= (POSITION 'a' (|| b c)) 1)");
    assert_expr("SUBSTRING(a FROM 2 FOR 3) = SUBSTRING(a, 1)", "(= (SUBSTRING a 2 3) (SUBSTRING a 1))");
    assert_expr("SUBSTRING(a FROM 2) = substring(a, 1, 2)", "(= (SUBSTRING a 2) (substring a 1 2))");
    assert_expr("TRIM(LEADING 'x' FROM a) = TRIM(a)", "(= (LTRIM a 'x') (TRIM a))");
    assert_expr("TRIM(BOTH FROM a) = TRIM('y' FROM a)", "(= (TRIM a) (TRIM a 'y'))");
    assert_expr("TRIM(TRAILING FROM a) = LEFT(a, 2)", "(= (RTRIM a) (LEFT a 2))");
    assert_expr("{fn RIGHT(a, 1)} = {fn CONVERT(a, SQL_VARCHAR)}", "(= (RIGHT a 1) (cast a))");

    sql_select *s = parse("SELECT CAST(a AS DECIMAL(10, 2)), CAST(a AS CHARACTER VARYING(5)), "
                          "CAST(a AS DOUBLE PRECISION), CONVERT(a, SQL_SMALLINT), CAST(a AS CHAR(3)), "
                          "CAST(a AS TIMESTAMP(3)), CAST(a AS FLOAT(10)), CAST(a AS NATIONAL CHARACTER VARYING)");
    if (s == NULL)
        fail_msg("%s", err.message);
    struct { lt_type type; uint32_t size; int16_t scale; bool pad; } want[] = {
        {LT_DECIMAL, 10, 2, false}, {LT_TEXT, 5, 0, false}, {LT_DOUBLE, 15, 0, false},
        {LT_INT64, 5, 0, false}, {LT_TEXT, 3, 0, true}, {LT_TIMESTAMP, 23, 3, false},
        {LT_DOUBLE, 7, 0, false}, {LT_TEXT, 0, 0, false},
    };
    assert_int_equal(s->nitems, 8);
    for (uint32_t i = 0; i < 8; i++) {
        const sql_expr *e = s->items[i].expr;
        assert_int_equal(e->kind, SQL_E_CAST);
        if (e->cast.type != want[i].type || e->cast.size != want[i].size ||
            e->cast.scale != want[i].scale || e->pad != want[i].pad)
            fail_msg("item %u: type %d size %u scale %d pad %d", i, e->cast.type, e->cast.size,
                     e->cast.scale, e->pad);
    }
}

static void test_literals(void **state)
{
    (void)state;
    assert_expr("a = 42", "(= a 42)");
    assert_expr("a = -42", "(= a -42)");
    assert_expr("a = 1.50", "(= a 150m2)");
    assert_expr("a = -.5", "(= a -5m1)");
    assert_expr("a = 1e3", "(= a 1000d)");
    assert_expr("a = 9223372036854775808", "(= a 9223372036854775808m0)");
    assert_expr("a = -9223372036854775808", "(= a -9223372036854775808)");
    assert_expr("a = 'it''s'", "(= a 'it's')");
    assert_expr("a = NULL OR b = TRUE OR c = false", "(or (or (= a NULL) (= b TRUE)) (= c FALSE))");
    assert_expr("a = DATE '1970-01-02'", "(= a date:1)");
    assert_expr("a = {d '1970-01-03'}", "(= a date:2)");
    assert_expr("a = {ts '1970-01-01 00:00:01.5'}", "(= a ts:1500000)");
    assert_expr("a = TIME '00:00:02'", "(= a ts:2000000)");
    assert_expr("date = 1", "(= date 1)");
    assert_expr("f(a, 1) = {fn UCASE(b)}", "(= (f a 1) (UCASE b))");
    assert_expr("count(*) > 1", "(> (count *) 1)");
}

static void test_select_shape(void **state)
{
    (void)state;
    sql_select *s = parse("SELECT DISTINCT a, t.b AS x, c y, 'z' AS \"w\", *, t.* FROM [My Table] AS t "
                          "WHERE a > 1 ORDER BY a DESC NULLS LAST, 2, x ASC LIMIT 10 OFFSET ?;");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_true(s->distinct);
    assert_int_equal(s->nitems, 6);
    assert_string_equal(s->items[1].alias, "x");
    assert_string_equal(s->items[2].alias, "y");
    assert_string_equal(s->items[3].alias, "w");
    assert_null(s->items[4].expr);
    assert_null(s->items[4].star_table);
    assert_null(s->items[5].expr);
    assert_string_equal(s->items[5].star_table, "t");
    assert_string_equal(s->from->name, "My Table");
    assert_string_equal(s->from->alias, "t");
    assert_int_equal(s->norder, 3);
    assert_true(s->order[0].desc);
    assert_int_equal(s->order[0].nulls, -1);
    assert_false(s->order[1].desc);
    assert_int_equal(s->order[2].nulls, 0);
    assert_int_equal(s->limit->value.u.i64, 10);
    assert_int_equal(s->offset->kind, SQL_E_PARAM);
    assert_int_equal(s->nparams, 1);

    s = parse("SELECT a, COUNT(DISTINCT b), count(*) FROM t WHERE c GROUP BY a, b + 1 HAVING SUM(c) > 2 AND a ORDER BY 2");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->ngroup, 2);
    out[0] = '\0';
    print_expr(s->group[1], out, sizeof out);
    assert_string_equal(out, "(+ b 1)");
    out[0] = '\0';
    print_expr(s->having, out, sizeof out);
    assert_string_equal(out, "(and (> (SUM c) 2) a)");
    assert_true(s->items[1].expr->distinct);
    assert_true(s->items[2].expr->star);
    assert_int_equal(s->norder, 1);

    s = parse("SELECT * FROM a, b x JOIN c ON x.i = c.i LEFT OUTER JOIN d AS y ON y.j = 1 CROSS JOIN e "
              "INNER JOIN f ON TRUE LEFT JOIN g ON g.k = a.k");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 7);
    static const sql_join joins[] = {SQL_JOIN_NONE, SQL_JOIN_CROSS, SQL_JOIN_INNER, SQL_JOIN_LEFT,
                                     SQL_JOIN_CROSS, SQL_JOIN_INNER, SQL_JOIN_LEFT};
    for (uint32_t i = 0; i < 7; i++) {
        assert_int_equal(s->from[i].join, joins[i]);
        assert_true((s->from[i].on != NULL) == (joins[i] == SQL_JOIN_INNER || joins[i] == SQL_JOIN_LEFT));
    }
    assert_string_equal(s->from[1].alias, "x");
    assert_string_equal(s->from[3].alias, "y");
    out[0] = '\0';
    print_expr(s->from[2].on, out, sizeof out);
    assert_string_equal(out, "(= x.i c.i)");
    s = parse("SELECT * FROM {oj a LEFT OUTER JOIN b ON a.i = b.i}, c WHERE 1 = 1");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 3);
    assert_int_equal(s->from[1].join, SQL_JOIN_LEFT);
    assert_int_equal(s->from[2].join, SQL_JOIN_CROSS);
    assert_non_null(s->where);

    /* Spans: the text of an item, for labels. */
    const char *sql = "SELECT a  +  1 , -2.5*b FROM t";
    s = parse(sql);
    assert_non_null(s);
    assert_int_equal(s->items[0].expr->start, 7);
    assert_int_equal(s->items[0].expr->end, 14);
    assert_int_equal(s->items[1].expr->start, 17);
    assert_int_equal(s->items[1].expr->end, 23);
    assert_int_equal(s->items[1].expr->column, 18);

    s = parse("SELECT TOP 5 a FROM t");
    assert_non_null(s);
    assert_int_equal(s->limit->value.u.i64, 5);
    s = parse("select a from t order by a offset 2 rows fetch first 3 rows only");
    assert_non_null(s);
    assert_int_equal(s->offset->value.u.i64, 2);
    assert_int_equal(s->limit->value.u.i64, 3);
    s = parse("SELECT a FROM t LIMIT 2, 3");
    assert_non_null(s);
    assert_int_equal(s->offset->value.u.i64, 2);
    assert_int_equal(s->limit->value.u.i64, 3);
    s = parse("SELECT 1");
    assert_non_null(s);
    assert_null(s->from);
    s = parse("SELECT date, first FROM t x");
    assert_non_null(s);
    assert_string_equal(s->from->alias, "x");
}

static void test_composition(void **state)
{
    (void)state;
    /* Derived tables, with a column list. */
    sql_select *s = parse("SELECT * FROM (SELECT a, b FROM t WHERE a > ? ORDER BY a LIMIT 3) AS d (x, y) "
                          "JOIN ((SELECT 1 AS k)) e ON d.x = e.k");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 2);
    assert_non_null(s->from[0].sub);
    assert_null(s->from[0].name);
    assert_string_equal(s->from[0].alias, "d");
    assert_int_equal(s->from[0].ncolnames, 2);
    assert_string_equal(s->from[0].colnames[1], "y");
    assert_int_equal(s->from[0].sub->norder, 1);
    assert_non_null(s->from[0].sub->limit);
    assert_string_equal(s->from[1].alias, "e");
    assert_int_equal(s->nparams, 1);
    /* Set operations: INTERSECT binds tighter, ORDER BY/LIMIT of the whole. */
    s = parse("SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v EXCEPT "
              "(SELECT d FROM w LIMIT 1) ORDER BY 1 LIMIT 5");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->setop, SQL_SET_EXCEPT);
    assert_int_equal(s->norder, 1);
    assert_non_null(s->limit);
    assert_int_equal(s->lhs->setop, SQL_SET_UNION_ALL);
    assert_int_equal(s->lhs->rhs->setop, SQL_SET_INTERSECT);
    assert_int_equal(s->lhs->lhs->setop, SQL_SET_NONE);
    assert_int_equal(s->rhs->setop, SQL_SET_NONE);
    assert_non_null(s->rhs->limit);
    assert_int_equal(s->column, 69);
    s = parse("(SELECT 1) UNION DISTINCT SELECT 2");
    assert_non_null(s);
    assert_int_equal(s->setop, SQL_SET_UNION);
    /* Parenthesised joins: on the left they join left to right; on the
    ** right a nested join, SELECT * over its tables. */
    s = parse("SELECT a FROM ((t JOIN u ON 1 = 1) LEFT JOIN v ON 2 = 2) JOIN w ON 3 = 3");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 4);
    assert_int_equal(s->from[0].join, SQL_JOIN_NONE);
    assert_int_equal(s->from[1].join, SQL_JOIN_INNER);
    assert_int_equal(s->from[2].join, SQL_JOIN_LEFT);
    assert_string_equal(s->from[3].name, "w");
    s = parse("SELECT a FROM t LEFT JOIN (u JOIN (v JOIN w ON 1 = 1) ON 2 = 2) ON 3 = 3");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 2);
    assert_true(s->from[1].nested);
    assert_int_equal(s->from[1].join, SQL_JOIN_LEFT);
    assert_non_null(s->from[1].on);
    assert_int_equal(s->from[1].sub->nfrom, 2);
    assert_true(s->from[1].sub->from[1].nested);
    assert_false(parse("SELECT a FROM t JOIN ((SELECT 1) UNION (SELECT 2)) AS x ON 1 = 1")->from[1].nested);
    s = parse("SELECT a FROM {oj t LEFT OUTER JOIN u LEFT OUTER JOIN v ON 1 = 1 ON 2 = 2}");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->nfrom, 2);
    assert_true(s->from[1].nested);
    assert_int_equal(s->from[1].sub->from[1].join, SQL_JOIN_LEFT);
    assert_string_equal(s->from[1].sub->from[0].name, "u");
    assert_int_equal(s->from[1].sub->from[0].join, SQL_JOIN_NONE);
    s = parse("SELECT 1 EXCEPT ALL SELECT 2 INTERSECT ALL SELECT 3");
    if (s == NULL)
        fail_msg("%s", err.message);
    assert_int_equal(s->setop, SQL_SET_EXCEPT_ALL);
    assert_int_equal(s->rhs->setop, SQL_SET_INTERSECT_ALL);
    assert_null(parse("SELECT 1 INTERSECT ALL DISTINCT SELECT 2"));
    /* Subqueries. */
    assert_expr("a IN (SELECT b FROM u) AND NOT EXISTS (SELECT 1) OR a NOT IN (SELECT c FROM v)",
                "(or (and (insel a (sub)) (not (exists (sub)))) (notinsel a (sub)))");
    assert_expr("(SELECT MAX(b) FROM u) + 1 > a", "(> (+ (sub) 1) a)");
    /* Joins. */
    s = parse("SELECT * FROM a RIGHT JOIN b ON a.i = b.i FULL OUTER JOIN c USING (i, j) "
              "NATURAL LEFT JOIN d NATURAL JOIN e RIGHT OUTER JOIN f ON TRUE");
    if (s == NULL)
        fail_msg("%s", err.message);
    static const sql_join joins[] = {SQL_JOIN_NONE, SQL_JOIN_RIGHT, SQL_JOIN_FULL, SQL_JOIN_LEFT,
                                     SQL_JOIN_INNER, SQL_JOIN_RIGHT};
    assert_int_equal(s->nfrom, 6);
    for (uint32_t i = 0; i < 6; i++)
        assert_int_equal(s->from[i].join, joins[i]);
    assert_int_equal(s->from[2].nusing, 2);
    assert_string_equal(s->from[2].using_cols[1], "j");
    assert_null(s->from[2].on);
    assert_true(s->from[3].natural);
    assert_true(s->from[4].natural);
    assert_non_null(s->from[5].on);
}

static void test_errors(void **state)
{
    (void)state;
    assert_parse_error("SELECT", "42000", "syntax error at line 1, column 7: expected an expression at end of input");
    assert_parse_error("SELECT a,", "42000", "syntax error at line 1, column 10: expected an expression at end of input");
    assert_parse_error("SELECT a FROM t WHERE a = = 1", "42000",
                       "syntax error at line 1, column 27: expected an expression near '='");
    assert_parse_error("SELECT a\nFROM t\nWHERE (a = 1", "42000",
                       "syntax error at line 3, column 13: expected ')' at end of input");
    assert_parse_error("SELECT a FROM t WHERE a IN 1", "42000",
                       "syntax error at line 1, column 28: expected '(' after IN near '1'");
    assert_parse_error("SELECT a FROM t WHERE a IS 1", "42000",
                       "syntax error at line 1, column 28: expected NULL after IS near '1'");
    assert_parse_error("SELECT a FROM t WHERE a BETWEEN 1 OR 2", "42000",
                       "syntax error at line 1, column 35: expected AND near 'OR'");
    assert_parse_error("SELECT a FROM t ORDER a", "42000",
                       "syntax error at line 1, column 23: expected BY near 'a'");
    assert_parse_error("SELECT a FROM t t2 t3", "42000",
                       "syntax error at line 1, column 20: expected end of statement near 't3'");
    assert_parse_error("SELECT a FROM select", "42000",
                       "syntax error at line 1, column 15: expected a table name near 'select'");
    assert_parse_error("SELECT a FROM t;;", "42000",
                       "syntax error at line 1, column 17: expected end of statement near ';'");
    assert_parse_error("SELECT DATE 'x'", "22007",
                       "invalid DATE literal at line 1, column 13: 'x' is not a date (YYYY-MM-DD)");
    assert_parse_error("SELECT 1e999", "42000", "syntax error at line 1, column 8: number out of range '1e999'");
    assert_parse_error("SELECT a FROM t WHERE a IN (SELECT 1", "42000",
                       "syntax error at line 1, column 37: expected ')' after the subquery at end of input");
    assert_parse_error("SELECT a FROM t WHERE EXISTS 1", "42000",
                       "syntax error at line 1, column 30: expected '(SELECT' after EXISTS near '1'");
    assert_parse_error("SELECT CASE WHEN a THEN 1", "42000",
                       "syntax error at line 1, column 26: expected END at end of input");
    assert_parse_error("SELECT CAST(a AS)", "42000", "syntax error at line 1, column 17: expected a type name near ')'");
    assert_parse_error("SELECT CAST(a AS NUMBER)", "42000", "syntax error at line 1, column 18: unknown type name 'NUMBER'");
    assert_parse_error("SELECT EXTRACT(YEAR d)", "42000",
                       "syntax error at line 1, column 16: expected a field name and FROM (EXTRACT(YEAR FROM x)) near 'YEAR'");
    assert_parse_error("SELECT TRIM(LEADING a)", "42000", "syntax error at line 1, column 22: expected FROM near ')'");
    assert_parse_error("SELECT LEFT", "42000", "syntax error at line 1, column 8: expected an expression near 'LEFT'");
    assert_parse_error("SELECT a FROM t FULL u ON 1 = 1", "42000",
                       "syntax error at line 1, column 22: expected JOIN near 'u'");
    assert_parse_error("SELECT a FROM t NATURAL CROSS JOIN u", "42000",
                       "syntax error at line 1, column 25: expected JOIN, INNER, LEFT, RIGHT or FULL after NATURAL near 'CROSS'");
    assert_parse_error("SELECT a FROM t JOIN u USING a", "42000",
                       "syntax error at line 1, column 30: expected '(' after USING near 'a'");
    assert_parse_error("SELECT a FROM t JOIN u USING (a,)", "42000",
                       "syntax error at line 1, column 33: expected a column name near ')'");
    assert_parse_error("SELECT a FROM t JOIN u", "42000", "syntax error at line 1, column 23: expected ON at end of input");
    assert_parse_error("SELECT a FROM t LEFT u", "42000", "syntax error at line 1, column 22: expected JOIN near 'u'");
    assert_parse_error("SELECT a FROM {oj t LEFT OUTER JOIN u ON 1 = 1", "42000",
                       "syntax error at line 1, column 47: expected '}' at end of input");
    assert_parse_error("SELECT a FROM {x t}", "42000", "syntax error at line 1, column 15: expected {oj near '{'");
    assert_parse_error("SELECT a FROM t GROUP a", "42000",
                       "syntax error at line 1, column 23: expected BY near 'a'");
    assert_parse_error("SELECT a FROM t GROUP BY a,", "42000",
                       "syntax error at line 1, column 28: expected an expression at end of input");
    assert_parse_error("SELECT a FROM t HAVING", "42000",
                       "syntax error at line 1, column 23: expected an expression at end of input");
    assert_parse_error("SELECT a FROM (SELECT 1)", "42000",
                       "syntax error at line 1, column 15: a derived table needs an alias: (SELECT ...) AS name");
    assert_parse_error("SELECT a FROM t JOIN (u JOIN v ON 1 = 1", "42000",
                       "syntax error at line 1, column 40: expected a join or ')' at end of input");
    assert_parse_error("SELECT a FROM (SELECT 1) AS x (", "42000",
                       "syntax error at line 1, column 32: expected a column name at end of input");
    assert_parse_error("SELECT a FROM s.t", "42000",
                       "syntax error at line 1, column 16: qualified table names (schema.table) are not supported yet");
    assert_parse_error("SELECT {oj x}", "42000", "syntax error at line 1, column 9: this ODBC escape is not supported yet");
    assert_parse_error("SELECT TOP 5 PERCENT a FROM t", "42000",
                       "syntax error at line 1, column 14: TOP ... PERCENT is not supported yet");
    assert_parse_error("SELECT TOP 1 a FROM t LIMIT 2", "42000",
                       "syntax error at line 1, column 23: TOP and LIMIT cannot be used together");
    assert_parse_error("SELECT 1 UNION", "42000",
                       "syntax error at line 1, column 15: expected SELECT at end of input");
    assert_parse_error("(SELECT 1 ORDER BY 1) ORDER BY 1", "42000",
                       "syntax error at line 1, column 23: ORDER BY given twice for the same query");
    assert_parse_error("SELECT 1 UNION SELECT 2 LIMIT 1 LIMIT 2", "42000",
                       "syntax error at line 1, column 33: expected end of statement near 'LIMIT'");
    assert_parse_error("WITH x AS (SELECT 1) SELECT 1", "42000",
                       "syntax error at line 1, column 1: WITH (common table expressions) is not supported yet");
    assert_parse_error("SHOW TABLES", "42000",
                       "syntax error at line 1, column 1: unsupported statement 'SHOW': Lector runs SELECT queries only");
    assert_parse_error("   ", "42000", "syntax error: empty statement");
    assert_parse_error("(1)", "42000", "syntax error at line 1, column 2: expected SELECT near '1'");
}

static void test_read_only(void **state)
{
    (void)state;
    assert_parse_error("insert into t values (1)", "42000", "Lector is read-only: INSERT is not supported");
    assert_parse_error("  Update t set a = 1", "42000", "Lector is read-only: UPDATE is not supported");
    assert_parse_error("DELETE FROM t", "42000", "Lector is read-only: DELETE is not supported");
    assert_parse_error("create table t (a int)", "42000", "Lector is read-only: CREATE is not supported");
    assert_parse_error("DROP TABLE t", "42000", "Lector is read-only: DROP is not supported");
    assert_parse_error("ALTER TABLE t ADD b int", "42000", "Lector is read-only: ALTER is not supported");
    assert_parse_error("MERGE INTO t USING u ON 1 = 1", "42000", "Lector is read-only: MERGE is not supported");
    assert_parse_error("TRUNCATE TABLE t", "42000", "Lector is read-only: TRUNCATE is not supported");
    assert_parse_error("GRANT SELECT ON t TO u", "42000", "Lector is read-only: GRANT is not supported");
    assert_parse_error("SELECT a INTO b FROM t", "42000", "Lector is read-only: SELECT INTO is not supported");
}

static void test_depth_limit(void **state)
{
    (void)state;
    /* Deep nesting of any kind is refused cleanly, never a stack overflow. */
    static char sql[200000];
    size_t n = 0;
    n += (size_t)sprintf(sql + n, "SELECT ");
    for (int i = 0; i < 50000; i++)
        sql[n++] = '(';
    sql[n++] = '1';
    for (int i = 0; i < 50000; i++)
        sql[n++] = ')';
    sql[n] = '\0';
    assert_null(parse(sql));
    assert_non_null(strstr(err.message, "nested too deeply"));
    n = (size_t)sprintf(sql, "SELECT 1");
    for (int i = 0; i < 20000; i++)
        n += (size_t)sprintf(sql + n, "+1");
    assert_null(parse(sql));
    assert_non_null(strstr(err.message, "nested too deeply"));
    n = (size_t)sprintf(sql, "SELECT ");
    for (int i = 0; i < 20000; i++)
        n += (size_t)sprintf(sql + n, "NOT ");
    sprintf(sql + n, "TRUE");
    assert_null(parse(sql));
    assert_non_null(strstr(err.message, "nested too deeply"));
    /* Wide is fine. */
    n = (size_t)sprintf(sql, "SELECT 1 FROM t WHERE a IN (1");
    for (int i = 0; i < 10000; i++)
        n += (size_t)sprintf(sql + n, ",%d", i);
    sprintf(sql + n, ")");
    sql_select *s = parse(sql);
    assert_non_null(s);
    assert_int_equal(s->where->nargs, 10001);
}

static int teardown(void **state)
{
    (void)state;
    lt_arena_free(&arena);
    return 0;
}

int main(void)
{
    lt_arena_init(&arena);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_conditionals_and_calls),
        cmocka_unit_test(test_select_shape),
        cmocka_unit_test(test_composition),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_read_only),
        cmocka_unit_test(test_depth_limit),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
