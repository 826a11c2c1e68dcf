/*
** number.c — the text of N and F fields as numbers, parsed by hand.
**
** dBASE stores numbers as right-aligned ASCII ("   12.50").  What counts as
** a number follows what dBASE drivers accept: blanks and NULs around it are
** padding, '*' characters mean the value overflowed its width (NULL), then
** an optional sign, digits with an optional '.', an optional exponent
** ("1.0E+10").  Anything else ("1,5", "abc", " - ") is not a number (NULL).
**
** The value is kept as a decimal mantissa and exponent so INT64 and DECIMAL
** columns get exact values (rounded half away from zero when the text has
** more decimals than the column), and doubles are correctly rounded: exactly
** representable cases by one IEEE operation, the rest by the C library's
** strtod on a stack copy, whatever the process's locale.
*/
#include "dbf_internal.h"

#include <math.h>
#include <string.h>

#define MAX_DIGITS 38

typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
    10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
    100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull,
    10000000000000000000ull,
};

/* 10^k for 0 <= k <= 38. */
static u128 pow10_u128(int k)
{
    if (k <= 19)
        return pow10_u64[k];
    return (u128)pow10_u64[19] * pow10_u64[k - 19];
}

static bool is_pad(uint8_t c)
{
    return c == ' ' || c == '\0' || (c >= '\t' && c <= '\r');
}

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

bool dbf_number_plain_int(const uint8_t *p, size_t n, int64_t *out)
{
    size_t i = 0;
    while (i < n && p[i] == ' ')
        i++;
    bool neg = false;
    if (i < n && (p[i] == '-' || p[i] == '+'))
        neg = p[i++] == '-';
    size_t start = i;
    int64_t v = 0;
    while (i < n && is_digit(p[i]) && i - start < 18)
        v = v * 10 + (p[i++] - '0');
    if (i == start)
        return false;
    while (i < n && (p[i] == ' ' || p[i] == '\0'))
        i++;
    if (i != n)
        return false;
    *out = neg ? -v : v;
    return true;
}

bool dbf_number_plain(const uint8_t *p, size_t n, dbf_number *num)
{
    size_t i = 0;
    while (i < n && p[i] == ' ')
        i++;
    size_t start = i;
    bool neg = false;
    if (i < n && (p[i] == '-' || p[i] == '+'))
        neg = p[i++] == '-';
    uint64_t m = 0;
    int32_t exp10 = 0, digits = 0;
    for (; i < n && is_digit(p[i]); i++, digits++)
        m = m * 10 + (uint64_t)(p[i] - '0');
    if (i < n && p[i] == '.')
        for (i++; i < n && is_digit(p[i]); i++, digits++, exp10--)
            m = m * 10 + (uint64_t)(p[i] - '0');
    /* 19 digits always fit 64 bits; longer text takes the careful path. */
    if (digits == 0 || digits > 19)
        return false;
    size_t end = i;
    while (i < n && (p[i] == ' ' || p[i] == '\0'))
        i++;
    if (i != n)
        return false;
    num->mant = m;
    num->exp10 = exp10;
    num->ndigits = digits;        /* leading zeros included */
    num->neg = neg;
    num->inexact = false;
    num->text = p + start;
    num->text_len = (uint32_t)(end - start);
    return true;
}

/* Add one digit to the mantissa; `frac` says it is after the point. */
static void add_digit(dbf_number *num, int d, bool frac)
{
    if (num->ndigits == 0 && d == 0) {      /* leading zero */
        if (frac)
            num->exp10--;
        return;
    }
    if (num->ndigits < MAX_DIGITS) {
        num->mant = num->mant * 10 + (unsigned)d;
        num->ndigits++;
        if (frac)
            num->exp10--;
        return;
    }
    /* Beyond 38 significant digits: an integer digit still scales the
    ** value; a non-zero dropped digit makes the mantissa inexact. */
    if (!frac)
        num->exp10++;
    if (d != 0)
        num->inexact = true;
}

int dbf_number_parse(const uint8_t *p, size_t n, dbf_number *num)
{
    memset(num, 0, sizeof *num);
    size_t lo = 0, hi = n;
    while (lo < hi && is_pad(p[lo])) lo++;
    while (hi > lo && is_pad(p[hi - 1])) hi--;
    while (lo < hi && p[lo] == '*') lo++;
    while (hi > lo && p[hi - 1] == '*') hi--;
    while (lo < hi && is_pad(p[lo])) lo++;
    while (hi > lo && is_pad(p[hi - 1])) hi--;
    if (lo == hi)
        return 0;
    num->text = p + lo;
    num->text_len = (uint32_t)(hi - lo);

    size_t i = lo;
    if (p[i] == '+' || p[i] == '-')
        num->neg = p[i++] == '-';
    size_t digits = 0;
    for (; i < hi && is_digit(p[i]); i++, digits++)
        add_digit(num, p[i] - '0', false);
    if (i < hi && p[i] == '.') {
        for (i++; i < hi && is_digit(p[i]); i++, digits++)
            add_digit(num, p[i] - '0', true);
    }
    if (digits == 0)
        return -1;
    if (i < hi && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < hi && (p[i] == '+' || p[i] == '-'))
            eneg = p[i++] == '-';
        size_t estart = i;
        int32_t e = 0;
        for (; i < hi && is_digit(p[i]); i++)
            if (e < 100000)          /* far beyond any double; stop growing */
                e = e * 10 + (p[i] - '0');
        if (i == estart)
            return -1;
        num->exp10 += eneg ? -e : e;
    }
    return i == hi ? 1 : -1;
}

/* |value| scaled by 10^shift and rounded half away from zero; false when it
** needs more than 38 digits. */
static bool scaled_magnitude(const dbf_number *num, int32_t shift, u128 *out)
{
    if (num->mant == 0) {
        *out = 0;
        return true;
    }
    int32_t e = num->exp10 + shift;
    if (e >= 0) {
        if (e > MAX_DIGITS || num->mant >= pow10_u128(MAX_DIGITS - e))
            return false;
        *out = num->mant * pow10_u128(e);
        return true;
    }
    if (-e > MAX_DIGITS) {      /* mant < 10^38 <= half of 10^-e */
        *out = 0;
        return true;
    }
    u128 div = pow10_u128(-e);
    u128 q = num->mant / div, r = num->mant % div;
    if (r >= div - r)           /* r*2 >= div without overflow */
        q++;
    *out = q;
    return true;
}

bool dbf_number_double(const dbf_number *num, double *out)
{
    static const double pow10_exact[23] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    double d;
    if (!num->inexact && num->mant < ((u128)1 << 53) &&
        num->exp10 >= -22 && num->exp10 <= 22) {
        /* Both operands exact: one rounding, the correct one (Clinger). */
        d = (double)(uint64_t)num->mant;
        if (num->exp10 > 0)
            d *= pow10_exact[num->exp10];
        else if (num->exp10 < 0)
            d /= pow10_exact[-num->exp10];
        if (num->neg)
            d = -d;
    } else if (num->mant == 0 && !num->inexact) {
        d = num->neg ? -0.0 : 0.0;
    } else {
        char buf[320];
        if (num->text_len >= sizeof buf)
            return false;
        memcpy(buf, num->text, num->text_len);
        buf[num->text_len] = '\0';
        d = lt_strtod(buf, NULL);
    }
    if (!isfinite(d))
        return false;
    *out = d;
    return true;
}

/* Round half away from zero to an integer; false outside int64. */
static bool round_to_int64(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
        return false;
    int64_t i = (int64_t)d;            /* truncates toward zero */
    double frac = d - (double)i;       /* exact: |d| < 2^53 or frac == 0 */
    if (frac >= 0.5) {
        if (i == INT64_MAX)
            return false;
        i++;
    } else if (frac <= -0.5) {
        if (i == INT64_MIN)
            return false;
        i--;
    }
    *out = i;
    return true;
}

bool dbf_number_int64(const dbf_number *num, int64_t *out)
{
    u128 mag;
    if (num->inexact || !scaled_magnitude(num, 0, &mag)) {
        double d;
        return dbf_number_double(num, &d) && round_to_int64(d, out);
    }
    if (num->neg) {
        if (mag > (u128)INT64_MAX + 1)
            return false;
        *out = mag == (u128)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > INT64_MAX)
            return false;
        *out = (int64_t)mag;
    }
    return true;
}

bool dbf_number_decimal(const dbf_number *num, int scale, lt_int128 *out)
{
    u128 mag;
    if (num->inexact) {
        /* Over 38 significant digits cannot fit a DECIMAL(38) anyway,
        ** unless most are after the point: go through the double. */
        double d;
        if (!dbf_number_double(num, &d) || scale < 0 || scale > MAX_DIGITS)
            return false;
        for (int i = 0; i < scale; i++)
            d *= 10.0;
        if (!(d > -1e38 && d < 1e38))
            return false;
        double t = d < 0 ? -d : d;
        u128 m = (u128)t;
        if (t - (double)m >= 0.5)
            m++;
        *out = d < 0 ? -(lt_int128)m : (lt_int128)m;
        return true;
    }
    if (!scaled_magnitude(num, scale, &mag) || mag >= pow10_u128(MAX_DIGITS))
        return false;
    *out = num->neg ? -(lt_int128)mag : (lt_int128)mag;
    return true;
}
