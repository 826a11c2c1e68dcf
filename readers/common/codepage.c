/*
** codepage.c — decoding text in a file's code page to UTF-8.
**
** Three decoders share one pattern: runs of ASCII are copied eight bytes at
** a time, everything else goes through a table of characters already
** encoded as UTF-8 (codepage_tables.c, generated from Python's codecs by
** scripts/gen-codepages.py).  Errors follow the corpus oracle
** (shared/corpus/dbf/make-oracle.py, which decodes with Python): a byte a
** single-byte page leaves undefined is the code point of the same value
** (the tables already say so), and every error range Python's multi-byte
** and UTF-8 decoders report becomes one U+FFFD.
**
** Also here: the dBASE language-driver byte and .cpg names to code pages.
*/
#include "codepage.h"

#include <string.h>

#include "codepage_tables.h"

#define CP_DEFAULT 437

/* UTF-8 length of a table slot, by the high nibble of its first byte.
** Continuation bytes (0x8_..0xB_) and 0xF_ never start a slot. */
static const uint8_t slot_len[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 0};

static const char replacement[3] = {'\xEF', '\xBF', '\xBD'};   /* U+FFFD */

bool lt_codepage_known(int cp)
{
    return cp == LT_CP_UTF8 || lt_cp_find(cp) != NULL;
}

/* ---- decoding ----------------------------------------------------------- */

/* Copy the ASCII bytes that start `src`; returns how many. */
static size_t copy_ascii(const uint8_t *src, size_t len, char *dst)
{
    size_t i = 0;
    while (len - i >= 8) {
        uint64_t w;
        memcpy(&w, src + i, 8);
        if (w & UINT64_C(0x8080808080808080))
            break;
        memcpy(dst + i, &w, 8);
        i += 8;
    }
    while (i < len && src[i] < 0x80) {
        dst[i] = (char)src[i];
        i++;
    }
    return i;
}

/* Write a slot's three bytes and return the length of its character.
** Writing all three is safe: every input byte may produce three. */
static size_t put_slot(char *dst, const char *slot)
{
    /* All three loaded first: a store through char * could alias the table
    ** and force reloads. */
    char a = slot[0], b = slot[1], c = slot[2];
    dst[0] = a;
    dst[1] = b;
    dst[2] = c;
    return slot_len[(uint8_t)a >> 4];
}

static size_t put_replacement(char *dst)
{
    memcpy(dst, replacement, 3);
    return 3;
}

/* Eight ASCII bytes at a time where the page's lower half is ASCII, else
** every byte through the table: a pick between the two halves, a three-byte
** copy and a length look-up, with no branch on the character itself. */
static size_t decode_single(const lt_cp_single *page, const uint8_t *src, size_t len, char *dst)
{
    const char *const half[2] = {page->low, page->high};
    bool bulk = page->low == lt_cp_ascii;
    size_t i = 0, n = 0;
    while (i < len) {
        if (bulk && len - i >= 8) {
            uint64_t w;
            memcpy(&w, src + i, 8);
            if ((w & UINT64_C(0x8080808080808080)) == 0) {
                memcpy(dst + n, &w, 8);
                i += 8;
                n += 8;
                continue;
            }
        }
        size_t end = len - i > 8 ? i + 8 : len;
        for (; i < end; i++) {
            uint8_t b = src[i];
            n += put_slot(dst + n, half[b >> 7] + LT_CP_SLOT * (b & 0x7F));
        }
    }
    return n;
}

/* Lead byte + trail byte in the table is a character; anything else at a
** byte >= 0x80 is that byte alone, a character or U+FFFD, and decoding goes
** on with the next byte (so a bad trail byte is read again on its own), as
** Python's CJK codecs do. */
static size_t decode_double(const lt_cp_multi *page, const uint8_t *src, size_t len, char *dst)
{
    size_t i = 0, n = 0;
    while (i < len) {
        uint8_t b = src[i];
        if (b < 0x80) {
            size_t k = copy_ascii(src + i, len - i, dst + n);
            i += k;
            n += k;
            continue;
        }
        const lt_cp_row *row = &page->rows[b - 0x80];
        if (row->slots != NULL && len - i >= 2) {
            uint8_t t = src[i + 1];
            if (t >= row->first && t <= row->last) {
                const char *s = row->slots + LT_CP_SLOT * (t - row->first);
                if ((uint8_t)s[0] >= 0x80) {
                    n += put_slot(dst + n, s);
                    i += 2;
                    continue;
                }
            }
        }
        const char *s = page->single + LT_CP_SLOT * (b - 0x80);
        n += (uint8_t)s[0] >= 0x80 ? put_slot(dst + n, s) : put_replacement(dst + n);
        i++;
    }
    return n;
}

/* Well-formed UTF-8 (Unicode table 3-7) is copied.  An ill-formed sequence
** becomes one U+FFFD for its maximal valid prefix ("maximal subpart"), or
** for the single byte when no sequence starts there: overlong forms,
** surrogates and code points past U+10FFFF are never valid. */
static size_t decode_utf8(const uint8_t *src, size_t len, char *dst)
{
    size_t i = 0, n = 0;
    while (i < len) {
        uint8_t b = src[i];
        if (b < 0x80) {
            size_t k = copy_ascii(src + i, len - i, dst + n);
            i += k;
            n += k;
            continue;
        }
        size_t need;                    /* continuation bytes to follow */
        uint8_t lo = 0x80, hi = 0xBF;   /* range of the second byte */
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            lo = b == 0xE0 ? 0xA0 : 0x80;
            hi = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            lo = b == 0xF0 ? 0x90 : 0x80;
            hi = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            n += put_replacement(dst + n);
            i++;
            continue;
        }
        size_t k = 1;
        if (len - i > 1 && src[i + 1] >= lo && src[i + 1] <= hi) {
            k = 2;
            while (k <= need && len - i > k && (src[i + k] & 0xC0) == 0x80)
                k++;
        }
        if (k == need + 1) {
            memcpy(dst + n, src + i, k);
            n += k;
        } else {
            n += put_replacement(dst + n);
        }
        i += k;
    }
    return n;
}

size_t lt_codepage_decode(int cp, const uint8_t *src, size_t len, char *dst)
{
    if (cp == LT_CP_UTF8)
        return decode_utf8(src, len, dst);
    const lt_cp_page *page = lt_cp_find(cp);
    if (page == NULL)
        page = lt_cp_find(CP_DEFAULT);
    if (page->multi != NULL)
        return decode_double(page->multi, src, len, dst);
    return decode_single(page->single, src, len, dst);
}

bool lt_is_ascii(const uint8_t *src, size_t len)
{
    uint64_t any = 0;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, src + i, 8);
        any |= w;
    }
    for (; i < len; i++)
        any |= src[i];
    return (any & UINT64_C(0x8080808080808080)) == 0;
}

/* ---- naming a code page ------------------------------------------------- */

/* dBASE language-driver ids (header byte 29), from the dBASE IV / Visual
** FoxPro tables of language drivers and code pages.  Mazovia (0x69, cp620)
** and Kamenicky (0x68, cp895) have no table here and stay unknown. */
static const uint16_t ldid_cp[256] = {
    [0x01] = 437,   [0x02] = 850,   [0x03] = 1252,  [0x04] = 10000,
    [0x08] = 865,   [0x09] = 437,   [0x0A] = 850,   [0x0B] = 437,
    [0x0D] = 437,   [0x0E] = 850,   [0x0F] = 437,   [0x10] = 850,
    [0x11] = 437,   [0x12] = 850,   [0x13] = 932,   [0x14] = 850,
    [0x15] = 437,   [0x16] = 850,   [0x17] = 865,   [0x18] = 437,
    [0x19] = 437,   [0x1A] = 850,   [0x1B] = 437,   [0x1C] = 863,
    [0x1D] = 850,   [0x1F] = 852,   [0x22] = 852,   [0x23] = 852,
    [0x24] = 860,   [0x25] = 850,   [0x26] = 866,   [0x37] = 850,
    [0x40] = 852,   [0x4D] = 936,   [0x4E] = 949,   [0x4F] = 950,
    [0x50] = 874,   [0x57] = 1252,  [0x58] = 1252,  [0x59] = 1252,
    [0x64] = 852,   [0x65] = 866,   [0x66] = 865,   [0x67] = 861,
    [0x6A] = 737,   [0x6B] = 857,   [0x6C] = 863,
    [0x78] = 950,   [0x79] = 949,   [0x7A] = 936,   [0x7B] = 932,
    [0x7C] = 874,   [0x7D] = 1255,  [0x7E] = 1256,
    [0x86] = 737,   [0x87] = 852,   [0x88] = 857,
    [0x96] = 10007, [0x97] = 10029, [0x98] = 10006,
    [0xC8] = 1250,  [0xC9] = 1251,  [0xCA] = 1254,  [0xCB] = 1253,
    [0xCC] = 1257,
};

int lt_codepage_from_ldid(uint8_t ldid)
{
    return ldid_cp[ldid];
}

/* Names a .cpg may hold, upper case with everything but letters and digits
** removed.  Plain ASCII is read as ISO-8859-1 since the oracle gives a byte
** >= 0x80 its own value there as well. */
static const struct cp_name {
    const char *name;
    int cp;
} cp_names[] = {
    {"UTF8", LT_CP_UTF8},
    {"ASCII", 28591},       {"USASCII", 28591},
    {"LATIN1", 28591},      {"LATIN2", 28592},      {"LATIN3", 28593},
    {"LATIN4", 28594},      {"LATIN5", 28599},      {"LATIN7", 28603},
    {"LATIN9", 28605},      {"CYRILLIC", 28595},    {"ARABIC", 28596},
    {"GREEK", 28597},       {"HEBREW", 28598},
    {"KOI8R", 20866},       {"KOI8U", 21866},
    {"MACROMAN", 10000},    {"MACINTOSH", 10000},   {"MACGREEK", 10006},
    {"MACCYRILLIC", 10007}, {"MACLATIN2", 10029},   {"MACCENTRALEUROPE", 10029},
    {"SHIFTJIS", 932},      {"SJIS", 932},          {"WINDOWS31J", 932},
    {"GBK", 936},           {"GB2312", 936},
    {"EUCKR", 949},         {"UHC", 949},           {"KSC5601", 949},
    {"BIG5", 950},
};

/* "8859N" (the ISO- prefix already gone) as a Windows number, else 0. */
static int iso8859_cp(const char *digits)
{
    if (strncmp(digits, "8859", 4) != 0)
        return 0;
    const char *part = digits + 4;
    if (part[0] >= '1' && part[0] <= '9' && part[1] == '\0')
        return 28590 + (part[0] - '0');
    if (strcmp(part, "13") == 0)
        return 28603;
    if (strcmp(part, "15") == 0)
        return 28605;
    return 0;
}

static bool all_digits(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Squeeze `text` to upper-case letters and digits in `key`; false when it
** does not fit or holds something a code page name never does. */
static bool name_key(const char *text, size_t len, char *key, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < len && text[i] != '\0'; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            if (k + 1 >= size)
                return false;
            key[k++] = (char)c;
        } else if (c >= 0x80) {
            return false;
        }
    }
    key[k] = '\0';
    return k > 0;
}

int lt_codepage_from_name(const char *text, size_t len)
{
    static const char *const prefixes[] = {"ANSI", "WINDOWS", "CP", "IBM", "MS", "ISO"};
    char key[32];
    if (text == NULL || !name_key(text, len, key, sizeof key))
        return 0;
    for (size_t i = 0; i < sizeof cp_names / sizeof cp_names[0]; i++)
        if (strcmp(key, cp_names[i].name) == 0)
            return cp_names[i].cp;
    /* "1252", "ANSI 1251", "CP1251", "windows-1250", "ISO-8859-5", "88591". */
    const char *digits = key;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(digits, prefixes[i], n) == 0 && all_digits(digits + n)) {
            digits += n;
            break;
        }
    }
    if (!all_digits(digits) || strlen(digits) > 6)
        return 0;
    int cp = iso8859_cp(digits);
    if (cp == 0)
        for (const char *d = digits; *d; d++)
            cp = cp * 10 + (*d - '0');
    return lt_codepage_known(cp) ? cp : 0;
}
