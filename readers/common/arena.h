/*
** arena.h — a bump allocator for values that live as long as one batch.
**
** Decoded text goes here instead of one malloc per value; lt_arena_reset()
** forgets everything at once and keeps the memory for the next batch.
*/
#ifndef LT_ARENA_H
#define LT_ARENA_H

#include <stddef.h>

typedef struct lt_arena_block lt_arena_block;

typedef struct lt_arena {
    lt_arena_block *head;   /* block being filled; older blocks follow */
    size_t used;            /* bytes used in head */
} lt_arena;

void lt_arena_init(lt_arena *arena);
/* 16-byte aligned memory for `size` bytes, NULL when out of memory. */
void *lt_arena_alloc(lt_arena *arena, size_t size);
/* Copy `len` bytes (plus a NUL) into the arena. */
char *lt_arena_strndup(lt_arena *arena, const char *s, size_t len);
/* Forget all allocations; keep the largest block for reuse. */
void lt_arena_reset(lt_arena *arena);
void lt_arena_free(lt_arena *arena);

#endif /* LT_ARENA_H */
