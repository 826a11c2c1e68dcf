/*
** test_common_datetime.c — the text forms of dates, times, timestamps and
** GUIDs (readers/common/datetime.c, guid.c) that CAST and SQLGetData share:
** edge values by hand, and every day of years 0..9999 and a sweep of
** times against printf.
*/
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/datetime.h"
#include "reader.h"

#define USEC INT64_C(1000000)

static void check_date(int y, int m, int d, const char *want)
{
    char buf[LT_FMT_DATE_MAX];
    memset(buf, 'x', sizeof buf);
    size_t n = lt_format_date(lt_days_from_civil(y, m, d), buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void dates(void **state)
{
    (void)state;
    check_date(1970, 1, 1, "1970-01-01");
    check_date(2000, 2, 29, "2000-02-29");
    check_date(9999, 12, 31, "9999-12-31");
    check_date(1, 1, 1, "0001-01-01");
    check_date(0, 3, 1, "0000-03-01");
    check_date(-1, 12, 31, "-1-12-31");
    check_date(-4713, 11, 24, "-4713-11-24");
    check_date(10000, 1, 1, "10000-01-01");
    /* The extremes of a day number fit the declared size. */
    char buf[LT_FMT_DATE_MAX];
    assert_true(lt_format_date(INT32_MIN, buf) < LT_FMT_DATE_MAX);
    assert_true(lt_format_date(INT32_MAX, buf) < LT_FMT_DATE_MAX);
}

/* Every day from 0000-01-01 to 9999-12-31 reads as printf's %04d form. */
static void dates_against_printf(void **state)
{
    (void)state;
    int32_t first = lt_days_from_civil(0, 1, 1), last = lt_days_from_civil(9999, 12, 31);
    for (int32_t days = first; days <= last; days++) {
        int y, m, d;
        lt_civil_from_days(days, &y, &m, &d);
        char want[32], got[LT_FMT_DATE_MAX];
        snprintf(want, sizeof want, "%04d-%02d-%02d", y, m, d);
        size_t n = lt_format_date(days, got);
        if (strcmp(got, want) != 0 || n != strlen(want))
            fail_msg("day %" PRId32 ": %s, want %s", days, got, want);
    }
}

static void check_time(int64_t usec, int scale, const char *want)
{
    char buf[LT_FMT_TIME_MAX];
    memset(buf, 'x', sizeof buf);
    size_t n = lt_format_time(usec, scale, buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void times(void **state)
{
    (void)state;
    int64_t t = (12 * 3600 + 34 * 60 + 56) * USEC + 120300;
    const char *by_scale[10] = {"12:34:56",      "12:34:56.1",    "12:34:56.12",
                                "12:34:56.12",   "12:34:56.1203", "12:34:56.1203",
                                "12:34:56.1203", "12:34:56.1203", "12:34:56.1203",
                                "12:34:56.1203"};
    for (int scale = 0; scale <= 9; scale++)
        check_time(t, scale, by_scale[scale]);
    check_time(0, 6, "00:00:00");
    check_time(0, 0, "00:00:00");
    check_time(5 * USEC + 500000, 6, "00:00:05.5");
    check_time(5 * USEC + 1, 6, "00:00:05.000001");
    check_time(5 * USEC + 1, 5, "00:00:05");          /* cut, never rounded */
    check_time(5 * USEC + 999999, 3, "00:00:05.999");
    check_time(86399 * USEC + 999999, 6, "23:59:59.999999");
    /* Durations: hours past 23, past 99, and negative differences. */
    check_time(24 * 3600 * USEC, 6, "24:00:00");
    check_time((99 * 3600 + 59 * 60 + 59) * USEC, 6, "99:59:59");
    check_time(100 * 3600 * USEC, 6, "100:00:00");
    check_time((123456 * INT64_C(3600) + 61) * USEC + 10, 6, "123456:01:01.00001");
    check_time(-(90 * 60) * USEC, 6, "-01:30:00");
    check_time(-(250 * 3600 * USEC + 250000), 6, "-250:00:00.25");
    check_time(INT64_MAX, 6, "2562047788:00:54.775807");
    check_time(INT64_MIN, 6, "-2562047788:00:54.775808");
    char buf[LT_FMT_TIME_MAX];
    assert_true(lt_format_time(INT64_MIN, 6, buf) < LT_FMT_TIME_MAX);
}

/* Times of day every 7.3 seconds and odd fractions against printf. */
static void times_against_printf(void **state)
{
    (void)state;
    for (int64_t usec = 0; usec < 86400 * USEC; usec += 7 * USEC + 300017) {
        int h, mi, s, us;
        lt_time_split(usec, &h, &mi, &s, &us);
        char want[48], got[LT_FMT_TIME_MAX];
        int n = snprintf(want, sizeof want, "%02d:%02d:%02d.%06d", h, mi, s, us);
        while (want[n - 1] == '0')
            want[--n] = '\0';
        if (want[n - 1] == '.')
            want[--n] = '\0';
        lt_format_time(usec, 6, got);
        if (strcmp(got, want) != 0)
            fail_msg("%" PRId64 ": %s, want %s", usec, got, want);
    }
}

static void check_timestamp(int64_t ts, int scale, const char *want)
{
    char buf[LT_FMT_TIMESTAMP_MAX];
    memset(buf, 'x', sizeof buf);
    size_t n = lt_format_timestamp(ts, scale, buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void timestamps(void **state)
{
    (void)state;
    int64_t day = LT_USEC_PER_DAY;
    check_timestamp(0, 6, "1970-01-01 00:00:00");
    check_timestamp(-1, 6, "1969-12-31 23:59:59.999999");
    check_timestamp(-1, 3, "1969-12-31 23:59:59.999");
    check_timestamp(-1, 0, "1969-12-31 23:59:59");
    check_timestamp(-day / 2, 6, "1969-12-31 12:00:00");
    int64_t last = lt_days_from_civil(9999, 12, 31) * day + day - 1;
    check_timestamp(last, 6, "9999-12-31 23:59:59.999999");
    check_timestamp(last + 1, 6, "10000-01-01 00:00:00");
    check_timestamp(lt_days_from_civil(1, 1, 1) * day + 1000, 6, "0001-01-01 00:00:00.001");
    check_timestamp(lt_days_from_civil(-1, 6, 15) * day + 3600 * USEC, 6, "-1-06-15 01:00:00");
    char buf[LT_FMT_TIMESTAMP_MAX];
    assert_true(lt_format_timestamp(INT64_MIN, 6, buf) < LT_FMT_TIMESTAMP_MAX);
    assert_true(lt_format_timestamp(INT64_MAX, 6, buf) < LT_FMT_TIMESTAMP_MAX);
}

static void guids(void **state)
{
    (void)state;
    lt_guid g = {0x0123ABCDu, 0x4567, 0x89EF, {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF}};
    char buf[LT_FMT_GUID_MAX];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(lt_format_guid(&g, false, buf), 36);
    assert_string_equal(buf, "0123ABCD-4567-89EF-0123-456789ABCDEF");
    memset(buf, 'x', sizeof buf);
    assert_int_equal(lt_format_guid(&g, true, buf), 38);
    assert_string_equal(buf, "{0123ABCD-4567-89EF-0123-456789ABCDEF}");
    lt_guid zero = {0, 0, 0, {0}};
    lt_format_guid(&zero, true, buf);
    assert_string_equal(buf, "{00000000-0000-0000-0000-000000000000}");
    lt_guid ones = {0xFFFFFFFFu, 0xFFFF, 0xFFFF, {255, 255, 255, 255, 255, 255, 255, 255}};
    lt_format_guid(&ones, false, buf);
    assert_string_equal(buf, "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dates),
        cmocka_unit_test(dates_against_printf),
        cmocka_unit_test(times),
        cmocka_unit_test(times_against_printf),
        cmocka_unit_test(timestamps),
        cmocka_unit_test(guids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
