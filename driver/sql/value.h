/*
** value.h — single values: reading numbers and dates from text, decimal
** arithmetic helpers, and converting one value to another type.
**
** The parser reads its numeric literals with sql_parse_number, and a text
** constant compared with a number is read by the same function, so a
** literal and a text constant mean the same number.
*/
#ifndef SQL_VALUE_H
#define SQL_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../readers/reader.h"
#include "ast.h"

#define SQL_DEC_MAX_DIGITS 38

/* The dates the engine computes: 0001-01-01 .. 9999-12-31 as days since
** 1970-01-01 (beyond them date arithmetic is 22008). */
#define SQL_DAYS_MIN (-719162)
#define SQL_DAYS_MAX 2932896

/* 10^n for 0 <= n <= 38. */
lt_int128 sql_pow10(int n);
/* The largest magnitude a DECIMAL holds: 10^38 - 1. */
#define SQL_DEC_MAX (sql_pow10(38) - 1)

/* Digits in |m| (1 for 0). */
uint32_t sql_decimal_digits(lt_int128 m);
double sql_decimal_to_double(lt_int128 m, int scale);
/* m at scale `from` expressed at scale `to` (0..38).  Going up fails (-1)
** when the result exceeds 38 digits; going down rounds half away from
** zero. */
int sql_decimal_rescale(lt_int128 m, int from, int to, lt_int128 *out);
/* m at scale `from` rescaled up to `to`, saturating instead of failing:
** right for comparisons, where a value too large to rescale is larger than
** anything of the other operand. */
lt_int128 sql_decimal_rescale_sat(lt_int128 m, int from, int to);

/* A number written as text: optional blanks and sign, digits with an
** optional point, an optional exponent.  Integers that fit are INT64; other
** numbers without exponent and with at most 38 digits are DECIMAL with the
** written scale; the rest DOUBLE.  False when the text is not a number. */
bool sql_parse_number(const char *s, size_t len, lt_value *out);
/* 'YYYY-MM-DD' (blanks around allowed). */
bool sql_parse_date(const char *s, size_t len, int32_t *days);
/* 'HH:MM[:SS[.fraction]]' */
bool sql_parse_time(const char *s, size_t len, int64_t *usec);
/* 'YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]]' */
bool sql_parse_timestamp(const char *s, size_t len, int64_t *usec);
/* 'true'/'false', 't'/'f', 'yes'/'no', 'y'/'n', 'on'/'off', '1'/'0'. */
bool sql_parse_bool(const char *s, size_t len, bool *out);
/* 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', braces optional. */
bool sql_parse_guid(const char *s, size_t len, lt_guid *out);

/* The name a message uses for a type: "INT64", "TEXT" ... */
const char *sql_type_name(lt_type t);

/* Convert one value to `to` (DECIMAL at `scale`).  Text results point into
** the input or into `arena`.  Errors: 22018 text that is not a value of the
** type, 22007 a bad date or time, 22003 out of range, 07006 a conversion
** that does not exist. */
int sql_convert_value(const lt_value *in, lt_type to, int16_t scale,
                      lt_value *out, lt_error *err);

/* cast.c: the SQL type names CAST and CONVERT accept (SQL_ prefix
** optional: SQL_INTEGER, SQL_TYPE_DATE). */
enum {
    SQL_TP_NONE = 0,   /* no parameters */
    SQL_TP_LENGTH,     /* (n): characters or bytes */
    SQL_TP_PRECISION,  /* (p[, s]) */
    SQL_TP_FLOAT,      /* (p): binary digits, <= 24 is REAL */
    SQL_TP_FRACTION    /* (p): fraction-of-second digits */
};
typedef struct sql_type_spec {
    const char *name;        /* "CHARACTER VARYING": words one blank apart */
    lt_type type;
    uint32_t size;           /* INT64: 3, 5, 10, 19 name the range; TEXT 0: no length */
    int16_t scale;
    uint8_t params;          /* SQL_TP_* */
    bool pad;                /* CHAR(n): blanks up to n characters */
} sql_type_spec;
const sql_type_spec *sql_type_lookup(const char *name, size_t len);
/* Whether CAST turns `from` into `to` at all (values may still fail). */
bool sql_cast_allowed(lt_type from, lt_type to);
/* Convert as CAST does to `to` (type, size, scale); text results point
** into the input or into `arena`. */
int sql_cast_value(const lt_value *in, const sql_type *to, bool pad, lt_arena *arena,
                   lt_value *out, lt_error *err);
/* Any value as text (as SQL_C_CHAR shows it), in `arena`. */
int sql_to_text(const lt_value *in, lt_arena *arena, lt_value *out, lt_error *err);
/* The text of a value that is neither text nor binary into `buf` (at
** least SQL_FORMAT_MAX bytes, not terminated); returns its length. */
#define SQL_FORMAT_MAX 96
size_t sql_format_value(const lt_value *v, char *buf);

/* Width in bytes of one value of `t` in a vector. */
size_t sql_type_width(lt_type t);

#endif /* SQL_VALUE_H */
