/*
** wbgrid.h — the sheet-level code the workbook readers (.xls, .xlsb) share
** around their own cell walkers: the type scan's column grid (used range,
** header row, per-column stats), the lt_table built from it, and the map
** from table columns to batch columns that a scan stores cells through.
**
** A reader walks its cells and passes each to lt_wb_grid_add(); it then
** sets its sheet's range from the grid and calls lt_wb_grid_table().  At
** scan time it opens an lt_wb_columns and stores each cell with
** lt_wb_columns_store().
*/
#ifndef LT_WBGRID_H
#define LT_WBGRID_H

#include <stdbool.h>
#include <stdint.h>

#include "thread.h"
#include "workbook.h"

/* Row number meaning "none chosen yet" (the header row is the first cell's). */
#define LT_WB_NO_ROW UINT32_MAX

typedef struct lt_wb_grid {
    lt_wb_stats *stats;      /* per absolute column */
    char **headers;          /* per absolute column (HDR=Yes) */
    uint32_t *header_len;
    uint32_t cap;            /* columns allocated */
    bool any;                /* a cell was added */
    uint32_t first_seen;     /* row of the first cell added */
    uint32_t min_row, max_row, min_col, max_col;
    /* TypeGuessRows: 0 types every row; N types the first N data rows, and
    ** the cells of later rows (from late_from, set by the first cell added)
    ** only widen text sizes (lt_wb_stats_late). */
    uint32_t type_rows;
    uint32_t late_from;
} lt_wb_grid;

void lt_wb_grid_free(lt_wb_grid *g);

/* Room for absolute column `col` (new columns zeroed).  -1 out of memory. */
int lt_wb_grid_grow(lt_wb_grid *g, uint32_t col);

/*
** Count one cell: the used range, and either the header text (hdr and
** row == *header_row) or the column's stats.  *header_row == LT_WB_NO_ROW
** is set to the first cell's row.  Returns -1 (err set) out of memory.
*/
int lt_wb_grid_add(lt_wb_grid *g, uint32_t row, uint32_t col, const lt_wb_cell *cell,
                   uint32_t *header_row, bool hdr, bool date1904, lt_error *err);

/* True when a column of the used range is TEXT with numbers to size. */
bool lt_wb_grid_needs_size(const lt_wb_grid *g);

/* Size one number cell of the second walk, when its column wants it (a
** cell of a row at or past g->late_from is not to be passed: a walk in row
** order stops there). */
void lt_wb_grid_size(lt_wb_grid *g, uint32_t col, const lt_wb_cell *cell);

/* TypeGuessRows= of the options into *rows: 0 (absent or 0) types from
** all rows; a value that is not a whole number is 08001. */
int lt_wb_type_rows(const lt_options *opts, uint32_t *rows, lt_error *err);

/* The workbook's encryption password: PWD= or Password=, NULL when absent
** or empty. */
const char *lt_wb_password(const lt_options *opts);

/* A sheet's place in the grid, as the reader decided it. */
typedef struct lt_wb_range {
    const char *name;        /* the sheet or defined name */
    const char *suffix;      /* appended to the table name ("$" for sheets) */
    bool empty;              /* no cells: one column F1, no rows */
    bool hdr;                /* first row holds the column names */
    uint32_t first_col, ncols;
    uint32_t data_row, last_row;
} lt_wb_range;

/* The table name of a sheet or defined name: name + suffix, malloc'ed
** (NULL out of memory). */
char *lt_wb_table_name(const char *name, const char *suffix);

/* Fill `tab` (name, kind, columns, row estimate) for range `r`. */
int lt_wb_grid_table(const lt_wb_grid *g, const lt_wb_range *r, lt_table *tab, lt_error *err);

/* ---- ranges: tables made on demand (reader.h find_extra) ------------------ */

/* Ranges one open workbook can serve ("Sheet1$A1:D100" ...): their tables
** sit after the listed ones in an array allocated once at open, so a
** table handed out never moves while other statements read it. */
#define LT_WB_EXTRA_TABLES 256

/* A rectangle of a sheet: rows r0..r1, columns c0..c1 (0-based, inclusive). */
typedef struct lt_wb_rect {
    uint32_t r0, r1, c0, c1;
} lt_wb_rect;

/* A sheet's used rows and columns (0-based, inclusive rows). */
typedef struct lt_wb_extent {
    uint32_t first_row, last_row, first_col, ncols;
} lt_wb_extent;

/* Where a sheet's table lies once its cells are walked into `g`: the cells
** seen, or with `rect` (a range or defined name) that rectangle with its
** rows cut after the last one holding a value (whole columns are not a
** million rows of NULLs).  -1 (HY001) when the grid cannot grow to the
** rectangle's last column. */
int lt_wb_grid_extent(lt_wb_grid *g, const lt_wb_rect *rect, lt_wb_extent *out,
                      lt_error *err);

/*
** The range part of a table name, "A1:D100", "B2:D" (rows from 2 to the
** sheet's last) or "A:D" (whole columns); letters in any case.  Rows and
** columns past max_row/max_col (0-based) or a first cell after the last
** fail.  Returns 0, or -1 with err naming `table` and the range: 42000
** for text that is no range, HY000 for a range outside the sheet or
** ending before it starts.
*/
int lt_wb_parse_range(const char *range, size_t len, uint32_t max_row, uint32_t max_col,
                      const char *table, size_t table_len, lt_wb_rect *out, lt_error *err);

/* The tables a workbook made on demand, after its listed ones. */
typedef struct lt_wb_extra {
    lt_mutex lock;                           /* guards n and the slots */
    uint32_t n;                              /* tables[ntables .. ntables + n) */
    uint32_t sheet[LT_WB_EXTRA_TABLES];      /* what each was made from */
    lt_wb_rect rect[LT_WB_EXTRA_TABLES];
} lt_wb_extra;

void lt_wb_extra_init(lt_wb_extra *x);
void lt_wb_extra_destroy(lt_wb_extra *x);

/* Listed tables whose columns wait for their first use (lt_wb_describe). */
typedef struct lt_wb_lazy {
    lt_mutex lock;           /* guards done and the tables' columns */
    uint8_t *done;           /* per listed table: described; NULL: all are */
} lt_wb_lazy;

/* Grow base->tables to ntables + LT_WB_EXTRA_TABLES entries, the new ones
** zeroed (once, at the end of open).  -1 (err) out of memory. */
int lt_wb_extra_reserve(lt_source *base, lt_error *err);

/* Clear and free every table, listed and made (close). */
void lt_wb_tables_free(lt_source *base, const lt_wb_extra *x);

/* What a reader gives lt_wb_find_extra. */
typedef struct lt_wb_extra_ops {
    uint32_t max_row, max_col;               /* the format's last row and column, 0-based */
    /* The worksheet (the reader's own index) named name[0..len), or -1. */
    int64_t (*find_sheet)(lt_source *src, const char *name, size_t len);
    /* Fill base->tables[slot], named `name`, from `rect` of the sheet (the
    ** rectangle's first row is the header with HDR=Yes; rows after the last
    ** holding a value are left out).  Called under the lock. */
    int (*make)(lt_source *src, uint32_t slot, uint32_t sheet, const lt_wb_rect *rect,
                const char *name, lt_error *err);
} lt_wb_extra_ops;

/*
** find_extra for a workbook: "<sheet>$<range>" (the sheet name may be
** quoted 'like this') -> a table of that rectangle, made once per
** workbook and rectangle.  0 when the part before the last '$' names no
** worksheet.
*/
int lt_wb_find_extra(lt_source *src, lt_wb_extra *x, const lt_wb_extra_ops *ops,
                     const char *name, size_t len, uint32_t *table, lt_error *err);

/* ---- listed tables typed on first use (reader.h describe) ------------------- */

/* What a reader gives lt_wb_describe: the type scan of listed table
** `table` into `out` (name and columns, as lt_wb_grid_table fills them);
** -1 (err) when the sheet cannot be read.  Called under the lock. */
typedef int lt_wb_scan_fn(lt_source *src, uint32_t table, lt_table *out, lt_error *err);

/* Lazy typing for the `ntables` listed tables (called at open, once): each
** then waits for lt_wb_describe.  -1 (err) out of memory. */
int lt_wb_lazy_init(lt_wb_lazy *z, uint32_t ntables, lt_error *err);
void lt_wb_lazy_destroy(lt_wb_lazy *z);

/*
** describe for a workbook: type listed table `table` once (`scan`), under
** the lock; its columns and row estimate are set, or its error when the
** sheet proves unreadable (then -1 with err, every time).  Tables made on
** demand and sources opened without lt_wb_lazy_init are complete: 0.
*/
int lt_wb_describe(lt_source *src, lt_wb_lazy *z, uint32_t table, lt_wb_scan_fn *scan, lt_error *err);

/* ---- scans ------------------------------------------------------------------ */

typedef struct lt_wb_columns {
    int32_t *first_of;       /* table column -> first batch column, or -1 */
    int32_t *next_of;        /* batch column -> next batch column of the same table column */
    uint32_t ncols;          /* table columns */
} lt_wb_columns;

/*
** Check spec against the source's tables (label names the file in
** messages), mark every predicate unused (a workbook filters nothing
** itself) and build the column map.  On error nothing is left allocated.
*/
int lt_wb_columns_open(lt_wb_columns *m, const lt_source *base, const char *label,
                       const lt_scan_spec *spec, lt_error *err);

void lt_wb_columns_free(lt_wb_columns *m);

/* Store `cell` of table column `col` into every batch column reading it. */
int lt_wb_columns_store(const lt_wb_columns *m, lt_batch *batch, uint32_t col, uint32_t row,
                        const lt_wb_cell *cell, bool date1904, lt_error *err);

/* The rows of a batch starting at sheet row `next_row` of a sheet whose
** last row is `last_row`, with every value set NULL first. */
uint32_t lt_wb_batch_rows(lt_batch *batch, uint32_t next_row, uint32_t last_row);

/* count_rows of a workbook reader: the row estimate of the open. */
int64_t lt_wb_count_rows(lt_source *base, uint32_t table, lt_error *err);

/* ---- a sheet's cells kept from the type scan (wbcells.c) ------------------ */

/*
** The type scan walks every cell of a sheet; the scan that follows would
** walk them again (for .xlsb: inflate the part again).  The type scan can
** keep the cells it sees, compactly (a tag byte, row and column as small
** deltas, integers in 4 bytes, texts as UTF-8), for the scans to read back
** instead.  What one workbook keeps is bounded: LT_WB_CELLS_BUDGET bytes
** over all its sheets; a sheet past what is left is not kept (its scans
** walk the sheet again).  Kept cells are immutable once the type scan has
** finished, so scans on several threads read them without a lock.
*/
#define LT_WB_CELLS_BUDGET ((size_t)64 << 20)

/* The budget of the options into *bytes: CellCacheMB=N MiB (0 keeps no
** cells), else LT_WB_CELLS_BUDGET; a value that is not a whole number is
** 08001. */
int lt_wb_cells_budget(const lt_options *opts, size_t *bytes, lt_error *err);

typedef struct lt_wb_chunk lt_wb_chunk;

typedef struct lt_wb_cells {
    lt_wb_chunk *head, *tail;
    size_t bytes;            /* allocated */
    size_t budget;           /* most bytes it may allocate */
    uint32_t row, col;       /* of the last cell added */
    bool over;               /* went past the budget (or out of memory): empty */
    /* Texts within [stable, stable_end) outlive the kept cells (a shared
    ** string table): kept by reference, not copied.  Set by the reader. */
    const char *stable, *stable_end;
} lt_wb_cells;

/* Start keeping cells, within `budget` bytes. */
void lt_wb_cells_init(lt_wb_cells *c, size_t budget);
void lt_wb_cells_free(lt_wb_cells *c);

/* Keep one cell (any row order; the text is copied unless stable).  Past the budget or
** out of memory everything kept is dropped and c->over is set; later adds
** do nothing.  Returns !c->over. */
bool lt_wb_cells_add(lt_wb_cells *c, uint32_t row, uint32_t col, const lt_wb_cell *cell);

/* A reading position: copy it to peek and go back. */
typedef struct lt_wb_cells_pos {
    const lt_wb_chunk *chunk;
    size_t off;
    uint32_t row, col;
} lt_wb_cells_pos;

void lt_wb_cells_begin(const lt_wb_cells *c, lt_wb_cells_pos *p);

/* The next kept cell, in the order added (text points into the kept
** cells: valid until lt_wb_cells_free); false at the end. */
bool lt_wb_cells_next(lt_wb_cells_pos *p, uint32_t *row, uint32_t *col, lt_wb_cell *cell);

#endif /* LT_WBGRID_H */
