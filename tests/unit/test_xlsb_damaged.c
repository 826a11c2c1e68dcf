/*
** test_xlsb_damaged.c — every .xlsb file of the corpus, cut short at many
** lengths and with single bits flipped at many places (half of them in the
** ZIP central directory, the last 2 KiB), opened and scanned in full
** (support/damage.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reader.h"
#include "support/damage.h"
#include "xlsb/xlsb.h"

static const ts_damage damage = {
    LT_CORPUS_DIR "/xlsb", "damaged.xlsb", lt_xlsb_open_memory, 20, 2048, true,
};

static void test_truncated(void **state)
{
    (void)state;
    ts_damage_truncated(&damage);
}

static void test_bit_flips(void **state)
{
    (void)state;
    ts_damage_bit_flips(&damage);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bit_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
