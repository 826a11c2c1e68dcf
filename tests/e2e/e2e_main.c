/*
** e2e_main.c — command line of the end-to-end client.
**
**   lector-e2e[-iodbc] [options] corpus|readonly|threads|errors|catalog|pieces
**     --driver NAME      odbcinst.ini driver section (default Lector)
**     --corpus DIR       corpus root (default $LECTOR_CORPUS_DIR)
**     --format NAME      corpus folder (default dbf)
**     --dsn NAME --dsn-file FILE   corpus: also read FILE through DSN NAME
**     --iterations N     threads: rounds per thread (default 20)
**     --piece N          SQLGetData piece size in bytes (default 64)
**     -v                 print passing checks too
*/
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static int usage(void)
{
    fprintf(stderr, "usage: lector-e2e [--driver NAME] [--corpus DIR] "
            "[--format dbf] [--dsn NAME --dsn-file FILE] [--iterations N] "
            "[--piece BYTES] [-v] "
            "corpus|readonly|threads|errors|catalog|pieces\n");
    return 2;
}

int main(int argc, char **argv)
{
    e2e_config cfg = { .driver = "Lector", .format = "dbf",
                       .corpus = getenv("LECTOR_CORPUS_DIR") };
    const char *cmd = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A UTF-8 application: iODBC serves ANSI calls from the driver's W
    ** functions and converts with the locale's character set, which in the
    ** default "C" locale has no non-ASCII characters. */
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-v") == 0)
            cfg.verbose = 1;
        else if (strcmp(a, "--driver") == 0 && v)
            cfg.driver = argv[++i];
        else if (strcmp(a, "--corpus") == 0 && v)
            cfg.corpus = argv[++i];
        else if (strcmp(a, "--format") == 0 && v)
            cfg.format = argv[++i];
        else if (strcmp(a, "--dsn") == 0 && v)
            cfg.dsn = argv[++i];
        else if (strcmp(a, "--dsn-file") == 0 && v)
            cfg.dsn_file = argv[++i];
        else if (strcmp(a, "--piece") == 0 && v)
            e2e_piece = (size_t)atol(argv[++i]);
        else if (strcmp(a, "--iterations") == 0 && v)
            cfg.iterations = atoi(argv[++i]);
        else if (a[0] != '-' && !cmd)
            cmd = a;
        else
            return usage();
    }
    if (!cmd || !cfg.corpus || e2e_piece < 8 || e2e_piece > ((size_t)16 << 20))
        return usage();
    printf("lector-e2e %s: driver %s, SQLWCHAR of %zu bytes, corpus %s\n", cmd,
           cfg.driver, sizeof(SQLWCHAR), cfg.corpus);
    if (strcmp(cmd, "corpus") == 0)
        return e2e_cmd_corpus(&cfg);
    if (strcmp(cmd, "readonly") == 0)
        return e2e_cmd_readonly(&cfg);
    if (strcmp(cmd, "threads") == 0)
        return e2e_cmd_threads(&cfg);
    if (strcmp(cmd, "errors") == 0)
        return e2e_cmd_errors(&cfg);
    if (strcmp(cmd, "catalog") == 0)
        return e2e_cmd_catalog(&cfg);
    if (strcmp(cmd, "pieces") == 0)
        return e2e_cmd_pieces(&cfg);
    if (strcmp(cmd, "workbook") == 0)
        return e2e_cmd_workbook(&cfg);
    return usage();
}
