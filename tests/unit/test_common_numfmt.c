/*
** test_common_numfmt.c — readers/common/numfmt.c against printf and strtod.
**
** The oracle for a double is the C library: the fewest digits P (1..17)
** for which printf's correctly rounded "%.{P-1}e" reads back as the same
** double.  Our digits must read back too, be exactly P long and equal the
** oracle's (the correctly rounded P digits are the closest P-digit
** decimal, which is also the one the formatter picks); check_digits()
** establishes that with two printf calls per value.  Random bit
** patterns (splitmix64, fixed seed) cover every binade; LT_NUMFMT_COUNT
** changes how many.  The driver's layout is checked against the loop it
** replaced (the first of %.15g, %.16g, %.17g that reads back), and the
** speed of both is printed.
*/
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "common/numfmt.h"

static uint64_t rng_state = 0x5eed0f6a7c1d2b3ull;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static long count_from_env(long dflt)
{
    const char *s = getenv("LT_NUMFMT_COUNT");
    long n = s ? atol(s) : 0;
    return n > 0 ? n : dflt;
}

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* ---- the oracle --------------------------------------------------------- */

/* Digits (trailing zeros removed) and exponent of printf's "%.{p-1}e". */
static int printf_digits(double a, int p, char *digits, int *exp10)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, a);
    int n = 0;
    const char *s = tmp;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            digits[n++] = *s;
    *exp10 = atoi(s + 1);
    while (n > 1 && digits[n - 1] == '0')
        n--;
    return n;
}

static double read_back(const char *digits, int n, int exp10, bool single)
{
    char s[64];
    int k = 0;
    s[k++] = digits[0];
    s[k++] = '.';
    memcpy(s + k, digits + 1, (size_t)n - 1);
    k += n - 1;
    snprintf(s + k, sizeof s - (size_t)k, "e%d", exp10);
    return single ? (double)strtof(s, NULL) : strtod(s, NULL);
}

/* Values for which we found fewer digits than printf's search: possible
** only just above a power of two, where the interval below is half as wide
** and the correctly rounded shorter decimal falls out of it while its
** upper neighbour is still inside. */
static long shorter_than_printf;

/*
** Checks the digits of a (> 0) against printf: they read back; they are
** printf's correctly rounded n digits (the closest n-digit decimal); and
** printf's n - 1 digits do not read back, so n is the fewest (a round trip
** at P digits implies one at P + 1: none shorter can exist).  Returns
** false, without failing, in the one case where fewer digits than printf
** finds exist: just above a power of two.
*/
static bool check_digits(double a, bool single, bool power_of_two, const char *digits, int n,
                         int e)
{
    char want[24];
    int we, wn;
    if (read_back(digits, n, e, single) != a)
        fail_msg("%.17g: %.*se%d does not read back", a, n, digits, e);
    wn = printf_digits(a, n, want, &we);
    if (wn != n || we != e || memcmp(want, digits, (size_t)n) != 0) {
        if (power_of_two && read_back(want, wn, we, single) != a)
            return false;
        fail_msg("%.17g: got %.*s e%d, printf's %d digits %.*s e%d", a, n, digits, e, n, wn,
                 want, we);
    }
    if (n > 1) {
        wn = printf_digits(a, n - 1, want, &we);
        if (read_back(want, wn, we, single) == a)
            fail_msg("%.17g: got %.*s e%d, printf's %.*s e%d is shorter", a, n, digits, e, wn,
                     want, we);
    }
    return true;
}

/* Checks v's digits; false when they are shorter than printf's. */
static bool check_double(double v)
{
    char digits[17];
    int e, n = lt_double_digits(v, digits, &e);
    bool p2 = (bits_of(v) & ((UINT64_C(1) << 52) - 1)) == 0;
    if (check_digits(fabs(v), false, p2, digits, n, e))
        return true;
    shorter_than_printf++;
    return false;
}

static void check_float(float v)
{
    char digits[9];
    int e, n = lt_float_digits(v, digits, &e);
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    check_digits(fabsf(v), true, (b & 0x7fffff) == 0, digits, n, e);
}

/* ---- the loop the driver used before (the reference for its layout) ----- */

static size_t old_format(double d, bool real, char *buf)
{
    if (isnan(d))
        return (size_t)snprintf(buf, 40, "NaN");
    if (isinf(d))
        return (size_t)snprintf(buf, 40, d < 0 ? "-Inf" : "Inf");
    if (d == 0)
        return (size_t)snprintf(buf, 40, "0");
    if (fabs(d) < 1e15 && d == trunc(d))
        return (size_t)snprintf(buf, 40, "%lld", (long long)d);
    int first = real ? 6 : 15, last = real ? 9 : 17, n = 0;
    for (int prec = first; prec <= last; prec++) {
        n = snprintf(buf, 40, "%.*g", prec, d);
        double back = strtod(buf, NULL);
        if (real ? (float)back == (float)d : back == d)
            break;
    }
    return (size_t)n;
}

static void check_layout(double v)
{
    char got[LT_FMT_DOUBLE_MAX], want[48];
    size_t n = lt_format_double(v, got);
    old_format(v, false, want);
    assert_int_equal(n, strlen(got));
    if (strcmp(got, want) != 0)
        fail_msg("%.17g: got \"%s\", the old loop \"%s\"", v, got, want);
}

/* ---- tests -------------------------------------------------------------- */

static void random_doubles(void **state)
{
    (void)state;
    long count = count_from_env(2000000);
    long checked = 0;
    for (long i = 0; i < count; i++) {
        double v = from_bits(splitmix64());
        if (!isfinite(v) || v == 0)
            continue;
        if (check_double(v) && fpclassify(v) == FP_NORMAL)
            check_layout(v);
        checked++;
    }
    print_message("    %ld random doubles: shortest digits equal printf's, layout equals the old loop\n",
                  checked);
}

/* Values a table holds: prices in cents, ratios, measurements. */
static void decimal_like_doubles(void **state)
{
    (void)state;
    static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    long count = count_from_env(2000000) / 2;
    for (long i = 0; i < count; i++) {
        uint64_t r = splitmix64();
        double v = (double)(int64_t)(r >> 20 & 0xffffffff) / p10[r % 9];
        if (r & 1 << 4)
            v = -v;
        if (v == 0)
            continue;
        if (check_double(v))
            check_layout(v);
    }
    print_message("    %ld decimal-like doubles checked\n", count);
}

static void subnormals_and_binade_edges(void **state)
{
    (void)state;
    /* The smallest subnormals, where the interval is widest. */
    for (uint64_t t = 1; t <= 70000; t++)
        check_double(from_bits(t));
    /* Every binade's first and last values and their neighbours. */
    for (uint64_t bq = 0; bq < 2047; bq++) {
        for (uint64_t t = 0; t < 4; t++) {
            uint64_t lo = bq << 52 | t, hi = bq << 52 | ((UINT64_C(1) << 52) - 1 - t);
            if (lo != 0)
                check_double(from_bits(lo));
            check_double(from_bits(hi));
        }
    }
    /* Powers of ten and their neighbours. */
    for (int k = -323; k <= 308; k++) {
        char s[16];
        snprintf(s, sizeof s, "1e%d", k);
        double p = strtod(s, NULL);
        check_double(p);
        check_double(nextafter(p, 0));
        check_double(nextafter(p, INFINITY));
    }
    print_message("    70000 subnormals, 16376 binade edges, 1896 powers of ten: %ld powers of two "
                  "need fewer digits than printf's search finds\n", shorter_than_printf);
}

static void random_floats(void **state)
{
    (void)state;
    long count = count_from_env(2000000) / 2;
    for (long i = 0; i < count; i++) {
        uint32_t b = (uint32_t)splitmix64();
        float v;
        memcpy(&v, &b, sizeof v);
        if (!isfinite(v) || v == 0)
            continue;
        check_float(v);
    }
    for (uint32_t t = 1; t < (1u << 16); t++) {     /* small subnormals */
        float v;
        memcpy(&v, &t, sizeof v);
        check_float(v);
    }
    print_message("    %ld random floats and 65535 subnormals checked\n", count);
}

static void expect_double(double v, const char *want)
{
    char got[LT_FMT_DOUBLE_MAX];
    size_t n = lt_format_double(v, got);
    assert_string_equal(got, want);
    assert_int_equal(n, strlen(want));
}

static void hand_cases(void **state)
{
    (void)state;
    expect_double(1e21, "1e+21");
    expect_double(1e-7, "1e-07");
    expect_double(0.1, "0.1");
    expect_double(100.0, "100");
    expect_double(-0.0, "0");
    expect_double(0.0, "0");
    expect_double(1.5e300, "1.5e+300");
    expect_double(5e-324, "5e-324");
    expect_double(-5e-324, "-5e-324");
    expect_double(1e-323, "1e-323");
    expect_double(DBL_MAX, "1.7976931348623157e+308");
    expect_double(-DBL_MAX, "-1.7976931348623157e+308");
    expect_double(DBL_MIN, "2.2250738585072014e-308");
    expect_double(2.225073858507201e-308, "2.225073858507201e-308"); /* largest subnormal */
    expect_double(9007199254740992.0, "9007199254740992");             /* 2^53 */
    expect_double(9007199254740993.0, "9007199254740992");             /* 2^53 + 1 rounds down */
    expect_double(9007199254740991.0, "9007199254740991");             /* 2^53 - 1 */
    expect_double(9007199254740994.0, "9007199254740994");
    expect_double(18014398509481984.0, "18014398509481984");           /* 2^54: 17 digits */
    expect_double(1e15, "1e+15");
    expect_double(999999999999999.0, "999999999999999");
    expect_double(123456789012345.6, "123456789012345.6");
    expect_double(0.30000000000000004, "0.30000000000000004");
    expect_double(1e-4, "0.0001");
    expect_double(1.5e-4, "0.00015");
    expect_double(1e-5, "1e-05");
    expect_double(1e23, "1e+23");
    expect_double(5e-310, "5e-310");
    expect_double(12.34, "12.34");
    expect_double(-1234.5, "-1234.5");
    expect_double(2.0 / 3.0, "0.6666666666666666");
    expect_double(1.0 / 3.0, "0.3333333333333333");
    expect_double(4.35, "4.35");
    expect_double(0.000123456789012345678, "0.00012345678901234567");
    expect_double(NAN, "NaN");
    expect_double(INFINITY, "Inf");
    expect_double(-INFINITY, "-Inf");
    expect_double(-42.0, "-42");
    expect_double(1e100, "1e+100");
    expect_double(1.7e308, "1.7e+308");

    char buf[LT_FMT_DOUBLE_MAX];
    lt_format_float(0.1f, buf);
    assert_string_equal(buf, "0.1");
    lt_format_float(3.4028235e38f, buf);
    assert_string_equal(buf, "3.4028235e+38");
    lt_format_float(1e-45f, buf);
    assert_string_equal(buf, "1e-45");
    lt_format_float(16777216.0f, buf);
    assert_string_equal(buf, "16777216");
    lt_format_float(1.1754944e-38f, buf);
    assert_string_equal(buf, "1.1754944e-38");
    lt_format_float(1234567.5f, buf);
    assert_string_equal(buf, "1234567.5");
    lt_format_float(123456.7f, buf);
    assert_string_equal(buf, "123456.7");
    lt_format_float(-1e-5f, buf);
    assert_string_equal(buf, "-1e-05");

    /* The layout with another precision (Python's repr switches at 16). */
    lt_format_digits(false, "12345", 5, 15, 16, buf);
    assert_string_equal(buf, "1234500000000000");
    lt_format_digits(true, "12345", 5, 16, 16, buf);
    assert_string_equal(buf, "-1.2345e+16");
    lt_format_digits(false, "5", 1, -4, 16, buf);
    assert_string_equal(buf, "0.0005");
    lt_format_digits(false, "12", 2, 0, 16, buf);
    assert_string_equal(buf, "1.2");
}

/* A REAL value shows what the old loop showed for it (%.6g .. %.9g). */
static void float_layout(void **state)
{
    (void)state;
    long count = count_from_env(2000000) / 4;
    for (long i = 0; i < count; i++) {
        uint32_t b = (uint32_t)splitmix64();
        float v;
        memcpy(&v, &b, sizeof v);
        if (fpclassify(v) != FP_NORMAL)
            continue;
        char got[LT_FMT_DOUBLE_MAX], want[48];
        lt_format_float(v, got);
        old_format(v, true, want);
        if (strcmp(got, want) != 0)
            fail_msg("%.9g: got \"%s\", the old loop \"%s\"", (double)v, got, want);
    }
}

static void integers(void **state)
{
    (void)state;
    static const int64_t hand[] = {0, 1, -1, 9, 10, 99, 100, -100, 999999999, 1000000000,
                                   INT64_MAX, INT64_MIN, INT64_MIN + 1, 4294967295, 4294967296};
    char got[LT_FMT_INT64_MAX], want[32];
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        lt_format_int64(hand[i], got);
        snprintf(want, sizeof want, "%lld", (long long)hand[i]);
        assert_string_equal(got, want);
    }
    for (int i = 0; i < 1000000; i++) {
        uint64_t r = splitmix64();
        int64_t v = (int64_t)(r >> (r % 64));   /* every length */
        if (r & 1 << 7)
            v = -v;
        size_t n = lt_format_int64(v, got);
        snprintf(want, sizeof want, "%lld", (long long)v);
        assert_string_equal(got, want);
        assert_int_equal(n, strlen(want));
        n = lt_format_uint64(r, got);
        snprintf(want, sizeof want, "%llu", (unsigned long long)r);
        assert_string_equal(got, want);
    }
}

/* The decimal's reference: digits by long division, the point inserted. */
static void slow_decimal(__int128 v, int scale, char *out)
{
    unsigned __int128 u = v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    char tmp[128];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0);
    while (scale > 0 && n <= scale)
        tmp[n++] = '0';
    int o = 0;
    if (v < 0)
        out[o++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        out[o++] = tmp[i];
        if (scale > 0 && i == scale)
            out[o++] = '.';
    }
    out[o] = '\0';
}

static void decimals(void **state)
{
    (void)state;
    char got[LT_FMT_DECIMAL_MAX], want[128];
    __int128 max38 = 1;
    for (int i = 0; i < 38; i++)
        max38 *= 10;
    max38 -= 1;
    struct { __int128 v; int scale; const char *text; } hand[] = {
        {1250, 2, "12.50"}, {-5, 2, "-0.05"}, {0, 2, "0.00"}, {0, 0, "0"}, {7, 0, "7"},
        {-7, -3, "-7"}, {123, 3, "0.123"}, {1, 5, "0.00001"},
    };
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        size_t n = lt_format_decimal(hand[i].v, hand[i].scale, got);
        assert_string_equal(got, hand[i].text);
        assert_int_equal(n, strlen(hand[i].text));
    }
    lt_format_decimal(max38, 0, got);
    assert_string_equal(got, "99999999999999999999999999999999999999");
    lt_format_decimal(-max38, 38, got);
    assert_string_equal(got, "-0.99999999999999999999999999999999999999");
    __int128 min128 = (__int128)((unsigned __int128)1 << 127);
    lt_format_decimal(min128, 80, got);                 /* the widest text */
    slow_decimal(min128, 80, want);
    assert_string_equal(got, want);
    assert_true(strlen(got) < LT_FMT_DECIMAL_MAX);
    lt_format_decimal(1, 200, got);                     /* cut to 80 */
    slow_decimal(1, 80, want);
    assert_string_equal(got, want);
    for (int i = 0; i < 300000; i++) {
        unsigned __int128 r = (unsigned __int128)splitmix64() << 64 | splitmix64();
        __int128 v = (__int128)(r >> (splitmix64() % 128));
        if (i & 1)
            v = -v;
        int scale = (int)(splitmix64() % 42);
        lt_format_decimal(v, scale, got);
        slow_decimal(v, scale, want);
        assert_string_equal(got, want);
    }
}

/* ---- speed (printed, not asserted) -------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The best of five passes over `values`, in ns per value: the machine may
** be shared, the fastest pass is the least disturbed. */
static double best_ns(size_t (*fmt)(double, char *), const double *values, int count)
{
    double best = 1e30;
    char buf[48];
    size_t sink = 0;
    for (int pass = 0; pass < 5; pass++) {
        double t0 = now();
        for (int i = 0; i < count; i++)
            sink += fmt(values[i], buf);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    assert_true(sink > 0);
    return best * 1e9 / count;
}

static size_t old_format_double(double v, char *buf)
{
    return old_format(v, false, buf);
}

static size_t int_new(double v, char *buf)
{
    return lt_format_int64((int64_t)v, buf);
}

static size_t int_snprintf(double v, char *buf)
{
    return (size_t)snprintf(buf, 48, "%lld", (long long)v);
}

static void speed(void **state)
{
    (void)state;
    enum { N = 200000 };
    static double prices[N], randoms[N], ints[N];
    for (int i = 0; i < N; i++) {
        uint64_t r = splitmix64();
        prices[i] = (double)(r % 1000000) / 100.0;      /* the bench's prices */
        ints[i] = (double)(r % 1000000);
        do
            randoms[i] = from_bits(splitmix64());
        while (!isfinite(randoms[i]));
    }
    double a = best_ns(lt_format_double, prices, N), b = best_ns(old_format_double, prices, N);
    print_message("    prices in cents: lt_format_double %.1f ns, the old snprintf/strtod loop "
                  "%.1f ns per value (x%.1f)\n", a, b, b / a);
    a = best_ns(lt_format_double, randoms, N);
    b = best_ns(old_format_double, randoms, N);
    print_message("    random bit patterns: lt_format_double %.1f ns, the old loop %.1f ns per "
                  "value (x%.1f)\n", a, b, b / a);
    a = best_ns(int_new, ints, N);
    b = best_ns(int_snprintf, ints, N);
    print_message("    integers below 10^6: lt_format_int64 %.1f ns, snprintf %.1f ns per value\n",
                  a, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_cases),
        cmocka_unit_test(integers),
        cmocka_unit_test(decimals),
        cmocka_unit_test(subnormals_and_binade_edges),
        cmocka_unit_test(random_doubles),
        cmocka_unit_test(decimal_like_doubles),
        cmocka_unit_test(random_floats),
        cmocka_unit_test(float_layout),
        cmocka_unit_test(speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
