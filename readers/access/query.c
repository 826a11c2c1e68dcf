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
** literals ODBC escapes, [T]![C] becomes [T].[C], the Access functions the
** engine knows by another name are renamed (Len, Mid, Nz, Date(), Time(),
** the $ forms of string functions), and Access's own operators (Mod, \, ^)
** and functions (InStr, Nz(x), Int, Fix, Sgn, CLng, CInt, CStr, CDbl,
** CDate, DateAdd, DateDiff) become expressions of the engine's with the
** same meaning (README.md, "Saved queries").  What cannot be expressed
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

static size_t skip_word(const char *s, size_t len, size_t i)
{
    while (i < len && word_char(s[i]))
        i++;
    return i;
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

/* ---- Access functions ------------------------------------------------------------ */

#define MAX_ARGS 5
#define MAX_DEPTH 48   /* nesting translated; deeper text is copied as it is */
#define MAX_REPEAT 2000 /* operand bytes an expansion may repeat (Mod, \, DateDiff) */

static int expr_level(mdb_buf *b, const char *s, size_t len, int depth, const lt_source *cat);

/* The spans of the top-level arguments of the call whose '(' is at s[open]
** and ')' at s[close]; their count, or -1 when more than MAX_ARGS. */
static int split_args(const char *s, size_t open, size_t close, size_t at[MAX_ARGS],
                      size_t n[MAX_ARGS])
{
    int k = 0, depth = 0;
    size_t from = open + 1;
    for (size_t i = open + 1; i <= close; i++) {
        char c = s[i];
        if (c == '\'' || c == '"' || c == '[') {
            i += quoted_end(s + i, close - i, c == '[' ? ']' : c);
        } else if (c == '(') {
            depth++;
        } else if ((c == ')' && depth == 0) || (c == ',' && depth == 0)) {
            if (k == MAX_ARGS)
                return -1;
            size_t to = i;
            while (from < to && (s[from] == ' ' || s[from] == '\t'))
                from++;
            while (to > from && (s[to - 1] == ' ' || s[to - 1] == '\t'))
                to--;
            at[k] = from;
            n[k++] = to - from;
            from = i + 1;
            if (c == ')')
                break;
        } else if (c == ')') {
            depth--;
        }
    }
    return k;
}

/* The literal text of an argument written "x" or 'x' (blanks around),
** lower-cased into out; false when it is not such a literal. */
static bool literal_arg(const char *s, size_t len, char *out, size_t cap)
{
    while (len > 0 && (*s == ' ' || *s == '\t'))
        s++, len--;
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len < 2 || (s[0] != '"' && s[0] != '\'') || s[len - 1] != s[0] || len - 2 >= cap)
        return false;
    for (size_t i = 1; i + 1 < len; i++) {
        if (s[i] == s[0])
            return false;
        out[i - 1] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
    }
    out[len - 2] = '\0';
    return true;
}

/* Write `fmt` with each %N (N = 1..9) replaced by args[N-1]. */
static int expand(mdb_buf *b, const char *fmt, mdb_buf *args)
{
    for (const char *p = fmt; *p; p++) {
        if (p[0] == '%' && p[1] >= '1' && p[1] <= '9') {
            const mdb_buf *a = &args[p[1] - '1'];
            if (mdb_buf_add(b, (const char *)a->p, a->len) != 0)
                return -1;
            p++;
        } else if (mdb_buf_add(b, p, 1) != 0) {
            return -1;
        }
    }
    return 0;
}

/* An integer as Access rounds an operand of Mod, \ and CLng: to the nearest,
** halves to even (banker's rounding). */
#define BANKERS(x) "CAST(CASE WHEN (" x ") - FLOOR(" x ") = 0.5 THEN 2 * ROUND((" x ") / 2) " \
                   "ELSE ROUND(" x ") END AS BIGINT)"

/* Day boundaries from %2 to %3 (DateDiff's count). */
#define DAYDIFF "TIMESTAMPDIFF(SQL_TSI_DAY, CAST(%2 AS DATE), CAST(%3 AS DATE))"

/* DateAdd/DateDiff intervals: Access's name, TIMESTAMPADD's unit, DateDiff's
** expression over the interval %1, the dates %2 and %3 (the number of
** boundaries crossed, as Access counts: DateDiff("yyyy", #12/31/2019#,
** #1/1/2020#) is 1). */
static const struct {
    const char *name, *unit, *diff;
} intervals[] = {
    {"yyyy", "SQL_TSI_YEAR", "(YEAR(%3) - YEAR(%2))"},
    {"q", "SQL_TSI_QUARTER", "((YEAR(%3) - YEAR(%2)) * 4 + QUARTER(%3) - QUARTER(%2))"},
    {"m", "SQL_TSI_MONTH", "((YEAR(%3) - YEAR(%2)) * 12 + MONTH(%3) - MONTH(%2))"},
    {"y", "SQL_TSI_DAY", DAYDIFF},
    {"d", "SQL_TSI_DAY", DAYDIFF},
    {"w", "SQL_TSI_DAY", "(" DAYDIFF " / 7)"},
    {"ww", "SQL_TSI_WEEK", "((" DAYDIFF " - DAYOFWEEK(%3) + DAYOFWEEK(%2)) / 7)"},
    {"h", "SQL_TSI_HOUR", "(" DAYDIFF " * 24 + HOUR(%3) - HOUR(%2))"},
    {"n", "SQL_TSI_MINUTE",
     "(" DAYDIFF " * 1440 + HOUR(%3) * 60 + MINUTE(%3) - HOUR(%2) * 60 - MINUTE(%2))"},
    {"s", "SQL_TSI_SECOND",
     "(" DAYDIFF " * 86400 + HOUR(%3) * 3600 + MINUTE(%3) * 60 + SECOND(%3) - HOUR(%2) * 3600 "
     "- MINUTE(%2) * 60 - SECOND(%2))"},
};

/* Access functions whose arguments change place or whose meaning is an
** expression of the engine's: name, argument count, the engine's text (%N
** the N-th argument translated); "" for InStr/DateAdd/DateDiff, done by
** hand below.  DateAdd's "w" adds days, as Access does. */
static const struct {
    const char *access;
    int nargs;
    const char *engine;
} rewrites[] = {
    {"Nz", 1, ""},   /* by the argument's type, below */
    {"Int", 1, "FLOOR(%1)"},
    {"Fix", 1, "TRUNCATE(%1)"},
    {"Sgn", 1, "SIGN(%1)"},
    {"CStr", 1, "CAST(%1 AS VARCHAR)"},
    {"CDbl", 1, "CAST(%1 AS DOUBLE)"},
    {"CDate", 1, "CAST(%1 AS TIMESTAMP)"},
    {"CLng", 1, BANKERS("%1")},
    {"CInt", 1, BANKERS("%1")},
    {"InStr", 0, ""},
    {"DateAdd", 3, ""},
    {"DateDiff", 3, ""},
};

/* The argument s[at..at+n) without blanks around it is the single digit
** `d`. */
static bool digit_arg(const char *s, size_t at, size_t n, char d)
{
    while (n > 0 && (s[at] == ' ' || s[at] == '\t'))
        at++, n--;
    while (n > 0 && (s[at + n - 1] == ' ' || s[at + n - 1] == '\t'))
        n--;
    return n == 1 && s[at] == d;
}

/* InStr([start,] s1, s2[, compare]) is LOCATE(s2, s1[, start]), case folded
** (Access compares as text by default) unless compare is 0 (binary); NULL
** for a compare the engine has no equal of. */
static const char *instr_form(int nargs, const char *s, const size_t *at, const size_t *n)
{
    switch (nargs) {
    case 2: return "LOCATE(LCASE(%2), LCASE(%1))";
    case 3: return "LOCATE(LCASE(%3), LCASE(%2), %1)";
    case 4:
        if (digit_arg(s, at[3], n[3], '0'))
            return "LOCATE(%3, %2, %1)";
        return digit_arg(s, at[3], n[3], '1') ? "LOCATE(LCASE(%3), LCASE(%2), %1)" : NULL;
    default: return NULL;
    }
}

/* How many times `form` writes an argument. */
static int uses(const char *form)
{
    int k = 0;
    for (const char *p = form; (p = strchr(p, '%')) != NULL; p++)
        k += p[1] >= '1' && p[1] <= '9';
    return k;
}

/* Is the name s[0..n) (bracketed or not) `name`? */
static bool name_is(const char *s, size_t n, const char *name)
{
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']')
        s++, n -= 2;
    return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

/* What Nz(x) gives for a NULL x: Access's Empty, which is 0 where a number
** is wanted and "" where text is; Lector decides by x's type, known when x
** is a column ([T].[C], [C]) of this database whose every table of that
** name (or every column of that name) agrees.  NULL when unknown. */
static const char *empty_of(const lt_source *cat, const char *s, size_t len)
{
    if (cat == NULL)
        return NULL;
    size_t dot = len, e;
    for (size_t i = 0; i < len; i = e) {
        e = s[i] == '[' ? i + quoted_end(s + i, len - i, ']') + 1 : skip_word(s, len, i);
        if (e == i || e > len)
            return NULL;   /* not a plain name */
        if (e < len) {
            if ((s[e] != '.' && s[e] != '!') || dot != len)
                return NULL;
            dot = e++;
        }
    }
    const char *col = dot == len ? s : s + dot + 1;
    size_t ncol = dot == len ? len : len - dot - 1;
    int kinds = 0;   /* 1 number seen, 2 text seen, 4 something else */
    for (int pass = 0; pass < 2 && kinds == 0; pass++) {
        for (uint32_t t = 0; t < cat->ntables; t++) {
            const lt_table *tab = &cat->tables[t];
            if (pass == 0 && (dot == len || !name_is(s, dot, tab->name)))
                continue;   /* first the table the qualifier names */
            for (uint32_t c = 0; c < tab->ncols; c++) {
                if (!name_is(col, ncol, tab->cols[c].name))
                    continue;
                lt_type ty = tab->cols[c].type;
                kinds |= ty == LT_INT64 || ty == LT_DOUBLE || ty == LT_DECIMAL ? 1
                         : ty == LT_TEXT ? 2 : 4;
            }
        }
    }
    return kinds == 1 ? "COALESCE(%1, 0)" : kinds == 2 ? "COALESCE(%1, '')" : NULL;
}

/* Translate the call of rewrites[k] whose '(' is at s[open]; 1 done (*next
** after its ')'), 0 not a form translated (left to the engine, whose error
** names the function), -1 out of memory. */
static int rewrite_call(mdb_buf *b, const char *s, size_t len, size_t k, size_t open,
                        size_t *next, int depth, const lt_source *cat)
{
    size_t close, at[MAX_ARGS], n[MAX_ARGS];
    if (call_args(s, len, open, &close) <= 0)
        return 0;
    int nargs = split_args(s, open, close, at, n);
    const char *form = rewrites[k].engine;
    const char *fn = rewrites[k].access;
    bool date_add = strcmp(fn, "DateAdd") == 0;
    if (nargs < 0)
        return 0;
    if (strcmp(fn, "InStr") == 0) {
        if ((form = instr_form(nargs, s, at, n)) == NULL)
            return 0;
    } else if (nargs != rewrites[k].nargs) {
        return 0;
    } else if (strcmp(fn, "Nz") == 0 && (form = empty_of(cat, s + at[0], n[0])) == NULL) {
        return 0;
    }
    size_t iv = 0, niv = sizeof intervals / sizeof intervals[0];
    if (date_add || strcmp(fn, "DateDiff") == 0) {
        char name[8];
        if (!literal_arg(s + at[0], n[0], name, sizeof name))
            return 0;
        while (iv < niv && strcmp(intervals[iv].name, name) != 0)
            iv++;
        if (iv == niv)
            return 0;
        form = date_add ? "TIMESTAMPADD(%1, %2, %3)" : intervals[iv].diff;
    }
    mdb_buf args[MAX_ARGS];
    memset(args, 0, sizeof args);
    int rc = 1;
    for (int a = 0; a < nargs && rc == 1; a++) {
        if (a == 0 && date_add)
            rc = add(&args[0], intervals[iv].unit) != 0 ? -1 : 1;
        else if (mdb_buf_add(&args[a], "", 0) != 0 ||
                 expr_level(&args[a], s + at[a], n[a], depth + 1, cat) != 0)
            rc = -1;
    }
    size_t total = 0;
    for (int a = 0; a < nargs; a++)
        total += args[a].len;
    if (rc == 1 && total > MAX_REPEAT && uses(form) > nargs) {
        /* too long to write several times: the call as written, its
        ** arguments translated (left to the engine, which names it) */
        rc = add(b, fn) != 0 || add(b, "(") != 0 ? -1 : 1;
        for (int a = 0; a < nargs && rc == 1; a++)
            if ((a > 0 && add(b, ", ") != 0) || mdb_buf_add(b, (const char *)args[a].p, args[a].len) != 0)
                rc = -1;
        if (rc == 1 && add(b, ")") != 0)
            rc = -1;
    } else if (rc == 1 && expand(b, form, args) != 0) {
        rc = -1;
    }
    for (int a = 0; a < MAX_ARGS; a++)
        mdb_buf_free(&args[a]);
    if (rc == 1)
        *next = close + 1;
    return rc;
}

/* Access functions the engine knows by another name, where the meaning is
** the same: Len is CHAR_LENGTH, Mid SUBSTRING, Nz(x, y) COALESCE(x, y),
** Date() CURRENT_DATE, Time() CURRENT_TIME; Left$ and the other string
** functions' $ forms are the plain ones; then the rewrites above.  Appends
** the word `w` (followed by '(' at s[open]) as the engine should see it;
** *next is where to go on. */
static int function_word(mdb_buf *b, const char *s, size_t len, const char *w, size_t wlen,
                         size_t open, size_t *next, int depth, const lt_source *cat)
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
    for (size_t k = 0; depth < MAX_DEPTH && k < sizeof rewrites / sizeof rewrites[0]; k++) {
        if (strlen(rewrites[k].access) != base || strncasecmp(w, rewrites[k].access, base) != 0)
            continue;
        int rc = rewrite_call(b, s, len, k, open, next, depth, cat);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
        *next = (size_t)(w - s) + wlen;
        break;
    }
    return mdb_buf_add(b, w, base);
}

/* ---- the operators Mod, \ and ^ -------------------------------------------------- */

/* The engine has no Mod, \ or ^: a level of an expression (the text between
** two parentheses) that uses one is parsed with Access's precedence (^,
** unary -, * /, \, Mod, + -, &, then comparisons and the rest, which end
** an operand) and written with every operation in parentheses: a ^ b is
** POWER(a, b), a \ b and a Mod b divide the operands rounded as Access
** rounds them (to integers, halves to even) with the engine's integer / and
** %.  Text the parser does not follow is copied as it is (the engine's
** error then names the operator). */

enum { OT_END, OT_OP, OT_ATOM, OT_OTHER };

typedef struct otok {
    int kind;
    char op;             /* OT_OP: + - * / \ ^ & or M (Mod) */
    size_t from, to;     /* the token's text */
} otok;

typedef struct oparse {
    const char *s;
    size_t len, i;
    int depth;
    bool ok;
    const lt_source *cat;
    bool dry;            /* only check that the level parses: no output */
    int nest;            /* operands being parsed, one inside the other */
} oparse;

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

/* Words that are no operand (they end one). */
static bool keyword(const char *s, size_t n)
{
    static const char *const words[] = {
        "AND", "OR", "NOT", "XOR", "EQV", "IMP", "LIKE", "ALIKE", "IS", "IN", "BETWEEN",
        "SELECT", "DISTINCT", "DISTINCTROW", "TOP", "PERCENT", "FROM", "WHERE", "GROUP", "BY",
        "HAVING", "ORDER", "ASC", "DESC", "AS", "ON", "JOIN", "INNER", "LEFT", "RIGHT", "OUTER",
        "FULL", "CROSS", "UNION", "ALL", "CASE", "WHEN", "THEN", "ELSE", "END", "EXISTS", "WITH",
        "OWNERACCESS", "OPTION", "SOME", "ANY", "ESCAPE",
    };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (word_is(s, n, words[k]))
            return true;
    return false;
}

/* One operand part at s[i] ([x], "x", 'x', a word or call, a number, a
** group, #date#); its end, or i when there is none. */
static size_t atom_end(const char *s, size_t len, size_t i)
{
    char c = s[i];
    size_t close;
    if (c == '[' || c == '\'' || c == '"') {
        size_t e = quoted_end(s + i, len - i, c == '[' ? ']' : c);
        return e < len - i ? i + e + 1 : i;
    }
    if (c == '(')
        return call_args(s, len, i, &close) >= 0 ? close + 1 : i;
    if (c == '#') {
        const char *h = memchr(s + i + 1, '#', len - i - 1 < 41 ? len - i - 1 : 41);
        return h != NULL ? (size_t)(h - s) + 1 : i;
    }
    if (is_digit(c) || (c == '.' && i + 1 < len && is_digit(s[i + 1]))) {
        while (i < len && is_digit(s[i]))
            i++;
        if (i < len && s[i] == '.')
            for (i++; i < len && is_digit(s[i]); i++)
                ;
        if (i + 1 < len && (s[i] == 'e' || s[i] == 'E') &&
            (is_digit(s[i + 1]) || ((s[i + 1] == '+' || s[i + 1] == '-') && i + 2 < len &&
                                    is_digit(s[i + 2])))) {
            for (i += 2; i < len && is_digit(s[i]); i++)
                ;
        }
        return i;
    }
    if (!word_char(c))
        return i;
    size_t e = skip_word(s, len, i), open = e;
    while (open < len && (s[open] == ' ' || s[open] == '\t'))
        open++;
    if (open < len && s[open] == '(' && call_args(s, len, open, &close) >= 0)
        return close + 1;
    return e;
}

/* The token at p->i (not consumed). */
static otok peek(const oparse *p)
{
    const char *s = p->s;
    size_t i = p->i, len = p->len;
    otok t = {OT_END, 0, i, i};
    if (i >= len)
        return t;
    char c = s[i];
    if (strchr("+-*/\\^&", c) != NULL) {
        t.kind = OT_OP;
        t.op = c;
        t.to = i + 1;
        return t;
    }
    if (word_char(c) && !is_digit(c)) {
        size_t e = skip_word(s, len, i), open = e;
        while (open < len && (s[open] == ' ' || s[open] == '\t'))
            open++;
        bool call = open < len && s[open] == '(';
        if (word_is(s + i, e - i, "Mod")) {
            t.kind = OT_OP;
            t.op = 'M';
            t.to = e;
            return t;
        }
        if (keyword(s + i, e - i) && !(call && (word_is(s + i, e - i, "Left") ||
                                                word_is(s + i, e - i, "Right")))) {
            t.kind = OT_OTHER;
            t.to = e;
            return t;
        }
    }
    size_t e = atom_end(s, len, i);
    if (e == i) {
        t.kind = OT_OTHER;
        t.to = word_char(c) ? skip_word(s, len, i) : i + 1;
        return t;
    }
    /* an operand: atoms joined by . or ! ([T]![C], T.C) */
    while (e + 1 < len && (s[e] == '.' || s[e] == '!') && (s[e + 1] == '[' || word_char(s[e + 1]))) {
        size_t f = atom_end(s, len, e + 1);
        if (f == e + 1)
            break;
        e = f;
    }
    t.kind = OT_ATOM;
    t.to = e;
    return t;
}

static void oskip(oparse *p)
{
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\r' ||
                             p->s[p->i] == '\n'))
        p->i++;
}

static int prec(char op)
{
    switch (op) {
    case '^': return 7;
    case '*': case '/': return 5;
    case '\\': return 4;
    case 'M': return 3;
    case '+': case '-': return 2;
    default: return 1;   /* & */
    }
}
#define PREC_UNARY 6

static int oexpr(oparse *p, int minprec, mdb_buf *out);

/* An operand, with its unary signs; -1 out of memory (p->ok false when the
** text is not one). */
static int ounary(oparse *p, mdb_buf *out)
{
    oskip(p);
    otok t = peek(p);
    if (t.kind == OT_OP && (t.op == '-' || t.op == '+')) {
        p->i = t.to;
        mdb_buf x = {0};
        int rc = mdb_buf_add(&x, "", 0) != 0 || oexpr(p, PREC_UNARY + 1, &x) != 0 ? -1 : 0;
        if (rc == 0 && (add(out, t.op == '-' ? "(- " : "(+ ") != 0 ||
                        mdb_buf_add(out, (const char *)x.p, x.len) != 0 || add(out, ")") != 0))
            rc = -1;
        mdb_buf_free(&x);
        return rc;
    }
    if (t.kind != OT_ATOM) {
        p->ok = false;
        return 0;
    }
    p->i = t.to;
    return p->dry ? 0 : expr_level(out, p->s + t.from, t.to - t.from, p->depth + 1, p->cat);
}

/* Is the text an integer literal (which needs no rounding)? */
static bool integer_text(const mdb_buf *x)
{
    size_t i = 0;
    while (i < x->len && is_digit((char)x->p[i]))
        i++;
    return x->len > 0 && i == x->len;
}

/* L op R as the engine writes it, into out; Mod and \\ over operands too
** long to write four times stay as they are (the engine names them). */
static int combine(char op, mdb_buf *l, mdb_buf *r, mdb_buf *out)
{
    mdb_buf two[2] = {*l, *r};
    if ((op == 'M' || op == '\\') && (l->len > MAX_REPEAT || r->len > MAX_REPEAT))
        return expand(out, op == 'M' ? "(%1 Mod %2)" : "(%1 \\ %2)", two);
    const char *il = integer_text(l) ? "%1" : BANKERS("%1");
    const char *ir = integer_text(r) ? "%2" : BANKERS("%2");
    switch (op) {
    case '^': return expand(out, "POWER(%1, %2)", two);
    case 'M':
    case '\\': {
        char form[512];
        snprintf(form, sizeof form, "(%s %s %s)", il, op == 'M' ? "%" : "/", ir);
        return expand(out, form, two);
    }
    default: {
        char mid[4] = {' ', op, ' ', '\0'};
        return add(out, "(") != 0 || mdb_buf_add(out, (const char *)l->p, l->len) != 0 ||
                       add(out, mid) != 0 || mdb_buf_add(out, (const char *)r->p, r->len) != 0 ||
                       add(out, ")") != 0 ? -1 : 0;
    }
    }
}

/* Operations of precedence >= minprec (precedence climbing). */
static int oexpr(oparse *p, int minprec, mdb_buf *out)
{
    if (++p->nest > 200) {
        p->ok = false;   /* "- - - - ... x": too deep for the stack */
        p->nest--;
        return 0;
    }
    mdb_buf l = {0}, r = {0}, tmp = {0};
    int rc = mdb_buf_add(&l, "", 0) != 0 || ounary(p, &l) != 0 ? -1 : 0;
    while (rc == 0 && p->ok) {
        size_t at = p->i;
        oskip(p);
        otok t = peek(p);
        if (t.kind != OT_OP || prec(t.op) < minprec) {
            p->i = at;
            break;
        }
        p->i = t.to;
        r.len = 0;
        tmp.len = 0;
        if (mdb_buf_add(&r, "", 0) != 0 || oexpr(p, prec(t.op) + 1, &r) != 0 ||
            mdb_buf_add(&tmp, "", 0) != 0) {
            rc = -1;
            break;
        }
        if (!p->ok)
            break;
        if (!p->dry && combine(t.op, &l, &r, &tmp) != 0) {
            rc = -1;
            break;
        }
        mdb_buf swap = l;
        l = tmp;
        tmp = swap;
    }
    if (rc == 0 && p->ok)
        rc = mdb_buf_add(out, (const char *)l.p, l.len);
    mdb_buf_free(&l);
    mdb_buf_free(&r);
    mdb_buf_free(&tmp);
    p->nest--;
    return rc;
}

/* Is there a Mod, \ or ^ at the top level of s? */
static bool has_access_op(const char *s, size_t len)
{
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\'' || c == '"' || c == '[') {
            i += quoted_end(s + i, len - i, c == '[' ? ']' : c);
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            depth--;
        } else if (depth == 0 && (c == '\\' || c == '^')) {
            return true;
        } else if (word_char(c)) {
            size_t e = skip_word(s, len, i);
            if (depth == 0 && word_is(s + i, e - i, "Mod"))
                return true;
            i = e - 1;
        }
    }
    return false;
}

/* Does the level parse (the loop of ops_level without output)? */
static bool dry_parse_ok(const char *s, size_t len, int depth, const lt_source *cat)
{
    oparse p = {s, len, 0, depth, true, cat, true, 0};
    mdb_buf none = {0};
    while (p.i < len && p.ok) {
        oskip(&p);
        if (p.i >= len)
            break;
        otok t = peek(&p);
        if (t.kind == OT_ATOM || (t.kind == OT_OP && (t.op == '-' || t.op == '+'))) {
            none.len = 0;
            if (oexpr(&p, 1, &none) != 0)
                p.ok = false;   /* out of memory: say no, the copy path reports it */
        } else if (t.kind == OT_OP && t.op != '*') {
            p.ok = false;
        } else {
            p.i = t.to;
        }
    }
    mdb_buf_free(&none);
    return p.ok;
}

/* The level s[0..len) with its operators translated: 1 done, 0 when the
** parser does not follow it (nothing written), -1 out of memory.  A dry
** pass first checks that it parses, so that the parts inside are
** translated once (a failed attempt would translate them again). */
static int ops_level(mdb_buf *b, const char *s, size_t len, int depth, const lt_source *cat)
{
    if (!dry_parse_ok(s, len, depth, cat))
        return 0;
    oparse p = {s, len, 0, depth, true, cat, false, 0};
    size_t mark = b->len;
    while (p.i < len) {
        size_t ws = p.i;
        oskip(&p);
        if (mdb_buf_add(b, s + ws, p.i - ws) != 0)
            return -1;
        if (p.i >= len)
            break;
        otok t = peek(&p);
        if (t.kind == OT_ATOM || (t.kind == OT_OP && (t.op == '-' || t.op == '+'))) {
            if (oexpr(&p, 1, b) != 0)
                return -1;
            if (!p.ok)
                break;
        } else if (t.kind == OT_OP && t.op != '*') {
            p.ok = false;   /* an operator without its left operand */
            break;
        } else {
            if (mdb_buf_add(b, s + t.from, t.to - t.from) != 0)
                return -1;
            p.i = t.to;
        }
    }
    if (!p.ok) {
        b->len = mark;
        b->p[mark] = '\0';
        return 0;
    }
    return 1;
}

/* ---- a whole expression ------------------------------------------------------------ */

/* s[0..len) translated: its operators (ops_level) when it has Access's own,
** else piece by piece; each parenthesised part is a level of its own. */
static int expr_level(mdb_buf *b, const char *s, size_t len, int depth, const lt_source *cat)
{
    if (depth < MAX_DEPTH && has_access_op(s, len)) {
        int rc = ops_level(b, s, len, depth, cat);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
    }
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        size_t start = i, close;
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
            const char *h = memchr(s + i + 1, '#', room);
            char lit[64];
            if (h != NULL && (size_t)(h - s) - i - 1 < 40 &&
                date_literal(s + i + 1, (size_t)(h - s) - i - 1, lit, sizeof lit)) {
                if (add(b, lit) != 0)
                    return -1;
                i = (size_t)(h - s) + 1;
            } else {
                if (mdb_buf_add(b, "#", 1) != 0)
                    return -1;
                i++;
            }
        } else if (c == '(' && depth < MAX_DEPTH && call_args(s, len, i, &close) >= 0) {
            if (add(b, "(") != 0 || expr_level(b, s + i + 1, close - i - 1, depth + 1, cat) != 0 ||
                add(b, ")") != 0)
                return -1;
            i = close + 1;
        } else if (c == '!' && i > 0 && s[i - 1] == ']' && i + 1 < len && s[i + 1] == '[') {
            if (mdb_buf_add(b, ".", 1) != 0)   /* [Table]![Column] */
                return -1;
            i++;
        } else if (word_char(c)) {
            i = skip_word(s, len, i);
            size_t open = i;
            while (open < len && (s[open] == ' ' || s[open] == '\t'))
                open++;
            bool call = open < len && s[open] == '(' && !is_digit(c) && (start == 0 || s[start - 1] != '.');
            if (call ? function_word(b, s, len, s + start, i - start, open, &i, depth, cat) != 0
                     : mdb_buf_add(b, s + start, i - start) != 0)
                return -1;
        } else {
            while (i < len && s[i] != '\'' && s[i] != '[' && s[i] != '"' && s[i] != '#' && s[i] != '!' &&
                   s[i] != '(' && !word_char(s[i]))
                i++;
            if (i == start)
                i++;
            if (mdb_buf_add(b, s + start, i - start) != 0)
                return -1;
        }
    }
    return 0;
}

int mdb_access_expr(mdb_buf *b, const char *s, size_t len)
{
    return expr_level(b, s, len, 0, NULL);
}

int mdb_access_expr_in(const lt_source *cat, mdb_buf *b, const char *s, size_t len)
{
    return expr_level(b, s, len, 0, cat);
}

/* ---- the parts of a SELECT -------------------------------------------------------- */

typedef struct qctx {
    const mdb_qrow *rows;
    uint32_t n;
    mdb_buf *out;
    char *why;
    size_t cap;
    const lt_source *cat;   /* the tables, for the types of Nz's argument */
} qctx;

static int expr(qctx *q, const char *s)
{
    return s == NULL ? 0 : mdb_access_expr_in(q->cat, q->out, s, strlen(s));
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
        return mdb_access_expr_in(q->cat, q->out, r->expr, len);
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
    return mdb_query_sql_in(NULL, rows, n, obj_flags, out, why, cap);
}

int mdb_query_sql_in(const lt_source *cat, const mdb_qrow *rows, uint32_t n, uint32_t obj_flags,
                     mdb_buf *out, char *why, size_t cap)
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
    qctx q = {rows, n, out, why, cap, cat};
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
        int r = mdb_query_sql_in(&s->base, n > 0 ? rows.v + lo : NULL, n, o->flags, &sql, why,
                                 sizeof why);
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
