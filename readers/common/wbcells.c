/*
** wbcells.c — a sheet's cells kept by the type scan for the scans that
** follow (wbgrid.h), so a workbook's cells are decoded once, not twice.
**
** Each cell is a tag byte and what the tag says follows, in chunks of
** CHUNK bytes (a cell never spans two: text pointers stay inside one):
**   tag bits 0-2  the lt_wb_kind
**   bit 3 ROW     the row changed: its zigzag delta follows (varint)
**   bit 4 NEXT    the column is the previous cell's + 1; else a varint
**   bit 5 SMALL   NUMBER: an integer in 4 bytes instead of a double;
**                 BOOL: true; TEXT: as many UTF-16 units as bytes
**   bit 6 FMT     NUMBER: a format byte follows (else 0);
**         REF     TEXT: a pointer to stable text instead of the bytes
** then NUMBER: [fmt] 4 or 8 bytes; TEXT: varint length, [varint units],
** the UTF-8 bytes or [REF] the pointer.  The bulk sheet of the bench (an integer, a short text,
** an integer, a double) takes ~30 bytes a row against ~100 inflated.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wbgrid.h"

#define CHUNK ((size_t)1 << 20)

#define TAG_ROW   0x08u
#define TAG_NEXT  0x10u
#define TAG_SMALL 0x20u
#define TAG_FMT   0x40u
#define TAG_REF   0x40u

struct lt_wb_chunk {
    lt_wb_chunk *next;
    size_t len, cap;
    uint8_t data[];
};

void lt_wb_cells_init(lt_wb_cells *c, size_t budget)
{
    memset(c, 0, sizeof *c);
    c->budget = budget;
}

void lt_wb_cells_free(lt_wb_cells *c)
{
    lt_wb_chunk *k = c->head;
    while (k != NULL) {
        lt_wb_chunk *next = k->next;
        free(k);
        k = next;
    }
    c->head = c->tail = NULL;
    c->bytes = 0;
}

/* Drop everything: the scans will walk the sheet themselves. */
static bool give_up(lt_wb_cells *c)
{
    lt_wb_cells_free(c);
    c->over = true;
    return false;
}

/* Room for `need` bytes at the tail, in a new chunk if need be. */
static uint8_t *room(lt_wb_cells *c, size_t need)
{
    if (c->tail != NULL && c->tail->cap - c->tail->len >= need)
        return c->tail->data + c->tail->len;
    size_t cap = need > CHUNK ? need : CHUNK;
    size_t size = sizeof(lt_wb_chunk) + cap;
    if (c->bytes > c->budget || size > c->budget - c->bytes)
        return NULL;
    lt_wb_chunk *k = malloc(size);
    if (k == NULL)
        return NULL;
    k->next = NULL;
    k->len = 0;
    k->cap = cap;
    if (c->tail != NULL)
        c->tail->next = k;
    else
        c->head = k;
    c->tail = k;
    c->bytes += size;
    return k->data;
}

static uint8_t *put_varint(uint8_t *p, uint32_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static const uint8_t *get_varint(const uint8_t *p, uint32_t *v)
{
    uint32_t r = 0;
    unsigned shift = 0;
    for (;;) {
        uint8_t b = *p++;
        r |= (uint32_t)(b & 0x7F) << shift;
        if (b < 0x80 || shift >= 28)
            break;
        shift += 7;
    }
    *v = r;
    return p;
}

/* An integer a double holds exactly in 4 bytes (not -0, whose sign the
** integer would lose). */
static bool small_integer(double v)
{
    return v >= -2147483648.0 && v <= 2147483647.0 && v == (double)(int32_t)v && !(v == 0 && signbit(v));
}

bool lt_wb_cells_add(lt_wb_cells *c, uint32_t row, uint32_t col, const lt_wb_cell *cell)
{
    if (c->over)
        return false;
    size_t textlen = cell->kind == LT_WB_TEXT ? cell->len : 0;
    uint8_t *start = room(c, 21 + sizeof(char *) + textlen), *p = start;
    if (p == NULL)
        return give_up(c);
    bool first = c->tail->len == 0 && c->head == c->tail;
    unsigned tag = cell->kind & 7u;
    p++;
    if (first || row != c->row) {
        tag |= TAG_ROW;
        uint32_t d = row - c->row;      /* modulo 2^32, zigzagged: small either way */
        p = put_varint(p, (d << 1) ^ (0u - (d >> 31)));
    }
    if (!first && col == c->col + 1)
        tag |= TAG_NEXT;
    else
        p = put_varint(p, col);
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_NUMBER:
        if (cell->fmt != 0) {
            tag |= TAG_FMT;
            *p++ = cell->fmt;
        }
        if (small_integer(cell->num)) {
            tag |= TAG_SMALL;
            int32_t i = (int32_t)cell->num;
            memcpy(p, &i, 4);
            p += 4;
        } else {
            memcpy(p, &cell->num, 8);
            p += 8;
        }
        break;
    case LT_WB_BOOL:
        if (cell->b)
            tag |= TAG_SMALL;
        break;
    case LT_WB_TEXT:
        p = put_varint(p, cell->len);
        if (cell->units == cell->len)
            tag |= TAG_SMALL;
        else
            p = put_varint(p, cell->units);
        if ((uintptr_t)cell->text - (uintptr_t)c->stable < (uintptr_t)c->stable_end - (uintptr_t)c->stable) {
            tag |= TAG_REF;
            memcpy(p, &cell->text, sizeof cell->text);
            p += sizeof cell->text;
        } else if (cell->len > 0) {
            memcpy(p, cell->text, cell->len);
            p += cell->len;
        }
        break;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        break;
    }
    *start = (uint8_t)tag;
    c->tail->len += (size_t)(p - start);
    c->row = row;
    c->col = col;
    return true;
}

void lt_wb_cells_begin(const lt_wb_cells *c, lt_wb_cells_pos *p)
{
    memset(p, 0, sizeof *p);
    p->chunk = c->over ? NULL : c->head;
}

bool lt_wb_cells_next(lt_wb_cells_pos *pos, uint32_t *row, uint32_t *col, lt_wb_cell *cell)
{
    while (pos->chunk != NULL && pos->off >= pos->chunk->len) {
        pos->chunk = pos->chunk->next;
        pos->off = 0;
    }
    if (pos->chunk == NULL)
        return false;
    const uint8_t *p = pos->chunk->data + pos->off;
    unsigned tag = *p++;
    uint32_t v;
    if (tag & TAG_ROW) {
        p = get_varint(p, &v);
        pos->row += (v >> 1) ^ (0u - (v & 1));
    }
    if (tag & TAG_NEXT) {
        pos->col++;
    } else {
        p = get_varint(p, &v);
        pos->col = v;
    }
    memset(cell, 0, sizeof *cell);
    cell->kind = (uint8_t)(tag & 7u);
    switch ((lt_wb_kind)cell->kind) {
    case LT_WB_NUMBER:
        if (tag & TAG_FMT)
            cell->fmt = *p++;
        if (tag & TAG_SMALL) {
            int32_t i;
            memcpy(&i, p, 4);
            cell->num = i;
            p += 4;
        } else {
            memcpy(&cell->num, p, 8);
            p += 8;
        }
        break;
    case LT_WB_BOOL:
        cell->b = (tag & TAG_SMALL) != 0;
        break;
    case LT_WB_TEXT:
        p = get_varint(p, &cell->len);
        if (tag & TAG_SMALL)
            cell->units = cell->len;
        else
            p = get_varint(p, &cell->units);
        if (tag & TAG_REF) {
            memcpy(&cell->text, p, sizeof cell->text);
            p += sizeof cell->text;
        } else {
            cell->text = (const char *)p;
            p += cell->len;
        }
        break;
    case LT_WB_ERROR:
    case LT_WB_EMPTY:
        break;
    }
    pos->off = (size_t)(p - pos->chunk->data);
    *row = pos->row;
    *col = pos->col;
    return true;
}
