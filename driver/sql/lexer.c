/*
** lexer.c — splitting SQL text into tokens.
**
** Hand-written: one switch on the first byte of each token.  Every loop is
** bounded by the text length, so any byte string (the fuzzer's) lexes to
** tokens or a clean 42000.
*/
#include "lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    bool reserved;
} keywords[] = {
    {"", false},
#define SQL_KW_ENTRY(name, reserved) {#name, reserved},
    SQL_KEYWORD_LIST(SQL_KW_ENTRY)
#undef SQL_KW_ENTRY
};

bool sql_keyword_reserved(sql_keyword kw)
{
    return kw > SQL_KW_NONE && kw < SQL_KW_COUNT_ && keywords[kw].reserved;
}

const char *sql_keyword_name(sql_keyword kw)
{
    return kw > SQL_KW_NONE && kw < SQL_KW_COUNT_ ? keywords[kw].name : "";
}

static sql_keyword keyword_lookup(const char *s, size_t len)
{
    if (len > 12)
        return SQL_KW_NONE;
    for (int k = 1; k < SQL_KW_COUNT_; k++)
        if (strlen(keywords[k].name) == len && strncasecmp(keywords[k].name, s, len) == 0)
            return (sql_keyword)k;
    return SQL_KW_NONE;
}

int sql_syntax_error(lt_error *err, uint32_t line, uint32_t column,
                     const char *fmt, ...)
{
    char detail[LT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return lt_error_set(err, "42000", "syntax error at line %u, column %u: %s",
                        line, column, detail);
}

uint32_t sql_utf8_length(const char *s, size_t len)
{
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

void sql_lexer_init(sql_lexer *lx, const char *text, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->text = text;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
}

/* Column of `pos` (on the current line).  Tokens come in order, so counting
** from the last known position keeps lexing linear in the text length. */
static uint32_t column_at(sql_lexer *lx, size_t pos)
{
    if (lx->col_pos < lx->line_start || lx->col_pos > pos) {
        lx->col_pos = lx->line_start;
        lx->col = 1;
    }
    lx->col += sql_utf8_length(lx->text + lx->col_pos, pos - lx->col_pos);
    lx->col_pos = pos;
    return lx->col;
}

/* Advance over one byte, following line breaks (\n, \r\n and a lone \r). */
static void advance(sql_lexer *lx)
{
    char c = lx->text[lx->pos++];
    if (c == '\n' || (c == '\r' && (lx->pos >= lx->len || lx->text[lx->pos] != '\n'))) {
        lx->line++;
        lx->line_start = lx->pos;
        lx->col_pos = lx->pos;
        lx->col = 1;
    }
}

static int peek(const sql_lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->text[lx->pos + ahead] : -1;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool is_word_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool is_word_char(int c) { return is_word_start(c) || is_digit(c) || c == '$'; }

/* Skip blanks and comments; fails only on an unterminated block comment. */
static int skip_space(sql_lexer *lx, lt_error *err)
{
    for (;;) {
        int c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '-' && peek(lx, 1) == '-') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n' && lx->text[lx->pos] != '\r')
                advance(lx);
        } else if (c == '/' && peek(lx, 1) == '*') {
            uint32_t line = lx->line, col = column_at(lx, lx->pos);
            advance(lx);
            advance(lx);
            for (;;) {
                if (lx->pos >= lx->len)
                    return sql_syntax_error(err, line, col, "unterminated comment");
                if (peek(lx, 0) == '*' && peek(lx, 1) == '/') {
                    advance(lx);
                    advance(lx);
                    break;
                }
                advance(lx);
            }
        } else {
            return 0;
        }
    }
}

/* A quoted run closed by `close`, where a doubled `close` stands for itself. */
static int lex_quoted(sql_lexer *lx, sql_token *tok, char close, const char *what,
                      lt_error *err)
{
    advance(lx);
    for (;;) {
        if (lx->pos >= lx->len)
            return sql_syntax_error(err, tok->line, tok->column, "unterminated %s", what);
        if (lx->text[lx->pos] == close) {
            if (peek(lx, 1) == (unsigned char)close) {
                advance(lx);
                advance(lx);
                continue;
            }
            advance(lx);
            return 0;
        }
        advance(lx);
    }
}

static int lex_number(sql_lexer *lx, sql_token *tok, lt_error *err)
{
    tok->kind = SQL_TK_INTEGER;
    while (is_digit(peek(lx, 0)))
        advance(lx);
    if (peek(lx, 0) == '.') {
        tok->kind = SQL_TK_DECIMAL;
        advance(lx);
        while (is_digit(peek(lx, 0)))
            advance(lx);
    }
    int c = peek(lx, 0);
    if (c == 'e' || c == 'E') {
        size_t skip = 1;
        if (peek(lx, 1) == '+' || peek(lx, 1) == '-')
            skip = 2;
        if (!is_digit(peek(lx, skip)))
            return sql_syntax_error(err, tok->line, tok->column, "malformed number: exponent without digits");
        tok->kind = SQL_TK_FLOAT;
        while (skip--)
            advance(lx);
        while (is_digit(peek(lx, 0)))
            advance(lx);
    }
    if (is_word_char(peek(lx, 0)) || peek(lx, 0) == '.')
        return sql_syntax_error(err, tok->line, tok->column, "malformed number");
    return 0;
}

/* One- and two-character operators. */
static bool lex_operator(sql_lexer *lx, sql_token *tok)
{
    int c = peek(lx, 0), d = peek(lx, 1);
    size_t n = 1;
    switch (c) {
    case '(': tok->kind = SQL_TK_LPAREN; break;
    case ')': tok->kind = SQL_TK_RPAREN; break;
    case '{': tok->kind = SQL_TK_LBRACE; break;
    case '}': tok->kind = SQL_TK_RBRACE; break;
    case ',': tok->kind = SQL_TK_COMMA; break;
    case '.': tok->kind = SQL_TK_DOT; break;
    case ';': tok->kind = SQL_TK_SEMI; break;
    case '*': tok->kind = SQL_TK_STAR; break;
    case '+': tok->kind = SQL_TK_PLUS; break;
    case '-': tok->kind = SQL_TK_MINUS; break;
    case '/': tok->kind = SQL_TK_SLASH; break;
    case '%': tok->kind = SQL_TK_PERCENT; break;
    case '&': tok->kind = SQL_TK_AMP; break;
    case '?': tok->kind = SQL_TK_PARAM; break;
    case '=': tok->kind = SQL_TK_EQ; break;
    case '<':
        if (d == '=') { tok->kind = SQL_TK_LE; n = 2; }
        else if (d == '>') { tok->kind = SQL_TK_NE; n = 2; }
        else tok->kind = SQL_TK_LT;
        break;
    case '>':
        if (d == '=') { tok->kind = SQL_TK_GE; n = 2; }
        else tok->kind = SQL_TK_GT;
        break;
    case '!':
        if (d != '=')
            return false;
        tok->kind = SQL_TK_NE;
        n = 2;
        break;
    case '|':
        if (d != '|')
            return false;
        tok->kind = SQL_TK_CONCAT;
        n = 2;
        break;
    default:
        return false;
    }
    while (n--)
        advance(lx);
    return true;
}

int sql_lex(sql_lexer *lx, sql_token *tok, lt_error *err)
{
    memset(tok, 0, sizeof *tok);
    if (skip_space(lx, err) != 0)
        return -1;
    tok->start = (uint32_t)lx->pos;
    tok->line = lx->line;
    tok->column = column_at(lx, lx->pos);
    if (lx->pos >= lx->len) {
        tok->kind = SQL_TK_END;
        return 0;
    }
    if (lx->len > UINT32_MAX - 1)
        return sql_syntax_error(err, 1, 1, "statement too long");
    int c = peek(lx, 0);
    int rc = 0;
    if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1)))) {
        rc = lex_number(lx, tok, err);
    } else if (is_word_start(c)) {
        while (is_word_char(peek(lx, 0)))
            advance(lx);
        tok->kind = SQL_TK_WORD;
        tok->kw = keyword_lookup(lx->text + tok->start, lx->pos - tok->start);
    } else if (c == '\'') {
        tok->kind = SQL_TK_STRING;
        rc = lex_quoted(lx, tok, '\'', "string literal", err);
    } else if (c == '"' || c == '[' || c == '`') {
        tok->kind = SQL_TK_QUOTED;
        rc = lex_quoted(lx, tok, c == '[' ? ']' : (char)c, "quoted identifier", err);
        if (rc == 0 && lx->pos - tok->start == 2)
            return sql_syntax_error(err, tok->line, tok->column, "empty quoted identifier");
    } else if (!lex_operator(lx, tok)) {
        if (c >= 0x20 && c < 0x7F)
            return sql_syntax_error(err, tok->line, tok->column, "unexpected character '%c'", c);
        return sql_syntax_error(err, tok->line, tok->column, "unexpected byte 0x%02X", (unsigned)c);
    }
    tok->len = (uint32_t)(lx->pos - tok->start);
    return rc;
}

char *sql_token_text(const char *text, const sql_token *tok, lt_arena *arena,
                     size_t *len)
{
    const char *s = text + tok->start;
    size_t n = tok->len;
    if (tok->kind != SQL_TK_STRING && tok->kind != SQL_TK_QUOTED) {
        *len = n;
        return lt_arena_strndup(arena, s, n);
    }
    char close = s[0] == '[' ? ']' : s[0];
    char *out = lt_arena_alloc(arena, n);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        out[o++] = s[i];
        if (s[i] == close)
            i++; /* the doubled quote: keep one */
    }
    out[o] = '\0';
    *len = o;
    return out;
}
