/*
** func_datetime.c — the date and time functions (func.h): ODBC's set
** (CURDATE, CURTIME, NOW, CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP,
** YEAR, MONTH, DAYOFMONTH, DAYOFWEEK, DAYOFYEAR, HOUR, MINUTE, SECOND,
** WEEK, QUARTER, MONTHNAME, DAYNAME, EXTRACT, TIMESTAMPADD, TIMESTAMPDIFF)
** and a few common names (DAY, LOCALTIME, LOCALTIMESTAMP).
**
** The clock is read once per execution (sql_exec.now, local time): every
** row of a statement sees the same CURRENT_TIMESTAMP.  Date parts come
** from DATE or TIMESTAMP arguments (a DATE is read as its midnight), time
** parts from TIME or TIMESTAMP.  DAYOFWEEK counts from Sunday = 1; WEEK is
** the week of the year whose first week holds January 1st and whose weeks
** start on Sunday (as SQL Server's DATEPART(week)).  Month and day names
** are English.
**
** TIMESTAMPADD(unit, n, ts) adds n units; adding months keeps the day
** unless the month is shorter (Jan 31 + 1 month = Feb 28/29).
** TIMESTAMPDIFF(unit, a, b) counts the whole units from a to b, truncated
** toward zero (as MySQL does): months count only when the day and time of
** b have reached those of a.  ODBC's SQL_TSI_FRAC_SECOND is a billionth of
** a second.
*/
#include "exec.h"
#include "func.h"
#include "value.h"

#include <string.h>
#include <time.h>

#include "../../readers/common/datetime.h"

#define USEC INT64_C(1000000)

int64_t sql_local_now(void)
{
    struct timespec ts;
    struct tm tm;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    time_t secs = ts.tv_sec;
    /* The one OS-dependent call here (platform.h has no clock yet). */
#ifdef _WIN32
    if (localtime_s(&tm, &secs) != 0)
        return 0;
#else
    if (localtime_r(&secs, &tm) == NULL)
        return 0;
#endif
    int64_t days = lt_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    return (days * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * USEC +
           ts.tv_nsec / 1000;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* Row `row` of argument a (TIMESTAMP, TIME or DATE vector) as days and
** microseconds of the day. */
static void split(const lt_vector *v, uint32_t row, int32_t *days, int64_t *usec)
{
    switch (v->type) {
    case LT_DATE:
        *days = v->v.date[row];
        *usec = 0;
        return;
    case LT_TIME:
        *days = 0;
        *usec = v->v.i64[row];
        return;
    default:
        lt_timestamp_split(v->v.i64[row], days, usec);
        return;
    }
}

/* 0 = Sunday. */
static int weekday(int32_t days)
{
    return (int)(((int64_t)days % 7 + 7 + 4) % 7);
}

static int day_of_year(int32_t days)
{
    int y, m, d;
    lt_civil_from_days(days, &y, &m, &d);
    return days - lt_days_from_civil(y, 1, 1) + 1;
}

/* The value of date or time field `unit` at (days, usec). */
static int64_t field(sql_unit unit, int32_t days, int64_t usec)
{
    int y, m, d;
    lt_civil_from_days(days, &y, &m, &d);
    switch (unit) {
    case SQL_UNIT_YEAR:        return y;
    case SQL_UNIT_QUARTER:     return (m - 1) / 3 + 1;
    case SQL_UNIT_MONTH:       return m;
    case SQL_UNIT_DAY:         return d;
    case SQL_UNIT_DAYOFYEAR:   return day_of_year(days);
    case SQL_UNIT_DAYOFWEEK:   return weekday(days) + 1;
    case SQL_UNIT_WEEK:
        return (day_of_year(days) - 1 + weekday(lt_days_from_civil(y, 1, 1))) / 7 + 1;
    case SQL_UNIT_HOUR:        return usec / (3600 * USEC);
    case SQL_UNIT_MINUTE:      return usec / (60 * USEC) % 60;
    case SQL_UNIT_SECOND:      return usec / USEC % 60;
    case SQL_UNIT_MILLISECOND: return usec / 1000 % 1000;
    case SQL_UNIT_MICROSECOND: return usec % USEC;
    case SQL_UNIT_FRAC_SECOND: return usec % USEC * 1000;
    }
    return 0;
}

static int part(sql_fcall *c, sql_unit unit, uint32_t arg)
{
    SQL_EACH_ROW(c, row) {
        int32_t days;
        int64_t usec;
        split(c->args[arg], row, &days, &usec);
        c->out->v.i64[row] = field(unit, days, usec);
    }
    return 0;
}

static int fn_year(sql_fcall *c) { return part(c, SQL_UNIT_YEAR, 0); }
static int fn_quarter(sql_fcall *c) { return part(c, SQL_UNIT_QUARTER, 0); }
static int fn_month(sql_fcall *c) { return part(c, SQL_UNIT_MONTH, 0); }
static int fn_dayofmonth(sql_fcall *c) { return part(c, SQL_UNIT_DAY, 0); }
static int fn_dayofweek(sql_fcall *c) { return part(c, SQL_UNIT_DAYOFWEEK, 0); }
static int fn_dayofyear(sql_fcall *c) { return part(c, SQL_UNIT_DAYOFYEAR, 0); }
static int fn_week(sql_fcall *c) { return part(c, SQL_UNIT_WEEK, 0); }
static int fn_hour(sql_fcall *c) { return part(c, SQL_UNIT_HOUR, 0); }
static int fn_minute(sql_fcall *c) { return part(c, SQL_UNIT_MINUTE, 0); }
static int fn_second(sql_fcall *c) { return part(c, SQL_UNIT_SECOND, 0); }

/* EXTRACT(field FROM x): the binder made the field an INT64 constant. */
static int fn_extract(sql_fcall *c)
{
    const lt_vector *u = c->args[0];
    if (c->n == 0)
        return 0;
    sql_unit unit = (sql_unit)u->v.i64[c->sel[0]];
    if (c->args[1]->type == LT_TIME && unit != SQL_UNIT_HOUR && unit != SQL_UNIT_MINUTE &&
        unit != SQL_UNIT_SECOND && unit != SQL_UNIT_MILLISECOND && unit != SQL_UNIT_MICROSECOND &&
        unit != SQL_UNIT_FRAC_SECOND)
        return lt_error_set(c->err, "42000", "EXTRACT of a date field from a TIME");
    return part(c, unit, 1);
}

static int name_of(sql_fcall *c, bool month)
{
    static const char *const months[] = {"January", "February", "March", "April", "May", "June",
                                         "July", "August", "September", "October", "November",
                                         "December"};
    static const char *const days[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                       "Friday", "Saturday"};
    SQL_EACH_ROW(c, row) {
        int32_t d;
        int64_t usec;
        split(c->args[0], row, &d, &usec);
        const char *name = month ? months[field(SQL_UNIT_MONTH, d, 0) - 1] : days[weekday(d)];
        c->out->v.bytes[row].ptr = name;
        c->out->v.bytes[row].len = (uint32_t)strlen(name);
    }
    return 0;
}

static int fn_monthname(sql_fcall *c) { return name_of(c, true); }
static int fn_dayname(sql_fcall *c) { return name_of(c, false); }

/* The execution's clock as a DATE, TIME(0) or TIMESTAMP(6). */
static int now_as(sql_fcall *c, lt_type type)
{
    int32_t days;
    int64_t usec;
    lt_timestamp_split(c->ex->now, &days, &usec);
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t row = c->sel[i];
        c->out->nulls[row] = 0;
        if (type == LT_DATE)
            c->out->v.date[row] = days;
        else if (type == LT_TIME)
            c->out->v.i64[row] = usec - usec % USEC;
        else
            c->out->v.i64[row] = c->ex->now;
    }
    return 0;
}

static int fn_curdate(sql_fcall *c) { return now_as(c, LT_DATE); }
static int fn_curtime(sql_fcall *c) { return now_as(c, LT_TIME); }
static int fn_now(sql_fcall *c) { return now_as(c, LT_TIMESTAMP); }

/* Days and microseconds of a timestamp within 0001-01-01 .. 9999-12-31. */
#define MIN_DAYS SQL_DAYS_MIN
#define MAX_DAYS SQL_DAYS_MAX

static int overflow(sql_fcall *c)
{
    return lt_error_set(c->err, "22008", "%s: the result is outside the years 1 to 9999",
                        c->e->fn->name);
}

static int add_months(sql_fcall *c, int64_t ts, int64_t months, int64_t *out)
{
    int32_t days;
    int64_t usec;
    int y, m, d;
    lt_timestamp_split(ts, &days, &usec);
    lt_civil_from_days(days, &y, &m, &d);
    if (months > 120000 || months < -120000)
        return overflow(c);
    int64_t total = (int64_t)y * 12 + (m - 1) + months;
    int64_t ny = floor_div(total, 12), nm = total - ny * 12 + 1;
    if (ny < 1 || ny > 9999)
        return overflow(c);
    int last = 31;
    while (last > 28 && !lt_date_valid((int)ny, (int)nm, last))
        last--;
    *out = (int64_t)lt_days_from_civil((int)ny, (int)nm, d < last ? d : last) * LT_USEC_PER_DAY +
           usec;
    return 0;
}

/* Microseconds in a unit of fixed length; 0 for months and years. */
static int64_t unit_usec(sql_unit unit)
{
    switch (unit) {
    case SQL_UNIT_MICROSECOND: return 1;
    case SQL_UNIT_MILLISECOND: return 1000;
    case SQL_UNIT_SECOND:      return USEC;
    case SQL_UNIT_MINUTE:      return 60 * USEC;
    case SQL_UNIT_HOUR:        return 3600 * USEC;
    case SQL_UNIT_DAY:
    case SQL_UNIT_DAYOFYEAR:
    case SQL_UNIT_DAYOFWEEK:   return LT_USEC_PER_DAY;
    case SQL_UNIT_WEEK:        return 7 * LT_USEC_PER_DAY;
    default:                   return 0;
    }
}

static int fn_timestampadd(sql_fcall *c)
{
    if (c->n == 0)
        return 0;
    sql_unit unit = (sql_unit)c->args[0]->v.i64[c->sel[0]];
    const lt_vector *ts = c->args[2];
    SQL_EACH_ROW(c, row) {
        int64_t n = c->args[1]->v.i64[row], base = ts->v.i64[row], r = 0;
        if (unit == SQL_UNIT_MONTH || unit == SQL_UNIT_QUARTER || unit == SQL_UNIT_YEAR) {
            int64_t per = unit == SQL_UNIT_MONTH ? 1 : unit == SQL_UNIT_QUARTER ? 3 : 12;
            /* checked before multiplying: a signed overflow is undefined */
            if (n > INT64_MAX / per || n < INT64_MIN / per ||
                add_months(c, base, n * per, &r) != 0)
                return overflow(c);
        } else {
            lt_int128 delta = unit == SQL_UNIT_FRAC_SECOND ? (lt_int128)n / 1000
                                                           : (lt_int128)n * unit_usec(unit);
            lt_int128 sum = (lt_int128)base + delta;
            if (sum < (lt_int128)MIN_DAYS * LT_USEC_PER_DAY ||
                sum >= (lt_int128)(MAX_DAYS + 1) * LT_USEC_PER_DAY)
                return overflow(c);
            r = (int64_t)sum;
        }
        c->out->v.i64[row] = r;
    }
    return 0;
}

/* Whole months from a to b, truncated toward zero. */
static int64_t months_between(int64_t a, int64_t b)
{
    int32_t da, db;
    int64_t ua, ub;
    int ya, ma, dya, yb, mb, dyb;
    lt_timestamp_split(a, &da, &ua);
    lt_timestamp_split(b, &db, &ub);
    lt_civil_from_days(da, &ya, &ma, &dya);
    lt_civil_from_days(db, &yb, &mb, &dyb);
    int64_t months = ((int64_t)yb - ya) * 12 + (mb - ma);
    /* The last month counts only once b's day and time reach a's. */
    int64_t ka = (int64_t)dya * LT_USEC_PER_DAY + ua, kb = (int64_t)dyb * LT_USEC_PER_DAY + ub;
    if (months > 0 && kb < ka)
        months--;
    else if (months < 0 && kb > ka)
        months++;
    return months;
}

static int fn_timestampdiff(sql_fcall *c)
{
    if (c->n == 0)
        return 0;
    sql_unit unit = (sql_unit)c->args[0]->v.i64[c->sel[0]];
    SQL_EACH_ROW(c, row) {
        int64_t a = c->args[1]->v.i64[row], b = c->args[2]->v.i64[row], r;
        if (unit == SQL_UNIT_MONTH || unit == SQL_UNIT_QUARTER || unit == SQL_UNIT_YEAR) {
            int64_t m = months_between(a, b);
            r = unit == SQL_UNIT_MONTH ? m : unit == SQL_UNIT_QUARTER ? m / 3 : m / 12;
        } else {
            lt_int128 d = (lt_int128)b - a;
            if (unit == SQL_UNIT_FRAC_SECOND)
                d *= 1000;
            else
                d /= unit_usec(unit);
            if (d > INT64_MAX || d < INT64_MIN)
                return lt_error_set(c->err, "22003", "numeric value out of range in TIMESTAMPDIFF");
            r = (int64_t)d;
        }
        c->out->v.i64[row] = r;
    }
    return 0;
}

#define DT SQL_ARG_DATETIME
#define TM SQL_ARG_TIME
#define U SQL_ARG_UNIT
#define I SQL_ARG_INT
#define FN(name, min, max, a0, a1, a2, result, size, eval) \
    {name, min, max, SQL_AGG_NONE, {a0, a1, a2, a2}, result, size, eval, false}

const sql_func sql_funcs_datetime[] = {
    FN("CURDATE", 0, 0, DT, DT, DT, SQL_RES_DATE, 0, fn_curdate),
    FN("CURRENT_DATE", 0, 0, DT, DT, DT, SQL_RES_DATE, 0, fn_curdate),
    FN("CURTIME", 0, 0, DT, DT, DT, SQL_RES_TIME, 0, fn_curtime),
    FN("CURRENT_TIME", 0, 0, DT, DT, DT, SQL_RES_TIME, 0, fn_curtime),
    FN("LOCALTIME", 0, 0, DT, DT, DT, SQL_RES_TIME, 0, fn_curtime),
    FN("NOW", 0, 0, DT, DT, DT, SQL_RES_TIMESTAMP, 6, fn_now),
    FN("CURRENT_TIMESTAMP", 0, 0, DT, DT, DT, SQL_RES_TIMESTAMP, 6, fn_now),
    FN("LOCALTIMESTAMP", 0, 0, DT, DT, DT, SQL_RES_TIMESTAMP, 6, fn_now),
    FN("YEAR", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_year),
    FN("QUARTER", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_quarter),
    FN("MONTH", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_month),
    FN("WEEK", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_week),
    FN("DAYOFMONTH", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_dayofmonth),
    FN("DAY", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_dayofmonth),
    FN("DAYOFWEEK", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_dayofweek),
    FN("DAYOFYEAR", 1, 1, DT, DT, DT, SQL_RES_INT64, 10, fn_dayofyear),
    FN("HOUR", 1, 1, TM, TM, TM, SQL_RES_INT64, 10, fn_hour),
    FN("MINUTE", 1, 1, TM, TM, TM, SQL_RES_INT64, 10, fn_minute),
    FN("SECOND", 1, 1, TM, TM, TM, SQL_RES_INT64, 10, fn_second),
    FN("MONTHNAME", 1, 1, DT, DT, DT, SQL_RES_TEXT, 9, fn_monthname),
    FN("DAYNAME", 1, 1, DT, DT, DT, SQL_RES_TEXT, 9, fn_dayname),
    FN("EXTRACT", 2, 2, U, TM, TM, SQL_RES_INT64, 0, fn_extract),
    FN("TIMESTAMPADD", 3, 3, U, I, DT, SQL_RES_TIMESTAMP, 6, fn_timestampadd),
    FN("TIMESTAMPDIFF", 3, 3, U, DT, DT, SQL_RES_INT64, 0, fn_timestampdiff),
};
const uint32_t sql_funcs_datetime_count = sizeof sql_funcs_datetime / sizeof sql_funcs_datetime[0];
