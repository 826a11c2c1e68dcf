/*
** lexer.h — SQL text to tokens.
**
** The lexer hands out one token at a time with its place in the text (byte
** offset, line and column, both 1-based; columns count characters, not
** bytes).  Words are looked up in the keyword table; quoted identifiers
** ("x", [x], `x`) never are.  The lexer does not copy: a token is a span of
** the statement text, and sql_token_text() unescapes it when needed.
*/
#ifndef SQL_LEXER_H
#define SQL_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../readers/reader.h"

typedef enum sql_token_kind {
    SQL_TK_END = 0,
    SQL_TK_WORD,      /* identifier or keyword (kw tells which) */
    SQL_TK_QUOTED,    /* "x", [x] or `x`: always an identifier */
    SQL_TK_INTEGER,   /* 123 */
    SQL_TK_DECIMAL,   /* 1.5, .5, 1. */
    SQL_TK_FLOAT,     /* 1e3, 1.5E-2 */
    SQL_TK_STRING,    /* 'it''s' */
    SQL_TK_PARAM,     /* ? */
    SQL_TK_LPAREN, SQL_TK_RPAREN, SQL_TK_LBRACE, SQL_TK_RBRACE,
    SQL_TK_COMMA, SQL_TK_DOT, SQL_TK_SEMI,
    SQL_TK_STAR, SQL_TK_PLUS, SQL_TK_MINUS, SQL_TK_SLASH, SQL_TK_PERCENT,
    SQL_TK_EQ, SQL_TK_NE, SQL_TK_LT, SQL_TK_LE, SQL_TK_GT, SQL_TK_GE,
    SQL_TK_CONCAT,    /* || */
    SQL_TK_AMP        /* & */
} sql_token_kind;

/* Keywords: name and whether it is reserved (a reserved word is never an
** unquoted identifier; the others are keywords only where the grammar
** expects them, e.g. DATE '2020-01-02' but also a column named Date). */
#define SQL_KEYWORD_LIST(X) \
    X(ALL, 1) X(AND, 1) X(AS, 1) X(ASC, 1) X(BETWEEN, 1) X(BY, 1) \
    X(CASE, 1) X(CAST, 1) X(CROSS, 1) X(DATE, 0) X(DESC, 1) \
    X(DISTINCT, 1) X(ELSE, 1) X(END, 1) X(ESCAPE, 1) X(EXCEPT, 1) \
    X(EXISTS, 1) X(FALSE, 1) X(FETCH, 1) X(FIRST, 0) X(FROM, 1) \
    X(FULL, 1) X(GROUP, 1) X(HAVING, 1) X(IN, 1) X(INNER, 1) \
    X(INTERSECT, 1) X(INTO, 1) X(IS, 1) X(JOIN, 1) X(LAST, 0) \
    X(LEFT, 1) X(LIKE, 1) X(LIMIT, 1) X(NATURAL, 1) X(NEXT, 0) \
    X(NOT, 1) X(NULL, 1) X(NULLS, 0) X(OFFSET, 1) X(ON, 1) X(ONLY, 0) \
    X(OR, 1) X(ORDER, 1) X(OUTER, 1) X(PERCENT, 0) X(RIGHT, 1) \
    X(ROW, 0) X(ROWS, 0) X(SELECT, 1) X(THEN, 1) X(TIME, 0) \
    X(TIMESTAMP, 0) X(TOP, 1) X(TRUE, 1) X(UNION, 1) X(USING, 1) \
    X(WHEN, 1) X(WHERE, 1) X(WITH, 1)

typedef enum sql_keyword {
    SQL_KW_NONE = 0,
#define SQL_KW_ENUM(name, reserved) SQL_KW_##name,
    SQL_KEYWORD_LIST(SQL_KW_ENUM)
#undef SQL_KW_ENUM
    SQL_KW_COUNT_
} sql_keyword;

typedef struct sql_token {
    sql_token_kind kind;
    sql_keyword kw;        /* SQL_TK_WORD only; SQL_KW_NONE otherwise */
    uint32_t start, len;   /* bytes of the text, quotes included */
    uint32_t line, column; /* 1-based; column in characters */
} sql_token;

typedef struct sql_lexer {
    const char *text;
    size_t len;
    size_t pos;           /* next byte to read */
    uint32_t line;        /* line of `pos` */
    size_t line_start;    /* offset of the first byte of that line */
    size_t col_pos;       /* a position on that line whose column is known */
    uint32_t col;         /* ... and that column */
} sql_lexer;

void sql_lexer_init(sql_lexer *lx, const char *text, size_t len);

/* The next token (SQL_TK_END at the end).  A malformed token (unterminated
** string or quoted name, stray character, bad number) fails with 42000 and
** the position in the message. */
int sql_lex(sql_lexer *lx, sql_token *tok, lt_error *err);

bool sql_keyword_reserved(sql_keyword kw);
const char *sql_keyword_name(sql_keyword kw);

/* The token's content without quotes and with doubled quotes undone
** ('it''s' -> it's, "a""b" -> a"b, [a]]b] -> a]b), NUL-terminated, in
** `arena`; `*len` gets its length.  Words are returned as written.  NULL when
** out of memory. */
char *sql_token_text(const char *text, const sql_token *tok, lt_arena *arena,
                     size_t *len);

/* Fill `err` with 42000 "syntax error at line L, column C: <message>" and
** return -1.  The lexer, the parser and the binder all report this way. */
int sql_syntax_error(lt_error *err, uint32_t line, uint32_t column,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Number of UTF-8 characters in `len` bytes (continuation bytes skipped). */
uint32_t sql_utf8_length(const char *s, size_t len);

#endif /* SQL_LEXER_H */
