/*
** connect.c — SQLConnect, SQLDriverConnect, SQLBrowseConnect,
** SQLDisconnect, and the connection-string keywords.
**
** A connection string is `key=value;` pairs; a value in {braces} may hold
** ';' and a doubled '}}'.  Keys are case-insensitive and the first
** occurrence wins.  DSN= pulls the data source's keywords from odbc.ini,
** which the string's own keywords override.  Database= (or DBQ=, as the
** Microsoft Access and dBASE drivers spell it) names the file or folder;
** every other keyword goes to the reader as an option (ShowDeleted,
** CodePage, ...).  There are no dialogs: every completion mode connects
** when the string is complete and fails with 08001 when it is not.
*/
#include "driver.h"

#include <odbcinst.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MISSING_DATABASE \
    "Database= is missing: name a data file or a folder of them " \
    "(Database=/path/to/file.dbf)"

/* ------------------------------------------------------------------------ */
/* Keyword lists                                                             */
/* ------------------------------------------------------------------------ */

typedef struct kv {
    char *key, *value;
} kv;

typedef struct kvlist {
    kv *items;
    size_t count, cap;
} kvlist;

static void kv_free(kvlist *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].key);
        free(l->items[i].value);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static kv *kv_find(const kvlist *l, const char *key)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcasecmp(l->items[i].key, key) == 0)
            return &l->items[i];
    return NULL;
}

static const char *kv_get(const kvlist *l, const char *key)
{
    const kv *e = kv_find(l, key);
    return e ? e->value : NULL;
}

/* Add key=value; an existing key keeps its value unless `replace`.
** -1 when out of memory. */
static int kv_put(kvlist *l, const char *key, size_t klen, const char *value,
                  size_t vlen, bool replace)
{
    char *k = strndup(key, klen);
    char *v = strndup(value, vlen);
    if (k == NULL || v == NULL) {
        free(k);
        free(v);
        return -1;
    }
    kv *e = kv_find(l, k);
    if (e != NULL) {
        free(k);
        if (replace) {
            free(e->value);
            e->value = v;
        } else {
            free(v);
        }
        return 0;
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        kv *items = realloc(l->items, cap * sizeof *items);
        if (items == NULL) {
            free(k);
            free(v);
            return -1;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count].key = k;
    l->items[l->count].value = v;
    l->count++;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Parsing a connection string                                               */
/* ------------------------------------------------------------------------ */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Parse `s` (`len` bytes) into `out`.  Returns SQL_SUCCESS,
** SQL_SUCCESS_WITH_INFO (01S00 posted: a piece without '=' was skipped) or
** SQL_ERROR (posted). */
static SQLRETURN parse_connection_string(lt_handle *h, const char *s, size_t len,
                                         kvlist *out)
{
    SQLRETURN rc = SQL_SUCCESS;
    size_t i = 0;
    while (i < len) {
        while (i < len && (is_space(s[i]) || s[i] == ';'))
            i++;
        if (i >= len)
            break;
        size_t kstart = i;
        while (i < len && s[i] != '=' && s[i] != ';')
            i++;
        size_t kend = i;
        while (kend > kstart && is_space(s[kend - 1]))
            kend--;
        if (i >= len || s[i] == ';') {
            lt_diag_post(h, "01S00", 0,
                         "Invalid connection string attribute '%.*s' (no '='): ignored",
                         (int)(kend - kstart), s + kstart);
            rc = SQL_SUCCESS_WITH_INFO;
            continue;
        }
        i++; /* '=' */
        while (i < len && is_space(s[i]))
            i++;
        char *value = malloc(len - i + 1);
        if (value == NULL) {
            lt_diag_post(h, "HY001", 0, "Memory allocation error");
            return SQL_ERROR;
        }
        size_t vlen = 0;
        if (i < len && s[i] == '{') {
            bool closed = false;
            for (i++; i < len; i++) {
                if (s[i] == '}') {
                    if (i + 1 < len && s[i + 1] == '}') {
                        value[vlen++] = '}';
                        i++;
                        continue;
                    }
                    closed = true;
                    i++;
                    break;
                }
                value[vlen++] = s[i];
            }
            if (!closed) {
                free(value);
                lt_diag_post(h, "08001", 0,
                             "Invalid connection string: the value of '%.*s' "
                             "has no closing '}'",
                             (int)(kend - kstart), s + kstart);
                return SQL_ERROR;
            }
            while (i < len && s[i] != ';')
                i++; /* anything between '}' and ';' is ignored */
        } else {
            size_t vstart = i;
            while (i < len && s[i] != ';')
                i++;
            size_t vend = i;
            while (vend > vstart && is_space(s[vend - 1]))
                vend--;
            memcpy(value, s + vstart, vend - vstart);
            vlen = vend - vstart;
        }
        if (kend > kstart &&
            kv_put(out, s + kstart, kend - kstart, value, vlen, false) < 0) {
            free(value);
            lt_diag_post(h, "HY001", 0, "Memory allocation error");
            return SQL_ERROR;
        }
        free(value);
    }
    return rc;
}

/* ------------------------------------------------------------------------ */
/* odbc.ini                                                                  */
/* ------------------------------------------------------------------------ */

/* Add every keyword of data source `dsn` from odbc.ini (not replacing
** those already in `out`).  -1 when out of memory. */
static int read_dsn(const char *dsn, kvlist *out)
{
    int size = 4096;
    char *keys = NULL;
    int n;
    /* The key list is "a\0b\0\0"; grow until it fits. */
    for (;;) {
        char *k = realloc(keys, (size_t)size);
        if (k == NULL) {
            free(keys);
            return -1;
        }
        keys = k;
        n = SQLGetPrivateProfileString(dsn, NULL, "", keys, size, "odbc.ini");
        if (n < size - 2 || size >= 1 << 20)
            break;
        size *= 2;
    }
    if (n < 0)
        n = 0;
    keys[n < size ? n : size - 1] = '\0';
    char value[4096];
    for (char *key = keys; key < keys + n && *key; key += strlen(key) + 1) {
        value[0] = '\0';
        SQLGetPrivateProfileString(dsn, key, "", value, (int)sizeof value,
                                   "odbc.ini");
        if (kv_put(out, key, strlen(key), value, strlen(value), false) < 0) {
            free(keys);
            return -1;
        }
    }
    free(keys);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Connecting                                                                */
/* ------------------------------------------------------------------------ */

static bool connection_keyword(const char *key)
{
    static const char *const own[] = {"DSN", "DRIVER", "DATABASE", "DBQ",
                                      "FILEDSN", "SAVEFILE"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcasecmp(key, own[i]) == 0)
            return true;
    return false;
}

static void free_keywords(lt_keywords *k)
{
    for (size_t i = 0; i < k->count; i++) {
        free((char *)k->items[i].key);
        free((char *)k->items[i].value);
    }
    free(k->items);
    k->items = NULL;
    k->count = 0;
}

static void forget_connection(lt_dbc *dbc)
{
    free_keywords(&dbc->keywords);
    free(dbc->dsn);
    free(dbc->database);
    free(dbc->driver_name);
    dbc->dsn = dbc->database = dbc->driver_name = NULL;
}

/* MemoryLimit=: the MiB a query may hold while sorting, grouping or
** joining (sql_stmt_set_memory_limit); absent: the engine's default; 0: no
** limit.  -1 unless a whole number of MiB. */
static int parse_memory_limit(const char *value, uint64_t *bytes)
{
    *bytes = SQL_DEFAULT_MEMORY_LIMIT;
    if (value == NULL)
        return 0;
    while (is_space(*value))
        value++;
    uint64_t mib = 0;
    const char *p = value;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (mib > ((uint64_t)1 << 40))
            return -1;
        mib = mib * 10 + (uint64_t)(*p - '0');
    }
    while (is_space(*p))
        p++;
    if (p == value || *p != '\0' || mib > ((uint64_t)1 << 40))
        return -1;
    *bytes = mib << 20;
    return 0;
}

/* Open the data source the keywords name; takes the keywords' strings. */
static SQLRETURN open_source(lt_dbc *dbc, kvlist *kw)
{
    lt_handle *h = &dbc->h;
    const char *limit = kv_get(kw, "MemoryLimit");
    if (parse_memory_limit(limit, &dbc->memory_limit) != 0) {
        lt_diag_post(h, "08001", 0, "MemoryLimit=%s: expected a whole number of MiB "
                     "(0 for no limit)", limit);
        return SQL_ERROR;
    }
    /* Database= and DBQ= are one keyword: the first given wins. */
    const char *database = NULL;
    for (size_t i = 0; i < kw->count && database == NULL; i++)
        if ((strcasecmp(kw->items[i].key, "DATABASE") == 0 ||
             strcasecmp(kw->items[i].key, "DBQ") == 0) && kw->items[i].value[0] != '\0')
            database = kw->items[i].value;
    if (database == NULL || *database == '\0') {
        lt_diag_post(h, "08001", 0, MISSING_DATABASE);
        return SQL_ERROR;
    }
    dbc->keywords.items = calloc(kw->count ? kw->count : 1, sizeof(lt_option));
    const char *dsn = kv_get(kw, "DSN");
    const char *driver = kv_get(kw, "DRIVER");
    dbc->dsn = strdup(dsn ? dsn : "");
    dbc->database = strdup(database);
    dbc->driver_name = driver ? strdup(driver) : NULL;
    if (dbc->keywords.items == NULL || dbc->dsn == NULL || dbc->database == NULL ||
        (driver != NULL && dbc->driver_name == NULL)) {
        forget_connection(dbc);
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    /* The reader's options: every keyword that is not the connection's own. */
    for (size_t i = 0; i < kw->count; i++) {
        if (connection_keyword(kw->items[i].key))
            continue;
        lt_option *o = &dbc->keywords.items[dbc->keywords.count++];
        o->key = kw->items[i].key;
        o->value = kw->items[i].value;
        kw->items[i].key = kw->items[i].value = NULL;
    }
    lt_options opts = {dbc->keywords.count, dbc->keywords.items};
    lt_error err;
    lt_error_clear(&err);
    lt_source *src = NULL;
    if (lt_source_open(dbc->database, &opts, &src, &err) != 0) {
        if (err.sqlstate[0] == '\0')
            lt_error_set(&err, "08001", "cannot open %s", dbc->database);
        lt_diag_error(h, &err);
        forget_connection(dbc);
        return SQL_ERROR;
    }
    dbc->source = src;
    dbc->connected = true;
    return SQL_SUCCESS;
}

/* Append `key=value;` to `out` (room for `cap`), bracing values that need
** it.  Returns the new length (which may exceed cap: then out holds a
** prefix only). */
static size_t append_pair(char *out, size_t cap, size_t len, const char *key,
                          const char *value)
{
    bool brace = value[0] == '\0' || strpbrk(value, ";{}=") != NULL ||
                 is_space(value[0]) || is_space(value[strlen(value) - 1]);
    #define PUT(c) do { if (len + 1 < cap) out[len] = (c); len++; } while (0)
    for (const char *p = key; *p; p++)
        PUT(*p);
    PUT('=');
    if (brace)
        PUT('{');
    for (const char *p = value; *p; p++) {
        PUT(*p);
        if (brace && *p == '}')
            PUT('}');
    }
    if (brace)
        PUT('}');
    PUT(';');
    #undef PUT
    if (cap > 0)
        out[len < cap ? len : cap - 1] = '\0';
    return len;
}

/* The complete, normalised connection string of a connected dbc (malloc'ed). */
static char *connection_string(const lt_dbc *dbc)
{
    size_t cap = 256, len;
    char *out = NULL;
    for (;;) {
        char *o = realloc(out, cap);
        if (o == NULL) {
            free(out);
            return NULL;
        }
        out = o;
        out[0] = '\0';
        len = 0;
        if (dbc->dsn != NULL && dbc->dsn[0] != '\0')
            len = append_pair(out, cap, len, "DSN", dbc->dsn);
        else
            len = append_pair(out, cap, len, "DRIVER",
                              dbc->driver_name ? dbc->driver_name : LT_DRIVER_NAME);
        len = append_pair(out, cap, len, "Database", dbc->database);
        for (size_t i = 0; i < dbc->keywords.count; i++)
            len = append_pair(out, cap, len, dbc->keywords.items[i].key,
                              dbc->keywords.items[i].value);
        if (len < cap)
            return out;
        cap = len + 1;
    }
}

/* Parse `in`, merge the DSN's keywords and connect. */
static SQLRETURN connect_with_string(lt_dbc *dbc, const char *in, size_t inlen)
{
    lt_handle *h = &dbc->h;
    kvlist kw = {0};
    SQLRETURN rc = parse_connection_string(h, in, inlen, &kw);
    if (rc == SQL_ERROR) {
        kv_free(&kw);
        return rc;
    }
    const char *dsn = kv_get(&kw, "DSN");
    if (dsn != NULL && *dsn != '\0' && read_dsn(dsn, &kw) < 0) {
        kv_free(&kw);
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    SQLRETURN crc = open_source(dbc, &kw);
    kv_free(&kw);
    return crc == SQL_SUCCESS ? rc : crc;
}

SQLRETURN SQL_API SQLConnect(SQLHDBC ConnectionHandle, SQLCHAR *ServerName,
                             SQLSMALLINT NameLength1, SQLCHAR *UserName,
                             SQLSMALLINT NameLength2, SQLCHAR *Authentication,
                             SQLSMALLINT NameLength3)
{
    (void)UserName; (void)NameLength2; (void)Authentication; (void)NameLength3;
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    if (dbc->connected) {
        lt_diag_post(h, "08002", 0, "Connection name in use");
        return lt_leave(h, SQL_ERROR);
    }
    SQLLEN n = lt_str_in_len(ServerName, NameLength1);
    if (ServerName == NULL || n <= 0) {
        lt_diag_post(h, n < 0 ? "HY090" : "08001", 0,
                     n < 0 ? "Invalid string or buffer length"
                           : "No data source name given");
        return lt_leave(h, SQL_ERROR);
    }
    kvlist kw = {0};
    if (kv_put(&kw, "DSN", 3, (const char *)ServerName, (size_t)n, true) < 0 ||
        read_dsn(kw.items[0].value, &kw) < 0) {
        kv_free(&kw);
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_ERROR);
    }
    if (kv_get(&kw, "DATABASE") == NULL && kv_get(&kw, "DBQ") == NULL) {
        lt_diag_post(h, "08001", 0, "Data source '%s' has no Database= keyword "
                     "in odbc.ini: " MISSING_DATABASE, kw.items[0].value);
        kv_free(&kw);
        return lt_leave(h, SQL_ERROR);
    }
    SQLRETURN rc = open_source(dbc, &kw);
    kv_free(&kw);
    return lt_leave(h, rc);
}

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC ConnectionHandle, SQLHWND WindowHandle,
                                   SQLCHAR *InConnectionString, SQLSMALLINT StringLength1,
                                   SQLCHAR *OutConnectionString, SQLSMALLINT BufferLength,
                                   SQLSMALLINT *StringLength2Ptr,
                                   SQLUSMALLINT DriverCompletion)
{
    (void)WindowHandle;
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    if (dbc->connected) {
        lt_diag_post(h, "08002", 0, "Connection name in use");
        return lt_leave(h, SQL_ERROR);
    }
    if (DriverCompletion != SQL_DRIVER_NOPROMPT && DriverCompletion != SQL_DRIVER_COMPLETE &&
        DriverCompletion != SQL_DRIVER_PROMPT &&
        DriverCompletion != SQL_DRIVER_COMPLETE_REQUIRED) {
        lt_diag_post(h, "HY110", 0, "Invalid driver completion %u", DriverCompletion);
        return lt_leave(h, SQL_ERROR);
    }
    SQLLEN inlen = lt_str_in_len(InConnectionString, StringLength1);
    if (inlen < 0 || BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    SQLRETURN rc = connect_with_string(dbc, InConnectionString ? (const char *)InConnectionString : "",
                                       (size_t)inlen);
    if (rc == SQL_ERROR)
        return lt_leave(h, rc);
    char *out = connection_string(dbc);
    if (out == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_SUCCESS_WITH_INFO);
    }
    SQLRETURN orc = lt_str_out(h, out, OutConnectionString, BufferLength,
                               StringLength2Ptr, NULL);
    free(out);
    return lt_leave(h, orc == SQL_SUCCESS ? rc : SQL_SUCCESS_WITH_INFO);
}

SQLRETURN SQL_API SQLBrowseConnect(SQLHDBC ConnectionHandle, SQLCHAR *InConnectionString,
                                   SQLSMALLINT StringLength1, SQLCHAR *OutConnectionString,
                                   SQLSMALLINT BufferLength, SQLSMALLINT *StringLength2Ptr)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    if (dbc->connected) {
        lt_diag_post(h, "08002", 0, "Connection name in use");
        return lt_leave(h, SQL_ERROR);
    }
    SQLLEN inlen = lt_str_in_len(InConnectionString, StringLength1);
    if (inlen < 0 || BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    /* Keywords of earlier calls in this browse are remembered: the new
    ** ones are appended to them. */
    size_t old = dbc->browse_partial ? strlen(dbc->browse_partial) : 0;
    char *all = realloc(dbc->browse_partial, old + (size_t)inlen + 2);
    if (all == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_ERROR);
    }
    dbc->browse_partial = all;
    all[old] = ';';
    if (inlen > 0)
        memcpy(all + old + 1, InConnectionString, (size_t)inlen);
    all[old + 1 + (size_t)inlen] = '\0';

    kvlist kw = {0};
    SQLRETURN rc = parse_connection_string(h, all, strlen(all), &kw);
    const char *dsn = kv_get(&kw, "DSN");
    if (rc != SQL_ERROR && dsn != NULL && *dsn != '\0' && read_dsn(dsn, &kw) < 0)
        rc = SQL_ERROR;
    if (rc == SQL_ERROR) {
        kv_free(&kw);
        free(dbc->browse_partial);
        dbc->browse_partial = NULL;
        return lt_leave(h, rc);
    }
    if (kv_get(&kw, "DATABASE") == NULL && kv_get(&kw, "DBQ") == NULL) {
        kv_free(&kw);
        SQLRETURN orc = lt_str_out(h, "DATABASE:Data file or folder=?;",
                                   OutConnectionString, BufferLength,
                                   StringLength2Ptr, NULL);
        (void)orc;
        return lt_leave(h, SQL_NEED_DATA);
    }
    free(dbc->browse_partial);
    dbc->browse_partial = NULL;
    SQLRETURN crc = open_source(dbc, &kw);
    kv_free(&kw);
    if (crc == SQL_ERROR)
        return lt_leave(h, crc);
    char *out = connection_string(dbc);
    SQLRETURN orc = lt_str_out(h, out ? out : "", OutConnectionString, BufferLength,
                               StringLength2Ptr, NULL);
    free(out);
    return lt_leave(h, orc == SQL_SUCCESS ? rc : SQL_SUCCESS_WITH_INFO);
}

SQLRETURN SQL_API SQLDisconnect(SQLHDBC ConnectionHandle)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    free(dbc->browse_partial);
    dbc->browse_partial = NULL;
    if (!dbc->connected) {
        lt_diag_post(h, "08003", 0, "Connection not open");
        return lt_leave(h, SQL_ERROR);
    }
    /* Nothing is ever written, so there is no transaction to lose (no
    ** 25000): statements and descriptors simply go. */
    while (dbc->stmts != NULL)
        lt_stmt_free(dbc->stmts);
    while (dbc->descs != NULL)
        lt_desc_free(dbc->descs);
    lt_source_close(dbc->source);
    dbc->source = NULL;
    dbc->connected = false;
    forget_connection(dbc);
    return lt_leave(h, SQL_SUCCESS);
}
