/*
** dbf.h — the dBASE / FoxPro / Visual FoxPro table reader.
**
** A source is one .dbf file (one table named by the file's stem) or a folder
** (every *.dbf in it, any case of the extension).  Options honoured:
**   ShowDeleted=1   return records marked deleted too (default: skip them)
**   CodePage=NNNN   decode text with this Windows code page, overriding the
**                   .cpg companion and the header's language-driver byte
*/
#ifndef LT_DBF_H
#define LT_DBF_H

#include "../reader.h"

extern const lt_reader lt_dbf_reader;

/*
** Open one table from bytes in memory, for the fuzzer and for tests that
** build tables by hand: `table` holds the .dbf bytes, `memo` (may be NULL)
** the memo file's, `memo_ext` says which kind it is ("fpt" or "dbt"; NULL
** when there is no memo).  The buffers must outlive the source.  The table
** is named `name` (NULL: "memory").  Fails like a file would.
*/
int lt_dbf_open_memory(const uint8_t *table, size_t table_len,
                       const uint8_t *memo, size_t memo_len,
                       const char *memo_ext, const char *name,
                       const lt_options *opts, lt_source **out, lt_error *err);

#endif /* LT_DBF_H */
