/*
** test_xlsb_crypt.c — encrypted workbooks ([MS-OFFCRYPTO] 2.3.4; a
** compound file holding EncryptionInfo and EncryptedPackage).
**
** Agile encryption on the corpus's three encrypted .xlsb files (AES-256,
** SHA-512, 100,000 spins; their passwords are those of the projects they
** come from: "tika", "password", "1234"): the right password reads their
** sheets, a wrong or missing one fails with 28000 naming the file and the
** encryption.  Standard encryption (AES-128, SHA-1) on streams made by an
** independent encryptor (Python's hashlib and cryptography, following the
** spec; the arrays below) decrypts to the known plaintext.  Malformed
** EncryptionInfo (cut short, other versions, an RC4 AlgID) and damaged
** files fail cleanly.  A build without libcrypto must name the encryption
** and say it cannot decrypt: the test checks whichever the build is.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "support/corpus.h"
#include "xlsb/xlsb.h"
#include "xlsb/xlsb_internal.h"

#define XLSB_DIR LT_CORPUS_DIR "/xlsb"

/* Standard encryption, version 3.2, AES-128, password "lector", salt
** 16..31, verifier 100..115; the package is the 100 bytes (i * 7 + 3). */
static const uint8_t std_info[224] = {
    0x03, 0x00, 0x02, 0x00, 0x24, 0x00, 0x00, 0x00, 0x8c, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x0e, 0x66, 0x00, 0x00, 0x04, 0x80, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
    0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4d, 0x00, 0x69, 0x00,
    0x63, 0x00, 0x72, 0x00, 0x6f, 0x00, 0x73, 0x00, 0x6f, 0x00, 0x66, 0x00, 0x74, 0x00, 0x20, 0x00,
    0x45, 0x00, 0x6e, 0x00, 0x68, 0x00, 0x61, 0x00, 0x6e, 0x00, 0x63, 0x00, 0x65, 0x00, 0x64, 0x00,
    0x20, 0x00, 0x52, 0x00, 0x53, 0x00, 0x41, 0x00, 0x20, 0x00, 0x61, 0x00, 0x6e, 0x00, 0x64, 0x00,
    0x20, 0x00, 0x41, 0x00, 0x45, 0x00, 0x53, 0x00, 0x20, 0x00, 0x43, 0x00, 0x72, 0x00, 0x79, 0x00,
    0x70, 0x00, 0x74, 0x00, 0x6f, 0x00, 0x67, 0x00, 0x72, 0x00, 0x61, 0x00, 0x70, 0x00, 0x68, 0x00,
    0x69, 0x00, 0x63, 0x00, 0x20, 0x00, 0x50, 0x00, 0x72, 0x00, 0x6f, 0x00, 0x76, 0x00, 0x69, 0x00,
    0x64, 0x00, 0x65, 0x00, 0x72, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x11, 0x12, 0x13,
    0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x71, 0x39, 0x0f, 0xaa,
    0x9a, 0xb4, 0x32, 0x4d, 0x82, 0xa8, 0xe5, 0xe6, 0xde, 0x21, 0x8d, 0x2f, 0x14, 0x00, 0x00, 0x00,
    0x51, 0x25, 0xc4, 0x6c, 0xf1, 0x88, 0x69, 0xfa, 0x86, 0x43, 0x76, 0x28, 0xf3, 0x7b, 0x21, 0x62,
    0x4d, 0x22, 0x42, 0x30, 0x41, 0x00, 0x5b, 0x0a, 0xb9, 0x26, 0x2c, 0xd5, 0x70, 0xfb, 0x37, 0x04,
};
static const uint8_t std_package[120] = {
    0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x81, 0x3a, 0xf7, 0x1f, 0x83, 0xa0, 0x2a, 0xeb,
    0xe1, 0x03, 0x16, 0x0b, 0x73, 0xbd, 0x6f, 0x47, 0x9f, 0x41, 0x73, 0x2c, 0x74, 0x81, 0xa0, 0xd5,
    0xf5, 0xcb, 0x03, 0xe1, 0x65, 0x41, 0x2f, 0x3f, 0xde, 0xcb, 0x08, 0x0b, 0x88, 0xdc, 0x15, 0xb4,
    0x12, 0xa4, 0xf1, 0x85, 0x19, 0xcd, 0xff, 0x4f, 0x4a, 0x2d, 0xbe, 0x55, 0xa8, 0xc6, 0x3d, 0xa3,
    0x31, 0x6f, 0xf4, 0x86, 0xce, 0xe3, 0xae, 0xea, 0xbc, 0x07, 0xcd, 0xd8, 0xad, 0x31, 0x20, 0x99,
    0xba, 0x1e, 0xd0, 0xc0, 0xb4, 0xa8, 0x78, 0x16, 0x1d, 0x45, 0x65, 0xc5, 0xe7, 0xd8, 0xe6, 0x1f,
    0x05, 0x2b, 0xa3, 0x3e, 0xd1, 0xb0, 0x03, 0x3e, 0x8f, 0xbc, 0xa2, 0xa7, 0x1c, 0x29, 0x3f, 0x04,
    0xa8, 0x42, 0x79, 0x3c, 0x02, 0x0b, 0x65, 0x48,
};


static const char no_crypto[] = "built without OpenSSL's libcrypto";

typedef struct enc_file {
    const char *file, *password;
    const char *tables;      /* "name|name|..." */
} enc_file;

static const enc_file files[] = {
    {"poi_protected_passtika.xlsb", "tika", "Sheet1$"},
    {"sheetjs_poi_password.xlsb", "password", "\xd0\x9b\xd0\xb8\xd1\x81\xd1\x82" "1$|"
                                              "\xd0\x9b\xd0\xb8\xd1\x81\xd1\x82" "2$|"
                                              "\xd0\x9b\xd0\xb8\xd1\x81\xd1\x82" "3$"},
    {"calamine_pass_protected.xlsb", "1234", "Sheet1$|Sheet2$|Sheet3$"},
};

static int open_file(const char *path, const char *password, lt_source **src, lt_error *err)
{
    lt_option items[2] = {{"HDR", "No"}, {"PWD", password}};
    lt_options opts = {password ? 2 : 1, items};
    lt_error_clear(err);
    if (lt_xlsb_reader.open(path, &opts, src, err) != 0)
        return -1;
    /* A file's sheets are typed on first use: type them all now. */
    for (uint32_t t = 0; t < (*src)->ntables; t++)
        if (lt_xlsb_reader.describe(*src, t, err) != 0 && (*src)->tables[t].error == NULL) {
            lt_xlsb_reader.close(*src);
            *src = NULL;
            return -1;
        }
    return 0;
}

static void expect_error(int rc, const lt_error *err, const char *state, const char *file, const char *part)
{
    assert_int_equal(rc, -1);
    if (strcmp(err->sqlstate, state) != 0 || strstr(err->message, file) == NULL ||
        strstr(err->message, part) == NULL)
        fail_msg("want %s naming '%s' and '%s', got %s %s", state, file, part, err->sqlstate, err->message);
}

static void test_agile(void **state)
{
    (void)state;
    bool can = lt_xlsb_can_decrypt();
    if (!can)
        print_message("this build has no libcrypto: checking the error that says so\n");
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const enc_file *f = &files[i];
        char path[512];
        snprintf(path, sizeof path, "%s/%s", XLSB_DIR, f->file);
        lt_source *src = NULL;
        lt_error err;
        int rc = open_file(path, f->password, &src, &err);
        if (!can) {
            expect_error(rc, &err, "HY000", f->file, no_crypto);
            assert_non_null(strstr(err.message, "Agile encryption (AES-256, SHA512)"));
            continue;
        }
        if (rc != 0)
            fail_msg("%s: %s", f->file, err.message);
        ts_str names = {0};
        for (uint32_t t = 0; t < src->ntables; t++) {
            ts_printf(&names, "%s%s", t ? "|" : "", src->tables[t].name);
            ts_result res;
            ts_scan(src, t, 3, &res);
            if (!res.ok)
                fail_msg("%s %s: %s", f->file, src->tables[t].name, res.message);
            ts_result_free(&res);
        }
        assert_string_equal(names.p, f->tables);
        free(names.p);
        src->reader->close(src);
        rc = open_file(path, "wrong", &src, &err);
        expect_error(rc, &err, "28000", f->file, "wrong password for this workbook (Agile encryption (AES-256, SHA512))");
        rc = open_file(path, NULL, &src, &err);
        expect_error(rc, &err, "28000", f->file, "give its password with PWD=");
        /* Password= is PWD='s other name */
        lt_option alias[1] = {{"Password", f->password}};
        lt_options opts = {1, alias};
        if (lt_xlsb_reader.open(path, &opts, &src, &err) != 0)
            fail_msg("%s with Password=: %s", f->file, err.message);
        src->reader->close(src);
    }
}

/* calamine's Sheet3$ holds values: read them through the decrypted package. */
static void test_agile_values(void **state)
{
    (void)state;
    if (!lt_xlsb_can_decrypt())
        return;
    lt_source *src;
    lt_error err;
    if (open_file(XLSB_DIR "/calamine_pass_protected.xlsb", "1234", &src, &err) != 0)
        fail_msg("%s", err.message);
    int64_t ti = lt_source_find_table(src, "Sheet3", 6);
    assert_true(ti >= 0);
    ts_result res;
    ts_scan(src, (uint32_t)ti, 2048, &res);
    assert_true(res.ok);
    assert_true(res.rows.n >= 2);
    size_t values = 0;
    for (size_t r = 0; r < res.rows.n; r++)
        for (size_t c = 0; c < res.rows.rows[r].n; c++)
            values += !res.rows.rows[r].cells[c].null;
    assert_true(values > 0);
    ts_result_free(&res);
    src->reader->close(src);
}

static void test_standard(void **state)
{
    (void)state;
    uint8_t *out = NULL;
    size_t len = 0;
    lt_error err;
    int rc = xlsb_decrypt_streams(std_info, sizeof std_info, std_package, sizeof std_package, "std.xlsb", "lector",
                                  &out, &len, &err);
    if (!lt_xlsb_can_decrypt()) {
        expect_error(rc, &err, "HY000", "std.xlsb", "Standard encryption (AES-128, SHA-1)");
        return;
    }
    if (rc != 0)
        fail_msg("%s", err.message);
    assert_int_equal(len, 100);
    for (size_t i = 0; i < len; i++)
        assert_int_equal(out[i], (uint8_t)(i * 7 + 3));
    free(out);
    rc = xlsb_decrypt_streams(std_info, sizeof std_info, std_package, sizeof std_package, "std.xlsb", "Lector", &out,
                              &len, &err);
    expect_error(rc, &err, "28000", "std.xlsb", "wrong password for this workbook (Standard encryption (AES-128, SHA-1))");
    rc = xlsb_decrypt_streams(std_info, sizeof std_info, std_package, sizeof std_package, "std.xlsb", NULL, &out, &len,
                              &err);
    expect_error(rc, &err, "28000", "std.xlsb", "give its password with PWD=");
    /* the package cut short of its stated size */
    rc = xlsb_decrypt_streams(std_info, sizeof std_info, std_package, 8 + 96, "std.xlsb", "lector", &out, &len, &err);
    expect_error(rc, &err, "HY000", "std.xlsb", "cut short");
}

static void test_malformed_info(void **state)
{
    (void)state;
    uint8_t info[sizeof std_info];
    uint8_t *out;
    size_t len;
    lt_error err;
    /* every truncation fails, naming the file */
    for (size_t n = 0; n < sizeof std_info; n++) {
        int rc = xlsb_decrypt_streams(std_info, n, std_package, sizeof std_package, "cut.xlsb", "lector", &out, &len,
                                      &err);
        assert_int_equal(rc, -1);
        assert_non_null(strstr(err.message, "cut.xlsb"));
    }
    /* Extensible encryption (version 4.3) and RC4 are named, not read */
    memcpy(info, std_info, sizeof info);
    info[0] = 4;
    info[2] = 3;
    assert_int_equal(xlsb_decrypt_streams(info, sizeof info, std_package, sizeof std_package, "ext.xlsb", "lector",
                                          &out, &len, &err), -1);
    assert_non_null(strstr(err.message, "Extensible encryption"));
    memcpy(info, std_info, sizeof info);
    info[20] = 0x01;
    info[21] = 0x68;
    assert_int_equal(xlsb_decrypt_streams(info, sizeof info, std_package, sizeof std_package, "rc4.xlsb", "lector",
                                          &out, &len, &err), -1);
    assert_non_null(strstr(err.message, "Standard encryption (RC4, SHA-1)"));
    /* an Agile descriptor without its key encryptor */
    static const char agile[] = "\x04\x00\x04\x00\x40\x00\x00\x00<?xml version=\"1.0\"?><encryption><keyData "
                                "saltSize=\"16\" blockSize=\"16\" keyBits=\"256\" hashSize=\"64\" cipherAlgorithm=\"AES\" "
                                "cipherChaining=\"ChainingModeCBC\" hashAlgorithm=\"SHA512\" saltValue=\"AAAA\"/></encryption>";
    assert_int_equal(xlsb_decrypt_streams((const uint8_t *)agile, sizeof agile - 1, std_package, sizeof std_package,
                                          "agile.xlsb", "x", &out, &len, &err), -1);
    assert_string_equal(err.sqlstate, "HY000");
    assert_non_null(strstr(err.message, "agile.xlsb"));
}

/* An encrypted file cut short or with bits flipped fails cleanly. */
static void test_damaged(void **state)
{
    (void)state;
    size_t size;
    char *data = ts_slurp(XLSB_DIR "/poi_protected_passtika.xlsb", &size);
    assert_non_null(data);
    lt_option items[1] = {{"PWD", "tika"}};
    lt_options opts = {1, items};
    uint8_t *copy = malloc(size);
    for (size_t cut = 0; cut < size; cut += size / 23 + 1) {
        lt_source *src;
        lt_error err;
        memcpy(copy, data, cut);
        if (lt_xlsb_open_memory(copy, cut, "cut.xlsb", &opts, &src, &err) == 0)
            fail_msg("a file cut at %zu of %zu bytes opened", cut, size);
        assert_non_null(strstr(err.message, "cut.xlsb"));
    }
    for (size_t k = 0; k < 24; k++) {
        lt_source *src;
        lt_error err;
        memcpy(copy, data, size);
        size_t at = (k * 7919u) % size;
        copy[at] ^= (uint8_t)(1u << (k % 8));
        if (lt_xlsb_open_memory(copy, size, "flip.xlsb", &opts, &src, &err) == 0) {
            for (uint32_t t = 0; t < src->ntables; t++) {
                ts_result res;
                ts_scan(src, t, 2048, &res);
                ts_result_free(&res);
            }
            src->reader->close(src);
        } else {
            assert_non_null(strstr(err.message, "flip.xlsb"));
        }
    }
    free(copy);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agile),
        cmocka_unit_test(test_agile_values),
        cmocka_unit_test(test_standard),
        cmocka_unit_test(test_malformed_info),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
