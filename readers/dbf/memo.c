/*
** memo.c — memo blocks in .dbt (dBASE III, dBASE IV) and .fpt (FoxPro) files.
**
** A memo field holds a block number; the block's byte offset is number ×
** block size.  The three layouts:
**   .dbt, dBASE III:  512-byte blocks; the text runs to the first 0x1A (or
**                     the end of the file).
**   .dbt, dBASE IV:   block size at offset 20 (u16 LE; else the u32 at 4;
**                     else 512); a block starts FF FF 08 00 and a u32 LE
**                     length that counts those 8 bytes.  A block without
**                     that signature is read the dBASE III way.
**   .fpt:             block size at offset 6 (u16 BE, 0 means 512); a block
**                     starts with u32 BE type (0 picture, 1 text, 2 object)
**                     and u32 BE length.
** Block numbers and lengths come from the file and are not trusted: every
** one is checked against the memo file's size.
*/
#include "dbf_internal.h"

#include <string.h>

#include "../common/endian.h"

int dbf_memo_open(dbf_memo *m, dbf_memo_kind kind, const uint8_t *data,
                  size_t size, const char *name, lt_error *err)
{
    m->kind = kind;
    m->data = data;
    m->size = size;
    m->name = name;
    m->block_size = 512;
    switch (kind) {
    case DBF_MEMO_FPT:
        if (size < 8)
            return lt_error_set(err, "HY000", "memo file '%s' is %zu bytes long, too short for its header",
                                name, size);
        if (lt_be16(data + 6) != 0)
            m->block_size = lt_be16(data + 6);
        break;
    case DBF_MEMO_DBT4:
        if (size < 22)
            return lt_error_set(err, "HY000", "memo file '%s' is %zu bytes long, too short for its header",
                                name, size);
        if (lt_le16(data + 20) != 0)
            m->block_size = lt_le16(data + 20);
        else if (lt_le32(data + 4) != 0)
            m->block_size = lt_le32(data + 4);
        break;
    case DBF_MEMO_DBT3:
    case DBF_MEMO_NONE:
        break;
    }
    return 0;
}

/* Text up to the first 0x1A from `pos`, or to the end of the file. */
static void until_terminator(const dbf_memo *m, size_t pos,
                             const uint8_t **body, size_t *len)
{
    const uint8_t *start = m->data + pos;
    const uint8_t *end = memchr(start, 0x1A, m->size - pos);
    *body = start;
    *len = end ? (size_t)(end - start) : m->size - pos;
}

int dbf_memo_get(const dbf_memo *m, uint64_t block, int64_t recno,
                 const uint8_t **body, size_t *len, uint32_t *type,
                 lt_error *err)
{
    *type = 1;
    /* block ≤ 2^64/bs keeps the product exact; beyond it is past any end. */
    if (m->block_size == 0 || block > UINT64_MAX / m->block_size ||
        block * m->block_size >= m->size)
        return lt_error_set(err, "HY000", "record %lld points to memo block %llu past the end of '%s' (%zu bytes)",
                            (long long)recno + 1, (unsigned long long)block, m->name, m->size);
    size_t pos = (size_t)(block * m->block_size);
    size_t room = m->size - pos;
    const uint8_t *p = m->data + pos;
    switch (m->kind) {
    case DBF_MEMO_FPT: {
        if (room < 8)
            return lt_error_set(err, "HY000", "record %lld: memo block %llu of '%s' is cut short at the end of the file",
                                (long long)recno + 1, (unsigned long long)block, m->name);
        uint32_t length = lt_be32(p + 4);
        if (length > room - 8)
            return lt_error_set(err, "HY000", "record %lld: memo block %llu of '%s' says %u bytes but the file ends after %zu",
                                (long long)recno + 1, (unsigned long long)block, m->name, length, room - 8);
        *type = lt_be32(p);
        *body = p + 8;
        *len = length;
        return 0;
    }
    case DBF_MEMO_DBT4:
        if (room >= 4 && p[0] == 0xFF && p[1] == 0xFF && p[2] == 0x08 && p[3] == 0x00) {
            if (room < 8)
                return lt_error_set(err, "HY000", "record %lld: memo block %llu of '%s' is cut short at the end of the file",
                                    (long long)recno + 1, (unsigned long long)block, m->name);
            /* The length counts the 8 header bytes; a body running past
            ** the end of the file is cut there, as dBASE IV reads it. */
            uint32_t length = lt_le32(p + 4);
            size_t n = length > 8 ? length - 8 : 0;
            *body = p + 8;
            *len = n < room - 8 ? n : room - 8;
            return 0;
        }
        until_terminator(m, pos, body, len);
        return 0;
    case DBF_MEMO_DBT3:
    case DBF_MEMO_NONE:
        until_terminator(m, pos, body, len);
        return 0;
    }
    return 0;
}
