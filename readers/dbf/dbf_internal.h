/*
** dbf_internal.h — what the files of the dBASE reader share.
**
** header.c turns the table header and field descriptors into dbf_fields and
** lt_columns; memo.c finds memo blocks in .dbt/.fpt files; number.c parses the
** text of N/F fields; decode.c turns the fields of a batch of records into
** vectors; reader.c is the lt_reader: sources, folders, scans.
*/
#ifndef LT_DBF_INTERNAL_H
#define LT_DBF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../reader.h"
#include "../common/platform.h"

/* How a field's bytes become a value; decided once per field at open. */
typedef enum dbf_kind {
    DBF_CHAR,          /* C: text, trailing spaces and NULs removed */
    DBF_VARCHAR,       /* V: text, length from the _NullFlags varlength bit */
    DBF_VARBINARY,     /* Q: bytes, same length rule */
    DBF_NUM_INT,       /* N/F without decimals, up to 18 digits -> INT64 */
    DBF_NUM_DECIMAL,   /* N with decimals, or wide integers -> DECIMAL */
    DBF_NUM_DOUBLE,    /* F with decimals (or too wide for DECIMAL) -> DOUBLE */
    DBF_DATE,          /* D: YYYYMMDD */
    DBF_LOGICAL,       /* L: T/F/Y/N */
    DBF_INT32,         /* I: int32 little-endian */
    DBF_CURRENCY,      /* Y: int64 little-endian, 4 implied decimals */
    DBF_DOUBLE_LE,     /* B in Visual FoxPro: IEEE double little-endian */
    DBF_DOUBLE_DB7,    /* O: dBASE 7 double, big-endian with flipped sign */
    DBF_DATETIME,      /* T: int32 Julian day + int32 milliseconds */
    DBF_MEMO_TEXT,     /* M: text in the memo file */
    DBF_MEMO_BINARY    /* G, P, W, B outside VFP, binary M: bytes in the memo file */
} dbf_kind;

typedef struct dbf_field {
    uint32_t offset;       /* in the record (byte 0 is the deletion flag) */
    uint32_t width;
    uint8_t type;          /* the descriptor's letter */
    uint8_t decimals;
    uint8_t flags;         /* VFP field flags; 0 outside Visual FoxPro */
    dbf_kind kind;
    int16_t scale;         /* DBF_NUM_DECIMAL, DBF_CURRENCY */
    int32_t varbit;        /* _NullFlags bit numbers, -1 when none */
    int32_t nullbit;
} dbf_field;

typedef enum dbf_memo_kind {
    DBF_MEMO_NONE,
    DBF_MEMO_DBT3,         /* dBASE III: 512-byte blocks, text ends at 0x1A */
    DBF_MEMO_DBT4,         /* dBASE IV: block header FF FF 08 00 + length */
    DBF_MEMO_FPT           /* FoxPro: block header type + length, big-endian */
} dbf_memo_kind;

typedef struct dbf_memo {
    dbf_memo_kind kind;
    const uint8_t *data;
    size_t size;
    uint32_t block_size;
    const char *name;      /* the memo file's path, for messages */
} dbf_memo;

/* One table: its file, its parsed header, its memo. */
typedef struct dbf_table {
    char *path;            /* the .dbf as opened, for messages */
    lt_mapped_file file;   /* handle NULL when the bytes are the caller's */
    bool own_file;
    char *memo_path;       /* malloc'ed; NULL for memory sources */
    lt_mapped_file memo_file;
    bool own_memo;
    dbf_memo memo;
    int codepage;
    uint8_t version;
    bool vfp;              /* Visual FoxPro (0x30-0x32): flags bytes mean something */
    uint32_t header_len;
    uint32_t record_len;
    int64_t nrecords;      /* min(header count, complete records present) */
    uint32_t nfields;      /* the visible fields, in column order */
    dbf_field *fields;
    uint32_t nullflags_offset;  /* _NullFlags field in the record ... */
    uint32_t nullflags_width;   /* ... 0 when the table has none */
    bool needs_memo;
    char *error;           /* non-NULL: the table cannot be read, and why */
} dbf_table;

typedef struct dbf_source {
    lt_source base;
    bool show_deleted;
    int codepage_override; /* 0: none */
    dbf_table *tables;     /* parallel to base.tables */
} dbf_source;

/* header.c ---------------------------------------------------------------- */

/* Parse `t->file`'s header and descriptors (code page already chosen) into
** t's fields and `table`'s columns.  Fails with HY000 naming t->path. */
int dbf_header_parse(dbf_table *t, lt_table *table, lt_error *err);
/* The language-driver byte, or 0 when the file is too short. */
uint8_t dbf_header_ldid(const uint8_t *data, size_t size);
/* Does the file start like a dBASE table?  0..100 as probe() answers. */
int dbf_header_plausible(const uint8_t *head, size_t len);

/* memo.c ------------------------------------------------------------------ */

/* Read the memo file's header (block size).  HY000 naming the file when it
** is too short to have one. */
int dbf_memo_open(dbf_memo *m, dbf_memo_kind kind, const uint8_t *data,
                  size_t size, const char *name, lt_error *err);
/* The body of memo block `block` (> 0) and its FPT type (1 = text; dBASE
** memos are text).  A block past the end or a body running past the end is
** an error naming the memo file, the block and `recno`. */
int dbf_memo_get(const dbf_memo *m, uint64_t block, int64_t recno,
                 const uint8_t **body, size_t *len, uint32_t *type,
                 lt_error *err);

/* number.c ---------------------------------------------------------------- */

/* The text of an N/F field as a decimal number: value = ±mant × 10^exp10. */
typedef struct dbf_number {
    unsigned __int128 mant;  /* up to 38 significant digits */
    int32_t exp10;
    int32_t ndigits;         /* digits kept in mant (while parsing) */
    bool neg;
    bool inexact;            /* more than 38 significant digits: use text */
    const uint8_t *text;     /* the trimmed text, for strtod */
    uint32_t text_len;
} dbf_number;

/* Fast path: spaces, optional sign, up to 19 digits with an optional '.',
** then spaces or NULs.  false when the text is anything else (then call
** dbf_number_parse, which knows every form). */
bool dbf_number_plain(const uint8_t *p, size_t n, dbf_number *out);
/* 1: parsed; 0: blank or overflow stars (NULL); -1: not a number (NULL). */
int dbf_number_parse(const uint8_t *p, size_t n, dbf_number *out);
/* Round half away from zero to an integer; false when out of range. */
bool dbf_number_int64(const dbf_number *num, int64_t *out);
/* Scaled by 10^scale, rounded half away from zero; false beyond 38 digits. */
bool dbf_number_decimal(const dbf_number *num, int scale, lt_int128 *out);
/* The nearest double; false when not finite. */
bool dbf_number_double(const dbf_number *num, double *out);
/* Fast path for the common case: spaces, optional sign, digits, spaces.
** Returns false when the text is anything else (then use the parser). */
bool dbf_number_plain_int(const uint8_t *p, size_t n, int64_t *out);

/* decode.c ---------------------------------------------------------------- */

/* Decode field `f` of `n` records into rows 0..n-1 of `v` (text that needs
** decoding goes into `arena`). */
int dbf_decode_column(const dbf_table *t, const dbf_field *f,
                      const uint8_t *const *recs, uint32_t n, lt_vector *v,
                      lt_arena *arena, lt_error *err);

#endif /* LT_DBF_INTERNAL_H */
