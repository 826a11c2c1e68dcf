/*
** reader.c — the .xls reader's lt_reader: probing, opening a file or a
** buffer (compound file -> Workbook/Book stream -> globals -> the type scan
** of every sheet), and scans that decode only the wanted columns.
**
** A file's worksheets are typed on first use (reader.h describe, under
** the source's lazy lock): the open only finds each sheet's records and
** kind, so SQLTables, SELECT 1 or a query of one sheet do not walk every
** sheet's cells.  A buffer's (the tests', the fuzzers') are typed at open.
** Otherwise the source is read-only: the stream, the shared strings and a
** described sheet's layout, so scans on several threads need no lock.  A scan walks the sheet's records from where the previous batch
** stopped (a sheet whose cells are out of row order through the row index
** its type scan built).
*/
#include "xls.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/endian.h"
#include "xls_internal.h"

static const uint8_t cfb_signature[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};

struct lt_scan {
    xls_source *src;
    const xls_sheet *sheet;
    lt_wb_columns cols;      /* table column -> batch columns */
    xls_cells it;
    uint32_t next_row;       /* sheet row of the batch's first row */
    bool done;
};

/* ---- probing ---------------------------------------------------------------- */

static bool has_xls_extension(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 4 && (strcasecmp(path + n - 4, ".xls") == 0 || strcasecmp(path + n - 4, ".xlt") == 0 ||
                     strcasecmp(path + n - 4, ".xla") == 0);
}

static int xls_probe(const uint8_t *head, size_t len, const char *path)
{
    bool ext = has_xls_extension(path);
    if (len >= 8 && memcmp(head, cfb_signature, 8) == 0)
        return ext ? 100 : 60;
    /* A bare BIFF stream: BOF 0x0809 (BIFF5/8) or an older BOF. */
    if (ext && len >= 4 && head[0] == 0x09 && (head[1] == 0x08 || head[1] == 0x00 ||
                                                head[1] == 0x02 || head[1] == 0x04))
        return 80;
    return 0;
}

/* ---- open / close ----------------------------------------------------------- */

static void xls_close(lt_source *base)
{
    xls_source *src = (xls_source *)base;
    if (src == NULL)
        return;
    lt_wb_tables_free(base, &src->extra);
    lt_wb_extra_destroy(&src->extra);
    lt_wb_lazy_destroy(&src->lazy);
    free(base->path);
    for (uint32_t i = 0; i < src->nsheets; i++) {
        free(src->sheets[i].name);
        if (!src->sheets[i].is_rect)
            free(src->sheets[i].order);     /* a name's copy borrows it */
    }
    free(src->sheets);
    for (uint32_t i = 0; i < src->nnames; i++)
        free(src->names[i].name);
    free(src->names);
    free(src->extra_sheets);
    free(src->table_sheet);
    free(src->xf_fmt);
    free(src->sst);
    free(src->sst_text);
    free(src->password);
    free(src->label);
    xls_bytes_free(&src->wb);
    if (src->mapped)
        lt_unmap_file(&src->file);
    free(src);
}

/* The workbook stream: "Workbook" (BIFF8) or "Book" (BIFF5), in any case. */
static int find_workbook(xls_source *src, const uint8_t *data, size_t size, lt_error *err)
{
    if (size >= 8 && memcmp(data, cfb_signature, 8) == 0) {
        xls_cfb cfb;
        if (xls_cfb_open(&cfb, data, size, src->label, err) != 0)
            return -1;
        int64_t e = xls_cfb_find(&cfb, "Workbook");
        if (e < 0)
            e = xls_cfb_find(&cfb, "Book");
        int rc;
        if (e >= 0)
            rc = xls_cfb_read(&cfb, (uint32_t)e, &src->wb, err);
        else if (xls_cfb_find(&cfb, "EncryptedPackage") >= 0)
            rc = lt_error_set(err, "HY000", "'%s' is an encrypted Office Open XML workbook (.xlsx/.xlsb in a compound file): Lector cannot decrypt it",
                              src->label);
        else
            rc = lt_error_set(err, "HY000", "'%s' is a compound file without a Workbook or Book stream: not an Excel workbook",
                              src->label);
        xls_cfb_close(&cfb);
        return rc;
    }
    if (size >= 4 && data[0] == 0x09 && (data[1] == 0x08 || data[1] == 0x00 || data[1] == 0x02 || data[1] == 0x04)) {
        src->wb.data = data;
        src->wb.len = size;
        return 0;
    }
    return lt_error_set(err, "HY000", "'%s' is not an Excel .xls workbook (no compound file or BIFF signature)",
                        src->label);
}

static int add_table(xls_source *src, uint32_t sheet, lt_table *tab, const char *error)
{
    lt_source *base = &src->base;
    lt_table *t = realloc(base->tables, (base->ntables + 1) * sizeof *t);
    if (t != NULL)
        base->tables = t;
    uint32_t *ts = realloc(src->table_sheet, (base->ntables + 1) * sizeof *ts);
    if (ts != NULL)
        src->table_sheet = ts;
    if (t == NULL || ts == NULL)
        return -1;
    char *msg = NULL;
    if (error != NULL && (msg = strdup(error)) == NULL)
        return -1;
    tab->error = msg;
    src->table_sheet[base->ntables] = sheet;
    base->tables[base->ntables++] = *tab;
    return 0;
}

/* The type scan of sheet `i` into a new listed table; a sheet that cannot
** be read is listed with its error, so the rest of the workbook stays
** usable.  Only running out of memory fails. */
static int load_table(xls_source *src, uint32_t i, lt_error *err)
{
    xls_sheet *sh = &src->sheets[i];
    lt_table tab;
    memset(&tab, 0, sizeof tab);
    lt_error e;
    lt_error_clear(&e);
    int rc = xls_sheet_scan(src, sh, &tab, &e);
    if (rc == 0 && !sh->worksheet)
        return 0;
    if (rc != 0) {
        lt_table_clear(&tab);
        if (strcmp(e.sqlstate, "HY001") == 0) {
            *err = e;
            return -1;
        }
        memset(&tab, 0, sizeof tab);
        if ((tab.name = lt_wb_table_name(sh->name, sh->is_rect ? "" : "$")) == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        tab.kind = "TABLE";
        tab.row_estimate = -1;
        sh->worksheet = false;
    }
    if (add_table(src, i, &tab, rc != 0 ? e.message : NULL) != 0) {
        lt_table_clear(&tab);
        return lt_error_set(err, "HY001", "out of memory");
    }
    return 0;
}

/* Sheet `i` listed by name only, its columns left to xls_describe; a
** sheet whose records cannot be found is listed with its error. */
static int list_table(xls_source *src, uint32_t i, lt_error *err)
{
    xls_sheet *sh = &src->sheets[i];
    lt_error e;
    lt_error_clear(&e);
    int rc = sh->is_rect ? 0 : xls_sheet_probe(src, sh, &e);
    if (rc == 0 && !sh->worksheet)
        return 0;
    if (rc != 0 && strcmp(e.sqlstate, "HY001") == 0) {
        *err = e;
        return -1;
    }
    if (rc != 0)
        sh->worksheet = false;
    lt_table tab;
    memset(&tab, 0, sizeof tab);
    tab.kind = "TABLE";
    tab.row_estimate = -1;
    if ((tab.name = lt_wb_table_name(sh->name, sh->is_rect ? "" : "$")) == NULL ||
        add_table(src, i, &tab, rc != 0 ? e.message : NULL) != 0) {
        lt_table_clear(&tab);
        return lt_error_set(err, "HY001", "out of memory");
    }
    return 0;
}

/* The listed table of worksheet `sheet` (BOUNDSHEET index), or -1. */
static int64_t table_of_sheet(const xls_source *src, uint32_t sheet)
{
    for (uint32_t t = 0; t < src->base.ntables; t++)
        if (src->table_sheet[t] == sheet)
            return t;
    return -1;
}

/* The type scan of listed table `table` (lt_wb_describe, under the lazy
** lock).  A defined name's copy takes its worksheet's records and row
** index now: the worksheet was described just before (xls_describe). */
static int scan_listed(lt_source *base, uint32_t table, lt_table *out, lt_error *err)
{
    xls_source *src = (xls_source *)base;
    xls_sheet *sh = &src->sheets[src->table_sheet[table]];
    if (base->tables[table].error != NULL)
        return lt_error_set(err, "HY000", "%s", base->tables[table].error);
    if (sh->is_rect) {
        int64_t t = table_of_sheet(src, sh->of_sheet);
        const xls_sheet *of = &src->sheets[sh->of_sheet];
        if (t >= 0 && base->tables[t].error != NULL)
            return lt_error_set(err, "HY000", "%s", base->tables[t].error);
        if (t < 0 || !of->worksheet)
            return lt_error_set(err, "HY000", "'%s': '%s' is not a range of a worksheet", src->label, sh->name);
        sh->start = of->start;
        sh->order = of->order;
        sh->norder = of->norder;
        sh->worksheet = true;
    }
    if (xls_sheet_scan(src, sh, out, err) != 0)
        return -1;
    if (!sh->worksheet)
        return lt_error_set(err, "HY000", "'%s': sheet '%s' is a dialog sheet, not a table", src->label, sh->name);
    return 0;
}

static int xls_describe(lt_source *base, uint32_t table, lt_error *err)
{
    xls_source *src = (xls_source *)base;
    if (src->lazy.done != NULL && table < base->ntables && src->sheets[src->table_sheet[table]].is_rect) {
        /* A defined name borrows its worksheet's layout: that one first. */
        int64_t t = table_of_sheet(src, src->sheets[src->table_sheet[table]].of_sheet);
        if (t >= 0 && lt_wb_describe(base, &src->lazy, (uint32_t)t, scan_listed, err) != 0 &&
            base->tables[t].error == NULL)
            return -1;
    }
    return lt_wb_describe(base, &src->lazy, table, scan_listed, err);
}

/* A defined name becomes a copy of its worksheet limited to the
** rectangle, appended to the sheets; a name that a listed table already
** has (a sheet's "Name$", an earlier name) or whose sheet is unreadable is
** left out. */
static int add_name_sheet(xls_source *src, const xls_name *nm, bool lazy, lt_error *err)
{
    int64_t t = table_of_sheet(src, nm->sheet);
    if (t < 0 || src->base.tables[t].error != NULL || !src->sheets[nm->sheet].worksheet)
        return 0;
    for (uint32_t k = 0; k < src->base.ntables; k++)
        if (strcasecmp(src->base.tables[k].name, nm->name) == 0)
            return 0;
    xls_sheet *sheets = realloc(src->sheets, (src->nsheets + 1) * sizeof *sheets);
    char *name = strdup(nm->name);
    if (sheets != NULL)
        src->sheets = sheets;
    if (sheets == NULL || name == NULL) {
        free(name);
        return lt_error_set(err, "HY001", "out of memory");
    }
    xls_sheet *sh = &src->sheets[src->nsheets];
    *sh = src->sheets[nm->sheet];
    sh->name = name;
    sh->is_rect = true;
    sh->of_sheet = nm->sheet;
    sh->r0 = nm->r0;
    sh->r1 = nm->r1;
    sh->c0 = nm->c0;
    sh->c1 = nm->c1;
    src->nsheets++;
    return lazy ? list_table(src, src->nsheets - 1, err) : load_table(src, src->nsheets - 1, err);
}

/* One table per worksheet, then one per workbook-level defined name of a
** rectangle; then room for the ranges made on demand.  `lazy`: listed by
** name, typed by xls_describe. */
static int load_tables(xls_source *src, bool lazy, lt_error *err)
{
    for (uint32_t i = 0; i < src->nbound; i++)
        if ((lazy ? list_table(src, i, err) : load_table(src, i, err)) != 0)
            return -1;
    for (uint32_t i = 0; i < src->nnames; i++)
        if (add_name_sheet(src, &src->names[i], lazy, err) != 0)
            return -1;
    if (lazy && lt_wb_lazy_init(&src->lazy, src->base.ntables, err) != 0)
        return -1;
    src->extra_sheets = calloc(LT_WB_EXTRA_TABLES, sizeof *src->extra_sheets);
    if (src->extra_sheets == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    return lt_wb_extra_reserve(&src->base, err);
}

static int open_bytes(xls_source *src, const uint8_t *data, size_t size,
                      const lt_options *opts, bool lazy, lt_error *err)
{
    src->base.reader = &lt_xls_reader;
    src->hdr = lt_options_bool(opts, "HDR", true);
    if (lt_wb_type_rows(opts, &src->type_rows, err) != 0)
        return -1;
    const char *pwd = lt_wb_password(opts);
    if (pwd != NULL && (src->password = strdup(pwd)) == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (find_workbook(src, data, size, err) != 0 || xls_globals_parse(src, err) != 0)
        return -1;
    return load_tables(src, lazy, err);
}

static xls_source *source_new(const char *path, const char *label)
{
    xls_source *src = calloc(1, sizeof *src);
    if (src == NULL)
        return NULL;
    lt_wb_extra_init(&src->extra);
    src->base.path = strdup(path);
    src->label = strdup(label);
    if (src->base.path == NULL || src->label == NULL) {
        xls_close(&src->base);
        return NULL;
    }
    return src;
}

static int xls_open(const char *path, const lt_options *opts, lt_source **out, lt_error *err)
{
    *out = NULL;
    xls_source *src = source_new(path, path);
    if (src == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (lt_map_file(path, &src->file, err) != 0) {
        xls_close(&src->base);
        return -1;
    }
    src->mapped = true;
    if (open_bytes(src, src->file.data, src->file.size, opts, true, err) != 0) {
        xls_close(&src->base);
        return -1;
    }
    *out = &src->base;
    return 0;
}

int lt_xls_open_memory(const uint8_t *data, size_t size, const char *name,
                       const lt_options *opts, lt_source **out, lt_error *err)
{
    *out = NULL;
    if (name == NULL)
        name = "memory";
    xls_source *src = source_new(name, name);
    if (src == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (open_bytes(src, data, size, opts, false, err) != 0) {
        xls_close(&src->base);
        return -1;
    }
    *out = &src->base;
    return 0;
}

/* ---- scans -------------------------------------------------------------------- */

static void xls_scan_close(lt_scan *scan)
{
    if (scan == NULL)
        return;
    lt_wb_columns_free(&scan->cols);
    free(scan);
}

static int xls_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out, lt_error *err)
{
    xls_source *src = (xls_source *)base;
    *out = NULL;
    lt_wb_columns cols;
    if (lt_wb_columns_open(&cols, base, src->label, spec, err) != 0)
        return -1;
    lt_scan *scan = calloc(1, sizeof *scan);
    if (scan == NULL) {
        lt_wb_columns_free(&cols);
        return lt_error_set(err, "HY001", "out of memory");
    }
    scan->src = src;
    scan->sheet = spec->table < base->ntables ? &src->sheets[src->table_sheet[spec->table]]
                                              : &src->extra_sheets[spec->table - base->ntables];
    scan->cols = cols;
    const xls_sheet *sh = scan->sheet;
    scan->next_row = sh->data_row;
    scan->done = sh->empty || sh->data_row > sh->last_row;
    xls_cells_start(&scan->it, src, sh, NULL);
    *out = scan;
    return 0;
}

static int xls_scan_next(lt_scan *scan, lt_batch *batch, lt_error *err)
{
    lt_batch_reset(batch);
    if (scan->done || batch->capacity == 0)
        return 0;
    xls_source *src = scan->src;
    const xls_sheet *sh = scan->sheet;
    if (src->mapped && lt_file_check(&src->file, err) != 0)
        return -1;
    uint32_t n = lt_wb_batch_rows(batch, scan->next_row, sh->last_row);
    scan->it.arena = &batch->arena;
    uint32_t lo = scan->next_row, hi = scan->next_row + n;
    for (;;) {
        xls_cells saved = scan->it;
        xls_cell c;
        int r = xls_cells_next(&scan->it, &c, err);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        if (c.row < lo)
            continue;
        if (c.row >= hi) {
            scan->it = saved;   /* the next batch starts with this cell */
            break;
        }
        uint32_t col = c.col - sh->first_col;
        if (c.col < sh->first_col || col >= scan->cols.ncols)
            continue;
        if (lt_wb_columns_store(&scan->cols, batch, col, c.row - lo, &c.v, src->date1904, err) != 0)
            return -1;
    }
    batch->count = n;
    scan->next_row = hi;
    scan->done = hi > sh->last_row;
    return 0;
}

/* ---- ranges made on demand ---------------------------------------------------- */

static int64_t find_worksheet(lt_source *base, const char *name, size_t len)
{
    const xls_source *src = (const xls_source *)base;
    for (uint32_t i = 0; i < src->nbound; i++) {
        const xls_sheet *sh = &src->sheets[i];
        if (sh->worksheet && strncasecmp(sh->name, name, len) == 0 && sh->name[len] == '\0')
            return i;
    }
    return -1;
}

static int make_range(lt_source *base, uint32_t slot, uint32_t sheet, const lt_wb_rect *r,
                      const char *name, lt_error *err)
{
    xls_source *src = (xls_source *)base;
    int64_t t = table_of_sheet(src, sheet);
    /* The worksheet's records, row index and readability, typed on first use. */
    if (t >= 0 && xls_describe(base, (uint32_t)t, err) != 0 && base->tables[t].error == NULL)
        return -1;
    if (t >= 0 && base->tables[t].error != NULL)
        return lt_error_set(err, "HY000", "%s", base->tables[t].error);
    xls_sheet *sh = &src->extra_sheets[slot - base->ntables];
    *sh = src->sheets[sheet];
    sh->name = (char *)name;
    sh->is_rect = true;
    sh->r0 = r->r0;
    sh->r1 = r->r1;
    sh->c0 = r->c0;
    sh->c1 = r->c1;
    lt_table *tab = &base->tables[slot];
    if (xls_sheet_scan(src, sh, tab, err) != 0)
        return -1;
    tab->kind = "TABLE";
    sh->name = tab->name;   /* for messages: lives as long as the table */
    return 0;
}

static const lt_wb_extra_ops xls_extra_ops = {
    .max_row = 65535,
    .max_col = 16383,
    .find_sheet = find_worksheet,
    .make = make_range,
};

static int xls_find_extra(lt_source *base, const char *name, size_t len, uint32_t *table, lt_error *err)
{
    xls_source *src = (xls_source *)base;
    return lt_wb_find_extra(base, &src->extra, &xls_extra_ops, name, len, table, err);
}

const lt_reader lt_xls_reader = {
    .name = "xls",
    .probe = xls_probe,
    .open = xls_open,
    .close = xls_close,
    .scan_open = xls_scan_open,
    .scan_next = xls_scan_next,
    .scan_close = xls_scan_close,
    .count_rows = lt_wb_count_rows,
    .find_extra = xls_find_extra,
    .describe = xls_describe,
};
