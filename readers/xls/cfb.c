/*
** cfb.c — the compound file container ([MS-CFB], "OLE2") around an .xls
** workbook: header, FAT (through the DIFAT), mini FAT, directory, mini
** stream, and reading one stream.
**
** Every sector number, chain and size comes from the file and is checked:
** a chain that leaves the file, loops, or ends before its stream's size
** fails with a message naming the file and the sector.  A stream whose
** sectors follow each other is handed out as a pointer into the file;
** others are copied.
*/
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "xls_internal.h"

#define ENDOFCHAIN 0xFFFFFFFEu
#define FREESECT   0xFFFFFFFFu
#define MAXREGSECT 0xFFFFFFFAu
#define NOSTREAM   0xFFFFFFFFu
#define DIR_ENTRY  128
#define MINI_SHIFT 6
#define MINI_CUTOFF 4096

static const uint8_t signature[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};

void xls_bytes_free(xls_bytes *b)
{
    free(b->owned);
    b->owned = NULL;
    b->data = NULL;
    b->len = 0;
}

/* Sectors after the header that the file holds, whole or in part. */
static uint64_t file_sectors(const xls_cfb *c)
{
    size_t ssz = (size_t)1 << c->shift;
    if (c->size <= ssz)
        return 0;
    return (c->size - ssz + ssz - 1) >> c->shift;
}

/* Bytes of sector `sec` that the file holds (a last sector may be short). */
static const uint8_t *sector(const xls_cfb *c, uint32_t sec, size_t *avail)
{
    uint64_t off = ((uint64_t)sec + 1) << c->shift;
    if (off >= c->size) {
        *avail = 0;
        return NULL;
    }
    size_t ssz = (size_t)1 << c->shift;
    *avail = c->size - off < ssz ? (size_t)(c->size - off) : ssz;
    return c->file + off;
}

/*
** Read `len` bytes along a chain starting at `start`: through the FAT in
** the file, or through the mini FAT in the mini stream.  len == SIZE_MAX
** means "until the end of the chain" (the directory of a version 3 file).
*/
static int read_chain(const xls_cfb *c, bool mini, uint32_t start, size_t len,
                      xls_bytes *out, const char *what, lt_error *err)
{
    const uint32_t *table = mini ? c->minifat : c->fat;
    uint32_t nentries = mini ? c->nminifat : c->nfat;
    unsigned shift = mini ? MINI_SHIFT : c->shift;
    size_t ssz = (size_t)1 << shift;
    uint64_t limit = mini ? (c->mini.len + ssz - 1) >> shift : file_sectors(c);
    bool until_end = len == SIZE_MAX;
    /* Mini stream data lives in the container's copy: always copy it. */
    bool copy = until_end || mini;
    memset(out, 0, sizeof *out);
    if (len == 0)
        return 0;
    if (!until_end && ((uint64_t)len + ssz - 1) >> shift > limit)
        return lt_error_set(err, "HY000", "'%s': the %s stream (%zu bytes) is larger than the file",
                            c->name, what, len);
    uint64_t want = until_end ? limit : ((uint64_t)len + ssz - 1) >> shift;
    uint8_t *seen = calloc((size_t)(limit / 8 + 1), 1);
    if (seen == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    size_t cap = 0, got = 0;
    uint8_t *buf = NULL;
    const uint8_t *first = NULL;
    uint32_t sec = start, prev = 0;
    int rc = 0;
    for (uint64_t k = 0; k < want; k++) {
        if (sec == ENDOFCHAIN && until_end)
            break;
        if (sec > MAXREGSECT || sec >= limit) {
            rc = lt_error_set(err, "HY000", "'%s': the %s stream's sector chain %s at sector %u (#%llu of the chain)",
                              c->name, what, sec == ENDOFCHAIN ? "ends early" : "leaves the file",
                              (unsigned)sec, (unsigned long long)k);
            break;
        }
        if (seen[sec / 8] & (1u << (sec % 8))) {
            rc = lt_error_set(err, "HY000", "'%s': the %s stream's sector chain loops at sector %u",
                              c->name, what, (unsigned)sec);
            break;
        }
        seen[sec / 8] |= (uint8_t)(1u << (sec % 8));
        const uint8_t *p;
        size_t avail;
        if (mini) {
            size_t off = (size_t)sec << MINI_SHIFT;
            p = c->mini.data + off;
            avail = c->mini.len - off < ssz ? c->mini.len - off : ssz;
        } else {
            p = sector(c, sec, &avail);
        }
        size_t take = until_end || len - got > avail ? avail : len - got;
        if (!until_end && take < ssz && got + take < len) {
            rc = lt_error_set(err, "HY000", "'%s': the %s stream is cut short at sector %u (truncated file?)",
                              c->name, what, (unsigned)sec);
            break;
        }
        if (k == 0)
            first = p;
        else if (sec != prev + 1)
            copy = true;
        if (copy) {
            if (buf == NULL) {
                /* Until now the sectors followed each other: take them. */
                cap = until_end ? ssz * 8 : len;
                if (cap < got + take)
                    cap = got + take;
                buf = malloc(cap);
                if (buf == NULL) {
                    rc = lt_error_set(err, "HY001", "out of memory");
                    break;
                }
                if (got > 0)
                    memcpy(buf, first, got);
            }
            if (got + take > cap) {
                while (cap < got + take)
                    cap *= 2;
                uint8_t *nb = realloc(buf, cap);
                if (nb == NULL) {
                    rc = lt_error_set(err, "HY001", "out of memory");
                    break;
                }
                buf = nb;
            }
            memcpy(buf + got, p, take);
        }
        got += take;
        prev = sec;
        sec = sec < nentries ? table[sec] : FREESECT;
    }
    free(seen);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    if (!copy) {
        out->data = first;
        out->len = got;
        return 0;
    }
    out->owned = buf;
    out->data = buf;
    out->len = got;
    return 0;
}

/* Append FAT sector `sec` (the have-th) to c->fat: `per` entries. */
static int add_fat_sector(xls_cfb *c, uint32_t sec, uint32_t have, size_t per, lt_error *err)
{
    size_t avail;
    const uint8_t *p = sec <= MAXREGSECT ? sector(c, sec, &avail) : NULL;
    if (p == NULL || avail < per * 4)
        return lt_error_set(err, "HY000", "'%s': FAT sector #%u (%u) is outside the file",
                            c->name, (unsigned)have, (unsigned)sec);
    for (size_t k = 0; k < per; k++)
        c->fat[c->nfat++] = lt_le32(p + 4 * k);
    return 0;
}

/* The FAT: the sector numbers come from the header's 109 DIFAT slots and
** then from the DIFAT sector chain. */
static int load_fat(xls_cfb *c, const uint8_t *h, lt_error *err)
{
    uint32_t nfatsec = lt_le32(h + 0x2C);
    uint32_t difat = lt_le32(h + 0x44);
    uint32_t ndifat = lt_le32(h + 0x48);
    uint64_t limit = file_sectors(c);
    if (nfatsec == 0 || nfatsec > limit)
        return lt_error_set(err, "HY000", "'%s': the compound file header claims %u FAT sectors for a file of %llu sectors",
                            c->name, (unsigned)nfatsec, (unsigned long long)limit);
    size_t per = ((size_t)1 << c->shift) / 4;
    c->fat = malloc((size_t)nfatsec * per * sizeof *c->fat);
    if (c->fat == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    c->nfat = 0;
    uint32_t have = 0;
    for (uint32_t i = 0; i < 109 && have < nfatsec; i++, have++)
        if (add_fat_sector(c, lt_le32(h + 0x4C + 4 * i), have, per, err) != 0)
            return -1;
    for (uint32_t d = 0; have < nfatsec; d++) {
        if (d >= ndifat || d > limit || difat > MAXREGSECT)
            return lt_error_set(err, "HY000", "'%s': the DIFAT ends after %u of %u FAT sectors",
                                c->name, (unsigned)have, (unsigned)nfatsec);
        size_t avail;
        const uint8_t *dp = sector(c, difat, &avail);
        if (dp == NULL || avail < per * 4)
            return lt_error_set(err, "HY000", "'%s': DIFAT sector %u is outside the file", c->name, (unsigned)difat);
        for (size_t i = 0; i + 1 < per && have < nfatsec; i++, have++)
            if (add_fat_sector(c, lt_le32(dp + 4 * i), have, per, err) != 0)
                return -1;
        difat = lt_le32(dp + 4 * (per - 1));
    }
    return 0;
}

static int load_minifat(xls_cfb *c, const uint8_t *h, lt_error *err)
{
    uint32_t first = lt_le32(h + 0x3C);
    uint32_t count = lt_le32(h + 0x40);
    if (first == ENDOFCHAIN || first == FREESECT || count == 0)
        return 0;
    if (count > file_sectors(c))
        return lt_error_set(err, "HY000", "'%s': the header claims %u mini FAT sectors", c->name, (unsigned)count);
    xls_bytes b;
    if (read_chain(c, false, first, (size_t)count << c->shift, &b, "mini FAT", err) != 0)
        return -1;
    c->nminifat = (uint32_t)(b.len / 4);
    c->minifat = malloc((c->nminifat ? c->nminifat : 1) * sizeof *c->minifat);
    if (c->minifat == NULL) {
        xls_bytes_free(&b);
        return lt_error_set(err, "HY001", "out of memory");
    }
    for (uint32_t i = 0; i < c->nminifat; i++)
        c->minifat[i] = lt_le32(b.data + 4 * i);
    xls_bytes_free(&b);
    return 0;
}

static uint64_t entry_size(const xls_cfb *c, const uint8_t *e)
{
    /* Version 3 files may leave garbage in the high half. */
    return c->v3 ? lt_le32(e + 0x78) : lt_le64(e + 0x78);
}

int xls_cfb_open(xls_cfb *c, const uint8_t *file, size_t size, const char *name, lt_error *err)
{
    memset(c, 0, sizeof *c);
    c->file = file;
    c->size = size;
    c->name = name;
    if (size < 8 || memcmp(file, signature, 8) != 0)
        return lt_error_set(err, "HY000", "'%s' is not a compound file (no OLE2 signature)", name);
    if (size < 512)
        return lt_error_set(err, "HY000", "'%s' is too short for a compound file (%zu bytes; truncated?)", name, size);
    const uint8_t *h = file;
    uint16_t major = lt_le16(h + 0x1A), shift = lt_le16(h + 0x1E);
    if ((shift != 9 && shift != 12) || lt_le16(h + 0x20) != MINI_SHIFT)
        return lt_error_set(err, "HY000", "'%s': unsupported compound file sector sizes (2^%u, 2^%u; version %u)",
                            name, (unsigned)shift, (unsigned)lt_le16(h + 0x20), (unsigned)major);
    c->shift = shift;
    c->v3 = shift == 9;
    if (load_fat(c, h, err) != 0 || load_minifat(c, h, err) != 0)
        goto fail;
    if (read_chain(c, false, lt_le32(h + 0x30), SIZE_MAX, &c->dir, "directory", err) != 0)
        goto fail;
    c->nentries = (uint32_t)(c->dir.len / DIR_ENTRY);
    if (c->nentries == 0 || c->dir.data[0x42] != 5) {
        lt_error_set(err, "HY000", "'%s': the compound file has no root entry", name);
        goto fail;
    }
    /* The root entry's data is the mini stream. */
    const uint8_t *root = c->dir.data;
    uint64_t mlen = entry_size(c, root);
    if (mlen > size) {
        lt_error_set(err, "HY000", "'%s': the mini stream (%llu bytes) is larger than the file",
                     name, (unsigned long long)mlen);
        goto fail;
    }
    if (mlen > 0 && read_chain(c, false, lt_le32(root + 0x74), (size_t)mlen, &c->mini, "mini", err) != 0)
        goto fail;
    return 0;
fail:
    xls_cfb_close(c);
    return -1;
}

void xls_cfb_close(xls_cfb *c)
{
    free(c->fat);
    free(c->minifat);
    xls_bytes_free(&c->dir);
    xls_bytes_free(&c->mini);
    c->fat = c->minifat = NULL;
    c->nfat = c->nminifat = 0;
}

static bool name_matches(const uint8_t *e, const char *want)
{
    uint16_t bytes = lt_le16(e + 0x40);
    size_t n = strlen(want);
    if (bytes > 64 || bytes != 2 * (n + 1))
        return false;
    for (size_t i = 0; i < n; i++) {
        uint16_t u = lt_le16(e + 2 * i);
        unsigned char w = (unsigned char)want[i];
        if (u >= 0x80)
            return false;
        if (u >= 'A' && u <= 'Z')
            u |= 0x20;
        if (w >= 'A' && w <= 'Z')
            w |= 0x20;
        if (u != w)
            return false;
    }
    return true;
}

int64_t xls_cfb_find(const xls_cfb *c, const char *want)
{
    /* The root's children form a tree through left/right sibling links;
    ** walk it with an explicit stack, never visiting an entry twice. */
    uint32_t n = c->nentries;
    uint8_t *seen = calloc(n / 8 + 1, 1);
    uint32_t *stack = malloc((n + 1) * sizeof *stack);
    int64_t found = -1;
    if (seen == NULL || stack == NULL)
        goto done;
    size_t top = 0;
    uint32_t child = lt_le32(c->dir.data + 0x4C);
    if (child < n)
        stack[top++] = child;
    while (top > 0 && found < 0) {
        uint32_t i = stack[--top];
        if (seen[i / 8] & (1u << (i % 8)))
            continue;
        seen[i / 8] |= (uint8_t)(1u << (i % 8));
        const uint8_t *e = c->dir.data + (size_t)i * DIR_ENTRY;
        if (e[0x42] == 2 && name_matches(e, want))
            found = i;
        uint32_t left = lt_le32(e + 0x44), right = lt_le32(e + 0x48);
        if (left < n && top < n)
            stack[top++] = left;
        if (right < n && top < n)
            stack[top++] = right;
    }
done:
    free(seen);
    free(stack);
    return found;
}

int xls_cfb_read(const xls_cfb *c, uint32_t entry, xls_bytes *out, lt_error *err)
{
    memset(out, 0, sizeof *out);
    if (entry >= c->nentries)
        return lt_error_set(err, "HY000", "'%s': no directory entry %u", c->name, (unsigned)entry);
    const uint8_t *e = c->dir.data + (size_t)entry * DIR_ENTRY;
    uint64_t size = entry_size(c, e);
    uint32_t start = lt_le32(e + 0x74);
    if (size > c->size)
        return lt_error_set(err, "HY000", "'%s': a stream of %llu bytes in a file of %zu",
                            c->name, (unsigned long long)size, c->size);
    if (size < MINI_CUTOFF) {
        if (c->mini.len == 0 && size > 0)
            return lt_error_set(err, "HY000", "'%s': a small stream but no mini stream", c->name);
        return read_chain(c, true, start, (size_t)size, out, "workbook", err);
    }
    return read_chain(c, false, start, (size_t)size, out, "workbook", err);
}
