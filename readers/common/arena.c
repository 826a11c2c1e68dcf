/*
** arena.c — bump allocation in growing blocks.
*/
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN_BLOCK (64 * 1024)

struct lt_arena_block {
    lt_arena_block *next;
    size_t size;                       /* usable bytes after the header */
    _Alignas(16) unsigned char data[];
};

void lt_arena_init(lt_arena *arena)
{
    arena->head = NULL;
    arena->used = 0;
}

static lt_arena_block *block_new(size_t size, lt_arena_block *next)
{
    lt_arena_block *b = malloc(sizeof *b + size);
    if (b == NULL)
        return NULL;
    b->next = next;
    b->size = size;
    return b;
}

void *lt_arena_alloc(lt_arena *arena, size_t size)
{
    size_t need = (size + 15) & ~(size_t)15;
    if (need < size)
        return NULL;
    if (arena->head == NULL || arena->head->size - arena->used < need) {
        size_t want = ARENA_MIN_BLOCK;
        if (arena->head != NULL && arena->head->size <= SIZE_MAX / 2)
            want = arena->head->size * 2;
        if (want < need)
            want = need;
        lt_arena_block *b = block_new(want, arena->head);
        if (b == NULL)
            return NULL;
        arena->head = b;
        arena->used = 0;
    }
    void *p = arena->head->data + arena->used;
    arena->used += need;
    return p;
}

char *lt_arena_strndup(lt_arena *arena, const char *s, size_t len)
{
    char *p = lt_arena_alloc(arena, len + 1);
    if (p == NULL)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void lt_arena_reset(lt_arena *arena)
{
    lt_arena_block *keep = arena->head;
    if (keep == NULL)
        return;
    /* The newest block is the largest: keep it, free the rest. */
    lt_arena_block *b = keep->next;
    while (b != NULL) {
        lt_arena_block *next = b->next;
        free(b);
        b = next;
    }
    keep->next = NULL;
    arena->used = 0;
}

void lt_arena_free(lt_arena *arena)
{
    lt_arena_block *b = arena->head;
    while (b != NULL) {
        lt_arena_block *next = b->next;
        free(b);
        b = next;
    }
    lt_arena_init(arena);
}
