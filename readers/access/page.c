/*
** page.c — page numbers to bytes: row slots of data pages, row pointers
** and the usage maps that list a table's pages.
**
** A data page holds a count of row slots at 8 (Jet 3) or 12 (Jet 4+) and
** then one 2-byte offset per slot; rows are laid from the end of the page
** down, so a row ends where the previous slot's row starts (slot 0 ends at
** the end of the page).  The top bits of a slot flag deleted rows (0x8000)
** and overflow pointers (0x4000).
**
** A usage map is a row (named by a 4-byte row pointer, page << 8 | slot)
** whose first byte says its kind: 0 — a start page and a bitmap of the pages
** after it; 1 — a list of pages of type 0x05, each a bitmap of its own span
** of (page size - 4) * 8 pages.
*/
#include "access_internal.h"

#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

int mdb_page_nrows(const mdb_db *db, const uint8_t *page, uint32_t pgno, lt_error *err)
{
    uint32_t at = db->fmt->data_nrows;
    uint32_t n = lt_le16(page + at);
    if (at + 2 + 2 * n > db->page_size)
        return mdb_corrupt(db, pgno, "more row slots than the page holds", err);
    return (int)n;
}

int mdb_page_slot(const mdb_db *db, const uint8_t *page, uint32_t pgno,
                  uint32_t slot, uint16_t *raw, uint32_t *start, uint32_t *end,
                  lt_error *err)
{
    uint32_t table = db->fmt->data_nrows + 2;
    uint32_t nrows = lt_le16(page + db->fmt->data_nrows);
    *raw = lt_le16(page + table + 2 * slot);
    uint32_t s = *raw & MDB_ROW_OFFSET;
    uint32_t e = slot == 0 ? db->page_size : (lt_le16(page + table + 2 * (slot - 1)) & MDB_ROW_OFFSET);
    if (s < table + 2 * nrows || s > e || e > db->page_size) {
        *start = *end = 0;
        if (*raw & MDB_ROW_DELETED)
            return 0;  /* a deleted slot's bounds do not matter */
        return mdb_corrupt(db, pgno, "row slot outside the page", err);
    }
    *start = s;
    *end = e;
    return 0;
}

int mdb_find_row(const mdb_db *db, uint32_t ptr, const uint8_t **row,
                 uint32_t *len, lt_error *err)
{
    uint32_t pgno = ptr >> 8, slot = ptr & 0xff;
    const uint8_t *page = mdb_page(db, pgno);
    if (page == NULL)
        return lt_error_set(err, "HY000", "'%s' is corrupt: a row pointer names page %u, beyond the end of the file",
                            db->path, pgno);
    if (page[0] != MDB_PAGE_DATA)
        return mdb_corrupt(db, pgno, "a row pointer names a page that is not a data page", err);
    int n = mdb_page_nrows(db, page, pgno, err);
    if (n < 0)
        return -1;
    if (slot >= (uint32_t)n)
        return mdb_corrupt(db, pgno, "a row pointer names a row slot the page does not have", err);
    uint16_t raw;
    uint32_t s, e;
    if (mdb_page_slot(db, page, pgno, slot, &raw, &s, &e, err) != 0)
        return -1;
    *row = page + s;
    *len = e - s;
    return 0;
}

/* The pages a bitmap covers, starting at page `first`: counted into *n and,
** when `list` is given, stored from list[*n] on.  Bits come out ascending,
** so a map's pages need no sorting. */
static int walk_bitmap(const mdb_db *db, uint32_t map_pgno, const uint8_t *bitmap, uint32_t len,
                       uint64_t first, uint32_t *list, uint32_t *n, lt_error *err)
{
    for (uint32_t i = 0; i < len; i++) {
        unsigned bits = bitmap[i];
        while (bits != 0) {
            int b = 0;
            while (!(bits & (1u << b)))
                b++;
            bits &= bits - 1;
            uint64_t pg = first + (uint64_t)i * 8 + (uint64_t)b;
            if (pg >= db->npages)
                return mdb_corrupt(db, map_pgno, "the usage map lists a page beyond the end of the file", err);
            if (list != NULL)
                list[*n] = (uint32_t)pg;
            (*n)++;
        }
    }
    return 0;
}

/* One pass over a usage map: count its pages, or store them. */
static int walk_map(const mdb_db *db, uint32_t map_pgno, const uint8_t *map, uint32_t len,
                    uint32_t *list, uint32_t *n, lt_error *err)
{
    *n = 0;
    if (map[0] == 0) {
        if (len < 5)
            return mdb_corrupt(db, map_pgno, "usage map shorter than its header", err);
        return walk_bitmap(db, map_pgno, map + 5, len - 5, lt_le32(map + 1), list, n, err);
    }
    if (map[0] != 1)
        return mdb_corrupt(db, map_pgno, "unknown kind of usage map", err);
    /* bitmap page i covers its own span, so the pages stay ascending */
    uint64_t span = (uint64_t)(db->page_size - 4) * 8;
    for (uint32_t i = 0; 1 + 4 * (i + 1) <= len; i++) {
        uint32_t pg = lt_le32(map + 1 + 4 * i);
        if (pg == 0)
            continue;
        const uint8_t *bm = mdb_page(db, pg);
        if (bm == NULL)
            return mdb_corrupt(db, map_pgno, "the usage map names a bitmap page beyond the end of the file", err);
        if (bm[0] != MDB_PAGE_USAGE)
            return mdb_corrupt(db, pg, "a usage-map bitmap page has the wrong page type", err);
        if (walk_bitmap(db, pg, bm + 4, db->page_size - 4, span * i, list, n, err) != 0)
            return -1;
    }
    return 0;
}

/* The map's bits are walked twice (count, then fill): the cost is what the
** map holds, not the file's page count.  Opening a database reads the
** system tables' maps, and a file of 2M rows has 20k pages. */
int mdb_usage_pages(const mdb_db *db, uint32_t map_ptr, uint32_t **pages,
                    uint32_t *count, lt_error *err)
{
    *pages = NULL;
    *count = 0;
    const uint8_t *map;
    uint32_t len;
    if (mdb_find_row(db, map_ptr, &map, &len, err) != 0)
        return -1;
    uint32_t map_pgno = map_ptr >> 8;
    if (len < 1)
        return mdb_corrupt(db, map_pgno, "empty usage map", err);
    uint32_t n;
    if (walk_map(db, map_pgno, map, len, NULL, &n, err) != 0)
        return -1;
    uint32_t *list = malloc((n ? n : 1) * sizeof *list);
    if (list == NULL)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
    if (walk_map(db, map_pgno, map, len, list, &n, err) != 0) {
        free(list);
        return -1;
    }
    *pages = list;
    *count = n;
    return 0;
}
