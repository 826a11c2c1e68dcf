/*
** test_common_codepage.c — code page decoding, LDIDs and .cpg names.
**
** What each code page should give comes from codepage_expect.inc, which
** scripts/gen-codepages.py computes from Python's codecs (the decoder the
** corpus oracle uses), not from the tables the driver decodes with.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/codepage.h"

#include "codepage_expect.inc"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The test's own UTF-8 encoder, so expectations never pass through the
** driver's tables. */
static size_t utf8_put(uint32_t c, char *out)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | (c >> 12));
    out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[2] = (char)(0x80 | (c & 0x3F));
    return 3;
}

/* Decode into a heap buffer of exactly LT_CODEPAGE_MAX_UTF8(len) bytes, so
** that the sanitizers catch any write past the documented room. */
static char *decode(int cp, const void *src, size_t len, size_t *out_len)
{
    char *dst = malloc(LT_CODEPAGE_MAX_UTF8(len) + (len == 0));
    assert_non_null(dst);
    *out_len = lt_codepage_decode(cp, src, len, dst);
    assert_true(*out_len <= LT_CODEPAGE_MAX_UTF8(len));
    return dst;
}

static void expect_decode(int cp, const void *src, size_t len, const char *want, size_t want_len)
{
    size_t n;
    char *got = decode(cp, src, len, &n);
    if (n != want_len || memcmp(got, want, n) != 0) {
        fprintf(stderr, "cp %d: input", cp);
        for (size_t i = 0; i < len; i++)
            fprintf(stderr, " %02X", ((const uint8_t *)src)[i]);
        fprintf(stderr, "\n  want");
        for (size_t i = 0; i < want_len; i++)
            fprintf(stderr, " %02X", (uint8_t)want[i]);
        fprintf(stderr, "\n  got ");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %02X", (uint8_t)got[i]);
        fprintf(stderr, "\n");
    }
    assert_int_equal(n, want_len);
    assert_memory_equal(got, want, n);
    free(got);
}

static uint32_t expected_code(const struct expect_single *e, unsigned b)
{
    if (b >= 0x80)
        return e->high[b - 0x80];
    return e->low != NULL ? e->low[b] : b;
}

/* Every byte of every single-byte code page, alone and all together. */
static void test_single_byte_pages(void **state)
{
    (void)state;
    for (size_t p = 0; p < COUNT(expect_single); p++) {
        const struct expect_single *e = &expect_single[p];
        uint8_t all[256];
        char want_all[256 * 3];
        size_t want_all_len = 0;
        assert_true(lt_codepage_known(e->cp));
        for (unsigned b = 0; b < 256; b++) {
            char want[3];
            size_t want_len = utf8_put(expected_code(e, b), want);
            uint8_t byte = (uint8_t)b;
            expect_decode(e->cp, &byte, 1, want, want_len);
            all[b] = byte;
            memcpy(want_all + want_all_len, want, want_len);
            want_all_len += want_len;
        }
        expect_decode(e->cp, all, sizeof all, want_all, want_all_len);
    }
}

/* Long mixed text: ASCII runs of every length between other bytes, so the
** eight-byte ASCII steps start and stop at every alignment. */
static void test_single_byte_mixed(void **state)
{
    (void)state;
    uint8_t src[2000];
    char want[sizeof src * 3];
    uint32_t seed = 12345;
    for (size_t p = 0; p < COUNT(expect_single); p++) {
        const struct expect_single *e = &expect_single[p];
        size_t want_len = 0;
        for (size_t i = 0; i < sizeof src; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) & 0x7FFF;
            src[i] = (uint8_t)(r % 23 == 0 ? 0x80 + r % 128 : 0x20 + r % 95);
            want_len += utf8_put(expected_code(e, src[i]), want + want_len);
        }
        expect_decode(e->cp, src, sizeof src, want, want_len);
    }
}

/* Every sample of the multi-byte code pages and of UTF-8, alone and after
** ASCII of odd length (ASCII never joins a sequence before it). */
static void test_multi_byte_and_utf8_samples(void **state)
{
    (void)state;
    static const char prefix[] = "thirteen byte";
    size_t plen = sizeof prefix - 1;
    for (size_t c = 0; c < COUNT(expect_cases); c++) {
        const struct expect_case *e = &expect_cases[c];
        assert_true(lt_codepage_known(e->cp));
        expect_decode(e->cp, e->in, e->in_len, e->out, e->out_len);

        uint8_t in[256];
        char want[512];
        assert_true(plen + e->in_len <= sizeof in);
        memcpy(in, prefix, plen);
        memcpy(in + plen, e->in, e->in_len);
        memcpy(want, prefix, plen);
        memcpy(want + plen, e->out, e->out_len);
        expect_decode(e->cp, in, plen + e->in_len, want, plen + e->out_len);
    }
}

/* Length of the well-formed UTF-8 character at `s` (Unicode table 3-7),
** or 0. */
static size_t utf8_char_len(const uint8_t *s, size_t len)
{
    uint8_t b = s[0];
    size_t need;
    uint8_t lo = 0x80, hi = 0xBF;
    if (b < 0x80)
        return 1;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        if (b == 0xE0)
            lo = 0xA0;
        if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        if (b == 0xF0)
            lo = 0x90;
        if (b == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (len <= need || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k <= need; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return need + 1;
}

/* Whatever the bytes, every code page gives well-formed UTF-8 within the
** documented room (the buffer is exactly that big, for the sanitizers). */
static void test_random_bytes_give_utf8(void **state)
{
    (void)state;
    int cps[COUNT(expect_single) + 6];
    size_t ncp = 0;
    for (size_t p = 0; p < COUNT(expect_single); p++)
        cps[ncp++] = expect_single[p].cp;
    cps[ncp++] = 932;
    cps[ncp++] = 936;
    cps[ncp++] = 949;
    cps[ncp++] = 950;
    cps[ncp++] = 65001;
    cps[ncp++] = 999;   /* unknown: as 437 */
    uint32_t seed = 99;
    uint8_t src[80];
    for (size_t c = 0; c < ncp; c++) {
        for (int round = 0; round < 300; round++) {
            seed = seed * 1103515245u + 12345u;
            size_t len = (seed >> 16) % (sizeof src + 1);
            for (size_t i = 0; i < len; i++) {
                seed = seed * 1103515245u + 12345u;
                src[i] = (uint8_t)(seed >> 16);
            }
            size_t n;
            char *out = decode(cps[c], src, len, &n);
            for (size_t i = 0; i < n;) {
                size_t k = utf8_char_len((const uint8_t *)out + i, n - i);
                assert_true(k > 0);
                i += k;
            }
            free(out);
        }
    }
}

#define DECODES_TO(cp, in, out) expect_decode((cp), (in), sizeof(in) - 1, (out), sizeof(out) - 1)

/* A few of the sample cases again, written out so they can be read. */
static void test_invalid_and_truncated(void **state)
{
    (void)state;
    /* UTF-8: overlong forms, surrogates and truncation. */
    DECODES_TO(65001, "\xC0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD");
    DECODES_TO(65001, "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    DECODES_TO(65001, "\xF4\x90\x80\x80",
               "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    DECODES_TO(65001, "a\xE2\x82", "a\xEF\xBF\xBD");
    DECODES_TO(65001, "a\xE2\x82z", "a\xEF\xBF\xBDz");
    DECODES_TO(65001, "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80");
    DECODES_TO(65001, "\xFF", "\xEF\xBF\xBD");
    /* GBK: a lead byte at the end, a lead byte with a bad trail byte (the
    ** trail byte is then read on its own), a byte that is never valid. */
    DECODES_TO(936, "ab\x81", "ab\xEF\xBF\xBD");
    DECODES_TO(936, "\x81\x7F", "\xEF\xBF\xBD\x7F");
    DECODES_TO(936, "\xC4\xE3\xBA\xC3", "\xE4\xBD\xA0\xE5\xA5\xBD");   /* 你好 */
    DECODES_TO(936, "\xFF", "\xEF\xBF\xBD");
    /* Shift-JIS: half-width katakana are single bytes. */
    DECODES_TO(932, "\xB1", "\xEF\xBD\xB1");
    DECODES_TO(932, "\x82\xA0", "\xE3\x81\x82");                       /* あ */
    DECODES_TO(932, "\x82", "\xEF\xBF\xBD");
    DECODES_TO(949, "\xC7\xD1", "\xED\x95\x9C");                       /* 한 */
    DECODES_TO(950, "\xA4\xA4", "\xE4\xB8\xAD");                       /* 中 */
    /* Single-byte pages: undefined bytes keep their value. */
    DECODES_TO(1252, "\x81\x80", "\xC2\x81\xE2\x82\xAC");
    DECODES_TO(874, "\xDB", "\xC3\x9B");
    /* cp864 differs from ASCII at 0x25. */
    DECODES_TO(864, "5%", "5\xD9\xAA");
    /* An unknown code page decodes as 437. */
    DECODES_TO(4242, "\x80\x9B", "\xC3\x87\xC2\xA2");
    size_t n;
    char *out = decode(1252, "", 0, &n);
    assert_int_equal(n, 0);
    free(out);
}

static void test_is_ascii(void **state)
{
    (void)state;
    uint8_t buf[40];
    memset(buf, 'x', sizeof buf);
    assert_true(lt_is_ascii(buf, 0));
    for (size_t len = 1; len <= sizeof buf; len++) {
        assert_true(lt_is_ascii(buf, len));
        for (size_t at = 0; at < len; at++) {
            buf[at] = 0x80;
            assert_false(lt_is_ascii(buf, len));
            buf[at] = 0xFF;
            assert_false(lt_is_ascii(buf, len));
            buf[at] = 'x';
        }
    }
}

static void test_known(void **state)
{
    (void)state;
    static const int known[] = {437, 850, 852, 866, 874, 932, 936, 949, 950, 1250, 1251,
                                1252, 1258, 10000, 10007, 20866, 21866, 28591, 28599,
                                28605, 65001};
    static const int unknown[] = {0, -1, 1, 20127, 28600, 65000, 65002, 54936, 1200};
    for (size_t i = 0; i < COUNT(known); i++)
        assert_true(lt_codepage_known(known[i]));
    for (size_t i = 0; i < COUNT(unknown); i++)
        assert_false(lt_codepage_known(unknown[i]));
}

/* Language-driver ids of dBASE IV and Visual FoxPro. */
static void test_ldid(void **state)
{
    (void)state;
    static const struct {
        uint8_t ldid;
        int cp;
    } table[] = {
        {0x01, 437},   {0x02, 850},   {0x03, 1252},  {0x04, 10000}, {0x08, 865},
        {0x09, 437},   {0x0A, 850},   {0x0B, 437},   {0x0D, 437},   {0x0E, 850},
        {0x0F, 437},   {0x10, 850},   {0x11, 437},   {0x12, 850},   {0x13, 932},
        {0x14, 850},   {0x15, 437},   {0x16, 850},   {0x17, 865},   {0x18, 437},
        {0x19, 437},   {0x1A, 850},   {0x1B, 437},   {0x1C, 863},   {0x1D, 850},
        {0x1F, 852},   {0x22, 852},   {0x23, 852},   {0x24, 860},   {0x25, 850},
        {0x26, 866},   {0x37, 850},   {0x40, 852},   {0x4D, 936},   {0x4E, 949},
        {0x4F, 950},   {0x50, 874},   {0x57, 1252},  {0x58, 1252},  {0x59, 1252},
        {0x64, 852},   {0x65, 866},   {0x66, 865},   {0x67, 861},   {0x6A, 737},
        {0x6B, 857},   {0x6C, 863},   {0x78, 950},   {0x79, 949},   {0x7A, 936},
        {0x7B, 932},   {0x7C, 874},   {0x7D, 1255},  {0x7E, 1256},  {0x86, 737},
        {0x87, 852},   {0x88, 857},   {0x96, 10007}, {0x97, 10029}, {0x98, 10006},
        {0xC8, 1250},  {0xC9, 1251},  {0xCA, 1254},  {0xCB, 1253},  {0xCC, 1257},
        /* None, unknown, or a code page without a table (Kamenicky, Mazovia). */
        {0x00, 0},     {0x05, 0},     {0x68, 0},     {0x69, 0},     {0xF0, 0},
        {0xFF, 0},
    };
    for (size_t i = 0; i < COUNT(table); i++)
        assert_int_equal(lt_codepage_from_ldid(table[i].ldid), table[i].cp);
    for (unsigned id = 0; id < 256; id++) {
        int cp = lt_codepage_from_ldid((uint8_t)id);
        assert_true(cp == 0 || lt_codepage_known(cp));
    }
}

static void test_cpg_names(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int cp;
    } table[] = {
        {"1252", 1252},          {" 1251\r\n", 1251},       {"ANSI 1251", 1251},
        {"ansi 1250", 1250},     {"CP1251", 1251},          {"cp866", 866},
        {"UTF-8", 65001},        {"UTF8", 65001},           {"utf-8\n", 65001},
        {"65001", 65001},        {"ISO-8859-1", 28591},     {"ISO 8859-1", 28591},
        {"88591", 28591},        {"LATIN1", 28591},         {"latin-1", 28591},
        {"ISO-8859-2", 28592},   {"ISO-8859-5", 28595},     {"ISO-8859-9", 28599},
        {"ISO-8859-15", 28605},  {"iso8859_13", 28603},     {"KOI8-R", 20866},
        {"koi8-u", 21866},       {"windows-1252", 1252},    {"IBM850", 850},
        {"Shift_JIS", 932},      {"GBK", 936},              {"Big5", 950},
        {"EUC-KR", 949},         {"932", 932},              {"28591", 28591},
        {"MacRoman", 10000},     {"ASCII", 28591},
        {"", 0},                 {"   ", 0},                {"ANSI", 0},
        {"1234", 0},             {"ISO-8859-12", 0},        {"UTF-16", 0},
        {"EBCDIC", 0},           {"12520000000", 0},        {"cp\xC3\xA9", 0},
        {"a very long name that is no code page at all", 0},
    };
    for (size_t i = 0; i < COUNT(table); i++) {
        int cp = lt_codepage_from_name(table[i].text, strlen(table[i].text));
        if (cp != table[i].cp)
            fprintf(stderr, "name \"%s\": want %d, got %d\n", table[i].text, table[i].cp, cp);
        assert_int_equal(cp, table[i].cp);
    }
    /* The length bounds the text; a NUL ends it early. */
    assert_int_equal(lt_codepage_from_name("12529", 4), 1252);
    assert_int_equal(lt_codepage_from_name("1251\0garbage", 12), 1251);
    assert_int_equal(lt_codepage_from_name(NULL, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_byte_pages),
        cmocka_unit_test(test_single_byte_mixed),
        cmocka_unit_test(test_multi_byte_and_utf8_samples),
        cmocka_unit_test(test_invalid_and_truncated),
        cmocka_unit_test(test_random_bytes_give_utf8),
        cmocka_unit_test(test_is_ascii),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_ldid),
        cmocka_unit_test(test_cpg_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
