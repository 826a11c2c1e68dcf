/*
** workbook.h — what the workbook readers (.xls, .xlsb) share: number-format
** classes, Excel date serials, the typing of a column from all its cells,
** column names from a header row, and values as text in mixed columns.
**
** A reader walks a sheet's cells and describes each as an lt_wb_cell (a
** number with its format class, a boolean, an error or a UTF-8 text).  A
** first walk feeds every cell of a column to lt_wb_stats_add(); the stats
** then give the column's type and size (lt_wb_describe_column).  A scan
** stores each cell with lt_wb_store(), which converts it to the column's
** type.  The rules (issue 7):
**   all numbers          -> DOUBLE, or INT64 when every value is integral
**                           and within +-2^53;
**   all dates            -> DATE, TIMESTAMP when a format shows a time or a
**                           value has a time part, TIME when every value is
**                           a time of day (format shows no day, serial < 1);
**   all booleans         -> BOOL;
**   anything else        -> TEXT; numbers, dates and booleans are rendered:
**                           numbers in their shortest round-trip form
**                           ("42", "0.1", "1.5e-10"), dates "YYYY-MM-DD" or
**                           "YYYY-MM-DD HH:MM:SS[.fff]", booleans TRUE/FALSE.
** Error cells (#N/A ...) are NULL.  Serials Excel cannot show as a date
** (negative, the phantom 1900-02-29, past 9999-12-31) are NULL as well.
*/
#ifndef LT_WORKBOOK_H
#define LT_WORKBOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../reader.h"

/* ---- number formats ------------------------------------------------------ */

/* Flags of a number format. */
#define LT_WB_FMT_DATE  1u   /* shows a number as a date and/or a time       */
#define LT_WB_FMT_TIME  2u   /* shows a time of day (h, s, AM/PM)            */
#define LT_WB_FMT_NODAY 4u   /* shows no day (no y, d, or m as a month)      */

/* The flags of Excel's built-in format `id` (0..163) when no FORMAT record
** redefines it: 14-22, 45-47 and the East Asian date ids are dates. */
unsigned lt_wb_format_builtin(unsigned id);

/* The flags of a format string (UTF-8).  A format is a date format when,
** outside quoted text, escapes and [brackets], its date letters (y m d h s)
** outnumber its digit placeholders (0 # ?) — the rule xlrd and most readers
** apply; "General" and "@" are never dates. */
unsigned lt_wb_format_classify(const char *fmt, size_t len);

/* ---- date serials -------------------------------------------------------- */

/* Excel serial -> microseconds since 1970-01-01, rounded to the millisecond
** as Excel displays it.  1900 system: 1 = 1900-01-01 .. 59 = 1900-02-28,
** 60 (the phantom 1900-02-29) has no date, 61 = 1900-03-01; serials below 1
** are times on 1899-12-31.  1904 system: 0 = 1904-01-01.  Returns false when
** the serial has no displayable date (negative, 60, NaN, past 9999-12-31). */
bool lt_wb_serial_to_timestamp(double serial, bool date1904, int64_t *usec);

/* ---- cells ---------------------------------------------------------------- */

typedef enum lt_wb_kind {
    LT_WB_EMPTY = 0,  /* no value (blank cells are not passed at all)       */
    LT_WB_NUMBER,     /* num; fmt says whether it is shown as a date         */
    LT_WB_BOOL,       /* b                                                   */
    LT_WB_ERROR,      /* #N/A, #DIV/0! ...: NULL                             */
    LT_WB_TEXT        /* text/len (UTF-8), units = its UTF-16 length         */
} lt_wb_kind;

typedef struct lt_wb_cell {
    uint8_t kind;       /* lt_wb_kind */
    uint8_t fmt;        /* LT_WB_FMT_* of the cell's number format */
    bool b;
    double num;
    const char *text;
    uint32_t len;       /* bytes of text */
    uint32_t units;     /* UTF-16 code units of text (the column size unit) */
} lt_wb_cell;

/* UTF-16 code units of UTF-8 text (a 4-byte sequence counts two). */
uint32_t lt_wb_utf16_units(const char *s, size_t len);

/* ---- column typing -------------------------------------------------------- */

typedef struct lt_wb_stats {
    uint32_t numbers;        /* number cells not shown as dates */
    uint32_t fractions;      /* ... of which not integral within +-2^53 */
    uint32_t dates;          /* date-formatted number cells */
    uint32_t timed;          /* ... of which show a time or have one */
    uint32_t day_times;      /* ... of which are a time of day only */
    uint32_t bools;
    uint32_t texts;
    uint32_t errors;
    uint32_t text_units;     /* longest text */
    uint32_t render_units;   /* longest number/date/boolean rendered as text */
    uint32_t unsized;        /* numbers whose rendered length is not known */
    uint32_t late_units;     /* longest value past TypeGuessRows (numbers and
                                dates at their longest form) */
} lt_wb_stats;

/* Count one cell of a column.  Integral numbers are sized here; other
** numbers only count as `unsized` (rendering them costs): when the column
** turns out TEXT, call lt_wb_stats_size() for each of its number cells. */
void lt_wb_stats_add(lt_wb_stats *st, const lt_wb_cell *cell, bool date1904);

/* A cell of a row past TypeGuessRows: it does not type the column, only
** widens the size the column declares if it is TEXT (cheaply: numbers and
** dates count at their longest form). */
void lt_wb_stats_late(lt_wb_stats *st, const lt_wb_cell *cell);

/* The column's type by the rules above (TEXT for a column without values). */
lt_type lt_wb_stats_type(const lt_wb_stats *st);

/* True when the column is TEXT and holds numbers not yet sized. */
bool lt_wb_stats_needs_size(const lt_wb_stats *st);

/* Size a number cell of a TEXT column exactly (second walk); each sized
** number leaves `unsized`.  Numbers left unsized are assumed the longest
** form (24 characters). */
void lt_wb_stats_size(lt_wb_stats *st, const lt_wb_cell *cell);

/* Fill type, size, scale, nullable and type_name (not the name). */
void lt_wb_describe_column(const lt_wb_stats *st, lt_column *col);

/* ---- values ------------------------------------------------------------- */

/* Longest rendering of a number, a date or a boolean, plus a NUL. */
#define LT_WB_RENDER_MAX 32

/* A finite number in its shortest round-trip form: integers within 2^53
** plain ("-7"), others like Python's repr ("0.1", "1.5e-10", "1e+16").
** Returns the length; 0 for NaN or an infinity. */
size_t lt_wb_render_number(double v, char *buf);

/* A date-formatted serial: "YYYY-MM-DD" when the format shows no time and
** the value has none, else "YYYY-MM-DD HH:MM:SS" with ".fff" (trailing
** zeros trimmed) when there are milliseconds.  0 when it has no date. */
size_t lt_wb_render_date(double serial, unsigned fmt, bool date1904, char *buf);

/* The text of a cell of a TEXT column; NULL text (*len 0, returns false)
** for errors, empty cells and serials without a date.  Numbers, dates and
** booleans are rendered into `buf` (LT_WB_RENDER_MAX bytes). */
bool lt_wb_cell_text(const lt_wb_cell *cell, bool date1904, char *buf,
                     const char **text, uint32_t *len);

/* A number within +-2^53 without a fraction (what an INT64 column holds). */
static inline bool lt_wb_is_integral(double v)
{
    return v >= -9007199254740992.0 && v <= 9007199254740992.0 && v == (double)(int64_t)v;
}

/*
** lt_wb_store's common cases, inline for the scans' per-cell path: a number
** not shown as a date into an INT64 (integral) or DOUBLE (finite) vector, a
** text into a TEXT vector.  False, storing nothing, for anything else: then
** call lt_wb_store.
*/
static inline bool lt_wb_store_plain(lt_vector *v, uint32_t row, const lt_wb_cell *cell)
{
    if (cell->kind == LT_WB_TEXT && v->type == LT_TEXT) {
        v->v.bytes[row].ptr = cell->text != NULL ? cell->text : "";
        v->v.bytes[row].len = cell->len;
    } else if (cell->kind != LT_WB_NUMBER || (cell->fmt & LT_WB_FMT_DATE)) {
        return false;
    } else if (v->type == LT_INT64 && lt_wb_is_integral(cell->num)) {
        v->v.i64[row] = (int64_t)cell->num;
    } else if (v->type == LT_DOUBLE && cell->num - cell->num == 0.0) {
        v->v.f64[row] = cell->num;
    } else {
        return false;
    }
    v->nulls[row] = 0;
    return true;
}

/*
** Store `cell` into row `row` of vector `col` of `batch`, converted to the
** vector's type: numbers to INT64/DOUBLE, dates to DATE/TIMESTAMP/TIME,
** booleans to BOOL, anything to TEXT (rendered text goes into the batch
** arena; cell text is referenced, so it must outlive the batch).  An error
** or a serial without a date stores NULL.  A value that does not fit the
** vector's type (possible only past TypeGuessRows: text in a number column,
** a fraction in an integer column, a time in a DATE column ...) is never
** dropped: it is stored as a tagged row of its own type (reader.h's
** lt_vector tags/other: TEXT, DOUBLE, INT64, BOOL, TIMESTAMP).  Returns -1
** only when out of memory.
*/
int lt_wb_store(lt_batch *batch, uint32_t col, uint32_t row,
                const lt_wb_cell *cell, bool date1904);

/* ---- names ------------------------------------------------------------------ */

/*
** Column names for `ncols` columns: headers[i] (UTF-8, may be NULL or
** empty) or, when blank, "F<i+1>"; a name already taken (case-insensitive)
** gets "_2", "_3" ... appended.  headers == NULL gives F1..Fn (HDR=No).
** names[] receives malloc'ed strings.  Returns -1 when out of memory (the
** names allocated so far are freed and set to NULL).
*/
int lt_wb_column_names(uint32_t ncols, const lt_bytes *headers, char **names);

/*
** Table look-up for workbooks: the name exactly (case-insensitive), else,
** for a name without a trailing '$', the worksheet table `name$` — so both
** Sheet1$ and Sheet1 reach the table listed as Sheet1$.  -1 when absent.
** The table found is described (reader.h describe): its columns are set,
** or its error.
*/
int64_t lt_wb_find_table(const lt_source *src, const char *name, size_t len);
/* The same look-up without describing. */
int64_t lt_wb_find_listed(const lt_source *src, const char *name, size_t len);

#endif /* LT_WORKBOOK_H */
