/*
** btree.c — walking table and index b-trees, and overflow chains.
**
** A cursor walks a b-tree in key order with an explicit stack (no
** recursion).  Table b-trees keep every row in their leaves; index b-trees
** (WITHOUT ROWID tables) keep rows in interior cells too, so an interior
** cell is handed out between its left subtree and the next one.
**
** Nothing here trusts the file: every page number is checked against the
** page count, every page's type against the tree kind, every cell offset and
** payload size against the usable page size, and a walk that enters more
** pages than the database has (a cycle in child pointers) or goes deeper
** than SQLite ever does fails as corruption naming the page.  Free pages,
** freeblocks and pointer-map pages are never looked at: only pointers from
** the root are followed.
*/
#include "sqlite_internal.h"

#include "../common/endian.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int corrupt(const sqlite_db *db, uint32_t pgno, const char *what,
                   lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: %s",
                        db->path, pgno, what);
}

/* Enter page `pgno` as a child (or root) of the walk. */
static int push(sqlite_cursor *c, uint32_t pgno, lt_error *err)
{
    const sqlite_db *db = c->db;
    if (c->depth >= SQLITE_MAX_DEPTH)
        return corrupt(db, pgno, "b-tree deeper than SQLite allows (a loop?)", err);
    if (++c->visited > db->npages)
        return corrupt(db, pgno, "b-tree walk visits more pages than the file has (a loop)", err);
    const uint8_t *page = sqlite_page(db, pgno, err);
    if (page == NULL)
        return -1;
    uint16_t hdr = pgno == 1 ? 100 : 0;
    const uint8_t *h = page + hdr;
    uint8_t type = h[0];
    bool leaf;
    if (c->index && (type == SQLITE_PAGE_INDEX_LEAF || type == SQLITE_PAGE_INDEX_INTERIOR))
        leaf = type == SQLITE_PAGE_INDEX_LEAF;
    else if (!c->index && (type == SQLITE_PAGE_TABLE_LEAF || type == SQLITE_PAGE_TABLE_INTERIOR))
        leaf = type == SQLITE_PAGE_TABLE_LEAF;
    else {
        char what[96];
        snprintf(what, sizeof what, "page type %u where a %s b-tree page belongs",
                 type, c->index ? "index" : "table");
        return corrupt(db, pgno, what, err);
    }
    uint16_t ncells = lt_be16(h + 3);
    uint32_t array_end = (uint32_t)hdr + (leaf ? 8u : 12u) + 2u * ncells;
    if (array_end > db->usable)
        return corrupt(db, pgno, "cell count larger than the page holds", err);
    sqlite_level *l = &c->stack[c->depth++];
    l->page = page;
    l->pgno = pgno;
    l->hdr = hdr;
    l->ncells = ncells;
    l->next = 0;
    l->leaf = leaf;
    l->pending = false;
    return 0;
}

/* Offset of cell `i` of level `l`, checked to lie after the pointer array
** and inside the usable area. */
static int cell_offset(const sqlite_db *db, const sqlite_level *l, uint16_t i,
                       uint32_t *out, lt_error *err)
{
    uint32_t first = (uint32_t)l->hdr + (l->leaf ? 8u : 12u) + 2u * l->ncells;
    uint32_t off = lt_be16(l->page + l->hdr + (l->leaf ? 8 : 12) + 2 * i);
    if (off < first || off >= db->usable)
        return corrupt(db, l->pgno, "cell offset outside the page", err);
    *out = off;
    return 0;
}

uint32_t sqlite_local_size(const sqlite_db *db, uint32_t p, bool index)
{
    uint32_t x = index ? db->max_local_index : db->max_local_table;
    if (p <= x)
        return p;
    uint32_t m = db->min_local;
    uint32_t k = m + (p - m) % (db->usable - 4);
    return k <= x ? k : m;
}

/* Parse the payload part of a cell starting at `off` (after any child
** pointer): payload size, rowid (table leaves), local bytes, overflow. */
static int parse_payload(const sqlite_cursor *c, const sqlite_level *l,
                         uint32_t off, bool table, sqlite_cell *cell,
                         lt_error *err)
{
    const sqlite_db *db = c->db;
    const uint8_t *end = l->page + db->usable;
    const uint8_t *p = l->page + off;
    uint64_t size;
    int n = sqlite_varint(p, end, &size);
    if (n == 0)
        return corrupt(db, l->pgno, "cell runs past the page", err);
    p += n;
    cell->rowid = 0;
    if (table) {
        uint64_t rowid;
        n = sqlite_varint(p, end, &rowid);
        if (n == 0)
            return corrupt(db, l->pgno, "cell runs past the page", err);
        p += n;
        cell->rowid = (int64_t)rowid;
    }
    /* A payload cannot be larger than the whole database. */
    if (size > SQLITE_MAX_PAYLOAD || size > (uint64_t)db->npages * db->usable)
        return corrupt(db, l->pgno, "payload size larger than the database", err);
    uint32_t local = sqlite_local_size(db, (uint32_t)size, !table);
    size_t room = (size_t)(end - p);
    if ((size_t)local + (local < size ? 4 : 0) > room)
        return corrupt(db, l->pgno, "cell payload runs past the page", err);
    cell->local = p;
    cell->local_len = local;
    cell->payload_len = (uint32_t)size;
    cell->overflow = local < size ? lt_be32(p + local) : 0;
    cell->pgno = l->pgno;
    if (local < size && (cell->overflow < 2 || cell->overflow > db->npages))
        return corrupt(db, l->pgno, "overflow page number out of range", err);
    return 0;
}

/* The page number of child `i` of an interior level (i == ncells: the
** right-most pointer in the page header). */
static int child_of(const sqlite_db *db, const sqlite_level *l, uint16_t i,
                    uint32_t *out, lt_error *err)
{
    if (i == l->ncells) {
        *out = lt_be32(l->page + l->hdr + 8);
        return 0;
    }
    uint32_t off = 0;
    if (cell_offset(db, l, i, &off, err) != 0)
        return -1;
    if (off + 4 > db->usable)
        return corrupt(db, l->pgno, "cell runs past the page", err);
    *out = lt_be32(l->page + off);
    return 0;
}

int sqlite_cursor_open(sqlite_cursor *c, const sqlite_db *db, uint32_t root,
                       bool index, lt_error *err)
{
    memset(c, 0, sizeof *c);
    c->db = db;
    c->index = index;
    return push(c, root, err);
}

int sqlite_cursor_next(sqlite_cursor *c, sqlite_cell *cell, lt_error *err)
{
    const sqlite_db *db = c->db;
    while (c->depth > 0) {
        sqlite_level *l = &c->stack[c->depth - 1];
        if (l->pending) {
            /* Index interior: the cell between the subtree just finished and
            ** the next one. */
            l->pending = false;
            uint32_t off = 0;
            if (cell_offset(db, l, (uint16_t)(l->next - 1), &off, err) != 0)
                return -1;
            if (off + 4 > db->usable)
                return corrupt(db, l->pgno, "cell runs past the page", err);
            return parse_payload(c, l, off + 4, false, cell, err) == 0 ? 1 : -1;
        }
        if (l->leaf) {
            if (l->next < l->ncells) {
                uint32_t off = 0;
                if (cell_offset(db, l, l->next++, &off, err) != 0)
                    return -1;
                return parse_payload(c, l, off, !c->index, cell, err) == 0 ? 1 : -1;
            }
            c->depth--;
            continue;
        }
        if (l->next > l->ncells) {
            c->depth--;
            continue;
        }
        uint32_t child = 0;
        if (child_of(db, l, l->next, &child, err) != 0)
            return -1;
        l->pending = c->index && l->next < l->ncells;
        l->next++;
        if (push(c, child, err) != 0)
            return -1;
    }
    return 0;
}

/* The integer key of cell `i` of a table b-tree level: a leaf cell's rowid
** (after the payload size), an interior cell's key (after the child). */
static int cell_key(const sqlite_db *db, const sqlite_level *l, uint16_t i,
                    int64_t *key, lt_error *err)
{
    uint32_t off = 0;
    if (cell_offset(db, l, i, &off, err) != 0)
        return -1;
    const uint8_t *p = l->page + off, *end = l->page + db->usable;
    uint64_t v;
    int n;
    if (l->leaf) {
        n = sqlite_varint(p, end, &v);   /* payload size */
        if (n == 0)
            return corrupt(db, l->pgno, "cell runs past the page", err);
        p += n;
    } else {
        if (off + 4 > db->usable)
            return corrupt(db, l->pgno, "cell runs past the page", err);
        p += 4;
    }
    if (sqlite_varint(p, end, &v) == 0)
        return corrupt(db, l->pgno, "cell runs past the page", err);
    *key = (int64_t)v;
    return 0;
}

/* The first cell of a level whose key is >= rowid (ncells when none):
** keys grow from cell to cell in a table b-tree. */
static int first_at_least(const sqlite_db *db, const sqlite_level *l, int64_t rowid,
                          uint16_t *out, lt_error *err)
{
    uint16_t lo = 0, hi = l->ncells;
    while (lo < hi) {
        uint16_t mid = (uint16_t)(lo + (hi - lo) / 2);
        int64_t key = 0;
        if (cell_key(db, l, mid, &key, err) != 0)
            return -1;
        if (key < rowid)
            lo = (uint16_t)(mid + 1);
        else
            hi = mid;
    }
    *out = lo;
    return 0;
}

int sqlite_cursor_seek(sqlite_cursor *c, int64_t rowid, lt_error *err)
{
    const sqlite_db *db = c->db;
    if (c->index || c->depth != 1)
        return 0;
    for (;;) {
        sqlite_level *l = &c->stack[c->depth - 1];
        uint16_t i;
        if (first_at_least(db, l, rowid, &i, err) != 0)
            return -1;
        if (l->leaf) {
            l->next = i;
            return 0;
        }
        /* Child i holds the keys up to key i; past the last cell, the
        ** right-most child.  cursor_next goes on with child i + 1. */
        uint32_t child = 0;
        if (child_of(db, l, i, &child, err) != 0)
            return -1;
        l->next = (uint16_t)(i + 1);
        if (push(c, child, err) != 0)
            return -1;
    }
}

/* The payload of cell `i` of an index level (interior cells start with
** the left child's page number). */
static int index_cell(const sqlite_cursor *c, const sqlite_level *l, uint16_t i,
                      sqlite_cell *cell, lt_error *err)
{
    uint32_t off = 0;
    if (cell_offset(c->db, l, i, &off, err) != 0)
        return -1;
    if (!l->leaf) {
        if (off + 4 > c->db->usable)
            return corrupt(c->db, l->pgno, "cell runs past the page", err);
        off += 4;
    }
    return parse_payload(c, l, off, false, cell, err);
}

int sqlite_cursor_seek_index(sqlite_cursor *c, sqlite_key_cmp cmp, void *ctx, lt_error *err)
{
    const sqlite_db *db = c->db;
    if (!c->index || c->depth != 1)
        return 0;
    for (;;) {
        sqlite_level *l = &c->stack[c->depth - 1];
        /* the first cell whose key is >= the sought one */
        uint16_t lo = 0, hi = l->ncells;
        while (lo < hi) {
            uint16_t mid = (uint16_t)(lo + (hi - lo) / 2);
            sqlite_cell cell;
            int r = 0;
            if (index_cell(c, l, mid, &cell, err) != 0 || cmp(ctx, &cell, &r, err) != 0)
                return -1;
            if (r < 0)
                lo = (uint16_t)(mid + 1);
            else
                hi = mid;
        }
        if (l->leaf) {
            l->next = lo;
            return 0;
        }
        /* Child lo holds the keys before cell lo; cursor_next hands out
        ** cell lo itself once that subtree is done, then goes on. */
        uint32_t child = 0;
        if (child_of(db, l, lo, &child, err) != 0)
            return -1;
        l->pending = lo < l->ncells;
        l->next = (uint16_t)(lo + 1);
        if (push(c, child, err) != 0)
            return -1;
    }
}

int64_t sqlite_btree_count(const sqlite_db *db, uint32_t root, bool index,
                           lt_error *err)
{
    sqlite_cursor c;
    if (sqlite_cursor_open(&c, db, root, index, err) != 0)
        return -1;
    int64_t n = 0;
    bool entered = true;
    while (c.depth > 0) {
        sqlite_level *l = &c.stack[c.depth - 1];
        if (entered && (l->leaf || index))
            n += l->ncells;
        entered = false;
        if (l->leaf || l->next > l->ncells) {
            c.depth--;
            continue;
        }
        uint32_t child = 0;
        if (child_of(db, l, l->next++, &child, err) != 0 || push(&c, child, err) != 0)
            return -1;
        entered = true;
    }
    return n;
}

int sqlite_payload_read(const sqlite_db *db, const sqlite_cell *cell,
                        uint32_t want, sqlite_buf *buf, lt_error *err)
{
    if (want > cell->payload_len)
        want = cell->payload_len;
    if (buf->cap < (size_t)want + 8) {
        size_t cap = buf->cap ? buf->cap : 4096;
        while (cap < (size_t)want + 8)
            cap *= 2;
        uint8_t *p = realloc(buf->p, cap);
        if (p == NULL)
            return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        buf->p = p;
        buf->cap = cap;
    }
    uint32_t got = cell->local_len < want ? cell->local_len : want;
    memcpy(buf->p, cell->local, got);
    uint32_t pgno = cell->overflow;
    uint32_t per = db->usable - 4;
    uint32_t pages = 0;
    while (got < want) {
        if (pgno < 2 || pgno > db->npages || ++pages > db->npages) {
            return lt_error_set(err, "HY000",
                                "'%s' is corrupt: page %u: overflow chain of a cell breaks at page %u",
                                db->path, cell->pgno, pgno);
        }
        const uint8_t *page = sqlite_page(db, pgno, err);
        if (page == NULL)
            return -1;
        uint32_t n = want - got < per ? want - got : per;
        memcpy(buf->p + got, page + 4, n);
        got += n;
        pgno = lt_be32(page);
    }
    return 0;
}
