/*
** test_xls_crypt.c — encrypted workbooks of the corpus: RC4 under Excel's
** default password (read without PWD=), RC4, RC4 CryptoAPI and XOR
** obfuscation with a real password (read with the right PWD=; without it,
** or with a wrong one, a 28000 error that names the file and the
** encryption).  The decrypted content checks MD5, SHA-1, RC4 and the XOR
** array end to end.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "reader.h"
#include "xls/xls.h"

#define XLS_DIR LT_CORPUS_DIR "/xls/"

static int open_with(const char *file, const char *pwd, lt_source **src, lt_error *err)
{
    lt_option items[2] = {{"HDR", "No"}, {"PWD", pwd}};
    lt_options opts = {pwd != NULL ? 2 : 1, items};
    lt_error_clear(err);
    *src = NULL;
    if (lt_xls_reader.open(file, &opts, src, err) != 0)
        return -1;
    /* A file's sheets are typed on first use: type them all now. */
    for (uint32_t t = 0; t < (*src)->ntables; t++)
        if (lt_xls_reader.describe(*src, t, err) != 0 && (*src)->tables[t].error == NULL) {
            lt_xls_reader.close(*src);
            *src = NULL;
            return -1;
        }
    return 0;
}

/* The first column of table 0, as "v1,v2,..." (NULL as "-"). */
static void first_column(lt_source *src, char *out, size_t cap)
{
    const lt_table *t = &src->tables[0];
    assert_null(t->error);
    uint32_t col = 0;
    lt_type type = t->cols[0].type;
    lt_scan_spec spec = {.table = 0, .ncols = 1, .cols = &col, .limit = -1};
    lt_batch *b = lt_batch_new(1, &type, NULL, 64);
    lt_scan *scan;
    lt_error err;
    size_t len = 0;
    out[0] = '\0';
    assert_int_equal(src->reader->scan_open(src, &spec, &scan, &err), 0);
    while (src->reader->scan_next(scan, b, &err) == 0 && b->count > 0)
        for (uint32_t r = 0; r < b->count; r++) {
            lt_value v;
            lt_batch_get(b, 0, r, &v);
            if (v.type == LT_TEXT)
                len += (size_t)snprintf(out + len, cap - len, "%s%.*s", len ? "," : "", (int)v.u.bytes.len, v.u.bytes.ptr);
            else if (v.type == LT_INT64)
                len += (size_t)snprintf(out + len, cap - len, "%s%lld", len ? "," : "", (long long)v.u.i64);
            else
                len += (size_t)snprintf(out + len, cap - len, "%s-", len ? "," : "");
        }
    src->reader->scan_close(scan);
    lt_batch_free(b);
}

static void expect_read(const char *file, const char *pwd, const char *table, const char *want)
{
    lt_source *src;
    lt_error err;
    if (open_with(file, pwd, &src, &err) != 0) {
        print_error("%s: %s\n", file, err.message);
        fail();
    }
    assert_string_equal(src->tables[0].name, table);
    char got[512];
    first_column(src, got, sizeof got);
    assert_string_equal(got, want);
    src->reader->close(src);
}

static void expect_refused(const char *file, const char *pwd, const char *kind, const char *why)
{
    lt_source *src;
    lt_error err;
    assert_int_equal(open_with(file, pwd, &src, &err), -1);
    assert_null(src);
    assert_string_equal(err.sqlstate, "28000");
    assert_non_null(strstr(err.message, file));
    assert_non_null(strstr(err.message, kind));
    assert_non_null(strstr(err.message, why));
}

static void test_default_password(void **state)
{
    (void)state;
    lt_source *src;
    lt_error err;
    assert_int_equal(open_with(XLS_DIR "calamine_rc4_default_password.xls", NULL, &src, &err), 0);
    assert_int_equal(src->ntables, 1);
    assert_string_equal(src->tables[0].name, "Sheet1$");
    assert_int_equal(src->tables[0].row_estimate, 0);
    src->reader->close(src);
}

static void test_rc4(void **state)
{
    (void)state;
    const char *f = XLS_DIR "gen_encrypted_password.xls";
    expect_refused(f, NULL, "RC4", "PWD=");
    expect_refused(f, "Lector", "RC4", "not its password");
    expect_read(f, "lector", "Secret$", "you should not read this");
}

static void test_rc4_cryptoapi(void **state)
{
    (void)state;
    const char *f = XLS_DIR "sheetjs_password_2002_128_strong.xls";
    expect_refused(f, NULL, "RC4 CryptoAPI", "PWD=");
    expect_refused(f, "passwort", "RC4 CryptoAPI", "not its password");
    expect_read(f, "password", "Sheet1$", "1,2,3,4");
}

static void test_xor(void **state)
{
    (void)state;
    const char *f8 = XLS_DIR "poi_xor_password_abc.xls", *f5 = XLS_DIR "sheetjs_biff5_password_xor.xls";
    expect_refused(f8, NULL, "XOR obfuscation", "PWD=");
    expect_refused(f8, "abd", "XOR obfuscation", "not its password");
    expect_refused(f8, "a password longer than fifteen", "XOR obfuscation", "not its password");
    expect_read(f8, "abc", "Sheet1$", "1,2,3");
    expect_refused(f5, NULL, "XOR obfuscation", "PWD=");
    expect_read(f5, "password", "Sheet1$", "1,2,3,4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_password),
        cmocka_unit_test(test_rc4),
        cmocka_unit_test(test_rc4_cryptoapi),
        cmocka_unit_test(test_xor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
