/*
** zip.c — the ZIP container of an .xlsb package: the end of central
** directory record (ZIP64 when present), the central directory, and an
** entry's bytes through its local header, stored or deflated (zlib's
** inflate, raw deflate).  Every size and offset is checked against the
** file, and the bytes read against the entry's CRC-32; an entry never
** inflates past what its caller allows, so a zip bomb costs at most that
** much memory.  (Sheet parts are streamed instead: stream.c.)
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

#define EOCD_SIG    0x06054b50u
#define EOCD64_SIG  0x06064b50u
#define LOC64_SIG   0x07064b50u
#define CDIR_SIG    0x02014b50u
#define LOCAL_SIG   0x04034b50u

uint32_t xlsb_crc32(const uint8_t *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return (uint32_t)crc;
}

/* The end of central directory record: the last one in the final 64 KiB. */
static int64_t find_eocd(const uint8_t *d, size_t size)
{
    if (size < 22)
        return -1;
    size_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
    for (size_t i = size - 22 + 1; i-- > lowest;)
        if (lt_le32(d + i) == EOCD_SIG && i + 22 + lt_le16(d + i + 20) <= size)
            return (int64_t)i;
    return -1;
}

/* A ZIP64 extended-information extra field replaces the 0xFFFFFFFF sizes
** and offset, in that order, with 64-bit ones. */
static void apply_zip64(const uint8_t *extra, size_t len, xlsb_zip_entry *e, bool u32, bool c32,
                        bool o32)
{
    size_t p = 0;
    while (p + 4 <= len) {
        uint16_t id = lt_le16(extra + p), n = lt_le16(extra + p + 2);
        if (p + 4 + n > len)
            return;
        if (id == 0x0001) {
            const uint8_t *f = extra + p + 4;
            size_t q = 0;
            if (u32 && q + 8 <= n) { e->usize = lt_le64(f + q); q += 8; }
            if (c32 && q + 8 <= n) { e->csize = lt_le64(f + q); q += 8; }
            if (o32 && q + 8 <= n) { e->local = lt_le64(f + q); q += 8; }
            return;
        }
        p += 4 + (size_t)n;
    }
}

static int read_directory(xlsb_zip *z, uint64_t at, uint64_t count, uint64_t dsize, lt_error *err)
{
    if (at > z->size || dsize > z->size - at)
        return lt_error_set(err, "HY000", "'%s': the ZIP central directory lies outside the file", z->label);
    /* Each entry takes at least 46 bytes: the count cannot exceed that. */
    if (count > dsize / 46 || count > UINT32_MAX)
        return lt_error_set(err, "HY000", "'%s': the ZIP central directory claims %llu entries in %llu bytes",
                            z->label, (unsigned long long)count, (unsigned long long)dsize);
    z->entries = calloc(count ? count : 1, sizeof *z->entries);
    if (z->entries == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    const uint8_t *d = z->data + at;
    size_t p = 0;
    for (uint64_t i = 0; i < count; i++) {
        if (p + 46 > dsize || lt_le32(d + p) != CDIR_SIG)
            return lt_error_set(err, "HY000", "'%s': ZIP central directory entry %llu is malformed", z->label,
                                (unsigned long long)i);
        const uint8_t *h = d + p;
        size_t nlen = lt_le16(h + 28), xlen = lt_le16(h + 30), clen = lt_le16(h + 32);
        if (p + 46 + nlen + xlen + clen > dsize)
            return lt_error_set(err, "HY000", "'%s': ZIP central directory entry %llu runs past the directory",
                                z->label, (unsigned long long)i);
        xlsb_zip_entry *e = &z->entries[z->n];
        e->method = lt_le16(h + 10);
        e->crc = lt_le32(h + 16);
        e->csize = lt_le32(h + 20);
        e->usize = lt_le32(h + 24);
        e->local = lt_le32(h + 42);
        apply_zip64(h + 46 + nlen, xlen, e, e->usize == 0xFFFFFFFFu, e->csize == 0xFFFFFFFFu,
                    e->local == 0xFFFFFFFFu);
        e->name = malloc(nlen + 1);
        if (e->name == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        memcpy(e->name, h + 46, nlen);
        e->name[nlen] = '\0';
        z->n++;
        p += 46 + nlen + xlen + clen;
    }
    return 0;
}

int xlsb_zip_open(xlsb_zip *z, const uint8_t *data, size_t size, const char *label, lt_error *err)
{
    memset(z, 0, sizeof *z);
    z->data = data;
    z->size = size;
    z->label = label;
    int64_t e = find_eocd(data, size);
    if (e < 0)
        return lt_error_set(err, "HY000", "'%s': not a ZIP package (no end of central directory record; "
                            "truncated file?)", label);
    const uint8_t *h = data + e;
    uint64_t count = lt_le16(h + 10), dsize = lt_le32(h + 12), at = lt_le32(h + 16);
    /* ZIP64: a locator just before the EOCD points at the ZIP64 EOCD. */
    if (e >= 20 && lt_le32(data + e - 20) == LOC64_SIG) {
        uint64_t at64 = lt_le64(data + e - 20 + 8);
        if (at64 > size || size - at64 < 56 || lt_le32(data + at64) != EOCD64_SIG)
            return lt_error_set(err, "HY000", "'%s': the ZIP64 end of central directory record is missing",
                                label);
        count = lt_le64(data + at64 + 32);
        dsize = lt_le64(data + at64 + 40);
        at = lt_le64(data + at64 + 48);
    }
    if (read_directory(z, at, count, dsize, err) != 0) {
        xlsb_zip_close(z);
        return -1;
    }
    return 0;
}

void xlsb_zip_close(xlsb_zip *z)
{
    for (uint32_t i = 0; i < z->n; i++)
        free(z->entries[i].name);
    free(z->entries);
    z->entries = NULL;
    z->n = 0;
}

int64_t xlsb_zip_find(const xlsb_zip *z, const char *name)
{
    if (name[0] == '/')
        name++;
    for (uint32_t i = 0; i < z->n; i++) {
        const char *n = z->entries[i].name;
        if (n[0] == '/')
            n++;
        if (strcasecmp(n, name) == 0)
            return i;
    }
    return -1;
}

static int inflate_entry(const xlsb_zip *z, const xlsb_zip_entry *e, const uint8_t *src, size_t clen,
                         uint64_t max, uint8_t **out, size_t *len, lt_error *err)
{
    /* Start from the declared size (bounded), grow when it lied. */
    size_t cap = e->usize < max ? (size_t)e->usize : (size_t)max;
    if (cap < 256)
        cap = 256;
    if (cap > clen * 1032u + 256 && clen < SIZE_MAX / 1032u)
        cap = clen * 1032u + 256;   /* deflate cannot expand beyond ~1032:1 */
    uint8_t *buf = malloc(cap);
    if (buf == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) {
        free(buf);
        return lt_error_set(err, "HY001", "out of memory (zlib)");
    }
    size_t done = 0, fed = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (done == cap) {
            if ((uint64_t)cap >= max) {
                rc = Z_MEM_ERROR;
                break;
            }
            size_t ncap = (uint64_t)cap * 2 > max ? (size_t)max : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (nb == NULL) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t in = clen - fed > (1u << 30) ? (1u << 30) : clen - fed;
        size_t room = cap - done > (1u << 30) ? (1u << 30) : cap - done;
        s.next_in = (Bytef *)(uintptr_t)(src + fed);
        s.avail_in = (uInt)in;
        s.next_out = buf + done;
        s.avail_out = (uInt)room;
        rc = inflate(&s, Z_NO_FLUSH);
        fed += in - s.avail_in;
        done += room - s.avail_out;
        if (rc == Z_BUF_ERROR && fed == clen && s.avail_out > 0)
            break;   /* input ended before the stream did */
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&s);
    if (rc != Z_STREAM_END) {
        free(buf);
        if ((uint64_t)cap >= max && done == cap)
            return lt_error_set(err, "HY000", "'%s': part '%s' inflates past %llu bytes", z->label, e->name,
                                (unsigned long long)max);
        return lt_error_set(err, "HY000", "'%s': part '%s' has malformed or truncated deflate data", z->label,
                            e->name);
    }
    *out = buf;
    *len = done;
    return 0;
}

int xlsb_zip_locate(const xlsb_zip *z, uint32_t entry, const uint8_t **data, size_t *len, lt_error *err)
{
    if (entry >= z->n)
        return lt_error_set(err, "HY000", "'%s': no ZIP entry #%u", z->label, (unsigned)entry);
    const xlsb_zip_entry *e = &z->entries[entry];
    if (e->local > z->size || z->size - e->local < 30 || lt_le32(z->data + e->local) != LOCAL_SIG)
        return lt_error_set(err, "HY000", "'%s': part '%s' has no local header at offset %llu (truncated file?)",
                            z->label, e->name, (unsigned long long)e->local);
    const uint8_t *h = z->data + e->local;
    uint64_t start = e->local + 30 + lt_le16(h + 26) + lt_le16(h + 28);
    if (start > z->size || e->csize > z->size - start)
        return lt_error_set(err, "HY000", "'%s': part '%s' runs past the end of the file (truncated file?)",
                            z->label, e->name);
    if (lt_le16(h + 6) & 1)
        return lt_error_set(err, "HY000", "'%s': part '%s' is encrypted with ZIP encryption", z->label, e->name);
    if (e->method != 0 && e->method != 8)
        return lt_error_set(err, "HY000", "'%s': part '%s' uses ZIP compression method %u (only stored and "
                            "deflate are read)", z->label, e->name, (unsigned)e->method);
    *data = z->data + start;
    *len = (size_t)e->csize;
    return 0;
}

int xlsb_zip_read(const xlsb_zip *z, uint32_t entry, uint64_t max, uint8_t **out, size_t *len,
                  lt_error *err)
{
    *out = NULL;
    *len = 0;
    const uint8_t *src;
    size_t clen;
    if (xlsb_zip_locate(z, entry, &src, &clen, err) != 0)
        return -1;
    const xlsb_zip_entry *e = &z->entries[entry];
    int rc;
    if (e->method == 0) {
        if (e->csize > max)
            return lt_error_set(err, "HY000", "'%s': part '%s' is larger than %llu bytes", z->label, e->name,
                                (unsigned long long)max);
        uint8_t *buf = malloc(e->csize ? (size_t)e->csize : 1);
        if (buf == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        memcpy(buf, src, (size_t)e->csize);
        *out = buf;
        *len = (size_t)e->csize;
        rc = 0;
    } else {
        rc = inflate_entry(z, e, src, clen, max, out, len, err);
    }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    /* (A fuzzer cannot forge CRCs: its builds skip the check to reach the
    ** record decoders.) */
    if (rc == 0 && xlsb_crc32(*out, *len) != e->crc) {
        free(*out);
        *out = NULL;
        *len = 0;
        return lt_error_set(err, "HY000", "'%s': part '%s' fails its CRC-32 check (damaged file)", z->label,
                            e->name);
    }
#endif
    return rc;
}
