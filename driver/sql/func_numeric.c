/*
** func_numeric.c — the numeric functions (func.h): ODBC's set (ABS,
** CEILING, FLOOR, ROUND, TRUNCATE, MOD, POWER, SQRT, EXP, LOG, LOG10,
** SIGN, PI, RAND, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, COT, DEGREES,
** RADIANS) and a few common names (CEIL, LN, POW).
**
** ABS, SIGN, CEILING, FLOOR, ROUND and TRUNCATE keep their argument's kind:
** INT64 and DECIMAL exactly (ROUND half away from zero), DOUBLE by the C
** library.  The others compute in DOUBLE.  A value outside a function's
** domain (SQRT(-1), LOG(0), ACOS(2)) or a finite argument with an infinite
** result is 22003, never NaN or infinity.  MOD is the binder's: a % b.
*/
#include "exec.h"
#include "func.h"
#include "value.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PI_VALUE 3.14159265358979323846

static int out_of_range(sql_fcall *c)
{
    return lt_error_set(c->err, "22003", "numeric value out of range in %s", c->e->fn->name);
}

static int outside_domain(sql_fcall *c, double x)
{
    return lt_error_set(c->err, "22003", "%s is not defined for %.17g", c->e->fn->name, x);
}

/* ------------------------------------------------------------------------ */
/* Exact kinds                                                               */
/* ------------------------------------------------------------------------ */

static int fn_abs(sql_fcall *c)
{
    const lt_vector *a = c->args[0];
    lt_vector *out = c->out;
    SQL_EACH_ROW(c, row) {
        switch (out->type) {
        case LT_INT64:
            if (a->v.i64[row] == INT64_MIN)
                return out_of_range(c);
            out->v.i64[row] = a->v.i64[row] < 0 ? -a->v.i64[row] : a->v.i64[row];
            break;
        case LT_DECIMAL: out->v.dec[row] = a->v.dec[row] < 0 ? -a->v.dec[row] : a->v.dec[row]; break;
        case LT_DOUBLE:  out->v.f64[row] = fabs(a->v.f64[row]); break;
        default:         out->nulls[row] = 1; break;
        }
    }
    return 0;
}

static int fn_sign(sql_fcall *c)
{
    const lt_vector *a = c->args[0];
    SQL_EACH_ROW(c, row) {
        int s = 0;
        switch (a->type) {
        case LT_INT64:   s = (a->v.i64[row] > 0) - (a->v.i64[row] < 0); break;
        case LT_DECIMAL: s = (a->v.dec[row] > 0) - (a->v.dec[row] < 0); break;
        case LT_DOUBLE:  s = (a->v.f64[row] > 0) - (a->v.f64[row] < 0); break;
        default:         break;
        }
        c->out->v.i64[row] = s;
    }
    return 0;
}

/* m / 10^digits rounded: toward zero, half away from zero, down or up. */
enum { CUT, ROUND_HALF, TO_FLOOR, TO_CEILING };

static lt_int128 divide(lt_int128 m, int digits, int how)
{
    if (digits > 38)
        return how == TO_FLOOR && m < 0 ? -1 : how == TO_CEILING && m > 0 ? 1 : 0;
    lt_int128 f = sql_pow10(digits), q = m / f, r = m % f;
    switch (how) {
    case ROUND_HALF:
        if ((r < 0 ? -r : r) * 2 >= f)
            q += m < 0 ? -1 : 1;
        break;
    case TO_FLOOR:
        q -= r < 0;
        break;
    case TO_CEILING:
        q += r > 0;
        break;
    default:
        break;
    }
    return q;
}

/* FLOOR and CEILING: a DECIMAL to scale 0, an INT64 as it is. */
static int integral(sql_fcall *c, int how)
{
    const lt_vector *a = c->args[0];
    lt_vector *out = c->out;
    SQL_EACH_ROW(c, row) {
        switch (a->type) {
        case LT_INT64:   out->v.i64[row] = a->v.i64[row]; break;
        case LT_DECIMAL: out->v.dec[row] = divide(a->v.dec[row], a->scale, how); break;
        case LT_DOUBLE:
            out->v.f64[row] = how == TO_FLOOR ? floor(a->v.f64[row]) : ceil(a->v.f64[row]);
            break;
        default:         out->nulls[row] = 1; break;
        }
    }
    return 0;
}

static int fn_floor(sql_fcall *c) { return integral(c, TO_FLOOR); }
static int fn_ceiling(sql_fcall *c) { return integral(c, TO_CEILING); }

/* A DOUBLE to `places` digits: its decimal form of 15 significant digits
** (what DOUBLE shows and what was written: 2.675, whose double is
** 2.67499999999999982236431605997495353221893310546875) is rounded or cut
** exactly, so ROUND(2.675, 2) is 2.68 and TRUNCATE(0.29, 2) is 0.29, as
** SQLite, Excel and a reader expect; the result is the nearest double. */
static double double_places(double x, int64_t places, int how)
{
    char buf[48];
    if (!isfinite(x) || x == 0)
        return x;
    snprintf(buf, sizeof buf, "%.14e", x); /* [-]d.dddddddddddddde[+-]x */
    const char *p = buf;
    bool neg = *p == '-';
    p += neg;
    int64_t m = 0;
    for (; *p != 'e' && *p != '\0'; p++)
        if (*p >= '0' && *p <= '9')
            m = m * 10 + (*p - '0');
    long e = *p == 'e' ? strtol(p + 1, NULL, 10) : 0;
    int64_t frac = 14 - (int64_t)e; /* digits of m after the point */
    if (places >= frac)
        return x; /* no digit to drop */
    int64_t d = frac - places;   /* digits to drop, > 0 */
    lt_int128 q = divide(neg ? -(lt_int128)m : (lt_int128)m, d > 60 ? 60 : (int)d, how);
    if (q == 0)
        return neg ? -0.0 : 0.0;
    return places >= 0 ? (double)q / pow(10.0, (double)places) : (double)q * pow(10.0, (double)-places);
}

/* ROUND(x [, places]) and TRUNCATE(x [, places]): x to `places` digits
** after the point (before it when negative), in x's own kind. */
static int to_places(sql_fcall *c, int how)
{
    const lt_vector *a = c->args[0];
    lt_vector *out = c->out;
    const lt_int128 max = SQL_DEC_MAX;
    SQL_EACH_ROW(c, row) {
        int64_t places = c->e->nargs > 1 ? c->args[1]->v.i64[row] : 0;
        if (places > 400)
            places = 400;
        if (places < -400)
            places = -400;
        switch (a->type) {
        case LT_INT64: {
            if (places >= 0) {
                out->v.i64[row] = a->v.i64[row];
                break;
            }
            int d = (int)-places;
            lt_int128 r = d > 38 ? 0 : divide(a->v.i64[row], d, how) * sql_pow10(d);
            if (r < INT64_MIN || r > INT64_MAX)
                return out_of_range(c);
            out->v.i64[row] = (int64_t)r;
            break;
        }
        case LT_DECIMAL: {
            int64_t d = a->scale - places;
            if (d <= 0) {
                out->v.dec[row] = a->v.dec[row];
                break;
            }
            lt_int128 q = divide(a->v.dec[row], (int)d, how);
            if (d > 38 || q == 0) {
                out->v.dec[row] = 0;
                break;
            }
            lt_int128 f = sql_pow10((int)d);
            if ((q < 0 ? -q : q) > max / f)
                return out_of_range(c);
            out->v.dec[row] = q * f;
            break;
        }
        case LT_DOUBLE: {
            double x = a->v.f64[row], r = double_places(x, places, how);
            if (!isfinite(r) && isfinite(x))
                return out_of_range(c);
            out->v.f64[row] = r;
            break;
        }
        default:
            out->nulls[row] = 1;
            break;
        }
    }
    return 0;
}

static int fn_round(sql_fcall *c) { return to_places(c, ROUND_HALF); }
static int fn_truncate(sql_fcall *c) { return to_places(c, CUT); }

/* ------------------------------------------------------------------------ */
/* DOUBLE functions                                                          */
/* ------------------------------------------------------------------------ */

static double cot(double x) { return 1.0 / tan(x); }
static double degrees(double x) { return x * (180.0 / PI_VALUE); }
static double radians(double x) { return x * (PI_VALUE / 180.0); }

static bool non_negative(double x) { return x >= 0; }
static bool positive(double x) { return x > 0; }
static bool unit_range(double x) { return x >= -1 && x <= 1; }
static bool tan_not_zero(double x) { return tan(x) != 0; }

/* f(x) for every row; `ok` says whether x is in f's domain. */
static int unary(sql_fcall *c, double (*f)(double), bool (*ok)(double))
{
    SQL_EACH_ROW(c, row) {
        double x = c->args[0]->v.f64[row];
        if (ok != NULL && isfinite(x) && !ok(x))
            return outside_domain(c, x);
        double r = f(x);
        if (!isfinite(r) && isfinite(x))
            return out_of_range(c);
        c->out->v.f64[row] = r;
    }
    return 0;
}

static int fn_sqrt(sql_fcall *c) { return unary(c, sqrt, non_negative); }
static int fn_exp(sql_fcall *c) { return unary(c, exp, NULL); }
static int fn_log(sql_fcall *c) { return unary(c, log, positive); }
static int fn_log10(sql_fcall *c) { return unary(c, log10, positive); }
static int fn_sin(sql_fcall *c) { return unary(c, sin, NULL); }
static int fn_cos(sql_fcall *c) { return unary(c, cos, NULL); }
static int fn_tan(sql_fcall *c) { return unary(c, tan, NULL); }
static int fn_asin(sql_fcall *c) { return unary(c, asin, unit_range); }
static int fn_acos(sql_fcall *c) { return unary(c, acos, unit_range); }
static int fn_atan(sql_fcall *c) { return unary(c, atan, NULL); }
static int fn_cot(sql_fcall *c) { return unary(c, cot, tan_not_zero); }
static int fn_degrees(sql_fcall *c) { return unary(c, degrees, NULL); }
static int fn_radians(sql_fcall *c) { return unary(c, radians, NULL); }

/* POWER(x, y); ATAN2(y, x) takes y first, as SQL Server, MySQL,
** PostgreSQL and SQLite do. */
static int binary(sql_fcall *c, double (*f)(double, double))
{
    SQL_EACH_ROW(c, row) {
        double x = c->args[0]->v.f64[row], y = c->args[1]->v.f64[row], r = f(x, y);
        if (isnan(r) && !isnan(x) && !isnan(y))
            return outside_domain(c, x);
        if (isinf(r) && isfinite(x) && isfinite(y))
            return out_of_range(c);
        c->out->v.f64[row] = r;
    }
    return 0;
}

static int fn_power(sql_fcall *c) { return binary(c, pow); }
static int fn_atan2(sql_fcall *c) { return binary(c, atan2); }

static int fn_pi(sql_fcall *c)
{
    for (uint32_t i = 0; i < c->n; i++) {
        c->out->nulls[c->sel[i]] = 0;
        c->out->v.f64[c->sel[i]] = PI_VALUE;
    }
    return 0;
}

/* splitmix64: small, fast, and good enough for RAND. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* RAND([seed]): values in [0, 1), a new one per row; the generator lives
** in the node's evaluation state, seeded once per execution (by the first
** seed argument, else by the clock). */
static int fn_rand(sql_fcall *c)
{
    sql_slot *s = &c->ex->slots[c->e->slot];
    if (s->rng == 0) {
        s->rng = (uint64_t)c->ex->now ^ (uint64_t)(uintptr_t)s;
        for (uint32_t i = 0; c->e->nargs > 0 && i < c->n; i++) {
            const lt_vector *seed = c->args[0];
            if (seed->type != LT_NULL && !seed->nulls[c->sel[i]]) {
                s->rng = (uint64_t)seed->v.i64[c->sel[i]] ^ UINT64_C(0x5eed);
                break;
            }
        }
        if (s->rng == 0)
            s->rng = 1;
    }
    for (uint32_t i = 0; i < c->n; i++) {
        c->out->nulls[c->sel[i]] = 0;
        c->out->v.f64[c->sel[i]] = (double)(next_random(&s->rng) >> 11) * 0x1.0p-53;
    }
    return 0;
}

#define N SQL_ARG_NUMBER
#define D SQL_ARG_DOUBLE
#define I SQL_ARG_INT
#define FN(name, min, max, a0, a1, result, size, eval) \
    {name, min, max, SQL_AGG_NONE, {a0, a1, a1, a1}, result, size, eval, false}

const sql_func sql_funcs_numeric[] = {
    FN("ABS", 1, 1, N, N, SQL_RES_ARG0, 0, fn_abs),
    FN("SIGN", 1, 1, N, N, SQL_RES_INT64, 10, fn_sign),
    FN("CEILING", 1, 1, N, N, SQL_RES_INTEGRAL, 0, fn_ceiling),
    FN("CEIL", 1, 1, N, N, SQL_RES_INTEGRAL, 0, fn_ceiling),
    FN("FLOOR", 1, 1, N, N, SQL_RES_INTEGRAL, 0, fn_floor),
    FN("ROUND", 1, 2, N, I, SQL_RES_ROUND, 0, fn_round),
    FN("TRUNCATE", 1, 2, N, I, SQL_RES_ARG0, 0, fn_truncate),
    FN("TRUNC", 1, 2, N, I, SQL_RES_ARG0, 0, fn_truncate),
    FN("MOD", 2, 2, N, N, SQL_RES_ARG0, 0, NULL),
    FN("POWER", 2, 2, D, D, SQL_RES_DOUBLE, 0, fn_power),
    FN("POW", 2, 2, D, D, SQL_RES_DOUBLE, 0, fn_power),
    FN("SQRT", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_sqrt),
    FN("EXP", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_exp),
    FN("LOG", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_log),
    FN("LN", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_log),
    FN("LOG10", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_log10),
    FN("PI", 0, 0, D, D, SQL_RES_DOUBLE, 0, fn_pi),
    FN("RAND", 0, 1, I, I, SQL_RES_DOUBLE, 0, fn_rand),
    FN("SIN", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_sin),
    FN("COS", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_cos),
    FN("TAN", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_tan),
    FN("COT", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_cot),
    FN("ASIN", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_asin),
    FN("ACOS", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_acos),
    FN("ATAN", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_atan),
    FN("ATAN2", 2, 2, D, D, SQL_RES_DOUBLE, 0, fn_atan2),
    FN("DEGREES", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_degrees),
    FN("RADIANS", 1, 1, D, D, SQL_RES_DOUBLE, 0, fn_radians),
};
const uint32_t sql_funcs_numeric_count = sizeof sql_funcs_numeric / sizeof sql_funcs_numeric[0];
