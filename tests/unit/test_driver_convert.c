/*
** test_driver_convert.c — logical values to C types and C types to values
** (driver/convert.c), and the SQL type mapping (driver/types.c).
**
** Expectations follow the ODBC reference, appendix D.  Wide-character
** expectations are written in code units for either width of SQLWCHAR
** (UTF-16 under unixODBC, which this test builds with; UTF-32 under iODBC).
*/
#include <locale.h>
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

#include "driver/convert.h"
#include "driver/types.h"
#include "readers/common/datetime.h"

#define UTF16 (sizeof(SQLWCHAR) == 2)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct result {
    SQLRETURN rc;
    const char *state;   /* "" when none */
    SQLLEN ind;
    lt_piece piece;
} result;

static lt_column column(lt_type type, uint32_t size, int16_t scale)
{
    lt_column c;
    memset(&c, 0, sizeof c);
    c.name = "c";
    c.type = type;
    c.size = size;
    c.scale = scale;
    c.nullable = true;
    c.type_name = "TEST";
    return c;
}

/* Convert with a fresh offset (or *offset for pieces). */
static result conv_at(const lt_value *v, const lt_column *col, SQLSMALLINT ctype,
                      void *buf, SQLLEN buflen, lt_piece piece)
{
    result r;
    lt_target t = {ctype, buf, buflen, &r.ind, 0, 0};
    const char *st = NULL;
    r.ind = -12345;
    r.piece = piece;
    r.rc = lt_convert_to_c(v, col, &t, &r.piece, &st);
    r.state = st ? st : "";
    return r;
}

static result conv(const lt_value *v, const lt_column *col, SQLSMALLINT ctype,
                   void *buf, SQLLEN buflen)
{
    return conv_at(v, col, ctype, buf, buflen, (lt_piece){0});
}

static lt_value int_value(int64_t i)
{
    lt_value v = {.type = LT_INT64, .u.i64 = i};
    return v;
}

static lt_value double_value(double d)
{
    lt_value v = {.type = LT_DOUBLE, .u.f64 = d};
    return v;
}

static lt_value dec_value(int64_t mant, int16_t scale)
{
    lt_value v = {.type = LT_DECIMAL, .scale = scale, .u.dec = mant};
    return v;
}

static lt_value text_value(const char *s)
{
    lt_value v = {.type = LT_TEXT};
    v.u.bytes.ptr = s;
    v.u.bytes.len = (uint32_t)strlen(s);
    return v;
}

static lt_value bin_value(const char *s, uint32_t len)
{
    lt_value v = {.type = LT_BINARY};
    v.u.bytes.ptr = s;
    v.u.bytes.len = len;
    return v;
}

static lt_value date_value(int y, int m, int d)
{
    lt_value v = {.type = LT_DATE, .u.date = lt_days_from_civil(y, m, d)};
    return v;
}

static int64_t usec_of(int h, int mi, int s, int us)
{
    return ((int64_t)h * 3600 + mi * 60 + s) * 1000000 + us;
}

static lt_value ts_value(int y, int m, int d, int h, int mi, int s, int us)
{
    lt_value v = {.type = LT_TIMESTAMP};
    v.u.i64 = (int64_t)lt_days_from_civil(y, m, d) * LT_USEC_PER_DAY +
              usec_of(h, mi, s, us);
    return v;
}

#define assert_ok_state(r) \
    do { assert_int_equal((r).rc, SQL_SUCCESS); assert_string_equal((r).state, ""); } while (0)
#define assert_info(r, st) \
    do { assert_int_equal((r).rc, SQL_SUCCESS_WITH_INFO); assert_string_equal((r).state, st); } while (0)
#define assert_error(r, st) \
    do { assert_int_equal((r).rc, SQL_ERROR); assert_string_equal((r).state, st); } while (0)

/* Compare SQLWCHAR text with ASCII/UTF-8 code points given as units. */
static void assert_wide(const SQLWCHAR *w, const uint32_t *units, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal((uint32_t)w[i], units[i]);
    assert_int_equal((uint32_t)w[n], 0);
}

static void assert_wide_ascii(const SQLWCHAR *w, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        assert_int_equal((uint32_t)w[i], (unsigned char)s[i]);
    assert_int_equal((uint32_t)w[n], 0);
}

/* Unit i of a SQLWCHAR buffer at any address. */
static uint32_t unit_at(const unsigned char *p, size_t i)
{
    SQLWCHAR w;
    memcpy(&w, p + i * sizeof w, sizeof w);
    return (uint32_t)w;
}

/* SQL_C_WCHAR into a misaligned buffer (a column-wise array with an odd
** BufferLength): pieces with a split pair, the owed low half, hex.  UBSan's
** alignment check fails this test if a store is a plain SQLWCHAR store. */
static void test_wchar_misaligned(void **state)
{
    (void)state;
    const size_t w = sizeof(SQLWCHAR);
    union {
        SQLWCHAR align;
        unsigned char bytes[8 * sizeof(SQLWCHAR) + 1];
    } mem;
    unsigned char *p = mem.bytes + 1;
    lt_column c = column(LT_TEXT, 10, 0);
    lt_value v = text_value("a\xF0\x9F\x98\x80" "b");   /* a U+1F600 b */

    result r = conv(&v, &c, SQL_C_WCHAR, p, (SQLLEN)(3 * w));
    assert_info(r, "01004");
    assert_int_equal(r.ind, (SQLLEN)((UTF16 ? 4 : 3) * w));
    assert_int_equal(unit_at(p, 0), 'a');
    assert_int_equal(unit_at(p, 1), UTF16 ? 0xD83Du : 0x1F600u);
    assert_int_equal(unit_at(p, 2), 0);
    r = conv_at(&v, &c, SQL_C_WCHAR, p, (SQLLEN)(3 * w), r.piece);
    assert_ok_state(r);
    assert_int_equal(r.ind, (SQLLEN)((UTF16 ? 2 : 1) * w));
    if (UTF16) {
        assert_int_equal(unit_at(p, 0), 0xDE00u);
        assert_int_equal(unit_at(p, 1), 'b');
        assert_int_equal(unit_at(p, 2), 0);
    } else {
        assert_int_equal(unit_at(p, 0), 'b');
        assert_int_equal(unit_at(p, 1), 0);
    }

    lt_column bc = column(LT_BINARY, 2, 0);
    lt_value b = bin_value("\x0A\x1B", 2);
    r = conv(&b, &bc, SQL_C_WCHAR, p, (SQLLEN)(8 * w));
    assert_ok_state(r);
    assert_int_equal(r.ind, (SQLLEN)(4 * w));
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(unit_at(p, i), (unsigned char)"0A1B"[i]);
    assert_int_equal(unit_at(p, 4), 0);

    lt_column ic = column(LT_INT64, 19, 0);
    lt_value iv = int_value(-42);
    r = conv(&iv, &ic, SQL_C_WCHAR, p, (SQLLEN)(8 * w));
    assert_ok_state(r);
    assert_int_equal(r.ind, (SQLLEN)(3 * w));
    assert_int_equal(unit_at(p, 0), '-');
    assert_int_equal(unit_at(p, 2), '2');
    assert_int_equal(unit_at(p, 3), 0);
}

/* Text as SQL_C_CHAR around the buffer's end: the whole-value shortcut
** stops exactly where put_char's truncation starts. */
static void test_text_char_boundaries(void **state)
{
    (void)state;
    char buf[8];
    lt_column c = column(LT_TEXT, 10, 0);
    lt_value v = text_value("abcdefg");          /* 7 bytes */

    memset(buf, 'x', sizeof buf);
    result r = conv(&v, &c, SQL_C_CHAR, buf, 8);
    assert_ok_state(r);
    assert_int_equal(r.ind, 7);
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(r.piece.offset, 7);
    r = conv_at(&v, &c, SQL_C_CHAR, buf, 8, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);

    r = conv(&v, &c, SQL_C_CHAR, buf, 7);
    assert_info(r, "01004");
    assert_int_equal(r.ind, 7);
    assert_string_equal(buf, "abcdef");
    r = conv_at(&v, &c, SQL_C_CHAR, buf, 7, r.piece);
    assert_ok_state(r);
    assert_int_equal(r.ind, 1);
    assert_string_equal(buf, "g");

    lt_value e = text_value("");
    e.u.bytes.ptr = NULL;                         /* an empty cell may have none */
    memset(buf, 'x', sizeof buf);
    r = conv(&e, &c, SQL_C_CHAR, buf, 1);
    assert_ok_state(r);
    assert_int_equal(r.ind, 0);
    assert_int_equal(buf[0], '\0');
    r = conv(&v, &c, SQL_C_CHAR, NULL, 0);        /* length only */
    assert_info(r, "01004");
    assert_int_equal(r.ind, 7);
}

/* ------------------------------------------------------------------------ */
/* SQL types                                                                 */
/* ------------------------------------------------------------------------ */

static void test_sqltype_mapping(void **state)
{
    (void)state;
    lt_sqltype st;
    struct {
        lt_type type;
        uint32_t size;
        int16_t scale;
        bool is_long;
        SQLSMALLINT concise;
        const char *name;
        SQLULEN column_size;
        SQLLEN octet;
        SQLLEN display;
    } cases[] = {
        {LT_BOOL, 1, 0, false, SQL_BIT, "BIT", 1, 1, 1},
        {LT_INT64, 3, 0, false, SQL_TINYINT, "TINYINT", 3, 1, 4},
        {LT_INT64, 5, 0, false, SQL_SMALLINT, "SMALLINT", 5, 2, 6},
        {LT_INT64, 10, 0, false, SQL_INTEGER, "INTEGER", 10, 4, 11},
        {LT_INT64, 19, 0, false, SQL_BIGINT, "BIGINT", 19, 8, 20},
        {LT_DOUBLE, 7, 0, false, SQL_REAL, "REAL", 7, 4, 14},
        {LT_DOUBLE, 15, 0, false, SQL_DOUBLE, "DOUBLE", 15, 8, 24},
        {LT_DECIMAL, 12, 2, false, SQL_DECIMAL, "DECIMAL", 12, 14, 14},
        {LT_TEXT, 40, 0, false, SQL_WVARCHAR, "WVARCHAR", 40,
         40 * (SQLLEN)sizeof(SQLWCHAR), 40},
        {LT_TEXT, 0, 0, true, SQL_WLONGVARCHAR, "WLONGVARCHAR", 1073741823,
         UTF16 ? 2147483646 : 2147483647, 1073741823},
        {LT_BINARY, 16, 0, false, SQL_VARBINARY, "VARBINARY", 16, 16, 32},
        {LT_BINARY, 0, 0, true, SQL_LONGVARBINARY, "LONGVARBINARY", 1073741823,
         1073741823, 2147483646},
        {LT_DATE, 10, 0, false, SQL_TYPE_DATE, "DATE", 10, 6, 10},
        {LT_TIME, 8, 0, false, SQL_TYPE_TIME, "TIME", 8, 6, 8},
        {LT_TIMESTAMP, 23, 3, false, SQL_TYPE_TIMESTAMP, "TIMESTAMP", 23, 16, 23},
        {LT_TIMESTAMP, 19, 0, false, SQL_TYPE_TIMESTAMP, "TIMESTAMP", 19, 16, 19},
        {LT_GUID, 36, 0, false, SQL_GUID, "GUID", 36, 16, 38},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        lt_column c = column(cases[i].type, cases[i].size, cases[i].scale);
        c.is_long = cases[i].is_long;
        lt_sqltype_of(&c, &st);
        assert_int_equal(st.concise, cases[i].concise);
        assert_string_equal(st.name, cases[i].name);
        assert_int_equal(st.column_size, cases[i].column_size);
        assert_int_equal(st.octet_length, cases[i].octet);
        assert_int_equal(st.display_size, cases[i].display);
    }
    lt_column ts = column(LT_TIMESTAMP, 26, 6);
    lt_sqltype_of(&ts, &st);
    assert_int_equal(st.concise, 93);
    assert_int_equal(st.verbose, SQL_DATETIME);
    assert_int_equal(st.datetime_code, SQL_CODE_TIMESTAMP);
    assert_int_equal(st.decimal_digits, 6);
    assert_true(st.has_scale);
    lt_column dec = column(LT_DECIMAL, 10, 4);
    lt_sqltype_of(&dec, &st);
    assert_int_equal(st.decimal_digits, 4);
    assert_int_equal(st.num_prec_radix, 10);
    assert_int_equal(st.unsigned_attr, SQL_FALSE);
    lt_column txt = column(LT_TEXT, 10, 0);
    lt_sqltype_of(&txt, &st);
    assert_false(st.has_scale);
    assert_int_equal(st.num_prec_radix, 0);
    assert_int_equal(st.unsigned_attr, SQL_TRUE);
    assert_int_equal(st.char_octet_length, 10 * (SQLLEN)sizeof(SQLWCHAR));
    assert_string_equal(st.literal_prefix, "'");

    assert_int_equal(lt_default_ctype(SQL_INTEGER), SQL_C_SLONG);
    assert_int_equal(lt_default_ctype(SQL_WVARCHAR), SQL_C_WCHAR);
    assert_int_equal(lt_default_ctype(SQL_DECIMAL), SQL_C_CHAR);
    assert_int_equal(lt_default_ctype(SQL_TYPE_TIMESTAMP), SQL_C_TYPE_TIMESTAMP);
    assert_int_equal(lt_default_ctype(SQL_TIMESTAMP), SQL_C_TIMESTAMP);
    assert_int_equal(lt_sqltype_for_version(SQL_TYPE_DATE, SQL_OV_ODBC2), SQL_DATE);
    assert_int_equal(lt_sqltype_for_version(SQL_TYPE_DATE, SQL_OV_ODBC3), SQL_TYPE_DATE);
    assert_int_equal(lt_sqltype_normalize(SQL_TIMESTAMP), SQL_TYPE_TIMESTAMP);
    assert_int_equal(lt_sqltype_normalize(1234), 0);
}

/* ------------------------------------------------------------------------ */
/* Integers                                                                  */
/* ------------------------------------------------------------------------ */

static void test_int_to_char(void **state)
{
    (void)state;
    lt_column c = column(LT_INT64, 10, 0);
    lt_value v = int_value(-12345);
    char buf[32];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "-12345");
    assert_int_equal(r.ind, 6);
    /* whole digits never cut: 22003 */
    r = conv(&v, &c, SQL_C_CHAR, buf, 6);
    assert_error(r, "22003");
    r = conv(&v, &c, SQL_C_CHAR, buf, 7);
    assert_ok_state(r);
    v = int_value(INT64_MIN);
    r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "-9223372036854775808");
    /* length only */
    r = conv(&v, &c, SQL_C_CHAR, NULL, 0);
    assert_int_equal(r.ind, 20);
}

static void test_int_to_wchar(void **state)
{
    (void)state;
    lt_column c = column(LT_INT64, 19, 0);
    lt_value v = int_value(907);
    SQLWCHAR w[16];
    result r = conv(&v, &c, SQL_C_WCHAR, w, sizeof w);
    assert_ok_state(r);
    assert_wide_ascii(w, "907");
    assert_int_equal(r.ind, 3 * (SQLLEN)sizeof(SQLWCHAR));
    /* room for two characters and the terminator: 22003 */
    r = conv(&v, &c, SQL_C_WCHAR, w, 3 * sizeof(SQLWCHAR));
    assert_error(r, "22003");
}

static void test_int_to_integers(void **state)
{
    (void)state;
    lt_column c = column(LT_INT64, 19, 0);
    struct {
        int64_t v;
        SQLSMALLINT ctype;
        const char *state;
    } cases[] = {
        {127, SQL_C_STINYINT, ""},        {128, SQL_C_STINYINT, "22003"},
        {-128, SQL_C_TINYINT, ""},        {-129, SQL_C_TINYINT, "22003"},
        {255, SQL_C_UTINYINT, ""},        {-1, SQL_C_UTINYINT, "22003"},
        {32767, SQL_C_SSHORT, ""},        {32768, SQL_C_SHORT, "22003"},
        {65535, SQL_C_USHORT, ""},        {65536, SQL_C_USHORT, "22003"},
        {INT32_MIN, SQL_C_SLONG, ""},     {(int64_t)INT32_MAX + 1, SQL_C_LONG, "22003"},
        {UINT32_MAX, SQL_C_ULONG, ""},    {-5, SQL_C_ULONG, "22003"},
        {INT64_MIN, SQL_C_SBIGINT, ""},   {INT64_MAX, SQL_C_UBIGINT, ""},
        {-1, SQL_C_UBIGINT, "22003"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        lt_value v = int_value(cases[i].v);
        unsigned char buf[8];
        memset(buf, 0xAA, sizeof buf);
        result r = conv(&v, &c, cases[i].ctype, buf, 0);
        assert_string_equal(r.state, cases[i].state);
        if (cases[i].state[0] != '\0') {
            assert_int_equal(r.rc, SQL_ERROR);
            continue;
        }
        assert_int_equal(r.rc, SQL_SUCCESS);
        assert_int_equal(r.ind, lt_ctype_size(cases[i].ctype));
        switch (r.ind) {
        case 1: {
            int8_t s; uint8_t u;
            memcpy(&s, buf, 1); memcpy(&u, buf, 1);
            assert_true(cases[i].ctype == SQL_C_UTINYINT ? u == cases[i].v : s == cases[i].v);
            break;
        }
        case 2: {
            int16_t s; uint16_t u;
            memcpy(&s, buf, 2); memcpy(&u, buf, 2);
            assert_true(cases[i].ctype == SQL_C_USHORT ? u == cases[i].v : s == cases[i].v);
            break;
        }
        case 4: {
            SQLINTEGER s; SQLUINTEGER u;
            memcpy(&s, buf, 4); memcpy(&u, buf, 4);
            assert_true(cases[i].ctype == SQL_C_ULONG ? (int64_t)u == cases[i].v : s == cases[i].v);
            break;
        }
        default: {
            int64_t s;
            memcpy(&s, buf, 8);
            assert_true(s == cases[i].v);
            break;
        }
        }
    }
}

static void test_int_to_other(void **state)
{
    (void)state;
    lt_column c = column(LT_INT64, 10, 0);
    lt_value v = int_value(42);
    double d;
    float f;
    unsigned char b;
    SQL_NUMERIC_STRUCT ns;
    result r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_ok_state(r);
    assert_true(d == 42.0);
    r = conv(&v, &c, SQL_C_FLOAT, &f, 0);
    assert_ok_state(r);
    assert_true(f == 42.0f);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22003");
    v = int_value(1);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_ok_state(r);
    assert_int_equal(b, 1);
    v = int_value(-300);
    lt_target t = {SQL_C_NUMERIC, &ns, 0, NULL, 10, 2, };
    lt_piece off = {0};
    const char *st;
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS);
    assert_int_equal(ns.precision, 10);
    assert_int_equal(ns.scale, 2);
    assert_int_equal(ns.sign, 0);
    assert_int_equal(ns.val[0] | ns.val[1] << 8, 30000);
    /* dates from a number: restricted */
    SQL_DATE_STRUCT ds;
    r = conv(&v, &c, SQL_C_TYPE_DATE, &ds, 0);
    assert_error(r, "07006");
    r = conv(&v, &c, SQL_C_GUID, &ds, 0);
    assert_error(r, "07006");
    /* SQL_C_BINARY: the INTEGER as 4 bytes, all or nothing */
    int32_t i32 = 0;
    v = int_value(70000);
    r = conv(&v, &c, SQL_C_BINARY, &i32, sizeof i32);
    assert_ok_state(r);
    assert_int_equal(r.ind, 4);
    assert_int_equal(i32, 70000);
    r = conv(&v, &c, SQL_C_BINARY, &i32, 2);
    assert_error(r, "22003");
    /* SQL_C_DEFAULT of an INTEGER is SQL_C_SLONG */
    SQLINTEGER sl = 0;
    r = conv(&v, &c, SQL_C_DEFAULT, &sl, 0);
    assert_ok_state(r);
    assert_int_equal(sl, 70000);
    assert_int_equal(r.ind, sizeof(SQLINTEGER));
}

/* ------------------------------------------------------------------------ */
/* Doubles                                                                   */
/* ------------------------------------------------------------------------ */

static void check_double_text(double d, bool real, const char *want)
{
    lt_column c = column(LT_DOUBLE, real ? 7 : 15, 0);
    lt_value v = double_value(d);
    char buf[64];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, want);
    assert_int_equal(r.ind, strlen(want));
}

static void test_double_to_char(void **state)
{
    (void)state;
    check_double_text(0.1, false, "0.1");
    check_double_text(-2.5, false, "-2.5");
    check_double_text(1.0 / 3, false, "0.3333333333333333");
    check_double_text(2.0 / 3, false, "0.6666666666666666");
    check_double_text(1e300, false, "1e+300");
    check_double_text(123456789012345678901.0, false, "1.2345678901234568e+20");
    check_double_text(100, false, "100");
    check_double_text(0.1 + 0.2, false, "0.30000000000000004");
    check_double_text(5e-324, false, "5e-324");      /* shortest, not %.15g */
    /* a REAL column holds its float widened exactly, and prints so */
    check_double_text((float)0.1, true, "0.10000000149011612");
    check_double_text((float)3.14159265, true, "3.1415927410125732");
    check_double_text(NAN, false, "NaN");
    check_double_text(-INFINITY, false, "-Inf");
    /* A host application's locale never changes the decimal point. */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL ||
        setlocale(LC_NUMERIC, "fr_FR.UTF-8") != NULL) {
        check_double_text(1.5, false, "1.5");
        check_double_text(0.1, false, "0.1");
        lt_column c = column(LT_TEXT, 10, 0);
        lt_value v = text_value("2.25");
        double d = 0;
        result r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
        assert_ok_state(r);
        assert_true(d == 2.25);
        setlocale(LC_NUMERIC, "C");
    }
    /* the fraction may be cut (01004), the integer part not (22003) */
    lt_column c = column(LT_DOUBLE, 15, 0);
    lt_value v = double_value(1234.5625);
    char buf[16];
    result r = conv(&v, &c, SQL_C_CHAR, buf, 7);
    assert_info(r, "01004");
    assert_string_equal(buf, "1234.5");
    assert_int_equal(r.ind, 9);
    r = conv(&v, &c, SQL_C_CHAR, buf, 4);
    assert_error(r, "22003");
}

static void test_double_to_numbers(void **state)
{
    (void)state;
    lt_column c = column(LT_DOUBLE, 15, 0);
    SQLINTEGER i;
    SQLBIGINT big;
    float f;
    unsigned char b;
    lt_value v = double_value(3.7);
    result r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_info(r, "01S07");
    assert_int_equal(i, 3);
    v = double_value(-3.7);
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_info(r, "01S07");
    assert_int_equal(i, -3);
    v = double_value(3.0);
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_ok_state(r);
    v = double_value(2147483647.5);
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_info(r, "01S07");
    assert_int_equal(i, 2147483647);
    v = double_value(2147483648.0);
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_error(r, "22003");
    v = double_value(9223372036854775808.0); /* 2^63 */
    r = conv(&v, &c, SQL_C_SBIGINT, &big, 0);
    assert_error(r, "22003");
    v = double_value(-9223372036854775808.0);
    r = conv(&v, &c, SQL_C_SBIGINT, &big, 0);
    assert_ok_state(r);
    assert_true(big == INT64_MIN);
    v = double_value(NAN);
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_error(r, "22003");
    v = double_value(1e300);
    r = conv(&v, &c, SQL_C_FLOAT, &f, 0);
    assert_error(r, "22003");
    v = double_value(1.5);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_info(r, "01S07");
    assert_int_equal(b, 1);
    v = double_value(0.25);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_info(r, "01S07");
    assert_int_equal(b, 0);
    v = double_value(2.0);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22003");
    v = double_value(-0.5);
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22003");
    /* NUMERIC from a double goes through its shortest decimal form */
    SQL_NUMERIC_STRUCT ns;
    lt_target t = {SQL_C_NUMERIC, &ns, 0, NULL, 10, 5};
    lt_piece off = {0};
    const char *st = NULL;
    v = double_value(0.1);
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS);
    assert_int_equal(ns.sign, 1);
    assert_int_equal(ns.val[0] | ns.val[1] << 8, 10000);
    t.scale = 0;
    off = (lt_piece){0};
    v = double_value(-7.9);
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(st, "01S07");
    assert_int_equal(ns.sign, 0);
    assert_int_equal(ns.val[0], 7);
}

/* ------------------------------------------------------------------------ */
/* Decimals                                                                  */
/* ------------------------------------------------------------------------ */

static void test_decimal(void **state)
{
    (void)state;
    lt_column c = column(LT_DECIMAL, 10, 2);
    char buf[64];
    lt_value v = dec_value(1250, 2);
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "12.50");
    v = dec_value(-5, 2);
    r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "-0.05");
    v = dec_value(1234567, 0);
    lt_column c0 = column(LT_DECIMAL, 10, 0);
    r = conv(&v, &c0, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "1234567");
    /* 38 digits */
    lt_value big = {.type = LT_DECIMAL, .scale = 10};
    big.u.dec = 1;
    for (int i = 0; i < 37; i++)
        big.u.dec *= 10;
    big.u.dec = -(big.u.dec * 10 - 1);
    lt_column c38 = column(LT_DECIMAL, 38, 10);
    r = conv(&big, &c38, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "-9999999999999999999999999999.9999999999");
    /* to integers: fractional truncation */
    v = dec_value(1250, 2);
    SQLSMALLINT s;
    r = conv(&v, &c, SQL_C_SSHORT, &s, 0);
    assert_info(r, "01S07");
    assert_int_equal(s, 12);
    v = dec_value(1200, 2);
    r = conv(&v, &c, SQL_C_SSHORT, &s, 0);
    assert_ok_state(r);
    v = dec_value(12345678, 2);
    SQLSCHAR t8;
    r = conv(&v, &c, SQL_C_STINYINT, &t8, 0);
    assert_error(r, "22003");
    double d;
    v = dec_value(123456, 3);
    r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_ok_state(r);
    assert_true(d == 123.456);
    /* the spec's example: 1234.56 into SQL_C_CHAR of 5 and 4 bytes */
    v = dec_value(123456, 2);
    r = conv(&v, &c, SQL_C_CHAR, buf, 5);
    assert_info(r, "01004");
    assert_string_equal(buf, "1234");
    r = conv(&v, &c, SQL_C_CHAR, buf, 4);
    assert_error(r, "22003");
    /* SQL_C_NUMERIC with the target's precision and scale */
    SQL_NUMERIC_STRUCT ns;
    lt_target t = {SQL_C_NUMERIC, &ns, 0, NULL, 5, 1};
    lt_piece off = {0};
    const char *st = NULL;
    v = dec_value(1250, 2);
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS);
    assert_int_equal(ns.val[0], 125);
    assert_int_equal(ns.scale, 1);
    v = dec_value(1255, 2);
    off = (lt_piece){0};
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(st, "01S07");
    t.precision = 3;
    t.scale = 2;
    off = (lt_piece){0};
    v = dec_value(1250, 2);   /* 12.50 needs 4 digits */
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_ERROR);
    assert_string_equal(st, "22003");
    /* binary: the SQL_NUMERIC_STRUCT at the column's precision */
    r = conv(&v, &c, SQL_C_BINARY, &ns, sizeof ns);
    assert_ok_state(r);
    assert_int_equal(r.ind, sizeof ns);
    assert_int_equal(ns.precision, 10);
    assert_int_equal(ns.scale, 2);
    assert_int_equal(ns.val[0] | ns.val[1] << 8, 1250);
}

/* ------------------------------------------------------------------------ */
/* Booleans                                                                  */
/* ------------------------------------------------------------------------ */

static void test_bool(void **state)
{
    (void)state;
    lt_column c = column(LT_BOOL, 1, 0);
    lt_value v = {.type = LT_BOOL, .u.b = true};
    char buf[4];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "1");
    r = conv(&v, &c, SQL_C_CHAR, buf, 1);
    assert_error(r, "22003");
    v.u.b = false;
    r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "0");
    unsigned char b = 9;
    r = conv(&v, &c, SQL_C_DEFAULT, &b, 0);
    assert_ok_state(r);
    assert_int_equal(b, 0);
    v.u.b = true;
    SQLINTEGER i;
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_int_equal(i, 1);
    double d;
    r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_true(d == 1.0);
    SQL_DATE_STRUCT ds;
    r = conv(&v, &c, SQL_C_TYPE_DATE, &ds, 0);
    assert_error(r, "07006");
    SQLWCHAR w[4];
    r = conv(&v, &c, SQL_C_WCHAR, w, sizeof w);
    assert_wide_ascii(w, "1");
}

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

static void test_text_pieces(void **state)
{
    (void)state;
    lt_column c = column(LT_TEXT, 20, 0);
    lt_value v = text_value("Hello, world");
    char buf[5];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_info(r, "01004");
    assert_string_equal(buf, "Hell");
    assert_int_equal(r.ind, 12);
    r = conv_at(&v, &c, SQL_C_CHAR, buf, sizeof buf, r.piece);
    assert_info(r, "01004");
    assert_string_equal(buf, "o, w");
    assert_int_equal(r.ind, 8);
    r = conv_at(&v, &c, SQL_C_CHAR, buf, sizeof buf, r.piece);
    assert_ok_state(r);
    assert_string_equal(buf, "orld");
    assert_int_equal(r.ind, 4);
    r = conv_at(&v, &c, SQL_C_CHAR, buf, sizeof buf, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);

    /* every truncated piece fills the buffer, even inside a UTF-8
    ** sequence: applications join the bytes (pyodbc counts on full pieces) */
    v = text_value("h\xc3\xa9llo");   /* héllo */
    char b3[3];
    r = conv(&v, &c, SQL_C_CHAR, b3, sizeof b3);
    assert_info(r, "01004");
    assert_string_equal(b3, "h\xc3");
    assert_int_equal(r.ind, 6);
    r = conv_at(&v, &c, SQL_C_CHAR, b3, sizeof b3, r.piece);
    assert_info(r, "01004");
    assert_string_equal(b3, "\xa9l");
    assert_int_equal(r.ind, 4);
    r = conv_at(&v, &c, SQL_C_CHAR, b3, sizeof b3, r.piece);
    assert_ok_state(r);
    assert_string_equal(b3, "lo");
    assert_int_equal(r.ind, 2);
    r = conv_at(&v, &c, SQL_C_CHAR, b3, sizeof b3, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);

    /* BufferLength 0: the length and 01004, nothing consumed */
    r = conv(&v, &c, SQL_C_CHAR, b3, 0);
    assert_info(r, "01004");
    assert_int_equal(r.ind, 6);
    assert_int_equal(r.piece.offset, 0);

    /* the whole text at once */
    char big[32];
    r = conv(&v, &c, SQL_C_CHAR, big, sizeof big);
    assert_ok_state(r);
    assert_string_equal(big, "h\xc3\xa9llo");
    /* as bytes */
    r = conv(&v, &c, SQL_C_BINARY, big, sizeof big);
    assert_ok_state(r);
    assert_int_equal(r.ind, 6);
    assert_memory_equal(big, "h\xc3\xa9llo", 6);
    r = conv(&v, &c, SQL_C_BINARY, big, 2);
    assert_info(r, "01004");
    assert_int_equal(r.ind, 6);
    r = conv_at(&v, &c, SQL_C_BINARY, big, 10, r.piece);
    assert_ok_state(r);
    assert_int_equal(r.ind, 4);
    assert_memory_equal(big, "\xa9llo", 4);
}

static void test_text_wide_pieces(void **state)
{
    (void)state;
    lt_column c = column(LT_TEXT, 20, 0);
    /* "a", U+1F600, "b", U+00E9 */
    lt_value v = text_value("a\xf0\x9f\x98\x80" "b\xc3\xa9");
    const SQLLEN w = sizeof(SQLWCHAR);
    SQLWCHAR buf[8];
    size_t total = UTF16 ? 5 : 4;
    result r = conv(&v, &c, SQL_C_WCHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_int_equal(r.ind, (SQLLEN)total * w);
    if (UTF16) {
        const uint32_t u[] = {'a', 0xD83D, 0xDE00, 'b', 0xE9};
        assert_wide(buf, u, 5);
    } else {
        const uint32_t u[] = {'a', 0x1F600, 'b', 0xE9};
        assert_wide(buf, u, 4);
    }
    /* room for two units: every piece is full, so (UTF-16) the pair is
    ** split across pieces and the application joins the units */
    r = conv(&v, &c, SQL_C_WCHAR, buf, 3 * w);
    assert_info(r, "01004");
    assert_int_equal(r.ind, (SQLLEN)total * w);
    if (UTF16) {
        const uint32_t u1[] = {'a', 0xD83D};
        assert_wide(buf, u1, 2);
        r = conv_at(&v, &c, SQL_C_WCHAR, buf, 3 * w, r.piece);
        assert_info(r, "01004");
        assert_int_equal(r.ind, 3 * w);
        const uint32_t u2[] = {0xDE00, 'b'};
        assert_wide(buf, u2, 2);
        r = conv_at(&v, &c, SQL_C_WCHAR, buf, 3 * w, r.piece);
        assert_ok_state(r);
        assert_int_equal(r.ind, 1 * w);
        const uint32_t u3[] = {0xE9};
        assert_wide(buf, u3, 1);
    } else {
        const uint32_t u1[] = {'a', 0x1F600};
        assert_wide(buf, u1, 2);
        r = conv_at(&v, &c, SQL_C_WCHAR, buf, 3 * w, r.piece);
        assert_ok_state(r);
        assert_int_equal(r.ind, 2 * w);
        const uint32_t u3[] = {'b', 0xE9};
        assert_wide(buf, u3, 2);
    }
    r = conv_at(&v, &c, SQL_C_WCHAR, buf, 3 * w, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);
    /* length only */
    r = conv(&v, &c, SQL_C_WCHAR, NULL, 0);
    assert_int_equal(r.ind, (SQLLEN)total * w);
}

static void test_text_to_numbers(void **state)
{
    (void)state;
    lt_column c = column(LT_TEXT, 20, 0);
    SQLINTEGER i;
    double d;
    unsigned char b;
    struct {
        const char *s;
        const char *state;
        SQLINTEGER want;
    } cases[] = {
        {"  42 ", "", 42},      {"-7", "", -7},        {"+8", "", 8},
        {"12.5", "01S07", 12},  {"-12.9", "01S07", -12}, {"1e3", "", 1000},
        {"1.5e1", "", 15},      {".5", "01S07", 0},    {"5.", "", 5},
        {"abc", "22018", 0},    {"", "22018", 0},      {"1 2", "22018", 0},
        {"99999999999", "22003", 0}, {"1e", "22018", 0}, {"--1", "22018", 0},
        {"0.0000000000000000000000000000000000000001", "01S07", 0},
        {"123456789012345678901234567890123456789012345", "22003", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        lt_value v = text_value(cases[k].s);
        result r = conv(&v, &c, SQL_C_SLONG, &i, 0);
        assert_string_equal(r.state, cases[k].state);
        if (cases[k].state[0] == '2')
            assert_int_equal(r.rc, SQL_ERROR);
        else
            assert_int_equal(i, cases[k].want);
    }
    lt_value v = text_value("3.25");
    result r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_ok_state(r);
    assert_true(d == 3.25);
    v = text_value("0.1");
    r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_true(d == 0.1);
    v = text_value("123456789.123456789e-5");
    r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_true(d == 123456789.123456789e-5);
    v = text_value("1e400");
    r = conv(&v, &c, SQL_C_DOUBLE, &d, 0);
    assert_error(r, "22003");
    v = text_value("1");
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_ok_state(r);
    assert_int_equal(b, 1);
    v = text_value("1.5");
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_info(r, "01S07");
    v = text_value("2");
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22003");
    v = text_value("-0.5");
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22003");
    v = text_value("true");
    r = conv(&v, &c, SQL_C_BIT, &b, 0);
    assert_error(r, "22018");
    SQL_NUMERIC_STRUCT ns;
    lt_target t = {SQL_C_NUMERIC, &ns, 0, NULL, 38, 4};
    lt_piece off = {0};
    const char *st = NULL;
    v = text_value("-12345678901234567890.1234");
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_SUCCESS);
    assert_int_equal(ns.sign, 0);
    unsigned __int128 u = 0;
    for (int k = 15; k >= 0; k--)
        u = u << 8 | ns.val[k];
    unsigned __int128 want = 12345678901234567890ULL;
    want = want * 10000 + 1234;
    assert_true(u == want);
}

static void test_text_to_datetime(void **state)
{
    (void)state;
    lt_column c = column(LT_TEXT, 40, 0);
    SQL_DATE_STRUCT d;
    SQL_TIME_STRUCT tm;
    SQL_TIMESTAMP_STRUCT ts;
    lt_value v = text_value("2024-02-29");
    result r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.year, 2024);
    assert_int_equal(d.month, 2);
    assert_int_equal(d.day, 29);
    assert_int_equal(r.ind, sizeof d);
    v = text_value("2023-02-29");
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "22018");
    v = text_value("31/01/2024");
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "22018");
    v = text_value(" {d '2024-01-31'} ");
    r = conv(&v, &c, SQL_C_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.day, 31);
    v = text_value("2024-01-31 10:00:00");
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_info(r, "01S07");
    v = text_value("2024-01-31 00:00:00");
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    v = text_value("2024-01-31 10:20:30.125");
    r = conv(&v, &c, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.hour, 10);
    assert_int_equal(ts.minute, 20);
    assert_int_equal(ts.second, 30);
    assert_int_equal(ts.fraction, 125000000);
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_info(r, "01S07");
    assert_int_equal(tm.second, 30);
    v = text_value("{ts '2024-01-31 10:20:30'}");
    r = conv(&v, &c, SQL_C_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.fraction, 0);
    v = text_value("10:20:30");
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_ok_state(r);
    assert_int_equal(tm.hour, 10);
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "22018");
    v = text_value("25:00:00");
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_error(r, "22018");
    v = text_value("2024-01-31");
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_error(r, "22018");
    r = conv(&v, &c, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.hour, 0);
    assert_int_equal(ts.day, 31);
}

static void test_text_to_guid(void **state)
{
    (void)state;
    lt_column c = column(LT_TEXT, 40, 0);
    SQLGUID g;
    lt_value v = text_value("{6F9619FF-8B86-D011-B42D-00C04FC964FF}");
    result r = conv(&v, &c, SQL_C_GUID, &g, 0);
    assert_ok_state(r);
    assert_int_equal(g.Data1, 0x6F9619FF);
    assert_int_equal(g.Data2, 0x8B86);
    assert_int_equal(g.Data3, 0xD011);
    assert_int_equal(g.Data4[0], 0xB4);
    assert_int_equal(g.Data4[7], 0xFF);
    v = text_value("6f9619ff-8b86-d011-b42d-00c04fc964fg");
    r = conv(&v, &c, SQL_C_GUID, &g, 0);
    assert_error(r, "22018");
}

/* ------------------------------------------------------------------------ */
/* Dates and times                                                           */
/* ------------------------------------------------------------------------ */

static void test_date(void **state)
{
    (void)state;
    lt_column c = column(LT_DATE, 10, 0);
    lt_value v = date_value(2024, 1, 31);
    char buf[16];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "2024-01-31");
    r = conv(&v, &c, SQL_C_CHAR, buf, 10);
    assert_error(r, "22003");
    v = date_value(1, 1, 1);
    r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "0001-01-01");
    v = date_value(1969, 12, 31);
    SQL_DATE_STRUCT d;
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.year, 1969);
    assert_int_equal(d.month, 12);
    assert_int_equal(d.day, 31);
    SQL_TIMESTAMP_STRUCT ts;
    memset(&ts, 0x55, sizeof ts);
    r = conv(&v, &c, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 1969);
    assert_int_equal(ts.hour, 0);
    assert_int_equal(ts.fraction, 0);
    SQL_TIME_STRUCT tm;
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_error(r, "07006");
    SQLINTEGER i;
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_error(r, "07006");
    r = conv(&v, &c, SQL_C_BINARY, &d, sizeof d);
    assert_ok_state(r);
    assert_int_equal(r.ind, sizeof d);
    assert_int_equal(d.day, 31);
    /* a fixed-size value: a second SQLGetData call has no data */
    r = conv_at(&v, &c, SQL_C_TYPE_DATE, &d, 0, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);
}

static void test_timestamp(void **state)
{
    (void)state;
    lt_value v = ts_value(2024, 1, 31, 10, 20, 30, 123400);
    char buf[40];
    lt_column c6 = column(LT_TIMESTAMP, 26, 6);
    result r = conv(&v, &c6, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "2024-01-31 10:20:30.1234");
    lt_column c3 = column(LT_TIMESTAMP, 23, 3);
    r = conv(&v, &c3, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "2024-01-31 10:20:30.123");
    lt_column c0 = column(LT_TIMESTAMP, 19, 0);
    r = conv(&v, &c0, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "2024-01-31 10:20:30");
    /* 20 <= BufferLength <= length: fraction cut, 01004; below 20: 22003 */
    r = conv(&v, &c6, SQL_C_CHAR, buf, 22);
    assert_info(r, "01004");
    assert_string_equal(buf, "2024-01-31 10:20:30.1");
    assert_int_equal(r.ind, 24);
    r = conv(&v, &c6, SQL_C_CHAR, buf, 19);
    assert_error(r, "22003");
    SQL_TIMESTAMP_STRUCT ts;
    r = conv(&v, &c6, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 2024);
    assert_int_equal(ts.second, 30);
    assert_int_equal(ts.fraction, 123400000);
    SQL_DATE_STRUCT d;
    r = conv(&v, &c6, SQL_C_TYPE_DATE, &d, 0);
    assert_info(r, "01S07");
    assert_int_equal(d.day, 31);
    SQL_TIME_STRUCT tm;
    r = conv(&v, &c6, SQL_C_TYPE_TIME, &tm, 0);
    assert_info(r, "01S07");
    assert_int_equal(tm.hour, 10);
    v = ts_value(2024, 1, 31, 0, 0, 0, 0);
    r = conv(&v, &c6, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    /* before 1970 */
    v = ts_value(1900, 3, 1, 23, 59, 59, 999999);
    r = conv(&v, &c6, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "1900-03-01 23:59:59.999999");
    SQLWCHAR w[32];
    r = conv(&v, &c0, SQL_C_WCHAR, w, sizeof w);
    assert_ok_state(r);
    assert_wide_ascii(w, "1900-03-01 23:59:59");
    r = conv(&v, &c0, SQL_C_WCHAR, w, 19 * sizeof(SQLWCHAR));
    assert_error(r, "22003");
}

static void test_time(void **state)
{
    (void)state;
    lt_column c = column(LT_TIME, 8, 0);
    lt_value v = {.type = LT_TIME, .u.i64 = usec_of(7, 5, 9, 0)};
    char buf[16];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "07:05:09");
    SQL_TIME_STRUCT tm;
    r = conv(&v, &c, SQL_C_TYPE_TIME, &tm, 0);
    assert_ok_state(r);
    assert_int_equal(tm.minute, 5);
    SQL_TIMESTAMP_STRUCT ts;
    r = conv(&v, &c, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    time_t now = time(NULL);
    struct tm lt;
    localtime_r(&now, &lt);
    assert_int_equal(ts.year, lt.tm_year + 1900);   /* today's date */
    assert_int_equal(ts.hour, 7);
    assert_int_equal(ts.second, 9);
    SQL_DATE_STRUCT d;
    r = conv(&v, &c, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "07006");
    lt_column c3 = column(LT_TIME, 12, 3);
    v.u.i64 = usec_of(7, 5, 9, 500000);
    r = conv(&v, &c3, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "07:05:09.5");
    r = conv(&v, &c3, SQL_C_TYPE_TIME, &tm, 0);
    assert_info(r, "01S07");
}

/* ------------------------------------------------------------------------ */
/* GUIDs and binary                                                          */
/* ------------------------------------------------------------------------ */

static void test_guid(void **state)
{
    (void)state;
    lt_column c = column(LT_GUID, 36, 0);
    lt_value v = {.type = LT_GUID};
    v.u.guid.data1 = 0x6F9619FF;
    v.u.guid.data2 = 0x8B86;
    v.u.guid.data3 = 0xD011;
    const uint8_t d4[8] = {0xB4, 0x2D, 0x00, 0xC0, 0x4F, 0xC9, 0x64, 0xFF};
    memcpy(v.u.guid.data4, d4, 8);
    char buf[40];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "{6F9619FF-8B86-D011-B42D-00C04FC964FF}");
    r = conv(&v, &c, SQL_C_CHAR, buf, 38);
    assert_error(r, "22003");
    SQLGUID g;
    r = conv(&v, &c, SQL_C_GUID, &g, 0);
    assert_ok_state(r);
    assert_int_equal(g.Data1, 0x6F9619FF);
    assert_int_equal(g.Data4[1], 0x2D);
    r = conv(&v, &c, SQL_C_BINARY, &g, sizeof g);
    assert_ok_state(r);
    assert_int_equal(r.ind, sizeof g);
    SQLINTEGER i;
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_error(r, "07006");
}

static void test_binary(void **state)
{
    (void)state;
    lt_column c = column(LT_BINARY, 8, 0);
    lt_value v = bin_value("\xde\xad\xbe\xef\x01", 5);
    char buf[16];
    result r = conv(&v, &c, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "DEADBEEF01");
    assert_int_equal(r.ind, 10);
    /* hex in pieces */
    char b5[5];
    r = conv(&v, &c, SQL_C_CHAR, b5, sizeof b5);
    assert_info(r, "01004");
    assert_string_equal(b5, "DEAD");
    r = conv_at(&v, &c, SQL_C_CHAR, b5, sizeof b5, r.piece);
    assert_string_equal(b5, "BEEF");
    assert_int_equal(r.ind, 6);
    r = conv_at(&v, &c, SQL_C_CHAR, b5, sizeof b5, r.piece);
    assert_ok_state(r);
    assert_string_equal(b5, "01");
    r = conv_at(&v, &c, SQL_C_CHAR, b5, sizeof b5, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);
    SQLWCHAR w[16];
    r = conv(&v, &c, SQL_C_WCHAR, w, sizeof w);
    assert_ok_state(r);
    assert_wide_ascii(w, "DEADBEEF01");
    assert_int_equal(r.ind, 10 * (SQLLEN)sizeof(SQLWCHAR));
    /* raw bytes in pieces */
    char raw[3];
    r = conv(&v, &c, SQL_C_BINARY, raw, sizeof raw);
    assert_info(r, "01004");
    assert_int_equal(r.ind, 5);
    assert_memory_equal(raw, "\xde\xad\xbe", 3);
    r = conv_at(&v, &c, SQL_C_BINARY, raw, sizeof raw, r.piece);
    assert_ok_state(r);
    assert_int_equal(r.ind, 2);
    assert_memory_equal(raw, "\xef\x01", 2);
    r = conv_at(&v, &c, SQL_C_BINARY, raw, sizeof raw, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);
    SQLINTEGER i;
    r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_error(r, "07006");
    SQLGUID g;
    r = conv(&v, &c, SQL_C_GUID, &g, 0);
    assert_error(r, "07006");
}

static void test_null(void **state)
{
    (void)state;
    lt_column c = column(LT_INT64, 10, 0);
    lt_value v = {.type = LT_NULL};
    SQLINTEGER i;
    result r = conv(&v, &c, SQL_C_SLONG, &i, 0);
    assert_ok_state(r);
    assert_int_equal(r.ind, SQL_NULL_DATA);
    r = conv_at(&v, &c, SQL_C_SLONG, &i, 0, r.piece);
    assert_int_equal(r.rc, SQL_NO_DATA);
    lt_target t = {SQL_C_SLONG, &i, 0, NULL, 0, 0};
    lt_piece off = {0};
    const char *st = NULL;
    assert_int_equal(lt_convert_to_c(&v, &c, &t, &off, &st), SQL_ERROR);
    assert_string_equal(st, "22002");
}

/* A SQLite cell may hold another type than its column declares: it
** converts from its own type, the column only chooses SQL_C_DEFAULT. */
static void test_value_of_other_type(void **state)
{
    (void)state;
    lt_column ci = column(LT_INT64, 10, 0);
    lt_value v = text_value("abc");
    SQLINTEGER i;
    result r = conv(&v, &ci, SQL_C_DEFAULT, &i, 0);
    assert_error(r, "22018");
    v = text_value("17");
    r = conv(&v, &ci, SQL_C_DEFAULT, &i, 0);
    assert_ok_state(r);
    assert_int_equal(i, 17);
    char buf[40];
    lt_column ct = column(LT_TEXT, 10, 0);
    v = ts_value(2024, 1, 31, 10, 20, 30, 123456);
    r = conv(&v, &ct, SQL_C_CHAR, buf, sizeof buf);
    assert_ok_state(r);
    assert_string_equal(buf, "2024-01-31 10:20:30.123456");
    v = double_value(0.1);
    lt_column creal = column(LT_INT64, 7, 0);
    r = conv(&v, &creal, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "0.1");
    v = double_value(2.5);
    r = conv(&v, &ct, SQL_C_BINARY, buf, sizeof buf);
    assert_ok_state(r);
    assert_int_equal(r.ind, sizeof(double));
}

/* SQLite's date numbers: a REAL in a date column is a Julian day, an
** INTEGER Unix seconds, when a date C type is asked for; as text they stay
** the number. */
static void test_date_numbers(void **state)
{
    (void)state;
    lt_column cd = column(LT_DATE, 10, 0);
    lt_column cts = column(LT_TIMESTAMP, 23, 3);
    lt_column ctime = column(LT_TIME, 8, 0);
    SQL_DATE_STRUCT d;
    SQL_TIMESTAMP_STRUCT ts;
    SQL_TIME_STRUCT tm;
    char buf[40];

    lt_value v = double_value(2460369.5);           /* julianday('2024-02-29') */
    result r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.year, 2024);
    assert_int_equal(d.month, 2);
    assert_int_equal(d.day, 29);
    r = conv(&v, &cd, SQL_C_DEFAULT, &d, 0);        /* the column's own C type */
    assert_ok_state(r);
    assert_int_equal(d.day, 29);
    r = conv(&v, &cd, SQL_C_CHAR, buf, sizeof buf);  /* text: the number */
    assert_ok_state(r);
    assert_string_equal(buf, "2460369.5");

    v = double_value(2460369.75);                   /* 06:00 */
    r = conv(&v, &cts, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 2024);
    assert_int_equal(ts.hour, 6);
    assert_int_equal(ts.minute, 0);
    assert_int_equal(ts.fraction, 0);
    r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);      /* a time of day cut */
    assert_info(r, "01S07");
    assert_int_equal(d.day, 29);
    assert_int_equal(d.month, 2);
    r = conv(&v, &ctime, SQL_C_TYPE_TIME, &tm, 0);
    assert_ok_state(r);
    assert_int_equal(tm.hour, 6);

    v = double_value(2440587.5 + 1.0 / 86400000.0 * 1.4);  /* 1.4 ms: 1 ms */
    r = conv(&v, &cts, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 1970);
    assert_int_equal(ts.fraction, 1000000);

    v = int_value(1709164800);                      /* strftime('%s', '2024-02-29') */
    r = conv(&v, &cts, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 2024);
    assert_int_equal(ts.month, 2);
    assert_int_equal(ts.day, 29);
    assert_int_equal(ts.hour, 0);
    r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.day, 29);
    v = int_value(-86400);
    r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);
    assert_ok_state(r);
    assert_int_equal(d.year, 1969);
    assert_int_equal(d.month, 12);
    assert_int_equal(d.day, 31);
    v = int_value(253402300799);                    /* 9999-12-31 23:59:59 */
    r = conv(&v, &cts, SQL_C_TYPE_TIMESTAMP, &ts, 0);
    assert_ok_state(r);
    assert_int_equal(ts.year, 9999);
    assert_int_equal(ts.second, 59);
    r = conv(&v, &cts, SQL_C_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "253402300799");

    /* outside SQLite's range: 22007 */
    static const double bad_jd[] = {-0.5, 5373484.5, 1e300, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_jd / sizeof *bad_jd; i++) {
        v = double_value(bad_jd[i]);
        r = conv(&v, &cts, SQL_C_TYPE_TIMESTAMP, &ts, 0);
        assert_error(r, "22007");
    }
    v = double_value(0.0);                          /* Julian day 0 holds */
    r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);
    assert_info(r, "01S07");                        /* it is noon */
    assert_int_equal(d.year, -4713);
    static const int64_t bad_sec[] = {253402300800, -210866760001, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof bad_sec / sizeof *bad_sec; i++) {
        v = int_value(bad_sec[i]);
        r = conv(&v, &cd, SQL_C_TYPE_DATE, &d, 0);
        assert_error(r, "22007");
    }

    /* a number in a column of another type is no date */
    lt_column cint = column(LT_INT64, 10, 0);
    v = int_value(1709164800);
    r = conv(&v, &cint, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "07006");
    r = conv(&v, NULL, SQL_C_TYPE_DATE, &d, 0);
    assert_error(r, "07006");
}

/* ------------------------------------------------------------------------ */
/* Parameters: C to SQL                                                      */
/* ------------------------------------------------------------------------ */

typedef struct pres {
    SQLRETURN rc;
    const char *state;
    lt_value v;
} pres;

static lt_arena arena;

static pres param(SQLSMALLINT ctype, SQLSMALLINT sql_type, SQLSMALLINT scale,
                  void *ptr, SQLLEN buflen, SQLLEN *ind)
{
    pres p;
    const char *st = NULL;
    p.rc = lt_convert_param(ctype, sql_type, scale, ptr, buflen, ind, &arena,
                            &p.v, &st);
    p.state = st ? st : "";
    return p;
}

static void assert_text(const lt_value *v, const char *s)
{
    assert_int_equal(v->type, LT_TEXT);
    assert_int_equal(v->u.bytes.len, strlen(s));
    assert_memory_equal(v->u.bytes.ptr, s, strlen(s));
}

static void test_param_char(void **state)
{
    (void)state;
    lt_arena_init(&arena);
    SQLLEN nts = SQL_NTS;
    pres p = param(SQL_C_CHAR, SQL_INTEGER, 0, "12", 0, &nts);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(p.v.type, LT_INT64);
    assert_int_equal(p.v.u.i64, 12);
    p = param(SQL_C_CHAR, SQL_INTEGER, 0, " -5 ", 0, NULL);
    assert_int_equal(p.v.u.i64, -5);
    p = param(SQL_C_CHAR, SQL_INTEGER, 0, "12.5", 0, &nts);
    assert_int_equal(p.rc, SQL_ERROR);
    assert_string_equal(p.state, "22001");
    p = param(SQL_C_CHAR, SQL_INTEGER, 0, "abc", 0, &nts);
    assert_string_equal(p.state, "22018");
    p = param(SQL_C_CHAR, SQL_SMALLINT, 0, "40000", 0, &nts);
    assert_string_equal(p.state, "22003");
    SQLLEN two = 2;
    p = param(SQL_C_CHAR, SQL_BIGINT, 0, "123456", 0, &two);
    assert_int_equal(p.v.u.i64, 12);
    p = param(SQL_C_CHAR, SQL_VARCHAR, 0, "h\xc3\xa9", 0, &nts);
    assert_text(&p.v, "h\xc3\xa9");
    p = param(SQL_C_CHAR, SQL_DOUBLE, 0, "2.5e-3", 0, &nts);
    assert_int_equal(p.v.type, LT_DOUBLE);
    assert_true(p.v.u.f64 == 2.5e-3);
    p = param(SQL_C_CHAR, SQL_REAL, 0, "1e39", 0, &nts);
    assert_string_equal(p.state, "22003");
    /* decimals stay exact at their own scale */
    p = param(SQL_C_CHAR, SQL_DECIMAL, 2, "12.345", 0, &nts);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(p.v.type, LT_DECIMAL);
    assert_int_equal(p.v.scale, 3);
    assert_true(p.v.u.dec == 12345);
    p = param(SQL_C_CHAR, SQL_NUMERIC, 2, "7", 0, &nts);
    assert_int_equal(p.v.scale, 2);
    assert_true(p.v.u.dec == 700);
    p = param(SQL_C_CHAR, SQL_BIT, 0, "1", 0, &nts);
    assert_int_equal(p.v.type, LT_BOOL);
    assert_true(p.v.u.b);
    p = param(SQL_C_CHAR, SQL_BIT, 0, "2", 0, &nts);
    assert_string_equal(p.state, "22003");
    p = param(SQL_C_CHAR, SQL_TYPE_DATE, 0, "2024-01-31", 0, &nts);
    assert_int_equal(p.v.type, LT_DATE);
    assert_int_equal(p.v.u.date, lt_days_from_civil(2024, 1, 31));
    p = param(SQL_C_CHAR, SQL_DATE, 0, "2024-01-31 10:00:00", 0, &nts);
    assert_string_equal(p.state, "22008");
    p = param(SQL_C_CHAR, SQL_TYPE_DATE, 0, "tomorrow", 0, &nts);
    assert_string_equal(p.state, "22018");
    p = param(SQL_C_CHAR, SQL_TYPE_TIMESTAMP, 0, "2024-01-31 10:20:30.5", 0, &nts);
    assert_int_equal(p.v.type, LT_TIMESTAMP);
    assert_true(p.v.u.i64 == (int64_t)lt_days_from_civil(2024, 1, 31) * LT_USEC_PER_DAY +
                                 usec_of(10, 20, 30, 500000));
    p = param(SQL_C_CHAR, SQL_TYPE_TIME, 0, "10:20:30", 0, &nts);
    assert_int_equal(p.v.type, LT_TIME);
    assert_true(p.v.u.i64 == usec_of(10, 20, 30, 0));
    p = param(SQL_C_CHAR, SQL_VARBINARY, 0, "DEADbeef", 0, &nts);
    assert_int_equal(p.v.type, LT_BINARY);
    assert_int_equal(p.v.u.bytes.len, 4);
    assert_memory_equal(p.v.u.bytes.ptr, "\xde\xad\xbe\xef", 4);
    p = param(SQL_C_CHAR, SQL_VARBINARY, 0, "zz", 0, &nts);
    assert_string_equal(p.state, "22018");
    p = param(SQL_C_CHAR, SQL_GUID, 0, "6F9619FF-8B86-D011-B42D-00C04FC964FF", 0, &nts);
    assert_int_equal(p.v.type, LT_GUID);
    assert_int_equal(p.v.u.guid.data1, 0x6F9619FF);
    lt_arena_free(&arena);
}

static void test_param_other(void **state)
{
    (void)state;
    lt_arena_init(&arena);
    SQLLEN null_data = SQL_NULL_DATA, dae = SQL_DATA_AT_EXEC,
           len_dae = SQL_LEN_DATA_AT_EXEC(10);
    SQLINTEGER i = 70000;
    pres p = param(SQL_C_SLONG, SQL_INTEGER, 0, &i, 0, &null_data);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(p.v.type, LT_NULL);
    p = param(SQL_C_SLONG, SQL_INTEGER, 0, &i, 0, &dae);
    assert_string_equal(p.state, "HYC00");
    p = param(SQL_C_SLONG, SQL_INTEGER, 0, &i, 0, &len_dae);
    assert_string_equal(p.state, "HYC00");
    p = param(SQL_C_SLONG, SQL_SMALLINT, 0, &i, 0, NULL);
    assert_string_equal(p.state, "22003");
    p = param(SQL_C_SLONG, SQL_VARCHAR, 0, &i, 0, NULL);
    assert_text(&p.v, "70000");
    p = param(SQL_C_DEFAULT, SQL_INTEGER, 0, &i, 0, NULL);
    assert_int_equal(p.v.u.i64, 70000);
    double d = 2.75;
    p = param(SQL_C_DOUBLE, SQL_INTEGER, 0, &d, 0, NULL);
    assert_int_equal(p.rc, SQL_SUCCESS);     /* C numbers: silent truncation */
    assert_int_equal(p.v.u.i64, 2);
    p = param(SQL_C_DOUBLE, SQL_WVARCHAR, 0, &d, 0, NULL);
    assert_text(&p.v, "2.75");
    p = param(SQL_C_DOUBLE, SQL_TYPE_DATE, 0, &d, 0, NULL);
    assert_string_equal(p.state, "07006");
    float f = 0.1f;
    p = param(SQL_C_FLOAT, SQL_VARCHAR, 0, &f, 0, NULL);
    assert_text(&p.v, "0.1");
    SQLUBIGINT ub = UINT64_MAX;
    p = param(SQL_C_UBIGINT, SQL_BIGINT, 0, &ub, 0, NULL);
    assert_string_equal(p.state, "22003");
    SQL_NUMERIC_STRUCT ns;
    memset(&ns, 0, sizeof ns);
    ns.precision = 6;
    ns.scale = 2;
    ns.sign = 0;
    ns.val[0] = 0x39;  /* 12345 = 0x3039 */
    ns.val[1] = 0x30;
    p = param(SQL_C_NUMERIC, SQL_DECIMAL, 2, &ns, 0, NULL);
    assert_int_equal(p.v.type, LT_DECIMAL);
    assert_int_equal(p.v.scale, 2);
    assert_true(p.v.u.dec == -12345);
    p = param(SQL_C_NUMERIC, SQL_CHAR, 0, &ns, 0, NULL);
    assert_text(&p.v, "-123.45");
    SQL_DATE_STRUCT ds = {2024, 13, 1};
    p = param(SQL_C_TYPE_DATE, SQL_TYPE_DATE, 0, &ds, 0, NULL);
    assert_string_equal(p.state, "22007");
    ds.month = 2;
    ds.day = 29;
    p = param(SQL_C_TYPE_DATE, SQL_TYPE_DATE, 0, &ds, 0, NULL);
    assert_int_equal(p.v.u.date, lt_days_from_civil(2024, 2, 29));
    p = param(SQL_C_TYPE_DATE, SQL_TYPE_TIMESTAMP, 0, &ds, 0, NULL);
    assert_true(p.v.u.i64 == (int64_t)lt_days_from_civil(2024, 2, 29) * LT_USEC_PER_DAY);
    p = param(SQL_C_TYPE_DATE, SQL_VARCHAR, 0, &ds, 0, NULL);
    assert_text(&p.v, "2024-02-29");
    p = param(SQL_C_TYPE_DATE, SQL_TYPE_TIME, 0, &ds, 0, NULL);
    assert_string_equal(p.state, "07006");
    SQL_TIMESTAMP_STRUCT ts = {2024, 2, 29, 13, 14, 15, 250000000};
    p = param(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_DATE, 0, &ts, 0, NULL);
    assert_string_equal(p.state, "22008");
    p = param(SQL_C_TYPE_TIMESTAMP, SQL_VARCHAR, 0, &ts, 0, NULL);
    assert_text(&p.v, "2024-02-29 13:14:15.25");
    ts.fraction = 0;
    p = param(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIME, 0, &ts, 0, NULL);
    assert_int_equal(p.v.type, LT_TIME);
    assert_true(p.v.u.i64 == usec_of(13, 14, 15, 0));
    SQLGUID g = {0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}};
    p = param(SQL_C_GUID, SQL_GUID, 0, &g, 0, NULL);
    assert_int_equal(p.v.type, LT_GUID);
    assert_int_equal(p.v.u.guid.data1, 0x01020304);
    assert_int_equal(p.v.u.guid.data4[7], 16);
    p = param(SQL_C_GUID, SQL_VARCHAR, 0, &g, 0, NULL);
    assert_text(&p.v, "{01020304-0506-0708-090A-0B0C0D0E0F10}");
    SQLLEN three = 3;
    p = param(SQL_C_BINARY, SQL_VARBINARY, 0, "\x01\x02\x03\x04", 4, &three);
    assert_int_equal(p.v.type, LT_BINARY);
    assert_int_equal(p.v.u.bytes.len, 3);
    SQLLEN four = 4;
    i = 77;
    p = param(SQL_C_BINARY, SQL_INTEGER, 0, &i, 4, &four);
    assert_int_equal(p.v.u.i64, 77);
    p = param(SQL_C_BINARY, SQL_INTEGER, 0, &i, 4, &three);
    assert_string_equal(p.state, "22003");
    unsigned char bit = 1;
    p = param(SQL_C_BIT, SQL_BIT, 0, &bit, 0, NULL);
    assert_int_equal(p.v.type, LT_BOOL);
    assert_true(p.v.u.b);
    p = param(SQL_C_BIT, SQL_CHAR, 0, &bit, 0, NULL);
    assert_text(&p.v, "1");
    /* wide text, terminated or counted in bytes */
    SQLWCHAR w[] = {'h', 0xE9, '4', '2', 0};
    p = param(SQL_C_WCHAR, SQL_WVARCHAR, 0, w, 0, NULL);
    assert_text(&p.v, "h\xc3\xa9" "42");
    SQLLEN wlen = 2 * sizeof(SQLWCHAR);
    p = param(SQL_C_WCHAR, SQL_INTEGER, 0, w + 2, 0, &wlen);
    assert_int_equal(p.v.type, LT_INT64);
    assert_int_equal(p.v.u.i64, 42);
    p = param(SQL_C_CHAR, 12345, 0, "1", 0, NULL);
    assert_string_equal(p.state, "HY004");
    lt_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sqltype_mapping),
        cmocka_unit_test(test_int_to_char),
        cmocka_unit_test(test_int_to_wchar),
        cmocka_unit_test(test_int_to_integers),
        cmocka_unit_test(test_int_to_other),
        cmocka_unit_test(test_double_to_char),
        cmocka_unit_test(test_double_to_numbers),
        cmocka_unit_test(test_decimal),
        cmocka_unit_test(test_bool),
        cmocka_unit_test(test_text_pieces),
        cmocka_unit_test(test_text_wide_pieces),
        cmocka_unit_test(test_text_to_numbers),
        cmocka_unit_test(test_text_to_datetime),
        cmocka_unit_test(test_text_to_guid),
        cmocka_unit_test(test_date),
        cmocka_unit_test(test_timestamp),
        cmocka_unit_test(test_time),
        cmocka_unit_test(test_guid),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_null),
        cmocka_unit_test(test_value_of_other_type),
        cmocka_unit_test(test_date_numbers),
        cmocka_unit_test(test_param_char),
        cmocka_unit_test(test_param_other),
        cmocka_unit_test(test_wchar_misaligned),
        cmocka_unit_test(test_text_char_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
