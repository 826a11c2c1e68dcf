/*
** test_sql_lexer.c — tokens, their places and their texts.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "driver/sql/lexer.h"

/* Lex all of `text` into `toks` (END included); returns the count or -1. */
static int lex_all(const char *text, sql_token *toks, int cap, lt_error *err)
{
    sql_lexer lx;
    sql_lexer_init(&lx, text, strlen(text));
    for (int n = 0; n < cap; n++) {
        if (sql_lex(&lx, &toks[n], err) != 0)
            return -1;
        if (toks[n].kind == SQL_TK_END)
            return n + 1;
    }
    return cap;
}

static void assert_text(const char *sql, const sql_token *t, const char *expected)
{
    lt_arena a;
    size_t len;
    lt_arena_init(&a);
    char *s = sql_token_text(sql, t, &a, &len);
    assert_non_null(s);
    assert_int_equal(len, strlen(expected));
    assert_string_equal(s, expected);
    lt_arena_free(&a);
}

static void test_words_and_quotes(void **state)
{
    (void)state;
    const char *sql = "select Name, \"a\"\"b\", [c]]d], `e``f` FROM selects";
    sql_token t[16];
    lt_error err;
    assert_int_equal(lex_all(sql, t, 16, &err), 11);
    assert_int_equal(t[0].kind, SQL_TK_WORD);
    assert_int_equal(t[0].kw, SQL_KW_SELECT);
    assert_int_equal(t[1].kind, SQL_TK_WORD);
    assert_int_equal(t[1].kw, SQL_KW_NONE);
    assert_text(sql, &t[1], "Name");
    assert_int_equal(t[2].kind, SQL_TK_COMMA);
    assert_int_equal(t[3].kind, SQL_TK_QUOTED);
    assert_text(sql, &t[3], "a\"b");
    assert_int_equal(t[5].kind, SQL_TK_QUOTED);
    assert_text(sql, &t[5], "c]d");
    assert_int_equal(t[7].kind, SQL_TK_QUOTED);
    assert_text(sql, &t[7], "e`f");
    assert_int_equal(t[8].kw, SQL_KW_FROM);
    assert_int_equal(t[9].kw, SQL_KW_NONE); /* "selects" is no keyword */
    assert_int_equal(t[10].kind, SQL_TK_END);
    /* Quoted words are never keywords. */
    assert_int_equal(lex_all("\"select\" [from]", t, 16, &err), 3);
    assert_int_equal(t[0].kw, SQL_KW_NONE);
    assert_int_equal(t[1].kw, SQL_KW_NONE);
    assert_true(sql_keyword_reserved(SQL_KW_FROM));
    assert_false(sql_keyword_reserved(SQL_KW_DATE));
    assert_string_equal(sql_keyword_name(SQL_KW_BETWEEN), "BETWEEN");
}

static void test_literals(void **state)
{
    (void)state;
    const char *sql = "123 1.5 .5 1. 1e3 1.5E-2 'it''s' '' ? Sheet1$";
    sql_token t[16];
    lt_error err;
    static const sql_token_kind kinds[] = {
        SQL_TK_INTEGER, SQL_TK_DECIMAL, SQL_TK_DECIMAL, SQL_TK_DECIMAL, SQL_TK_FLOAT,
        SQL_TK_FLOAT, SQL_TK_STRING, SQL_TK_STRING, SQL_TK_PARAM, SQL_TK_WORD, SQL_TK_END,
    };
    assert_int_equal(lex_all(sql, t, 16, &err), 11);
    for (int i = 0; i < 11; i++)
        assert_int_equal(t[i].kind, kinds[i]);
    assert_text(sql, &t[0], "123");
    assert_text(sql, &t[5], "1.5E-2");
    assert_text(sql, &t[6], "it's");
    assert_text(sql, &t[7], "");
    assert_text(sql, &t[9], "Sheet1$");
}

static void test_operators(void **state)
{
    (void)state;
    const char *sql = "( ) { } , . ; * + - / % = <> != < <= > >= || &";
    static const sql_token_kind kinds[] = {
        SQL_TK_LPAREN, SQL_TK_RPAREN, SQL_TK_LBRACE, SQL_TK_RBRACE, SQL_TK_COMMA,
        SQL_TK_DOT, SQL_TK_SEMI, SQL_TK_STAR, SQL_TK_PLUS, SQL_TK_MINUS, SQL_TK_SLASH,
        SQL_TK_PERCENT, SQL_TK_EQ, SQL_TK_NE, SQL_TK_NE, SQL_TK_LT, SQL_TK_LE,
        SQL_TK_GT, SQL_TK_GE, SQL_TK_CONCAT, SQL_TK_AMP, SQL_TK_END,
    };
    sql_token t[32];
    lt_error err;
    assert_int_equal(lex_all(sql, t, 32, &err), 22);
    for (int i = 0; i < 22; i++)
        assert_int_equal(t[i].kind, kinds[i]);
    /* No space needed between operators and operands. */
    assert_int_equal(lex_all("a<=-1", t, 32, &err), 5);
    assert_int_equal(t[1].kind, SQL_TK_LE);
    assert_int_equal(t[2].kind, SQL_TK_MINUS);
}

static void test_positions(void **state)
{
    (void)state;
    /* Columns count characters: 'é' is two bytes, one column. */
    const char *sql = "SELECT '\xC3\xA9', x -- note\r\n  /* a\nb */ y\rz";
    sql_token t[16];
    lt_error err;
    assert_int_equal(lex_all(sql, t, 16, &err), 7);
    assert_int_equal(t[0].line, 1);
    assert_int_equal(t[0].column, 1);
    assert_int_equal(t[1].column, 8);
    assert_int_equal(t[3].kind, SQL_TK_WORD);
    assert_int_equal(t[3].start, 13);
    assert_int_equal(t[3].column, 13);
    assert_int_equal(t[4].line, 3); /* y: after \r\n and a comment spanning a line */
    assert_int_equal(t[4].column, 6);
    assert_int_equal(t[5].line, 4); /* z: after a lone \r */
    assert_int_equal(t[5].column, 1);
    assert_int_equal(t[6].kind, SQL_TK_END);
}

static void assert_lex_error(const char *sql, const char *message)
{
    sql_token t[16];
    lt_error err;
    lt_error_clear(&err);
    assert_int_equal(lex_all(sql, t, 16, &err), -1);
    assert_string_equal(err.sqlstate, "42000");
    if (strcmp(err.message, message) != 0)
        fail_msg("%s: '%s', expected '%s'", sql, err.message, message);
}

static void test_errors(void **state)
{
    (void)state;
    assert_lex_error("SELECT\n  'abc", "syntax error at line 2, column 3: unterminated string literal");
    assert_lex_error("SELECT [abc", "syntax error at line 1, column 8: unterminated quoted identifier");
    assert_lex_error("SELECT \"\"", "syntax error at line 1, column 8: empty quoted identifier");
    assert_lex_error("SELECT /* x", "syntax error at line 1, column 8: unterminated comment");
    assert_lex_error("SELECT #", "syntax error at line 1, column 8: unexpected character '#'");
    assert_lex_error("SELECT \x01", "syntax error at line 1, column 8: unexpected byte 0x01");
    assert_lex_error("SELECT 12abc", "syntax error at line 1, column 8: malformed number");
    assert_lex_error("SELECT 1e", "syntax error at line 1, column 8: malformed number: exponent without digits");
    assert_lex_error("SELECT 1.2.3", "syntax error at line 1, column 8: malformed number");
    assert_lex_error("a ! b", "syntax error at line 1, column 3: unexpected character '!'");
}

static void test_utf8_length(void **state)
{
    (void)state;
    assert_int_equal(sql_utf8_length("", 0), 0);
    assert_int_equal(sql_utf8_length("abc", 3), 3);
    assert_int_equal(sql_utf8_length("\xC3\xA9t\xE2\x82\xAC", 6), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words_and_quotes),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_utf8_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
