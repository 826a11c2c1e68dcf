/*
** libreoffice_csv.c — the "convert it first" baseline for .xls and .xlsb:
** LibreOffice headless converts one worksheet to CSV, then the CSV is read.
**
** What is timed is the whole soffice process (start-up, import, export;
** `soffice --headless --convert-to csv`), as a user who converts a workbook
** before loading it waits for it: "connect" is 0, "fetch" is the process
** plus the read of the CSV.  It is not a like-for-like reader: the report
** says so next to its figures.  A private user profile (in the scratch
** folder, made by the warm-up run) keeps it off the user's own.
**
** The fixture's workbooks hold one sheet each, named like the table
** (generate.py); the filter's 12th token (LibreOffice 7.2+) exports that
** first sheet to FILE-TABLE.csv.  Parity with Lector is checked on the CSV's
** text with this normalisation: the header row is dropped; a field of the
** form YYYY-MM-DD hashes as a date; any other field that parses whole as a
** number hashes as that number (LibreOffice writes values "as shown": the
** fixtures' numbers are integers and whole cents, shown exactly); TRUE and
** FALSE (how it writes the booleans of an .xlsb; those of an .xls come out
** as 1/0) hash as 1 and 0, as Lector's BIT does; anything else hashes as
** text.  maxrss_kb is this program's, not soffice's.
**
** usage: libreoffice_csv [--no-checksum] [--repeat K] [--show N] [--scratch DIR]
**                        FILE TABLE
*/
#define _POSIX_C_SOURCE 200809L
#include "../client/cycles.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile uint64_t sink;

static int is_date(const char *s, size_t n)
{
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    return 1;
}

static void hash_field(canon *c, const char *s, size_t n, int checksum)
{
    if (!checksum) {
        sink += n;
        return;
    }
    if (is_date(s, n))
        canon_date_text(c, s, n);
    else if ((n == 4 && memcmp(s, "TRUE", 4) == 0) || (n == 5 && memcmp(s, "FALSE", 5) == 0))
        canon_int(c, n == 4);
    else
        canon_number_text(c, s, n);   /* text that is no number hashes as text */
}

/* Reads the CSV (RFC 4180: "..." quotes, "" inside them) and hashes every
** field after the header line.  Returns the data rows; *ncols = fields of
** the header. */
static uint64_t read_csv(const char *path, canon *c, int checksum, int *ncols)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "error: LibreOffice wrote no %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    char *field = malloc(cap);
    if (field == NULL)
        exit(2);
    uint64_t row = 0;
    int col = 0, quoted = 0, at_start = 1, ch;
    *ncols = 0;
    for (;;) {
        ch = getc(f);
        if (quoted) {
            if (ch == EOF)
                break;
            if (ch == '"') {
                int next = getc(f);
                if (next != '"') {
                    quoted = 0;
                    ungetc(next, f);
                    continue;
                }
            }
        } else if (ch == '"' && n == 0) {
            quoted = 1;
            at_start = 0;
            continue;
        } else if (ch == ',' || ch == '\n' || ch == EOF) {
            if (ch == EOF && at_start)
                break;
            if (n > 0 && field[n - 1] == '\r')
                n--;
            if (row > 0)
                hash_field(c, field, n, checksum);
            col++;
            n = 0;
            if (ch != ',') {
                if (row == 0)
                    *ncols = col;
                else if (checksum)
                    canon_end_row(c);
                row++;
                col = 0;
                at_start = 1;
            }
            if (ch == EOF)
                break;
            continue;
        }
        at_start = 0;
        if (n + 1 >= cap) {
            char *p = realloc(field, cap *= 2);
            if (p == NULL)
                exit(2);
            field = p;
        }
        field[n++] = (char)ch;
    }
    free(field);
    fclose(f);
    return row > 0 ? row - 1 : 0;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char path[8800];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void convert(const char *file, int sheet, const char *scratch, const char *outdir)
{
    char profile[4200], filter[256];
    snprintf(profile, sizeof profile, "-env:UserInstallation=file://%s/profile", scratch);
    snprintf(filter, sizeof filter,
             "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,%d",
             sheet);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL)
            _exit(127);
        execlp("soffice", "soffice", profile, "--headless", "--norestore", "--convert-to",
               filter, "--outdir", outdir, file, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "error: soffice --convert-to csv failed on %s (status %d)\n",
                file, status);
        exit(2);
    }
}

typedef struct conversion {
    const char *file, *scratch, *outdir, *csv;
} conversion;

/* A cycle is one whole soffice process plus reading its CSV: no phases, and
** the memory is the other process's (-1: unknown). */
static uint64_t run_once(void *ctx, const bench_options *o, canon *c, bench_cycle *t,
                         int *ncols)
{
    const conversion *v = ctx;
    double t0 = canon_now();
    convert(v->file, 1, v->scratch, v->outdir);
    uint64_t rows = read_csv(v->csv, c, o->checksum, ncols);
    *t = (bench_cycle){.fetch = canon_now() - t0, .anon_kb = -1, .file_kb = -1};
    remove_dir(v->outdir);
    return rows;
}

int main(int argc, char **argv)
{
    bench_options o = BENCH_OPTIONS_INIT;
    const char *scratch = "/tmp/lector-bench/libreoffice";
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--scratch") == 0 && i + 1 < argc)
            scratch = argv[++i];
        else if (!bench_common_option(&o, argc, argv, &i))
            break;
    }
    if (argc - i != 2 || o.repeat < 1) {
        fprintf(stderr, "usage: libreoffice_csv [--no-checksum] [--repeat K] [--show N] "
                        "[--scratch DIR] FILE TABLE\n");
        return 2;
    }
    const char *file = argv[i], *table = argv[i + 1];
    mkdir(scratch, 0700);
    char outdir[4200], csv[8400];
    snprintf(outdir, sizeof outdir, "%s/out-%ld", scratch, (long)getpid());
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    const char *dot = strrchr(base, '.');
    int stem = dot ? (int)(dot - base) : (int)strlen(base);
    snprintf(csv, sizeof csv, "%s/%.*s-%s.csv", outdir, stem, base, table);
    /* a sheet not named like the table: read_csv reports the missing file */
    conversion v = {file, scratch, outdir, csv};
    return bench_run_cycles(&o, run_once, &v);
}
