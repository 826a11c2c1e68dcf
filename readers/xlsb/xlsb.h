/*
** xlsb.h — the Excel .xlsb reader: Excel 2007+ binary workbooks (a ZIP
** package of BIFF12 parts).
**
** Each worksheet is a table named "<sheet name>$" (hidden and very hidden
** ones too; chart, macro and dialog sheets are not tables).  Use
** lt_wb_find_table (common/workbook.h) to let "Sheet1" reach "Sheet1$".
** The table is the sheet's used range; column types come from all cells
** (common/workbook.h).  Workbook-level defined names of one rectangle are
** tables too; "Sheet1$A1:D100" names a range (common/wbgrid.h).  Options
** honoured:
**   HDR=Yes|No       the first row of the used range names the columns (the
**                    default) or is data, columns F1..Fn
**   TypeGuessRows=N  types from the first N data rows (0: all, the default)
**   CellCacheMB=N    MiB of cells kept from type scans for later scans
**                    (64 by default, 0: none; common/wbgrid.h)
**   PWD=...          the password of an encrypted workbook (a compound file
**                    holding EncryptionInfo and EncryptedPackage: Standard
**                    and Agile AES encryption, with OpenSSL's libcrypto)
*/
#ifndef LT_XLSB_H
#define LT_XLSB_H

#include "../reader.h"

extern const lt_reader lt_xlsb_reader;

/* Open a workbook from bytes in memory (the fuzzer, tests): `data` must
** outlive the source; `name` names it in messages (NULL: "memory"). */
int lt_xlsb_open_memory(const uint8_t *data, size_t size, const char *name,
                        const lt_options *opts, lt_source **out, lt_error *err);

/* Whether this build decrypts encrypted workbooks (built with libcrypto);
** without it they fail with an error naming their encryption. */
bool lt_xlsb_can_decrypt(void);

#endif /* LT_XLSB_H */
