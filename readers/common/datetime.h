/*
** datetime.h — calendar arithmetic shared by readers, engine and driver.
**
** Dates are days since 1970-01-01 in the proleptic Gregorian calendar;
** timestamps are microseconds since 1970-01-01 00:00:00.
*/
#ifndef LT_DATETIME_H
#define LT_DATETIME_H

#include <stdbool.h>
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

#endif /* LT_DATETIME_H */
