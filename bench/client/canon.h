/*
** canon.h — the canonical value stream every benchmark program hashes, so
** that the outputs of different drivers and readers can be compared.
**
** Two programs agree when they saw the same values in the same order, not
** the same C types: a number is hashed by value (an integral value within
** ±2^53 as an integer, anything else as its double), so an INTEGER from one
** driver, a DECIMAL(10,0) from another and the text "42" fetched with
** SQLGetData all hash alike.  Text is UTF-8 with trailing blanks dropped
** (dBASE pads); dates, times and timestamps hash as their fields.  A type
** family mismatch (a date one side returns as text) changes the checksum on
** purpose: parity is about what a client receives.
**
** The hash is a fast 64-bit multiply-xorshift mix, order-sensitive, not
** cryptographic.  `canon_show` also prints the first rows, tab-separated,
** in a readable canonical form (for looking at a parity failure).
*/
#ifndef BENCH_CANON_H
#define BENCH_CANON_H

#include <stddef.h>
#include <stdint.h>

typedef struct canon {
    uint64_t hash;
    uint64_t values;
    uint64_t rows;
    long show_rows;          /* rows still to print */
    char line[4096];         /* the row being printed */
    size_t line_len;
} canon;

void canon_init(canon *c, long show_rows);
void canon_null(canon *c);
void canon_int(canon *c, int64_t v);
void canon_double(canon *c, double v);
void canon_text(canon *c, const char *s, size_t n);
void canon_binary(canon *c, const void *p, size_t n);
void canon_date(canon *c, int y, int m, int d);
void canon_time(canon *c, int hh, int mm, int ss);
void canon_timestamp(canon *c, int y, int m, int d, int hh, int mm, int ss,
                     uint32_t nanos);
void canon_end_row(canon *c);

/* Values that arrive as text (SQLGetData as SQL_C_CHAR): parse, then hash as
** the typed call would.  Text that does not parse hashes as text, which
** makes the mismatch visible instead of hiding it. */
void canon_number_text(canon *c, const char *s, size_t n);
void canon_date_text(canon *c, const char *s, size_t n);
void canon_time_text(canon *c, const char *s, size_t n);
void canon_timestamp_text(canon *c, const char *s, size_t n);

/* Peak resident set of this program since exec, in KiB. */
long canon_max_rss_kb(void);
/* Resident memory now, in KiB: anonymous (heap, stacks) and file-backed
** (mapped libraries and data files: a driver that maps the file it reads
** shows the file here, which is not a leak). */
void canon_rss_now(long *anon_kb, long *file_kb);
/* A monotonic clock in seconds. */
double canon_now(void);

#endif
