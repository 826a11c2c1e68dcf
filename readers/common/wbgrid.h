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

/* Size one number cell of the second walk, when its column wants it. */
void lt_wb_grid_size(lt_wb_grid *g, uint32_t col, const lt_wb_cell *cell);

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

#endif /* LT_WBGRID_H */
