/*
** cycles.c — the repeated cycles and the result line every benchmark
** program prints (cycles.h).
*/
#include "cycles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_common_option(bench_options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(a, "--no-checksum") == 0) {
        o->checksum = 0;
        return 1;
    }
    if (v == NULL)
        return 0;
    if (strcmp(a, "--repeat") == 0)
        o->repeat = atoi(v);
    else if (strcmp(a, "--show") == 0)
        o->show = atol(v);
    else
        return 0;
    (*i)++;
    return 1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cycle_seconds(const bench_cycle *t)
{
    return t->connect + t->execute + t->fetch;
}

int bench_run_cycles(const bench_options *o, bench_cycle_fn run, void *ctx)
{
    double *warm = malloc(sizeof(double) * (size_t)o->repeat);
    if (warm == NULL)
        return 2;
    canon c;
    bench_cycle t = {0}, first = {0};
    uint64_t rows = 0;
    int ncols = 0;
    for (int k = 0; k < o->repeat; k++) {
        canon_init(&c, k == 0 ? o->show : 0);
        rows = run(ctx, o, &c, &t, &ncols);
        warm[k] = cycle_seconds(&t);
        if (k == 0)
            first = t;
    }
    /* The first cycle loads the library: warm figures come from the rest. */
    double median = warm[0], best = warm[0];
    if (o->repeat > 1) {
        qsort(warm + 1, (size_t)o->repeat - 1, sizeof(double), by_value);
        median = warm[1 + (o->repeat - 1) / 2];
        best = warm[1];
    }
    char sum[24] = "off";
    if (o->checksum)
        snprintf(sum, sizeof sum, "%016llx", (unsigned long long)c.hash);
    printf("rows=%llu columns=%d values=%llu checksum=%s seconds=%.6f "
           "connect=%.6f execute=%.6f fetch=%.6f close=%.6f cycles=%d "
           "warm_median=%.6f warm_min=%.6f maxrss_kb=%ld anon_kb=%ld file_kb=%ld\n",
           (unsigned long long)rows, ncols, (unsigned long long)c.values, sum,
           cycle_seconds(&first), first.connect, first.execute, first.fetch, first.close,
           o->repeat, median, best, canon_max_rss_kb(), first.anon_kb, first.file_kb);
    free(warm);
    return 0;
}
