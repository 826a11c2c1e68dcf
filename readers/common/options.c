/*
** options.c — looking up connection-string keywords.
*/
#include "../reader.h"

#include <strings.h>

const char *lt_options_get(const lt_options *opts, const char *key)
{
    if (opts == NULL)
        return NULL;
    /* Last one wins, as in a connection string that repeats a keyword. */
    for (size_t i = opts->count; i-- > 0;)
        if (strcasecmp(opts->items[i].key, key) == 0)
            return opts->items[i].value;
    return NULL;
}

bool lt_options_bool(const lt_options *opts, const char *key, bool dflt)
{
    const char *v = lt_options_get(opts, key);
    if (v == NULL || *v == '\0')
        return dflt;
    return strcasecmp(v, "1") == 0 || strcasecmp(v, "yes") == 0 ||
           strcasecmp(v, "true") == 0 || strcasecmp(v, "on") == 0 ||
           strcasecmp(v, "y") == 0;
}
