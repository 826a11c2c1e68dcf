/*
** lexer.c — tokens of SQL text, as SQLite's tokenizer splits them.
**
** Used to read the CREATE TABLE / CREATE INDEX text of sqlite_schema and
** the expressions of generated columns: identifiers in every quote form
** ("x", [x], `x`, 'x' with doubled-quote escapes), numbers, blobs, comments
** (-- and C style) skipped, everything else one character at a time.
*/
#include "sqlite_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>




static bool id_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

static void skip_quoted(sqlite_lexer *lx, char close)
{
    lx->p++;
    while (lx->p < lx->end) {
        if (*lx->p == close) {
            if (close != ']' && lx->p + 1 < lx->end && lx->p[1] == close) {
                lx->p += 2;
                continue;
            }
            lx->p++;
            return;
        }
        lx->p++;
    }
}

void sqlite_lex_next(sqlite_lexer *lx)
{
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p + 1 < end && p[0] == '-' && p[1] == '-') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
                p++;
            p = p + 2 <= end ? p + 2 : end;
            continue;
        }
        break;
    }
    lx->p = p;
    lx->tok = p;
    if (p >= end) {
        lx->kind = SQLITE_TK_END;
        lx->len = 0;
        return;
    }
    unsigned char c = (unsigned char)*p;
    if (c == '"' || c == '`') {
        skip_quoted(lx, (char)c);
        lx->kind = SQLITE_TK_QID;
    } else if (c == '[') {
        skip_quoted(lx, ']');
        lx->kind = SQLITE_TK_QID;
    } else if (c == '\'') {
        skip_quoted(lx, '\'');
        lx->kind = SQLITE_TK_STRING;
    } else if ((c == 'x' || c == 'X') && p + 1 < end && p[1] == '\'') {
        lx->p++;
        skip_quoted(lx, '\'');
        lx->kind = SQLITE_TK_BLOB;
    } else if (isdigit(c) || (c == '.' && p + 1 < end && isdigit((unsigned char)p[1]))) {
        lx->p++;
        while (lx->p < end && (isalnum((unsigned char)*lx->p) || *lx->p == '.' ||
                               ((*lx->p == '+' || *lx->p == '-') &&
                                (lx->p[-1] == 'e' || lx->p[-1] == 'E') &&
                                !(p[0] == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')))))
            lx->p++;
        lx->kind = SQLITE_TK_NUM;
    } else if (id_char(c)) {
        while (lx->p < end && id_char((unsigned char)*lx->p))
            lx->p++;
        lx->kind = SQLITE_TK_ID;
    } else {
        lx->p++;
        lx->kind = c == '(' ? SQLITE_TK_LP : c == ')' ? SQLITE_TK_RP : c == ',' ? SQLITE_TK_COMMA : SQLITE_TK_OTHER;
    }
    lx->len = (size_t)(lx->p - lx->tok);
}

bool sqlite_lex_is_kw(const sqlite_lexer *lx, const char *kw)
{
    size_t n = strlen(kw);
    return lx->kind == SQLITE_TK_ID && lx->len == n && strncasecmp(lx->tok, kw, n) == 0;
}

bool sqlite_lex_accept(sqlite_lexer *lx, const char *kw)
{
    if (!sqlite_lex_is_kw(lx, kw))
        return false;
    sqlite_lex_next(lx);
    return true;
}

/* A name token: identifier, any quoted form, or a string. */
bool sqlite_lex_is_name(const sqlite_lexer *lx)
{
    return lx->kind == SQLITE_TK_ID || lx->kind == SQLITE_TK_QID || lx->kind == SQLITE_TK_STRING;
}

/* The text of a name token without its quotes (malloc'ed). */
char *sqlite_dequote(const char *t, size_t n)
{
    char *s = malloc(n + 1);
    if (s == NULL)
        return NULL;
    char q = n >= 2 ? t[0] : 0;
    char close = q == '[' ? ']' : q;
    if ((q == '"' || q == '`' || q == '\'' || q == '[') && t[n - 1] == close) {
        size_t o = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            s[o++] = t[i];
            if (q != '[' && t[i] == q && i + 2 < n && t[i + 1] == q)
                i++;
        }
        s[o] = '\0';
        return s;
    }
    memcpy(s, t, n);
    s[n] = '\0';
    return s;
}

/* At '(' : move past the matching ')'.  Returns false at a premature end. */
bool sqlite_lex_skip_parens(sqlite_lexer *lx)
{
    int depth = 0;
    do {
        if (lx->kind == SQLITE_TK_END)
            return false;
        if (lx->kind == SQLITE_TK_LP)
            depth++;
        else if (lx->kind == SQLITE_TK_RP)
            depth--;
        sqlite_lex_next(lx);
    } while (depth > 0);
    return true;
}

