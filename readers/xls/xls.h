/*
** xls.h — the Excel .xls reader: BIFF8 (Excel 97-2003) and BIFF5/7 (Excel
** 5.0/95) workbooks in a compound file, or a bare BIFF stream.
**
** Each worksheet is a table named "<sheet name>$" (hidden and very hidden
** ones too; chart, macro and dialog sheets are not tables).  Use
** lt_wb_find_table (common/workbook.h) to let "Sheet1" reach "Sheet1$".
** The table is the sheet's used range; column types come from all cells
** (common/workbook.h).  Options honoured:
**   HDR=Yes|No   the first row of the used range names the columns (the
**                default) or is data, columns F1..Fn
**   PWD=...      the password of an encrypted workbook (RC4)
**   TypeGuessRows=N  types from the first N data rows (0: all, the default)
** Workbook-level defined names of one rectangle are tables too, and
** "Sheet1$A1:D100" names a range (common/wbgrid.h).
*/
#ifndef LT_XLS_H
#define LT_XLS_H

#include "../reader.h"

extern const lt_reader lt_xls_reader;

/* Open a workbook from bytes in memory (the fuzzer, tests): `data` must
** outlive the source; `name` names it in messages (NULL: "memory"). */
int lt_xls_open_memory(const uint8_t *data, size_t size, const char *name,
                       const lt_options *opts, lt_source **out, lt_error *err);

#endif /* LT_XLS_H */
