/*
** codepage_tables.h — the shape of the generated code page tables.
**
** Private to codepage.c and the generated codepage_tables.c (made by
** scripts/gen-codepages.py from Python's codecs).  Every table holds its
** characters already encoded as UTF-8, three bytes per slot: the decoder
** copies three bytes and advances by the length its first byte implies
** (1 for ASCII, 2 for 0xC2..0xDF, 3 for 0xE0..0xEF), so padding after a
** shorter character is never part of the output.  A slot whose first byte
** is ASCII in a multi-byte table means "no character here".
*/
#ifndef LT_CODEPAGE_TABLES_H
#define LT_CODEPAGE_TABLES_H

#include <stddef.h>
#include <stdint.h>

#define LT_CP_SLOT 3

/* A single-byte code page. */
typedef struct lt_cp_single {
    const char *high;   /* 128 slots: bytes 0x80..0xFF */
    const char *low;    /* 128 slots: bytes 0x00..0x7F; lt_cp_ascii for most */
} lt_cp_single;

/* The trail bytes of one lead byte of a double-byte code page. */
typedef struct lt_cp_row {
    uint8_t first;      /* first trail byte of `slots` */
    uint8_t last;       /* last trail byte of `slots` */
    const char *slots;  /* last - first + 1 slots, or NULL: not a lead byte */
} lt_cp_row;

/* A double-byte code page (Shift-JIS, GBK, UHC, Big5 as Windows numbers
** them).  Bytes 0x00..0x7F are ASCII. */
typedef struct lt_cp_multi {
    const char *single;      /* 128 slots: bytes 0x80..0xFF standing alone */
    const lt_cp_row *rows;   /* 128 rows: lead bytes 0x80..0xFF */
} lt_cp_multi;

/* One code page: exactly one of `single` and `multi` is set. */
typedef struct lt_cp_page {
    int cp;
    const lt_cp_single *single;
    const lt_cp_multi *multi;
} lt_cp_page;

/* 128 slots holding ASCII itself. */
extern const char lt_cp_ascii[];

/* The tables of code page `cp` (not 65001, which needs none), or NULL.
** A hash look-up: this runs once per decoded value. */
const lt_cp_page *lt_cp_find(int cp);

#endif /* LT_CODEPAGE_TABLES_H */
