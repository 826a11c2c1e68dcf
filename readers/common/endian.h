/*
** endian.h — unaligned little- and big-endian reads from file bytes.
*/
#ifndef LT_ENDIAN_H
#define LT_ENDIAN_H

#include <stdint.h>
#include <string.h>

static inline uint16_t lt_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t lt_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t lt_le64(const uint8_t *p) { return (uint64_t)lt_le32(p) | (uint64_t)lt_le32(p + 4) << 32; }
static inline uint16_t lt_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t lt_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t lt_be64(const uint8_t *p) { return (uint64_t)lt_be32(p) << 32 | lt_be32(p + 4); }
static inline double lt_le_double(const uint8_t *p)
{
    uint64_t u = lt_le64(p);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

#endif /* LT_ENDIAN_H */
