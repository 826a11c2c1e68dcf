/*
** datetime.c — civil calendar <-> day numbers (Howard Hinnant's algorithm).
*/
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
