/*
** xlsb_internal.h — what the files of the .xlsb reader share: the ZIP
** container (zip.c), BIFF12 records and strings (records.c), the package
** relationships and workbook part (workbook.c), number formats (styles.c),
** shared strings (sst.c), sheet cells and typing (sheet.c) and the reader
** (reader.c).
*/
#ifndef LT_XLSB_INTERNAL_H
#define LT_XLSB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/arena.h"
#include "../common/error.h"
#include "../common/platform.h"
#include "../common/wbgrid.h"
#include "../reader.h"

/* ---- ZIP container (zip.c) ------------------------------------------------ */

/* No part is inflated past this many bytes (zip bombs). */
#define XLSB_PART_MAX ((uint64_t)1 << 32)

typedef struct xlsb_zip_entry {
    char *name;             /* as stored, NUL-terminated */
    uint16_t method;        /* 0 stored, 8 deflate */
    uint32_t crc;           /* CRC-32 of the uncompressed bytes */
    uint64_t csize, usize;
    uint64_t local;         /* offset of the local header */
} xlsb_zip_entry;

typedef struct xlsb_zip {
    const uint8_t *data;
    size_t size;
    const char *label;      /* for messages */
    xlsb_zip_entry *entries;
    uint32_t n;
} xlsb_zip;

/* Read the central directory (ZIP64 too). */
int xlsb_zip_open(xlsb_zip *z, const uint8_t *data, size_t size, const char *label,
                  lt_error *err);
void xlsb_zip_close(xlsb_zip *z);
/* The entry named `name` (case-insensitive, a leading '/' ignored), or -1. */
int64_t xlsb_zip_find(const xlsb_zip *z, const char *name);
/* Where the entry's compressed bytes are in the file (checked), for a
** stored or deflated entry; other methods fail. */
int xlsb_zip_locate(const xlsb_zip *z, uint32_t entry, const uint8_t **data, size_t *len,
                    lt_error *err);
uint32_t xlsb_crc32(const uint8_t *p, size_t n);
/* The entry's bytes, malloc'ed into *out (never more than `max` bytes),
** checked against the entry's CRC-32. */
int xlsb_zip_read(const xlsb_zip *z, uint32_t entry, uint64_t max, uint8_t **out,
                  size_t *len, lt_error *err);

/* ---- BIFF12 records (records.c) ------------------------------------------- */

#define XLSB_ROWHDR        0
#define XLSB_CELL_BLANK    1
#define XLSB_CELL_RK       2
#define XLSB_CELL_ERROR    3
#define XLSB_CELL_BOOL     4
#define XLSB_CELL_REAL     5
#define XLSB_CELL_ST       6
#define XLSB_CELL_ISST     7
#define XLSB_FMLA_STRING   8
#define XLSB_FMLA_NUM      9
#define XLSB_FMLA_BOOL     10
#define XLSB_FMLA_ERROR    11
#define XLSB_SHORT_BLANK   12
#define XLSB_SHORT_RK      13
#define XLSB_SHORT_ERROR   14
#define XLSB_SHORT_BOOL    15
#define XLSB_SHORT_REAL    16
#define XLSB_SHORT_ST      17
#define XLSB_SHORT_ISST    18
#define XLSB_SST_ITEM      19
#define XLSB_FMT           44
#define XLSB_XF            47
#define XLSB_BEGIN_SHEETDATA 145
#define XLSB_END_SHEETDATA 146
#define XLSB_WBPROP        153
#define XLSB_BUNDLESH      156
#define XLSB_BEGIN_CELLXFS 617
#define XLSB_END_CELLXFS   618

typedef struct xlsb_rec {
    uint32_t type;
    const uint8_t *data;
    uint32_t len;
} xlsb_rec;

/* A record header at s[0..len): 1 with its type, data size and header
** length, 0 when the bytes end inside it, -1 when it is malformed (a
** type longer than 2 bytes or a size longer than 4). */
int xlsb_record_header(const uint8_t *s, size_t len, uint32_t *type, uint32_t *size, size_t *hlen);

/* The record at *pos of s[0..len): 1 (and *pos moves past it), 0 at the
** end, -1 when its header or data runs past the end. */
int xlsb_record_next(const uint8_t *s, size_t len, size_t *pos, xlsb_rec *rec);

/* An RkNumber: a 30-bit integer or the high 30 bits of a double, /100. */
double xlsb_rk(uint32_t rk);

/* UTF-16LE units to UTF-8; dst has room for 3 * n bytes.  Lone surrogates
** become U+FFFD. */
size_t xlsb_utf16_to_utf8(const uint8_t *src, size_t n, char *dst);

/* An XLWideString at p[0..len): its character count and where its UTF-16
** units start; the bytes it takes in *used.  false when it runs past len
** (or is the null string 0xFFFFFFFF: *cch is then UINT32_MAX). */
bool xlsb_wide_string(const uint8_t *p, size_t len, uint32_t *cch, size_t *used);

/* ---- streamed parts (stream.c) ------------------------------------------ */

/* A part read record by record, inflated in pieces (stream.c): memory
** stays bounded by the window (and the largest record), however long the
** part.  The inflated total is capped by XLSB_PART_MAX and, at the end,
** checked against the entry's size and CRC-32. */
typedef struct xlsb_stream {
    const xlsb_zip *zip;
    const xlsb_zip_entry *entry;
    const uint8_t *in;      /* compressed bytes */
    size_t in_len, in_pos;
    void *zs;               /* z_stream, NULL for a stored entry */
    bool inflated_all;      /* no more bytes will come */
    const uint8_t *win;     /* the window: win[start..end) not yet read */
    uint8_t *buf;           /* owned window of a deflated entry */
    size_t cap, start, end;
    uint64_t total;         /* bytes inflated so far */
    uint32_t crc;
} xlsb_stream;

int xlsb_stream_open(xlsb_stream *st, const xlsb_zip *z, uint32_t entry, lt_error *err);
/* 1: *rec holds the next record (valid until the next call); 0: the end;
** -1: malformed or damaged (err names the part). */
int xlsb_stream_next(xlsb_stream *st, xlsb_rec *rec, lt_error *err);
void xlsb_stream_close(xlsb_stream *st);

/* ---- the workbook source -------------------------------------------------- */

#define XLSB_MAX_ROW 1048575u
#define XLSB_MAX_COL 16383u

/* A table: a worksheet (its used range), or a workbook-level defined name
** that refers to one rectangle of a worksheet (that rectangle, its rows
** clipped at the last one holding a value). */
typedef struct xlsb_sheet {
    char *name;             /* UTF-8: the sheet's without the '$', or the defined name */
    char *part;             /* ZIP name of the sheet part */
    uint8_t visibility;     /* 0 visible, 1 hidden, 2 very hidden */
    uint32_t tab;           /* position among the workbook's BrtBundleSh */
    bool is_name;           /* a defined name: the table is the rectangle */
    uint32_t r0, r1, c0, c1;/* the rectangle read (a worksheet: all of it) */
    /* Filled by the type scan (sheet.c). */
    bool empty;
    uint32_t first_row, last_row, first_col, ncols;
    uint32_t data_row;      /* first data row (first_row + 1 with HDR=Yes) */
    lt_wb_cells cells;      /* its cells, kept by the type scan (wbgrid.h) */
    bool kept;              /* `cells` holds every cell: scans read them */
} xlsb_sheet;

typedef struct xlsb_source {
    lt_source base;
    char *label;            /* the path or memory name, for messages */
    lt_mapped_file file;
    bool mapped;
    uint8_t *decrypted;     /* the package of an encrypted workbook, owned */
    xlsb_zip zip;
    bool date1904;
    bool hdr;
    char *workbook_part;
    char *sst_part;         /* NULL when none */
    char *styles_part;      /* NULL when none */
    uint8_t *xf_fmt;        /* LT_WB_FMT_* per cellXfs index */
    uint32_t nxf;
    char *sst_text;         /* all shared strings, UTF-8 */
    uint32_t *sst_off;      /* nsst + 1 offsets into sst_text */
    uint32_t *sst_units;    /* UTF-16 length of each */
    uint32_t nsst;
    xlsb_sheet *sheets;     /* worksheets, then names (one per listed table) */
    uint32_t nsheets;
    lt_wb_extra extra;      /* ranges made on demand (wbgrid.h) */
    lt_wb_lazy lazy;        /* sheets typed on first use (opened from a file) */
    xlsb_sheet *extra_sheets;/* LT_WB_EXTRA_TABLES: the sheet of each made table */
    uint32_t type_rows;     /* TypeGuessRows=: data rows the type scan reads (0 all) */
    size_t kept_bytes;      /* sheets' cells kept, in all ... */
    size_t kept_budget;     /* ... at most (CellCacheMB=, LT_WB_CELLS_BUDGET) */
} xlsb_source;

/* crypt.c: the ZIP package inside a password-encrypted workbook (a
** compound file holding EncryptionInfo and EncryptedPackage), decrypted
** with `password` (NULL: Excel's default) into *out (malloc'ed).  Fails
** naming the encryption: 28000 for a missing or wrong password, HY000 for
** an encryption Lector does not read. */
int xlsb_decrypt(const uint8_t *file, size_t size, const char *label, const char *password, uint8_t **out,
                 size_t *out_len, lt_error *err);
/* The same from the two streams' bytes (the compound file already read). */
int xlsb_decrypt_streams(const uint8_t *info, size_t info_len, const uint8_t *pkg, size_t pkg_len,
                         const char *label, const char *password, uint8_t **out, size_t *out_len, lt_error *err);

/* workbook.c: _rels/.rels -> the workbook part, its relationships -> the
** sheet, shared strings and styles parts; workbook.bin -> sheets, 1904. */
int xlsb_workbook_parse(xlsb_source *src, lt_error *err);
/* A part read whole (bounded by XLSB_PART_MAX). */
int xlsb_read_part(const xlsb_source *src, const char *part, uint8_t **out, size_t *len,
                   lt_error *err);

/* styles.c: cellXfs -> date flags per XF. */
int xlsb_styles_parse(xlsb_source *src, lt_error *err);

/* sst.c: the shared strings into src->sst_*. */
int xlsb_sst_parse(xlsb_source *src, lt_error *err);

/* ---- cells (sheet.c) ------------------------------------------------------ */

typedef struct xlsb_cell {
    uint32_t row, col;
    lt_wb_cell v;
} xlsb_cell;

typedef struct xlsb_cells {
    const xlsb_source *src;
    const xlsb_sheet *sheet;
    xlsb_stream st;         /* the sheet part */
    bool ended;
    uint32_t row;           /* of the last BrtRowHdr */
    int64_t col;            /* of the previous cell (BrtShort* have none) */
    lt_arena *arena;        /* inline strings are decoded here */
    /* Inline strings are only measured (text NULL, len 0, units set),
    ** except in row text_row, or when text_row is LT_WB_NO_ROW. */
    bool lengths_only;
    uint32_t text_row;
} xlsb_cells;

/* Start streaming the sheet's part; inline strings are decoded into
** `arena`.  xlsb_cells_end() frees the stream. */
int xlsb_cells_start(xlsb_cells *it, const xlsb_source *src, const xlsb_sheet *sheet,
                     lt_arena *arena, lt_error *err);
/* 1: *out holds the next cell with a value; 0: the end; -1: malformed. */
int xlsb_cells_next(xlsb_cells *it, xlsb_cell *out, lt_error *err);
void xlsb_cells_end(xlsb_cells *it);

/* The type scan of a worksheet: its used range and column types into
** `table` (the part is streamed through, twice at most).  `keep`: keep
** the cells in sheet->cells for the scans, within what is left of the
** workbook's kept_budget (sheet->kept says whether they fit). */
int xlsb_sheet_scan(xlsb_source *src, xlsb_sheet *sheet, lt_table *table, bool keep, lt_error *err);

#endif /* LT_XLSB_INTERNAL_H */
