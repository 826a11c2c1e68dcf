/*
** workbook.c — finding the parts of an .xlsb package and reading the
** workbook part.  The workbook part is the target of the package's
** officeDocument relationship (_rels/.rels), never assumed to be under
** xl/; its own relationships (<dir>/_rels/<name>.rels) name the sheet,
** shared strings and styles parts.  workbook.bin gives the sheets in tab
** order (BrtBundleSh: visibility, relationship id, name) and the date
** system (BrtWbProp's f1904 bit).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

typedef struct rel {
    char *id, *type, *target;   /* target resolved to a ZIP name */
} rel;

typedef struct rels {
    rel *items;
    uint32_t n;
} rels;

static void rels_free(rels *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        free(r->items[i].id);
        free(r->items[i].type);
        free(r->items[i].target);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

int xlsb_read_part(const xlsb_source *src, const char *part, uint8_t **out, size_t *len, lt_error *err)
{
    int64_t e = xlsb_zip_find(&src->zip, part);
    if (e < 0)
        return lt_error_set(err, "HY000", "'%s': the package has no part '%s'", src->label, part);
    return xlsb_zip_read(&src->zip, (uint32_t)e, XLSB_PART_MAX, out, len, err);
}

/* An attribute's value in the element text el[0..n), entities and %XX
** escapes decoded; NULL when absent (or out of memory). */
static char *attribute(const char *el, size_t n, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 1; i + nl + 2 < n; i++) {
        if ((el[i - 1] != ' ' && el[i - 1] != '\t' && el[i - 1] != '\n' && el[i - 1] != '\r') ||
            strncmp(el + i, name, nl) != 0)
            continue;
        size_t p = i + nl;
        while (p < n && (el[p] == ' ' || el[p] == '\t'))
            p++;
        if (p >= n || el[p] != '=')
            continue;
        p++;
        while (p < n && (el[p] == ' ' || el[p] == '\t'))
            p++;
        if (p >= n || (el[p] != '"' && el[p] != '\''))
            continue;
        char q = el[p++];
        size_t end = p;
        while (end < n && el[end] != q)
            end++;
        char *v = malloc(end - p + 1);
        if (v == NULL)
            return NULL;
        size_t o = 0;
        for (size_t k = p; k < end; k++) {
            static const struct { const char *e; char c; } ents[] = {
                {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
            bool done = false;
            for (size_t x = 0; x < 5 && el[k] == '&'; x++) {
                size_t el_len = strlen(ents[x].e);
                if (k + el_len <= end && strncmp(el + k, ents[x].e, el_len) == 0) {
                    v[o++] = ents[x].c;
                    k += el_len - 1;
                    done = true;
                    break;
                }
            }
            if (done)
                continue;
            if (el[k] == '%' && k + 2 < end && strchr("0123456789abcdefABCDEF", el[k + 1]) && el[k + 1] &&
                strchr("0123456789abcdefABCDEF", el[k + 2]) && el[k + 2]) {
                char hex[3] = {el[k + 1], el[k + 2], 0};
                char c = (char)strtol(hex, NULL, 16);
                if (c != '\0') {
                    v[o++] = c;
                    k += 2;
                    continue;
                }
            }
            v[o++] = el[k];
        }
        v[o] = '\0';
        return v;
    }
    return NULL;
}

/* `target` relative to the folder `base` ("xl/"), "." and ".." resolved. */
static char *resolve(const char *base, const char *target)
{
    size_t bl = target[0] == '/' ? 0 : strlen(base), tl = strlen(target);
    char *joined = malloc(bl + tl + 1);
    char *out = malloc(bl + tl + 1);
    if (joined == NULL || out == NULL) {
        free(joined);
        free(out);
        return NULL;
    }
    memcpy(joined, base, bl);
    memcpy(joined + bl, target, tl + 1);
    size_t o = 0;
    for (char *seg = joined; *seg != '\0';) {
        char *slash = strchr(seg, '/');
        size_t sl = slash ? (size_t)(slash - seg) : strlen(seg);
        if (sl == 2 && seg[0] == '.' && seg[1] == '.') {
            if (o > 0)
                o--;   /* drop the trailing '/' */
            while (o > 0 && out[o - 1] != '/')
                o--;
        } else if (sl > 0 && !(sl == 1 && seg[0] == '.')) {
            memcpy(out + o, seg, sl);
            o += sl;
            if (slash != NULL)
                out[o++] = '/';
        }
        seg = slash ? slash + 1 : seg + sl;
    }
    out[o] = '\0';
    free(joined);
    return out;
}

/* The folder of a part, with its '/' ("xl/" for "xl/workbook.bin"). */
static char *folder_of(const char *part)
{
    const char *slash = strrchr(part, '/');
    size_t n = slash ? (size_t)(slash - part) + 1 : 0;
    char *f = malloc(n + 1);
    if (f != NULL) {
        memcpy(f, part, n);
        f[n] = '\0';
    }
    return f;
}

/* The relationships of `part` ("" for the package); a missing .rels part
** gives none. */
static int read_rels(const xlsb_source *src, const char *part, rels *out, lt_error *err)
{
    memset(out, 0, sizeof *out);
    char *base = folder_of(part);
    if (base == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    const char *name = part + strlen(base);
    size_t need = strlen(base) + strlen(name) + 16;
    char *path = malloc(need);
    if (path == NULL) {
        free(base);
        return lt_error_set(err, "HY001", "out of memory");
    }
    snprintf(path, need, "%s_rels/%s.rels", base, name);
    uint8_t *xml = NULL;
    size_t len = 0;
    int rc = 0;
    if (xlsb_zip_find(&src->zip, path) < 0)
        goto done;
    if ((rc = xlsb_read_part(src, path, &xml, &len, err)) != 0)
        goto done;
    const char *s = (const char *)xml;
    for (size_t i = 0; i + 13 < len; i++) {
        if (s[i] != '<')
            continue;
        size_t p = i + 1;
        /* an optional namespace prefix */
        size_t q = p;
        while (q < len && q - p < 32 && s[q] != ':' && s[q] != ' ' && s[q] != '>')
            q++;
        if (q < len && s[q] == ':')
            p = q + 1;
        if (len - p < 13 || strncmp(s + p, "Relationship", 12) != 0 || (s[p + 12] != ' ' &&
                                                                         s[p + 12] != '\t' && s[p + 12] != '\n' && s[p + 12] != '\r'))
            continue;
        size_t end = p;
        while (end < len && s[end] != '>')
            end++;
        char *id = attribute(s + p, end - p, "Id");
        char *type = attribute(s + p, end - p, "Type");
        char *target = attribute(s + p, end - p, "Target");
        char *mode = attribute(s + p, end - p, "TargetMode");
        char *resolved = target ? resolve(base, target) : NULL;
        bool external = mode != NULL && strcasecmp(mode, "External") == 0;
        free(target);
        free(mode);
        if (id == NULL || type == NULL || resolved == NULL || external) {
            free(id);
            free(type);
            free(resolved);
            i = end;
            continue;
        }
        rel *items = realloc(out->items, (out->n + 1) * sizeof *items);
        if (items == NULL) {
            free(id);
            free(type);
            free(resolved);
            rc = lt_error_set(err, "HY001", "out of memory");
            goto done;
        }
        out->items = items;
        out->items[out->n++] = (rel){id, type, resolved};
        i = end;
    }
done:
    free(xml);
    free(path);
    free(base);
    if (rc != 0)
        rels_free(out);
    return rc;
}

static bool type_is(const char *type, const char *last)
{
    const char *slash = strrchr(type, '/');
    return slash != NULL && strcmp(slash + 1, last) == 0;
}

static const rel *rel_by_type(const rels *r, const char *last)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (type_is(r->items[i].type, last))
            return &r->items[i];
    return NULL;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* A BrtBundleSh: a worksheet becomes a sheet; other kinds are skipped. */
static int bundle_sheet(xlsb_source *src, const rels *wr, const xlsb_rec *rec, lt_error *err)
{
    if (rec->len < 8)
        return lt_error_set(err, "HY000", "'%s': malformed sheet record (BrtBundleSh) in the workbook part",
                            src->label);
    uint32_t hs = lt_le32(rec->data);
    uint32_t cch;
    size_t used;
    const uint8_t *p = rec->data + 8;
    size_t left = rec->len - 8;
    const char *relid = NULL;
    char idbuf[3 * 256 + 1];
    if (left >= 4 && lt_le32(p) == UINT32_MAX) {
        p += 4;
        left -= 4;
    } else if (xlsb_wide_string(p, left, &cch, &used) && cch <= 256) {
        idbuf[xlsb_utf16_to_utf8(p + 4, cch, idbuf)] = '\0';
        relid = idbuf;
        p += used;
        left -= used;
    } else {
        return lt_error_set(err, "HY000", "'%s': malformed sheet record (BrtBundleSh) in the workbook part",
                            src->label);
    }
    if (!xlsb_wide_string(p, left, &cch, &used))
        return lt_error_set(err, "HY000", "'%s': malformed sheet name (BrtBundleSh) in the workbook part",
                            src->label);
    const rel *r = NULL;
    for (uint32_t i = 0; relid != NULL && i < wr->n && r == NULL; i++)
        if (strcmp(wr->items[i].id, relid) == 0)
            r = &wr->items[i];
    if (r == NULL || !type_is(r->type, "worksheet"))
        return 0;   /* chart, macro or dialog sheet, or no part: no table */
    xlsb_sheet *sheets = realloc(src->sheets, (src->nsheets + 1) * sizeof *sheets);
    if (sheets == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    src->sheets = sheets;
    xlsb_sheet *sh = &sheets[src->nsheets];
    memset(sh, 0, sizeof *sh);
    sh->name = malloc((size_t)cch * 3 + 1);
    sh->part = strdup(r->target);
    if (sh->name == NULL || sh->part == NULL) {
        free(sh->name);
        free(sh->part);
        return lt_error_set(err, "HY001", "out of memory");
    }
    sh->name[xlsb_utf16_to_utf8(p + 4, cch, sh->name)] = '\0';
    sh->visibility = (uint8_t)(hs > 2 ? 2 : hs);
    src->nsheets++;
    return 0;
}

static int parse_workbook_part(xlsb_source *src, const rels *wr, lt_error *err)
{
    uint8_t *d = NULL;
    size_t len = 0;
    if (xlsb_read_part(src, src->workbook_part, &d, &len, err) != 0)
        return -1;
    size_t pos = 0;
    xlsb_rec rec;
    int r, rc = 0;
    while ((r = xlsb_record_next(d, len, &pos, &rec)) == 1) {
        if (rec.type == XLSB_WBPROP && rec.len >= 4)
            src->date1904 = (lt_le32(rec.data) & 1) != 0;
        else if (rec.type == XLSB_BUNDLESH && (rc = bundle_sheet(src, wr, &rec, err)) != 0)
            break;
    }
    if (r < 0 && rc == 0)
        rc = lt_error_set(err, "HY000", "'%s': the workbook part '%s' has a record running past its end at "
                          "offset %zu (truncated?)", src->label, src->workbook_part, pos);
    free(d);
    return rc;
}

int xlsb_workbook_parse(xlsb_source *src, lt_error *err)
{
    rels pr, wr;
    if (read_rels(src, "", &pr, err) != 0)
        return -1;
    const rel *doc = rel_by_type(&pr, "officeDocument");
    src->workbook_part = doc ? strdup(doc->target) : NULL;
    if (doc == NULL) {
        /* No package relationships: the usual place, if it is there. */
        if (xlsb_zip_find(&src->zip, "xl/workbook.bin") >= 0)
            src->workbook_part = strdup("xl/workbook.bin");
    }
    rels_free(&pr);
    if (src->workbook_part == NULL)
        return lt_error_set(err, "HY000", "'%s': the package names no workbook part (_rels/.rels); not an "
                            "Excel workbook?", src->label);
    size_t wl = strlen(src->workbook_part);
    if (wl < 4 || strcasecmp(src->workbook_part + wl - 4, ".bin") != 0)
        return lt_error_set(err, "HY000", "'%s': the workbook part '%s' is not binary (an .xlsx or .xlsm "
                            "saved as .xlsb?)", src->label, src->workbook_part);
    if (read_rels(src, src->workbook_part, &wr, err) != 0)
        return -1;
    const rel *sst = rel_by_type(&wr, "sharedStrings");
    const rel *sty = rel_by_type(&wr, "styles");
    src->sst_part = dup_or_null(sst ? sst->target : NULL);
    src->styles_part = dup_or_null(sty ? sty->target : NULL);
    int rc = 0;
    if ((sst && src->sst_part == NULL) || (sty && src->styles_part == NULL))
        rc = lt_error_set(err, "HY001", "out of memory");
    if (rc == 0)
        rc = parse_workbook_part(src, &wr, err);
    rels_free(&wr);
    return rc;
}
