/*
** access.h — the Microsoft Access database reader (.mdb, .accdb).
**
** Reads Jet 3 (Access 97), Jet 4 (Access 2000-2003) and ACE 12-17 (Access
** 2007 and later) files by parsing the page format itself: no mdbtools, no
** vendor library.  A source is one database file; its tables are the rows of
** MSysObjects (see README.md for kinds, types and limits).  The file is
** mapped read-only and never written or locked.
**
** Options honoured:
**   PWD=...        the database password (Jet 3/Jet 4); required when the
**                  file has one, as Access requires it
**   CodePage=NNNN  (or CharSet=NAME) the code page of Jet 3 text, which the
**                  file records only as the creating machine's ANSI page
*/
#ifndef LT_ACCESS_H
#define LT_ACCESS_H

#include "../reader.h"

extern const lt_reader lt_access_reader;

/*
** Open a database held in memory, for the fuzzer and for tests that damage
** files on purpose.  `data` must outlive the source.  `name` (NULL:
** "memory") names it in messages.
*/
int lt_access_open_memory(const uint8_t *data, size_t len, const char *name,
                          const lt_options *opts, lt_source **out,
                          lt_error *err);

#endif /* LT_ACCESS_H */
