/*
** platform.h — every operating-system call the readers make.
**
** File mapping, directory listing, file status.  Nothing else in readers/
** calls the OS, so a Windows build replaces only platform.c.  Data files are
** opened read-only and mapped PROT_READ: Lector never writes, locks for
** writing or touches the mtime of a user's file.
*/
#ifndef LT_PLATFORM_H
#define LT_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct lt_mapped_file {
    const uint8_t *data;    /* NULL for an empty file */
    size_t size;
    void *handle;           /* platform's own */
} lt_mapped_file;

/* Map `path` read-only.  Missing or unreadable: 08001 naming the path. */
int lt_map_file(const char *path, lt_mapped_file *out, lt_error *err);
void lt_unmap_file(lt_mapped_file *file);

bool lt_is_directory(const char *path);
bool lt_is_regular_file(const char *path);

/* Names (not paths) of the regular files in `dir`, sorted by name (byte
** order), as a malloc'ed array of malloc'ed strings.  Returns the count or
** -1 with err (08001) filled. */
long lt_list_directory(const char *dir, char ***names, lt_error *err);
void lt_free_names(char **names, long count);

/* The first existing file named `dir/stem.ext` for any case of `ext` and
** of the whole name (case-insensitive companion look-up: FOO.DBT beside
** foo.dbf).  Returns a malloc'ed path or NULL. */
char *lt_find_companion(const char *table_path, const char *ext);

/* 0 when the file on disk still has the identity, size and modification
** time it had when mapped; else -1 with HY000 naming the file ("changed
** while Lector was reading it"), so a scan fails instead of mixing data. */
int lt_file_check(const lt_mapped_file *file, lt_error *err);

/* Parse a decimal floating-point number ("-1.5e3") the C-locale way whatever
** the process's locale says (a host application may set LC_NUMERIC).  `s`
** is NUL-terminated; *end (if not NULL) is set past the number as strtod
** does. */
double lt_strtod(const char *s, char **end);

/* malloc'ed "dir/name". */
char *lt_path_join(const char *dir, const char *name);

/* The file name without directory and without its last extension, as a
** malloc'ed string ("/a/b/Foo.DBF" -> "Foo"). */
char *lt_path_stem(const char *path);

#endif /* LT_PLATFORM_H */
