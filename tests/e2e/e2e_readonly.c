/*
** e2e_readonly.c — the driver never writes a data file.
**
** For every file of a corpus folder (and its companions: memo files,
** .cpg ...) the size, mtime, ctime and bytes are recorded, a full query runs
** through the driver, and everything must be unchanged afterwards.  While the
** statement is open, no descriptor of the process may be open for writing on
** those files and no mapping of them may be writable; after SQLDisconnect
** none may remain at all (Linux /proc).
*/
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"

typedef struct snap {
    char path[PATH_MAX];
    char real[PATH_MAX];
    struct stat st;
    char *bytes;
    size_t len;
} snap;

static int snap_take(const char *path, snap *s)
{
    snprintf(s->path, sizeof s->path, "%s", path);
    if (!realpath(path, s->real) || stat(path, &s->st) != 0)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    e2e_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        e2e_buf_add(&b, chunk, n);
    fclose(f);
    s->bytes = b.ptr;
    s->len = b.len;
    return 0;
}

static bool same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static int snap_compare(const snap *before, e2e_buf *why)
{
    snap after;
    memset(&after, 0, sizeof after);
    int rc = -1;
    if (snap_take(before->path, &after)) {
        e2e_buf_printf(why, "%s: cannot be read any more", before->path);
        goto done;
    }
    if (after.st.st_size != before->st.st_size)
        e2e_buf_printf(why, "%s: size %lld -> %lld", before->path,
                       (long long)before->st.st_size, (long long)after.st.st_size);
    else if (!same_time(after.st.st_mtim, before->st.st_mtim))
        e2e_buf_printf(why, "%s: mtime changed", before->path);
    else if (!same_time(after.st.st_ctim, before->st.st_ctim))
        e2e_buf_printf(why, "%s: ctime changed (inode modified)", before->path);
    else if (after.st.st_mode != before->st.st_mode)
        e2e_buf_printf(why, "%s: mode changed", before->path);
    else if (after.len != before->len ||
             (after.len && memcmp(after.bytes, before->bytes, after.len) != 0))
        e2e_buf_printf(why, "%s: bytes changed", before->path);
    else
        rc = 0;
done:
    free(after.bytes);
    return rc;
}

/* The data file and every file beside it with the same stem. */
static int companions(const char *path, snap **out)
{
    char dir[PATH_MAX], stem[256];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    e2e_stem(path, stem, sizeof stem);
    DIR *d = opendir(dir);
    int n = 0;
    *out = NULL;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char s[256];
        e2e_stem(e->d_name, s, sizeof s);
        if (e->d_name[0] == '.' || strcasecmp(s, stem) != 0)
            continue;
        snap *grown = realloc(*out, (size_t)(n + 1) * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "e2e: out of memory\n");
            exit(2);
        }
        *out = grown;
        memset(&grown[n], 0, sizeof grown[n]);
        char full[PATH_MAX + 300];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        if (snap_take(full, &grown[n]) == 0)
            n++;
    }
    closedir(d);
    return n;
}

static bool is_watched(const char *real, const snap *files, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(real, files[i].real) == 0)
            return true;
    return false;
}

/*
** Look at this process's descriptors and mappings of the watched files.
** `any_allowed`: false after disconnect (none may remain), true while a
** statement is open (read-only ones are fine).
*/
static int check_handles(const snap *files, int n, bool any_allowed,
                         e2e_buf *why)
{
#ifdef __linux__
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char link[300], target[PATH_MAX];
            if (e->d_name[0] == '.')
                continue;
            snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
            ssize_t len = readlink(link, target, sizeof target - 1);
            if (len <= 0)
                continue;
            target[len] = '\0';
            if (!is_watched(target, files, n))
                continue;
            if (!any_allowed) {
                e2e_buf_printf(why, "descriptor %s still open on %s after "
                               "SQLDisconnect", e->d_name, target);
                break;
            }
            char info[300], line[256];
            snprintf(info, sizeof info, "/proc/self/fdinfo/%s", e->d_name);
            FILE *f = fopen(info, "r");
            while (f && fgets(line, sizeof line, f)) {
                unsigned long flags;
                if (sscanf(line, "flags: %lo", &flags) == 1 &&
                    (flags & O_ACCMODE) != O_RDONLY)
                    e2e_buf_printf(why, "descriptor %s on %s is open for "
                                   "writing (flags 0%lo)", e->d_name, target,
                                   flags);
            }
            if (f)
                fclose(f);
        }
        closedir(d);
    }
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 128];
    while (maps && fgets(line, sizeof line, maps)) {
        char perms[8] = "";
        char *path = strchr(line, '/');
        if (!path || sscanf(line, "%*s %7s", perms) != 1)
            continue;
        path[strcspn(path, "\n")] = '\0';
        if (!is_watched(path, files, n))
            continue;
        if (!any_allowed)
            e2e_buf_printf(why, "%s still mapped after SQLDisconnect", path);
        else if (perms[1] == 'w')
            e2e_buf_printf(why, "%s is mapped writable (%s)", path, perms);
    }
    if (maps)
        fclose(maps);
#else
    (void)files; (void)n; (void)any_allowed; (void)why;
#endif
    return why->len ? -1 : 0;
}

/* Connect, run the full query, fetch everything.  A table with an oracle
** must read without error (else nothing was tested); errors of the others
** are expected and left to the corpus test. */
static void run_query(SQLHENV env, const e2e_config *cfg, const e2e_case *c,
                      const snap *files, int n, e2e_buf *why)
{
    e2e_buf cs = {0}, sql = {0}, err = {0};
    e2e_diag d;
    e2e_connstr(&cs, cfg->driver, c->path, c->connect);
    SQLHDBC dbc = e2e_connect(env, cs.ptr, true, &d);
    if (!dbc) {
        e2e_buf_printf(&err, "connect: %s", d.text);
    } else {
        SQLHSTMT st;
        SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
        e2e_select_all(&sql, c->table);
        if (SQL_SUCCEEDED(e2e_exec(st, sql.ptr, true))) {
            check_handles(files, n, true, why);
            /* Big pieces: this test is about the file, not SQLGetData. */
            uint64_t sum;
            e2e_result_checksum(st, 4096, &sum, NULL, &err);
        } else {
            e2e_diag_get(SQL_HANDLE_STMT, st, &d);
            e2e_buf_printf(&err, "%s: %s", sql.ptr, d.text);
        }
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        e2e_disconnect(dbc);
    }
    if (!why->len && err.len && c->expect == EXPECT_ROWS)
        e2e_buf_printf(why, "could not read it, so nothing was tested: %s", err.ptr);
    if (!why->len)
        check_handles(files, n, false, why);
    e2e_buf_free(&cs);
    e2e_buf_free(&sql);
    e2e_buf_free(&err);
}

int e2e_cmd_readonly(const e2e_config *cfg)
{
    e2e_case *cases = NULL;
    e2e_tally t = {0};
    int ncases = e2e_cases_load(cfg->corpus, cfg->format, &cases);
    if (ncases < 0)
        return 2;
    SQLHENV env = e2e_env_new();
    for (int i = 0; i < ncases; i++) {
        const e2e_case *c = &cases[i];
        char what[600];
        snprintf(what, sizeof what, "read-only %s/%s", cfg->format, c->file);
        snap *files = NULL;
        int n = companions(c->path, &files);
        e2e_buf why = {0};
        if (n <= 0) {
            e2e_fail(&t, what, "cannot read %s", c->path);
            free(files);
            continue;
        }
        run_query(env, cfg, c, files, n, &why);
        for (int k = 0; k < n && !why.len; k++)
            snap_compare(&files[k], &why);
        if (why.len)
            e2e_fail(&t, what, "%s", why.ptr);
        else
            e2e_pass(&t, cfg, what);
        for (int k = 0; k < n; k++)
            free(files[k].bytes);
        free(files);
        e2e_buf_free(&why);
    }
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    e2e_cases_free(cases, ncases);
    return e2e_summary(&t);
}
