/*
** test_xlsb_damaged.c — every .xlsb file of the corpus, cut short at many
** lengths and with single bits flipped at many places (half of them in the
** ZIP central directory, the last 2 KiB), opened and scanned in full
** (support/damage.h).
*/
#include <stddef.h>
#include <stdint.h>

#include "reader.h"
#include "support/damage.h"
#include "xlsb/xlsb.h"

static const ts_damage damage = {
    LT_CORPUS_DIR "/xlsb", "damaged.xlsb", lt_xlsb_open_memory, 20, 2048, true,
};

int main(void)
{
    return ts_damage_main(&damage);
}
