/*
** header.c — the 100-byte database header.
**
** Decides whether a file is an SQLite 3 database at all (magic string),
** how big its pages are (512..65536, the value 1 meaning 65536), how many
** bytes at the end of each page are reserved (encryption and checksum
** extensions keep data there), the text encoding and schema format, and how
** many pages the database has: the in-header count when it is valid
** (offset 24 equals offset 92), else the file size.  A header count beyond
** the file means the file was cut short, and SQLite refuses such a file.
*/
#include "sqlite_internal.h"

#include "../common/endian.h"

#include <string.h>

static const char sqlite_magic[16] = "SQLite format 3";

/* The fields that follow page 1: re-read when page 1 comes from the WAL. */
static int read_fields(sqlite_db *db, const uint8_t *h, lt_error *err)
{
    uint8_t reserved = h[20];
    if (db->page_size < (uint32_t)reserved + 480)
        return lt_error_set(err, "HY000",
                            "'%s': corrupt header: %u reserved bytes leave too little of a %u-byte page",
                            db->path, reserved, db->page_size);
    if (h[21] != 64 || h[22] != 32 || h[23] != 32)
        return lt_error_set(err, "HY000",
                            "'%s': corrupt header: payload fractions %u/%u/%u (SQLite writes 64/32/32)",
                            db->path, h[21], h[22], h[23]);
    db->usable = db->page_size - reserved;
    db->change_counter = lt_be32(h + 24);
    db->schema_format = lt_be32(h + 44);
    if (db->schema_format > 4)
        return lt_error_set(err, "HY000",
                            "'%s': schema format %u is newer than SQLite 3 formats 1-4",
                            db->path, db->schema_format);
    uint32_t enc = lt_be32(h + 56);
    if (enc > 3)
        return lt_error_set(err, "HY000", "'%s': corrupt header: text encoding %u", db->path, enc);
    /* 0 in a database that has no schema yet: nothing to decode. */
    db->encoding = enc == 0 ? SQLITE_ENC_UTF8 : (uint8_t)enc;
    uint32_t u = db->usable;
    db->max_local_table = u - 35;
    db->max_local_index = ((u - 12) * 64 / 255) - 23;
    db->min_local = ((u - 12) * 32 / 255) - 23;
    return 0;
}

int sqlite_header_refresh(sqlite_db *db, const uint8_t *page1, lt_error *err)
{
    return read_fields(db, page1, err);
}

int sqlite_header_parse(sqlite_db *db, const char *path, const uint8_t *data,
                        size_t size, lt_error *err)
{
    memset(db, 0, sizeof *db);
    db->path = path;
    db->data = data;
    db->size = size;
    db->encoding = SQLITE_ENC_UTF8;
    if (size == 0)
        return 0;  /* SQLite reads an empty file as an empty database */
    if (size < 100 || memcmp(data, sqlite_magic, 16) != 0) {
        if (size >= 15 && memcmp(data, "SQLite format ", 14) == 0)
            return lt_error_set(err, "HY000",
                                "'%s' is not an SQLite 3 database (its header says '%.15s')",
                                path, (const char *)data);
        return lt_error_set(err, "HY000",
                            "'%s' is not an SQLite 3 database (no 'SQLite format 3' header; an encrypted database looks like this too)",
                            path);
    }
    uint32_t ps = lt_be16(data + 16);
    if (ps == 1)
        ps = 65536;
    if (ps < 512 || ps > 65536 || (ps & (ps - 1)) != 0)
        return lt_error_set(err, "HY000", "'%s': corrupt header: page size %u", path, ps);
    db->page_size = ps;
    uint8_t wver = data[18], rver = data[19];
    if (rver > 2)
        return lt_error_set(err, "HY000",
                            "'%s': file format read version %u is not readable by SQLite 3 (only 1 and 2)",
                            path, rver);
    db->wal_mode = rver == 2 || wver == 2;
    if (read_fields(db, data, err) != 0)
        return -1;
    size_t file_pages = size / ps;
    uint32_t hdr_pages = lt_be32(data + 28);
    bool valid = hdr_pages != 0 && lt_be32(data + 24) == lt_be32(data + 92);
    if (valid) {
        if (hdr_pages > file_pages)
            return lt_error_set(err, "HY000",
                                "'%s' is truncated: its header counts %u pages of %u bytes, the file holds %zu bytes (%zu whole pages)",
                                path, hdr_pages, ps, size, file_pages);
        db->npages = hdr_pages;
    } else {
        if (file_pages > UINT32_MAX - 1)
            file_pages = UINT32_MAX - 1;
        db->npages = (uint32_t)file_pages;
    }
    if (db->npages == 0)
        return lt_error_set(err, "HY000", "'%s' is truncated: not even one whole %u-byte page", path, ps);
    db->file_pages = db->npages;
    return 0;
}
