/*
** datetime.c — civil calendar <-> day numbers (Howard Hinnant's algorithm),
** and dates, times and timestamps as text.
*/
#include <stdio.h>
#include <string.h>

#include "datetime.h"

bool lt_date_valid(int year, int month, int day)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1)
        return false;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int limit = mdays[month - 1] + (month == 2 && leap);
    return day <= limit;
}

int32_t lt_days_from_civil(int year, int month, int day)
{
    int y = year - (month <= 2);
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void lt_civil_from_days(int32_t days, int *year, int *month, int *day)
{
    int64_t z = (int64_t)days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    *year = (int)(y + (m <= 2));
    *month = (int)m;
    *day = (int)d;
}

int32_t lt_days_from_julian(int64_t jdn)
{
    /* JDN 2440588 is 1970-01-01. */
    return (int32_t)(jdn - 2440588);
}

void lt_time_split(int64_t usec, int *hour, int *minute, int *second,
                   int *microsecond)
{
    *microsecond = (int)(usec % 1000000);
    int64_t s = usec / 1000000;
    *second = (int)(s % 60);
    *minute = (int)(s / 60 % 60);
    *hour = (int)(s / 3600);
}

void lt_timestamp_split(int64_t ts, int32_t *days, int64_t *usec_of_day)
{
    int64_t d = ts / LT_USEC_PER_DAY;
    int64_t r = ts % LT_USEC_PER_DAY;
    if (r < 0) {
        r += LT_USEC_PER_DAY;
        d -= 1;
    }
    *days = (int32_t)d;
    *usec_of_day = r;
}

/* Two digits of v (0..99). */
static char *put2(char *p, int v)
{
    p[0] = (char)('0' + v / 10 % 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

size_t lt_format_date(int32_t days, char *buf)
{
    int y, m, d;
    lt_civil_from_days(days, &y, &m, &d);
    char *p = buf;
    if (y >= 0 && y <= 9999) {
        p = put2(p, y / 100);
        p = put2(p, y % 100);
    } else {
        p += snprintf(p, 16, "%d", y);
    }
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    p = put2(p, d);
    *p = '\0';
    return (size_t)(p - buf);
}

size_t lt_format_time(int64_t usec, int scale, char *buf)
{
    char *p = buf;
    /* The magnitude as unsigned: -INT64_MIN does not fit an int64_t. */
    uint64_t mag = (uint64_t)usec;
    if (usec < 0) {
        *p++ = '-';
        mag = 0 - mag;
    }
    uint64_t secs = mag / 1000000;
    int frac = (int)(mag % 1000000);
    uint64_t h = secs / 3600;
    if (h < 100)
        p = put2(p, (int)h);
    else
        p += snprintf(p, 24, "%llu", (unsigned long long)h);
    *p++ = ':';
    p = put2(p, (int)(secs / 60 % 60));
    *p++ = ':';
    p = put2(p, (int)(secs % 60));
    if (scale > 6)
        scale = 6;
    if (scale > 0) {
        char digits[6];
        for (int i = 5; i >= 0; i--, frac /= 10)
            digits[i] = (char)('0' + frac % 10);
        int n = scale;
        while (n > 0 && digits[n - 1] == '0')
            n--;
        if (n > 0) {
            *p++ = '.';
            memcpy(p, digits, (size_t)n);
            p += n;
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t lt_format_timestamp(int64_t ts, int scale, char *buf)
{
    int32_t days;
    int64_t usec;
    lt_timestamp_split(ts, &days, &usec);
    size_t n = lt_format_date(days, buf);
    buf[n++] = ' ';
    return n + lt_format_time(usec, scale, buf + n);
}
