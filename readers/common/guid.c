/*
** guid.c — a GUID as text (reader.h's lt_format_guid): the bytes in the
** order Windows prints them, data1..data3 big-end first, then data4.
*/
#include <string.h>

#include "../reader.h"

size_t lt_format_guid(const lt_guid *g, bool braced, char *buf)
{
    static const char hex[] = "0123456789ABCDEF";
    uint8_t b[16];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(g->data1 >> (24 - 8 * i));
    b[4] = (uint8_t)(g->data2 >> 8);
    b[5] = (uint8_t)g->data2;
    b[6] = (uint8_t)(g->data3 >> 8);
    b[7] = (uint8_t)g->data3;
    memcpy(b + 8, g->data4, 8);
    char *p = buf;
    if (braced)
        *p++ = '{';
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        *p++ = hex[b[i] >> 4];
        *p++ = hex[b[i] & 15];
    }
    if (braced)
        *p++ = '}';
    *p = '\0';
    return (size_t)(p - buf);
}
