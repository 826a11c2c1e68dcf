/*
** workbook.h — the corpus checks the workbook readers (.xls, .xlsb) share:
** a MANIFEST row of a workbook corpus (tables are the sheets, "Name$",
** also reachable by the bare name), and HDR=Yes on tables whose first row
** is a header.  The comparison rules are the README's plus the two that
** follow from Lector's typing (issue 7): TRUE/FALSE in a TEXT column for
** the oracle's 1/0, and a TIME column for the oracle's time on the date of
** serial 0 (1899-12-31, or 1904-01-01 in the 1904 system).
*/
#ifndef LT_TEST_SUPPORT_WORKBOOK_H
#define LT_TEST_SUPPORT_WORKBOOK_H

#include "corpus.h"

/* The comparison rules for a workbook in the 1900 or the 1904 system. */
ts_rules ts_wb_rules(bool date1904);

/*
** A ts_check_fn for workbook corpora (HDR=No through EXPECT's keywords):
** `date1904` says the date system of an open source.  Use it through a
** ts_corpus whose first field is ts_wb_corpus's.
*/
typedef struct ts_wb_corpus {
    ts_corpus base;
    bool (*date1904)(const lt_source *src);
} ts_wb_corpus;

bool ts_wb_check_row(const ts_corpus *c, lt_source *src, const char *open_error, char **f,
                     const char *expect, char *why, size_t whylen);

/* A table read with HDR=Yes (the default) and the columns it must have. */
typedef struct ts_hdr_case {
    const char *file, *table, *csv;
    const char *columns;     /* "name:TYPE|..." */
} ts_hdr_case;

/* The names come from the header, the types from all the other cells, and
** the rows are the oracle's without its first one. */
void ts_wb_check_hdr_yes(const ts_wb_corpus *c, const ts_hdr_case *cases, size_t ncases);

#endif /* LT_TEST_SUPPORT_WORKBOOK_H */
