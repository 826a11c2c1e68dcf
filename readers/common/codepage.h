/*
** codepage.h — decoding text in a file's code page to UTF-8.
**
** Code pages are named by their Windows numbers (437, 850, 1252, 932 ...);
** 65001 is UTF-8.  The tables are compiled in (no iconv), so the same code
** runs on Windows.  A byte a single-byte code page leaves undefined decodes
** to the code point of the same value (cp1252's 0x81 -> U+0081, as Windows
** and WHATWG do); invalid sequences of multi-byte code pages and of UTF-8
** decode to one U+FFFD per maximal invalid prefix, as Python's codecs do.
*/
#ifndef LT_CODEPAGE_H
#define LT_CODEPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_CP_UTF8 65001

/* True when `cp` is a code page this module can decode. */
bool lt_codepage_known(int cp);

/* The code page of a dBASE language-driver id (header byte 29), or 0 when
** the id is 0 or unknown. */
int lt_codepage_from_ldid(uint8_t ldid);

/* The code page a .cpg companion's text names ("1252", "UTF-8", "ANSI 1251",
** "ISO-8859-1" ...), or 0 when unknown. */
int lt_codepage_from_name(const char *text, size_t len);

/* Worst-case UTF-8 bytes for `len` input bytes in any code page. */
#define LT_CODEPAGE_MAX_UTF8(len) ((len) * 3)

/* Decode `len` bytes of code page `cp` into `dst` (room for at least
** LT_CODEPAGE_MAX_UTF8(len) bytes).  Returns the UTF-8 length; no NUL is
** added.  An unknown `cp` decodes as code page 437. */
size_t lt_codepage_decode(int cp, const uint8_t *src, size_t len, char *dst);

/* True when every byte is < 0x80 (then the text is already UTF-8). */
bool lt_is_ascii(const uint8_t *src, size_t len);

#endif /* LT_CODEPAGE_H */
