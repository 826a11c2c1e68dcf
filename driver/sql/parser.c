/*
** parser.c — SQL text to a syntax tree (ast.h).
**
** Recursive descent for statements and clauses, precedence climbing for
** expressions.  The parser keeps two tokens (current and next).  Every node
** records where it starts and the bytes it spans, so that later errors name
** the place and computed columns get their text as label.  Writes are
** refused here with the read-only error; constructs of the full language
** not built yet are refused with a 42000 naming them and their place.
*/
#include "ast.h"
#include "lexer.h"
#include "value.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Binding strength of the operators, loosest first. */
enum {
    PREC_OR = 1,
    PREC_AND,
    PREC_NOT,
    PREC_CMP,    /* = <> < <= > >=, IS, LIKE, IN, BETWEEN */
    PREC_CONCAT, /* || & */
    PREC_ADD,    /* + - */
    PREC_MUL,    /* * / % */
    PREC_UNARY   /* unary - + */
};

typedef struct parser {
    const char *text;
    size_t len;            /* text's bytes (not NUL-terminated) */
    sql_lexer lx;
    lt_arena *arena;
    lt_error *err;
    sql_token cur, next;
    uint32_t prev_end;     /* end of the last consumed token */
    uint32_t depth;        /* parse_expr recursion */
    uint32_t qdepth;       /* parse_query recursion */
    sql_expr **params;
    uint32_t nparams, cap_params;
} parser;

static sql_expr *parse_expr(parser *p, int min_prec);
static int parse_type_name(parser *p, sql_expr *e);
static sql_select *parse_query(parser *p);

/* ------------------------------------------------------------------------ */
/* Tokens and errors                                                         */
/* ------------------------------------------------------------------------ */

static int oom(parser *p)
{
    return lt_error_set(p->err, "HY001", "out of memory while parsing");
}

static int advance(parser *p)
{
    p->prev_end = p->cur.start + p->cur.len;
    p->cur = p->next;
    if (p->cur.kind == SQL_TK_END)
        return 0;
    return sql_lex(&p->lx, &p->next, p->err);
}

static bool at_kw(const parser *p, sql_keyword kw)
{
    return p->cur.kind == SQL_TK_WORD && p->cur.kw == kw;
}

static bool next_kw(const parser *p, sql_keyword kw)
{
    return p->next.kind == SQL_TK_WORD && p->next.kw == kw;
}

/* The token's text for a message: at most 40 bytes, cut at a character. */
static int near_len(const parser *p, const sql_token *t)
{
    uint32_t n = t->len;
    if (n > 40) {
        n = 40;
        while (n > 0 && ((unsigned char)p->text[t->start + n] & 0xC0) == 0x80)
            n--;
    }
    return (int)n;
}

static int expected(parser *p, const char *what)
{
    const sql_token *t = &p->cur;
    if (t->kind == SQL_TK_END)
        return sql_syntax_error(p->err, t->line, t->column, "expected %s at end of input", what);
    return sql_syntax_error(p->err, t->line, t->column, "expected %s near '%.*s'", what,
                            near_len(p, t), p->text + t->start);
}

static int not_yet(parser *p, const sql_token *t, const char *what)
{
    return sql_syntax_error(p->err, t->line, t->column, "%s not supported yet", what);
}

static int expect(parser *p, sql_token_kind kind, const char *what)
{
    if (p->cur.kind != kind)
        return expected(p, what);
    return advance(p);
}

static int expect_kw(parser *p, sql_keyword kw)
{
    if (!at_kw(p, kw))
        return expected(p, sql_keyword_name(kw));
    return advance(p);
}

static bool is_ident(const sql_token *t)
{
    return t->kind == SQL_TK_QUOTED || (t->kind == SQL_TK_WORD && !sql_keyword_reserved(t->kw));
}

/* The current token as a name, consumed. */
static const char *take_name(parser *p)
{
    size_t len;
    char *s = sql_token_text(p->text, &p->cur, p->arena, &len);
    if (s == NULL) {
        oom(p);
        return NULL;
    }
    if (advance(p) != 0)
        return NULL;
    return s;
}

/* Grow an arena array to hold element `n`. */
static void *grow(parser *p, void *arr, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return arr;
    uint32_t ncap = *cap ? *cap * 2 : 8;
    void *na = lt_arena_alloc(p->arena, (size_t)ncap * size);
    if (na == NULL) {
        oom(p);
        return NULL;
    }
    if (n)
        memcpy(na, arr, (size_t)n * size);
    *cap = ncap;
    return na;
}

/* ------------------------------------------------------------------------ */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------ */

static sql_expr *new_expr(parser *p, sql_expr_kind kind, const sql_token *at)
{
    sql_expr *e = lt_arena_alloc(p->arena, sizeof *e);
    if (e == NULL) {
        oom(p);
        return NULL;
    }
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = at->line;
    e->column = at->column;
    e->start = at->start;
    e->end = at->start + at->len;
    e->depth = 1;
    return e;
}

/* Close a node: its span ends at the last consumed token and its depth is
** checked, so no later recursive stage can run out of stack. */
static sql_expr *finish(parser *p, sql_expr *e)
{
    if (p->prev_end > e->end)
        e->end = p->prev_end;
    uint32_t n = sql_expr_nchildren(e);
    for (uint32_t i = 0; i < n; i++) {
        const sql_expr *c = sql_expr_child(e, i);
        if (c->depth + 1 > e->depth)
            e->depth = c->depth + 1;
        if (c->start < e->start) {
            e->start = c->start;
            e->line = c->line;
            e->column = c->column;
        }
    }
    if (e->depth > SQL_MAX_DEPTH) {
        sql_syntax_error(p->err, e->line, e->column,
                         "expression nested too deeply (more than %d levels)", SQL_MAX_DEPTH);
        return NULL;
    }
    return e;
}

static sql_expr *binary(parser *p, sql_expr_kind kind, sql_op op, sql_expr *l,
                        sql_expr *r, const sql_token *at)
{
    sql_expr *e = new_expr(p, kind, at);
    if (e == NULL)
        return NULL;
    e->op = op;
    e->left = l;
    e->right = r;
    return finish(p, e);
}

/* ------------------------------------------------------------------------ */
/* Primary expressions                                                       */
/* ------------------------------------------------------------------------ */

static sql_expr *parse_number(parser *p)
{
    sql_token t = p->cur;
    sql_expr *e = new_expr(p, SQL_E_LITERAL, &t);
    if (e == NULL)
        return NULL;
    if (!sql_parse_number(p->text + t.start, t.len, &e->value)) {
        sql_syntax_error(p->err, t.line, t.column, "number out of range '%.*s'",
                         near_len(p, &t), p->text + t.start);
        return NULL;
    }
    return advance(p) == 0 ? finish(p, e) : NULL;
}

static sql_expr *parse_string(parser *p)
{
    sql_token t = p->cur;
    sql_expr *e = new_expr(p, SQL_E_LITERAL, &t);
    if (e == NULL)
        return NULL;
    size_t len;
    char *s = sql_token_text(p->text, &t, p->arena, &len);
    if (s == NULL) {
        oom(p);
        return NULL;
    }
    e->value.type = LT_TEXT;
    e->value.u.bytes.ptr = s;
    e->value.u.bytes.len = (uint32_t)len;
    return advance(p) == 0 ? finish(p, e) : NULL;
}

/* DATE '...', TIME '...', TIMESTAMP '...' and the ODBC {d|t|ts '...'}:
** `kind` is the type; the current token is the string. */
static sql_expr *parse_typed_literal(parser *p, lt_type type, const sql_token *at)
{
    if (p->cur.kind != SQL_TK_STRING) {
        expected(p, "a quoted date or time");
        return NULL;
    }
    sql_token t = p->cur;
    sql_expr *text = parse_string(p);
    if (text == NULL)
        return NULL;
    sql_expr *e = new_expr(p, SQL_E_LITERAL, at);
    if (e == NULL)
        return NULL;
    lt_error conv;
    if (sql_convert_value(&text->value, type, 0, &e->value, &conv) != 0) {
        lt_error_set(p->err, "22007", "invalid %s literal at line %u, column %u: %s",
                     sql_type_name(type), t.line, t.column, conv.message);
        return NULL;
    }
    return finish(p, e);
}

static sql_expr *parse_param(parser *p)
{
    sql_expr *e = new_expr(p, SQL_E_PARAM, &p->cur);
    if (e == NULL)
        return NULL;
    sql_expr **np = grow(p, p->params, p->nparams, &p->cap_params, sizeof *np);
    if (np == NULL)
        return NULL;
    p->params = np;
    e->param = p->nparams;
    p->params[p->nparams++] = e;
    return advance(p) == 0 ? finish(p, e) : NULL;
}

static bool at_word(const parser *p, const char *w)
{
    size_t n = strlen(w);
    return p->cur.kind == SQL_TK_WORD && p->cur.len == n &&
           strncasecmp(p->text + p->cur.start, w, n) == 0;
}

static bool add_arg(parser *p, sql_expr *e, sql_expr *a, uint32_t *cap)
{
    if (a == NULL)
        return false;
    sql_expr **na = grow(p, e->args, e->nargs, cap, sizeof *na);
    if (na == NULL)
        return false;
    e->args = na;
    e->args[e->nargs++] = a;
    return true;
}

/* The standard's keyword forms of a few calls, after the '(':
**   CONVERT(x, type)                  -> a CAST node
**   EXTRACT(field FROM x)             -> EXTRACT('field', x)
**   POSITION(a IN b)                  -> POSITION(a, b)
**   SUBSTRING(x FROM a [FOR b])       -> SUBSTRING(x, a [, b])
**   TRIM([LEADING|TRAILING|BOTH] [c] FROM s) -> LTRIM/RTRIM/TRIM(s [, c])
** Returns 1 when `e` is done, 0 when the call is an ordinary one (nothing
** consumed), -1 on error. */
static int parse_special_call(parser *p, sql_expr *e, uint32_t *cap)
{
    const char *n = e->name;
    if (strcasecmp(n, "CONVERT") == 0) {
        e->kind = SQL_E_CAST;
        if ((e->left = parse_expr(p, 1)) == NULL || expect(p, SQL_TK_COMMA, "','") != 0)
            return -1;
        return parse_type_name(p, e) != 0 ? -1 : 1;
    }
    if (strcasecmp(n, "EXTRACT") == 0) {
        if (p->cur.kind != SQL_TK_WORD || !next_kw(p, SQL_KW_FROM))
            return expected(p, "a field name and FROM (EXTRACT(YEAR FROM x))");
        sql_expr *field = new_expr(p, SQL_E_LITERAL, &p->cur);
        size_t len;
        if (field == NULL || (field->value.u.bytes.ptr = sql_token_text(p->text, &p->cur, p->arena, &len)) == NULL)
            return oom(p);
        field->value.type = LT_TEXT;
        field->value.u.bytes.len = (uint32_t)len;
        if (advance(p) != 0 || advance(p) != 0 || !add_arg(p, e, finish(p, field), cap) ||
            !add_arg(p, e, parse_expr(p, 1), cap))
            return -1;
        return 1;
    }
    if (strcasecmp(n, "POSITION") == 0) {
        if (!add_arg(p, e, parse_expr(p, PREC_CMP + 1), cap) || expect_kw(p, SQL_KW_IN) != 0 ||
            !add_arg(p, e, parse_expr(p, 1), cap))
            return -1;
        return 1;
    }
    if (strcasecmp(n, "SUBSTRING") == 0) {
        if (!add_arg(p, e, parse_expr(p, 1), cap))
            return -1;
        if (!at_kw(p, SQL_KW_FROM))
            return p->cur.kind == SQL_TK_COMMA ? (advance(p) != 0 ? -1 : 0) : 1;
        if (advance(p) != 0 || !add_arg(p, e, parse_expr(p, 1), cap))
            return -1;
        if (at_word(p, "FOR") && (advance(p) != 0 || !add_arg(p, e, parse_expr(p, 1), cap)))
            return -1;
        return 1;
    }
    if (strcasecmp(n, "TRIM") == 0) {
        bool spec = at_word(p, "LEADING") || at_word(p, "TRAILING") || at_word(p, "BOTH");
        if (spec) {
            e->name = at_word(p, "LEADING") ? "LTRIM" : at_word(p, "TRAILING") ? "RTRIM" : "TRIM";
            if (advance(p) != 0)
                return -1;
        }
        sql_expr *chars = NULL;
        if (!at_kw(p, SQL_KW_FROM)) {
            if ((chars = parse_expr(p, 1)) == NULL)
                return -1;
            if (!at_kw(p, SQL_KW_FROM)) {
                if (spec)
                    return expected(p, "FROM");
                /* TRIM(s), TRIM(s, chars) */
                if (!add_arg(p, e, chars, cap))
                    return -1;
                if (p->cur.kind == SQL_TK_COMMA &&
                    (advance(p) != 0 || !add_arg(p, e, parse_expr(p, 1), cap)))
                    return -1;
                return 1;
            }
        } else if (!spec) {
            return expected(p, "an expression");
        }
        if (advance(p) != 0 || !add_arg(p, e, parse_expr(p, 1), cap))
            return -1;
        if (chars != NULL && !add_arg(p, e, chars, cap))
            return -1;
        return 1;
    }
    return 0;
}

/* name(args): the current token is '('. */
static sql_expr *parse_call(parser *p, sql_expr *e)
{
    e->kind = SQL_E_FUNC;
    if (advance(p) != 0)
        return NULL;
    uint32_t cap = 0;
    int special = p->cur.kind == SQL_TK_RPAREN ? 0 : parse_special_call(p, e, &cap);
    if (special < 0)
        return NULL;
    if (special > 0) {
        if (expect(p, SQL_TK_RPAREN, "')'") != 0)
            return NULL;
        return finish(p, e);
    }
    if (at_kw(p, SQL_KW_DISTINCT) || at_kw(p, SQL_KW_ALL)) {
        e->distinct = at_kw(p, SQL_KW_DISTINCT);
        if (advance(p) != 0)
            return NULL;
    }
    if (p->cur.kind == SQL_TK_STAR) {
        e->star = true;
        if (advance(p) != 0)
            return NULL;
    } else if (p->cur.kind != SQL_TK_RPAREN) {
        for (;;) {
            sql_expr *a = parse_expr(p, 1);
            if (a == NULL)
                return NULL;
            sql_expr **na = grow(p, e->args, e->nargs, &cap, sizeof *na);
            if (na == NULL)
                return NULL;
            e->args = na;
            e->args[e->nargs++] = a;
            if (p->cur.kind != SQL_TK_COMMA)
                break;
            if (advance(p) != 0)
                return NULL;
        }
    }
    if (expect(p, SQL_TK_RPAREN, "')'") != 0)
        return NULL;
    return finish(p, e);
}

/* A type name of CAST or CONVERT, with its parameters: (n), (p[, s]). */
static int parse_type_name(parser *p, sql_expr *e)
{
    sql_token first = p->cur;
    if (first.kind != SQL_TK_WORD)
        return expected(p, "a type name");
    /* Names of several words: DOUBLE PRECISION, CHARACTER VARYING ... */
    char name[64];
    size_t len = 0;
    const sql_type_spec *tn = NULL;
    for (int words = 0; words < 3 && p->cur.kind == SQL_TK_WORD; words++) {
        if (len + 1 + p->cur.len >= sizeof name)
            break;
        size_t at = len;
        if (len > 0)
            name[len++] = ' ';
        memcpy(name + len, p->text + p->cur.start, p->cur.len);
        const sql_type_spec *longer = sql_type_lookup(name, len + p->cur.len);
        if (longer == NULL && words > 0) {
            len = at;
            break;
        }
        len += p->cur.len;
        tn = longer;
        if (advance(p) != 0)
            return -1;
    }
    if (tn == NULL)
        return sql_syntax_error(p->err, first.line, first.column, "unknown type name '%.*s'",
                                (int)len, name);
    e->cast.type = tn->type;
    e->cast.size = tn->size;
    e->cast.scale = tn->scale;
    e->pad = tn->pad;
    if (p->cur.kind != SQL_TK_LPAREN || tn->params == SQL_TP_NONE)
        return 0;
    if (advance(p) != 0)
        return -1;
    int64_t n[2] = {0, 0};
    int count = 0;
    for (;;) {
        if (p->cur.kind != SQL_TK_INTEGER)
            return expected(p, "a number");
        lt_value v;
        if (!sql_parse_number(p->text + p->cur.start, p->cur.len, &v) || v.type != LT_INT64 ||
            v.u.i64 > 1000000000)
            return expected(p, "a smaller number");
        n[count++] = v.u.i64;
        if (advance(p) != 0)
            return -1;
        if (count == 2 || tn->params != SQL_TP_PRECISION || p->cur.kind != SQL_TK_COMMA)
            break;
        if (advance(p) != 0)
            return -1;
    }
    if (expect(p, SQL_TK_RPAREN, "')'") != 0)
        return -1;
    switch (tn->params) {
    case SQL_TP_LENGTH:
        if (n[0] < 1)
            return sql_syntax_error(p->err, first.line, first.column, "a length must be at least 1");
        e->cast.size = (uint32_t)n[0];
        break;
    case SQL_TP_PRECISION:
        if (n[0] < 1 || n[0] > 38 || n[1] > n[0])
            return sql_syntax_error(p->err, first.line, first.column,
                                    "DECIMAL(p, s) needs 1 <= p <= 38 and 0 <= s <= p");
        e->cast.size = (uint32_t)n[0];
        e->cast.scale = (int16_t)n[1];
        break;
    case SQL_TP_FLOAT:
        if (n[0] < 1 || n[0] > 53)
            return sql_syntax_error(p->err, first.line, first.column, "FLOAT(p) needs 1 <= p <= 53");
        e->cast.size = n[0] <= 24 ? 7 : 15;
        break;
    case SQL_TP_FRACTION:
        if (n[0] > 9)
            return sql_syntax_error(p->err, first.line, first.column,
                                    "fractional seconds precision must be 0 to 9");
        e->cast.scale = (int16_t)(n[0] > 6 ? 6 : n[0]);
        e->cast.size = (e->cast.type == LT_TIME ? 8 : 19) + (e->cast.scale ? 1 + e->cast.scale : 0);
        break;
    default:
        break;
    }
    return 0;
}

/* CAST(x AS type): the current token is CAST. */
static sql_expr *parse_cast(parser *p)
{
    sql_expr *e = new_expr(p, SQL_E_CAST, &p->cur);
    if (e == NULL || advance(p) != 0 || expect(p, SQL_TK_LPAREN, "'(' after CAST") != 0 ||
        (e->left = parse_expr(p, 1)) == NULL || expect_kw(p, SQL_KW_AS) != 0 ||
        parse_type_name(p, e) != 0 || expect(p, SQL_TK_RPAREN, "')'") != 0)
        return NULL;
    return finish(p, e);
}

/* CASE [x] WHEN a THEN b ... [ELSE c] END: the current token is CASE. */
static sql_expr *parse_case(parser *p)
{
    sql_expr *e = new_expr(p, SQL_E_CASE, &p->cur);
    if (e == NULL || advance(p) != 0)
        return NULL;
    if (!at_kw(p, SQL_KW_WHEN) && (e->left = parse_expr(p, 1)) == NULL)
        return NULL;
    uint32_t cap = 0;
    if (!at_kw(p, SQL_KW_WHEN)) {
        expected(p, "WHEN");
        return NULL;
    }
    while (at_kw(p, SQL_KW_WHEN)) {
        sql_expr *when, *then;
        if (advance(p) != 0 || (when = parse_expr(p, 1)) == NULL ||
            expect_kw(p, SQL_KW_THEN) != 0 || (then = parse_expr(p, 1)) == NULL)
            return NULL;
        for (int k = 0; k < 2; k++) {
            sql_expr **na = grow(p, e->args, e->nargs, &cap, sizeof *na);
            if (na == NULL)
                return NULL;
            e->args = na;
            e->args[e->nargs++] = k == 0 ? when : then;
        }
    }
    if (at_kw(p, SQL_KW_ELSE) && (advance(p) != 0 || (e->right = parse_expr(p, 1)) == NULL))
        return NULL;
    if (expect_kw(p, SQL_KW_END) != 0)
        return NULL;
    return finish(p, e);
}

/* A column reference, t.*, or a function call. */
static sql_expr *parse_name(parser *p)
{
    sql_token t = p->cur;
    sql_expr *e = new_expr(p, SQL_E_COLUMN, &t);
    if (e == NULL)
        return NULL;
    e->name = take_name(p);
    if (e->name == NULL)
        return NULL;
    if (t.kind == SQL_TK_WORD && p->cur.kind == SQL_TK_LPAREN)
        return parse_call(p, e);
    if (p->cur.kind != SQL_TK_DOT)
        return finish(p, e);
    if (advance(p) != 0)
        return NULL;
    e->qualifier = e->name;
    e->name = NULL;
    if (p->cur.kind == SQL_TK_STAR) {
        /* t.*: only a select item may be this; the binder says so elsewhere. */
        e->star = true;
        return advance(p) == 0 ? finish(p, e) : NULL;
    }
    if (!is_ident(&p->cur)) {
        expected(p, "a column name");
        return NULL;
    }
    e->name = take_name(p);
    if (e->name == NULL)
        return NULL;
    if (p->cur.kind == SQL_TK_DOT) {
        not_yet(p, &p->cur, "names with more than two parts are");
        return NULL;
    }
    return finish(p, e);
}

static bool is_word(const parser *p, const sql_token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == SQL_TK_WORD && t->len == n && strncasecmp(p->text + t->start, word, n) == 0;
}

/* INTERVAL '…' unit and {INTERVAL …}: the engine has no interval type, and
** SQLGetInfo(SQL_DATETIME_LITERALS) declares no interval literal. */
static int no_intervals(parser *p, const sql_token *t)
{
    return sql_syntax_error(p->err, t->line, t->column,
                            "interval literals are not supported (add days with date + n, "
                            "or use {fn TIMESTAMPADD(SQL_TSI_..., n, x)})");
}

/* {d '...'}, {t '...'}, {ts '...'}, {fn f(...)}: the current token is '{'. */
static sql_expr *parse_escape(parser *p)
{
    sql_token open = p->cur;
    if (advance(p) != 0)
        return NULL;
    if (p->cur.kind != SQL_TK_WORD) {
        expected(p, "d, t, ts or fn after '{'");
        return NULL;
    }
    const char *w = p->text + p->cur.start;
    uint32_t n = p->cur.len;
    sql_token kw = p->cur;
    sql_expr *e;
    if ((n == 1 && strncasecmp(w, "d", 1) == 0) || (n == 1 && strncasecmp(w, "t", 1) == 0) ||
        (n == 2 && strncasecmp(w, "ts", 2) == 0)) {
        lt_type type = n == 2 ? LT_TIMESTAMP : (w[0] == 'd' || w[0] == 'D') ? LT_DATE : LT_TIME;
        if (advance(p) != 0)
            return NULL;
        e = parse_typed_literal(p, type, &open);
    } else if (n == 2 && strncasecmp(w, "fn", 2) == 0) {
        if (advance(p) != 0)
            return NULL;
        /* Function names may be keywords here: {fn LEFT(x, 2)}. */
        if (p->cur.kind != SQL_TK_WORD || p->next.kind != SQL_TK_LPAREN) {
            expected(p, "a function call after {fn");
            return NULL;
        }
        sql_expr *f = new_expr(p, SQL_E_FUNC, &p->cur);
        if (f == NULL || (f->name = take_name(p)) == NULL)
            return NULL;
        e = parse_call(p, f);
    } else if (is_word(p, &kw, "interval")) {
        no_intervals(p, &kw);
        return NULL;
    } else {
        not_yet(p, &kw, "this ODBC escape is");
        return NULL;
    }
    if (e == NULL || expect(p, SQL_TK_RBRACE, "'}'") != 0)
        return NULL;
    e->start = open.start;
    e->line = open.line;
    e->column = open.column;
    return finish(p, e);
}

/* (SELECT ...) as an expression: the current token is '('. */
static sql_expr *parse_subquery(parser *p)
{
    sql_expr *e = new_expr(p, SQL_E_SUBQUERY, &p->cur);
    if (e == NULL || advance(p) != 0 || (e->sub = parse_query(p)) == NULL ||
        expect(p, SQL_TK_RPAREN, "')' after the subquery") != 0)
        return NULL;
    return finish(p, e);
}

static sql_expr *parse_primary(parser *p)
{
    sql_token t = p->cur;
    switch (t.kind) {
    case SQL_TK_INTEGER:
    case SQL_TK_DECIMAL:
    case SQL_TK_FLOAT:
        return parse_number(p);
    case SQL_TK_STRING:
        return parse_string(p);
    case SQL_TK_PARAM:
        return parse_param(p);
    case SQL_TK_LBRACE:
        return parse_escape(p);
    case SQL_TK_LPAREN: {
        if (next_kw(p, SQL_KW_SELECT))
            return parse_subquery(p);
        if (advance(p) != 0)
            return NULL;
        sql_expr *e = parse_expr(p, 1);
        if (e == NULL || expect(p, SQL_TK_RPAREN, "')'") != 0)
            return NULL;
        return e;
    }
    case SQL_TK_QUOTED:
        return parse_name(p);
    case SQL_TK_WORD:
        break;
    default:
        expected(p, "an expression");
        return NULL;
    }
    switch (t.kw) {
    case SQL_KW_NULL:
    case SQL_KW_TRUE:
    case SQL_KW_FALSE: {
        sql_expr *e = new_expr(p, SQL_E_LITERAL, &t);
        if (e == NULL)
            return NULL;
        if (t.kw != SQL_KW_NULL) {
            e->value.type = LT_BOOL;
            e->value.u.b = t.kw == SQL_KW_TRUE;
        }
        return advance(p) == 0 ? finish(p, e) : NULL;
    }
    case SQL_KW_DATE:
    case SQL_KW_TIME:
    case SQL_KW_TIMESTAMP:
        if (p->next.kind == SQL_TK_STRING) {
            lt_type type = t.kw == SQL_KW_DATE ? LT_DATE : t.kw == SQL_KW_TIME ? LT_TIME : LT_TIMESTAMP;
            if (advance(p) != 0)
                return NULL;
            return parse_typed_literal(p, type, &t);
        }
        return parse_name(p);
    case SQL_KW_CASE:
        return parse_case(p);
    case SQL_KW_CAST:
        return parse_cast(p);
    case SQL_KW_EXISTS: {
        sql_expr *e = new_expr(p, SQL_E_EXISTS, &t);
        if (e == NULL || advance(p) != 0)
            return NULL;
        if (p->cur.kind != SQL_TK_LPAREN || !next_kw(p, SQL_KW_SELECT)) {
            expected(p, "'(SELECT' after EXISTS");
            return NULL;
        }
        if ((e->left = parse_subquery(p)) == NULL)
            return NULL;
        return finish(p, e);
    }
    default:
        if (is_word(p, &t, "interval") &&
            (p->next.kind == SQL_TK_STRING || p->next.kind == SQL_TK_MINUS ||
             p->next.kind == SQL_TK_PLUS)) {
            no_intervals(p, &t);
            return NULL;
        }
        /* LEFT(s, n) and RIGHT(s, n): reserved words (joins), yet functions. */
        if (is_ident(&t) || ((t.kw == SQL_KW_LEFT || t.kw == SQL_KW_RIGHT) &&
                             p->next.kind == SQL_TK_LPAREN))
            return parse_name(p);
        expected(p, "an expression");
        return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* Operators                                                                 */
/* ------------------------------------------------------------------------ */

static sql_expr *parse_unary(parser *p)
{
    sql_token t = p->cur;
    if (at_kw(p, SQL_KW_NOT)) {
        if (advance(p) != 0)
            return NULL;
        sql_expr *operand = parse_expr(p, PREC_NOT);
        return operand ? binary(p, SQL_E_NOT, SQL_OP_NONE, operand, NULL, &t) : NULL;
    }
    if (t.kind != SQL_TK_MINUS && t.kind != SQL_TK_PLUS)
        return parse_primary(p);
    if (advance(p) != 0)
        return NULL;
    sql_expr *operand = parse_expr(p, PREC_UNARY);
    if (operand == NULL)
        return NULL;
    if (t.kind == SQL_TK_PLUS)
        return operand;
    /* Fold the sign of a number into the literal, so that -9223372036854775808
    ** is the INT64 it means and -5 is a constant the planner can push. */
    lt_value *v = &operand->value;
    if (operand->kind == SQL_E_LITERAL && operand->depth == 1) {
        bool folded = true;
        if (v->type == LT_INT64 && v->u.i64 != INT64_MIN)
            v->u.i64 = -v->u.i64;
        else if (v->type == LT_DECIMAL && v->scale == 0 && v->u.dec == -(lt_int128)INT64_MIN) {
            v->type = LT_INT64;
            v->u.i64 = INT64_MIN;
        } else if (v->type == LT_DECIMAL)
            v->u.dec = -v->u.dec;
        else if (v->type == LT_DOUBLE)
            v->u.f64 = -v->u.f64;
        else
            folded = false;
        if (folded) {
            operand->start = t.start;
            operand->line = t.line;
            operand->column = t.column;
            return operand;
        }
    }
    return binary(p, SQL_E_NEG, SQL_OP_NONE, operand, NULL, &t);
}

/* The operator at the current token and its precedence (0: none). */
static int infix_prec(const parser *p)
{
    const sql_token *t = &p->cur;
    switch (t->kind) {
    case SQL_TK_EQ: case SQL_TK_NE: case SQL_TK_LT:
    case SQL_TK_LE: case SQL_TK_GT: case SQL_TK_GE:
        return PREC_CMP;
    case SQL_TK_CONCAT: case SQL_TK_AMP:
        return PREC_CONCAT;
    case SQL_TK_PLUS: case SQL_TK_MINUS:
        return PREC_ADD;
    case SQL_TK_STAR: case SQL_TK_SLASH: case SQL_TK_PERCENT:
        return PREC_MUL;
    case SQL_TK_WORD:
        switch (t->kw) {
        case SQL_KW_OR: return PREC_OR;
        case SQL_KW_AND: return PREC_AND;
        case SQL_KW_IS: case SQL_KW_LIKE: case SQL_KW_IN: case SQL_KW_BETWEEN:
            return PREC_CMP;
        case SQL_KW_NOT:
            return next_kw(p, SQL_KW_LIKE) || next_kw(p, SQL_KW_IN) || next_kw(p, SQL_KW_BETWEEN)
                       ? PREC_CMP : 0;
        default: return 0;
        }
    default:
        return 0;
    }
}

static sql_op token_op(sql_token_kind k)
{
    switch (k) {
    case SQL_TK_PLUS:    return SQL_OP_ADD;
    case SQL_TK_MINUS:   return SQL_OP_SUB;
    case SQL_TK_STAR:    return SQL_OP_MUL;
    case SQL_TK_SLASH:   return SQL_OP_DIV;
    case SQL_TK_PERCENT: return SQL_OP_MOD;
    case SQL_TK_EQ:      return SQL_OP_EQ;
    case SQL_TK_NE:      return SQL_OP_NE;
    case SQL_TK_LT:      return SQL_OP_LT;
    case SQL_TK_LE:      return SQL_OP_LE;
    case SQL_TK_GT:      return SQL_OP_GT;
    case SQL_TK_GE:      return SQL_OP_GE;
    case SQL_TK_AMP:     return SQL_OP_AMP;
    default:             return SQL_OP_NONE;
    }
}

/* left [NOT] IN (a, b, ...): the current token is IN. */
static sql_expr *parse_in(parser *p, sql_expr *left, bool negated, const sql_token *at)
{
    if (advance(p) != 0)
        return NULL;
    if (p->cur.kind != SQL_TK_LPAREN) {
        expected(p, "'(' after IN");
        return NULL;
    }
    if (next_kw(p, SQL_KW_SELECT)) {
        sql_expr *e = new_expr(p, SQL_E_IN_SELECT, at);
        if (e == NULL)
            return NULL;
        e->left = left;
        e->negated = negated;
        if ((e->right = parse_subquery(p)) == NULL)
            return NULL;
        return finish(p, e);
    }
    if (advance(p) != 0)
        return NULL;
    sql_expr *e = new_expr(p, SQL_E_IN, at);
    if (e == NULL)
        return NULL;
    e->left = left;
    e->negated = negated;
    uint32_t cap = 0;
    for (;;) {
        sql_expr *item = parse_expr(p, 1);
        if (item == NULL)
            return NULL;
        sql_expr **na = grow(p, e->args, e->nargs, &cap, sizeof *na);
        if (na == NULL)
            return NULL;
        e->args = na;
        e->args[e->nargs++] = item;
        if (p->cur.kind != SQL_TK_COMMA)
            break;
        if (advance(p) != 0)
            return NULL;
    }
    if (expect(p, SQL_TK_RPAREN, "',' or ')'") != 0)
        return NULL;
    return finish(p, e);
}

/* The comparison-level forms after `left`: IS, LIKE, IN, BETWEEN (with an
** optional NOT before the last three). */
static sql_expr *parse_predicate(parser *p, sql_expr *left)
{
    sql_token at = p->cur;
    bool negated = false;
    if (at_kw(p, SQL_KW_IS)) {
        if (advance(p) != 0)
            return NULL;
        if (at_kw(p, SQL_KW_NOT)) {
            negated = true;
            if (advance(p) != 0)
                return NULL;
        }
        if (!at_kw(p, SQL_KW_NULL)) {
            expected(p, "NULL after IS");
            return NULL;
        }
        if (advance(p) != 0)
            return NULL;
        sql_expr *e = binary(p, SQL_E_IS_NULL, SQL_OP_NONE, left, NULL, &at);
        if (e != NULL)
            e->negated = negated;
        return e;
    }
    if (at_kw(p, SQL_KW_NOT)) {
        negated = true;
        if (advance(p) != 0)
            return NULL;
    }
    if (at_kw(p, SQL_KW_IN))
        return parse_in(p, left, negated, &at);
    sql_expr *e = new_expr(p, at_kw(p, SQL_KW_LIKE) ? SQL_E_LIKE : SQL_E_BETWEEN, &at);
    if (e == NULL)
        return NULL;
    e->left = left;
    e->negated = negated;
    if (advance(p) != 0 || (e->right = parse_expr(p, PREC_CONCAT)) == NULL)
        return NULL;
    if (e->kind == SQL_E_LIKE && at_kw(p, SQL_KW_ESCAPE)) {
        if (advance(p) != 0 || (e->third = parse_expr(p, PREC_CONCAT)) == NULL)
            return NULL;
    } else if (e->kind == SQL_E_LIKE && p->cur.kind == SQL_TK_LBRACE &&
               next_kw(p, SQL_KW_ESCAPE)) {
        /* ODBC's LIKE escape sequence: x LIKE 'a\%' {escape '\'} */
        if (advance(p) != 0 || advance(p) != 0 ||
            (e->third = parse_expr(p, PREC_CONCAT)) == NULL ||
            expect(p, SQL_TK_RBRACE, "'}' to close {escape ...}") != 0)
            return NULL;
    } else if (e->kind == SQL_E_BETWEEN) {
        if (expect_kw(p, SQL_KW_AND) != 0 || (e->third = parse_expr(p, PREC_CONCAT)) == NULL)
            return NULL;
    }
    return finish(p, e);
}

static sql_expr *parse_expr(parser *p, int min_prec)
{
    if (++p->depth > SQL_MAX_DEPTH) {
        sql_syntax_error(p->err, p->cur.line, p->cur.column,
                         "expression nested too deeply (more than %d levels)", SQL_MAX_DEPTH);
        return NULL;
    }
    sql_expr *left = parse_unary(p);
    while (left != NULL) {
        int prec = infix_prec(p);
        if (prec == 0 || prec < min_prec)
            break;
        sql_token t = p->cur;
        if (t.kind == SQL_TK_WORD && t.kw != SQL_KW_AND && t.kw != SQL_KW_OR) {
            left = parse_predicate(p, left);
            continue;
        }
        if (advance(p) != 0)
            return NULL;
        sql_expr *right = parse_expr(p, prec + 1);
        if (right == NULL)
            return NULL;
        sql_expr_kind kind;
        if (t.kw == SQL_KW_AND && t.kind == SQL_TK_WORD)
            kind = SQL_E_AND;
        else if (t.kw == SQL_KW_OR && t.kind == SQL_TK_WORD)
            kind = SQL_E_OR;
        else if (prec == PREC_CMP)
            kind = SQL_E_COMPARE;
        else if (prec == PREC_CONCAT)
            kind = SQL_E_CONCAT;
        else
            kind = SQL_E_ARITH;
        left = binary(p, kind, token_op(t.kind), left, right, &t);
    }
    p->depth--;
    return left;
}

/* ------------------------------------------------------------------------ */
/* SELECT                                                                    */
/* ------------------------------------------------------------------------ */

static int parse_item(parser *p, sql_select *s, uint32_t *cap)
{
    sql_select_item item;
    memset(&item, 0, sizeof item);
    item.line = p->cur.line;
    item.column = p->cur.column;
    if (p->cur.kind == SQL_TK_STAR) {
        if (advance(p) != 0)
            return -1;
    } else {
        item.expr = parse_expr(p, 1);
        if (item.expr == NULL)
            return -1;
        if (item.expr->kind == SQL_E_COLUMN && item.expr->star) {
            item.star_table = item.expr->qualifier;
            item.expr = NULL;
        } else if (at_kw(p, SQL_KW_AS)) {
            if (advance(p) != 0)
                return -1;
            if (!is_ident(&p->cur) && p->cur.kind != SQL_TK_STRING)
                return expected(p, "a column alias after AS");
            if ((item.alias = take_name(p)) == NULL)
                return -1;
        } else if (is_ident(&p->cur)) {
            if ((item.alias = take_name(p)) == NULL)
                return -1;
        }
    }
    sql_select_item *ni = grow(p, s->items, s->nitems, cap, sizeof *ni);
    if (ni == NULL)
        return -1;
    s->items = ni;
    s->items[s->nitems++] = item;
    return 0;
}

/* A parenthesized list of names: (a, b, c); the current token is '('. */
static int parse_name_list(parser *p, const char ***names, uint32_t *n, const char *what)
{
    uint32_t cap = 0;
    if (advance(p) != 0)
        return -1;
    for (;;) {
        if (!is_ident(&p->cur))
            return expected(p, what);
        const char **nn = grow(p, *names, *n, &cap, sizeof *nn);
        if (nn == NULL)
            return -1;
        *names = nn;
        if (((*names)[*n] = take_name(p)) == NULL)
            return -1;
        (*n)++;
        if (p->cur.kind != SQL_TK_COMMA)
            break;
        if (advance(p) != 0)
            return -1;
    }
    return expect(p, SQL_TK_RPAREN, "',' or ')'");
}

static int parse_from(parser *p, sql_select *s);
static sql_select *new_select(parser *p);

/* Does the '(' at the current token open a query (a derived table) rather
** than a parenthesised join?  Past any further '(' the first word says. */
static bool paren_opens_query(const parser *p)
{
    const char *t = p->text;
    size_t i = p->cur.start, n = p->len;
    while (i < n && (t[i] == '(' || t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
        i++;
    return n - i >= 6 && strncasecmp(t + i, "SELECT", 6) == 0 &&
           (n - i == 6 || (!isalnum((unsigned char)t[i + 6]) && t[i + 6] != '_'));
}

static bool at_oj(const parser *p)
{
    return p->cur.kind == SQL_TK_LBRACE && p->next.kind == SQL_TK_WORD && p->next.len == 2 &&
           strncasecmp(p->text + p->next.start, "oj", 2) == 0;
}

/* The joins after the table(s) g holds, up to a token that is no join:
** t becomes that chain as one table, SELECT * over its tables
** (t->nested); a lone table stays itself. */
static int finish_nested(parser *p, sql_table_ref *t, sql_select *g)
{
    if (++p->qdepth > SQL_MAX_DEPTH / 4)
        return sql_syntax_error(p->err, t->line, t->column,
                                "joins nested too deeply (more than %d levels)", SQL_MAX_DEPTH / 4);
    int rc = parse_from(p, g);
    p->qdepth--;
    if (rc != 0)
        return -1;
    sql_join join = t->join;
    if (g->nfrom == 1 && !g->from[0].nested) {
        *t = g->from[0];
        t->join = join;
        return 0;
    }
    if ((g->items = lt_arena_alloc(p->arena, sizeof *g->items)) == NULL)
        return oom(p);
    memset(g->items, 0, sizeof *g->items);
    g->items[0].line = t->line;
    g->items[0].column = t->column;
    g->nitems = 1;
    t->sub = g;
    t->nested = true;
    return 0;
}

/* ( joins ) or ODBC's {oj joins} where a table stands. */
static int parse_nested_join(parser *p, sql_table_ref *t)
{
    bool brace = at_oj(p);
    sql_select *g = new_select(p);
    if (g == NULL || advance(p) != 0 || (brace && advance(p) != 0) ||
        finish_nested(p, t, g) != 0)
        return -1;
    return brace ? expect(p, SQL_TK_RBRACE, "a join or '}'")
                 : expect(p, SQL_TK_RPAREN, "a join or ')'");
}

/* `a JOIN b JOIN c ON x ON y` (SQL-92, and ODBC's nested outer joins
** `{oj a LEFT OUTER JOIN b LEFT OUTER JOIN c ON x ON y}`): a JOIN (b JOIN c
** ON x) ON y.  t is b, the current token the second join. */
static int parse_right_nested(parser *p, sql_table_ref *t)
{
    sql_select *g = new_select(p);
    if (g == NULL || (g->from = lt_arena_alloc(p->arena, sizeof *g->from)) == NULL)
        return oom(p);
    g->from[0] = *t;
    g->from[0].join = SQL_JOIN_NONE;
    g->nfrom = 1;
    sql_table_ref keep = {.line = t->line, .column = t->column, .join = t->join};
    *t = keep;
    return finish_nested(p, t, g);
}

static bool at_join(const parser *p)
{
    return at_kw(p, SQL_KW_JOIN) || at_kw(p, SQL_KW_INNER) || at_kw(p, SQL_KW_LEFT) ||
           at_kw(p, SQL_KW_RIGHT) || at_kw(p, SQL_KW_FULL) || at_kw(p, SQL_KW_CROSS) ||
           at_kw(p, SQL_KW_NATURAL);
}

/* name [[AS] alias] | (SELECT ...) [AS] alias [(c1, c2, ...)] | ( joins ) */
static int parse_table_ref(parser *p, sql_table_ref *t)
{
    t->line = p->cur.line;
    t->column = p->cur.column;
    if ((p->cur.kind == SQL_TK_LPAREN && !paren_opens_query(p)) || at_oj(p)) {
        if (parse_nested_join(p, t) != 0)
            return -1;
        if (t->name != NULL) /* (t) [alias]: the table's own alias wins */
            goto alias;
    } else if (p->cur.kind == SQL_TK_LPAREN) {
        if (advance(p) != 0 || (t->sub = parse_query(p)) == NULL ||
            expect(p, SQL_TK_RPAREN, "')' after the derived table's query") != 0)
            return -1;
    } else {
        if (!is_ident(&p->cur))
            return expected(p, "a table name");
        if ((t->name = take_name(p)) == NULL)
            return -1;
        if (p->cur.kind == SQL_TK_DOT)
            return not_yet(p, &p->cur, "qualified table names (schema.table) are");
    }
alias:
    if (at_kw(p, SQL_KW_AS)) {
        if (advance(p) != 0)
            return -1;
        if (!is_ident(&p->cur))
            return expected(p, "a table alias after AS");
    }
    if (is_ident(&p->cur) && (t->alias = take_name(p)) == NULL)
        return -1;
    if (t->sub == NULL)
        return 0;
    if (t->nested) {
        /* (a JOIN b) AS x: a derived table named x; else its tables' names */
        t->nested = t->alias == NULL;
        if (t->nested)
            return 0;
    }
    if (t->alias == NULL)
        return sql_syntax_error(p->err, t->line, t->column,
                                "a derived table needs an alias: (SELECT ...) AS name");
    if (p->cur.kind == SQL_TK_LPAREN &&
        parse_name_list(p, &t->colnames, &t->ncolnames, "a column name") != 0)
        return -1;
    return 0;
}

/* How the next table joins, consuming its keywords; SQL_JOIN_NONE when
** the FROM list ends. */
static int parse_join_kind(parser *p, sql_join *kind, bool *natural)
{
    *kind = SQL_JOIN_NONE;
    *natural = false;
    if (p->cur.kind == SQL_TK_COMMA) {
        *kind = SQL_JOIN_CROSS;
        return advance(p);
    }
    if (at_kw(p, SQL_KW_NATURAL)) {
        *natural = true;
        if (advance(p) != 0)
            return -1;
        if (at_kw(p, SQL_KW_CROSS))
            return expected(p, "JOIN, INNER, LEFT, RIGHT or FULL after NATURAL");
    }
    if (at_kw(p, SQL_KW_CROSS))
        *kind = SQL_JOIN_CROSS;
    else if (at_kw(p, SQL_KW_LEFT))
        *kind = SQL_JOIN_LEFT;
    else if (at_kw(p, SQL_KW_RIGHT))
        *kind = SQL_JOIN_RIGHT;
    else if (at_kw(p, SQL_KW_FULL))
        *kind = SQL_JOIN_FULL;
    else if (at_kw(p, SQL_KW_INNER) || at_kw(p, SQL_KW_JOIN))
        *kind = SQL_JOIN_INNER;
    else if (*natural)
        return expected(p, "JOIN after NATURAL");
    else
        return 0;
    if (!at_kw(p, SQL_KW_JOIN) && advance(p) != 0)
        return -1;
    if ((*kind == SQL_JOIN_LEFT || *kind == SQL_JOIN_RIGHT || *kind == SQL_JOIN_FULL) &&
        at_kw(p, SQL_KW_OUTER) && advance(p) != 0)
        return -1;
    return expect_kw(p, SQL_KW_JOIN);
}

/* FROM t [[AS] a] { , t | [NATURAL] [INNER | LEFT | RIGHT | FULL [OUTER]]
** JOIN t [ON c | USING (a, ...)] | CROSS JOIN t }, any part of it inside
** ODBC's {oj ...}; t may be a derived table. */
static int parse_from(parser *p, sql_select *s)
{
    uint32_t cap = 0;
    bool oj = false;
    for (;;) {
        sql_join kind = SQL_JOIN_NONE;
        bool natural = false;
        if (s->nfrom > 0) {
            if (oj && p->cur.kind == SQL_TK_RBRACE) {
                oj = false;
                if (advance(p) != 0)
                    return -1;
            }
            if (parse_join_kind(p, &kind, &natural) != 0)
                return -1;
            if (kind == SQL_JOIN_NONE)
                break;
        }
        /* {oj opens an escape where a FROM item starts; after JOIN it
        ** is a nested join (parse_table_ref) */
        if (!oj && p->cur.kind == SQL_TK_LBRACE &&
            (kind == SQL_JOIN_NONE || kind == SQL_JOIN_CROSS || !at_oj(p))) {
            if (!at_oj(p))
                return expected(p, "{oj");
            oj = true;
            if (advance(p) != 0 || advance(p) != 0)
                return -1;
        }
        sql_table_ref *nf = grow(p, s->from, s->nfrom, &cap, sizeof *nf);
        if (nf == NULL)
            return -1;
        s->from = nf;
        sql_table_ref *t = &s->from[s->nfrom++];
        memset(t, 0, sizeof *t);
        t->join = kind;
        t->natural = natural;
        if (parse_table_ref(p, t) != 0)
            return -1;
        if (t->nested && kind == SQL_JOIN_NONE) {
            /* (a JOIN b ON c) JOIN ...: joined left to right all the same */
            const sql_select *g = t->sub;
            s->nfrom--;
            for (uint32_t i = 0; i < g->nfrom; i++) {
                if ((nf = grow(p, s->from, s->nfrom, &cap, sizeof *nf)) == NULL)
                    return -1;
                s->from = nf;
                s->from[s->nfrom++] = g->from[i];
            }
            continue;
        }
        if (kind != SQL_JOIN_NONE && kind != SQL_JOIN_CROSS && !natural && at_join(p) &&
            parse_right_nested(p, t) != 0)
            return -1;
        if (kind != SQL_JOIN_NONE && kind != SQL_JOIN_CROSS && !natural) {
            if (at_kw(p, SQL_KW_USING)) {
                if (advance(p) != 0)
                    return -1;
                if (p->cur.kind != SQL_TK_LPAREN)
                    return expected(p, "'(' after USING");
                if (parse_name_list(p, &t->using_cols, &t->nusing, "a column name") != 0)
                    return -1;
            } else if (expect_kw(p, SQL_KW_ON) != 0 || (t->on = parse_expr(p, 1)) == NULL) {
                return -1;
            }
        }
    }
    if (oj)
        return expect(p, SQL_TK_RBRACE, "'}'");
    return 0;
}

static int parse_group_by(parser *p, sql_select *s)
{
    uint32_t cap = 0;
    for (;;) {
        sql_expr *e = parse_expr(p, 1);
        if (e == NULL)
            return -1;
        sql_expr **ng = grow(p, s->group, s->ngroup, &cap, sizeof *ng);
        if (ng == NULL)
            return -1;
        s->group = ng;
        s->group[s->ngroup++] = e;
        if (p->cur.kind != SQL_TK_COMMA)
            return 0;
        if (advance(p) != 0)
            return -1;
    }
}

static int parse_order_by(parser *p, sql_select *s)
{
    uint32_t cap = 0;
    for (;;) {
        sql_order_item item;
        memset(&item, 0, sizeof item);
        if ((item.expr = parse_expr(p, 1)) == NULL)
            return -1;
        if (at_kw(p, SQL_KW_ASC) || at_kw(p, SQL_KW_DESC)) {
            item.desc = at_kw(p, SQL_KW_DESC);
            if (advance(p) != 0)
                return -1;
        }
        if (at_kw(p, SQL_KW_NULLS)) {
            if (advance(p) != 0)
                return -1;
            if (!at_kw(p, SQL_KW_FIRST) && !at_kw(p, SQL_KW_LAST))
                return expected(p, "FIRST or LAST after NULLS");
            item.nulls = at_kw(p, SQL_KW_FIRST) ? 1 : -1;
            if (advance(p) != 0)
                return -1;
        }
        sql_order_item *no = grow(p, s->order, s->norder, &cap, sizeof *no);
        if (no == NULL)
            return -1;
        s->order = no;
        s->order[s->norder++] = item;
        if (p->cur.kind != SQL_TK_COMMA)
            return 0;
        if (advance(p) != 0)
            return -1;
    }
}

/* LIMIT n [OFFSET m] | LIMIT m, n | OFFSET m [ROWS] [FETCH FIRST n ROWS ONLY] */
static int parse_limit(parser *p, sql_select *s)
{
    sql_token t = p->cur;
    if (s->limit != NULL)
        return sql_syntax_error(p->err, t.line, t.column, "TOP and %s cannot be used together",
                                at_kw(p, SQL_KW_LIMIT) ? "LIMIT" : "OFFSET/FETCH");
    if (at_kw(p, SQL_KW_LIMIT)) {
        if (advance(p) != 0 || (s->limit = parse_expr(p, 1)) == NULL)
            return -1;
        if (p->cur.kind == SQL_TK_COMMA) {
            if (advance(p) != 0)
                return -1;
            s->offset = s->limit;
            if ((s->limit = parse_expr(p, 1)) == NULL)
                return -1;
        } else if (at_kw(p, SQL_KW_OFFSET)) {
            if (advance(p) != 0 || (s->offset = parse_expr(p, 1)) == NULL)
                return -1;
        }
        return 0;
    }
    if (at_kw(p, SQL_KW_OFFSET)) {
        if (advance(p) != 0 || (s->offset = parse_expr(p, 1)) == NULL)
            return -1;
        if ((at_kw(p, SQL_KW_ROWS) || at_kw(p, SQL_KW_ROW)) && advance(p) != 0)
            return -1;
    }
    if (at_kw(p, SQL_KW_FETCH)) {
        if (advance(p) != 0)
            return -1;
        if (!at_kw(p, SQL_KW_FIRST) && !at_kw(p, SQL_KW_NEXT))
            return expected(p, "FIRST or NEXT after FETCH");
        if (advance(p) != 0 || (s->limit = parse_expr(p, 1)) == NULL)
            return -1;
        if (!at_kw(p, SQL_KW_ROWS) && !at_kw(p, SQL_KW_ROW))
            return expected(p, "ROWS");
        if (advance(p) != 0 || expect_kw(p, SQL_KW_ONLY) != 0)
            return -1;
    }
    return 0;
}

static int parse_select(parser *p, sql_select *s)
{
    if (expect_kw(p, SQL_KW_SELECT) != 0)
        return -1;
    if (at_kw(p, SQL_KW_ALL) || at_kw(p, SQL_KW_DISTINCT)) {
        s->distinct = at_kw(p, SQL_KW_DISTINCT);
        if (advance(p) != 0)
            return -1;
    }
    if (at_kw(p, SQL_KW_TOP)) {
        if (advance(p) != 0)
            return -1;
        if (p->cur.kind != SQL_TK_INTEGER && p->cur.kind != SQL_TK_PARAM &&
            p->cur.kind != SQL_TK_LPAREN)
            return expected(p, "a row count after TOP");
        /* TOP binds only a primary: TOP 5 * FROM would be ambiguous. */
        if ((s->limit = parse_primary(p)) == NULL)
            return -1;
        if (at_kw(p, SQL_KW_PERCENT))
            return not_yet(p, &p->cur, "TOP ... PERCENT is");
    }
    uint32_t cap = 0;
    do {
        if (s->nitems > 0 && advance(p) != 0)
            return -1;
        if (parse_item(p, s, &cap) != 0)
            return -1;
    } while (p->cur.kind == SQL_TK_COMMA);
    if (at_kw(p, SQL_KW_INTO))
        return lt_error_set(p->err, "42000", "Lector is read-only: SELECT INTO is not supported");
    if (at_kw(p, SQL_KW_FROM)) {
        if (advance(p) != 0 || parse_from(p, s) != 0)
            return -1;
    }
    if (at_kw(p, SQL_KW_WHERE)) {
        if (advance(p) != 0 || (s->where = parse_expr(p, 1)) == NULL)
            return -1;
    }
    if (at_kw(p, SQL_KW_GROUP)) {
        if (advance(p) != 0 || expect_kw(p, SQL_KW_BY) != 0 || parse_group_by(p, s) != 0)
            return -1;
    }
    if (at_kw(p, SQL_KW_HAVING)) {
        if (advance(p) != 0 || (s->having = parse_expr(p, 1)) == NULL)
            return -1;
    }
    return 0;
}

static sql_select *new_select(parser *p)
{
    sql_select *s = lt_arena_alloc(p->arena, sizeof *s);
    if (s == NULL) {
        oom(p);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->line = p->cur.line;
    s->column = p->cur.column;
    return s;
}

static sql_select *parse_query_expr(parser *p);

/* SELECT ... (without ORDER BY and LIMIT) | ( query ) */
static sql_select *parse_query_primary(parser *p)
{
    if (p->cur.kind == SQL_TK_LPAREN) {
        sql_select *s;
        if (advance(p) != 0 || (s = parse_query(p)) == NULL ||
            expect(p, SQL_TK_RPAREN, "')'") != 0)
            return NULL;
        return s;
    }
    sql_select *s = new_select(p);
    if (s == NULL || parse_select(p, s) != 0)
        return NULL;
    return s;
}

/* Make `lhs op rhs`; the current token is the operator.  `next` parses the
** right operand. */
static sql_select *compound(parser *p, sql_select *lhs, sql_select *(*next)(parser *))
{
    sql_token t = p->cur;
    sql_setop op = t.kw == SQL_KW_UNION ? SQL_SET_UNION
                 : t.kw == SQL_KW_EXCEPT ? SQL_SET_EXCEPT : SQL_SET_INTERSECT;
    if (advance(p) != 0)
        return NULL;
    if (at_kw(p, SQL_KW_ALL)) {
        op = op == SQL_SET_UNION    ? SQL_SET_UNION_ALL
           : op == SQL_SET_EXCEPT   ? SQL_SET_EXCEPT_ALL
                                    : SQL_SET_INTERSECT_ALL;
        if (advance(p) != 0)
            return NULL;
    } else if (at_kw(p, SQL_KW_DISTINCT) && advance(p) != 0) {
        return NULL;
    }
    sql_select *c = new_select(p);
    if (c == NULL)
        return NULL;
    c->line = t.line;
    c->column = t.column;
    c->setop = op;
    c->lhs = lhs;
    if ((c->rhs = next(p)) == NULL)
        return NULL;
    return c;
}

/* INTERSECT binds tighter than UNION and EXCEPT. */
static sql_select *parse_query_term(parser *p)
{
    sql_select *s = parse_query_primary(p);
    while (s != NULL && at_kw(p, SQL_KW_INTERSECT))
        s = compound(p, s, parse_query_primary);
    return s;
}

static sql_select *parse_query_expr(parser *p)
{
    sql_select *s = parse_query_term(p);
    while (s != NULL && (at_kw(p, SQL_KW_UNION) || at_kw(p, SQL_KW_EXCEPT)))
        s = compound(p, s, parse_query_term);
    return s;
}

/* A query: SELECTs combined by UNION, EXCEPT and INTERSECT, then the ORDER
** BY and LIMIT of the whole. */
static sql_select *parse_query(parser *p)
{
    if (++p->qdepth > SQL_MAX_DEPTH / 4) {
        sql_syntax_error(p->err, p->cur.line, p->cur.column,
                         "queries nested too deeply (more than %d levels)", SQL_MAX_DEPTH / 4);
        return NULL;
    }
    if (!at_kw(p, SQL_KW_SELECT) && p->cur.kind != SQL_TK_LPAREN) {
        expected(p, "SELECT");
        return NULL;
    }
    sql_select *s = parse_query_expr(p);
    if (s == NULL)
        return NULL;
    if (at_kw(p, SQL_KW_ORDER)) {
        if (s->norder > 0) {
            sql_syntax_error(p->err, p->cur.line, p->cur.column,
                             "ORDER BY given twice for the same query");
            return NULL;
        }
        if (advance(p) != 0 || expect_kw(p, SQL_KW_BY) != 0 || parse_order_by(p, s) != 0)
            return NULL;
    }
    if (at_kw(p, SQL_KW_LIMIT) || at_kw(p, SQL_KW_OFFSET) || at_kw(p, SQL_KW_FETCH)) {
        if (s->offset != NULL || (s->limit != NULL && s->setop != SQL_SET_NONE)) {
            sql_syntax_error(p->err, p->cur.line, p->cur.column,
                             "LIMIT/OFFSET given twice for the same query");
            return NULL;
        }
        if (parse_limit(p, s) != 0)
            return NULL;
    }
    p->qdepth--;
    return s;
}

/* Statements that would change data or schema. */
static const char *write_verb(const parser *p)
{
    static const char *const verbs[] = {
        "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "MERGE", "TRUNCATE",
        "GRANT", "REVOKE", "REPLACE", "UPSERT", "RENAME", "COMMENT", "LOCK",
    };
    if (p->cur.kind != SQL_TK_WORD)
        return NULL;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strlen(verbs[i]) == p->cur.len &&
            strncasecmp(verbs[i], p->text + p->cur.start, p->cur.len) == 0)
            return verbs[i];
    return NULL;
}

int sql_parse(const char *text, size_t len, lt_arena *arena, sql_select **out,
              lt_error *err)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.text = text;
    p.len = len;
    p.arena = arena;
    p.err = err;
    *out = NULL;
    sql_lexer_init(&p.lx, text, len);
    if (sql_lex(&p.lx, &p.cur, err) != 0)
        return -1;
    if (p.cur.kind != SQL_TK_END && sql_lex(&p.lx, &p.next, err) != 0)
        return -1;
    const char *verb = write_verb(&p);
    if (verb != NULL)
        return lt_error_set(err, "42000", "Lector is read-only: %s is not supported", verb);
    if (p.cur.kind == SQL_TK_END)
        return lt_error_set(err, "42000", "syntax error: empty statement");
    if (!at_kw(&p, SQL_KW_SELECT) && p.cur.kind != SQL_TK_LPAREN) {
        if (p.cur.kind == SQL_TK_WORD && p.cur.kw == SQL_KW_NONE)
            return sql_syntax_error(err, p.cur.line, p.cur.column,
                                    "unsupported statement '%.*s': Lector runs SELECT queries only",
                                    near_len(&p, &p.cur), text + p.cur.start);
        if (at_kw(&p, SQL_KW_WITH))
            return not_yet(&p, &p.cur, "WITH (common table expressions) is");
        return expected(&p, "SELECT");
    }
    sql_select *s = parse_query(&p);
    if (s == NULL)
        return -1;
    if (p.cur.kind == SQL_TK_SEMI && advance(&p) != 0)
        return -1;
    if (p.cur.kind != SQL_TK_END)
        return expected(&p, "end of statement");
    s->nparams = p.nparams;
    s->params = p.params;
    *out = s;
    return 0;
}
