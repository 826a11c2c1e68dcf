/*
** row.c — walking a table's rows and finding the fields in a row.
**
** A table's rows live on the data pages its usage map lists whose header
** names the table's TDEF page (a map may list pages since given to another
** table: those are skipped).  Deleted slots are skipped; an overflow slot
** holds a row pointer to where the row was moved (the moved row is marked
** deleted so that a page walk does not see it twice) and is followed.
**
** A row: the column count (1 byte in Jet 3, 2 in Jet 4+), the fixed
** columns, the variable columns, then from the end backwards: the null mask
** ((count + 7) / 8 bytes, bit set = not NULL, Booleans are their bit), the
** variable-column count and the variable-offset table (reversed, its last
** entry the end of the variable data).  Jet 4 offsets are 2 bytes; Jet 3
** offsets are 1 byte plus a jump table that says, for each 256-byte step,
** the first entry past it (possibly one dummy entry, see row_crack3).
*/
#include "access_internal.h"

#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

static int row_corrupt(const mdb_db *db, const mdb_row *row, const char *what, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u, row %u: %s", db->path,
                        row->pgno, row->slot, what);
}

/* Jet 3: 1-byte offsets, jump table before the variable-column count. */
static int row_crack3(const mdb_db *db, mdb_row *row, uint32_t bs, lt_error *err)
{
    const uint8_t *p = row->p;
    int64_t len = row->len;
    int64_t cs = 1;
    if (len < cs + bs + 1)
        return row_corrupt(db, row, "row too short for its variable-column count", err);
    uint32_t nvar = p[len - bs - 1];
    int64_t jumps = (len - 1) / 256;
    int64_t first = len - bs - jumps - 2;   /* entry 0; entries run downwards */
    if (first - (int64_t)nvar < cs)
        return row_corrupt(db, row, "variable-offset table larger than the row", err);
    /* The jump count follows the row length, so the last jump may be a
    ** dummy: drop it when the offsets table ends before that step. */
    if ((first - (int64_t)nvar) / 256 < jumps)
        jumps--;
    uint32_t used = 0;
    for (uint32_t i = 0; i <= nvar; i++) {
        while ((int64_t)used < jumps && i == p[len - bs - 2 - used])
            used++;
        row->var_off[i] = (uint16_t)(p[first - i] + 256 * used);
    }
    row->nvar = nvar;
    row->var_table = (uint32_t)(first - nvar);   /* lowest byte of the table area */
    row->fixed_end = row->var_off[0];
    if (row->fixed_end < cs || row->fixed_end > row->var_table)
        return row_corrupt(db, row, "variable data starts outside the row", err);
    return 0;
}

/* Jet 4 and later: 2-byte offsets. */
static int row_crack4(const mdb_db *db, mdb_row *row, uint32_t bs, lt_error *err)
{
    const uint8_t *p = row->p;
    int64_t len = row->len;
    int64_t cs = 2;
    if (len < cs + bs + 2)
        return row_corrupt(db, row, "row too short for its variable-column count", err);
    uint32_t nvar = lt_le16(p + len - bs - 2);
    int64_t low = len - bs - 2 - 2 * ((int64_t)nvar + 1);
    if (low < cs)
        return row_corrupt(db, row, "variable-offset table larger than the row", err);
    row->nvar = nvar;
    row->var_table = (uint32_t)(len - bs - 4);   /* entry 0; entries run downwards */
    row->fixed_end = lt_le16(p + row->var_table);
    if (row->fixed_end < cs || row->fixed_end > (uint64_t)low)
        return row_corrupt(db, row, "variable data starts outside the row", err);
    return 0;
}

int mdb_row_crack(const mdb_db *db, const mdb_table *mt, mdb_row *row, lt_error *err)
{
    uint32_t cs = db->fmt->count_size;
    if (row->len < cs)
        return row_corrupt(db, row, "empty row", err);
    row->ncols = cs == 1 ? row->p[0] : lt_le16(row->p);
    uint32_t bs = (row->ncols + 7) / 8;
    if ((uint64_t)cs + bs > row->len)
        return row_corrupt(db, row, "null mask larger than the row", err);
    row->nulls = row->p + row->len - bs;
    row->nvar = 0;
    if (mt->nvar == 0) {
        row->fixed_end = row->len - bs;
        row->var_table = row->fixed_end;
        return 0;
    }
    return db->jet3 ? row_crack3(db, row, bs, err) : row_crack4(db, row, bs, err);
}

static uint32_t var_offset(const mdb_db *db, const mdb_row *row, uint32_t i)
{
    if (db->jet3)
        return row->var_off[i];
    return lt_le16(row->p + row->var_table - 2 * i);
}

static bool null_bit(const mdb_row *row, uint32_t number)
{
    return number < row->ncols && ((row->nulls[number >> 3] >> (number & 7)) & 1);
}

bool mdb_row_bool(const mdb_row *row, const mdb_column *col)
{
    return null_bit(row, col->number);
}

int mdb_row_field(const mdb_db *db, const mdb_row *row, const mdb_column *col,
                  uint32_t *off, uint32_t *len, lt_error *err)
{
    if (!null_bit(row, col->number))
        return 0;   /* NULL, or a column added after the row was written */
    if (col->fixed) {
        uint32_t start = db->fmt->count_size + (uint32_t)col->fixed_offset;
        if ((uint64_t)start + col->length > row->fixed_end)
            return row_corrupt(db, row, "fixed column outside the fixed area", err);
        *off = start;
        *len = col->length;
        return 1;
    }
    if (col->var_index >= row->nvar)
        return 0;   /* a variable column added after the row was written */
    uint32_t limit = db->jet3 ? row->var_table : (uint32_t)(row->var_table + 2 - 2 * (row->nvar + 1));
    uint32_t start = var_offset(db, row, col->var_index);
    uint32_t end = var_offset(db, row, col->var_index + 1u);
    if (start < db->fmt->count_size || start > end || end > limit)
        return row_corrupt(db, row, "variable column outside the row", err);
    *off = start;
    *len = end - start;
    return 1;
}

/* ---- the cursor ------------------------------------------------------------------ */

int mdb_cursor_open(mdb_cursor *c, const mdb_db *db, const mdb_table *mt, lt_error *err)
{
    memset(c, 0, sizeof *c);
    c->db = db;
    c->tdef_page = mt->tdef_page;
    if (mdb_usage_pages(db, mt->usage_map, &c->owned, &c->npages, err) != 0)
        return -1;
    c->pages = c->owned;
    return 0;
}

void mdb_cursor_start(mdb_cursor *c, const mdb_db *db, uint32_t tdef_page,
                      const uint32_t *pages, uint32_t npages)
{
    memset(c, 0, sizeof *c);
    c->db = db;
    c->tdef_page = tdef_page;
    c->pages = pages;
    c->npages = npages;
}

/* Move to the next page of the table; 0 at the end. */
static int next_page(mdb_cursor *c, lt_error *err)
{
    while (c->next_page < c->npages) {
        uint32_t pg = c->pages[c->next_page++];
        const uint8_t *page = mdb_page(c->db, pg);
        if (page == NULL || page[0] != MDB_PAGE_DATA || lt_le32(page + 4) != c->tdef_page)
            continue;
        int n = mdb_page_nrows(c->db, page, pg, err);
        if (n < 0)
            return -1;
        c->page = page;
        c->pgno = pg;
        c->nrows = (uint32_t)n;
        c->next_slot = 0;
        return 1;
    }
    c->page = NULL;
    return 0;
}

/* Follow an overflow pointer (and any further ones) to the row's data. */
static int follow_overflow(const mdb_cursor *c, const uint8_t *at, uint32_t len, mdb_row *row,
                           lt_error *err)
{
    const mdb_db *db = c->db;
    for (uint32_t hops = 0; hops <= db->npages; hops++) {
        if (len < 4)
            return row_corrupt(db, row, "overflow row pointer too short", err);
        uint32_t ptr = lt_le32(at);
        uint32_t pgno = ptr >> 8, slot = ptr & 0xff;
        const uint8_t *page = mdb_page(db, pgno);
        if (page == NULL || page[0] != MDB_PAGE_DATA)
            return row_corrupt(db, row, "overflow pointer to a page that is not a data page", err);
        int n = mdb_page_nrows(db, page, pgno, err);
        if (n < 0)
            return -1;
        if (slot >= (uint32_t)n)
            return row_corrupt(db, row, "overflow pointer to a missing row", err);
        uint16_t raw;
        uint32_t s, e;
        if (mdb_page_slot(db, page, pgno, slot, &raw, &s, &e, err) != 0)
            return -1;
        row->pgno = pgno;
        row->slot = slot;
        at = page + s;
        len = e - s;
        if (!(raw & MDB_ROW_OVERFLOW)) {
            row->p = at;
            row->len = len;
            return 0;
        }
    }
    return row_corrupt(db, row, "overflow pointers form a loop", err);
}

int mdb_cursor_next(mdb_cursor *c, mdb_row *row, lt_error *err)
{
    for (;;) {
        if (c->page == NULL || c->next_slot >= c->nrows) {
            int r = next_page(c, err);
            if (r <= 0)
                return r;
            continue;
        }
        uint32_t slot = c->next_slot++;
        uint16_t raw;
        uint32_t s, e;
        if (mdb_page_slot(c->db, c->page, c->pgno, slot, &raw, &s, &e, err) != 0)
            return -1;
        if (raw & MDB_ROW_DELETED)
            continue;
        row->pgno = c->pgno;
        row->slot = slot;
        if (raw & MDB_ROW_OVERFLOW) {
            if (follow_overflow(c, c->page + s, e - s, row, err) != 0)
                return -1;
            return 1;
        }
        row->p = c->page + s;
        row->len = e - s;
        return 1;
    }
}

int64_t mdb_cursor_count(mdb_cursor *c, lt_error *err)
{
    const mdb_db *db = c->db;
    uint32_t table = db->fmt->data_nrows + 2;
    int64_t n = 0;
    int r;
    while ((r = next_page(c, err)) > 0) {
        /* mdb_page_slot's checks, one slot read per slot: a live row lies
        ** between the slot table and the previous slot's row */
        uint32_t low = table + 2 * c->nrows, end = db->page_size;
        for (uint32_t slot = 0; slot < c->nrows; slot++) {
            uint16_t raw = lt_le16(c->page + table + 2 * slot);
            uint32_t start = raw & MDB_ROW_OFFSET;
            if (!(raw & MDB_ROW_DELETED)) {
                if (start < low || start > end || end > db->page_size)
                    return mdb_corrupt(db, c->pgno, "row slot outside the page", err);
                n++;
            }
            end = start;
        }
    }
    return r < 0 ? -1 : n;
}

void mdb_cursor_close(mdb_cursor *c)
{
    free(c->owned);
    c->owned = NULL;
    c->pages = NULL;
}
