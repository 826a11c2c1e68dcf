/*
** seek.c — comparing index entries with the keys an index seek looks for,
** and the rowid an index entry names.
**
** An index of a rowid table holds records (indexed columns..., rowid) in
** SQLite's order of its leading column: NULL, then numbers (integers and
** reals compared by value), then text (in the column's collation), then
** blobs.  A seek on the leading column needs only the first field of each
** entry, and the row is then found by the rowid at the entry's end.  A
** DESC column stores the same order reversed (blobs first, NULLs last); a
** WITHOUT ROWID table's b-tree is such an index whose entries are the rows.
*/
#include "sqlite_internal.h"

#include <string.h>

/* SQLite's comparison of an integer with a real (sqlite3IntFloatCompare):
** exact, even where a double cannot hold the integer. */
static int int_real_cmp(int64_t i, double r)
{
    if (r != r)                          /* NaN is stored as NULL: never here */
        return 1;
    if (r < -9223372036854775808.0)
        return 1;
    if (r >= 9223372036854775808.0)
        return -1;
    int64_t y = (int64_t)r;
    if (i != y)
        return i < y ? -1 : 1;
    double s = (double)i;
    return s < r ? -1 : s > r ? 1 : 0;
}

static int class_rank(uint8_t cls)
{
    switch (cls) {
    case SQLITE_NULL: return 0;
    case SQLITE_INT:
    case SQLITE_REAL: return 1;
    case SQLITE_TEXT: return 2;
    default:          return 3;
    }
}

static int bytes_cmp(const sqlite_val *a, const sqlite_val *b)
{
    uint32_t n = a->n < b->n ? a->n : b->n;
    int c = n ? memcmp(a->p, b->p, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return a->n < b->n ? -1 : a->n > b->n;
}

int sqlite_key_cmp_val(const sqlite_val *v, const sqlite_val *key)
{
    if (key->cls == SQLITE_NULL)
        return v->cls == SQLITE_NULL ? -1 : 1;
    int rv = class_rank(v->cls), rk = class_rank(key->cls);
    if (rv != rk)
        return rv < rk ? -1 : 1;
    switch (v->cls) {
    case SQLITE_NULL:
        return -1;
    case SQLITE_INT:
        if (key->cls == SQLITE_INT)
            return v->i < key->i ? -1 : v->i > key->i;
        return int_real_cmp(v->i, key->r);
    case SQLITE_REAL:
        if (key->cls == SQLITE_INT)
            return -int_real_cmp(key->i, v->r);
        return v->r < key->r ? -1 : v->r > key->r;
    default:
        return bytes_cmp(v, key);
    }
}

static int bad_entry(const sqlite_db *db, const sqlite_cell *cell, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: bad index record",
                        db->path, cell->pgno);
}

int sqlite_record_first(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                        sqlite_val *first, lt_error *err)
{
    const uint8_t *rec = cell->local;
    uint32_t have = cell->local_len, len = cell->payload_len;
    uint64_t hsize, serial;
    uint32_t off, nf, hlen;
    if (len == 0 || sqlite_varint(rec, rec + have, &hsize) == 0 || hsize > len)
        return bad_entry(db, cell, err);
    if (hsize > have) {
        if (sqlite_payload_read(db, cell, (uint32_t)hsize, buf, err) != 0)
            return -1;
        rec = buf->p;
        have = (uint32_t)hsize;
    }
    if (sqlite_record_header(rec, have, len, 1, &serial, &off, &nf, &hlen) != 0 || nf < 1)
        return bad_entry(db, cell, err);
    uint32_t need = off + (uint32_t)sqlite_serial_size(serial);
    if (need > have) {
        if (sqlite_payload_read(db, cell, need, buf, err) != 0)
            return -1;
        rec = buf->p;
    }
    sqlite_decode(serial, rec + off, db->encoding, first);
    return 0;
}

int sqlite_index_entry(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                       sqlite_val *first, int64_t *rowid, lt_error *err)
{
    const uint8_t *rec = cell->local;
    if (cell->local_len < cell->payload_len) {
        if (sqlite_payload_read(db, cell, cell->payload_len, buf, err) != 0)
            return -1;
        rec = buf->p;
    }
    /* at most 64 indexed columns (add_create_index), then the rowid */
    uint64_t serials[66];
    uint32_t offsets[66], nf, hlen;
    if (sqlite_record_header(rec, cell->payload_len, cell->payload_len, 66, serials, offsets,
                             &nf, &hlen) != 0 || nf < 2)
        return bad_entry(db, cell, err);
    sqlite_val v;
    sqlite_decode(serials[nf - 1], rec + offsets[nf - 1], db->encoding, &v);
    if (v.cls != SQLITE_INT)
        return bad_entry(db, cell, err);
    *rowid = v.i;
    sqlite_decode(serials[0], rec + offsets[0], db->encoding, first);
    return 0;
}
