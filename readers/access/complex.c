/*
** complex.c — complex columns (Access 2007+): attachments, multi-value
** fields and the version history of append-only memos.
**
** A complex column stores in each row only a complex-value id (4 bytes).
** Its values live in a hidden "flat" table (f_<GUID>_<column>) with one row
** per value: the type's value columns (the columns of the type table
** MSysComplexType_* or MSysComplexTypeVH_*), an autonumber key, and a Long
** holding the complex-value id of the row it belongs to.  The column's
** descriptor holds its ComplexID; MSysComplexColumns maps that to the flat
** table and the type table (their MSysObjects Ids, i.e. their TDEF pages).
**
** Lector exposes a complex column as text listing its values for the row
** (NULL when it has none): attachments as their file names, multi-value
** fields as their values ("a, b"), version history as "[timestamp] text"
** entries separated by "; ".  The flat tables are read once, at open.
*/
#include "access_internal.h"

#include "../common/datetime.h"
#include "../common/numfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One resolved row of MSysComplexColumns. */
typedef struct cx_def {
    int32_t complex_id;
    uint32_t flat_page, type_page;
} cx_def;

typedef struct cx_defs {
    cx_def *v;
    uint32_t n, cap;
} cx_defs;

static int def_row(void *ctx, const lt_value *v, lt_error *err)
{
    (void)err;
    cx_defs *d = ctx;
    if (v[0].type != LT_INT64 || v[1].type != LT_INT64 || v[2].type != LT_INT64)
        return 0;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 8;
        cx_def *g = realloc(d->v, cap * sizeof *g);
        if (g == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        d->v = g;
        d->cap = cap;
    }
    d->v[d->n++] = (cx_def){(int32_t)v[0].u.i64, (uint32_t)v[1].u.i64 & 0xffffff,
                            (uint32_t)v[2].u.i64 & 0xffffff};
    return 0;
}

static int64_t table_at_page(const access_source *s, uint32_t page)
{
    for (uint32_t i = 0; i < s->base.ntables; i++)
        if (s->mtables[i].tdef_page == page && s->base.tables[i].error == NULL &&
            s->base.tables[i].ncols > 0)
            return i;
    return -1;
}

/* ---- values as text ------------------------------------------------------------ */

static int append_timestamp(mdb_buf *b, int64_t ts)
{
    int32_t days;
    int64_t usec;
    lt_timestamp_split(ts, &days, &usec);
    int y, mo, d, h, mi, s, us;
    lt_civil_from_days(days, &y, &mo, &d);
    lt_time_split(usec, &h, &mi, &s, &us);
    char tmp[48];
    int n = snprintf(tmp, sizeof tmp, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
    if (us % 1000 == 0 && us != 0)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, ".%03d", us / 1000);
    else if (us != 0)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, ".%06d", us);
    return mdb_buf_add(b, tmp, (size_t)n);
}

static int append_value(mdb_buf *b, const lt_value *v, int scale)
{
    char tmp[LT_FMT_DECIMAL_MAX];
    int n = 0;
    switch (v->type) {
    case LT_NULL: return 0;
    case LT_TEXT: return mdb_buf_add(b, v->u.bytes.ptr, v->u.bytes.len);
    case LT_BOOL: n = snprintf(tmp, sizeof tmp, "%d", v->u.b ? 1 : 0); break;
    case LT_INT64: n = (int)lt_format_int64(v->u.i64, tmp); break;
    case LT_DOUBLE: n = (int)lt_format_double(v->u.f64, tmp); break;
    case LT_DECIMAL: n = (int)lt_format_decimal(v->u.dec, scale, tmp); break;
    case LT_TIMESTAMP: return append_timestamp(b, v->u.i64);
    case LT_GUID: {
        const lt_guid *g = &v->u.guid;
        n = snprintf(tmp, sizeof tmp, "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", g->data1,
                     g->data2, g->data3, g->data4[0], g->data4[1], g->data4[2], g->data4[3],
                     g->data4[4], g->data4[5], g->data4[6], g->data4[7]);
        break;
    }
    case LT_BINARY:
        for (uint32_t i = 0; i < v->u.bytes.len; i++) {
            char h[3];
            snprintf(h, sizeof h, "%02x", (unsigned char)v->u.bytes.ptr[i]);
            if (mdb_buf_add(b, h, 2) != 0)
                return -1;
        }
        return 0;
    case LT_DATE: case LT_TIME: break;
    }
    return mdb_buf_add(b, tmp, (size_t)n);
}

/* ---- reading a flat table ----------------------------------------------------------- */

#define CX_VALUES 4

typedef struct flat_ctx {
    mdb_complex *cx;
    uint32_t cap;
    uint32_t nvals;
    int16_t scales[CX_VALUES];
    bool history;              /* values: text, then its timestamp */
    mdb_buf buf;
} flat_ctx;

static int flat_row(void *ctx, const lt_value *v, lt_error *err)
{
    flat_ctx *f = ctx;
    mdb_complex *cx = f->cx;
    if (v[0].type != LT_INT64)
        return 0;               /* a value belonging to no row */
    f->buf.len = 0;
    if (mdb_buf_add(&f->buf, "", 0) != 0)
        goto oom;
    if (f->history) {
        if (mdb_buf_add(&f->buf, "[", 1) != 0 || append_value(&f->buf, &v[2], 0) != 0 ||
            mdb_buf_add(&f->buf, "] ", 2) != 0 || append_value(&f->buf, &v[1], 0) != 0)
            goto oom;
    } else {
        for (uint32_t k = 1; k <= f->nvals; k++) {
            if (k > 1 && mdb_buf_add(&f->buf, " ", 1) != 0)
                goto oom;
            if (append_value(&f->buf, &v[k], f->scales[k - 1]) != 0)
                goto oom;
        }
    }
    if (cx->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 16;
        int32_t *ids = realloc(cx->ids, cap * sizeof *ids);
        if (ids == NULL)
            goto oom;
        cx->ids = ids;
        char **texts = realloc(cx->texts, cap * sizeof *texts);
        if (texts == NULL)
            goto oom;
        cx->texts = texts;
        f->cap = cap;
    }
    cx->texts[cx->n] = strdup((const char *)f->buf.p);
    if (cx->texts[cx->n] == NULL)
        goto oom;
    cx->ids[cx->n++] = (int32_t)v[0].u.i64;
    return 0;
oom:
    return lt_error_set(err, "HY001", "out of memory");
}

/* Stable sort of the entries by id (insertion sort: flat tables are small
** and mostly in id order already). */
static void sort_entries(mdb_complex *cx)
{
    for (uint32_t i = 1; i < cx->n; i++) {
        int32_t id = cx->ids[i];
        char *t = cx->texts[i];
        uint32_t j = i;
        while (j > 0 && cx->ids[j - 1] > id) {
            cx->ids[j] = cx->ids[j - 1];
            cx->texts[j] = cx->texts[j - 1];
            j--;
        }
        cx->ids[j] = id;
        cx->texts[j] = t;
    }
}

static int set_cx_error(mdb_complex *cx, const char *fmt, const char *a, const char *b)
{
    char text[LT_ERROR_MESSAGE_MAX];
    snprintf(text, sizeof text, fmt, a, b);
    cx->error = strdup(text);
    return cx->error == NULL ? -1 : 0;
}

/* Read the flat table of one complex column; a damaged one sets cx->error. */
static int load_one(access_source *s, const cx_def *def, const char *colname, mdb_complex *cx,
                    lt_error *err)
{
    int64_t fi = table_at_page(s, def->flat_page), ti = table_at_page(s, def->type_page);
    if (fi < 0 || ti < 0)
        return set_cx_error(cx, "its values table (or type table) for column '%s' is missing%s", colname, "");
    const lt_table *flat = &s->base.tables[fi], *type = &s->base.tables[ti];
    bool attachment = strcasecmp(type->name, "MSysComplexType_Attachment") == 0;
    bool history = strncasecmp(type->name, "MSysComplexTypeVH_", 18) == 0;
    cx->kind = attachment ? "ATTACHMENT" : history ? "VERSIONHISTORY" : "MULTIVALUE";
    cx->sep = history ? "; " : ", ";
    int64_t pos[1 + CX_VALUES];
    /* the key: a Long that is not the autonumber and not a type column */
    pos[0] = -1;
    for (uint32_t c = 0; c < flat->ncols && pos[0] < 0; c++) {
        const mdb_column *mc = &s->mtables[fi].cols[c];
        if (mc->type == MDB_LONG && !(mc->flags & MDB_COL_AUTONUM) &&
            mdb_column_named(type, flat->cols[c].name) < 0)
            pos[0] = c;
    }
    flat_ctx f;
    memset(&f, 0, sizeof f);
    f.cx = cx;
    f.history = history;
    if (attachment) {
        pos[1] = mdb_column_named(flat, "FileName");
        f.nvals = 1;
    } else if (history) {
        /* the text, then its timestamp */
        pos[1] = pos[2] = -1;
        for (uint32_t c = 0; c < type->ncols; c++) {
            int64_t at = mdb_column_named(flat, type->cols[c].name);
            if (at >= 0 && flat->cols[at].type == LT_TIMESTAMP)
                pos[2] = at;
            else if (at >= 0)
                pos[1] = at;
        }
        f.nvals = 2;
    } else {
        f.nvals = type->ncols < CX_VALUES ? type->ncols : CX_VALUES;
        for (uint32_t k = 0; k < f.nvals; k++) {
            pos[1 + k] = mdb_column_named(flat, type->cols[k].name);
            f.scales[k] = pos[1 + k] >= 0 ? flat->cols[pos[1 + k]].scale : 0;
        }
    }
    if (pos[0] < 0 || pos[1] < 0)
        return set_cx_error(cx, "its values table '%s' lacks the expected columns%s", flat->name, "");
    lt_error ferr;
    lt_error_clear(&ferr);
    int rc = mdb_each_row(&s->db, &s->mtables[fi], flat, pos, 1 + f.nvals, flat_row, &f, &ferr);
    mdb_buf_free(&f.buf);
    if (rc != 0) {
        if (strcmp(ferr.sqlstate, "HY001") == 0) {
            *err = ferr;
            return -1;
        }
        return set_cx_error(cx, "%s%s", ferr.message, "");
    }
    sort_entries(cx);
    return 0;
}

int mdb_complex_load(access_source *s, lt_error *err)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->base.ntables; i++)
        for (uint32_t c = 0; c < s->mtables[i].ncols; c++)
            n += s->mtables[i].cols[c].type == MDB_COMPLEX;
    if (n == 0)
        return 0;
    s->complexes = calloc(n, sizeof *s->complexes);
    if (s->complexes == NULL)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
    s->ncomplex = n;
    cx_defs defs = {0};
    int64_t ci = -1;
    for (uint32_t i = 0; i < s->base.ntables && ci < 0; i++)
        if (strcasecmp(s->base.tables[i].name, "MSysComplexColumns") == 0 && s->base.tables[i].error == NULL)
            ci = i;
    if (ci >= 0) {
        const lt_table *t = &s->base.tables[ci];
        int64_t pos[3] = {mdb_column_named(t, "ComplexID"), mdb_column_named(t, "FlatTableID"),
                          mdb_column_named(t, "ComplexTypeObjectID")};
        lt_error derr;
        if (mdb_each_row(&s->db, &s->mtables[ci], t, pos, 3, def_row, &defs, &derr) != 0 &&
            strcmp(derr.sqlstate, "HY001") == 0) {
            free(defs.v);
            *err = derr;
            return -1;
        }
    }
    uint32_t k = 0;
    int rc = 0;
    for (uint32_t i = 0; i < s->base.ntables && rc == 0; i++) {
        mdb_table *mt = &s->mtables[i];
        for (uint32_t c = 0; c < mt->ncols && rc == 0; c++) {
            mdb_column *mc = &mt->cols[c];
            if (mc->type != MDB_COMPLEX)
                continue;
            mdb_complex *cx = &s->complexes[k++];
            mc->cx = cx;
            const cx_def *def = NULL;
            for (uint32_t d = 0; d < defs.n && def == NULL; d++)
                if (defs.v[d].complex_id == mc->complex_id)
                    def = &defs.v[d];
            const char *name = s->base.tables[i].cols[c].name;
            if (def == NULL)
                rc = set_cx_error(cx, "MSysComplexColumns does not describe column '%s'%s", name, "");
            else
                rc = load_one(s, def, name, cx, err);
            if (rc == 0 && cx->kind != NULL)
                s->base.tables[i].cols[c].type_name = cx->kind;
        }
    }
    free(defs.v);
    if (rc != 0 && strcmp(err->sqlstate, "HY001") != 0)
        lt_error_set(err, "HY001", "out of memory reading '%s'", s->db.path);
    return rc;
}

void mdb_complex_free(access_source *s)
{
    for (uint32_t i = 0; i < s->ncomplex; i++) {
        mdb_complex *cx = &s->complexes[i];
        for (uint32_t k = 0; k < cx->n; k++)
            free(cx->texts[k]);
        free(cx->texts);
        free(cx->ids);
        free(cx->error);
    }
    free(s->complexes);
    s->complexes = NULL;
    s->ncomplex = 0;
}

int mdb_complex_value(const mdb_complex *cx, int32_t id, lt_arena *arena, lt_value *out)
{
    uint32_t lo = 0, hi = cx->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cx->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    size_t len = 0, sep = strlen(cx->sep);
    while (end < cx->n && cx->ids[end] == id) {
        len += strlen(cx->texts[end]) + (end > lo ? sep : 0);
        end++;
    }
    memset(out, 0, sizeof *out);
    if (end == lo)
        return 0;               /* no values: NULL */
    char *p = lt_arena_alloc(arena, len + 1);
    if (p == NULL)
        return -1;
    size_t at = 0;
    for (uint32_t k = lo; k < end; k++) {
        if (k > lo) {
            memcpy(p + at, cx->sep, sep);
            at += sep;
        }
        size_t n = strlen(cx->texts[k]);
        memcpy(p + at, cx->texts[k], n);
        at += n;
    }
    p[at] = '\0';
    out->type = LT_TEXT;
    out->u.bytes.ptr = p;
    out->u.bytes.len = (uint32_t)at;
    return 0;
}
