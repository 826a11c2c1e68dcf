/*
** numfmt.h — numbers as text: the shortest decimal form of a double that
** reads back as the same double, integers and scaled 128-bit decimals.
**
** Every function here is deterministic and locale-independent: the decimal
** point is always '.', whatever LC_NUMERIC says, and nothing allocates.
** The driver (character conversions of SQLGetData, CAST to text) and the
** workbook readers (Excel's General rendering) share these routines, so one
** value has one text everywhere.
*/
#ifndef LT_NUMFMT_H
#define LT_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Buffer sizes, terminating NUL included. */
#define LT_FMT_DOUBLE_MAX 32   /* "-1.2345678901234567e-308" and the like */
#define LT_FMT_INT64_MAX 24    /* "-9223372036854775808" */
#define LT_FMT_DECIMAL_MAX 84  /* 39 digits, or a scale up to 80, sign, point */

/*
** The shortest digits that read back as |v| (v finite and not zero): at
** most 17 digits, no trailing zeros, written to digits[] (not terminated).
** *exp10 is the power of ten of the first digit, so |v| reads back from
** "d.ddd" "e" exp10.  Among equally short candidates the one closest to
** |v| is chosen (even digit on a tie).  Returns the number of digits.
*/
int lt_double_digits(double v, char digits[17], int *exp10);

/* The same for a single-precision value: at most 9 digits. */
int lt_float_digits(float v, char digits[9], int *exp10);

/*
** Lays out digits like printf's %g whose precision is `precision`: the
** plain form "123.45", "0.00012" when -4 <= exp10 < precision, else
** "1.2345e+20", "1e-07" (at least two exponent digits, a sign always).
** No trailing zeros, no trailing point.  buf >= LT_FMT_DOUBLE_MAX; returns
** the length, buf is terminated.
*/
size_t lt_format_digits(bool negative, const char *digits, int n, int exp10, int precision,
                        char *buf);

/*
** A double as the driver shows it: integral values below 10^15 as integers,
** any other finite value as its shortest round-trip digits laid out like
** %g with the precision those digits need (at least 15, so 1e+15, 0.0001,
** 1e-05, 1.5e+300, 2^53 = 9007199254740992); "0" for both zeros, "NaN",
** "Inf", "-Inf".  buf >= LT_FMT_DOUBLE_MAX; returns the length.
*/
size_t lt_format_double(double v, char *buf);

/* The same for a REAL (single precision) value: %g with at least 6. */
size_t lt_format_float(float v, char *buf);

/* Decimal integers, two digits at a time.  buf >= LT_FMT_INT64_MAX. */
size_t lt_format_int64(int64_t v, char *buf);
size_t lt_format_uint64(uint64_t v, char *buf);

/*
** An exact decimal v / 10^scale: "12.50", "-0.05", "3" (scale <= 0 prints
** the integer v).  Scales above 80 are cut to 80.  buf >=
** LT_FMT_DECIMAL_MAX; returns the length.
*/
size_t lt_format_decimal(__int128 v, int scale, char *buf);

#endif
