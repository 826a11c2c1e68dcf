/*
** pager.c — page numbers to page bytes: the mapped file, and the committed
** frames of a WAL file laid over it.
**
** Pages are never copied: a page is either in the mapped database file or
** in the mapped -wal file.  The WAL is read the way SQLite recovers one
** without its -shm index: frames are valid while their salts equal the
** header's and the running checksum matches; the last valid commit frame
** (non-zero "database size") ends the usable log, and of several frames of
** one page the last one up to there wins.  Frames after the last commit are
** a transaction still being written and are ignored.  Nothing is written:
** the -shm file is not read, created or updated.
*/
#include "sqlite_internal.h"

#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

#define WAL_HEADER 32
#define WAL_FRAME_HEADER 24

int sqlite_page_error(const sqlite_db *db, uint32_t pgno, lt_error *err)
{
    if (pgno == 0 || pgno > db->npages)
        return lt_error_set(err, "HY000",
                            "'%s' is corrupt: reference to page %u, the database has %u pages",
                            db->path, pgno, db->npages);
    return lt_error_set(err, "HY000",
                        "'%s' is truncated: page %u lies beyond the end of the file",
                        db->path, pgno);
}

/* The running WAL checksum over `n` bytes (a multiple of 8). */
static void wal_checksum(bool big_endian, const uint8_t *p, size_t n,
                         uint32_t *s0, uint32_t *s1)
{
    uint32_t a = *s0, b = *s1;
    for (size_t i = 0; i < n; i += 8) {
        uint32_t x0 = big_endian ? lt_be32(p + i) : lt_le32(p + i);
        uint32_t x1 = big_endian ? lt_be32(p + i + 4) : lt_le32(p + i + 4);
        a += x0 + b;
        b += x1 + a;
    }
    *s0 = a;
    *s1 = b;
}

int sqlite_wal_open(sqlite_db *db, const char *wal_path, lt_error *err)
{
    if (wal_path == NULL || !lt_is_regular_file(wal_path))
        return 0;
    lt_mapped_file *f = &db->wal_file;
    if (lt_map_file(wal_path, f, err) != 0)
        return -1;
    const uint8_t *w = f->data;
    size_t size = f->size;
    /* A missing, empty or foreign header means an empty log, as in SQLite. */
    if (w == NULL || size < WAL_HEADER)
        return 0;
    uint32_t magic = lt_be32(w);
    if ((magic & 0xfffffffe) != 0x377f0682 || lt_be32(w + 4) != 3007000)
        return 0;
    bool be = (magic & 1) != 0;
    uint32_t ps = lt_be32(w + 8);
    if (ps != db->page_size)
        return 0;
    uint32_t s0 = 0, s1 = 0;
    wal_checksum(be, w, 24, &s0, &s1);
    if (s0 != lt_be32(w + 24) || s1 != lt_be32(w + 28))
        return 0;
    uint32_t salt1 = lt_be32(w + 16), salt2 = lt_be32(w + 20);

    size_t frame = WAL_FRAME_HEADER + (size_t)ps;
    size_t nframes = (size - WAL_HEADER) / frame;
    size_t last_commit = 0;    /* frames [0, last_commit) count */
    uint32_t commit_pages = 0;
    uint32_t max_page = 0;
    for (size_t i = 0; i < nframes; i++) {
        const uint8_t *fh = w + WAL_HEADER + i * frame;
        uint32_t pgno = lt_be32(fh);
        if (pgno == 0 || lt_be32(fh + 8) != salt1 || lt_be32(fh + 12) != salt2)
            break;
        wal_checksum(be, fh, 8, &s0, &s1);
        wal_checksum(be, fh + WAL_FRAME_HEADER, ps, &s0, &s1);
        if (s0 != lt_be32(fh + 16) || s1 != lt_be32(fh + 20))
            break;
        if (pgno > max_page)
            max_page = pgno;
        uint32_t commit = lt_be32(fh + 4);
        if (commit != 0) {
            last_commit = i + 1;
            commit_pages = commit;
        }
    }
    if (last_commit == 0)
        return 0;
    uint32_t n = commit_pages > max_page ? commit_pages : max_page;
    db->wal_pages = calloc((size_t)n + 1, sizeof *db->wal_pages);
    if (db->wal_pages == NULL)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", wal_path);
    for (size_t i = 0; i < last_commit; i++) {
        const uint8_t *fh = w + WAL_HEADER + i * frame;
        db->wal_pages[lt_be32(fh)] = fh + WAL_FRAME_HEADER;
    }
    /* The database has the size the last commit gave it; pages past it are
    ** gone even if frames or the main file still hold them. */
    db->npages = commit_pages;
    if (db->wal_pages[1] != NULL)
        return sqlite_header_refresh(db, db->wal_pages[1], err);
    return 0;
}

void sqlite_wal_close(sqlite_db *db)
{
    free(db->wal_pages);
    db->wal_pages = NULL;
    if (db->wal_file.data != NULL || db->wal_file.handle != NULL)
        lt_unmap_file(&db->wal_file);
    memset(&db->wal_file, 0, sizeof db->wal_file);
}
