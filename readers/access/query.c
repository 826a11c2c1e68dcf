/*
** query.c — saved queries: MSysQueries rows rebuilt as SQL the engine runs.
**
** Access keeps no SQL text for a saved query.  MSysQueries holds one row per
** clause part, keyed by the query's MSysObjects Id, with an Attribute saying
** what the row is (jackcess's QueryFormat and mdbtools' mdb-queries agree):
**   0 start, 1 type (Flag: 1 select ... 9 union), 2 parameter (Name1, Flag
**   the type), 3 flags (Flag: 0x01 SELECT *, 0x02 DISTINCT, 0x04 WITH
**   OWNERACCESS OPTION, 0x08 DISTINCTROW, 0x10 TOP Name1, 0x20 PERCENT; in a
**   union 0x02 means UNION without ALL), 4 remote database (IN clause),
**   5 source table (Name1 table or query, Name2 alias, Expression a remote
**   database; in a union Name2 X7YZ_____1/2 and Expression the part's SQL),
**   6 output column (Expression, Name1 alias), 7 join (Name1 and Name2 the
**   joined tables, Expression the ON condition, Flag 1 inner, 2 left,
**   3 right), 8 WHERE, 9 GROUP BY, 10 HAVING, 11 ORDER BY (Name1 "D":
**   descending), 255 end.  Rows of one attribute come in the order of the
**   binary Order column (MSysQueries' key is ObjectId, Attribute, Order).
** The query's type is its MSysObjects Flags & 0xF0 (0 select, 16 crosstab,
** 32 delete, 48 update, 64 append, 80 make-table, 96 data definition,
** 112 pass-through, 128 union), or the type row's when those say select.
**
** Only SELECT and UNION queries are tables (views); action queries,
** crosstabs, pass-through and DDL queries are not listed.  Expressions are
** Access SQL; the mechanical differences from the engine's SQL are
** translated (mdb_access_expr): "text" literals become 'text', #date#
** literals ODBC escapes, [T]![C] becomes [T].[C], and the Access functions
** the engine knows by another name are renamed (Len, Mid, Nz, Date(),
** Time(), the $ forms of string functions).  What cannot be expressed
** (parameters, TOP PERCENT, remote databases, DISTINCTROW over a join) makes
** the view fail with a message saying so.
*/
#include "access_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    QA_TYPE = 1, QA_PARAM = 2, QA_FLAG = 3, QA_REMOTE = 4, QA_TABLE = 5, QA_COLUMN = 6,
    QA_JOIN = 7, QA_WHERE = 8, QA_GROUP = 9, QA_HAVING = 10, QA_ORDER = 11
};

#define QF_STAR 0x01
#define QF_DISTINCT 0x02
#define QF_DISTINCTROW 0x08
#define QF_TOP 0x10
#define QF_PERCENT 0x20
#define QF_UNION_DISTINCT 0x02

/* Query types: MSysObjects flag, type-row value, name. */
static const struct {
    int objflag, rowtype;
    const char *name;
} qtypes[] = {
    {0, 1, "select"}, {80, 2, "make-table"}, {64, 3, "append"}, {48, 4, "update"},
    {32, 5, "delete"}, {16, 6, "crosstab"}, {96, 7, "data-definition"},
    {112, 8, "pass-through"}, {128, 9, "union"},
};
#define NQTYPES (sizeof qtypes / sizeof qtypes[0])

/* ---- Access expressions to the engine's SQL ------------------------------------- */

static int add(mdb_buf *b, const char *s)
{
    return mdb_buf_add(b, s, strlen(s));
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A number of 1..maxd digits at *p; -1 when none. */
static int number(const char **p, const char *end, int maxd, int *ndigits)
{
    int v = 0, n = 0;
    while (*p < end && is_digit(**p) && n < maxd) {
        v = v * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    if (ndigits != NULL)
        *ndigits = n;
    return n > 0 && !(*p < end && is_digit(**p)) ? v : -1;
}

static void skip_blanks(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
}

/* "h:nn[:ss] [AM|PM]" at *p into seconds of the day; -1 when not a time. */
static int parse_time(const char **p, const char *end)
{
    int h = number(p, end, 2, NULL);
    if (h < 0 || *p >= end || **p != ':')
        return -1;
    (*p)++;
    int m = number(p, end, 2, NULL), s = 0;
    if (m < 0 || m > 59)
        return -1;
    if (*p < end && **p == ':') {
        (*p)++;
        if ((s = number(p, end, 2, NULL)) < 0 || s > 59)
            return -1;
    }
    skip_blanks(p, end);
    if (end - *p >= 2 && (strncasecmp(*p, "AM", 2) == 0 || strncasecmp(*p, "PM", 2) == 0)) {
        bool pm = (**p == 'P' || **p == 'p');
        if (h < 1 || h > 12)
            return -1;
        h = h % 12 + (pm ? 12 : 0);
        *p += 2;
    }
    return h > 23 ? -1 : (h * 60 + m) * 60 + s;
}

/* The text between '#'s as an ODBC date, time or timestamp escape; false
** when it is no date Access would read the same way (then it stays as is).
** Access SQL writes dates month first (#1/2/2020# is January 2) or ISO. */
static bool date_literal(const char *s, size_t len, char *out, size_t cap)
{
    const char *p = s, *end = s + len;
    int y = 1899, mo = 12, d = 30, secs = -1, nd;
    bool has_date = false;
    skip_blanks(&p, end);
    const char *mark = p;
    int a = number(&p, end, 4, &nd);
    if (a >= 0 && p < end && (*p == '/' || *p == '-')) {
        char sep = *p++;
        int b = number(&p, end, 2, NULL);
        if (b < 0 || p >= end || *p != sep)
            return false;
        p++;
        int nc, c = number(&p, end, 4, &nc);
        if (c < 0)
            return false;
        if (nd == 4) {
            y = a, mo = b, d = c;
        } else {
            mo = a, d = b, y = c;
            if (nc <= 2)
                y += y < 30 ? 2000 : 1900;
        }
        has_date = true;
        skip_blanks(&p, end);
    } else {
        p = mark;
    }
    if (p < end && (secs = parse_time(&p, end)) < 0)
        return false;
    skip_blanks(&p, end);
    if (p != end || (!has_date && secs < 0))
        return false;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 100 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
        return false;
    if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return false;
    if (secs < 0)
        snprintf(out, cap, "{d '%04d-%02d-%02d'}", y, mo, d);
    else
        snprintf(out, cap, "{ts '%04d-%02d-%02d %02d:%02d:%02d'}", y, mo, d, secs / 3600,
                 secs / 60 % 60, secs % 60);
    return true;
}

/* The end of a quoted part starting at s[0] (which is the quote), doubled
** quotes kept inside; `len` when unterminated. */
static size_t quoted_end(const char *s, size_t len, char close)
{
    for (size_t i = 1; i < len; i++) {
        if (s[i] != close)
            continue;
        if (close != ']' && i + 1 < len && s[i + 1] == close) {
            i++;
            continue;
        }
        return i;
    }
    return len;
}

static bool word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

/* The top-level arguments of the call whose '(' is at s[open]: their count
** (0 for "()"), or -1 when the parenthesis is not closed within 4 KiB (the
** limit keeps hostile text from costing quadratic time). */
static int call_args(const char *s, size_t len, size_t open, size_t *close)
{
    int depth = 0, commas = 0;
    bool empty = true;
    if (len - open > 4096)
        len = open + 4096;
    for (size_t i = open; i < len; i++) {
        char c = s[i];
        if (c == '\'' || c == '"' || c == '[') {
            i += quoted_end(s + i, len - i, c == '[' ? ']' : c);
            empty = false;
        } else if (c == '(') {
            depth++;
            if (depth > 1)
                empty = false;
        } else if (c == ')') {
            if (--depth == 0) {
                *close = i;
                return empty ? 0 : commas + 1;
            }
        } else if (c == ',' && depth == 1) {
            commas++;
        } else if (c != ' ' && c != '\t') {
            empty = false;
        }
    }
    return -1;
}

/* Access functions the engine knows by another name, where the meaning is
** the same: Len is CHAR_LENGTH, Mid SUBSTRING, Nz(x, y) COALESCE(x, y),
** Date() CURRENT_DATE, Time() CURRENT_TIME; Left$ and the other string
** functions' $ forms are the plain ones.  Appends the word `w` (followed by
** '(' at s[open]) as the engine should see it; *next is where to go on. */
static int function_word(mdb_buf *b, const char *s, size_t len, const char *w, size_t wlen,
                         size_t open, size_t *next)
{
    static const struct {
        const char *access, *engine;
        int nargs;  /* -1: any */
    } names[] = {
        {"Len", "CHAR_LENGTH", -1}, {"Mid", "SUBSTRING", -1}, {"Nz", "COALESCE", 2},
        {"Date", "CURRENT_DATE", 0}, {"Time", "CURRENT_TIME", 0},
    };
    size_t close = 0;
    size_t base = wlen > 1 && w[wlen - 1] == '$' ? wlen - 1 : wlen;
    *next = (size_t)(w - s) + wlen;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strlen(names[k].access) != base || strncasecmp(w, names[k].access, base) != 0)
            continue;
        if (names[k].nargs >= 0 && call_args(s, len, open, &close) != names[k].nargs)
            break;
        if (names[k].nargs == 0)
            *next = close + 1;   /* Date() is CURRENT_DATE, no parentheses */
        return add(b, names[k].engine);
    }
    return mdb_buf_add(b, w, base);
}

int mdb_access_expr(mdb_buf *b, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        size_t start = i;
        if (c == '\'' || c == '[') {
            size_t e = quoted_end(s + i, len - i, c == '[' ? ']' : '\'');
            i += e < len - i ? e + 1 : len - i;
            if (mdb_buf_add(b, s + start, i - start) != 0)
                return -1;
        } else if (c == '"') {
            /* a text literal: re-quote with ', doubling ' and undoubling " */
            size_t e = i + quoted_end(s + i, len - i, '"');
            if (mdb_buf_add(b, "'", 1) != 0)
                return -1;
            for (size_t k = i + 1; k < e; k++) {
                const char *piece = s[k] == '\'' ? "''" : s[k] == '"' ? "\"" : NULL;
                if (s[k] == '"')
                    k++;   /* "" stands for one " */
                if (piece != NULL ? add(b, piece) != 0 : mdb_buf_add(b, s + k, 1) != 0)
                    return -1;
            }
            if (mdb_buf_add(b, "'", 1) != 0)
                return -1;
            i = e < len ? e + 1 : len;
        } else if (c == '#') {
            size_t room = len - i - 1 < 41 ? len - i - 1 : 41;
            const char *close = memchr(s + i + 1, '#', room);
            char lit[64];
            if (close != NULL && (size_t)(close - s) - i - 1 < 40 &&
                date_literal(s + i + 1, (size_t)(close - s) - i - 1, lit, sizeof lit)) {
                if (add(b, lit) != 0)
                    return -1;
                i = (size_t)(close - s) + 1;
            } else {
                if (mdb_buf_add(b, "#", 1) != 0)
                    return -1;
                i++;
            }
        } else if (c == '!' && i > 0 && s[i - 1] == ']' && i + 1 < len && s[i + 1] == '[') {
            if (mdb_buf_add(b, ".", 1) != 0)   /* [Table]![Column] */
                return -1;
            i++;
        } else if (word_char(c)) {
            while (i < len && word_char(s[i]))
                i++;
            size_t open = i;
            while (open < len && (s[open] == ' ' || s[open] == '\t'))
                open++;
            bool call = open < len && s[open] == '(' && !is_digit(c) && (start == 0 || s[start - 1] != '.');
            if (call ? function_word(b, s, len, s + start, i - start, open, &i) != 0
                     : mdb_buf_add(b, s + start, i - start) != 0)
                return -1;
        } else {
            while (i < len && s[i] != '\'' && s[i] != '[' && s[i] != '"' && s[i] != '#' && s[i] != '!' &&
                   !word_char(s[i]))
                i++;
            if (i == start)
                i++;
            if (mdb_buf_add(b, s + start, i - start) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- the parts of a SELECT -------------------------------------------------------- */

typedef struct qctx {
    const mdb_qrow *rows;
    uint32_t n;
    mdb_buf *out;
    char *why;
    size_t cap;
} qctx;

static int expr(qctx *q, const char *s)
{
    return s == NULL ? 0 : mdb_access_expr(q->out, s, strlen(s));
}

/* [name], unless already bracketed. */
static int ident(mdb_buf *b, const char *name)
{
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '[' && name[n - 1] == ']')
        return mdb_buf_add(b, name, n);
    return add(b, "[") != 0 || mdb_buf_add(b, name, n) != 0 || add(b, "]") != 0 ? -1 : 0;
}

/* Is `s` a plain column reference ([T].[C], T.C, [C], T.*)?  Access names
** other output expressions without an alias Expr1000, Expr1001, ... */
static bool column_ref(const char *s)
{
    for (const char *p = s; *p;) {
        if (*p == '*' && p[1] == '\0')
            return true;
        if (*p == '[') {
            const char *e = strchr(p, ']');
            if (e == NULL)
                return false;
            p = e + 1;
        } else {
            if (!word_char(*p))
                return false;
            while (word_char(*p))
                p++;
        }
        if (*p == '.' || *p == '!')
            p++;
        else if (*p != '\0')
            return false;
    }
    return *s != '\0';
}

static int refuse(qctx *q, const char *what)
{
    snprintf(q->why, q->cap, "%s", what);
    return 1;
}

static int count_attr(const qctx *q, int attr, const mdb_qrow **first)
{
    int n = 0;
    for (uint32_t i = 0; i < q->n; i++)
        if (q->rows[i].attribute == attr && n++ == 0 && first != NULL)
            *first = &q->rows[i];
    return n;
}

/* A FROM item: a table (name, alias) or a join of two items. */
typedef struct qsrc {
    const mdb_qrow *table;     /* NULL for a join */
    const char *key;           /* what joins call the table: alias, else name */
    int left, right;           /* joins: node numbers */
    int type;                  /* 1 inner, 2 left, 3 right */
    int *ons;                  /* row numbers of the ON conditions, reversed */
    int nons;
} qsrc;

static bool contains(const qsrc *nodes, int k, const char *name)
{
    const qsrc *s = &nodes[k];
    if (s->table != NULL)
        return name != NULL && strcasecmp(s->key, name) == 0;
    return contains(nodes, s->left, name) || contains(nodes, s->right, name);
}

static int emit_src(qctx *q, const qsrc *nodes, int k, bool operand);

static int emit_join(qctx *q, const qsrc *nodes, int k)
{
    const qsrc *j = &nodes[k];
    static const char *const kinds[4] = {"", " INNER JOIN ", " LEFT JOIN ", " RIGHT JOIN "};
    if (emit_src(q, nodes, j->left, false) != 0 || add(q->out, kinds[j->type]) != 0 ||
        emit_src(q, nodes, j->right, true) != 0 || add(q->out, " ON ") != 0)
        return -1;
    for (int i = 0; i < j->nons; i++) {
        if (j->nons > 1 && add(q->out, i == 0 ? "(" : ") AND (") != 0)
            return -1;
        if (expr(q, q->rows[j->ons[i]].expr) != 0)
            return -1;
    }
    return j->nons > 1 ? add(q->out, ")") : 0;
}

/* Left operands of a join need no parentheses (joins associate to the
** left); a join as the right operand does. */
static int emit_src(qctx *q, const qsrc *nodes, int k, bool operand)
{
    const qsrc *s = &nodes[k];
    if (s->table != NULL) {
        if (ident(q->out, s->table->name1) != 0)
            return -1;
        if (s->table->name2 != NULL)
            return add(q->out, " AS ") != 0 || ident(q->out, s->table->name2) != 0 ? -1 : 0;
        return 0;
    }
    if (operand && add(q->out, "(") != 0)
        return -1;
    if (emit_join(q, nodes, k) != 0)
        return -1;
    return operand ? add(q->out, ")") : 0;
}

/* The FROM clause from the table and join rows, joined as jackcess joins
** them: each join row combines the items holding its two tables. */
static int from_clause(qctx *q, bool star)
{
    int ntab = count_attr(q, QA_TABLE, NULL), njoin = count_attr(q, QA_JOIN, NULL);
    if (ntab == 0)
        return 0;
    /* Access takes at most 32 tables in a query; more would only make the
    ** join tree (walked recursively) deep */
    if (ntab > 256 || njoin > 256)
        return refuse(q, "it joins more tables than Access allows");
    int cap = ntab + 3 * njoin;
    qsrc *nodes = calloc((size_t)cap, sizeof *nodes);
    int *tops = calloc((size_t)cap, sizeof *tops);
    int *ons = calloc((size_t)(njoin ? njoin : 1) * (size_t)cap, sizeof *ons);
    int nn = 0, nt = 0, rc = -1;
    if (nodes == NULL || tops == NULL || ons == NULL)
        goto done;
    for (uint32_t i = 0; i < q->n; i++) {
        const mdb_qrow *r = &q->rows[i];
        if (r->attribute != QA_TABLE)
            continue;
        if (r->name1 == NULL || r->name1[0] == '\0') {
            rc = refuse(q, "a source table has no name");
            goto done;
        }
        if (r->expr != NULL && r->expr[0] != '\0') {
            rc = refuse(q, "it reads a table of another database (an IN clause)");
            goto done;
        }
        nodes[nn].table = r;
        nodes[nn].key = r->name2 != NULL ? r->name2 : r->name1;
        tops[nt++] = nn++;
    }
    for (uint32_t i = 0; i < q->n; i++) {
        const mdb_qrow *r = &q->rows[i];
        if (r->attribute != QA_JOIN)
            continue;
        if (r->flag < 1 || r->flag > 3 || r->expr == NULL) {
            rc = refuse(q, "it has a join of an unknown kind");
            goto done;
        }
        int from = -1, to = -1, fromt = -1, tot = -1;
        for (int t = 0; t < nt && (from < 0 || to < 0); t++) {
            if (from < 0 && contains(nodes, tops[t], r->name1))
                from = tops[t], fromt = t;
            if (to < 0 && contains(nodes, tops[t], r->name2))
                to = tops[t], tot = t;
        }
        if (from < 0 || to < 0) {
            rc = refuse(q, "a join names a table the query does not read");
            goto done;
        }
        if (from == to) {
            qsrc *j = &nodes[from];
            if (j->table != NULL || j->type != r->flag) {
                rc = refuse(q, "it joins the same tables twice in different ways");
                goto done;
            }
            memmove(j->ons + 1, j->ons, (size_t)j->nons * sizeof *j->ons);
            j->ons[0] = (int)i;
            j->nons++;
            continue;
        }
        if (nn >= cap) {
            rc = refuse(q, "its joins do not form a tree");
            goto done;
        }
        qsrc *j = &nodes[nn];
        j->left = from;
        j->right = to;
        j->type = r->flag;
        j->ons = ons + (size_t)nn * (size_t)(njoin ? njoin : 1);
        j->ons[0] = (int)i;
        j->nons = 1;
        /* A RIGHT JOIN of two tables is the LEFT JOIN the other way round;
        ** only SELECT * would see the columns in another order. */
        if (j->type == 3 && !star && nodes[from].table != NULL) {
            j->left = to;
            j->right = from;
            j->type = 2;
        }
        int lo = fromt < tot ? fromt : tot, hi = fromt < tot ? tot : fromt;
        memmove(&tops[hi], &tops[hi + 1], (size_t)(nt - hi - 1) * sizeof *tops);
        memmove(&tops[lo], &tops[lo + 1], (size_t)(nt - lo - 2) * sizeof *tops);
        nt -= 2;
        tops[nt++] = nn++;
    }
    if (add(q->out, " FROM ") != 0)
        goto done;
    for (int t = 0; t < nt; t++)
        if ((t > 0 && add(q->out, ", ") != 0) || emit_src(q, nodes, tops[t], false) != 0)
            goto done;
    rc = 0;
done:
    free(nodes);
    free(tops);
    free(ons);
    return rc;
}

/* Rows of attribute `attr` as ", "-separated expressions after `head`. */
static int list_clause(qctx *q, int attr, const char *head)
{
    int k = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        const mdb_qrow *r = &q->rows[i];
        if (r->attribute != attr || r->expr == NULL)
            continue;
        if (add(q->out, k++ == 0 ? head : ", ") != 0 || expr(q, r->expr) != 0)
            return -1;
        if (attr == QA_ORDER && r->name1 != NULL && strcasecmp(r->name1, "D") == 0 &&
            add(q->out, " DESC") != 0)
            return -1;
    }
    return 0;
}

static int single_clause(qctx *q, int attr, const char *head)
{
    const mdb_qrow *r = NULL;
    if (count_attr(q, attr, &r) == 0 || r->expr == NULL)
        return 0;
    return add(q->out, head) != 0 || expr(q, r->expr) != 0 ? -1 : 0;
}

static int flags_of(const qctx *q)
{
    const mdb_qrow *r = NULL;
    return count_attr(q, QA_FLAG, &r) > 0 && r->flag > 0 ? r->flag : 0;
}

/* Returns 0 built, 1 refused (why), -1 out of memory. */
static int select_sql(qctx *q)
{
    int fl = flags_of(q), rc;
    const mdb_qrow *r = NULL;
    if (count_attr(q, QA_PARAM, &r) > 0) {
        snprintf(q->why, q->cap, "it takes parameters (%s ...), which a view cannot be given",
                 r->name1 ? r->name1 : "?");
        return 1;
    }
    if (count_attr(q, QA_REMOTE, &r) > 0 && (r->name1 != NULL || r->expr != NULL))
        return refuse(q, "it reads another database (an IN clause)");
    if (count_attr(q, QA_FLAG, NULL) > 1 || count_attr(q, QA_WHERE, NULL) > 1 ||
        count_attr(q, QA_HAVING, NULL) > 1)
        return refuse(q, "its definition in MSysQueries is inconsistent");
    if (add(q->out, "SELECT ") != 0)
        return -1;
    if (fl & QF_DISTINCT) {
        if (add(q->out, "DISTINCT ") != 0)
            return -1;
    } else if ((fl & QF_DISTINCTROW) &&
               (count_attr(q, QA_TABLE, NULL) > 1 || count_attr(q, QA_JOIN, NULL) > 0)) {
        /* over one table DISTINCTROW changes nothing; over a join it keeps
        ** one row per distinct set of source rows, which SQL cannot say */
        return refuse(q, "it uses DISTINCTROW over several tables");
    }
    if (fl & QF_TOP) {
        (void)count_attr(q, QA_FLAG, &r);
        const char *n = r->name1 ? r->name1 : "";
        if (fl & QF_PERCENT)
            return refuse(q, "it uses TOP ... PERCENT");
        size_t k = 0;
        while (is_digit(n[k]))
            k++;
        if (k == 0 || n[k] != '\0')
            return refuse(q, "its TOP count is not a number");
        if (add(q->out, "TOP ") != 0 || add(q->out, n) != 0 || add(q->out, " ") != 0)
            return -1;
    }
    int ncol = 0, auto_name = 1000;
    for (uint32_t i = 0; i < q->n; i++) {
        const mdb_qrow *c = &q->rows[i];
        if (c->attribute != QA_COLUMN || c->expr == NULL)
            continue;
        if ((ncol++ > 0 && add(q->out, ", ") != 0) || expr(q, c->expr) != 0)
            return -1;
        if (c->name1 != NULL) {
            if (add(q->out, " AS ") != 0 || ident(q->out, c->name1) != 0)
                return -1;
        } else if (!column_ref(c->expr)) {
            char alias[32];
            snprintf(alias, sizeof alias, " AS [Expr%d]", auto_name++);
            if (add(q->out, alias) != 0)
                return -1;
        }
    }
    if (fl & QF_STAR) {
        if ((ncol++ > 0 && add(q->out, ", ") != 0) || add(q->out, "*") != 0)
            return -1;
    }
    if (ncol == 0)
        return refuse(q, "it has no output columns");
    if ((rc = from_clause(q, (fl & QF_STAR) != 0)) != 0)
        return rc;
    if (single_clause(q, QA_WHERE, " WHERE ") != 0 || list_clause(q, QA_GROUP, " GROUP BY ") != 0 ||
        single_clause(q, QA_HAVING, " HAVING ") != 0 || list_clause(q, QA_ORDER, " ORDER BY ") != 0)
        return -1;
    return 0;
}

/* One part of a union: its SQL text, without a trailing ';'. */
static int union_part(qctx *q, const char *id)
{
    for (uint32_t i = 0; i < q->n; i++) {
        const mdb_qrow *r = &q->rows[i];
        if (r->attribute != QA_TABLE || r->name2 == NULL || strcmp(r->name2, id) != 0 || r->expr == NULL)
            continue;
        size_t len = strlen(r->expr);
        while (len > 0 && (r->expr[len - 1] == ';' || r->expr[len - 1] == ' ' ||
                           r->expr[len - 1] == '\r' || r->expr[len - 1] == '\n' || r->expr[len - 1] == '\t'))
            len--;
        return mdb_access_expr(q->out, r->expr, len);
    }
    return refuse(q, "a part of the union is missing");
}

static int union_sql(qctx *q)
{
    int rc;
    if (count_attr(q, QA_PARAM, NULL) > 0)
        return refuse(q, "it takes parameters, which a view cannot be given");
    if ((rc = union_part(q, "X7YZ_____1")) != 0)
        return rc;
    if (add(q->out, (flags_of(q) & QF_UNION_DISTINCT) ? " UNION " : " UNION ALL ") != 0)
        return -1;
    if ((rc = union_part(q, "X7YZ_____2")) != 0)
        return rc;
    return list_clause(q, QA_ORDER, " ORDER BY ");
}

int mdb_query_sql(const mdb_qrow *rows, uint32_t n, uint32_t obj_flags, mdb_buf *out, char *why,
                  size_t cap)
{
    int type = (int)(obj_flags & 0xF0);
    if (type == 0) {
        for (uint32_t i = 0; i < n; i++) {
            if (rows[i].attribute != QA_TYPE)
                continue;
            for (size_t k = 0; k < NQTYPES; k++)
                if (qtypes[k].rowtype == rows[i].flag)
                    type = qtypes[k].objflag;
            break;
        }
    }
    const char *name = NULL;
    for (size_t k = 0; k < NQTYPES; k++)
        if (qtypes[k].objflag == type)
            name = qtypes[k].name;
    if (type != 0 && type != 128) {
        if (name != NULL)
            snprintf(why, cap, "%s", name);
        else
            snprintf(why, cap, "type %d", type);
        return MDB_QUERY_NOT_TABLE;
    }
    out->len = 0;
    if (mdb_buf_add(out, "", 0) != 0)
        return -1;
    qctx q = {rows, n, out, why, cap};
    int rc = type == 0 ? select_sql(&q) : union_sql(&q);
    if (rc < 0)
        return -1;
    return rc == 0 ? MDB_QUERY_VIEW : MDB_QUERY_REFUSED;
}

/* ---- reading MSysQueries ------------------------------------------------------------ */

typedef struct qrows {
    mdb_qrow *v;
    uint32_t n, cap;
} qrows;

enum { R_OBJ, R_ATTR, R_FLAG, R_NAME1, R_NAME2, R_EXPR, R_ORDER, R_COUNT };
static const char *const qcols[R_COUNT] = {"ObjectId", "Attribute", "Flag", "Name1", "Name2",
                                           "Expression", "Order"};

static char *dup_value(const lt_value *v, bool *oom)
{
    if (v->type != LT_TEXT)
        return NULL;
    char *s = malloc(v->u.bytes.len + 1u);
    if (s == NULL) {
        *oom = true;
        return NULL;
    }
    memcpy(s, v->u.bytes.ptr, v->u.bytes.len);
    s[v->u.bytes.len] = '\0';
    return s;
}

static void qrows_free(qrows *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        free(r->v[i].name1);
        free(r->v[i].name2);
        free(r->v[i].expr);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

static int qrow_cb(void *ctx, const lt_value *v, lt_error *err)
{
    qrows *r = ctx;
    if (v[R_OBJ].type != LT_INT64 || v[R_ATTR].type != LT_INT64)
        return 0;
    if (r->n == r->cap) {
        uint32_t n = r->cap ? r->cap * 2 : 64;
        mdb_qrow *p = realloc(r->v, n * sizeof *p);
        if (p == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        r->v = p;
        r->cap = n;
    }
    mdb_qrow *q = &r->v[r->n];
    bool oom = false;
    q->object_id = (int32_t)v[R_OBJ].u.i64;
    q->attribute = (int)v[R_ATTR].u.i64;
    q->flag = v[R_FLAG].type == LT_INT64 ? (int)v[R_FLAG].u.i64 : -1;
    q->name1 = dup_value(&v[R_NAME1], &oom);
    q->name2 = dup_value(&v[R_NAME2], &oom);
    q->expr = dup_value(&v[R_EXPR], &oom);
    q->order = 0;
    for (uint32_t k = 0; k < 8; k++)
        q->order = q->order << 8 |
                   (v[R_ORDER].type == LT_BINARY && k < v[R_ORDER].u.bytes.len ? (uint8_t)v[R_ORDER].u.bytes.ptr[k] : 0);
    q->seq = r->n;
    r->n++;
    return oom ? lt_error_set(err, "HY001", "out of memory") : 0;
}

/* All of MSysQueries; 1 with `why` filled when it cannot be read, -1 when
** out of memory. */
static int read_rows(access_source *s, qrows *out, char *why, size_t cap)
{
    int64_t ti = -1;
    for (uint32_t i = 0; i < s->base.ntables && ti < 0; i++)
        if (strcasecmp(s->base.tables[i].name, "MSysQueries") == 0 && s->links[i] == NULL)
            ti = i;
    if (ti < 0 || s->base.tables[ti].error != NULL) {
        snprintf(why, cap, "%s", ti < 0 ? "the database has no MSysQueries table" : s->base.tables[ti].error);
        return 1;
    }
    const lt_table *t = &s->base.tables[ti];
    int64_t pos[R_COUNT];
    for (int k = 0; k < R_COUNT; k++)
        pos[k] = mdb_column_named(t, qcols[k]);
    if (pos[R_OBJ] < 0 || pos[R_ATTR] < 0) {
        snprintf(why, cap, "MSysQueries lacks its ObjectId or Attribute column");
        return 1;
    }
    lt_error lerr;
    lt_error_clear(&lerr);
    if (mdb_each_row(&s->db, &s->mtables[ti], t, pos, R_COUNT, qrow_cb, out, &lerr) != 0) {
        if (strcmp(lerr.sqlstate, "HY001") == 0)
            return -1;
        snprintf(why, cap, "MSysQueries cannot be read: %.900s", lerr.message);
        return 1;
    }
    return 0;
}

/* Rows in the order of MSysQueries' primary key (ObjectId, Attribute,
** Order): the Order key says which output column, table or join comes
** first, whatever order the rows were stored in; then each query's rows are
** one run, found by binary search. */
static int qrow_cmp(const void *a, const void *b)
{
    const mdb_qrow *x = a, *y = b;
    if (x->object_id != y->object_id)
        return x->object_id < y->object_id ? -1 : 1;
    if (x->attribute != y->attribute)
        return x->attribute < y->attribute ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* List one saved query as a view: with its SQL, or with an error. */
static int add_view(access_source *s, const char *name, const char *sql, const char *error)
{
    lt_table *t = mdb_add_table(s);
    if (t == NULL)
        return -1;
    uint32_t i = s->base.ntables - 1;
    t->kind = "VIEW";
    if ((t->name = strdup(name)) == NULL)
        return -1;
    if (sql != NULL) {
        if ((s->queries[i] = strdup(sql)) == NULL)
            return -1;
        t->query = s->queries[i];
    } else {
        if ((s->errors[i] = strdup(error)) == NULL)
            return -1;
        t->error = s->errors[i];
    }
    return 0;
}

int mdb_queries_load(access_source *s, lt_error *err)
{
    if (s->npending == 0)
        return 0;
    qrows rows = {NULL, 0, 0};
    mdb_buf sql = {NULL, 0, 0};
    char why[LT_ERROR_MESSAGE_MAX], text[2 * LT_ERROR_MESSAGE_MAX];
    int unreadable = read_rows(s, &rows, why, sizeof why), rc = -1;
    if (unreadable < 0)
        goto done;
    if (rows.n > 0)
        qsort(rows.v, rows.n, sizeof *rows.v, qrow_cmp);
    for (uint32_t p = 0; p < s->npending; p++) {
        const mdb_query_obj *o = &s->pending[p];
        if (unreadable) {
            uint32_t type = o->flags & 0xF0;
            if (type != 0 && type != 128)
                continue;
            snprintf(text, sizeof text, "'%s': saved query '%s' cannot be read: %s", s->db.path, o->name, why);
            if (add_view(s, o->name, NULL, text) != 0)
                goto done;
            continue;
        }
        uint32_t lo = 0, hi = rows.n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (rows.v[mid].object_id < o->id)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t n = 0;
        while (lo + n < rows.n && rows.v[lo + n].object_id == o->id)
            n++;
        int r = mdb_query_sql(n > 0 ? rows.v + lo : NULL, n, o->flags, &sql, why, sizeof why);
        if (r < 0)
            goto done;
        if (r == MDB_QUERY_NOT_TABLE)
            continue;   /* action queries and the like are not tables */
        if (r == MDB_QUERY_REFUSED)
            snprintf(text, sizeof text, "'%s': saved query '%s' cannot be run as a view: %s", s->db.path,
                     o->name, why);
        if (add_view(s, o->name, r == MDB_QUERY_VIEW ? (const char *)sql.p : NULL, text) != 0)
            goto done;
    }
    rc = 0;
done:
    mdb_buf_free(&sql);
    qrows_free(&rows);
    mdb_queries_free(s);
    return rc == 0 ? 0 : lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
}

void mdb_queries_free(access_source *s)
{
    for (uint32_t i = 0; i < s->npending; i++)
        free(s->pending[i].name);
    free(s->pending);
    s->pending = NULL;
    s->npending = s->pending_cap = 0;
}
