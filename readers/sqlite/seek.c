/*
** seek.c — the numbers an index seek compares, and the rowid an index entry
** names.
**
** An index of a rowid table holds records (indexed columns..., rowid) in
** SQLite's order: NULL, then numbers (integers and reals compared by value),
** then text, then blobs.  A numeric equality on the first indexed column
** therefore needs only the first field of each entry, whatever the index's
** collation; the row is then found by its rowid.
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

/* The entry's first field against the sought number. */
static int value_cmp(const sqlite_val *v, const sqlite_val *key)
{
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
    default:                             /* text and blobs sort after numbers */
        return 1;
    }
}

/* The record of an index cell, whole (overflow assembled into buf). */
static int whole_record(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                        const uint8_t **rec, lt_error *err)
{
    *rec = cell->local;
    if (cell->local_len < cell->payload_len) {
        if (sqlite_payload_read(db, cell, cell->payload_len, buf, err) != 0)
            return -1;
        *rec = buf->p;
    }
    return 0;
}

static int bad_entry(const sqlite_db *db, const sqlite_cell *cell, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: bad index record",
                        db->path, cell->pgno);
}

int sqlite_index_cmp_number(const sqlite_db *db, const sqlite_cell *cell,
                            const sqlite_val *key, sqlite_buf *buf, int *cmp,
                            lt_error *err)
{
    const uint8_t *rec;
    if (whole_record(db, cell, buf, &rec, err) != 0)
        return -1;
    uint64_t serial;
    uint32_t offset, nf, hlen;
    if (sqlite_record_header(rec, cell->payload_len, cell->payload_len, 1, &serial, &offset,
                             &nf, &hlen) != 0 || nf == 0)
        return bad_entry(db, cell, err);
    sqlite_val v;
    sqlite_decode(serial, rec + offset, db->encoding, &v);
    *cmp = value_cmp(&v, key);
    return 0;
}

int sqlite_index_rowid(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                       int64_t *rowid, lt_error *err)
{
    const uint8_t *rec;
    if (whole_record(db, cell, buf, &rec, err) != 0)
        return -1;
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
    return 0;
}
