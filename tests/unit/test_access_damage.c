/*
** test_access_damage.c — truncated and bit-flipped copies of every Access
** corpus file must open and scan cleanly: either rows or an lt_error with a
** SQLSTATE and a message naming the file, never a crash or a read outside
** the buffer (the sanitizer build checks that).  Also: the password rules
** (28000 for a missing or wrong PWD) and the encrypted .accdb error.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/access.h"
#include "support/corpus.h"

#define ACCESS_DIR LT_CORPUS_DIR "/access"
#define NAME "damaged.mdb"

static const char *const files[] = {
    "testV1997.mdb", "test2V1997.mdb", "delTestV1997.mdb", "delColTestV1997.mdb",
    "overflowTestV1997.mdb", "compIndexTestV1997.mdb", "charsetGBK.mdb", "test2V2000.mdb",
    "fixedNumericTestV2000.mdb", "testUnicodeCompV2003.mdb", "DateTestDatabase.mdb",
    "linked.mdb", "testV2010.accdb", "binIdxTestV2010.accdb", "float.accdb", "longtext.accdb",
    "oldDatesV2007.accdb", "testEmoticonsV2010.accdb", "complexDataTestV2010.accdb",
    "bigint.accdb", "extDateTestV2019.accdb", "ASampleDatabase.accdb",
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void check_error(const lt_error *err)
{
    assert_int_equal(strlen(err->sqlstate), 5);
    assert_true(err->message[0] != '\0');
    if (strcmp(err->sqlstate, "HY001") != 0 && strstr(err->message, NAME) == NULL) {
        printf("error does not name the file: %s\n", err->message);
        fail();
    }
}

/* Open `len` bytes (an exact-size copy, so that overreads are caught) and
** scan every table; returns the number of tables read to the end. */
static int exercise(const uint8_t *data, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, data, len);
    lt_source *src = NULL;
    lt_error err;
    lt_error_clear(&err);
    static const lt_option pwd[] = {{"PWD", "password"}};
    lt_options opts = {1, pwd};
    int read = 0;
    if (lt_access_open_memory(copy, len, NAME, &opts, &src, &err) != 0) {
        check_error(&err);
        free(copy);
        return 0;
    }
    for (uint32_t t = 0; t < src->ntables; t++) {
        ts_result res;
        memset(&res, 0, sizeof res);
        ts_scan(src, t, 5, &res);
        if (res.ok) {
            read++;
            int64_t n = src->reader->count_rows(src, t, &err);
            assert_true(n == (int64_t)res.rows.n);
        } else {
            lt_error e2;
            lt_error_clear(&e2);
            snprintf(e2.sqlstate, sizeof e2.sqlstate, "HY000");
            snprintf(e2.message, sizeof e2.message, "%s", res.message);
            check_error(&e2);
        }
        ts_result_free(&res);
    }
    src->reader->close(src);
    free(copy);
    return read;
}

static uint8_t *load(const char *file, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, file);
    uint8_t *data = (uint8_t *)ts_slurp(path, len);
    assert_non_null(data);
    return data;
}

static void test_truncated(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t len;
        uint8_t *data = load(files[f], &len);
        size_t page = data[0x14] == 0 ? 2048 : 4096;
        size_t cuts[] = {0, 1, 100, page - 1, page, 2 * page, 3 * page + 17, len / 3, len / 2,
                         len - page, len - 1};
        for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++)
            if (cuts[k] < len)
                exercise(data, cuts[k]);
        free(data);
    }
}

static void test_bit_flips(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t len;
        uint8_t *data = load(files[f], &len);
        uint8_t *copy = malloc(len);
        assert_non_null(copy);
        size_t page = data[0x14] == 0 ? 2048 : 4096;
        for (int round = 0; round < 30; round++) {
            memcpy(copy, data, len);
            int flips = 1 + (int)(rng() % 16);
            for (int i = 0; i < flips; i++) {
                /* half the flips in the catalog and definitions (pages 1-3),
                ** half anywhere past the header */
                size_t span = (i & 1) ? len - page : 3 * page;
                size_t at = page + (size_t)(rng() % (span ? span : 1));
                if (at < len)
                    copy[at] ^= (uint8_t)(1u << (rng() % 8));
            }
            exercise(copy, len);
        }
        free(copy);
        free(data);
    }
}

/* Every byte of the first table-definition and catalog pages set to 0xFF
** in turn, a harsher damage than single bits. */
static void test_byte_smash(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = load("testV1997.mdb", &len);
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    for (size_t at = 2048 * 2; at < 2048 * 2 + 700; at += 3) {
        memcpy(copy, data, len);
        copy[at] = 0xff;
        exercise(copy, len);
    }
    free(copy);
    free(data);
}

static int open_with(const char *file, const char *pwd, lt_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ACCESS_DIR, file);
    lt_option items[1] = {{"PWD", pwd}};
    lt_options opts = {pwd ? 1 : 0, items};
    lt_source *src = NULL;
    lt_error_clear(err);
    int rc = lt_access_reader.open(path, &opts, &src, err);
    if (rc == 0)
        src->reader->close(src);
    return rc;
}

static void test_password(void **state)
{
    (void)state;
    lt_error err;
    assert_int_equal(open_with("V2003_with-password.mdb", NULL, &err), -1);
    assert_string_equal(err.sqlstate, "28000");
    assert_non_null(strstr(err.message, "V2003_with-password.mdb"));
    assert_non_null(strstr(err.message, "PWD"));
    assert_int_equal(open_with("V2003_with-password.mdb", "Password", &err), -1);
    assert_string_equal(err.sqlstate, "28000");
    assert_int_equal(open_with("V2003_with-password.mdb", "", &err), -1);
    assert_string_equal(err.sqlstate, "28000");
    assert_int_equal(open_with("V2003_with-password.mdb", "password", &err), 0);
    /* a database without a password ignores PWD */
    assert_int_equal(open_with("testV2010.accdb", "whatever", &err), 0);
}

static void test_encrypted(void **state)
{
    (void)state;
    lt_error err;
    assert_int_equal(open_with("V2010_with-password.accdb", NULL, &err), -1);
    assert_non_null(strstr(err.message, "V2010_with-password.accdb"));
    assert_non_null(strstr(err.message, "encrypt"));
    assert_non_null(strstr(err.message, "agile"));
    assert_int_equal(open_with("V2010_with-password.accdb", "password", &err), -1);
    assert_non_null(strstr(err.message, "encrypt"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_password),
        cmocka_unit_test(test_encrypted),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_byte_smash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
