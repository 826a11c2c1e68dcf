/*
** corpus.h — the corpus oracle the unit tests share: text buffers, the
** oracle's CSV (RFC 4180) and TSV files, rendering an lt_value the
** canonical CSV way (/work/shared/corpus/README.md), comparing cells
** (numbers with a relative tolerance of 1e-9, timestamps as instants,
** NULL apart from ""), scanning a table in batches, and walking a
** corpus's MANIFEST with its list of rows known not to match yet.
**
** Failures of the test machinery itself (out of memory, a missing oracle)
** are CMocka assertions; a mismatch is reported to the caller as text.
*/
#ifndef LT_TEST_SUPPORT_CORPUS_H
#define LT_TEST_SUPPORT_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/* ---- text (csv.c) --------------------------------------------------------- */

typedef struct ts_str {
    char *p;          /* always NUL-terminated once anything was put */
    size_t len, cap;
} ts_str;

void ts_putn(ts_str *b, const char *s, size_t n);
void ts_printf(ts_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A whole file, NUL-terminated; NULL when it cannot be opened. */
char *ts_slurp(const char *path, size_t *len);
/* The last part of a path ("a/b.dbf" -> "b.dbf"). */
const char *ts_base_name(const char *path);
/* Whether an error message names the file (by its base name). */
bool ts_names_file(const char *message, const char *file);

/* ---- CSV, the oracle's form (csv.c) ----------------------------------------- */

typedef struct ts_cell {
    char *text;
    bool null;        /* oracle: an empty unquoted field; ours: a NULL */
    lt_type type;     /* ours only: the value's type (the column's when NULL) */
} ts_cell;

typedef struct ts_row {
    ts_cell *cells;
    size_t n;
} ts_row;

typedef struct ts_csv {
    ts_row *rows;
    size_t n, cap;
} ts_csv;

void ts_csv_add(ts_csv *c, ts_row row);
void ts_csv_parse(const char *s, size_t len, ts_csv *out);
/* Parse the file at path; asserts that it exists. */
void ts_csv_load(const char *path, ts_csv *out);
/* Remove row r (its cells freed, the later rows moved up). */
void ts_csv_drop_row(ts_csv *c, size_t r);
void ts_csv_free(ts_csv *c);

/* ---- MANIFEST.tsv / EXPECT.tsv (csv.c) ----------------------------------------- */

typedef struct ts_tsv {
    char *text;
    char **fields;    /* nrows x ncols; missing trailing fields are "" */
    size_t nrows, ncols;
} ts_tsv;

/* Load without the header line and comment lines; false if it is missing. */
bool ts_tsv_load(const char *path, size_t ncols, ts_tsv *t);
char **ts_tsv_row(const ts_tsv *t, size_t r);
void ts_tsv_free(ts_tsv *t);

/*
** The EXPECT row for (file, table), later rows winning, "*" matching
** anything; table NULL matches on the file alone.  Defaults: "rows", "".
*/
void ts_expectation(const ts_tsv *ex, const char *file, const char *table,
                    const char **expect, const char **connect);
/* "KEY=value;KEY2=value2" into options (the strings are copied into buf). */
lt_options ts_parse_connect(const char *connect, char *buf, size_t cap, lt_option *items, size_t max);

/* ---- rendering and comparing cells (corpus.c) ---------------------------------- */

/* Our value as canonical text into b (emptied first); false for NULL. */
bool ts_render(const lt_value *v, ts_str *b);
/* The value of one cell, honouring per-row tags of dynamic columns. */
void ts_cell_value(const lt_batch *batch, uint32_t col, uint32_t row, lt_value *out);

/* Rules beyond the README's, for readers whose typing the oracle does not know. */
enum {
    TS_BOOL_NUMBER = 1,   /* a BOOL compares as the number 1/0 */
    TS_DATE_INSTANT = 2,  /* a DATE compares as an instant, not as text */
    TS_EXCEL = 4,         /* TEXT TRUE/FALSE is the oracle's 1/0; TIME is the
                             oracle's time on the date of serial 0 */
};

typedef struct ts_rules {
    unsigned flags;
    int32_t time_epoch;   /* TS_EXCEL: the day of serial 0 */
} ts_rules;

bool ts_same_cell(const ts_cell *ours, const ts_cell *oracle, const ts_rules *rules);

/* ---- reading a table (corpus.c) ------------------------------------------------ */

typedef struct ts_result {
    bool ok;                              /* read without error */
    char message[LT_ERROR_MESSAGE_MAX];   /* else the error */
    uint32_t ncols;
    char **names;
    ts_csv rows;                          /* rendered */
} ts_result;

/* Every column of table ti, in batches of `capacity` rows. */
void ts_scan(lt_source *src, uint32_t ti, uint32_t capacity, ts_result *res);
void ts_result_free(ts_result *r);
/* Table `name` of src as "head|head;v|v;v|v": the column names (with
** `typed` "name:TYPE(size)"), then each row, NULL as "-", and with `typed` a
** value of another type than its column's (a tagged row) followed by
** "[TYPE]".  Scanned in batches of `capacity` rows; a failing look-up or
** scan ends the test.  malloc'ed. */
char *ts_table_text(lt_source *src, const char *name, uint32_t capacity, bool typed);
/* `path` opened by `reader` (opts may be NULL); failing to open ends the
** test with the reader's message. */
lt_source *ts_open(const lt_reader *reader, const char *path, const lt_options *opts);
/* The index of the table named exactly `name`, or -1. */
int64_t ts_table_index(const lt_source *src, const char *name);
/* The names of the tables a source lists, in order, as "a|b|c" (malloc). */
char *ts_table_names(const lt_source *src);
/* The name of a logical type as reader.h spells it ("INT64", "TEXT"). */
const char *ts_type_name(lt_type t);

/* Compare with the oracle (row 0 its header), in order or as multisets of
** rows; on a difference describe the first one in why. */
bool ts_compare(const ts_result *res, const ts_csv *oracle, const ts_rules *rules, char *why, size_t whylen);
bool ts_compare_multiset(const ts_result *res, const ts_csv *oracle, const ts_rules *rules,
                         char *why, size_t whylen);

/* ---- walking a MANIFEST (manifest.c) --------------------------------------------- */

typedef struct ts_known {
    const char *file, *table, *why;
} ts_known;

/* The tally of a corpus run; a listed row that matches counts as unexpected. */
typedef struct ts_tally {
    size_t total, matched, known, bad;
} ts_tally;

/* Count one MANIFEST row and say what happened to it. */
void ts_tally_row(ts_tally *t, const ts_known *known, size_t nknown, const char *file,
                  const char *table, bool ok, const char *why);
/* "<name> corpus: M/T MANIFEST rows match their oracle (K known, B unexpected)" */
void ts_tally_print(const ts_tally *t, const char *name);

typedef struct ts_corpus ts_corpus;
/* Check one MANIFEST row f (7 fields) against the source opened for its file
** (NULL when the open failed with open_error); true when it behaves. */
typedef bool (*ts_check_fn)(const ts_corpus *c, lt_source *src, const char *open_error, char **f,
                            const char *expect, char *why, size_t whylen);

struct ts_corpus {
    const char *name;          /* "xls", for the summary */
    const char *dir;           /* holds MANIFEST.tsv, EXPECT.tsv and the files */
    const lt_reader *reader;
    bool connect;              /* open with EXPECT's connection keywords */
    const ts_known *known;
    size_t nknown;
    ts_check_fn check;
};

/* Every MANIFEST row through c->check, each file opened once; prints the
** rows that fail and the summary, and returns the tally. */
ts_tally ts_corpus_run(const ts_corpus *c);

#endif /* LT_TEST_SUPPORT_CORPUS_H */
