/*
** platform_win.c — the Windows implementation of platform.h's OS calls
** (platform.c keeps the path helpers both share).
**
** Paths arrive as UTF-8 (the driver's W entry points convert to it) and are
** opened as UTF-16; a path that is not valid UTF-8 is taken in the ANSI code
** page, as an ANSI application meant it.  Files are opened for reading with
** every sharing mode, so Excel or Access keeping the file open does not stop
** Lector, and mapped with CreateFileMapping/MapViewOfFile; both handles are
** closed once the view exists.  The mapping remembers the volume serial
** number, file index, size and last-write time, as platform.c remembers
** device, inode, size and mtime.  Compiled empty on other platforms.
*/
#ifdef _WIN32

#include "platform.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

/* What a mapping remembers about its file. */
typedef struct file_stamp {
    DWORD volume;
    DWORD index_high, index_low;
    DWORD size_high, size_low;
    FILETIME written;
    char path[];
} file_stamp;

/* `path` as a malloc'ed UTF-16 string, or NULL. */
static wchar_t *wide_path(const char *path)
{
    UINT cp = CP_UTF8;
    int n = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0) {
        cp = CP_ACP;
        n = MultiByteToWideChar(cp, 0, path, -1, NULL, 0);
        if (n <= 0)
            return NULL;
    }
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w != NULL && MultiByteToWideChar(cp, cp == CP_UTF8 ? MB_ERR_INVALID_CHARS : 0,
                                         path, -1, w, n) <= 0) {
        free(w);
        w = NULL;
    }
    return w;
}

/* The system's text for error `code`, without its line end. */
static const char *error_text(DWORD code, char *buf, DWORD size)
{
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                             NULL, code, 0, buf, size, NULL);
    if (n == 0) {
        snprintf(buf, size, "Windows error %lu", (unsigned long)code);
        return buf;
    }
    while (n > 0 && (buf[n - 1] == '\r' || buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
                     buf[n - 1] == '.'))
        buf[--n] = '\0';
    return buf;
}

/* Open `path` for reading, sharing it with every other opener. */
static HANDLE open_shared(const char *path, DWORD access)
{
    wchar_t *w = wide_path(path);
    if (w == NULL) {
        SetLastError(ERROR_INVALID_NAME);
        return INVALID_HANDLE_VALUE;
    }
    HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD e = GetLastError();
    free(w);
    SetLastError(e);
    return h;
}

static DWORD attributes(const char *path)
{
    wchar_t *w = wide_path(path);
    if (w == NULL)
        return INVALID_FILE_ATTRIBUTES;
    DWORD a = GetFileAttributesW(w);
    free(w);
    return a;
}

int lt_map_file(const char *path, lt_mapped_file *out, lt_error *err)
{
    char why[256];
    out->data = NULL;
    out->size = 0;
    out->handle = NULL;
    if (lt_is_directory(path))
        return lt_error_set(err, "08001", "cannot open '%s': not a regular file", path);
    HANDLE h = open_shared(path, GENERIC_READ);
    if (h == INVALID_HANDLE_VALUE)
        return lt_error_set(err, "08001", "cannot open '%s': %s", path,
                            error_text(GetLastError(), why, sizeof why));
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(h, &info)) {
        DWORD e = GetLastError();
        CloseHandle(h);
        return lt_error_set(err, "08001", "cannot read '%s': %s", path,
                            error_text(e, why, sizeof why));
    }
    size_t plen = strlen(path);
    file_stamp *st = malloc(sizeof *st + plen + 1);
    if (st == NULL) {
        CloseHandle(h);
        return lt_error_set(err, "HY001", "out of memory mapping '%s'", path);
    }
    st->volume = info.dwVolumeSerialNumber;
    st->index_high = info.nFileIndexHigh;
    st->index_low = info.nFileIndexLow;
    st->size_high = info.nFileSizeHigh;
    st->size_low = info.nFileSizeLow;
    st->written = info.ftLastWriteTime;
    memcpy(st->path, path, plen + 1);
    uint64_t size = ((uint64_t)info.nFileSizeHigh << 32) | info.nFileSizeLow;
    if (size > 0) {
        /* A file mapping of size 0 is an error on Windows: only map data. */
        if (size > SIZE_MAX) {
            free(st);
            CloseHandle(h);
            return lt_error_set(err, "08001", "cannot map '%s': file too large", path);
        }
        HANDLE m = CreateFileMappingW(h, NULL, PAGE_READONLY, 0, 0, NULL);
        void *p = m != NULL ? MapViewOfFile(m, FILE_MAP_READ, 0, 0, 0) : NULL;
        DWORD e = GetLastError();
        if (m != NULL)
            CloseHandle(m);   /* the view keeps the mapping alive */
        if (p == NULL) {
            free(st);
            CloseHandle(h);
            return lt_error_set(err, "08001", "cannot map '%s': %s", path,
                                error_text(e, why, sizeof why));
        }
        out->data = p;
        out->size = (size_t)size;
    }
    CloseHandle(h);
    out->handle = st;
    return 0;
}

void lt_unmap_file(lt_mapped_file *file)
{
    if (file->data != NULL)
        UnmapViewOfFile(file->data);
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
    /* Access 0: the file's identity and times, without reading it. */
    HANDLE h = open_shared(st->path, 0);
    if (h == INVALID_HANDLE_VALUE)
        return lt_error_set(err, "HY000", "'%s' disappeared while Lector was reading it", st->path);
    BY_HANDLE_FILE_INFORMATION info;
    BOOL ok = GetFileInformationByHandle(h, &info);
    CloseHandle(h);
    if (!ok || info.dwVolumeSerialNumber != st->volume ||
        info.nFileIndexHigh != st->index_high || info.nFileIndexLow != st->index_low ||
        info.nFileSizeHigh != st->size_high || info.nFileSizeLow != st->size_low ||
        CompareFileTime(&info.ftLastWriteTime, &st->written) != 0)
        return lt_error_set(err, "HY000", "'%s' changed while Lector was reading it; reconnect to read the new version", st->path);
    return 0;
}

bool lt_is_directory(const char *path)
{
    DWORD a = attributes(path);
    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

bool lt_is_regular_file(const char *path)
{
    DWORD a = attributes(path);
    return a != INVALID_FILE_ATTRIBUTES &&
           (a & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE)) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `name` (UTF-16) as a malloc'ed UTF-8 string, or NULL. */
static char *utf8_name(const wchar_t *name)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, name, -1, NULL, 0, NULL, NULL);
    if (n <= 0)
        return NULL;
    char *s = malloc((size_t)n);
    if (s != NULL && WideCharToMultiByte(CP_UTF8, 0, name, -1, s, n, NULL, NULL) <= 0) {
        free(s);
        s = NULL;
    }
    return s;
}

long lt_list_directory(const char *dir, char ***names, lt_error *err)
{
    char why[256];
    *names = NULL;
    char *pattern = lt_path_join(dir, "*");
    wchar_t *w = pattern != NULL ? wide_path(pattern) : NULL;
    free(pattern);
    if (w == NULL)
        return lt_error_set(err, "HY001", "out of memory listing '%s'", dir);
    WIN32_FIND_DATAW fd;
    HANDLE find = FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch, NULL, 0);
    free(w);
    if (find == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND)    /* an empty folder */
            return 0;
        return lt_error_set(err, "08001", "cannot list folder '%s': %s", dir,
                            error_text(e, why, sizeof why));
    }
    char **list = NULL;
    size_t count = 0, cap = 0;
    do {
        if (fd.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE))
            continue;
        if (count == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **grown = realloc(list, ncap * sizeof *list);
            if (grown == NULL)
                goto oom;
            list = grown;
            cap = ncap;
        }
        list[count] = utf8_name(fd.cFileName);
        if (list[count] == NULL)
            goto oom;
        count++;
    } while (FindNextFileW(find, &fd));
    FindClose(find);
    if (count > 1)
        qsort(list, count, sizeof *list, compare_names);
    *names = list;
    return (long)count;
oom:
    FindClose(find);
    lt_free_names(list, (long)count);
    return lt_error_set(err, "HY001", "out of memory listing '%s'", dir);
}

/* The "C" locale, created once, for lt_strtod. */
static _locale_t c_locale;
static INIT_ONCE c_locale_once = INIT_ONCE_STATIC_INIT;

static BOOL CALLBACK c_locale_init(PINIT_ONCE once, PVOID param, PVOID *context)
{
    (void)once;
    (void)param;
    (void)context;
    c_locale = _create_locale(LC_NUMERIC, "C");
    return TRUE;
}

double lt_strtod(const char *s, char **end)
{
    InitOnceExecuteOnce(&c_locale_once, c_locale_init, NULL, NULL);
    if (c_locale == NULL)
        return strtod(s, end);
    return _strtod_l(s, end, c_locale);
}

#else

/* ISO C wants something in every translation unit. */
typedef int lt_platform_win_unused;

#endif /* _WIN32 */
