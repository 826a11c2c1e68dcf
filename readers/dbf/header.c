/*
** header.c — the table header and field descriptors of a .dbf file.
**
** Layout (dBASE III and later, FoxPro, Visual FoxPro): a 32-byte header
** (version, date, record count u32, header length u16, record length u16,
** language-driver byte at 29), then 32-byte field descriptors (name[11],
** type, displacement u32, length, decimals, flags) ended by 0x0D, then the
** records.  Writers disagree in the details, so:
**   - the descriptor array is bounded by the header length, not only by the
**     0x0D terminator (some writers omit it);
**   - field positions are the running sum of the lengths (displacements are
**     garbage in many files);
**   - the decimals byte of a C field is the high byte of its length (Clipper
**     and FoxPro, fields over 255 bytes) only when the widened lengths add up
**     to the record length — otherwise it is junk to ignore;
**   - the flags byte (system, nullable, binary) means something only in
**     Visual FoxPro; other writers leave garbage there;
**   - the record count is trusted only as far as complete records follow.
** dBASE II (different layout) and dBASE 7 (48-byte descriptors) are refused
** with a clear error.
*/
#include "dbf_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../common/codepage.h"
#include "../common/endian.h"

#define DESCRIPTOR_SIZE 32
#define MEMO_COLUMN_SIZE 1073741823u   /* what a memo may hold, for ODBC */

/* One descriptor as read, before deciding what it becomes. */
typedef struct raw_field {
    const uint8_t *name;
    size_t name_len;
    uint8_t type;
    uint32_t width;
    uint8_t decimals;
    uint8_t flags;
} raw_field;

uint8_t dbf_header_ldid(const uint8_t *data, size_t size)
{
    return size >= 32 ? data[29] : 0;
}

static bool known_version(uint8_t v)
{
    switch (v) {
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x30: case 0x31:
    case 0x32: case 0x43: case 0x63: case 0x7B: case 0x83: case 0x8B:
    case 0x8C: case 0xB3: case 0xCB: case 0xE5: case 0xF5: case 0xFB:
        return true;
    default:
        return false;
    }
}

int dbf_header_plausible(const uint8_t *h, size_t len)
{
    if (len < 32 || !known_version(h[0]))
        return 0;
    if (h[0] == 0x02)          /* dBASE II: claim it so open can say why not */
        return 40;
    uint32_t hlen = lt_le16(h + 8), rlen = lt_le16(h + 10);
    if (hlen < DESCRIPTOR_SIZE + 1 || rlen == 0)
        return 0;
    int score = 60;
    if (h[2] >= 1 && h[2] <= 12 && h[3] >= 1 && h[3] <= 31)
        score += 20;            /* a real "last update" date */
    if (len >= 44 && hlen >= 64) {
        uint8_t type = h[32 + 11];
        if ((type >= 'A' && type <= 'Z') || (type >= '0' && type <= '9') ||
            type == '+' || type == '@')
            score += 15;
    }
    return score;
}

static const char *version_name(uint8_t v)
{
    switch (v) {
    case 0x02: return "dBASE II";
    case 0x04: case 0x8C: return "dBASE 7";
    default: return "dBASE";
    }
}

/* The kind, logical type, ODBC size/scale and type name of a visible field. */
static int field_type(const dbf_table *t, dbf_field *f, lt_column *c,
                      const char *colname, lt_error *err)
{
    uint32_t fixed = 0;     /* required width of binary fields */
    c->nullable = true;
    c->is_long = false;
    c->scale = 0;
    f->scale = 0;
    switch (f->type) {
    case 'C':
        f->kind = DBF_CHAR;
        c->type = LT_TEXT; c->size = f->width ? f->width : 1; c->type_name = "CHARACTER";
        break;
    case 'V':
        f->kind = DBF_VARCHAR;
        c->type = LT_TEXT; c->size = f->width ? f->width : 1; c->type_name = "VARCHAR";
        break;
    case 'Q':
        f->kind = DBF_VARBINARY;
        c->type = LT_BINARY; c->size = f->width ? f->width : 1; c->type_name = "VARBINARY";
        break;
    case 'N':
    case 'F':
        c->type_name = f->type == 'N' ? "NUMERIC" : "FLOAT";
        if (f->decimals == 0 && f->width <= 18) {
            /* Up to 9 digits always fit an SQL INTEGER; more need BIGINT. */
            f->kind = DBF_NUM_INT;
            c->type = LT_INT64; c->size = f->width > 9 ? 19 : 10;
        } else if (f->width <= 38 && f->decimals <= f->width &&
                   (f->decimals == 0 || f->type == 'N')) {
            f->kind = DBF_NUM_DECIMAL;
            f->scale = f->decimals;
            c->type = LT_DECIMAL; c->size = f->width; c->scale = f->decimals;
        } else {
            f->kind = DBF_NUM_DOUBLE;
            c->type = LT_DOUBLE; c->size = 15;
        }
        break;
    case 'D':
        f->kind = DBF_DATE;
        c->type = LT_DATE; c->size = 10; c->type_name = "DATE";
        break;
    case 'L':
        f->kind = DBF_LOGICAL;
        c->type = LT_BOOL; c->size = 1; c->type_name = "LOGICAL";
        break;
    case 'I':
        f->kind = DBF_INT32; fixed = 4;
        c->type = LT_INT64; c->size = 10; c->type_name = "INTEGER";
        break;
    case 'Y':
        f->kind = DBF_CURRENCY; fixed = 8; f->scale = 4;
        c->type = LT_DECIMAL; c->size = 19; c->scale = 4; c->type_name = "CURRENCY";
        break;
    case 'T':
        f->kind = DBF_DATETIME; fixed = 8;
        c->type = LT_TIMESTAMP; c->size = 23; c->scale = 3; c->type_name = "DATETIME";
        break;
    case 'O':
        f->kind = DBF_DOUBLE_DB7; fixed = 8;
        c->type = LT_DOUBLE; c->size = 15; c->type_name = "DOUBLE";
        break;
    case 'B':
        if (t->vfp) {
            f->kind = DBF_DOUBLE_LE; fixed = 8;
            c->type = LT_DOUBLE; c->size = 15; c->type_name = "DOUBLE";
        } else {
            f->kind = DBF_MEMO_BINARY;
            c->type = LT_BINARY; c->size = MEMO_COLUMN_SIZE; c->is_long = true;
            c->type_name = "BINARY";
        }
        break;
    case 'M':
        c->size = MEMO_COLUMN_SIZE; c->is_long = true; c->type_name = "MEMO";
        if (f->flags & 0x04) {    /* VFP "binary" memo: no code page */
            f->kind = DBF_MEMO_BINARY; c->type = LT_BINARY;
        } else {
            f->kind = DBF_MEMO_TEXT; c->type = LT_TEXT;
        }
        break;
    case 'G':
    case 'P':
    case 'W':
        f->kind = DBF_MEMO_BINARY;
        c->type = LT_BINARY; c->size = MEMO_COLUMN_SIZE; c->is_long = true;
        c->type_name = f->type == 'G' ? "GENERAL" : f->type == 'P' ? "PICTURE" : "BLOB";
        break;
    default:
        if (f->type >= 0x21 && f->type < 0x7F)
            return lt_error_set(err, "HY000", "'%s': field %s has type '%c', which Lector does not read",
                                t->path, colname, f->type);
        return lt_error_set(err, "HY000", "'%s': field %s has an invalid type byte 0x%02X",
                            t->path, colname, f->type);
    }
    if (fixed && f->width != fixed)
        return lt_error_set(err, "HY000", "'%s': field %s of type '%c' is %u bytes wide; it must be %u",
                            t->path, colname, f->type, f->width, fixed);
    return 0;
}

/* A field name decoded from the table's code page, malloc'ed. */
static char *decode_name(const raw_field *r, int codepage)
{
    char *name = malloc(LT_CODEPAGE_MAX_UTF8(r->name_len) + 1);
    if (name == NULL)
        return NULL;
    size_t n = lt_codepage_decode(codepage, r->name, r->name_len, name);
    name[n] = '\0';
    return name;
}

/* Read the descriptors into `raw` (malloc'ed), applying the Clipper rule. */
static int read_descriptors(const dbf_table *t, raw_field **out, uint32_t *count,
                            lt_error *err)
{
    const uint8_t *d = t->file.data;
    size_t size = t->file.size;
    uint32_t n = 0;
    for (size_t pos = 32; pos + DESCRIPTOR_SIZE <= t->header_len &&
                          pos + DESCRIPTOR_SIZE <= size && d[pos] != 0x0D;
         pos += DESCRIPTOR_SIZE)
        n++;
    if (n == 0)
        return lt_error_set(err, "HY000", "'%s': the table has no fields (a table needs at least one column)",
                            t->path);
    raw_field *raw = calloc(n, sizeof *raw);
    if (raw == NULL)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", t->path);
    uint64_t plain = 1, wide = 1;
    bool any_high = false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = d + 32 + (size_t)i * DESCRIPTOR_SIZE;
        raw_field *r = &raw[i];
        const uint8_t *nul = memchr(p, 0, 11);
        r->name = p;
        r->name_len = nul ? (size_t)(nul - p) : 11;
        r->type = p[11];
        r->width = p[16];
        r->decimals = p[17];
        r->flags = t->vfp ? p[18] : 0;
        plain += r->width;
        if (r->type == 'C') {
            wide += r->width | (uint32_t)r->decimals << 8;
            any_high |= r->decimals != 0;
        } else {
            wide += r->width;
        }
    }
    if (any_high && wide == t->record_len) {
        for (uint32_t i = 0; i < n; i++)
            if (raw[i].type == 'C') {
                raw[i].width |= (uint32_t)raw[i].decimals << 8;
                raw[i].decimals = 0;
            }
        plain = wide;
    }
    if (plain > t->record_len) {
        free(raw);
        return lt_error_set(err, "HY000", "'%s': the fields need %llu bytes per record but the header says records are %u bytes",
                            t->path, (unsigned long long)plain, t->record_len);
    }
    *out = raw;
    *count = n;
    return 0;
}

static bool is_hidden(const dbf_table *t, const raw_field *r)
{
    return r->type == '0' || (t->vfp && (r->flags & 0x01));
}

int dbf_header_parse(dbf_table *t, lt_table *table, lt_error *err)
{
    const uint8_t *d = t->file.data;
    size_t size = t->file.size;
    if (size < 32)
        return lt_error_set(err, "HY000", "'%s' is %zu bytes long, too short for a dBASE table header (32 bytes)",
                            t->path, size);
    t->version = d[0];
    if (t->version == 0x02 || (t->version & 0x07) == 0x04)
        return lt_error_set(err, "HY000", "'%s' is a %s table (version byte 0x%02X), which Lector does not read",
                            t->path, version_name(t->version), t->version);
    t->vfp = t->version == 0x30 || t->version == 0x31 || t->version == 0x32;
    uint32_t header_count = lt_le32(d + 4);
    t->header_len = lt_le16(d + 8);
    t->record_len = lt_le16(d + 10);

    raw_field *raw = NULL;
    uint32_t nraw = 0;
    if (read_descriptors(t, &raw, &nraw, err) != 0)
        return -1;

    /* Positions, the _NullFlags field and the bits it hands out in field
    ** order: a V/Q field takes a "varlength" bit, then a nullable field a
    ** null bit. */
    uint32_t nvisible = 0, offset = 1;
    bool has_nullflags = false;
    for (uint32_t i = 0; i < nraw; i++) {
        if (raw[i].type == '0' && !has_nullflags) {
            has_nullflags = true;
            t->nullflags_offset = offset;
            t->nullflags_width = raw[i].width;
        }
        offset += raw[i].width;
        nvisible += !is_hidden(t, &raw[i]);
    }
    if (nvisible == 0) {
        free(raw);
        return lt_error_set(err, "HY000", "'%s': the table has only hidden system fields, no columns", t->path);
    }
    t->fields = calloc(nvisible, sizeof *t->fields);
    table->cols = calloc(nvisible, sizeof *table->cols);
    if (t->fields == NULL || table->cols == NULL) {
        free(raw);
        return lt_error_set(err, "HY001", "out of memory reading '%s'", t->path);
    }
    int32_t bit = 0;
    offset = 1;
    for (uint32_t i = 0; i < nraw; i++) {
        const raw_field *r = &raw[i];
        int32_t varbit = -1, nullbit = -1;
        if (r->type != '0' && has_nullflags) {
            if (r->type == 'V' || r->type == 'Q')
                varbit = bit++;
            if (r->flags & 0x02)
                nullbit = bit++;
        }
        uint32_t at = offset;
        offset += r->width;
        if (is_hidden(t, r))
            continue;
        dbf_field *f = &t->fields[t->nfields];
        lt_column *c = &table->cols[t->nfields];
        f->offset = at;
        f->width = r->width;
        f->type = r->type;
        f->decimals = r->decimals;
        f->flags = r->flags;
        f->varbit = varbit;
        f->nullbit = nullbit;
        c->name = decode_name(r, t->codepage);
        t->nfields++;
        table->ncols = t->nfields;
        if (c->name == NULL) {
            free(raw);
            return lt_error_set(err, "HY001", "out of memory reading '%s'", t->path);
        }
        if (field_type(t, f, c, c->name, err) != 0) {
            free(raw);
            return -1;
        }
        if (f->kind == DBF_MEMO_TEXT || f->kind == DBF_MEMO_BINARY)
            t->needs_memo = true;
    }
    free(raw);

    /* Trust the header's count only as far as complete records follow. */
    int64_t present = 0;
    if (size > t->header_len)
        present = (int64_t)((size - t->header_len) / t->record_len);
    t->nrecords = (int64_t)header_count < present ? (int64_t)header_count : present;
    table->row_estimate = t->nrecords;
    return 0;
}
