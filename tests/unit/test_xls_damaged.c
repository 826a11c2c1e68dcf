/*
** test_xls_damaged.c — every .xls file of the corpus, cut short at many
** lengths and with single bits flipped at many places (half of them in the
** compound file's header, FAT and directory, the first 4 KiB), opened and
** scanned in full (support/damage.h).
*/
#include <stddef.h>
#include <stdint.h>

#include "reader.h"
#include "support/damage.h"
#include "xls/xls.h"

static const ts_damage damage = {
    LT_CORPUS_DIR "/xls", "damaged.xls", lt_xls_open_memory, 30, 4096, false,
};

int main(void)
{
    return ts_damage_main(&damage);
}
