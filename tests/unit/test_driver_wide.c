/*
** test_driver_wide.c — SQLWCHAR <-> UTF-8 (driver/wide.c).
**
** Expectations are written as code units for both widths: UTF-16 when
** SQLWCHAR is 2 bytes (unixODBC), UTF-32 when it is 4 (iODBC).  The same
** file compiled against iODBC's headers tests the other width:
**   cc -std=c11 -I/tmp/iodbcdl/x/usr/include/iodbc -Ireaders -I. \
**      tests/unit/test_driver_wide.c driver/wide.c -lcmocka
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "driver/wide.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define UTF16 (sizeof(SQLWCHAR) == 2)

/* Build a SQLWCHAR string (terminated) from code units. */
static void units_to_wide(SQLWCHAR *dst, const uint32_t *u, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (SQLWCHAR)u[i];
    dst[n] = 0;
}

/* UTF-8 `s` converts to exactly the code units `u` (n of them), and those
** units convert back to `back` (UTF-8, NUL-terminated). */
static void check_round_trip(const char *s, const uint32_t *u, size_t n,
                             const char *back)
{
    SQLWCHAR w[64];
    size_t consumed = 99;
    size_t got;
    size_t back_len = 99;
    bool oom = true;
    char *s8;

    assert_true(n < COUNT(w));
    assert_int_equal(lt_utf8_wide_units(s, strlen(s)), n);
    got = lt_utf8_to_wide(s, strlen(s), w, COUNT(w), &consumed);
    assert_int_equal(got, n);
    assert_int_equal(consumed, strlen(s));
    for (size_t i = 0; i < n; i++)
        assert_int_equal((uint32_t)w[i], u[i]);
    assert_int_equal(w[n], 0);
    assert_int_equal(lt_wide_len(w), n);

    s8 = lt_wide_to_utf8(w, SQL_NTS, &back_len, &oom);
    assert_non_null(s8);
    assert_false(oom);
    assert_int_equal(back_len, strlen(back));
    assert_string_equal(s8, back);
    free(s8);
}

static void test_ascii(void **state)
{
    (void)state;
    const uint32_t u[] = {'S', 'E', 'L', 'E', 'C', 'T', ' ', '1'};
    check_round_trip("SELECT 1", u, COUNT(u), "SELECT 1");
    check_round_trip("", NULL, 0, "");
}

static void test_two_and_three_bytes(void **state)
{
    (void)state;
    /* é (2 bytes), 中文 (3 bytes each), U+FFFF edge of the BMP. */
    const uint32_t u[] = {'c', 0xE9, 0x4E2D, 0x6587, 0x7FF, 0x800, 0xFFFF};
    const char *s = "c\xC3\xA9\xE4\xB8\xAD\xE6\x96\x87\xDF\xBF\xE0\xA0\x80"
                    "\xEF\xBF\xBF";
    check_round_trip(s, u, COUNT(u), s);
}

static void test_four_bytes(void **state)
{
    (void)state;
    /* 😀 U+1F600 and U+10FFFF: a surrogate pair each in UTF-16. */
    const char *s = "a\xF0\x9F\x98\x80" "b\xF4\x8F\xBF\xBF";
    if (UTF16) {
        const uint32_t u[] = {'a', 0xD83D, 0xDE00, 'b', 0xDBFF, 0xDFFF};
        check_round_trip(s, u, COUNT(u), s);
    } else {
        const uint32_t u[] = {'a', 0x1F600, 'b', 0x10FFFF};
        check_round_trip(s, u, COUNT(u), s);
    }
}

/* Wide input `u` gives UTF-8 `expect`. */
static void check_to_utf8(const uint32_t *u, size_t n, const char *expect)
{
    SQLWCHAR w[16];
    size_t len = 99;
    bool oom = true;
    char *s;

    units_to_wide(w, u, n);
    s = lt_wide_to_utf8(w, (SQLLEN)n, &len, &oom);
    assert_non_null(s);
    assert_false(oom);
    assert_int_equal(len, strlen(expect));
    assert_string_equal(s, expect);
    free(s);
}

static void test_lone_surrogates(void **state)
{
    (void)state;
    const uint32_t high_then_a[] = {0xD800, 'a'};
    const uint32_t a_then_low[] = {'a', 0xDC00};
    const uint32_t reversed[] = {0xDC00, 0xD800};
    const uint32_t high_at_end[] = {'x', 0xDBFF};
    const uint32_t two_highs_pair[] = {0xD83D, 0xD83D, 0xDE00};

    check_to_utf8(high_then_a, 2, "\xEF\xBF\xBD" "a");
    check_to_utf8(a_then_low, 2, "a\xEF\xBF\xBD");
    check_to_utf8(reversed, 2, "\xEF\xBF\xBD\xEF\xBF\xBD");
    check_to_utf8(high_at_end, 2, "x\xEF\xBF\xBD");
    /* The first high surrogate is lone; the second pairs with the low. */
    check_to_utf8(two_highs_pair, 3, "\xEF\xBF\xBD\xF0\x9F\x98\x80");
    if (!UTF16) {
        /* UTF-32 units beyond Unicode, or negative wchar_t. */
        const uint32_t beyond[] = {0x110000, 'z', 0xFFFFFFFFu};
        check_to_utf8(beyond, 3, "\xEF\xBF\xBDz\xEF\xBF\xBD");
    }
}

/* Ill-formed UTF-8 `s` (n bytes) gives `expect` (UTF-8) on the way to wide
** and back. */
static void check_invalid_utf8(const char *s, size_t n, const char *expect)
{
    SQLWCHAR w[64];
    size_t units = lt_utf8_to_wide(s, n, w, COUNT(w), NULL);
    char *back;

    assert_true(units < COUNT(w));
    assert_int_equal(lt_utf8_wide_units(s, n), units);
    back = lt_wide_to_utf8(w, (SQLLEN)units, NULL, NULL);
    assert_non_null(back);
    assert_string_equal(back, expect);
    free(back);
}

#define FFFD "\xEF\xBF\xBD"

static void test_invalid_utf8(void **state)
{
    (void)state;
    check_invalid_utf8("\x80", 1, FFFD);
    check_invalid_utf8("a\xC3", 2, "a" FFFD);               /* cut at the end */
    check_invalid_utf8("\xC0\xAF", 2, FFFD FFFD);           /* overlong lead */
    check_invalid_utf8("\xE0\x80\x80", 3, FFFD FFFD FFFD);  /* overlong */
    check_invalid_utf8("\xED\xA0\x80", 3, FFFD FFFD FFFD);  /* surrogate */
    check_invalid_utf8("\xF4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD);
    check_invalid_utf8("\xF5\x80", 2, FFFD FFFD);
    check_invalid_utf8("\xE4\xB8" "A", 3, FFFD "A");        /* one subpart */
    check_invalid_utf8("\xF0\x9F\x98" "A", 4, FFFD "A");
    check_invalid_utf8("\xFF\xFE", 2, FFFD FFFD);
    /* Unicode 15, table 3-8: maximal subparts of ill-formed sequences. */
    check_invalid_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
                       13, "a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d");
    /* An embedded NUL is a character, not the end. */
    check_invalid_utf8("x\0y", 3, "x");
    assert_int_equal(lt_utf8_wide_units("x\0y", 3), 3);
}

static void test_truncation_never_splits_a_pair(void **state)
{
    (void)state;
    const char *s = "a\xF0\x9F\x98\x80" "b";   /* a 😀 b */
    const size_t total = UTF16 ? 4 : 3;
    SQLWCHAR w[8];
    size_t consumed = 99;

    /* Room for 'a' and one more unit: in UTF-16 the pair does not fit, and
    ** nothing after it may be written either. */
    for (size_t i = 0; i < COUNT(w); i++)
        w[i] = (SQLWCHAR)0x55;
    assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, 3, &consumed), total);
    if (UTF16) {
        assert_int_equal(w[0], 'a');
        assert_int_equal(w[1], 0);
        assert_int_equal(w[2], 0x55);
        assert_int_equal(consumed, 1);
    } else {
        assert_int_equal(w[0], 'a');
        assert_int_equal((uint32_t)w[1], 0x1F600);
        assert_int_equal(w[2], 0);
        assert_int_equal(consumed, 5);
    }

    /* Exactly the text without room for the terminator: truncated by one. */
    assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, total, &consumed), total);
    assert_int_equal(w[total - 1], 0);
    assert_int_equal(consumed, 5);

    /* Room for the terminator only. */
    w[0] = 0x55;
    assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, 1, &consumed), total);
    assert_int_equal(w[0], 0);
    assert_int_equal(consumed, 0);

    /* 3-byte characters stop on a character boundary too. */
    assert_int_equal(lt_utf8_to_wide("\xE4\xB8\xAD\xE6\x96\x87", 6, w, 2,
                                     &consumed), 2);
    assert_int_equal(w[0], 0x4E2D);
    assert_int_equal(w[1], 0);
    assert_int_equal(consumed, 3);
}

static void test_length_only(void **state)
{
    (void)state;
    const char *s = "\xE4\xB8\xAD\xF0\x9F\x98\x80";   /* 中😀 */
    SQLWCHAR w[2] = {0x55, 0x55};
    size_t consumed = 99;

    assert_int_equal(lt_utf8_to_wide(s, strlen(s), NULL, 0, &consumed),
                     UTF16 ? 3 : 2);
    assert_int_equal(consumed, 0);
    assert_int_equal(lt_utf8_wide_units(s, strlen(s)), UTF16 ? 3 : 2);
    /* A buffer of no room is not written at all. */
    assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, 0, NULL), UTF16 ? 3 : 2);
    assert_int_equal(w[0], 0x55);
    assert_int_equal(lt_utf8_wide_units("", 0), 0);
}

static void test_wide_to_utf8_lengths(void **state)
{
    (void)state;
    const uint32_t u[] = {'a', 0, 'b', 'c'};
    SQLWCHAR w[8];
    size_t len = 99;
    bool oom = true;
    char *s;

    units_to_wide(w, u, COUNT(u));
    /* An explicit length keeps an embedded NUL. */
    s = lt_wide_to_utf8(w, 3, &len, &oom);
    assert_non_null(s);
    assert_int_equal(len, 3);
    assert_memory_equal(s, "a\0b", 4);
    free(s);
    /* SQL_NTS stops at it. */
    s = lt_wide_to_utf8(w, SQL_NTS, &len, &oom);
    assert_string_equal(s, "a");
    assert_int_equal(len, 1);
    free(s);
    /* A bad length converts nothing. */
    s = lt_wide_to_utf8(w, -7, &len, &oom);
    assert_string_equal(s, "");
    assert_int_equal(len, 0);
    free(s);
    /* NULL gives NULL and is not out of memory. */
    assert_null(lt_wide_to_utf8(NULL, SQL_NTS, &len, &oom));
    assert_false(oom);
    assert_int_equal(lt_wide_len(NULL), 0);
}

/* An application's SQLWCHAR buffer need not be aligned: a column-wise
** SQL_C_WCHAR array with an odd BufferLength puts every other row at an odd
** address.  Stores and loads go unit by unit through memcpy (UBSan's
** alignment check fails this test otherwise). */
static void test_misaligned_buffers(void **state)
{
    (void)state;
    /* "a", U+00E9, U+4E2D, U+1F600 (a pair in UTF-16) */
    const char *s = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";
    const uint32_t u16[] = {0x61, 0xE9, 0x4E2D, 0xD83D, 0xDE00};
    const uint32_t u32[] = {0x61, 0xE9, 0x4E2D, 0x1F600};
    const uint32_t *u = UTF16 ? u16 : u32;
    size_t n = UTF16 ? COUNT(u16) : COUNT(u32);
    union {
        SQLWCHAR align;
        unsigned char bytes[16 * sizeof(SQLWCHAR) + 1];
    } mem;
    size_t consumed = 0;
    char *back;
    size_t back_len = 0;

    for (size_t shift = 1; shift < sizeof(SQLWCHAR); shift++) {
        SQLWCHAR *w = (SQLWCHAR *)(void *)(mem.bytes + shift);
        memset(mem.bytes, 0xA5, sizeof mem.bytes);
        assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, 16, &consumed), n);
        assert_int_equal(consumed, strlen(s));
        for (size_t i = 0; i <= n; i++) {
            SQLWCHAR got;
            memcpy(&got, mem.bytes + shift + i * sizeof got, sizeof got);
            assert_int_equal((uint32_t)got, i < n ? u[i] : 0);
        }
        assert_int_equal(mem.bytes[0], 0xA5);   /* nothing before dst */
        assert_int_equal(lt_wide_len(w), n);
        back = lt_wide_to_utf8(w, SQL_NTS, &back_len, NULL);
        assert_non_null(back);
        assert_int_equal(back_len, strlen(s));
        assert_string_equal(back, s);
        free(back);
        /* truncated: a prefix, terminated, the pair never split */
        assert_int_equal(lt_utf8_to_wide(s, strlen(s), w, 4, &consumed), n);
        assert_int_equal(consumed, 6);
        assert_int_equal(lt_wide_len(w), 3);
    }
}

/* Every scalar value survives UTF-8 -> wide -> UTF-8. */
static void test_every_code_point(void **state)
{
    (void)state;
    char s[8];
    SQLWCHAR w[4];

    for (uint32_t cp = 1; cp <= 0x10FFFF; cp++) {
        size_t n;
        char *back;
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        if (cp < 0x80) {
            s[0] = (char)cp;
            n = 1;
        } else if (cp < 0x800) {
            s[0] = (char)(0xC0 | (cp >> 6));
            s[1] = (char)(0x80 | (cp & 0x3F));
            n = 2;
        } else if (cp < 0x10000) {
            s[0] = (char)(0xE0 | (cp >> 12));
            s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            s[2] = (char)(0x80 | (cp & 0x3F));
            n = 3;
        } else {
            s[0] = (char)(0xF0 | (cp >> 18));
            s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
            s[3] = (char)(0x80 | (cp & 0x3F));
            n = 4;
        }
        size_t units = lt_utf8_to_wide(s, n, w, COUNT(w), NULL);
        if (units != (UTF16 && cp >= 0x10000 ? 2u : 1u))
            fail_msg("U+%04X gave %zu units", (unsigned)cp, units);
        back = lt_wide_to_utf8(w, SQL_NTS, NULL, NULL);
        if (!back || strlen(back) != n || memcmp(back, s, n) != 0)
            fail_msg("U+%04X did not round-trip", (unsigned)cp);
        free(back);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii),
        cmocka_unit_test(test_two_and_three_bytes),
        cmocka_unit_test(test_four_bytes),
        cmocka_unit_test(test_lone_surrogates),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_truncation_never_splits_a_pair),
        cmocka_unit_test(test_length_only),
        cmocka_unit_test(test_wide_to_utf8_lengths),
        cmocka_unit_test(test_every_code_point),
        cmocka_unit_test(test_misaligned_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
