/*
** table.c — freeing a table description (reader.h's lt_table) that a reader
** built with malloc.  It lives in the common library so that a program
** linking a single reader (a fuzzer, a unit test) has it without the
** registry of every reader.
*/
#include <stdlib.h>
#include <string.h>

#include "../reader.h"

void lt_table_clear(lt_table *t)
{
    free(t->name);
    for (uint32_t c = 0; c < t->ncols; c++)
        free(t->cols[c].name);
    free(t->cols);
    for (uint32_t i = 0; i < t->nindexes; i++) {
        free(t->indexes[i].name);
        free(t->indexes[i].cols);
    }
    free(t->indexes);
    for (uint32_t i = 0; i < t->nforeign; i++) {
        lt_foreign_key *fk = &t->foreign[i];
        free(fk->name);
        free(fk->ref_table);
        free(fk->cols);
        for (uint32_t c = 0; c < fk->ncols; c++)
            free(fk->ref_cols[c]);
        free(fk->ref_cols);
    }
    free(t->foreign);
    memset(t, 0, sizeof *t);
}
