/*
** cycles.h — what every benchmark program shares around its own loop: the
** common options, the repeated connect-execute-fetch-close cycles, and the
** one key=value result line the harness parses.
**
** A program (the ODBC client, or a baseline over a library) supplies one
** function that runs a whole cycle and fills its times; bench_run_cycles
** repeats it and prints
**
**   rows= columns= values= checksum= seconds= connect= execute= fetch=
**   close= cycles= warm_median= warm_min= maxrss_kb= anon_kb= file_kb=
**
** where seconds and the phase times are the first (cold) cycle's, and the
** warm figures are over the cycles after it, once the library is loaded.
*/
#ifndef BENCH_CYCLES_H
#define BENCH_CYCLES_H

#include "canon.h"

typedef struct bench_cycle {
    double connect, execute, fetch, close;   /* seconds */
    long anon_kb, file_kb;   /* resident memory at the last row; -1 unknown */
} bench_cycle;

typedef struct bench_options {
    int checksum;    /* 0 with --no-checksum: values are read, not hashed */
    int repeat;      /* --repeat K: cycles to run */
    long show;       /* --show N: print the first N rows of the first cycle */
} bench_options;

/* The defaults: checksum on, one cycle, nothing shown. */
#define BENCH_OPTIONS_INIT {1, 1, 0}

/* Consumes argv[*i] (and its value) when it is one of the common options
** and returns 1; returns 0, consuming nothing, otherwise. */
int bench_common_option(bench_options *o, int argc, char **argv, int *i);

/* Runs one cycle into `c` (reset by the caller's loop), returns the rows. */
typedef uint64_t (*bench_cycle_fn)(void *ctx, const bench_options *o, canon *c,
                                   bench_cycle *t, int *ncols);

/* Runs `run` o->repeat times and prints the result line; returns 0, or 2
** when memory runs out. */
int bench_run_cycles(const bench_options *o, bench_cycle_fn run, void *ctx);

#endif
