/*
** test_driver_fetch_vector.c — the block-fetch fast path
** (lt_convert_vector_to_c, driver/convert_vector.c) against the general
** path (lt_convert_to_c per cell, as driver/fetch.c's fill_segment calls it).
**
** Random vectors of every handled type, with NULLs and boundary values, go
** through both paths into column-wise and row-wise buffers, with separate,
** shared or missing indicators.  Whenever the fast path takes a run, every
** cell must have converted without a diagnostic on the general path and the
** buffers must be equal byte for byte (a NULL row's data excepted: it is
** undefined for the application); whenever the general path converts every
** cell cleanly for a pair the fast path handles, the fast path must take it.
*/
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "driver/convert.h"
#include "readers/common/datetime.h"

#define MAXROWS 300
#define FILL 0xA5

/* splitmix64: reproducible randomness */
static uint64_t rng_state = 0x5EED;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }

/* A vector of MAXROWS rows with its own arrays. */
typedef struct test_vec {
    lt_vector v;
    uint8_t nulls[MAXROWS];
    int64_t i64[MAXROWS];
    int32_t date[MAXROWS];
    double f64[MAXROWS];
    uint8_t b[MAXROWS];
    lt_bytes bytes[MAXROWS];
    char text[MAXROWS][40];
} test_vec;

static const int64_t int_edges[] = {
    0, 1, -1, INT8_MIN, INT8_MAX, INT8_MIN - 1, INT8_MAX + 1, INT16_MIN, INT16_MAX,
    INT16_MIN - 1, INT16_MAX + 1, INT32_MIN, INT32_MAX, (int64_t)INT32_MIN - 1,
    (int64_t)INT32_MAX + 1, INT64_MIN, INT64_MAX, (int64_t)1 << 53, ((int64_t)1 << 53) + 1,
};

/* An integer no wider than `bits` (0: any), or now and then an edge. */
static int64_t some_int(int bits)
{
    if (below(4) == 0)
        return int_edges[below(sizeof int_edges / sizeof *int_edges)];
    int64_t x = (int64_t)rnd();
    if (bits > 0 && bits < 64)
        x >>= 64 - bits;
    return x;
}

static double some_double(void)
{
    static const double edges[] = {0.0, -0.0, 1.5, -2.25, 1e308, -1e-308, 5e-324,
                                   INFINITY, -INFINITY, 9007199254740993.0};
    if (below(4) == 0)
        return edges[below(sizeof edges / sizeof *edges)];
    uint64_t u = rnd();
    double d;
    memcpy(&d, &u, sizeof d);
    return isnan(d) ? 0.125 : d;
}

/* Fill `tv` with `type` values; `nullish` in 8 rows is NULL; `wild` allows
** values the fast path must refuse (out of range, too long, non-ASCII). */
static void make_vec(test_vec *tv, lt_type type, uint32_t nullish, int int_bits,
                     bool wild, uint32_t maxlen)
{
    memset(tv, 0, sizeof *tv);
    tv->v.type = type;
    tv->v.nulls = tv->nulls;
    switch (type) {
    case LT_INT64: case LT_TIME: case LT_TIMESTAMP: tv->v.v.i64 = tv->i64; break;
    case LT_DATE: tv->v.v.date = tv->date; break;
    case LT_DOUBLE: tv->v.v.f64 = tv->f64; break;
    case LT_BOOL: tv->v.v.b = tv->b; break;
    default: tv->v.v.bytes = tv->bytes; break;
    }
    for (uint32_t r = 0; r < MAXROWS; r++) {
        tv->nulls[r] = below(8) < nullish;
        if (tv->nulls[r])
            continue;
        switch (type) {
        case LT_INT64:
            tv->i64[r] = some_int(int_bits);
            break;
        case LT_DOUBLE:
            tv->f64[r] = some_double();
            break;
        case LT_BOOL:
            tv->b[r] = (uint8_t)below(3);
            break;
        case LT_DATE:
            tv->date[r] = wild && below(50) == 0 ? (int32_t)(rnd() >> 33)
                                                 : (int32_t)below(200000) - 100000;
            break;
        case LT_TIMESTAMP: {
            int64_t days = (int64_t)below(200000) - 100000;
            int64_t usec = 0;
            if (wild)
                usec = below(2) ? (int64_t)(rnd() % (uint64_t)LT_USEC_PER_DAY)
                                : (int64_t)below(86400) * 1000000;
            if (wild && below(80) == 0)
                days = (int64_t)(rnd() >> 40);   /* year beyond 32767 */
            tv->i64[r] = days * LT_USEC_PER_DAY + usec;
            break;
        }
        case LT_TIME:
            tv->i64[r] = (int64_t)below(86400) * 1000000;
            if (wild && below(10) == 0)
                tv->i64[r] += below(1000000);
            break;
        default: { /* LT_TEXT */
            uint32_t len = below(maxlen + 1);
            if (wild && below(20) == 0)
                len = maxlen + 1 + below(4);
            if (len > sizeof tv->text[r] - 1)
                len = sizeof tv->text[r] - 1;
            for (uint32_t k = 0; k < len; k++)
                tv->text[r][k] = (char)(' ' + below(95));
            if (len > 0 && below(30) == 0)
                tv->text[r][below(len)] = '\0';          /* embedded NUL */
            if (wild && len >= 2 && below(10) == 0) {
                tv->text[r][0] = (char)0xC3;             /* "é" */
                tv->text[r][1] = (char)0xA9;
            }
            tv->bytes[r].ptr = tv->text[r];
            tv->bytes[r].len = len;
            break;
        }
        }
    }
}

/* How the column is bound. */
typedef struct layout {
    SQLSMALLINT ctype;
    SQLLEN buflen;          /* text: bytes per element */
    bool by_row;            /* row-wise: one struct per row */
    int ind_mode;           /* 0 separate ind and len, 1 shared, 2 no ind, 3 no len */
} layout;

/* The bound buffers: data, lengths and indicators of MAXROWS elements. */
typedef struct bufs {
    _Alignas(16) unsigned char mem[MAXROWS * 160];
    char *data;
    SQLLEN *len, *ind;
    size_t data_stride, ind_stride;
} bufs;

static void bind(bufs *b, const layout *l)
{
    memset(b->mem, FILL, sizeof b->mem);
    SQLLEN fixed = lt_ctype_size(l->ctype);
    size_t dsize = (size_t)(fixed > 0 ? fixed : l->buflen);
    if (l->by_row) {
        /* struct { data; SQLLEN len; SQLLEN ind; } with the data first */
        size_t stride = (dsize + 7) / 8 * 8 + 2 * sizeof(SQLLEN);
        b->data = (char *)b->mem;
        b->len = (SQLLEN *)(void *)(b->mem + (dsize + 7) / 8 * 8);
        b->ind = b->len + 1;
        b->data_stride = b->ind_stride = stride;
    } else {
        b->data = (char *)b->mem;
        b->len = (SQLLEN *)(void *)(b->mem + MAXROWS * 128);
        b->ind = b->len + MAXROWS;
        b->data_stride = dsize;
        b->ind_stride = sizeof(SQLLEN);
    }
    if (l->ind_mode == 1)
        b->ind = b->len;
    else if (l->ind_mode == 2)
        b->ind = NULL;
    else if (l->ind_mode == 3)
        b->len = NULL;
}

static SQLLEN *elem(SQLLEN *base, size_t stride, uint32_t r)
{
    return base ? (SQLLEN *)(void *)((char *)base + (size_t)r * stride) : NULL;
}

/* The general path, as fill_segment runs it; false if any cell did not
** convert cleanly. */
static bool slow_path(const lt_vector *vec, uint32_t first, uint32_t n, const layout *l,
                      bufs *b)
{
    bool clean = true;
    bool separate = b->ind != b->len;
    for (uint32_t r = 0; r < n; r++) {
        SQLLEN *ind = elem(b->ind, b->ind_stride, r);
        SQLLEN *len = elem(b->len, b->ind_stride, r);
        if (vec->nulls[first + r]) {
            if (ind != NULL)
                *ind = SQL_NULL_DATA;
            else
                clean = false;
            continue;
        }
        lt_value v;
        lt_vector_get(vec, first + r, &v);
        if (separate && ind != NULL)
            *ind = 0;
        lt_target t = {l->ctype, b->data + (size_t)r * b->data_stride, l->buflen, len, 0, 0};
        lt_piece piece = {0};
        const char *st = NULL;
        if (lt_convert_to_c(&v, NULL, &t, &piece, &st) != SQL_SUCCESS)
            clean = false;
    }
    return clean;
}

static bool fast_path(const lt_vector *vec, uint32_t first, uint32_t n, const layout *l,
                      bufs *b)
{
    lt_target t = {l->ctype, b->data, l->buflen, b->len, 0, 0};
    return lt_convert_vector_to_c(vec, first, n, &t, b->data_stride, b->ind, b->ind_stride);
}

/* Equal buffers for rows [0, n), a NULL row's data excepted. */
static void assert_same(const bufs *x, const bufs *y, const lt_vector *vec, uint32_t first,
                        uint32_t n, const layout *l)
{
    SQLLEN fixed = lt_ctype_size(l->ctype);
    size_t dsize = (size_t)(fixed > 0 ? fixed : l->buflen);
    for (uint32_t r = 0; r < n; r++) {
        if (!vec->nulls[first + r] &&
            memcmp(x->data + (size_t)r * x->data_stride, y->data + (size_t)r * y->data_stride,
                   dsize) != 0) {
            fail_msg("data of row %u differs (type %d, ctype %d)", r, vec->type, l->ctype);
        }
        const SQLLEN *a = elem(x->len, x->ind_stride, r), *c = elem(y->len, y->ind_stride, r);
        if (a != NULL)
            assert_memory_equal(a, c, sizeof(SQLLEN));
        a = elem(x->ind, x->ind_stride, r);
        c = elem(y->ind, y->ind_stride, r);
        if (a != NULL)
            assert_memory_equal(a, c, sizeof(SQLLEN));
    }
    /* nothing past the run was touched */
    const unsigned char *end = (const unsigned char *)x->data + (size_t)n * x->data_stride;
    if (!l->by_row)
        assert_int_equal(*end, FILL);
}

static bool is_ascii(const test_vec *tv, uint32_t first, uint32_t n)
{
    for (uint32_t r = first; r < first + n; r++)
        for (uint32_t k = 0; !tv->nulls[r] && k < tv->bytes[r].len; k++)
            if ((unsigned char)tv->text[r][k] >= 0x80)
                return false;
    return true;
}

/* One comparison; returns whether the fast path took the run. */
static bool compare(const test_vec *tv, uint32_t first, uint32_t n, const layout *l,
                    bool handled)
{
    static bufs slow, fast;
    bind(&slow, l);
    bind(&fast, l);
    bool clean = slow_path(&tv->v, first, n, l, &slow);
    bool took = fast_path(&tv->v, first, n, l, &fast);
    if (took) {
        if (!clean)
            fail_msg("fast path took a run the general path reports on (type %d, ctype %d)",
                     tv->v.type, l->ctype);
        assert_same(&slow, &fast, &tv->v, first, n, l);
    } else if (clean && handled && (l->ctype != SQL_C_WCHAR || is_ascii(tv, first, n))) {
        fail_msg("fast path declined a clean run (type %d, ctype %d, mode %d)", tv->v.type,
                 l->ctype, l->ind_mode);
    }
    return took;
}

typedef struct pair {
    lt_type type;
    SQLSMALLINT ctype;
    int int_bits;       /* integers that always fit */
    bool handled;
} pair;

static const pair pairs[] = {
    {LT_INT64, SQL_C_SBIGINT, 0, true},
    {LT_INT64, SQL_C_SLONG, 32, true},
    {LT_INT64, SQL_C_LONG, 32, true},
    {LT_INT64, SQL_C_SSHORT, 16, true},
    {LT_INT64, SQL_C_SHORT, 16, true},
    {LT_INT64, SQL_C_STINYINT, 8, true},
    {LT_INT64, SQL_C_TINYINT, 8, true},
    {LT_INT64, SQL_C_DOUBLE, 0, true},
    {LT_INT64, SQL_C_UBIGINT, 0, false},
    {LT_INT64, SQL_C_CHAR, 0, false},
    {LT_DOUBLE, SQL_C_DOUBLE, 0, true},
    {LT_DOUBLE, SQL_C_FLOAT, 0, false},
    {LT_DOUBLE, SQL_C_SLONG, 0, false},
    {LT_BOOL, SQL_C_BIT, 0, true},
    {LT_BOOL, SQL_C_SLONG, 0, false},
    {LT_DATE, SQL_C_TYPE_DATE, 0, true},
    {LT_DATE, SQL_C_DATE, 0, true},
    {LT_DATE, SQL_C_TYPE_TIMESTAMP, 0, true},
    {LT_DATE, SQL_C_TIMESTAMP, 0, true},
    {LT_DATE, SQL_C_CHAR, 0, false},
    {LT_TIMESTAMP, SQL_C_TYPE_TIMESTAMP, 0, true},
    {LT_TIMESTAMP, SQL_C_TIMESTAMP, 0, true},
    {LT_TIMESTAMP, SQL_C_TYPE_DATE, 0, true},
    {LT_TIMESTAMP, SQL_C_TYPE_TIME, 0, false},
    {LT_TIME, SQL_C_TYPE_TIME, 0, true},
    {LT_TIME, SQL_C_TIME, 0, true},
    {LT_TEXT, SQL_C_CHAR, 0, true},
    {LT_TEXT, SQL_C_WCHAR, 0, true},
    {LT_TEXT, SQL_C_BINARY, 0, false},
};

static void test_random_runs(void **state)
{
    (void)state;
    static test_vec tv;
    unsigned taken = 0, trials = 0;
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        const pair *p = &pairs[k];
        for (int trial = 0; trial < 96; trial++, trials++) {
            bool wild = trial % 3 == 2;
            uint32_t nullish = trial % 4 == 0 ? 0 : below(3);
            uint32_t maxlen = 1 + below(30);
            make_vec(&tv, p->type, nullish, wild ? 0 : p->int_bits, wild, maxlen);
            layout l = {p->ctype, (SQLLEN)(maxlen + 1) * (p->ctype == SQL_C_WCHAR
                                                              ? (SQLLEN)sizeof(SQLWCHAR)
                                                              : 1),
                        trial % 2 == 1, (int)below(4)};
            if (below(6) == 0)
                l.buflen += 1;      /* odd element size: every other row of a
                                    ** column-wise SQL_C_WCHAR array is then
                                    ** misaligned (UBSan checks the stores) */
            uint32_t first = below(40);
            uint32_t n = 1 + below(MAXROWS - first);
            if (compare(&tv, first, n, &l, p->handled))
                taken++;
        }
    }
    /* the fast path is not idle: most clean runs go through it */
    print_message("fast path took %u of %u runs\n", taken, trials);
    assert_true(taken > trials / 4);
}

/* Specific refusals, each with the SQLSTATE the general path then posts. */
static void test_declines(void **state)
{
    (void)state;
    static test_vec tv;
    layout l = {SQL_C_SLONG, 0, false, 0};
    make_vec(&tv, LT_INT64, 0, 32, false, 0);
    assert_true(compare(&tv, 0, 10, &l, true));
    tv.i64[5] = (int64_t)INT32_MAX + 1;             /* 22003 */
    assert_false(compare(&tv, 0, 10, &l, true));
    tv.i64[5] = 7;
    tv.nulls[3] = 1;
    l.ind_mode = 2;                                 /* NULL without indicator: 22002 */
    assert_false(compare(&tv, 0, 10, &l, true));
    l.ind_mode = 3;                                 /* the NULL goes to the indicator */
    assert_true(compare(&tv, 0, 10, &l, true));

    layout tl = {SQL_C_CHAR, 6, false, 0};
    make_vec(&tv, LT_TEXT, 0, 0, false, 5);
    assert_true(compare(&tv, 0, 50, &tl, true));
    tv.bytes[7].len = 6;                            /* 01004 */
    assert_false(compare(&tv, 0, 50, &tl, true));

    /* a tagged vector (SQLite's dynamic typing) is never taken */
    make_vec(&tv, LT_INT64, 0, 32, false, 0);
    uint8_t tags[MAXROWS] = {0};
    tv.v.tags = tags;
    assert_false(compare(&tv, 0, 10, &l, false));

    /* only the length wanted (no data pointer): the general path */
    tv.v.tags = NULL;
    lt_target t = {SQL_C_SLONG, NULL, 0, NULL, 0, 0};
    SQLLEN ind[10];
    assert_false(lt_convert_vector_to_c(&tv.v, 0, 10, &t, 4, ind, sizeof(SQLLEN)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_runs),
        cmocka_unit_test(test_declines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
