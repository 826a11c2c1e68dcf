/*
** platform.c — platform.h: the POSIX calls, and the path helpers every
** platform shares.
**
** Files are opened O_RDONLY and mapped PROT_READ/MAP_PRIVATE; the descriptor
** is closed right after mapping, so a folder of thousands of tables does not
** hold thousands of descriptors.  What the file looked like when mapped
** (device, inode, size, mtime) is kept, so a scan can notice that another
** program rewrote it and fail cleanly instead of returning a mix.
**
** The Windows build compiles the same file without the POSIX part and takes
** the OS calls from platform_win.c.
*/
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef _WIN32

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a mapping remembers about its file. */
typedef struct file_stamp {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    char path[];
} file_stamp;

static void stamp_fill(file_stamp *st, const struct stat *sb)
{
    st->dev = sb->st_dev;
    st->ino = sb->st_ino;
    st->size = sb->st_size;
    st->mtime = sb->st_mtim;
}

int lt_map_file(const char *path, lt_mapped_file *out, lt_error *err)
{
    out->data = NULL;
    out->size = 0;
    out->handle = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return lt_error_set(err, "08001", "cannot open '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return lt_error_set(err, "08001", "cannot read '%s': %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return lt_error_set(err, "08001", "cannot open '%s': not a regular file", path);
    }
    size_t plen = strlen(path);
    file_stamp *st = malloc(sizeof *st + plen + 1);
    if (st == NULL) {
        close(fd);
        return lt_error_set(err, "HY001", "out of memory mapping '%s'", path);
    }
    stamp_fill(st, &sb);
    memcpy(st->path, path, plen + 1);
    if (sb.st_size > 0) {
        if ((uint64_t)sb.st_size > SIZE_MAX) {
            free(st);
            close(fd);
            return lt_error_set(err, "08001", "cannot map '%s': file too large", path);
        }
        void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            free(st);
            close(fd);
            return lt_error_set(err, "08001", "cannot map '%s': %s", path, strerror(e));
        }
        out->data = p;
        out->size = (size_t)sb.st_size;
    }
    close(fd);
    out->handle = st;
    return 0;
}

void lt_unmap_file(lt_mapped_file *file)
{
    if (file->data != NULL)
        munmap((void *)file->data, file->size);
    free(file->handle);
    file->data = NULL;
    file->size = 0;
    file->handle = NULL;
}

int lt_file_check(const lt_mapped_file *file, lt_error *err)
{
    const file_stamp *st = file->handle;
    if (st == NULL)      /* not mapped from a file (memory buffers) */
        return 0;
    struct stat sb;
    if (stat(st->path, &sb) != 0)
        return lt_error_set(err, "HY000", "'%s' disappeared while Lector was reading it", st->path);
    if (sb.st_dev != st->dev || sb.st_ino != st->ino || sb.st_size != st->size ||
        sb.st_mtim.tv_sec != st->mtime.tv_sec || sb.st_mtim.tv_nsec != st->mtime.tv_nsec)
        return lt_error_set(err, "HY000", "'%s' changed while Lector was reading it; reconnect to read the new version", st->path);
    return 0;
}

bool lt_is_directory(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

bool lt_is_regular_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

long lt_list_directory(const char *dir, char ***names, lt_error *err)
{
    *names = NULL;
    DIR *d = opendir(dir);
    if (d == NULL)
        return lt_error_set(err, "08001", "cannot list folder '%s': %s", dir, strerror(errno));
    char **list = NULL;
    size_t count = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
                                     (de->d_name[1] == '.' && de->d_name[2] == '\0')))
            continue;
        if (de->d_type != DT_REG) {
            /* Symbolic links and file systems without d_type: ask stat. */
            if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
                continue;
            char *full = lt_path_join(dir, de->d_name);
            bool regular = full != NULL && lt_is_regular_file(full);
            free(full);
            if (!regular)
                continue;
        }
        if (count == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **grown = realloc(list, ncap * sizeof *list);
            if (grown == NULL)
                goto oom;
            list = grown;
            cap = ncap;
        }
        list[count] = strdup(de->d_name);
        if (list[count] == NULL)
            goto oom;
        count++;
    }
    closedir(d);
    if (count > 1)
        qsort(list, count, sizeof *list, compare_names);
    *names = list;
    return (long)count;
oom:
    closedir(d);
    lt_free_names(list, (long)count);
    return lt_error_set(err, "HY001", "out of memory listing '%s'", dir);
}

/* The "C" locale, created once, for lt_strtod. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
    c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

double lt_strtod(const char *s, char **end)
{
    pthread_once(&c_locale_once, c_locale_init);
    if (c_locale == (locale_t)0)
        return strtod(s, end);
    /* uselocale is per thread: other threads keep their own locale. */
    locale_t old = uselocale(c_locale);
    double d = strtod(s, end);
    uselocale(old);
    return d;
}

#endif /* !_WIN32 */

/* ------------------------------------------------------------------------ */
/* Paths and names: the same on every platform                              */
/* ------------------------------------------------------------------------ */

void lt_free_names(char **names, long count)
{
    if (names == NULL)
        return;
    for (long i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

char *lt_path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] != '/';
#ifdef _WIN32
    slash = slash && dir[dl - 1] != '\\';   /* Windows takes '/' as well */
#endif
    char *p = malloc(dl + slash + nl + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, dir, dl);
    if (slash)
        p[dl] = '/';
    memcpy(p + dl + slash, name, nl + 1);
    return p;
}

/* Start of the file name within `path`. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
#ifdef _WIN32
    const char *back = strrchr(path, '\\');
    if (back != NULL && (slash == NULL || back > slash))
        slash = back;
#endif
    return slash ? slash + 1 : path;
}

char *lt_path_stem(const char *path)
{
    const char *base = base_name(path);
    const char *dot = strrchr(base, '.');
    size_t len = (dot != NULL && dot != base) ? (size_t)(dot - base) : strlen(base);
    return strndup(base, len);
}

char *lt_find_companion(const char *table_path, const char *ext)
{
    if (*ext == '.')
        ext++;
    const char *base = base_name(table_path);
    const char *dot = strrchr(base, '.');
    size_t stem_len = (dot != NULL && dot != base) ? (size_t)(dot - base) : strlen(base);
    size_t dir_len = (size_t)(base - table_path);
    size_t ext_len = strlen(ext);

    /* The wanted name "stem.ext", then the folder it lives in. */
    char *want = malloc(stem_len + 1 + ext_len + 1);
    char *dir = strndup(table_path, dir_len);
    char *found = NULL;
    if (want == NULL || dir == NULL)
        goto done;
    memcpy(want, base, stem_len);
    want[stem_len] = '.';
    memcpy(want + stem_len + 1, ext, ext_len + 1);
    if (dir[0] == '\0') {
        free(dir);
        dir = strdup(".");
        if (dir == NULL)
            goto done;
    }

    /* The usual spellings first (no directory scan), then any case. */
    char *direct = lt_path_join(dir, want);
    if (direct != NULL && lt_is_regular_file(direct)) {
        found = direct;
        goto done;
    }
    free(direct);
    char **names = NULL;
    long n = lt_list_directory(dir, &names, NULL);
    for (long i = 0; i < n && found == NULL; i++)
        if (strcasecmp(names[i], want) == 0)
            found = lt_path_join(dir, names[i]);
    lt_free_names(names, n);
done:
    free(want);
    free(dir);
    return found;
}

