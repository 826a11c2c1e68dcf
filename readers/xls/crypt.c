/*
** crypt.c — encrypted workbooks: the FILEPASS record ([MS-XLS] 2.4.117) and
** the RC4 schemes of [MS-OFFCRYPTO] 2.3.6 (RC4, keys from MD5) and 2.3.5
** (RC4 CryptoAPI, keys from SHA-1) and XOR obfuscation (2.3.7), with PWD=
** or, without it, Excel's built-in "VelvetSweatshop" (the password of
** workbooks that only protect themselves against writing, which Excel
** opens without asking).
**
** After FILEPASS every record's data is encrypted, except the records the
** spec exempts; the RC4 key changes every 1024 bytes of the stream and the
** key stream is indexed by the byte's offset in the stream (record headers
** take their place in it without being encrypted).  The stream is
** decrypted in place, in a private copy, once at open.
**
** MD5 (RFC 1321), SHA-1 (FIPS 180) and RC4 are small enough to carry here,
** which keeps the reader free of a crypto library.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xls_internal.h"

#define BLOCK 1024
#define DEFAULT_PASSWORD "VelvetSweatshop"

/* ---- MD5 ---------------------------------------------------------------- */

static uint32_t rol(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static void md5_block(uint32_t h[4], const uint8_t *p)
{
    static const uint32_t k[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static const uint8_t r[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                  5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 16; i++)
        w[i] = lt_le32(p + 4 * i);
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) % 16;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) % 16;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) % 16;
        }
        uint32_t t = d;
        d = c;
        c = b;
        b = b + rol(a + f + k[i] + w[g], r[i]);
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
}

/* MD-style padding: the message, 0x80, zeros, the bit length (64-bit, in
** the hash's byte order), fed block by block. */
static void pad_and_run(const uint8_t *data, size_t len, bool big_endian,
                        void (*block)(uint32_t *, const uint8_t *), uint32_t *h)
{
    size_t full = len / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        block(h, data + i);
    uint8_t tail[128] = {0};
    size_t rest = len - full;
    memcpy(tail, data + full, rest);
    tail[rest] = 0x80;
    size_t tlen = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tlen - 8 + i] = (uint8_t)(big_endian ? bits >> (56 - 8 * i) : bits >> (8 * i));
    for (size_t i = 0; i < tlen; i += 64)
        block(h, tail + i);
}

static void md5(const uint8_t *data, size_t len, uint8_t out[16])
{
    uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    pad_and_run(data, len, false, md5_block, h);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (uint8_t)(h[i] >> (8 * k));
}

/* ---- SHA-1 ---------------------------------------------------------------- */

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 16; i++)
        w[i] = lt_be32(p + 4 * i);
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

static void sha1(const uint8_t *data, size_t len, uint8_t out[20])
{
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    pad_and_run(data, len, true, sha1_block, h);
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (uint8_t)(h[i] >> (24 - 8 * k));
}

/* ---- RC4 -------------------------------------------------------------------- */

typedef struct rc4 {
    uint8_t s[256];
    uint8_t i, j;
} rc4;

static void rc4_init(rc4 *r, const uint8_t *key, size_t n)
{
    for (int i = 0; i < 256; i++)
        r->s[i] = (uint8_t)i;
    uint8_t j = 0;
    for (int i = 0; i < 256; i++) {
        j = (uint8_t)(j + r->s[i] + key[i % n]);
        uint8_t t = r->s[i];
        r->s[i] = r->s[j];
        r->s[j] = t;
    }
    r->i = r->j = 0;
}

/* XOR n key-stream bytes into buf (buf NULL: discard them). */
static void rc4_apply(rc4 *r, uint8_t *buf, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        r->i++;
        r->j = (uint8_t)(r->j + r->s[r->i]);
        uint8_t t = r->s[r->i];
        r->s[r->i] = r->s[r->j];
        r->s[r->j] = t;
        if (buf != NULL)
            buf[k] ^= r->s[(uint8_t)(r->s[r->i] + r->s[r->j])];
    }
}

/* ---- key derivation ------------------------------------------------------------ */

typedef struct keying {
    bool cryptoapi;
    uint8_t base[20];       /* RC4: truncated MD5 (5 bytes); CryptoAPI: H0 (20) */
    size_t key_len;         /* CryptoAPI: key bytes (5 for 40-bit keys) */
} keying;

static void block_key(const keying *k, uint32_t block, uint8_t key[16], size_t *len)
{
    uint8_t in[24], h[20];
    size_t base = k->cryptoapi ? 20 : 5;
    memcpy(in, k->base, base);
    for (int i = 0; i < 4; i++)
        in[base + (size_t)i] = (uint8_t)(block >> (8 * i));
    if (!k->cryptoapi) {
        md5(in, base + 4, key);
        *len = 16;
        return;
    }
    sha1(in, base + 4, h);
    memset(key, 0, 16);
    /* A 40-bit key is used as 128 bits with the rest zero. */
    memcpy(key, h, k->key_len);
    *len = k->key_len == 5 ? 16 : k->key_len;
}

/* UTF-8 password -> UTF-16LE; returns the byte length, 0 when too long. */
size_t xls_utf16_password(const char *pw, uint8_t *out, size_t cap)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)pw;
    while (*s) {
        uint32_t cp = *s++;
        int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
        if (more)
            cp &= 0x3F >> more;
        for (; more > 0 && (*s & 0xC0) == 0x80; more--)
            cp = cp << 6 | (*s++ & 0x3F);
        if (cp >= 0x10000) {
            if (o + 4 > cap)
                return 0;
            uint32_t v = cp - 0x10000;
            uint16_t hi = (uint16_t)(0xD800 + (v >> 10)), lo = (uint16_t)(0xDC00 + (v & 0x3FF));
            out[o++] = (uint8_t)hi;
            out[o++] = (uint8_t)(hi >> 8);
            out[o++] = (uint8_t)lo;
            out[o++] = (uint8_t)(lo >> 8);
        } else {
            if (o + 2 > cap)
                return 0;
            out[o++] = (uint8_t)cp;
            out[o++] = (uint8_t)(cp >> 8);
        }
    }
    return o;
}

/* The legacy RC4 header: salt, verifier, verifier hash (16 bytes each). */
static bool rc4_keying(const uint8_t *h, size_t len, const char *password, keying *k)
{
    if (len < 48)
        return false;
    const uint8_t *salt = h, *verifier = h + 16, *vhash = h + 32;
    uint8_t pw[512], digest[16], buf[21 * 16];
    size_t n = xls_utf16_password(password, pw, sizeof pw);
    if (n == 0)
        return false;
    md5(pw, n, digest);
    for (int i = 0; i < 16; i++) {
        memcpy(buf + 21 * i, digest, 5);
        memcpy(buf + 21 * i + 5, salt, 16);
    }
    md5(buf, sizeof buf, digest);
    memset(k, 0, sizeof *k);
    memcpy(k->base, digest, 5);
    uint8_t key[16], check[32], sum[16];
    size_t klen;
    block_key(k, 0, key, &klen);
    rc4 r;
    rc4_init(&r, key, klen);
    memcpy(check, verifier, 16);
    memcpy(check + 16, vhash, 16);
    rc4_apply(&r, check, 32);
    md5(check, 16, sum);
    return memcmp(sum, check + 16, 16) == 0;
}

/* The CryptoAPI header ([MS-OFFCRYPTO] 2.3.5.1) after the version. */
static bool cryptoapi_keying(const uint8_t *h, size_t len, const char *password, keying *k)
{
    if (len < 8)
        return false;
    uint32_t hsize = lt_le32(h + 4);
    if (hsize < 32 || hsize > len - 8 || len - 8 - hsize < 4 + 16 + 16 + 4 + 20)
        return false;
    uint32_t key_bits = lt_le32(h + 8 + 16);
    if (key_bits == 0)
        key_bits = 40;
    if (key_bits < 40 || key_bits > 128 || key_bits % 8 != 0)
        return false;
    const uint8_t *v = h + 8 + hsize;
    if (lt_le32(v) != 16 || lt_le32(v + 36) != 20)
        return false;
    const uint8_t *salt = v + 4, *verifier = v + 20, *vhash = v + 40;
    uint8_t in[16 + 512], pw[512];
    size_t n = xls_utf16_password(password, pw, sizeof pw);
    if (n == 0)
        return false;
    memcpy(in, salt, 16);
    memcpy(in + 16, pw, n);
    memset(k, 0, sizeof *k);
    k->cryptoapi = true;
    k->key_len = key_bits / 8;
    sha1(in, 16 + n, k->base);
    uint8_t key[16], check[36], sum[20];
    size_t klen;
    block_key(k, 0, key, &klen);
    rc4 r;
    rc4_init(&r, key, klen);
    memcpy(check, verifier, 16);
    memcpy(check + 16, vhash, 20);
    rc4_apply(&r, check, 36);
    sha1(check, 16, sum);
    return memcmp(sum, check + 16, 20) == 0;
}

/* ---- XOR obfuscation ([MS-OFFCRYPTO] 2.3.7, "method 1") ------------------------------ */

static const uint8_t xor_pad[15] = {0xBB, 0xFF, 0xFF, 0xBA, 0xFF, 0xFF, 0xB9, 0x80,
                                    0x00, 0xBE, 0x0F, 0x00, 0xBF, 0x0F, 0x00};
static const uint16_t xor_initial[15] = {0xE1F0, 0x1D0F, 0xCC9C, 0x84C0, 0x110C, 0x0E10, 0xF1CE, 0x313E,
                                         0x1872, 0xE139, 0xD40F, 0x84F9, 0x280C, 0xA96A, 0x4EC3};
static const uint16_t xor_matrix[105] = {
    0xAEFC, 0x4DD9, 0x9BB2, 0x2745, 0x4E8A, 0x9D14, 0x2A09, 0x7B61, 0xF6C2, 0xFDA5, 0xEB6B, 0xC6F7,
    0x9DCF, 0x2BBF, 0x4563, 0x8AC6, 0x05AD, 0x0B5A, 0x16B4, 0x2D68, 0x5AD0, 0x0375, 0x06EA, 0x0DD4,
    0x1BA8, 0x3750, 0x6EA0, 0xDD40, 0xD849, 0xA0B3, 0x5147, 0xA28E, 0x553D, 0xAA7A, 0x44D5, 0x6F45,
    0xDE8A, 0xAD35, 0x4A4B, 0x9496, 0x390D, 0x721A, 0xEB23, 0xC667, 0x9CEF, 0x29FF, 0x53FE, 0xA7FC,
    0x5FD9, 0x47D3, 0x8FA6, 0x0F6D, 0x1EDA, 0x3DB4, 0x7B68, 0xF6D0, 0xB861, 0x60E3, 0xC1C6, 0x93AD,
    0x377B, 0x6EF6, 0xDDEC, 0x45A0, 0x8B40, 0x06A1, 0x0D42, 0x1A84, 0x3508, 0x6A10, 0xAA51, 0x4483,
    0x8906, 0x022D, 0x045A, 0x08B4, 0x1168, 0x76B4, 0xED68, 0xCAF1, 0x85C3, 0x1BA7, 0x374E, 0x6E9C,
    0x3730, 0x6E60, 0xDCC0, 0xA9A1, 0x4363, 0x86C6, 0x1DAD, 0x3331, 0x6662, 0xCCC4, 0x89A9, 0x0373,
    0x06E6, 0x0DCC, 0x1021, 0x2042, 0x4084, 0x8108, 0x1231, 0x2462, 0x48C4};

/* The password as 1..15 single bytes (code points above 255 keep their low
** byte, as an ANSI conversion of them would be lossy anyway); 0 when empty
** or longer than 15. */
static size_t xor_password(const char *pw, uint8_t out[15])
{
    uint8_t u16[64];
    size_t n = xls_utf16_password(pw, u16, sizeof u16) / 2;
    if (n == 0 || n > 15)
        return 0;
    for (size_t i = 0; i < n; i++)
        out[i] = u16[2 * i];
    return n;
}

static uint16_t xor_verifier(const uint8_t *pw, size_t n)
{
    uint16_t v = 0;
    for (size_t i = n + 1; i-- > 0;) {
        uint16_t ch = i == 0 ? (uint16_t)n : pw[i - 1];
        v = (uint16_t)((((v >> 14) & 1) | ((v << 1) & 0x7FFF)) ^ ch);
    }
    return (uint16_t)(v ^ 0xCE4B);
}

static uint16_t xor_key(const uint8_t *pw, size_t n)
{
    uint16_t key = xor_initial[n - 1];
    int element = 0x68;
    for (size_t i = n; i-- > 0;) {
        uint8_t ch = pw[i];
        for (int bit = 0; bit < 7; bit++, element--) {
            if (ch & 0x40)
                key ^= xor_matrix[element];
            ch = (uint8_t)(ch << 1);
        }
    }
    return key;
}

static uint8_t ror8(uint8_t v, unsigned n)
{
    return (uint8_t)((v >> n) | (v << (8 - n)));
}

static void xor_array(const uint8_t *pw, size_t n, uint8_t out[16])
{
    uint16_t key = xor_key(pw, n);
    uint8_t hi = (uint8_t)(key >> 8), lo = (uint8_t)key;
    size_t i = n;
    memset(out, 0, 16);
    if (i % 2 == 1) {
        out[i] = ror8(xor_pad[0] ^ hi, 1);
        i--;
        out[i] = ror8(pw[n - 1] ^ lo, 1);
    }
    while (i > 0) {
        i--;
        out[i] = ror8(pw[i] ^ hi, 1);
        i--;
        out[i] = ror8(pw[i] ^ lo, 1);
    }
    /* The pad fills the rest from the end, two bytes at a time (for an even
    ** length the last pair reaches back to xor_pad[0]). */
    int at = 15;
    for (int pad = 15 - (int)n; pad > 0; pad -= 2, at -= 2) {
        out[at] = ror8(xor_pad[pad] ^ hi, 1);
        out[at - 1] = ror8(xor_pad[pad - 1] ^ lo, 1);
    }
}

/* ---- the stream -------------------------------------------------------------------- */

static bool exempt(uint16_t type)
{
    switch (type) {
    case 0x0809:   /* BOF */
    case 0x002F:   /* FILEPASS */
    case 0x0194:   /* USREXCL */
    case 0x0195:   /* FILELOCK */
    case 0x00E1:   /* INTERFACEHDR */
    case 0x0196:   /* RRDINFO */
    case 0x0138:   /* RRDHEAD */
        return true;
    default:
        return false;
    }
}

typedef struct cursor {
    const keying *k;
    rc4 r;
    uint32_t block;   /* block whose key is loaded, UINT32_MAX: none */
    size_t at;        /* key-stream offset reached within the block */
} cursor;

/* Decrypt bytes [from, to) of the stream; offsets only ever grow. */
static void decrypt_range(cursor *c, uint8_t *s, size_t from, size_t to)
{
    while (from < to) {
        uint32_t block = (uint32_t)(from / BLOCK);
        size_t off = from % BLOCK;
        if (block != c->block || off < c->at) {
            uint8_t key[16];
            size_t klen;
            block_key(c->k, block, key, &klen);
            rc4_init(&c->r, key, klen);
            c->block = block;
            c->at = 0;
        }
        rc4_apply(&c->r, NULL, off - c->at);
        size_t n = to - from < BLOCK - off ? to - from : BLOCK - off;
        rc4_apply(&c->r, s + from, n);
        c->at = off + n;
        from += n;
    }
}

/* The key stream of XOR obfuscation restarts for every record at the
** offset (end of the record's data) modulo 16, and each byte is rotated. */
static void unxor_range(const uint8_t array[16], uint8_t *s, size_t from, size_t to, size_t index)
{
    for (size_t p = from; p < to; p++, index++)
        s[p] = ror8(s[p] ^ array[index % 16], 5);
}

static int decrypt_stream(xls_source *src, const keying *k, const uint8_t *xor_arr,
                          size_t start, lt_error *err)
{
    if (src->wb.owned == NULL) {
        uint8_t *copy = malloc(src->wb.len ? src->wb.len : 1);
        if (copy == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        memcpy(copy, src->wb.data, src->wb.len);
        src->wb.owned = copy;
        src->wb.data = copy;
    }
    uint8_t *s = src->wb.owned;
    cursor c = {k, {{0}, 0, 0}, UINT32_MAX, 0};
    xls_record rec;
    for (size_t pos = start; xls_record_at(s, src->wb.len, pos, &rec, src->label, NULL) == 1; pos = rec.next) {
        if (exempt(rec.type))
            continue;
        size_t from = rec.data;
        if (rec.type == XLS_BOUNDSHEET)
            from += rec.len < 4 ? rec.len : 4;    /* lbPlyPos stays plain */
        if (xor_arr != NULL)
            unxor_range(xor_arr, s, from, rec.next, rec.next - rec.data + from);
        else
            decrypt_range(&c, s, from, rec.next);
    }
    return 0;
}

/* What the FILEPASS record says the encryption is. */
static const char *describe(const xls_source *src, const xls_record *fp)
{
    const uint8_t *d = src->wb.data + fp->data;
    if (src->biff != 8 || fp->len < 2 || lt_le16(d) == 0)
        return "XOR obfuscation";
    if (lt_le16(d) != 1 || fp->len < 6)
        return "an unknown encryption";
    uint16_t major = lt_le16(d + 2), minor = lt_le16(d + 4);
    if (major == 1 && minor == 1)
        return "RC4";
    if (major >= 2 && major <= 4 && minor == 2)
        return "RC4 CryptoAPI";
    return "an unknown RC4 encryption";
}

/* XOR obfuscation: the FILEPASS holds the key and the password verifier. */
static bool xor_keying(const xls_source *src, const xls_record *fp, const char *password,
                       uint8_t array[16])
{
    const uint8_t *d = src->wb.data + fp->data;
    size_t at = src->biff == 8 ? 2 : 0;
    uint8_t pw[15];
    size_t n = xor_password(password, pw);
    if (fp->len < at + 4 || n == 0)
        return false;
    if (xor_key(pw, n) != lt_le16(d + at) || xor_verifier(pw, n) != lt_le16(d + at + 2))
        return false;
    xor_array(pw, n, array);
    return true;
}

int xls_decrypt(xls_source *src, const xls_record *fp, const char *password, lt_error *err)
{
    const char *kind = describe(src, fp);
    const uint8_t *d = src->wb.data + fp->data;
    bool rc4_plain = strcmp(kind, "RC4") == 0, cryptoapi = strcmp(kind, "RC4 CryptoAPI") == 0;
    bool xor = strcmp(kind, "XOR obfuscation") == 0;
    if (!rc4_plain && !cryptoapi && !xor)
        return lt_error_set(err, "HY000", "'%s' is protected with %s: Lector cannot read it", src->label, kind);
    keying k;
    uint8_t array[16];
    const char *pw = password != NULL ? password : DEFAULT_PASSWORD;
    bool ok = xor ? xor_keying(src, fp, pw, array)
              : rc4_plain ? rc4_keying(d + 6, fp->len - 6, pw, &k)
              : cryptoapi_keying(d + 6, fp->len - 6, pw, &k);
    if (!ok) {
        if (password != NULL)
            return lt_error_set(err, "28000", "'%s' is encrypted with %s and the password given (PWD=) is not its password",
                                src->label, kind);
        return lt_error_set(err, "28000", "'%s' is encrypted with %s and a password: give it with PWD=",
                            src->label, kind);
    }
    return decrypt_stream(src, xor ? NULL : &k, xor ? array : NULL, fp->next, err);
}
