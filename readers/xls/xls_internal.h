/*
** xls_internal.h — what the files of the .xls reader share: the compound
** file (cfb.c), BIFF records and strings (biff.c), the shared string table
** (sst.c), the workbook globals (globals.c), RC4 decryption (crypt.c), the
** cell walker (cells.c), sheet typing (sheet.c) and the reader (reader.c).
*/
#ifndef LT_XLS_INTERNAL_H
#define LT_XLS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/arena.h"
#include "../common/error.h"
#include "../common/platform.h"
#include "../common/wbgrid.h"
#include "../reader.h"

/* ---- compound file (cfb.c) ----------------------------------------------- */

/* A stream's bytes: inside the file when its sectors follow each other,
** else a malloc'ed copy (owned). */
typedef struct xls_bytes {
    const uint8_t *data;
    size_t len;
    uint8_t *owned;
} xls_bytes;

typedef struct xls_cfb {
    const uint8_t *file;
    size_t size;
    const char *name;         /* for messages */
    unsigned shift;           /* sector size = 1 << shift (512 or 4096) */
    bool v3;                  /* 512-byte sectors: stream sizes are 32-bit */
    uint32_t *fat;
    uint32_t nfat;            /* entries */
    uint32_t *minifat;
    uint32_t nminifat;
    xls_bytes dir;            /* the directory stream */
    uint32_t nentries;
    xls_bytes mini;           /* the mini stream (root entry's data) */
} xls_cfb;

int xls_cfb_open(xls_cfb *cfb, const uint8_t *file, size_t size,
                 const char *name, lt_error *err);
/* The entry of a stream that is a child of the root storage and whose name
** matches `name` case-insensitively (ASCII), or -1. */
int64_t xls_cfb_find(const xls_cfb *cfb, const char *name);
int xls_cfb_read(const xls_cfb *cfb, uint32_t entry, xls_bytes *out, lt_error *err);
void xls_cfb_close(xls_cfb *cfb);
void xls_bytes_free(xls_bytes *b);

/* ---- BIFF records and strings (biff.c) ------------------------------------ */

#define XLS_FORMULA    0x0006
#define XLS_EOF        0x000A
#define XLS_EXTERNSHEET 0x0017
#define XLS_NAME       0x0018
#define XLS_DATEMODE   0x0022
#define XLS_FILEPASS   0x002F
#define XLS_CONTINUE   0x003C
#define XLS_CODEPAGE   0x0042
#define XLS_WSBOOL     0x0081
#define XLS_BOUNDSHEET 0x0085
#define XLS_MULRK      0x00BD
#define XLS_MULBLANK   0x00BE
#define XLS_RSTRING    0x00D6
#define XLS_XF         0x00E0
#define XLS_SST        0x00FC
#define XLS_SUPBOOK    0x01AE
#define XLS_LABELSST   0x00FD
#define XLS_BLANK      0x0201
#define XLS_NUMBER     0x0203
#define XLS_LABEL      0x0204
#define XLS_BOOLERR    0x0205
#define XLS_STRING     0x0207
#define XLS_ARRAY      0x0221
#define XLS_TABLEOP    0x0236
#define XLS_RK         0x027E
#define XLS_FORMAT     0x041E
#define XLS_SHRFMLA    0x04BC
#define XLS_BOF        0x0809

/* One record: type, data offset and length within the stream. */
typedef struct xls_record {
    uint16_t type;
    size_t data;
    size_t len;
    size_t next;      /* offset of the following record */
} xls_record;

/* The record at `pos`: 1, 0 at the end of the stream, -1 when its header or
** data runs past the end (err says where). */
int xls_record_at(const uint8_t *s, size_t len, size_t pos, xls_record *rec,
                  const char *name, lt_error *err);

/* An RK number (BIFF's packed 30-bit integer or truncated double, /100);
** inline: a walk reads one per RK and MULRK cell. */
static inline double xls_rk(uint32_t rk)
{
    double v;
    if (rk & 2) {
        /* A signed 30-bit integer in the high bits. */
        int64_t i = (int64_t)(rk >> 2);
        if (rk & 0x80000000u)
            i -= (int64_t)1 << 30;
        v = (double)i;
    } else {
        /* The high 30 bits of an IEEE double; the rest are zero. */
        uint64_t bits = (uint64_t)(rk & 0xFFFFFFFCu) << 32;
        memcpy(&v, &bits, sizeof v);
    }
    return (rk & 1) ? v / 100.0 : v;
}

/*
** A reader over one record and the CONTINUE records after it: plain bytes
** run on across record boundaries, while a BIFF8 character array that
** crosses one restarts with a byte that re-states its 8/16-bit flag.
*/
typedef struct xls_seg {
    const uint8_t *s;
    size_t slen;
    size_t p;         /* next byte */
    size_t end;       /* end of the current record's data */
} xls_seg;

void xls_seg_init(xls_seg *g, const uint8_t *s, size_t slen, const xls_record *rec);
int xls_seg_bytes(xls_seg *g, uint8_t *dst, size_t n);
int xls_seg_skip(xls_seg *g, size_t n);
/* Decode `cch` characters (16-bit when `high`) into dst, which has room for
** 3 * cch bytes; returns the UTF-8 length, -1 when the data ends first. */
int64_t xls_seg_chars(xls_seg *g, uint32_t cch, bool high, char *dst);
/* The rest of a BIFF8 string whose length and flags byte were read: rich
** runs and phonetic data are skipped; dst has room for 3 * cch bytes. */
int64_t xls_seg_string_body(xls_seg *g, uint32_t cch, uint8_t flags, char *dst);
/* A BIFF8 string with a `cch_bytes`-byte (1 or 2) length and a flags byte,
** decoded into dst (`cap` bytes; 3 * 65535 is always enough).  -1 when the
** data ends first or dst is too small. */
int64_t xls_seg_string(xls_seg *g, int cch_bytes, char *dst, size_t cap);

/* UTF-16LE units to UTF-8 (dst room 3 * n); *pending carries a high
** surrogate that ends one piece into the next (0 when none). */
size_t xls_utf16_to_utf8(const uint8_t *src, size_t n, char *dst, uint16_t *pending);
/* Latin-1 (BIFF8's compressed strings) to UTF-8 (dst room 2 * n). */
size_t xls_latin1_to_utf8(const uint8_t *src, size_t n, char *dst);

/* ---- the workbook source -------------------------------------------------- */

typedef struct xls_sst_entry {
    size_t off;
    uint32_t len;
    uint32_t units;
} xls_sst_entry;

typedef struct xls_sheet {
    char *name;             /* UTF-8, without the '$' */
    uint32_t bof;           /* offset of the sheet's BOF in the stream */
    uint8_t visibility;     /* 0 visible, 1 hidden, 2 very hidden */
    uint8_t kind;           /* BOUNDSHEET dt: 0 worksheet, 1 macro, 2 chart, 6 VBA */
    size_t name_at;         /* raw name: offset, length, 16-bit flag */
    uint32_t name_cch;
    bool name_high;
    /* Filled by the type scan (sheet.c). */
    bool worksheet;         /* a table: a worksheet, not a chart or dialog */
    size_t start;           /* first record after the BOF */
    bool empty;
    size_t *order;          /* cells out of row order: their records' offsets
                               sorted by row; NULL when in order */
    size_t norder;
    uint32_t first_row, last_row, first_col, ncols;
    uint32_t data_row;      /* first data row (first_row + 1 with HDR=Yes) */
    /* A defined name or a range: one rectangle of a worksheet, whose
    ** records (start, order) this copy borrows; its header is the first row
    ** of the rectangle and its rows end at the last holding a value. */
    bool is_rect;
    uint32_t r0, r1, c0, c1;
    uint32_t of_sheet;      /* is_rect: the worksheet it is a copy of */
    bool probed;            /* xls_sheet_probe found kind and records */
} xls_sheet;

static inline bool xls_in_rect(const xls_sheet *sh, uint32_t row, uint32_t col)
{
    return row >= sh->r0 && row <= sh->r1 && col >= sh->c0 && col <= sh->c1;
}

/* A workbook-level defined name of one rectangle of a worksheet (NAME with
** a single ptgRef3d/ptgArea3d through this workbook's EXTERNSHEET). */
typedef struct xls_name {
    char *name;             /* UTF-8 */
    uint32_t sheet;         /* index into sheets (BOUNDSHEET order) */
    uint32_t r0, r1, c0, c1;
} xls_name;

typedef struct xls_source {
    lt_source base;
    char *label;            /* the path or memory name, for messages */
    lt_mapped_file file;
    bool mapped;
    xls_bytes wb;           /* the Workbook/Book stream */
    int biff;               /* 8 (Excel 97+) or 5 (Excel 5/95) */
    int codepage;           /* BIFF5 text */
    bool date1904;
    bool hdr;
    char *password;         /* PWD= option, NULL when absent */
    uint8_t *xf_fmt;        /* LT_WB_FMT_* per XF index */
    uint32_t nxf;
    char *sst_text;
    xls_sst_entry *sst;
    uint32_t nsst;
    xls_sheet *sheets;      /* BOUNDSHEET order, then one per name table */
    uint32_t nsheets;
    uint32_t nbound;        /* sheets from BOUNDSHEET records */
    xls_name *names;        /* the names that may be tables (globals.c) */
    uint32_t nnames;
    uint32_t *table_sheet;  /* sheet of each listed table */
    lt_wb_extra extra;      /* ranges made on demand (wbgrid.h) */
    lt_wb_lazy lazy;        /* sheets typed on first use (opened from a file) */
    xls_sheet *extra_sheets;/* LT_WB_EXTRA_TABLES: the sheet of each made table */
    uint32_t type_rows;     /* TypeGuessRows=: data rows the type scan reads (0 all) */
} xls_source;

/* sst.c: the SST record at `rec` (and its CONTINUEs) into src->sst. */
int xls_sst_parse(xls_source *src, const xls_record *rec, lt_error *err);

/* globals.c: the workbook globals substream: code page, date system,
** formats and XFs, sheets, the SST; decrypts the stream when it can. */
int xls_globals_parse(xls_source *src, lt_error *err);

/* crypt.c: decrypt the stream in place after a FILEPASS record at `rec`
** with the password (NULL: Excel's default "VelvetSweatshop").  Fails with
** a message naming the encryption when it cannot. */
int xls_decrypt(xls_source *src, const xls_record *filepass, const char *password,
                lt_error *err);

/* crypt.c: a UTF-8 password as UTF-16LE (what every Office key derivation
** hashes); the byte count, 0 when it does not fit in `cap`. */
size_t xls_utf16_password(const char *pw, uint8_t *out, size_t cap);

/* ---- cells (cells.c) ------------------------------------------------------ */

typedef struct xls_cell {
    uint32_t row, col;
    lt_wb_cell v;
} xls_cell;

typedef struct xls_cells {
    const xls_source *src;
    const xls_sheet *sheet;
    size_t pos;             /* next record */
    size_t next_order;      /* next entry of sheet->order, when it has one */
    int depth;              /* embedded BOF/EOF substreams (charts) */
    /* a MULRK being handed out */
    size_t mul_data;
    uint32_t mul_i, mul_n, mul_row, mul_col;
    lt_arena *arena;        /* where inline strings are decoded */
    bool dialog;            /* a WSBOOL said "dialog sheet" */
} xls_cells;

/* Start walking the sheet's cells from its first record; inline text is
** decoded into `arena` and lives as long as the arena's contents. */
void xls_cells_start(xls_cells *it, const xls_source *src, const xls_sheet *sheet,
                     lt_arena *arena);
/* 1: *out holds the next cell; 0: the sheet's end; -1: malformed (err).
** A sheet with an order index is walked in row order through it. */
int xls_cells_next(xls_cells *it, xls_cell *out, lt_error *err);
/* The same, all cases the long way (xls_cells_next takes the common ones
** itself and hands the others here). */
int xls_cells_next_slow(xls_cells *it, xls_cell *out, lt_error *err);
/* A record holding a cell (blank cells aside: BLANK and MULBLANK are not);
** inline: every record of every walk asks. */
static inline bool xls_is_cell(uint16_t type)
{
    switch (type) {
    case XLS_LABELSST: case XLS_NUMBER: case XLS_RK: case XLS_MULRK:
    case XLS_BOOLERR: case XLS_LABEL: case XLS_RSTRING: case XLS_FORMULA:
        return true;
    default:
        return false;
    }
}
/* Build sheet->order: the offsets of the sheet's cell records, sorted by
** row (stable), for a sheet whose cells are out of order. */
int xls_cells_index(const xls_source *src, xls_sheet *sheet, lt_error *err);

/* ---- sheets (sheet.c) --------------------------------------------------- */

/* Find the sheet's records, its used range and column types; fill `table`.
** A chart or dialog sheet sets sheet->worksheet false and fills nothing. */
int xls_sheet_scan(xls_source *src, xls_sheet *sheet, lt_table *table, lt_error *err);
/* What the open of a file needs without walking the cells: the sheet's
** records and whether it is a worksheet (not a chart, macro or dialog
** sheet: a dialog sheet says so in a WSBOOL before its cells). */
int xls_sheet_probe(xls_source *src, xls_sheet *sheet, lt_error *err);

#endif /* LT_XLS_INTERNAL_H */
