/*
** damage.h — the damaged-file tests of the workbook readers: every file of
** a corpus cut short at many lengths and with single bits flipped at many
** places, opened from memory and scanned in full.  Each attempt either
** reads or fails with a message naming the file; nothing crashes, hangs or
** reads out of bounds (run under ASan/UBSan and valgrind to see the last
** two).
*/
#ifndef LT_TEST_SUPPORT_DAMAGE_H
#define LT_TEST_SUPPORT_DAMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

typedef int (*ts_open_memory_fn)(const uint8_t *data, size_t size, const char *name, const lt_options *opts,
                                 lt_source **out, lt_error *err);

typedef struct ts_damage {
    const char *dir;               /* the corpus: MANIFEST.tsv and the files */
    const char *name;              /* the name the bytes are opened under */
    ts_open_memory_fn open_memory;
    size_t min_files;              /* the corpus has more files than this */
    size_t flip_span;              /* half the flips hit this many bytes ... */
    bool flip_tail;                /* ... at the end of the file, else at its start */
} ts_damage;

/* Each file cut at fixed and at proportional lengths; some must fail to open. */
void ts_damage_truncated(const ts_damage *d);
/* 64 single-bit flips per file; some must still open. */
void ts_damage_bit_flips(const ts_damage *d);
/* A test program's main: both of the above as CMocka tests; returns what
** cmocka_run_group_tests returns. */
int ts_damage_main(const ts_damage *d);

#endif /* LT_TEST_SUPPORT_DAMAGE_H */
