/*
** xlsb.h — the Excel .xlsb reader: Excel 2007+ binary workbooks (a ZIP
** package of BIFF12 parts).
**
** Each worksheet is a table named "<sheet name>$" (hidden and very hidden
** ones too; chart, macro and dialog sheets are not tables).  Use
** lt_wb_find_table (common/workbook.h) to let "Sheet1" reach "Sheet1$".
** The table is the sheet's used range; column types come from all cells
** (common/workbook.h).  Options honoured:
**   HDR=Yes|No   the first row of the used range names the columns (the
**                default) or is data, columns F1..Fn
** Encrypted workbooks (a compound file holding EncryptionInfo and
** EncryptedPackage) fail with an error that says so.
*/
#ifndef LT_XLSB_H
#define LT_XLSB_H

#include "../reader.h"

extern const lt_reader lt_xlsb_reader;

/* Open a workbook from bytes in memory (the fuzzer, tests): `data` must
** outlive the source; `name` names it in messages (NULL: "memory"). */
int lt_xlsb_open_memory(const uint8_t *data, size_t size, const char *name,
                        const lt_options *opts, lt_source **out, lt_error *err);

#endif /* LT_XLSB_H */
