/*
** workbook.c — finding the parts of an .xlsb package and reading the
** workbook part.  The workbook part is the target of the package's
** officeDocument relationship (_rels/.rels), never assumed to be under
** xl/; its own relationships (<dir>/_rels/<name>.rels) name the sheet,
** shared strings and styles parts.  workbook.bin gives the sheets in tab
** order (BrtBundleSh: visibility, relationship id, name), the date
** system (BrtWbProp's f1904 bit), and the defined names that name one
** rectangle of a worksheet (BrtName through BrtExternSheet and the
** supporting-book records), which become tables too: workbook-level ones
** as the name, sheet-level ones as "<sheet>$<name>".
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
static int bundle_sheet(xlsb_source *src, const rels *wr, const xlsb_rec *rec, uint32_t tab, lt_error *err)
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
    sh->tab = tab;
    sh->r1 = XLSB_MAX_ROW;
    sh->c1 = XLSB_MAX_COL;
    src->nsheets++;
    return 0;
}

/* ---- defined names ------------------------------------------------------------ */

#define XLSB_NAME          39
#define XLSB_SUP_SELF      357
#define XLSB_SUP_SAME      358
#define XLSB_SUP_BOOK_SRC  355
#define XLSB_EXTERN_SHEET  362
#define XLSB_SUP_ADDIN     667

/* What workbook.bin says about names: BrtName records (kept as pointers
** into the part until it is freed), the supporting books (self or not)
** and the BrtExternSheet entries the names' references go through. */
typedef struct names_state {
    xlsb_rec *names;
    uint32_t nnames;
    bool *sup_self;
    uint32_t nsup;
    const uint8_t *xti;     /* BrtExternSheet entries: 12 bytes each */
    uint32_t nxti;
} names_state;

static int keep_name(names_state *ns, const xlsb_rec *rec)
{
    xlsb_rec *n = realloc(ns->names, (ns->nnames + 1) * sizeof *n);
    if (n == NULL)
        return -1;
    ns->names = n;
    ns->names[ns->nnames++] = *rec;
    return 0;
}

static int keep_sup(names_state *ns, bool self)
{
    bool *n = realloc(ns->sup_self, (ns->nsup + 1) * sizeof *n);
    if (n == NULL)
        return -1;
    ns->sup_self = n;
    ns->sup_self[ns->nsup++] = self;
    return 0;
}

/* The worksheet (index into src->sheets) at BrtBundleSh position `tab`, or
** -1 (a chart or macro sheet, or no sheet). */
static int64_t sheet_at_tab(const xlsb_source *src, uint32_t tab)
{
    for (uint32_t i = 0; i < src->nsheets; i++)
        if (!src->sheets[i].is_name && src->sheets[i].tab == tab)
            return i;
    return -1;
}

/* The worksheet (index into src->sheets) that BrtExternSheet entry `ixti`
** names in this workbook, or -1. */
static int64_t sheet_of_xti(const xlsb_source *src, const names_state *ns, uint32_t ixti)
{
    if (ixti >= ns->nxti)
        return -1;
    const uint8_t *x = ns->xti + 12 * (size_t)ixti;
    uint32_t sup = lt_le32(x), first = lt_le32(x + 4), last = lt_le32(x + 8);
    if (sup >= ns->nsup || !ns->sup_self[sup] || first != last)
        return -1;
    return sheet_at_tab(src, first);
}

/*
** A BrtName of one rectangle of a worksheet becomes a table: a
** workbook-level one (itab 0xFFFFFFFF) named as the name, a sheet-level one
** (itab: the BrtBundleSh position of its worksheet) named
** "<sheet>$<name>" as the ACE driver lists it.  `local` picks which of the
** two this pass adds (workbook names come first).  Any other name (hidden,
** a function, built-in, a constant, a formula, another workbook's cells)
** is left out.
*/
static int add_name(xlsb_source *src, const names_state *ns, const xlsb_rec *rec, bool local,
                    lt_error *err)
{
    const uint8_t *d = rec->data;
    if (rec->len < 13)
        return 0;
    uint32_t flags = lt_le32(d), itab = lt_le32(d + 5), cch;
    size_t used;
    /* fHidden, fFunc, fOB, fProc, fBuiltin */
    if ((flags & 0x2F) != 0 || (itab != UINT32_MAX) != local ||
        !xlsb_wide_string(d + 9, rec->len - 9, &cch, &used) || cch == 0 || cch > 255)
        return 0;
    int64_t scope = local ? sheet_at_tab(src, itab) : -1;
    if (local && scope < 0)
        return 0;
    size_t p = 9 + used;
    if (rec->len - p < 4)
        return 0;
    uint32_t cce = lt_le32(d + p);
    const uint8_t *f = d + p + 4;
    if (cce > rec->len - p - 4)
        return 0;
    uint32_t r0, r1, c0, c1, ixti;
    if (cce == 9 && (f[0] & 0x9F) == 0x1A) {          /* PtgRef3d */
        ixti = lt_le16(f + 1);
        r0 = r1 = lt_le32(f + 3);
        c0 = c1 = lt_le16(f + 7) & 0x3FFF;
    } else if (cce == 15 && (f[0] & 0x9F) == 0x1B) {  /* PtgArea3d */
        ixti = lt_le16(f + 1);
        r0 = lt_le32(f + 3);
        r1 = lt_le32(f + 7);
        c0 = lt_le16(f + 11) & 0x3FFF;
        c1 = lt_le16(f + 13) & 0x3FFF;
    } else {
        return 0;
    }
    if (r0 > r1 || c0 > c1 || r1 > XLSB_MAX_ROW || c1 > XLSB_MAX_COL)
        return 0;
    int64_t si = sheet_of_xti(src, ns, ixti);
    if (si < 0)
        return 0;
    size_t slen = local ? strlen(src->sheets[scope].name) + 1 : 0;
    char *name = malloc(slen + (size_t)cch * 3 + 1);
    if (name == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (local) {
        memcpy(name, src->sheets[scope].name, slen - 1);
        name[slen - 1] = '$';
    }
    name[slen + xlsb_utf16_to_utf8(d + 13, cch, name + slen)] = '\0';
    for (uint32_t i = 0; i < src->nsheets; i++)
        if (src->sheets[i].is_name && strcasecmp(src->sheets[i].name, name) == 0) {
            free(name);
            return 0;
        }
    xlsb_sheet *sheets = realloc(src->sheets, (src->nsheets + 1) * sizeof *sheets);
    char *part = sheets ? strdup(sheets[si].part) : NULL;
    if (sheets != NULL)
        src->sheets = sheets;
    if (sheets == NULL || part == NULL) {
        free(name);
        free(part);
        return lt_error_set(err, "HY001", "out of memory");
    }
    xlsb_sheet *sh = &sheets[src->nsheets++];
    memset(sh, 0, sizeof *sh);
    sh->name = name;
    sh->part = part;
    sh->tab = UINT32_MAX;
    sh->is_name = true;
    sh->r0 = r0;
    sh->r1 = r1;
    sh->c0 = c0;
    sh->c1 = c1;
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
    names_state ns;
    memset(&ns, 0, sizeof ns);
    uint32_t tab = 0;
    int r = 0, rc = 0;
    while (rc == 0 && (r = xlsb_record_next(d, len, &pos, &rec)) == 1) {
        switch (rec.type) {
        case XLSB_WBPROP:
            if (rec.len >= 4)
                src->date1904 = (lt_le32(rec.data) & 1) != 0;
            break;
        case XLSB_BUNDLESH:
            rc = bundle_sheet(src, wr, &rec, tab++, err);
            break;
        case XLSB_NAME:
            if (keep_name(&ns, &rec) != 0)
                rc = lt_error_set(err, "HY001", "out of memory");
            break;
        case XLSB_SUP_SELF:
        case XLSB_SUP_SAME:
        case XLSB_SUP_BOOK_SRC:
        case XLSB_SUP_ADDIN:
            if (keep_sup(&ns, rec.type == XLSB_SUP_SELF) != 0)
                rc = lt_error_set(err, "HY001", "out of memory");
            break;
        case XLSB_EXTERN_SHEET:
            if (rec.len >= 4 && lt_le32(rec.data) <= (rec.len - 4) / 12) {
                ns.xti = rec.data + 4;
                ns.nxti = lt_le32(rec.data);
            }
            break;
        default:
            break;
        }
    }
    if (r < 0 && rc == 0)
        rc = lt_error_set(err, "HY000", "'%s': the workbook part '%s' has a record running past its end at "
                          "offset %zu (truncated?)", src->label, src->workbook_part, pos);
    /* Workbook-level names, then sheet-level ones (SQLTables lists them so). */
    for (int local = 0; local < 2; local++)
        for (uint32_t i = 0; rc == 0 && i < ns.nnames; i++)
            rc = add_name(src, &ns, &ns.names[i], local, err);
    free(ns.names);
    free(ns.sup_self);
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
