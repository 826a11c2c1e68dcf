/*
** test_xls_damaged.c — every .xls file of the corpus, cut short at many
** lengths and with single bits flipped at many places (half of them in the
** compound file's header, FAT and directory, the first 4 KiB), opened and
** scanned in full (support/damage.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reader.h"
#include "support/damage.h"
#include "xls/xls.h"

static const ts_damage damage = {
    LT_CORPUS_DIR "/xls", "damaged.xls", lt_xls_open_memory, 30, 4096, false,
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
