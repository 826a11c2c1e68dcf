/*
** datetime.h — calendar arithmetic shared by readers, engine and driver,
** and the one text form of dates, times and timestamps.
**
** Dates are days since 1970-01-01 in the proleptic Gregorian calendar;
** timestamps are microseconds since 1970-01-01 00:00:00.
*/
#ifndef LT_DATETIME_H
#define LT_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_USEC_PER_DAY INT64_C(86400000000)

bool lt_date_valid(int year, int month, int day);
/* Days since 1970-01-01 for a valid date. */
int32_t lt_days_from_civil(int year, int month, int day);
void lt_civil_from_days(int32_t days, int *year, int *month, int *day);
/* Julian day number (noon-based integer, as dBASE/FoxPro store it). */
int32_t lt_days_from_julian(int64_t jdn);
/* Split microseconds since midnight. */
void lt_time_split(int64_t usec, int *hour, int *minute, int *second,
                   int *microsecond);
/* Split a timestamp into days and microseconds of the day (floor). */
void lt_timestamp_split(int64_t ts, int32_t *days, int64_t *usec_of_day);

/* Buffer sizes for the formatters below, terminating NUL included. */
#define LT_FMT_DATE_MAX 16       /* "-5877641-06-23" */
#define LT_FMT_TIME_MAX 32       /* "-2562047788:00:54.775807" */
#define LT_FMT_TIMESTAMP_MAX 48  /* a date, ' ', a time of day */

/*
** Text as SQL_C_CHAR shows it (the engine's CAST to text and the driver's
** conversions share these, so a value has one text everywhere).  Each
** writes into buf (at least the matching LT_FMT_*_MAX bytes), terminates
** it and returns the length.
**
** lt_format_date: "YYYY-MM-DD"; a year outside 0..9999 is printed with its
** sign and digits as they are ("-1-03-01", "10000-01-01").
** lt_format_time: "HH:MM:SS[.f...]" from microseconds: a negative value (a
** difference of times) gets a '-', hours past 99 all their digits; the
** fraction shows at most `scale` digits (0..6; more count as 6), cut, not
** rounded, without trailing zeros and without the point when none remain.
** lt_format_timestamp: the date, a space, the time of day (floor split).
*/
size_t lt_format_date(int32_t days, char *buf);
size_t lt_format_time(int64_t usec, int scale, char *buf);
size_t lt_format_timestamp(int64_t ts, int scale, char *buf);

#endif /* LT_DATETIME_H */
