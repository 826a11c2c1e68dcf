/*
** crypt.c — encrypted workbooks (FILEPASS, [MS-XLS] 2.4.117, and
** [MS-OFFCRYPTO] 2.3.6): names the encryption in a clear error.
*/
#include "../common/endian.h"
#include "xls_internal.h"

/* What the FILEPASS record says the encryption is. */
static const char *describe(const xls_source *src, const xls_record *fp)
{
    const uint8_t *d = src->wb.data + fp->data;
    if (src->biff != 8 || fp->len < 2)
        return "XOR obfuscation";
    uint16_t type = lt_le16(d);
    if (type == 0)
        return "XOR obfuscation";
    if (type != 1 || fp->len < 6)
        return "an unknown encryption";
    uint16_t major = lt_le16(d + 2), minor = lt_le16(d + 4);
    if (major == 1 && minor == 1)
        return "RC4";
    return "RC4 CryptoAPI";
}

int xls_decrypt(xls_source *src, const xls_record *fp, const char *password, lt_error *err)
{
    (void)password;
    return lt_error_set(err, "HY000", "'%s' is encrypted with %s and a password: Lector cannot read encrypted workbooks yet",
                        src->label, describe(src, fp));
}
