/*
** text.c — stored text to UTF-8.
**
** Jet 3 stores text in the ANSI code page of the machine that wrote it
** (the header and each text column name one, usually 1252, but a Chinese
** system writes GBK under the same 1252: hence the CodePage= option).
**
** Jet 4 and later store UTF-16LE, or "compressed unicode": the marker FF FE,
** then runs that alternate, at each 0x00 byte, between one byte per
** character (the low byte of a code unit below 0x100) and two bytes per
** code unit.  Surrogate pairs are joined; an unpaired surrogate becomes
** U+FFFD.  Text that already is UTF-8 in the file (ASCII code-page text,
** ASCII compressed text) is handed out in place.
*/
#include "access_internal.h"

#include "../common/codepage.h"
#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

/* Turns UTF-16 code units into UTF-8, joining surrogate pairs. */
typedef struct utf8_out {
    char *dst;
    size_t n;
    uint32_t high;             /* pending high surrogate, or 0 */
} utf8_out;

static void put_cp(utf8_out *o, uint32_t cp)
{
    char *d = o->dst + o->n;
    if (cp < 0x80) {
        d[0] = (char)cp;
        o->n += 1;
    } else if (cp < 0x800) {
        d[0] = (char)(0xc0 | cp >> 6);
        d[1] = (char)(0x80 | (cp & 0x3f));
        o->n += 2;
    } else if (cp < 0x10000) {
        d[0] = (char)(0xe0 | cp >> 12);
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        d[2] = (char)(0x80 | (cp & 0x3f));
        o->n += 3;
    } else {
        d[0] = (char)(0xf0 | cp >> 18);
        d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        d[3] = (char)(0x80 | (cp & 0x3f));
        o->n += 4;
    }
}

static void put_unit(utf8_out *o, uint32_t u)
{
    if (o->high != 0) {
        if (u >= 0xdc00 && u <= 0xdfff) {
            put_cp(o, 0x10000 + ((o->high - 0xd800) << 10) + (u - 0xdc00));
            o->high = 0;
            return;
        }
        put_cp(o, 0xfffd);
        o->high = 0;
    }
    if (u >= 0xd800 && u <= 0xdbff)
        o->high = u;
    else if (u >= 0xdc00 && u <= 0xdfff)
        put_cp(o, 0xfffd);
    else
        put_cp(o, u);
}

static size_t finish(utf8_out *o)
{
    if (o->high != 0)
        put_cp(o, 0xfffd);
    o->high = 0;
    return o->n;
}

size_t mdb_utf16_to_utf8(const uint8_t *p, size_t len, char *dst)
{
    utf8_out o = {dst, 0, 0};
    for (size_t i = 0; i + 1 < len; i += 2)
        put_unit(&o, lt_le16(p + i));
    return finish(&o);
}

size_t mdb_uncompress_to_utf8(const uint8_t *p, size_t len, char *dst)
{
    utf8_out o = {dst, 0, 0};
    bool compressed = true;
    size_t i = 0;
    while (i < len) {
        if (p[i] == 0) {
            compressed = !compressed;
            i++;
        } else if (compressed) {
            put_unit(&o, p[i]);
            i++;
        } else if (i + 1 < len) {
            put_unit(&o, lt_le16(p + i));
            i += 2;
        } else {
            break;      /* a lone byte where a code unit should be */
        }
    }
    return finish(&o);
}

int mdb_codepage(const mdb_db *db, const mdb_column *col)
{
    if (db->codepage_option != 0)
        return db->codepage_option;
    if (col != NULL && lt_codepage_known(col->codepage))
        return col->codepage;
    if (db->codepage != 0)
        return db->codepage;
    return 1252;
}

static bool compressed_marker(const uint8_t *p, uint32_t len)
{
    return len >= 2 && p[0] == 0xff && p[1] == 0xfe;
}

/* Decode into `dst` (room for 3 * len + 1); returns the length. */
static size_t decode(const mdb_db *db, int cp, const uint8_t *p, uint32_t len, char *dst)
{
    if (db->jet3)
        return lt_codepage_decode(cp, p, len, dst);
    if (compressed_marker(p, len))
        return mdb_uncompress_to_utf8(p + 2, len - 2, dst);
    return mdb_utf16_to_utf8(p, len, dst);
}

/* Compressed text that never leaves one-byte mode (no 0x00 switch) — the
** common case: Latin-1 characters, each one or two UTF-8 bytes.  Handed out
** in place when all ASCII, else written straight into the arena in one
** pass (room for the worst case, two bytes a character).  0 done, 1 not
** this case, -1 out of memory. */
static int latin1_text(const uint8_t *p, uint32_t len, lt_arena *arena, lt_bytes *out)
{
    uint32_t i = 0;
    while (i < len && (uint8_t)(p[i] - 1) < 0x7f)   /* 0x01..0x7f */
        i++;
    if (i == len) {
        out->ptr = (const char *)p;
        out->len = len;
        return 0;
    }
    if (p[i] == 0)
        return 1;
    char *s = lt_arena_alloc(arena, (size_t)i + 2 * (size_t)(len - i) + 1);
    if (s == NULL)
        return -1;
    memcpy(s, p, i);
    /* Branch-free: names mix ASCII and accented letters unpredictably.
    ** Both bytes are written each time; an ASCII character's second byte
    ** is overwritten by the next character (the last one's by the NUL). */
    char *d = s + i;
    unsigned zeros = 0;
    for (; i < len; i++) {
        unsigned b = p[i], hi = b >> 7;
        zeros |= b == 0;
        d[0] = (char)(hi ? 0xc0 | b >> 6 : b);
        d[1] = (char)(0x80 | (b & 0x3f));
        d += 1 + hi;
    }
    if (zeros)
        return 1;   /* a mode switch after all: the arena bytes are wasted */
    *d = '\0';
    out->ptr = s;
    out->len = (uint32_t)(d - s);
    return 0;
}

int mdb_text(const mdb_db *db, int cp, const uint8_t *p, uint32_t len,
             mdb_buf *scratch, lt_arena *arena, lt_bytes *out)
{
    /* Already UTF-8 where it lies: ASCII code-page text (compressed ASCII
    ** text: latin1_text). */
    if (db->jet3 && lt_is_ascii(p, len)) {
        out->ptr = (const char *)p;
        out->len = len;
        return 0;
    }
    if (!db->jet3 && compressed_marker(p, len)) {
        int r = latin1_text(p + 2, len - 2, arena, out);
        if (r <= 0)
            return r;
    }
    if (mdb_buf_reserve(scratch, (size_t)len * 3 + 1) != 0)
        return -1;
    size_t n = decode(db, cp, p, len, (char *)scratch->p);
    char *s = lt_arena_strndup(arena, (const char *)scratch->p, n);
    if (s == NULL)
        return -1;
    out->ptr = s;
    out->len = (uint32_t)n;
    return 0;
}

char *mdb_text_dup(const mdb_db *db, const uint8_t *p, uint32_t len)
{
    char *s = malloc((size_t)len * 3 + 1);
    if (s == NULL)
        return NULL;
    size_t n = decode(db, mdb_codepage(db, NULL), p, len, s);
    s[n] = '\0';
    return s;
}
