/*
** header.c — the database definition page (page 0) of an Access file.
**
** Page 0 names the engine ("Standard Jet DB" / "Standard ACE DB"), the
** version (byte 0x14), and, in a block from 0x18 masked with a fixed RC4 key,
** the code page (0x3C), the page-encoding key (0x3E), the database password
** (0x42) and, in Jet 4 and later, the creation date (0x72) whose integer part
** masks the password once more.
**
** A non-zero page-encoding key means: Jet 3/Jet 4 — every page but page 0 is
** RC4-encoded with the key XOR the page number (decoded here, once, into a
** private copy); ACE — the file is encrypted by an Office crypto provider,
** which Lector does not decrypt yet (a clear error naming the provider).
*/
#include "access_internal.h"

#include "../common/codepage.h"
#include "../common/endian.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mdb_format mdb_jet3_format = {
    .page_size = 2048,
    .data_nrows = 8,
    .count_size = 1,
    .tdef_nrows = 12, .tdef_type = 20, .tdef_nvar = 23, .tdef_ncols = 25,
    .tdef_nidx = 27, .tdef_nreal = 31, .tdef_usage = 35, .tdef_real_start = 43,
    .real_entry = 8,
    .col_entry = 18, .col_number = 1, .col_var_index = 3, .col_flags = 13,
    .col_fixed = 14, .col_length = 16, .col_prec = 9, .col_scale = 10,
    .col_codepage = 9,
    .name_len_size = 1,
    .real_def = 39, .real_cols = 0, .real_flags = 38,
    .logical_def = 20, .logical_real = 4, .logical_type = 19,
};

const mdb_format mdb_jet4_format = {
    .page_size = 4096,
    .data_nrows = 12,
    .count_size = 2,
    .tdef_nrows = 16, .tdef_type = 40, .tdef_nvar = 43, .tdef_ncols = 45,
    .tdef_nidx = 47, .tdef_nreal = 51, .tdef_usage = 55, .tdef_real_start = 63,
    .real_entry = 12,
    .col_entry = 25, .col_number = 5, .col_var_index = 7, .col_flags = 15,
    .col_fixed = 21, .col_length = 23, .col_prec = 11, .col_scale = 12,
    .col_codepage = 0,
    .name_len_size = 2,
    .real_def = 52, .real_cols = 4, .real_flags = 42,
    .logical_def = 28, .logical_real = 8, .logical_type = 23,
};

#define HDR_VERSION 0x14
#define HDR_MASKED 0x18
#define HDR_CODEPAGE 0x3c
#define HDR_KEY 0x3e
#define HDR_PASSWORD 0x42
#define HDR_CREATED 0x72
#define HDR_CRYPT_INFO 0x299

void mdb_rc4(const uint8_t *key, size_t keylen, const uint8_t *in, uint8_t *out,
             size_t len)
{
    uint8_t s[256];
    for (int i = 0; i < 256; i++)
        s[i] = (uint8_t)i;
    for (unsigned i = 0, j = 0; i < 256; i++) {
        j = (j + s[i] + key[i % keylen]) & 0xff;
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    unsigned i = 0, j = 0;
    for (size_t k = 0; k < len; k++) {
        i = (i + 1) & 0xff;
        j = (j + s[i]) & 0xff;
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
        out[k] = in[k] ^ s[(s[i] + s[j]) & 0xff];
    }
}

int mdb_corrupt(const mdb_db *db, uint32_t pgno, const char *what, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: %s", db->path, pgno, what);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

/* What an ACE file's crypto provider block (at 0x299) says it is. */
static const char *office_crypto_name(const mdb_db *db, unsigned *major, unsigned *minor)
{
    const uint8_t *h = db->header;
    uint16_t info_len = lt_le16(h + HDR_CRYPT_INFO);
    *major = *minor = 0;
    if (info_len < 8 || HDR_CRYPT_INFO + 2 + (size_t)info_len > db->page_size)
        return "an unknown Office encryption provider";
    const uint8_t *info = h + HDR_CRYPT_INFO + 2;
    *major = lt_le16(info);
    *minor = lt_le16(info + 2);
    uint32_t flags = lt_le32(info + 4);
    if (*major == 4 && *minor == 4)
        return "Office agile encryption (AES, password-derived key)";
    if ((*major == 3 || *major == 4) && *minor == 3)
        return "Office extensible encryption";
    if ((*major == 2 || *major == 3 || *major == 4) && *minor == 2) {
        if (flags & 0x20)       /* fAES */
            return "Office standard encryption (AES)";
        if (flags & 0x04)       /* fCryptoAPI */
            return "Office RC4 CryptoAPI encryption";
        return "an unknown Office encryption";
    }
    if (*major == 1 && *minor == 1)
        return "Office RC4 encryption";
    return "an unknown Office encryption provider";
}

/* Jet 3/Jet 4 page encoding: decode every page but page 0 into a copy. */
static int decode_pages(mdb_db *db, lt_error *err)
{
    uint8_t *copy = malloc(db->size);
    if (copy == NULL)
        return lt_error_set(err, "HY001", "out of memory decoding '%s'", db->path);
    memcpy(copy, db->data, db->size);
    const uint8_t *key = db->header + HDR_KEY;
    for (uint32_t pg = 1; pg < db->npages; pg++) {
        uint8_t k[4];
        for (int i = 0; i < 4; i++)
            k[i] = key[i] ^ (uint8_t)(pg >> (8 * i));
        uint8_t *p = copy + (size_t)pg * db->page_size;
        mdb_rc4(k, 4, p, p, db->page_size);
    }
    db->decoded = copy;
    db->data = copy;
    return 0;
}

/* The database password as UTF-8 (empty when there is none). */
static void stored_password(const mdb_db *db, char *out, size_t cap)
{
    uint8_t pw[40];
    size_t n = db->jet3 ? 20 : 40;
    memcpy(pw, db->header + HDR_PASSWORD, n);
    if (!db->jet3) {
        double created = lt_le_double(db->header + HDR_CREATED);
        int32_t mask = 0;
        if (isfinite(created) && created > -2147483648.0 && created < 2147483647.0)
            mask = (int32_t)mdb_floor(created);
        for (size_t i = 0; i < n; i++)
            pw[i] ^= (uint8_t)((uint32_t)mask >> (8 * (i % 4)));
    }
    size_t len = 0;
    if (db->jet3) {
        while (len < n && pw[len] != 0)
            len++;
        char tmp[LT_CODEPAGE_MAX_UTF8(20) + 1];
        size_t u = lt_codepage_decode(mdb_codepage(db, NULL), pw, len, tmp);
        tmp[u] = '\0';
        snprintf(out, cap, "%s", tmp);
        return;
    }
    while (len + 1 < n && (pw[len] != 0 || pw[len + 1] != 0))
        len += 2;
    char tmp[3 * 20 + 1];
    size_t u = mdb_utf16_to_utf8(pw, len, tmp);
    tmp[u] = '\0';
    snprintf(out, cap, "%s", tmp);
}

static int check_password(const mdb_db *db, const lt_options *opts, lt_error *err)
{
    char stored[128];
    stored_password(db, stored, sizeof stored);
    if (stored[0] == '\0')
        return 0;
    const char *given = lt_options_get(opts, "PWD");
    if (given == NULL)
        given = lt_options_get(opts, "Password");
    if (given == NULL || given[0] == '\0')
        return lt_error_set(err, "28000",
                            "'%s' is protected by a database password: connect with PWD=<password>",
                            db->path);
    if (strcmp(given, stored) != 0)
        return lt_error_set(err, "28000", "'%s': not a valid password (PWD=) for this database",
                            db->path);
    return 0;
}

/* CodePage=NNNN or CharSet=NAME: the code page of Jet 3 text. */
static int option_codepage(const mdb_db *db, const lt_options *opts, int *cp, lt_error *err)
{
    const char *v = lt_options_get(opts, "CodePage");
    if (v == NULL)
        v = lt_options_get(opts, "CharSet");
    *cp = 0;
    if (v == NULL || *v == '\0')
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end == '\0' && n > 0 && n < 100000 && lt_codepage_known((int)n))
        *cp = (int)n;
    else
        *cp = lt_codepage_from_name(v, strlen(v));
    if (*cp == 0 || !lt_codepage_known(*cp))
        return lt_error_set(err, "HY024", "'%s': unknown code page '%s' (CodePage=)", db->path, v);
    return 0;
}

int mdb_header_parse(mdb_db *db, const char *path, const uint8_t *data,
                     size_t size, const lt_options *opts, lt_error *err)
{
    memset(db, 0, sizeof *db);
    db->path = path;
    db->data = data;
    db->size = size;
    static const uint8_t magic[4] = {0x00, 0x01, 0x00, 0x00};
    if (size < 0x80 || memcmp(data, magic, 4) != 0)
        return lt_error_set(err, "HY000", "'%s' is not an Access database (no Jet/ACE signature)", path);
    if (memcmp(data + 4, "MSISAM Database", 15) == 0)
        return lt_error_set(err, "HY000", "'%s' is a Microsoft Money (MSISAM) file, not an Access database", path);
    if (memcmp(data + 4, "Standard Jet DB", 16) != 0 && memcmp(data + 4, "Standard ACE DB", 16) != 0)
        return lt_error_set(err, "HY000", "'%s' is not an Access database (no Jet/ACE signature)", path);
    db->version = data[HDR_VERSION];
    if (db->version > MDB_VER_ACE17)
        return lt_error_set(err, "HY000", "'%s': unknown Access file version %d", path, db->version);
    db->jet3 = db->version == MDB_VER_JET3;
    db->fmt = db->jet3 ? &mdb_jet3_format : &mdb_jet4_format;
    db->page_size = db->fmt->page_size;
    if (size < 2 * (size_t)db->page_size)
        return lt_error_set(err, "HY000", "'%s' is truncated: %zu bytes, less than two %u-byte pages",
                            path, size, db->page_size);
    if (size / db->page_size > UINT32_MAX / 2)
        return lt_error_set(err, "HY000", "'%s' is too large", path);
    db->npages = (uint32_t)(size / db->page_size);
    memcpy(db->header, data, db->page_size);
    size_t masked = db->jet3 ? 126 : 128;
    static const uint8_t header_key[4] = {0xc7, 0xda, 0x39, 0x6b};
    mdb_rc4(header_key, 4, db->header + HDR_MASKED, db->header + HDR_MASKED, masked);

    int cp;
    if (option_codepage(db, opts, &cp, err) != 0)
        return -1;
    db->codepage_option = cp;
    if (db->jet3) {
        int h = lt_le16(db->header + HDR_CODEPAGE);
        db->codepage = lt_codepage_known(h) ? h : 0;
    }

    if (!all_zero(db->header + HDR_KEY, 4)) {
        if (!db->jet3 && db->version != MDB_VER_JET4) {
            unsigned major, minor;
            const char *name = office_crypto_name(db, &major, &minor);
            return lt_error_set(err, "HY000",
                                "'%s' is encrypted with %s (crypto provider %u.%u); Lector cannot "
                                "decrypt encrypted .accdb files yet: remove the database password in "
                                "Access (File > Info > Decrypt Database) to read it",
                                path, name, major, minor);
        }
        if (decode_pages(db, err) != 0)
            return -1;
    }
    if (db->jet3 || db->version == MDB_VER_JET4)
        return check_password(db, opts, err);
    return 0;
}

void mdb_db_free(mdb_db *db)
{
    free(db->decoded);
    db->decoded = NULL;
}
