/*
** record.c — the record format: varints, serial types, the record header.
**
** A record is a header (its own size as a varint, then one serial-type
** varint per field) followed by the field bodies.  The header is walked
** once per row and only as far as the last field a scan wants; fields are
** decoded only when wanted.
*/
#include "sqlite_internal.h"

#include "../common/endian.h"

#include <string.h>

int sqlite_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    if (p < end && p[0] < 0x80) {
        *out = p[0];
        return 1;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        if (p + i >= end)
            return 0;
        v = (v << 7) | (p[i] & 0x7f);
        if ((p[i] & 0x80) == 0) {
            *out = v;
            return i + 1;
        }
    }
    if (p + 8 >= end)
        return 0;
    *out = (v << 8) | p[8];
    return 9;
}

int64_t sqlite_serial_size(uint64_t serial)
{
    static const int8_t sizes[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1};
    if (serial < 12)
        return sizes[serial];
    return (int64_t)((serial - 12) / 2);
}

int sqlite_record_header(const uint8_t *rec, uint32_t have, uint32_t len,
                         uint32_t limit, uint64_t *serials, uint32_t *offsets,
                         uint32_t *nfields, uint32_t *header_len)
{
    uint64_t hsize;
    int n = sqlite_varint(rec, rec + have, &hsize);
    if (n == 0 || hsize < (uint64_t)n || hsize > len || hsize > have)
        return -1;
    const uint8_t *end = rec + hsize;
    const uint8_t *p = rec + n;
    uint64_t off = hsize;
    uint32_t k = 0;
    while (p < end && k < limit) {
        uint64_t st;
        if (p[0] < 0x80) {
            st = *p++;
        } else {
            n = sqlite_varint(p, end, &st);
            if (n == 0)
                return -1;
            p += n;
        }
        int64_t size = sqlite_serial_size(st);
        if (size < 0)
            return -1;
        serials[k] = st;
        offsets[k] = (uint32_t)off;
        off += (uint64_t)size;
        if (off > len)
            return -1;
        k++;
    }
    *nfields = k;
    *header_len = (uint32_t)hsize;
    return 0;
}

/* A big-endian two's-complement integer of n bytes (1..8). */
static int64_t be_int(const uint8_t *p, int n)
{
    uint64_t v = (p[0] & 0x80) ? ~UINT64_C(0) : 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return (int64_t)v;
}

void sqlite_decode(uint64_t serial, const uint8_t *p, uint8_t enc,
                   sqlite_val *out)
{
    out->transient = false;
    switch (serial) {
    case 0:
        out->cls = SQLITE_NULL;
        return;
    case 1: out->cls = SQLITE_INT; out->i = (int8_t)p[0]; return;
    case 2: out->cls = SQLITE_INT; out->i = be_int(p, 2); return;
    case 3: out->cls = SQLITE_INT; out->i = be_int(p, 3); return;
    case 4: out->cls = SQLITE_INT; out->i = be_int(p, 4); return;
    case 5: out->cls = SQLITE_INT; out->i = be_int(p, 6); return;
    case 6: out->cls = SQLITE_INT; out->i = (int64_t)lt_be64(p); return;
    case 7: {
        uint64_t u = lt_be64(p);
        memcpy(&out->r, &u, sizeof out->r);
        out->cls = SQLITE_REAL;
        return;
    }
    case 8: out->cls = SQLITE_INT; out->i = 0; return;
    case 9: out->cls = SQLITE_INT; out->i = 1; return;
    default:
        out->cls = (serial & 1) ? SQLITE_TEXT : SQLITE_BLOB;
        out->enc = enc;
        out->p = p;
        out->n = (uint32_t)((serial - 12) / 2);
        return;
    }
}
