/*
** crypt.c — password-encrypted workbooks ([MS-OFFCRYPTO] 2.3.4): a compound
** file whose EncryptionInfo stream says how, and whose EncryptedPackage
** stream holds the ZIP package encrypted.  Read:
**   Standard encryption (2.3.4.5, version 2-4.2): AES-128/192/256 in ECB
**     mode, the key from SHA-1 over the salted UTF-16 password, 50,000
**     rounds (2.3.4.7), checked against the verifier (2.3.4.9);
**   Agile encryption (2.3.4.10, version 4.4): an XML descriptor; the
**     password key from the named hash (SHA-1/256/384/512) run spinCount
**     times, checked against the verifier, unwraps the package key; the
**     package is AES-CBC in 4096-byte segments, each with its own IV, the
**     hash of the salt and the segment number.
** Without PWD= the password Excel uses for "read-only recommended" files,
** "VelvetSweatshop", is tried.  Extensible encryption, RC4 CryptoAPI and
** rights-managed packages fail with a message naming them.  The ciphers
** and hashes are OpenSSL's libcrypto (LT_HAVE_LIBCRYPTO); a build without
** it names the encryption and says it cannot decrypt.  The package's HMAC
** (dataIntegrity) is not checked: a wrong key is caught by the verifier,
** damage by the ZIP's CRC-32s.
**
** The compound file is read by the .xls reader's cfb.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/endian.h"
#include "../xls/xls_internal.h"
#include "xlsb.h"
#include "xlsb_internal.h"

#ifdef LT_HAVE_LIBCRYPTO
#include <dlfcn.h>
#include <pthread.h>

#include <openssl/evp.h>
#endif

#define DEFAULT_PASSWORD "VelvetSweatshop"
#define SEGMENT 4096

/* What EncryptionInfo says, enough to name it and to decrypt. */
typedef struct crypt_info {
    int kind;                   /* 0 unknown, 1 standard, 2 agile, 3 extensible */
    char name[96];              /* "Agile encryption (AES-256, SHA512)" */
    /* Standard */
    uint32_t alg, key_bits;
    const uint8_t *salt, *verifier, *verifier_hash;
    uint32_t salt_len;
    /* Agile: the package (keyData) and the password key encryptor */
    char cipher[16], chaining[32], hash[16], pcipher[16], pchaining[32], phash[16];
    uint8_t data_salt[64], pw_salt[64], vin[64], vhash[128], ekey[128];
    size_t data_salt_len, pw_salt_len, vin_len, vhash_len, ekey_len;
    uint32_t key_bytes, block, pkey_bytes, pblock, spin;
} crypt_info;

/* ---- EncryptionInfo ------------------------------------------------------------ */

/* The value of attribute `attr` of the first element named `el` (any
** namespace prefix) inside xml[0..len), copied into out; false when absent. */
static bool xml_attr(const char *xml, size_t len, const char *el, const char *attr, char *out, size_t cap)
{
    size_t el_len = strlen(el), at_len = strlen(attr);
    for (size_t i = 0; i + el_len + 1 < len; i++) {
        if (xml[i] != '<')
            continue;
        size_t j = i + 1;
        while (j < len && xml[j] != ' ' && xml[j] != '>' && xml[j] != ':' && xml[j] != '/')
            j++;
        size_t name_at = j < len && xml[j] == ':' ? j + 1 : i + 1;
        if (name_at + el_len > len || memcmp(xml + name_at, el, el_len) != 0 ||
            (xml[name_at + el_len] != ' ' && xml[name_at + el_len] != '\t' && xml[name_at + el_len] != '\r' &&
             xml[name_at + el_len] != '\n'))
            continue;
        size_t end = name_at;
        while (end < len && xml[end] != '>')
            end++;
        for (size_t k = name_at + el_len; k + at_len + 2 < end; k++) {
            if ((xml[k - 1] == ' ' || xml[k - 1] == '\t' || xml[k - 1] == '\n' || xml[k - 1] == '\r') &&
                memcmp(xml + k, attr, at_len) == 0 && xml[k + at_len] == '=' &&
                (xml[k + at_len + 1] == '"' || xml[k + at_len + 1] == '\'')) {
                char q = xml[k + at_len + 1];
                size_t v = k + at_len + 2, e = v;
                while (e < end && xml[e] != q)
                    e++;
                if (e >= end || e - v >= cap)
                    return false;
                memcpy(out, xml + v, e - v);
                out[e - v] = '\0';
                return true;
            }
        }
        return false;
    }
    return false;
}

static int b64_digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 text into out (cap bytes); false when malformed or too long. */
static bool b64_decode(const char *s, uint8_t *out, size_t cap, size_t *len)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (; *s != '\0' && *s != '='; s++) {
        int d = b64_digit(*s);
        if (d < 0)
            return false;
        acc = acc << 6 | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n == cap)
                return false;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    *len = n;
    return true;
}

static bool attr_u32(const char *xml, size_t len, const char *el, const char *attr, uint32_t *out)
{
    char v[16];
    if (!xml_attr(xml, len, el, attr, v, sizeof v))
        return false;
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (end == v || *end != '\0' || n > 10000000)
        return false;
    *out = (uint32_t)n;
    return true;
}

static bool attr_b64(const char *xml, size_t len, const char *el, const char *attr, uint8_t *out, size_t cap,
                     size_t *n)
{
    char v[512];
    return xml_attr(xml, len, el, attr, v, sizeof v) && b64_decode(v, out, cap, n);
}

/* The Agile descriptor: keyData for the package, the password's
** encryptedKey (the key encryptor whose uri names a password). */
static bool parse_agile(const char *x, size_t n, crypt_info *ci)
{
    uint32_t key_bits = 0, pkey_bits = 0;
    bool ok = xml_attr(x, n, "keyData", "cipherAlgorithm", ci->cipher, sizeof ci->cipher) &&
              xml_attr(x, n, "keyData", "cipherChaining", ci->chaining, sizeof ci->chaining) &&
              xml_attr(x, n, "keyData", "hashAlgorithm", ci->hash, sizeof ci->hash) &&
              attr_u32(x, n, "keyData", "keyBits", &key_bits) && attr_u32(x, n, "keyData", "blockSize", &ci->block) &&
              attr_b64(x, n, "keyData", "saltValue", ci->data_salt, sizeof ci->data_salt, &ci->data_salt_len);
    snprintf(ci->name, sizeof ci->name, "Agile encryption (%s-%u, %s)", ok ? ci->cipher : "?", (unsigned)key_bits,
             ok ? ci->hash : "?");
    ok = ok && xml_attr(x, n, "encryptedKey", "cipherAlgorithm", ci->pcipher, sizeof ci->pcipher) &&
         xml_attr(x, n, "encryptedKey", "cipherChaining", ci->pchaining, sizeof ci->pchaining) &&
         xml_attr(x, n, "encryptedKey", "hashAlgorithm", ci->phash, sizeof ci->phash) &&
         attr_u32(x, n, "encryptedKey", "keyBits", &pkey_bits) &&
         attr_u32(x, n, "encryptedKey", "blockSize", &ci->pblock) &&
         attr_u32(x, n, "encryptedKey", "spinCount", &ci->spin) &&
         attr_b64(x, n, "encryptedKey", "saltValue", ci->pw_salt, sizeof ci->pw_salt, &ci->pw_salt_len) &&
         attr_b64(x, n, "encryptedKey", "encryptedVerifierHashInput", ci->vin, sizeof ci->vin, &ci->vin_len) &&
         attr_b64(x, n, "encryptedKey", "encryptedVerifierHashValue", ci->vhash, sizeof ci->vhash, &ci->vhash_len) &&
         attr_b64(x, n, "encryptedKey", "encryptedKeyValue", ci->ekey, sizeof ci->ekey, &ci->ekey_len);
    ci->key_bytes = key_bits / 8;
    ci->pkey_bytes = pkey_bits / 8;
    return ok && ci->key_bytes > 0 && ci->key_bytes <= 64 && ci->pkey_bytes > 0 && ci->pkey_bytes <= 64 &&
           ci->block >= 8 && ci->block <= 64 && ci->pblock >= 8 && ci->pblock <= 64;
}

static const char *alg_name(uint32_t alg)
{
    switch (alg) {
    case 0x660E: return "AES-128";
    case 0x660F: return "AES-192";
    case 0x6610: return "AES-256";
    case 0x6801: return "RC4";
    default: return "an unknown cipher";
    }
}

/* 0, or -1 (err) when EncryptionInfo is malformed. */
static int parse_info(const uint8_t *p, size_t n, const char *label, crypt_info *ci, lt_error *err)
{
    memset(ci, 0, sizeof *ci);
    if (n < 8)
        return lt_error_set(err, "HY000", "'%s': the EncryptionInfo stream is too short", label);
    uint16_t major = lt_le16(p), minor = lt_le16(p + 2);
    if (major == 4 && minor == 4) {
        ci->kind = 2;
        if (!parse_agile((const char *)p + 8, n - 8, ci))
            return lt_error_set(err, "HY000", "'%s': the Agile EncryptionInfo descriptor lacks a field Lector needs",
                                label);
        return 0;
    }
    if ((major == 3 || major == 4) && minor == 3) {
        ci->kind = 3;
        snprintf(ci->name, sizeof ci->name, "Extensible encryption");
        return 0;
    }
    if (major < 2 || major > 4 || minor != 2)
        return lt_error_set(err, "HY000", "'%s': EncryptionInfo version %u.%u is not one [MS-OFFCRYPTO] defines",
                            label, (unsigned)major, (unsigned)minor);
    /* Standard: flags, header size, header, verifier. */
    uint32_t hsize = lt_le32(p + 8);
    if (n < 12 || hsize < 32 || hsize > n - 12 || n - 12 - hsize < 4 + 16 + 16 + 4 + 32)
        return lt_error_set(err, "HY000", "'%s': the Standard EncryptionInfo header is cut short", label);
    const uint8_t *h = p + 12, *v = h + hsize;
    ci->kind = 1;
    ci->alg = lt_le32(h + 8);
    ci->key_bits = lt_le32(h + 16);
    ci->salt_len = lt_le32(v);
    if (ci->salt_len != 16)
        return lt_error_set(err, "HY000", "'%s': a Standard encryption salt of %u bytes (16 expected)", label,
                            (unsigned)ci->salt_len);
    ci->salt = v + 4;
    ci->verifier = v + 20;
    ci->verifier_hash = v + 40;
    snprintf(ci->name, sizeof ci->name, "Standard encryption (%s, SHA-1)", alg_name(ci->alg));
    return 0;
}

/* ---- decryption ------------------------------------------------------------------ */

#ifdef LT_HAVE_LIBCRYPTO

/*
** libcrypto is loaded on the first encrypted workbook, not linked: every
** connection would otherwise pay for loading it (about 0.7 ms, a third of
** a `SELECT 1` round trip) to read files that are almost never encrypted.
*/
static struct {
    const EVP_MD *(*sha1)(void), *(*sha256)(void), *(*sha384)(void), *(*sha512)(void);
    EVP_MD_CTX *(*MD_CTX_new)(void);
    int (*DigestInit_ex)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
    int (*DigestUpdate)(EVP_MD_CTX *, const void *, size_t);
    int (*DigestFinal_ex)(EVP_MD_CTX *, unsigned char *, unsigned int *);
    void (*MD_CTX_free)(EVP_MD_CTX *);
    const EVP_CIPHER *(*aes_128_cbc)(void), *(*aes_128_ecb)(void), *(*aes_192_cbc)(void),
        *(*aes_192_ecb)(void), *(*aes_256_cbc)(void), *(*aes_256_ecb)(void);
    EVP_CIPHER_CTX *(*CIPHER_CTX_new)(void);
    int (*DecryptInit_ex)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *,
                          const unsigned char *);
    int (*CIPHER_CTX_set_padding)(EVP_CIPHER_CTX *, int);
    int (*DecryptUpdate)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*DecryptFinal_ex)(EVP_CIPHER_CTX *, unsigned char *, int *);
    void (*CIPHER_CTX_free)(EVP_CIPHER_CTX *);
} lc;
static bool lc_loaded;
static pthread_once_t lc_once = PTHREAD_ONCE_INIT;

static void lc_load(void)
{
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return;
    bool ok = true;
    /* POSIX: dlsym's object pointer copied into the function pointer. */
#define LC(field)                                              \
    do {                                                       \
        void *p_ = dlsym(lib, "EVP_" #field);                  \
        ok = ok && p_ != NULL;                                 \
        memcpy(&lc.field, &p_, sizeof p_);                     \
    } while (0)
    LC(sha1); LC(sha256); LC(sha384); LC(sha512);
    LC(MD_CTX_new); LC(DigestInit_ex); LC(DigestUpdate); LC(DigestFinal_ex); LC(MD_CTX_free);
    LC(aes_128_cbc); LC(aes_128_ecb); LC(aes_192_cbc); LC(aes_192_ecb); LC(aes_256_cbc); LC(aes_256_ecb);
    LC(CIPHER_CTX_new); LC(DecryptInit_ex); LC(CIPHER_CTX_set_padding); LC(DecryptUpdate);
    LC(DecryptFinal_ex); LC(CIPHER_CTX_free);
#undef LC
    lc_loaded = ok;   /* the library stays loaded for the process */
}

static const EVP_MD *digest(const char *name)
{
    if (strcmp(name, "SHA1") == 0 || strcmp(name, "SHA-1") == 0)
        return lc.sha1();
    if (strcmp(name, "SHA256") == 0)
        return lc.sha256();
    if (strcmp(name, "SHA384") == 0)
        return lc.sha384();
    if (strcmp(name, "SHA512") == 0)
        return lc.sha512();
    return NULL;
}

/* H(a || b) into out; its length. */
static unsigned hash2(const EVP_MD *md, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, uint8_t *out)
{
    unsigned len = 0;
    EVP_MD_CTX *c = lc.MD_CTX_new();
    if (c != NULL && lc.DigestInit_ex(c, md, NULL) == 1 && lc.DigestUpdate(c, a, an) == 1 &&
        (bn == 0 || lc.DigestUpdate(c, b, bn) == 1))
        lc.DigestFinal_ex(c, out, &len);
    lc.MD_CTX_free(c);
    return len;
}

static const EVP_CIPHER *aes(unsigned key_bytes, bool cbc)
{
    switch (key_bytes) {
    case 16: return cbc ? lc.aes_128_cbc() : lc.aes_128_ecb();
    case 24: return cbc ? lc.aes_192_cbc() : lc.aes_192_ecb();
    case 32: return cbc ? lc.aes_256_cbc() : lc.aes_256_ecb();
    default: return NULL;
    }
}

/* Decrypt n bytes (a multiple of the block) without padding; false on failure. */
static bool aes_decrypt(const EVP_CIPHER *c, const uint8_t *key, const uint8_t *iv, const uint8_t *in, size_t n,
                        uint8_t *out)
{
    EVP_CIPHER_CTX *x = lc.CIPHER_CTX_new();
    int l1 = 0, l2 = 0;
    bool ok = x != NULL && n <= INT32_MAX && lc.DecryptInit_ex(x, c, NULL, key, iv) == 1 &&
              lc.CIPHER_CTX_set_padding(x, 0) == 1 && lc.DecryptUpdate(x, out, &l1, in, (int)n) == 1 &&
              lc.DecryptFinal_ex(x, out + l1, &l2) == 1 && (size_t)(l1 + l2) == n;
    lc.CIPHER_CTX_free(x);
    return ok;
}

/* H0 = H(salt || password), Hi = H(le32(i-1) || Hi-1), `spin` times. */
static unsigned spin_hash(const EVP_MD *md, const uint8_t *salt, size_t salt_len, const uint8_t *pw, size_t pw_len,
                          uint32_t spin, uint8_t h[64])
{
    unsigned n = hash2(md, salt, salt_len, pw, pw_len, h);
    for (uint32_t i = 0; i < spin && n > 0; i++) {
        uint8_t it[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16), (uint8_t)(i >> 24)};
        uint8_t prev[64];
        memcpy(prev, h, n);
        n = hash2(md, it, 4, prev, n, h);
    }
    return n;
}

/* Standard: the key of 2.3.4.7, checked by the verifier (2.3.4.9). */
static bool standard_key(const crypt_info *ci, const uint8_t *pw, size_t pw_len, uint8_t key[32])
{
    const EVP_MD *md = lc.sha1();
    const EVP_CIPHER *c = aes(ci->key_bits / 8, false);
    uint8_t h[64], fin[20], x[64], x1[20], x2[20];
    unsigned n = spin_hash(md, ci->salt, 16, pw, pw_len, 50000, h);
    static const uint8_t block0[4] = {0, 0, 0, 0};
    if (c == NULL || n != 20 || hash2(md, h, 20, block0, 4, fin) != 20)
        return false;
    memset(x, 0x36, 64);
    for (int i = 0; i < 20; i++)
        x[i] ^= fin[i];
    hash2(md, x, 64, NULL, 0, x1);
    memset(x, 0x5C, 64);
    for (int i = 0; i < 20; i++)
        x[i] ^= fin[i];
    hash2(md, x, 64, NULL, 0, x2);
    uint8_t both[40];
    memcpy(both, x1, 20);
    memcpy(both + 20, x2, 20);
    memcpy(key, both, ci->key_bits / 8);
    uint8_t verifier[16], vhash[32], want[20];
    return aes_decrypt(c, key, NULL, ci->verifier, 16, verifier) &&
           aes_decrypt(c, key, NULL, ci->verifier_hash, 32, vhash) &&
           hash2(md, verifier, 16, NULL, 0, want) == 20 && memcmp(want, vhash, 20) == 0;
}

/* Agile: a key from the spun password hash and a block key, cut or padded
** with 0x36 to `bytes` (2.3.4.11). */
static void agile_block_key(const EVP_MD *md, const uint8_t *h, unsigned hn, const uint8_t block[8], unsigned bytes,
                            uint8_t *out)
{
    uint8_t k[64];
    unsigned n = hash2(md, h, hn, block, 8, k);
    memset(out, 0x36, bytes);
    memcpy(out, k, n < bytes ? n : bytes);
}

static bool agile_key(const crypt_info *ci, const uint8_t *pw, size_t pw_len, uint8_t key[64])
{
    static const uint8_t b_vin[8] = {0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79};
    static const uint8_t b_vhash[8] = {0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e};
    static const uint8_t b_key[8] = {0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6};
    const EVP_MD *md = digest(ci->phash);
    const EVP_CIPHER *c = aes(ci->pkey_bytes, true);
    if (md == NULL || c == NULL || ci->pw_salt_len < ci->pblock || ci->vin_len % ci->pblock != 0 ||
        ci->vhash_len % ci->pblock != 0 || ci->ekey_len % ci->pblock != 0 || ci->ekey_len < ci->key_bytes)
        return false;
    uint8_t h[64], k1[64], k2[64], k3[64], vin[64], vhash[128], unwrapped[128], want[64];
    unsigned hn = spin_hash(md, ci->pw_salt, ci->pw_salt_len, pw, pw_len, ci->spin, h);
    if (hn == 0)
        return false;
    agile_block_key(md, h, hn, b_vin, ci->pkey_bytes, k1);
    agile_block_key(md, h, hn, b_vhash, ci->pkey_bytes, k2);
    agile_block_key(md, h, hn, b_key, ci->pkey_bytes, k3);
    if (!aes_decrypt(c, k1, ci->pw_salt, ci->vin, ci->vin_len, vin) ||
        !aes_decrypt(c, k2, ci->pw_salt, ci->vhash, ci->vhash_len, vhash) ||
        !aes_decrypt(c, k3, ci->pw_salt, ci->ekey, ci->ekey_len, unwrapped))
        return false;
    memcpy(key, unwrapped, ci->key_bytes);
    size_t salt_len = ci->pw_salt_len < ci->vin_len ? ci->pw_salt_len : ci->vin_len;
    unsigned wn = hash2(md, vin, salt_len, NULL, 0, want);
    return wn > 0 && wn <= ci->vhash_len && memcmp(want, vhash, wn) == 0;
}

/* The package: 8 bytes of size, then the encrypted bytes. */
static int decrypt_package(const crypt_info *ci, const uint8_t *key, const uint8_t *pkg, size_t n, const char *label,
                           uint8_t **out, size_t *out_len, lt_error *err)
{
    if (n < 8)
        return lt_error_set(err, "HY000", "'%s': the EncryptedPackage stream is too short", label);
    uint64_t size = lt_le64(pkg);
    const uint8_t *data = pkg + 8;
    size_t dn = n - 8;
    unsigned block = ci->kind == 2 ? ci->block : 16;
    if (size > dn || dn % block != 0)
        return lt_error_set(err, "HY000", "'%s': the EncryptedPackage stream is cut short (%llu bytes for %llu)",
                            label, (unsigned long long)dn, (unsigned long long)size);
    uint8_t *buf = malloc(dn ? dn : 1);
    if (buf == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    bool ok = true;
    if (ci->kind == 1) {
        ok = aes_decrypt(aes(ci->key_bits / 8, false), key, NULL, data, dn, buf);
    } else {
        const EVP_MD *md = digest(ci->hash);
        const EVP_CIPHER *c = aes(ci->key_bytes, strcmp(ci->chaining, "ChainingModeCBC") == 0);
        ok = md != NULL && c != NULL;
        for (size_t at = 0, seg = 0; ok && at < dn; at += SEGMENT, seg++) {
            uint8_t s[4] = {(uint8_t)seg, (uint8_t)(seg >> 8), (uint8_t)(seg >> 16), (uint8_t)(seg >> 24)};
            uint8_t h[64], iv[64];
            unsigned hn = hash2(md, ci->data_salt, ci->data_salt_len, s, 4, h);
            memset(iv, 0x36, sizeof iv);
            memcpy(iv, h, hn < ci->block ? hn : ci->block);
            size_t len = dn - at < SEGMENT ? dn - at : SEGMENT;
            ok = hn > 0 && aes_decrypt(c, key, iv, data + at, len, buf + at);
        }
    }
    if (!ok) {
        free(buf);
        return lt_error_set(err, "HY000", "'%s': decrypting the package failed (%s)", label, ci->name);
    }
    *out = buf;
    *out_len = (size_t)size;
    return 0;
}

static bool supported(const crypt_info *ci)
{
    if (ci->kind == 1)
        return aes(ci->key_bits / 8, false) != NULL && ci->alg >= 0x660E && ci->alg <= 0x6610;
    if (ci->kind == 2)
        return strcmp(ci->cipher, "AES") == 0 && strcmp(ci->pcipher, "AES") == 0 &&
               strcmp(ci->chaining, "ChainingModeCBC") == 0 && strcmp(ci->pchaining, "ChainingModeCBC") == 0 &&
               digest(ci->hash) != NULL && digest(ci->phash) != NULL && aes(ci->key_bytes, true) != NULL;
    return false;
}

static int decrypt(const crypt_info *ci, const xls_bytes *pkg, const char *label, const char *password,
                   uint8_t **out, size_t *out_len, lt_error *err)
{
    pthread_once(&lc_once, lc_load);
    if (!lc_loaded)
        return lt_error_set(err, "HY000", "'%s' is an encrypted workbook (%s): decrypting it needs OpenSSL's "
                            "libcrypto.so.3, which could not be loaded (Debian: apt-get install libssl3)",
                            label, ci->name);
    if (!supported(ci))
        return lt_error_set(err, "HY000", "'%s' is an encrypted workbook using %s, which Lector does not decrypt "
                            "(it reads Standard AES and Agile AES-CBC encryption)", label, ci->name);
    uint8_t pw[1024], key[64];
    size_t pw_len = xls_utf16_password(password != NULL ? password : DEFAULT_PASSWORD, pw, sizeof pw);
    bool ok = (pw_len > 0 || (password != NULL && *password == '\0')) &&
              (ci->kind == 1 ? standard_key(ci, pw, pw_len, key) : agile_key(ci, pw, pw_len, key));
    if (!ok && password == NULL)
        return lt_error_set(err, "28000", "'%s' is a password-protected workbook (%s): give its password with PWD=",
                            label, ci->name);
    if (!ok)
        return lt_error_set(err, "28000", "'%s': wrong password for this workbook (%s)", label, ci->name);
    return decrypt_package(ci, key, pkg->data, pkg->len, label, out, out_len, err);
}

#else

static int decrypt(const crypt_info *ci, const xls_bytes *pkg, const char *label, const char *password,
                   uint8_t **out, size_t *out_len, lt_error *err)
{
    (void)pkg;
    (void)password;
    (void)out;
    (void)out_len;
    return lt_error_set(err, "HY000", "'%s' is an encrypted workbook (%s): this build of Lector has no "
                        "decryption (built without OpenSSL's libcrypto)", label, ci->name);
}

#endif

bool lt_xlsb_can_decrypt(void)
{
#ifdef LT_HAVE_LIBCRYPTO
    return true;
#else
    return false;
#endif
}

int xlsb_decrypt_streams(const uint8_t *info, size_t info_len, const uint8_t *pkg, size_t pkg_len,
                         const char *label, const char *password, uint8_t **out, size_t *out_len, lt_error *err)
{
    *out = NULL;
    *out_len = 0;
    crypt_info ci;
    if (parse_info(info, info_len, label, &ci, err) != 0)
        return -1;
    xls_bytes p = {pkg, pkg_len, NULL};
    return decrypt(&ci, &p, label, password, out, out_len, err);
}

int xlsb_decrypt(const uint8_t *file, size_t size, const char *label, const char *password, uint8_t **out,
                 size_t *out_len, lt_error *err)
{
    *out = NULL;
    *out_len = 0;
    xls_cfb cfb;
    if (xls_cfb_open(&cfb, file, size, label, err) != 0)
        return -1;
    int64_t ie = xls_cfb_find(&cfb, "EncryptionInfo"), pe = xls_cfb_find(&cfb, "EncryptedPackage");
    int rc = -1;
    xls_bytes info = {0}, pkg = {0};
    if (ie < 0 || pe < 0) {
        if (xls_cfb_find(&cfb, "Workbook") >= 0 || xls_cfb_find(&cfb, "Book") >= 0)
            lt_error_set(err, "HY000", "'%s' is an Excel 97-2003 workbook (.xls) named as .xlsb: rename it .xls",
                         label);
        else
            lt_error_set(err, "HY000", "'%s' is a compound file without EncryptionInfo and EncryptedPackage "
                         "streams: not an encrypted Excel workbook", label);
    } else if (xls_cfb_read(&cfb, (uint32_t)ie, &info, err) == 0 && xls_cfb_read(&cfb, (uint32_t)pe, &pkg, err) == 0) {
        rc = xlsb_decrypt_streams(info.data, info.len, pkg.data, pkg.len, label, password, out, out_len, err);
    }
    xls_bytes_free(&info);
    xls_bytes_free(&pkg);
    xls_cfb_close(&cfb);
    return rc;
}
