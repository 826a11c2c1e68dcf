/*
** genexpr.c — computing VIRTUAL generated columns.
**
** A VIRTUAL column (`c AS (a + b)`) is not stored: SQLite computes it from
** the row each time it is read, so a reader must too.  This file compiles
** the expression text once (at open) into a small tree and evaluates it per
** row with SQLite's rules: NULL in, NULL out; integer arithmetic that
** overflows goes to REAL; division by zero is NULL; text in arithmetic is
** read as its numeric prefix; || renders numbers as SQLite does; the
** column's affinity is applied to the result.
**
** Covered: literals, column references, unary + and -, + - * / %, ||,
** parentheses, and the functions upper, lower, abs, length, coalesce,
** ifnull, trim, ltrim, rtrim.  Anything else (comparisons, CASE, CAST,
** other functions) fails to compile, and scanning that column then fails
** with a message naming it, never a wrong value.
*/
#include "sqlite_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { X_LIT, X_COL, X_NEG, X_ADD, X_SUB, X_MUL, X_DIV, X_REM, X_CONCAT, X_FUNC };
enum { F_UPPER, F_LOWER, F_ABS, F_LENGTH, F_COALESCE, F_TRIM, F_LTRIM, F_RTRIM };

#define MAX_ARGS 4
#define MAX_NODES 256

typedef struct xnode {
    uint8_t op, func;
    uint8_t nargs;
    int32_t arg[MAX_ARGS];     /* operands / arguments (node indices) */
    uint32_t col;              /* X_COL */
    sqlite_val lit;            /* X_LIT (bytes malloc'ed) */
} xnode;

struct sqlite_expr {
    xnode nodes[MAX_NODES];
    uint32_t n;
    int32_t root;
};

typedef struct parser {
    sqlite_lexer lx;
    sqlite_expr *e;
    const lt_table *t;
    const sqlite_col *cols;
    bool ok;
} parser;

static int32_t add_node(parser *p, uint8_t op)
{
    if (p->e->n == MAX_NODES) {
        p->ok = false;
        return -1;
    }
    xnode *x = &p->e->nodes[p->e->n];
    memset(x, 0, sizeof *x);
    x->op = op;
    return (int32_t)p->e->n++;
}

static int32_t parse_expr(parser *p, int min_prec);

static bool is_char(const sqlite_lexer *lx, char c)
{
    return lx->kind == SQLITE_TK_OTHER && lx->len == 1 && lx->tok[0] == c;
}

static int32_t parse_function(parser *p, const char *name, size_t n)
{
    static const struct { const char *name; uint8_t f, min, max; } fns[] = {
        {"upper", F_UPPER, 1, 1}, {"lower", F_LOWER, 1, 1}, {"abs", F_ABS, 1, 1},
        {"length", F_LENGTH, 1, 1}, {"coalesce", F_COALESCE, 2, MAX_ARGS},
        {"ifnull", F_COALESCE, 2, 2}, {"trim", F_TRIM, 1, 1}, {"ltrim", F_LTRIM, 1, 1},
        {"rtrim", F_RTRIM, 1, 1},
    };
    int k = -1;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strlen(fns[i].name) == n && strncasecmp(fns[i].name, name, n) == 0)
            k = (int)i;
    if (k < 0) {
        p->ok = false;
        return -1;
    }
    int32_t id = add_node(p, X_FUNC);
    if (id < 0)
        return -1;
    sqlite_lex_next(&p->lx);   /* '(' */
    uint8_t nargs = 0;
    while (p->ok && p->lx.kind != SQLITE_TK_RP) {
        if (nargs == MAX_ARGS) {
            p->ok = false;
            return -1;
        }
        int32_t a = parse_expr(p, 0);
        p->e->nodes[id].arg[nargs++] = a;
        if (p->lx.kind == SQLITE_TK_COMMA)
            sqlite_lex_next(&p->lx);
        else if (p->lx.kind != SQLITE_TK_RP)
            p->ok = false;
    }
    sqlite_lex_next(&p->lx);
    if (nargs < fns[k].min || nargs > fns[k].max)
        p->ok = false;
    p->e->nodes[id].func = fns[k].f;
    p->e->nodes[id].nargs = nargs;
    return id;
}

static int32_t parse_primary(parser *p)
{
    sqlite_lexer *lx = &p->lx;
    if (!p->ok)
        return -1;
    if (is_char(lx, '-') || is_char(lx, '+')) {
        bool neg = lx->tok[0] == '-';
        sqlite_lex_next(lx);
        int32_t a = parse_primary(p);
        if (!neg)
            return a;
        int32_t id = add_node(p, X_NEG);
        if (id >= 0)
            p->e->nodes[id].arg[0] = a;
        return id;
    }
    if (lx->kind == SQLITE_TK_LP) {
        sqlite_lex_next(lx);
        int32_t a = parse_expr(p, 0);
        if (lx->kind != SQLITE_TK_RP)
            p->ok = false;
        sqlite_lex_next(lx);
        return a;
    }
    if (lx->kind == SQLITE_TK_NUM || lx->kind == SQLITE_TK_STRING || lx->kind == SQLITE_TK_BLOB ||
        sqlite_lex_is_kw(lx, "NULL") || sqlite_lex_is_kw(lx, "TRUE") ||
        sqlite_lex_is_kw(lx, "FALSE")) {
        int32_t id = add_node(p, X_LIT);
        if (id < 0)
            return -1;
        sqlite_val *v = &p->e->nodes[id].lit;
        /* Affinity BLOB: the constant as written (NUMERIC for numbers). */
        if (sqlite_default_value(lx->tok, lx->len, SQLITE_AFF_BLOB, v) != 0)
            p->ok = false;
        sqlite_lex_next(lx);
        return id;
    }
    if (lx->kind == SQLITE_TK_ID || lx->kind == SQLITE_TK_QID) {
        const char *name = lx->tok;
        size_t n = lx->len;
        bool bare = lx->kind == SQLITE_TK_ID;
        sqlite_lex_next(lx);
        if (bare && lx->kind == SQLITE_TK_LP)
            return parse_function(p, name, n);
        char *cn = sqlite_dequote(name, n);
        if (cn == NULL) {
            p->ok = false;
            return -1;
        }
        int64_t c = -1;
        for (uint32_t i = 0; i < p->t->ncols && c < 0; i++)
            if (strcasecmp(p->t->cols[i].name, cn) == 0)
                c = i;
        free(cn);
        /* another VIRTUAL column would need evaluating in turn: not done */
        if (c < 0 || p->cols[c].field == SQLITE_FIELD_VIRTUAL) {
            p->ok = false;
            return -1;
        }
        int32_t id = add_node(p, X_COL);
        if (id >= 0)
            p->e->nodes[id].col = (uint32_t)c;
        return id;
    }
    p->ok = false;
    return -1;
}

/* The binary operator at the lexer, with its precedence; 0 when none. */
static int binary_op(parser *p, uint8_t *op)
{
    sqlite_lexer *lx = &p->lx;
    if (lx->kind != SQLITE_TK_OTHER || lx->len != 1)
        return 0;
    switch (lx->tok[0]) {
    case '|':
        if (lx->p < lx->end && lx->p[0] == '|') {
            *op = X_CONCAT;
            return 3;
        }
        return 0;
    case '*': *op = X_MUL; return 2;
    case '/': *op = X_DIV; return 2;
    case '%': *op = X_REM; return 2;
    case '+': *op = X_ADD; return 1;
    case '-': *op = X_SUB; return 1;
    default: return 0;
    }
}

static int32_t parse_expr(parser *p, int min_prec)
{
    int32_t left = parse_primary(p);
    while (p->ok) {
        uint8_t op;
        int prec = binary_op(p, &op);
        if (prec == 0 || prec < min_prec)
            break;
        sqlite_lex_next(&p->lx);
        if (op == X_CONCAT)
            sqlite_lex_next(&p->lx);  /* the second '|' */
        int32_t right = parse_expr(p, prec + 1);
        int32_t id = add_node(p, op);
        if (id < 0)
            break;
        p->e->nodes[id].arg[0] = left;
        p->e->nodes[id].arg[1] = right;
        left = id;
    }
    return left;
}

void sqlite_expr_free(sqlite_expr *e)
{
    if (e == NULL)
        return;
    for (uint32_t i = 0; i < e->n; i++) {
        sqlite_val *v = &e->nodes[i].lit;
        if (e->nodes[i].op == X_LIT && (v->cls == SQLITE_TEXT || v->cls == SQLITE_BLOB))
            free((void *)v->p);
    }
    free(e);
}

sqlite_expr *sqlite_expr_compile(const char *text, const lt_table *t,
                                 const sqlite_col *cols)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.e = calloc(1, sizeof *p.e);
    if (p.e == NULL)
        return NULL;
    p.t = t;
    p.cols = cols;
    p.ok = true;
    size_t len = strlen(text);
    p.lx = (sqlite_lexer){text, text + len, SQLITE_TK_END, text, 0};
    sqlite_lex_next(&p.lx);
    p.e->root = parse_expr(&p, 0);
    if (!p.ok || p.lx.kind != SQLITE_TK_END || p.e->root < 0) {
        sqlite_expr_free(p.e);
        return NULL;
    }
    return p.e;
}

bool sqlite_expr_uses(const sqlite_expr *e, uint32_t col)
{
    for (uint32_t i = 0; i < e->n; i++)
        if (e->nodes[i].op == X_COL && e->nodes[i].col == col)
            return true;
    return false;
}

/* ---- evaluation --------------------------------------------------------------- */

typedef struct evalctx {
    const sqlite_expr *e;
    sqlite_getter get;
    void *ctx;
    lt_arena *arena;
} evalctx;

/* A value's text in UTF-8 (arena copy when converted or rendered). */
static int as_text(evalctx *x, const sqlite_val *v, const char **s, size_t *n)
{
    char tmp[64];
    switch (v->cls) {
    case SQLITE_INT:
        *n = (size_t)snprintf(tmp, sizeof tmp, "%lld", (long long)v->i);
        break;
    case SQLITE_REAL:
        *n = lt_sqlite_real_text(v->r, tmp, sizeof tmp);
        break;
    case SQLITE_TEXT:
        if (v->enc != SQLITE_ENC_UTF8) {
            char *d = lt_arena_alloc(x->arena, SQLITE_UTF16_MAX_UTF8(v->n));
            if (d == NULL)
                return -1;
            *n = sqlite_utf16_to_utf8(v->p, v->n, v->enc == SQLITE_ENC_UTF16BE, d);
            *s = d;
            return 0;
        }
        /* fall through */
    default:
        *s = (const char *)v->p;
        *n = v->n;
        return 0;
    }
    char *d = lt_arena_alloc(x->arena, *n + 1);
    if (d == NULL)
        return -1;
    memcpy(d, tmp, *n + 1);
    *s = d;
    return 0;
}

static void set_text(sqlite_val *out, const char *s, size_t n)
{
    memset(out, 0, sizeof *out);
    out->cls = SQLITE_TEXT;
    out->enc = SQLITE_ENC_UTF8;
    out->p = (const uint8_t *)s;
    out->n = (uint32_t)n;
}

/* A value as a number for arithmetic: text by its numeric prefix. */
static void numerify(evalctx *x, const sqlite_val *in, sqlite_val *out)
{
    if (in->cls == SQLITE_INT || in->cls == SQLITE_REAL) {
        *out = *in;
        return;
    }
    const char *s;
    size_t n;
    memset(out, 0, sizeof *out);
    out->cls = SQLITE_INT;
    if (as_text(x, in, &s, &n) != 0)
        return;
    size_t k = 0;
    while (k < n && isspace((unsigned char)s[k]))
        k++;
    size_t start = k;
    if (k < n && (s[k] == '+' || s[k] == '-'))
        k++;
    while (k < n && isdigit((unsigned char)s[k]))
        k++;
    size_t int_end = k;
    if (k < n && s[k] == '.') {
        k++;
        while (k < n && isdigit((unsigned char)s[k]))
            k++;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        size_t e = k + 1;
        if (e < n && (s[e] == '+' || s[e] == '-'))
            e++;
        if (e < n && isdigit((unsigned char)s[e])) {
            while (e < n && isdigit((unsigned char)s[e]))
                e++;
            k = e;
        }
    }
    int64_t i;
    double r;
    int kind = lt_sqlite_text_number(s + start, k - start, &i, &r);
    if (kind == 1 && int_end == k) {
        out->i = i;
    } else if (kind != 0) {
        out->cls = SQLITE_REAL;
        out->r = kind == 1 ? (double)i : r;
    }
}

static int eval(evalctx *x, int32_t id, sqlite_val *out, int depth);

static int arith(evalctx *x, const xnode *nd, sqlite_val *out, int depth)
{
    sqlite_val a, b, na, nb;
    if (eval(x, nd->arg[0], &a, depth) != 0 || eval(x, nd->arg[1], &b, depth) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    if (a.cls == SQLITE_NULL || b.cls == SQLITE_NULL) {
        out->cls = SQLITE_NULL;
        return 0;
    }
    numerify(x, &a, &na);
    numerify(x, &b, &nb);
    if (na.cls == SQLITE_INT && nb.cls == SQLITE_INT) {
        lt_int128 l = na.i, r = nb.i, v;
        switch (nd->op) {
        case X_ADD: v = l + r; break;
        case X_SUB: v = l - r; break;
        case X_MUL: v = l * r; break;
        case X_DIV:
        case X_REM:
            if (r == 0) {
                out->cls = SQLITE_NULL;
                return 0;
            }
            v = nd->op == X_DIV ? l / r : l % r;
            break;
        default: v = 0; break;
        }
        if (v >= INT64_MIN && v <= INT64_MAX) {
            out->cls = SQLITE_INT;
            out->i = (int64_t)v;
            return 0;
        }
    }
    double l = na.cls == SQLITE_INT ? (double)na.i : na.r;
    double r = nb.cls == SQLITE_INT ? (double)nb.i : nb.r;
    out->cls = SQLITE_REAL;
    switch (nd->op) {
    case X_ADD: out->r = l + r; break;
    case X_SUB: out->r = l - r; break;
    case X_MUL: out->r = l * r; break;
    case X_DIV:
        if (r == 0.0)
            out->cls = SQLITE_NULL;
        else
            out->r = l / r;
        break;
    default: {
        /* SQLite takes the remainder of the integer parts */
        int64_t il = (int64_t)l, ir = (int64_t)r;
        if (ir == 0 || (ir == -1 && il == INT64_MIN))
            out->cls = SQLITE_NULL;
        else
            out->r = (double)(il % ir);
        break;
    }
    }
    return 0;
}

static int function(evalctx *x, const xnode *nd, sqlite_val *out, int depth)
{
    sqlite_val a;
    if (nd->func == F_COALESCE) {
        for (uint8_t k = 0; k < nd->nargs; k++) {
            if (eval(x, nd->arg[k], out, depth) != 0)
                return -1;
            if (out->cls != SQLITE_NULL)
                return 0;
        }
        return 0;
    }
    if (eval(x, nd->arg[0], &a, depth) != 0)
        return -1;
    if (a.cls == SQLITE_NULL) {
        *out = a;
        return 0;
    }
    const char *s;
    size_t n;
    switch (nd->func) {
    case F_ABS: {
        sqlite_val v;
        numerify(x, &a, &v);
        if (v.cls == SQLITE_INT && v.i == INT64_MIN)
            return -1;   /* SQLite: integer overflow error */
        if (v.cls == SQLITE_INT)
            v.i = v.i < 0 ? -v.i : v.i;
        else
            v.r = fabs(v.r);
        *out = v;
        return 0;
    }
    case F_LENGTH: {
        memset(out, 0, sizeof *out);
        out->cls = SQLITE_INT;
        if (a.cls == SQLITE_BLOB) {
            out->i = a.n;
            return 0;
        }
        if (as_text(x, &a, &s, &n) != 0)
            return -1;
        int64_t chars = 0;
        for (size_t k = 0; k < n && s[k] != '\0'; k++)
            chars += ((unsigned char)s[k] & 0xc0) != 0x80;
        out->i = chars;
        return 0;
    }
    default:
        break;
    }
    if (as_text(x, &a, &s, &n) != 0)
        return -1;
    if (nd->func == F_UPPER || nd->func == F_LOWER) {
        char *d = lt_arena_alloc(x->arena, n + 1);
        if (d == NULL)
            return -1;
        for (size_t k = 0; k < n; k++) {
            unsigned char c = (unsigned char)s[k];
            /* SQLite's built-in upper()/lower() fold ASCII only */
            d[k] = (char)(c < 0x80 ? (nd->func == F_UPPER ? toupper(c) : tolower(c)) : c);
        }
        set_text(out, d, n);
        return 0;
    }
    size_t b = 0, e = n;
    if (nd->func != F_RTRIM)
        while (b < e && s[b] == ' ')
            b++;
    if (nd->func != F_LTRIM)
        while (e > b && s[e - 1] == ' ')
            e--;
    set_text(out, s + b, e - b);
    out->transient = a.transient;   /* may point into the row's buffer */
    return 0;
}

static int eval(evalctx *x, int32_t id, sqlite_val *out, int depth)
{
    if (id < 0 || (uint32_t)id >= x->e->n || depth > 64)
        return -1;
    const xnode *nd = &x->e->nodes[id];
    switch (nd->op) {
    case X_LIT:
        *out = nd->lit;
        return 0;
    case X_COL:
        return x->get(x->ctx, nd->col, out);
    case X_NEG: {
        sqlite_val a;
        if (eval(x, nd->arg[0], &a, depth + 1) != 0)
            return -1;
        if (a.cls == SQLITE_NULL) {
            *out = a;
            return 0;
        }
        numerify(x, &a, out);
        if (out->cls == SQLITE_INT && out->i != INT64_MIN) {
            out->i = -out->i;
        } else {
            out->r = out->cls == SQLITE_INT ? -(double)out->i : -out->r;
            out->cls = SQLITE_REAL;
        }
        return 0;
    }
    case X_CONCAT: {
        sqlite_val a, b;
        if (eval(x, nd->arg[0], &a, depth + 1) != 0 || eval(x, nd->arg[1], &b, depth + 1) != 0)
            return -1;
        if (a.cls == SQLITE_NULL || b.cls == SQLITE_NULL) {
            memset(out, 0, sizeof *out);
            return 0;
        }
        const char *s1, *s2;
        size_t n1, n2;
        if (as_text(x, &a, &s1, &n1) != 0 || as_text(x, &b, &s2, &n2) != 0)
            return -1;
        char *d = lt_arena_alloc(x->arena, n1 + n2 + 1);
        if (d == NULL)
            return -1;
        memcpy(d, s1, n1);
        memcpy(d + n1, s2, n2);
        set_text(out, d, n1 + n2);
        return 0;
    }
    case X_FUNC:
        return function(x, nd, out, depth + 1);
    default:
        return arith(x, nd, out, depth + 1);
    }
}

int sqlite_expr_eval(const sqlite_expr *e, uint8_t affinity, sqlite_getter get,
                     void *ctx, lt_arena *arena, sqlite_val *out)
{
    evalctx x = {e, get, ctx, arena};
    if (eval(&x, e->root, out, 0) != 0)
        return -1;
    /* The column's affinity, as SQLite applies it to a generated value. */
    if (affinity == SQLITE_AFF_TEXT && (out->cls == SQLITE_INT || out->cls == SQLITE_REAL)) {
        const char *s;
        size_t n;
        if (as_text(&x, out, &s, &n) != 0)
            return -1;
        set_text(out, s, n);
    } else if (affinity >= SQLITE_AFF_NUMERIC && out->cls == SQLITE_TEXT) {
        const char *s;
        size_t n;
        int64_t i;
        double r;
        if (as_text(&x, out, &s, &n) != 0)
            return -1;
        int kind = lt_sqlite_text_number(s, n, &i, &r);
        if (kind == 1) {
            out->cls = SQLITE_INT;
            out->i = i;
        } else if (kind == 2) {
            out->cls = SQLITE_REAL;
            out->r = r;
        }
    }
    if (affinity == SQLITE_AFF_INTEGER || affinity == SQLITE_AFF_NUMERIC)
        sqlite_integer_affinity(out);
    return 0;
}
