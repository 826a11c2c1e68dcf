/*
** desc.c — descriptors: SQLGetDescField/Rec, SQLSetDescField/Rec,
** SQLCopyDesc, and column binding (SQLBindCol), which is only a way of
** setting ARD fields.
**
** A statement has four implicit descriptors (ARD, APD, IRD, IPD) embedded
** in it; the application may allocate explicit ones and make them its ARD
** or APD.  Which fields each kind has, and which the application may set,
** is one table (fields[]) so SQLGetDescField, SQLSetDescField and
** SQLCopyDesc agree.
**
** Locking: a descriptor call locks the descriptor, then, for an implicit
** descriptor, its statement (whose state the IRD depends on).  Statement
** calls never take a descriptor's lock, so the two orders cannot cross.
*/
#include "driver.h"
#include "types.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

static void rec_defaults(lt_desc *d, lt_desc_rec *r)
{
    memset(r, 0, sizeof *r);
    if (d->kind == LT_ARD || d->kind == LT_APD) {
        r->type = r->concise_type = SQL_C_DEFAULT;
    } else if (d->kind == LT_IPD) {
        r->parameter_type = SQL_PARAM_INPUT;
        r->nullable = SQL_NULLABLE;
        r->unnamed = SQL_UNNAMED;
    }
}

void lt_desc_rec_clear(lt_desc_rec *r)
{
    free(r->name);
    free(r->label);
    free(r->base_column_name);
    free(r->base_table_name);
    free(r->table_name);
    free(r->type_name);
    free(r->local_type_name);
    free(r->literal_prefix);
    free(r->literal_suffix);
    memset(r, 0, sizeof *r);
}

lt_desc_rec *lt_desc_record(lt_desc *d, SQLSMALLINT n)
{
    if (n < 0)
        return NULL;
    if (n >= d->capacity) {
        int cap = d->capacity ? d->capacity : 8;
        while (cap <= n)
            cap *= 2;
        if (cap > SHRT_MAX)
            cap = SHRT_MAX;
        if (cap <= n)
            return NULL;
        lt_desc_rec *recs = realloc(d->recs, (size_t)cap * sizeof *recs);
        if (recs == NULL)
            return NULL;
        for (int i = d->capacity; i < cap; i++)
            rec_defaults(d, &recs[i]);
        d->recs = recs;
        d->capacity = (SQLSMALLINT)cap;
    }
    return &d->recs[n];
}

void lt_desc_init(lt_desc *d, lt_dbc *dbc, lt_desc_kind kind,
                  SQLSMALLINT alloc_type)
{
    memset(d, 0, sizeof *d);
    lt_handle_init(&d->h, SQL_HANDLE_DESC);
    d->dbc = dbc;
    d->kind = kind;
    d->alloc_type = alloc_type;
    d->array_size = 1;
    d->bind_type = SQL_BIND_BY_COLUMN;
}

void lt_desc_truncate(lt_desc *d, SQLSMALLINT count)
{
    /* Records above count go back to their defaults; setting the count of
    ** an ARD to 0 also unbinds the bookmark column. */
    SQLSMALLINT from = count == 0 && d->kind == LT_ARD ? 0 : (SQLSMALLINT)(count + 1);
    for (SQLSMALLINT i = from; i < d->capacity; i++) {
        lt_desc_rec_clear(&d->recs[i]);
        rec_defaults(d, &d->recs[i]);
    }
    d->count = count;
}

void lt_desc_clear(lt_desc *d)
{
    for (SQLSMALLINT i = 0; i < d->capacity; i++)
        lt_desc_rec_clear(&d->recs[i]);
    free(d->recs);
    d->recs = NULL;
    d->capacity = 0;
    d->count = 0;
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */
/* ------------------------------------------------------------------------ */

void lt_desc_set_type(lt_desc_rec *r, SQLSMALLINT concise)
{
    /* ODBC 2 date codes become the ODBC 3 ones. */
    switch (concise) {
    case SQL_DATE:      concise = SQL_TYPE_DATE; break;
    case SQL_TIME:      concise = SQL_TYPE_TIME; break;
    case SQL_TIMESTAMP: concise = SQL_TYPE_TIMESTAMP; break;
    default: break;
    }
    r->concise_type = concise;
    r->datetime_interval_code = 0;
    r->type = concise;
    switch (concise) {
    case SQL_TYPE_DATE:
        r->type = SQL_DATETIME;
        r->datetime_interval_code = SQL_CODE_DATE;
        r->precision = 0;
        break;
    case SQL_TYPE_TIME:
        r->type = SQL_DATETIME;
        r->datetime_interval_code = SQL_CODE_TIME;
        r->precision = 0;
        break;
    case SQL_TYPE_TIMESTAMP:
        r->type = SQL_DATETIME;
        r->datetime_interval_code = SQL_CODE_TIMESTAMP;
        r->precision = 6;
        break;
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        r->length = 1;
        r->precision = 0;
        break;
    case SQL_DECIMAL: case SQL_NUMERIC:
        r->precision = 38;
        r->scale = 0;
        break;
    case SQL_FLOAT: case SQL_DOUBLE:
        r->precision = 15;
        break;
    case SQL_REAL:
        r->precision = 7;
        break;
    default:
        if (concise >= SQL_INTERVAL_YEAR && concise <= SQL_INTERVAL_MINUTE_TO_SECOND) {
            r->type = SQL_INTERVAL;
            r->datetime_interval_code = (SQLSMALLINT)(concise - 100);
        }
        break;
    }
}

/* Concise type from SQL_DESC_TYPE and SQL_DESC_DATETIME_INTERVAL_CODE; 0
** when they do not form one. */
static SQLSMALLINT concise_of(SQLSMALLINT type, SQLSMALLINT code)
{
    if (type == SQL_DATETIME) {
        switch (code) {
        case SQL_CODE_DATE:      return SQL_TYPE_DATE;
        case SQL_CODE_TIME:      return SQL_TYPE_TIME;
        case SQL_CODE_TIMESTAMP: return SQL_TYPE_TIMESTAMP;
        default:                 return 0;
        }
    }
    if (type == SQL_INTERVAL)
        return code >= 1 && code <= 13 ? (SQLSMALLINT)(100 + code) : 0;
    return type;
}

bool lt_ctype_valid(SQLSMALLINT t)
{
    switch (t) {
    case SQL_C_CHAR: case SQL_C_WCHAR: case SQL_C_BINARY:
    case SQL_C_SHORT: case SQL_C_SSHORT: case SQL_C_USHORT:
    case SQL_C_LONG: case SQL_C_SLONG: case SQL_C_ULONG:
    case SQL_C_TINYINT: case SQL_C_STINYINT: case SQL_C_UTINYINT:
    case SQL_C_SBIGINT: case SQL_C_UBIGINT:
    case SQL_C_FLOAT: case SQL_C_DOUBLE: case SQL_C_BIT:
    case SQL_C_NUMERIC: case SQL_C_GUID: case SQL_C_DEFAULT:
    case SQL_C_DATE: case SQL_C_TIME: case SQL_C_TIMESTAMP:
    case SQL_C_TYPE_DATE: case SQL_C_TYPE_TIME: case SQL_C_TYPE_TIMESTAMP:
        return true;
    default:
        return t >= SQL_C_INTERVAL_YEAR && t <= SQL_C_INTERVAL_MINUTE_TO_SECOND;
    }
}

bool lt_sqltype_valid(SQLSMALLINT t)
{
    switch (t) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
    case SQL_DECIMAL: case SQL_NUMERIC: case SQL_SMALLINT: case SQL_INTEGER:
    case SQL_REAL: case SQL_FLOAT: case SQL_DOUBLE: case SQL_BIT:
    case SQL_TINYINT: case SQL_BIGINT: case SQL_BINARY: case SQL_VARBINARY:
    case SQL_LONGVARBINARY: case SQL_TYPE_DATE: case SQL_TYPE_TIME:
    case SQL_TYPE_TIMESTAMP: case SQL_GUID:
        return true;
    default:
        return t >= SQL_INTERVAL_YEAR && t <= SQL_INTERVAL_MINUTE_TO_SECOND;
    }
}

/* The consistency check of SQLSetDescRec: run when DATA_PTR is set. */
static bool rec_consistent(const lt_desc *d, const lt_desc_rec *r)
{
    SQLSMALLINT concise = r->concise_type;
    if (concise_of(r->type, r->datetime_interval_code) != concise)
        return false;
    if (d->kind == LT_IPD) {
        if (!lt_sqltype_valid(concise))
            return false;
    } else if (!lt_ctype_valid(concise)) {
        return false;
    }
    if (concise == SQL_C_NUMERIC || concise == SQL_DECIMAL) {
        if (r->precision < 1 || r->precision > 38 || r->scale < 0 ||
            r->scale > r->precision)
            return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* The field table                                                           */
/* ------------------------------------------------------------------------ */

enum { K_ARD = 1, K_APD = 2, K_IRD = 4, K_IPD = 8, K_APP = 3, K_ALL = 15 };
typedef enum { T_SMALL, T_INT, T_LEN, T_ULEN, T_PTR, T_STR } field_type;

typedef struct field_info {
    SQLSMALLINT id;
    bool header;
    field_type type;
    unsigned char read, write;
} field_info;

static const field_info fields[] = {
    {SQL_DESC_ALLOC_TYPE, true, T_SMALL, K_ALL, 0},
    {SQL_DESC_ARRAY_SIZE, true, T_ULEN, K_APP, K_APP},
    {SQL_DESC_ARRAY_STATUS_PTR, true, T_PTR, K_ALL, K_ALL},
    {SQL_DESC_BIND_OFFSET_PTR, true, T_PTR, K_APP, K_APP},
    {SQL_DESC_BIND_TYPE, true, T_INT, K_APP, K_APP},
    {SQL_DESC_COUNT, true, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_ROWS_PROCESSED_PTR, true, T_PTR, K_IRD | K_IPD, K_IRD | K_IPD},
    {SQL_DESC_AUTO_UNIQUE_VALUE, false, T_INT, K_IRD, 0},
    {SQL_DESC_BASE_COLUMN_NAME, false, T_STR, K_IRD, 0},
    {SQL_DESC_BASE_TABLE_NAME, false, T_STR, K_IRD, 0},
    {SQL_DESC_CASE_SENSITIVE, false, T_INT, K_IRD | K_IPD, 0},
    {SQL_DESC_CATALOG_NAME, false, T_STR, K_IRD, 0},
    {SQL_DESC_CONCISE_TYPE, false, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_DATA_PTR, false, T_PTR, K_APP, K_APP | K_IPD},
    {SQL_DESC_DATETIME_INTERVAL_CODE, false, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_DATETIME_INTERVAL_PRECISION, false, T_INT, K_ALL, K_APP | K_IPD},
    {SQL_DESC_DISPLAY_SIZE, false, T_LEN, K_IRD, 0},
    {SQL_DESC_FIXED_PREC_SCALE, false, T_SMALL, K_IRD | K_IPD, 0},
    {SQL_DESC_INDICATOR_PTR, false, T_PTR, K_APP, K_APP},
    {SQL_DESC_LABEL, false, T_STR, K_IRD, 0},
    {SQL_DESC_LENGTH, false, T_ULEN, K_ALL, K_APP | K_IPD},
    {SQL_DESC_LITERAL_PREFIX, false, T_STR, K_IRD, 0},
    {SQL_DESC_LITERAL_SUFFIX, false, T_STR, K_IRD, 0},
    {SQL_DESC_LOCAL_TYPE_NAME, false, T_STR, K_IRD | K_IPD, 0},
    {SQL_DESC_NAME, false, T_STR, K_IRD | K_IPD, K_IPD},
    {SQL_DESC_NULLABLE, false, T_SMALL, K_IRD | K_IPD, 0},
    {SQL_DESC_NUM_PREC_RADIX, false, T_INT, K_ALL, K_APP | K_IPD},
    {SQL_DESC_OCTET_LENGTH, false, T_LEN, K_ALL, K_APP | K_IPD},
    {SQL_DESC_OCTET_LENGTH_PTR, false, T_PTR, K_APP, K_APP},
    {SQL_DESC_PARAMETER_TYPE, false, T_SMALL, K_IPD, K_IPD},
    {SQL_DESC_PRECISION, false, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_ROWVER, false, T_SMALL, K_IRD | K_IPD, 0},
    {SQL_DESC_SCALE, false, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_SCHEMA_NAME, false, T_STR, K_IRD, 0},
    {SQL_DESC_SEARCHABLE, false, T_SMALL, K_IRD, 0},
    {SQL_DESC_TABLE_NAME, false, T_STR, K_IRD, 0},
    {SQL_DESC_TYPE, false, T_SMALL, K_ALL, K_APP | K_IPD},
    {SQL_DESC_TYPE_NAME, false, T_STR, K_IRD | K_IPD, 0},
    {SQL_DESC_UNNAMED, false, T_SMALL, K_IRD | K_IPD, K_IPD},
    {SQL_DESC_UNSIGNED, false, T_SMALL, K_IRD | K_IPD, 0},
    {SQL_DESC_UPDATABLE, false, T_SMALL, K_IRD, 0},
};

static const field_info *field_find(SQLSMALLINT id)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].id == id)
            return &fields[i];
    return NULL;
}

static unsigned kind_bit(const lt_desc *d)
{
    switch (d->kind) {
    case LT_ARD: return K_ARD;
    case LT_APD: return K_APD;
    case LT_IRD: return K_IRD;
    case LT_IPD: return K_IPD;
    }
    return 0;
}

/* An IRD describes nothing until its statement is prepared or executed. */
static bool ird_unpopulated(const lt_desc *d)
{
    return d->kind == LT_IRD && d->stmt != NULL &&
           d->stmt->state == LT_STMT_ALLOCATED;
}

static bool bookmarks_on(const lt_desc *d)
{
    return d->stmt != NULL && d->stmt->use_bookmarks != SQL_UB_OFF;
}

/* ------------------------------------------------------------------------ */
/* Entering a descriptor call                                                */
/* ------------------------------------------------------------------------ */

static lt_desc *desc_enter(SQLHDESC handle)
{
    lt_handle *h = lt_enter(handle, SQL_HANDLE_DESC);
    if (h == NULL)
        return NULL;
    lt_desc *d = (lt_desc *)h;
    if (d->stmt != NULL)
        lt_mutex_lock(&d->stmt->h.lock);
    return d;
}

static SQLRETURN desc_leave(lt_desc *d, SQLRETURN rc)
{
    if (d->stmt != NULL)
        lt_mutex_unlock(&d->stmt->h.lock);
    return lt_leave(&d->h, rc);
}

/* ------------------------------------------------------------------------ */
/* Reading fields                                                            */
/* ------------------------------------------------------------------------ */

static const char *str_field(const lt_desc_rec *r, SQLSMALLINT id)
{
    const char *s = NULL;
    switch (id) {
    case SQL_DESC_BASE_COLUMN_NAME: s = r->base_column_name; break;
    case SQL_DESC_BASE_TABLE_NAME:  s = r->base_table_name; break;
    case SQL_DESC_LABEL:            s = r->label; break;
    case SQL_DESC_LITERAL_PREFIX:   s = r->literal_prefix; break;
    case SQL_DESC_LITERAL_SUFFIX:   s = r->literal_suffix; break;
    case SQL_DESC_LOCAL_TYPE_NAME:  s = r->local_type_name; break;
    case SQL_DESC_NAME:             s = r->name; break;
    case SQL_DESC_TABLE_NAME:       s = r->table_name; break;
    case SQL_DESC_TYPE_NAME:        s = r->type_name; break;
    default:                        s = ""; break; /* catalog, schema */
    }
    return s ? s : "";
}

/* A numeric or pointer field as a 64-bit value (pointers via intptr_t). */
static int64_t num_field(const lt_desc *d, const lt_desc_rec *r, SQLSMALLINT id)
{
    switch (id) {
    case SQL_DESC_ALLOC_TYPE:        return d->alloc_type;
    case SQL_DESC_ARRAY_SIZE:        return (int64_t)d->array_size;
    case SQL_DESC_BIND_TYPE:         return d->bind_type;
    case SQL_DESC_COUNT:             return d->count;
    case SQL_DESC_AUTO_UNIQUE_VALUE: return r->auto_unique_value;
    case SQL_DESC_CASE_SENSITIVE:    return r->case_sensitive;
    case SQL_DESC_CONCISE_TYPE:      return r->concise_type;
    case SQL_DESC_DATETIME_INTERVAL_CODE: return r->datetime_interval_code;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: return r->datetime_interval_precision;
    case SQL_DESC_DISPLAY_SIZE:      return r->display_size;
    case SQL_DESC_FIXED_PREC_SCALE:  return r->fixed_prec_scale;
    case SQL_DESC_LENGTH:            return (int64_t)r->length;
    case SQL_DESC_NULLABLE:          return r->nullable;
    case SQL_DESC_NUM_PREC_RADIX:    return r->num_prec_radix;
    case SQL_DESC_OCTET_LENGTH:      return r->octet_length;
    case SQL_DESC_PARAMETER_TYPE:    return r->parameter_type;
    case SQL_DESC_PRECISION:         return r->precision;
    case SQL_DESC_ROWVER:            return SQL_FALSE;
    case SQL_DESC_SCALE:             return r->scale;
    case SQL_DESC_SEARCHABLE:        return r->searchable;
    case SQL_DESC_TYPE:              return r->type;
    case SQL_DESC_UNNAMED:           return r->unnamed;
    case SQL_DESC_UNSIGNED:          return r->unsigned_;
    case SQL_DESC_UPDATABLE:         return r->updatable;
    }
    return 0;
}

static void *ptr_field(const lt_desc *d, const lt_desc_rec *r, SQLSMALLINT id)
{
    switch (id) {
    case SQL_DESC_ARRAY_STATUS_PTR:    return d->array_status_ptr;
    case SQL_DESC_BIND_OFFSET_PTR:     return d->bind_offset_ptr;
    case SQL_DESC_ROWS_PROCESSED_PTR:  return d->rows_processed_ptr;
    case SQL_DESC_DATA_PTR:            return r->data_ptr;
    case SQL_DESC_INDICATOR_PTR:       return r->indicator_ptr;
    case SQL_DESC_OCTET_LENGTH_PTR:    return r->octet_length_ptr;
    }
    return NULL;
}

static SQLRETURN get_field(lt_desc *d, SQLSMALLINT recno, SQLSMALLINT id,
                           SQLPOINTER value, SQLINTEGER buflen,
                           SQLINTEGER *outlen)
{
    lt_handle *h = &d->h;
    const field_info *f = field_find(id);
    if (f == NULL || !(f->read & kind_bit(d))) {
        lt_diag_post(h, "HY091", 0, "Invalid descriptor field identifier %d", id);
        return SQL_ERROR;
    }
    bool pointer_header = id == SQL_DESC_ALLOC_TYPE ||
                          id == SQL_DESC_ARRAY_STATUS_PTR ||
                          id == SQL_DESC_ROWS_PROCESSED_PTR;
    if (!pointer_header && ird_unpopulated(d)) {
        lt_diag_post(h, "HY007", 0, "Associated statement is not prepared");
        return SQL_ERROR;
    }
    static const lt_desc_rec none;
    const lt_desc_rec *r = &none;
    if (!f->header) {
        if (recno < 0 || (recno == 0 && (d->kind == LT_APD || d->kind == LT_IPD ||
                                         (d->kind == LT_IRD && !bookmarks_on(d))))) {
            lt_diag_post(h, "07009", 0, "Invalid descriptor index %d", recno);
            return SQL_ERROR;
        }
        if (recno > d->count)
            return SQL_NO_DATA;
        if (recno < d->capacity)
            r = &d->recs[recno];
    }
    switch (f->type) {
    case T_STR: {
        if (buflen < 0 && value != NULL) {
            lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
            return SQL_ERROR;
        }
        return lt_str_out(h, str_field(r, id), value, buflen, NULL, outlen);
    }
    case T_PTR:
        if (value)
            *(SQLPOINTER *)value = ptr_field(d, r, id);
        if (outlen)
            *outlen = (SQLINTEGER)sizeof(SQLPOINTER);
        return SQL_SUCCESS;
    case T_SMALL:
        if (value)
            *(SQLSMALLINT *)value = (SQLSMALLINT)num_field(d, r, id);
        if (outlen)
            *outlen = (SQLINTEGER)sizeof(SQLSMALLINT);
        return SQL_SUCCESS;
    case T_INT:
        if (value)
            *(SQLINTEGER *)value = (SQLINTEGER)num_field(d, r, id);
        if (outlen)
            *outlen = (SQLINTEGER)sizeof(SQLINTEGER);
        return SQL_SUCCESS;
    case T_LEN:
        if (value)
            *(SQLLEN *)value = (SQLLEN)num_field(d, r, id);
        if (outlen)
            *outlen = (SQLINTEGER)sizeof(SQLLEN);
        return SQL_SUCCESS;
    case T_ULEN:
        if (value)
            *(SQLULEN *)value = (SQLULEN)num_field(d, r, id);
        if (outlen)
            *outlen = (SQLINTEGER)sizeof(SQLULEN);
        return SQL_SUCCESS;
    }
    return SQL_ERROR;
}

SQLRETURN SQL_API SQLGetDescField(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier, SQLPOINTER Value,
                                  SQLINTEGER BufferLength, SQLINTEGER *StringLength)
{
    lt_desc *d = desc_enter(DescriptorHandle);
    if (d == NULL)
        return SQL_INVALID_HANDLE;
    return desc_leave(d, get_field(d, RecNumber, FieldIdentifier, Value,
                                   BufferLength, StringLength));
}

SQLRETURN SQL_API SQLGetDescRec(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                SQLCHAR *Name, SQLSMALLINT BufferLength,
                                SQLSMALLINT *StringLength, SQLSMALLINT *Type,
                                SQLSMALLINT *SubType, SQLLEN *Length,
                                SQLSMALLINT *Precision, SQLSMALLINT *Scale,
                                SQLSMALLINT *Nullable)
{
    lt_desc *d = desc_enter(DescriptorHandle);
    if (d == NULL)
        return SQL_INVALID_HANDLE;
    lt_handle *h = &d->h;
    if (ird_unpopulated(d)) {
        lt_diag_post(h, "HY007", 0, "Associated statement is not prepared");
        return desc_leave(d, SQL_ERROR);
    }
    if (RecNumber < 0 || (RecNumber == 0 && (d->kind == LT_APD || d->kind == LT_IPD ||
                                             (d->kind == LT_IRD && !bookmarks_on(d))))) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %d", RecNumber);
        return desc_leave(d, SQL_ERROR);
    }
    if (RecNumber > d->count)
        return desc_leave(d, SQL_NO_DATA);
    static const lt_desc_rec none;
    const lt_desc_rec *r = RecNumber < d->capacity ? &d->recs[RecNumber] : &none;
    SQLRETURN rc = SQL_SUCCESS;
    if (d->kind == LT_IRD || d->kind == LT_IPD)
        rc = lt_str_out(h, r->name ? r->name : "", Name, BufferLength,
                        StringLength, NULL);
    else if (StringLength)
        *StringLength = 0;
    if (rc == SQL_ERROR)
        return desc_leave(d, rc);
    if (Type)
        *Type = r->type;
    if (SubType)
        *SubType = r->datetime_interval_code;
    if (Length)
        *Length = r->octet_length;
    if (Precision)
        *Precision = r->precision;
    if (Scale)
        *Scale = r->scale;
    if (Nullable)
        *Nullable = r->nullable;
    return desc_leave(d, rc);
}

/* ------------------------------------------------------------------------ */
/* Setting fields                                                            */
/* ------------------------------------------------------------------------ */

static SQLRETURN set_header(lt_desc *d, SQLSMALLINT id, SQLPOINTER value)
{
    intptr_t v = (intptr_t)value;
    switch (id) {
    case SQL_DESC_ARRAY_SIZE:
        if ((SQLULEN)v == 0) {
            lt_diag_post(&d->h, "HY024", 0, "Invalid attribute value: array size 0");
            return SQL_ERROR;
        }
        if (d->kind == LT_APD && (SQLULEN)v != 1) {
            /* Parameter arrays are not supported (SQL_PARAM_ARRAY_*). */
            lt_diag_post(&d->h, "01S02", 0,
                         "Option value changed: parameter set size is 1");
            d->array_size = 1;
            return SQL_SUCCESS_WITH_INFO;
        }
        d->array_size = (SQLULEN)v;
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_STATUS_PTR:
        d->array_status_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_OFFSET_PTR:
        d->bind_offset_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_TYPE:
        if (v < 0) {
            lt_diag_post(&d->h, "HY024", 0, "Invalid attribute value: bind type");
            return SQL_ERROR;
        }
        d->bind_type = (SQLINTEGER)v;
        return SQL_SUCCESS;
    case SQL_DESC_ROWS_PROCESSED_PTR:
        d->rows_processed_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_COUNT:
        if (v < 0 || v > SHRT_MAX - 1) {
            lt_diag_post(&d->h, "07009", 0, "Invalid descriptor index %ld", (long)v);
            return SQL_ERROR;
        }
        if (v > d->count && lt_desc_record(d, (SQLSMALLINT)v) == NULL) {
            lt_diag_post(&d->h, "HY001", 0, "Memory allocation error");
            return SQL_ERROR;
        }
        lt_desc_truncate(d, (SQLSMALLINT)v);
        return SQL_SUCCESS;
    }
    return SQL_ERROR;
}

static SQLRETURN set_string(lt_desc *d, char **slot, SQLPOINTER value,
                            SQLINTEGER buflen)
{
    if (lt_str_in_len(value, buflen) < 0) {
        lt_diag_post(&d->h, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    bool oom = false;
    char *copy = lt_str_in(value, buflen, &oom);
    if (oom) {
        lt_diag_post(&d->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    free(*slot);
    *slot = copy;
    return SQL_SUCCESS;
}

static SQLRETURN set_record(lt_desc *d, lt_desc_rec *r, SQLSMALLINT id,
                            SQLPOINTER value, SQLINTEGER buflen)
{
    intptr_t v = (intptr_t)value;
    lt_handle *h = &d->h;
    switch (id) {
    case SQL_DESC_CONCISE_TYPE:
        if (d->kind == LT_IPD ? !lt_sqltype_valid((SQLSMALLINT)v)
                              : !lt_ctype_valid((SQLSMALLINT)v)) {
            lt_diag_post(h, "HY021", 0, "Inconsistent descriptor information: type %ld",
                         (long)v);
            return SQL_ERROR;
        }
        lt_desc_set_type(r, (SQLSMALLINT)v);
        return SQL_SUCCESS;
    case SQL_DESC_TYPE:
        if (v == SQL_DATETIME || v == SQL_INTERVAL) {
            /* The concise type follows when the interval code is set. */
            r->type = (SQLSMALLINT)v;
            r->concise_type = concise_of(r->type, r->datetime_interval_code);
            return SQL_SUCCESS;
        }
        if (d->kind == LT_IPD ? !lt_sqltype_valid((SQLSMALLINT)v)
                              : !lt_ctype_valid((SQLSMALLINT)v)) {
            lt_diag_post(h, "HY021", 0, "Inconsistent descriptor information: type %ld",
                         (long)v);
            return SQL_ERROR;
        }
        lt_desc_set_type(r, (SQLSMALLINT)v);
        return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        if (r->type != SQL_DATETIME && r->type != SQL_INTERVAL) {
            lt_diag_post(h, "HY021", 0,
                         "Inconsistent descriptor information: not a datetime type");
            return SQL_ERROR;
        }
        r->datetime_interval_code = (SQLSMALLINT)v;
        r->concise_type = concise_of(r->type, r->datetime_interval_code);
        if (r->concise_type == 0) {
            lt_diag_post(h, "HY021", 0,
                         "Inconsistent descriptor information: interval code %ld",
                         (long)v);
            return SQL_ERROR;
        }
        if (r->concise_type == SQL_TYPE_TIMESTAMP)
            r->precision = 6;
        return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION:
        r->datetime_interval_precision = (SQLINTEGER)v;
        return SQL_SUCCESS;
    case SQL_DESC_DATA_PTR:
        if (value != NULL && !rec_consistent(d, r)) {
            lt_diag_post(h, "HY021", 0, "Inconsistent descriptor information");
            return SQL_ERROR;
        }
        /* An IPD has no data pointer: setting it only asks for the check. */
        if (d->kind != LT_IPD)
            r->data_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_INDICATOR_PTR:
        r->indicator_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_OCTET_LENGTH_PTR:
        r->octet_length_ptr = value;
        return SQL_SUCCESS;
    case SQL_DESC_LENGTH:
        r->length = (SQLULEN)v;
        return SQL_SUCCESS;
    case SQL_DESC_OCTET_LENGTH:
        r->octet_length = (SQLLEN)v;
        return SQL_SUCCESS;
    case SQL_DESC_NUM_PREC_RADIX:
        r->num_prec_radix = (SQLSMALLINT)v;
        return SQL_SUCCESS;
    case SQL_DESC_PRECISION:
        r->precision = (SQLSMALLINT)v;
        return SQL_SUCCESS;
    case SQL_DESC_SCALE:
        r->scale = (SQLSMALLINT)v;
        return SQL_SUCCESS;
    case SQL_DESC_PARAMETER_TYPE:
        if (v != SQL_PARAM_INPUT && v != SQL_PARAM_INPUT_OUTPUT &&
            v != SQL_PARAM_OUTPUT) {
            lt_diag_post(h, "HY105", 0, "Invalid parameter type %ld", (long)v);
            return SQL_ERROR;
        }
        r->parameter_type = (SQLSMALLINT)v;
        return SQL_SUCCESS;
    case SQL_DESC_UNNAMED:
        if (v != SQL_UNNAMED) {
            lt_diag_post(h, "HY092", 0, "Invalid attribute/option identifier");
            return SQL_ERROR;
        }
        r->unnamed = SQL_UNNAMED;
        return SQL_SUCCESS;
    case SQL_DESC_NAME: {
        SQLRETURN rc = set_string(d, &r->name, value, buflen);
        if (rc == SQL_SUCCESS)
            r->unnamed = SQL_NAMED;
        return rc;
    }
    }
    lt_diag_post(h, "HY091", 0, "Invalid descriptor field identifier %d", id);
    return SQL_ERROR;
}

static SQLRETURN set_field(lt_desc *d, SQLSMALLINT recno, SQLSMALLINT id,
                           SQLPOINTER value, SQLINTEGER buflen)
{
    lt_handle *h = &d->h;
    if (d->kind == LT_IRD && id != SQL_DESC_ARRAY_STATUS_PTR &&
        id != SQL_DESC_ROWS_PROCESSED_PTR) {
        lt_diag_post(h, "HY016", 0, "Cannot modify an implementation row descriptor");
        return SQL_ERROR;
    }
    const field_info *f = field_find(id);
    if (f == NULL || !(f->write & kind_bit(d))) {
        lt_diag_post(h, "HY091", 0, "Invalid descriptor field identifier %d", id);
        return SQL_ERROR;
    }
    if (f->header)
        return set_header(d, id, value);
    if (recno < 0 || (recno == 0 && d->kind != LT_ARD)) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %d", recno);
        return SQL_ERROR;
    }
    lt_desc_rec *r = lt_desc_record(d, recno);
    if (r == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    SQLRETURN rc = set_record(d, r, id, value, buflen);
    if (!SQL_SUCCEEDED(rc))
        return rc;
    /* Changing anything but the deferred pointers unbinds the record, so a
    ** record is only used after the application set DATA_PTR last. */
    if (id != SQL_DESC_DATA_PTR && id != SQL_DESC_INDICATOR_PTR &&
        id != SQL_DESC_OCTET_LENGTH_PTR)
        r->data_ptr = NULL;
    if (recno > d->count)
        d->count = recno;
    return rc;
}

SQLRETURN SQL_API SQLSetDescField(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier, SQLPOINTER Value,
                                  SQLINTEGER BufferLength)
{
    lt_desc *d = desc_enter(DescriptorHandle);
    if (d == NULL)
        return SQL_INVALID_HANDLE;
    return desc_leave(d, set_field(d, RecNumber, FieldIdentifier, Value,
                                   BufferLength));
}

SQLRETURN SQL_API SQLSetDescRec(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                SQLSMALLINT Type, SQLSMALLINT SubType,
                                SQLLEN Length, SQLSMALLINT Precision,
                                SQLSMALLINT Scale, SQLPOINTER Data,
                                SQLLEN *StringLength, SQLLEN *Indicator)
{
    lt_desc *d = desc_enter(DescriptorHandle);
    if (d == NULL)
        return SQL_INVALID_HANDLE;
    lt_handle *h = &d->h;
    if (d->kind == LT_IRD) {
        lt_diag_post(h, "HY016", 0, "Cannot modify an implementation row descriptor");
        return desc_leave(d, SQL_ERROR);
    }
    if (RecNumber < 0 || (RecNumber == 0 && d->kind != LT_ARD)) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %d", RecNumber);
        return desc_leave(d, SQL_ERROR);
    }
    lt_desc_rec *r = lt_desc_record(d, RecNumber);
    if (r == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return desc_leave(d, SQL_ERROR);
    }
    SQLSMALLINT concise = concise_of(Type, SubType);
    if (concise == 0) {
        lt_diag_post(h, "HY021", 0, "Inconsistent descriptor information: type %d/%d",
                     Type, SubType);
        return desc_leave(d, SQL_ERROR);
    }
    lt_desc_set_type(r, concise);
    r->octet_length = Length;
    r->precision = Precision;
    r->scale = Scale;
    if (d->kind == LT_IPD && Length >= 0)
        r->length = (SQLULEN)Length;
    r->octet_length_ptr = StringLength;
    r->indicator_ptr = Indicator;
    r->data_ptr = NULL;
    if (RecNumber > d->count)
        d->count = RecNumber;
    if (!rec_consistent(d, r)) {
        lt_diag_post(h, "HY021", 0, "Inconsistent descriptor information");
        return desc_leave(d, SQL_ERROR);
    }
    if (d->kind != LT_IPD)
        r->data_ptr = Data;
    return desc_leave(d, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Copying                                                                   */
/* ------------------------------------------------------------------------ */

static char *dup_or_null(const char *s, bool *oom)
{
    if (s == NULL)
        return NULL;
    char *c = strdup(s);
    if (c == NULL)
        *oom = true;
    return c;
}

static SQLRETURN copy_desc(lt_desc *src, lt_desc *dst)
{
    if (dst->kind == LT_IRD) {
        lt_diag_post(&dst->h, "HY016", 0, "Cannot modify an implementation row descriptor");
        return SQL_ERROR;
    }
    if (ird_unpopulated(src)) {
        lt_diag_post(&dst->h, "HY007", 0, "Associated statement is not prepared");
        return SQL_ERROR;
    }
    if (src == dst)
        return SQL_SUCCESS;
    SQLSMALLINT n = src->count;
    if (lt_desc_record(dst, n) == NULL) {
        lt_diag_post(&dst->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    bool oom = false;
    for (SQLSMALLINT i = 0; i <= n && i < src->capacity; i++) {
        lt_desc_rec *to = &dst->recs[i];
        lt_desc_rec_clear(to);
        *to = src->recs[i];
        to->name = dup_or_null(src->recs[i].name, &oom);
        to->label = dup_or_null(src->recs[i].label, &oom);
        to->base_column_name = dup_or_null(src->recs[i].base_column_name, &oom);
        to->base_table_name = dup_or_null(src->recs[i].base_table_name, &oom);
        to->table_name = dup_or_null(src->recs[i].table_name, &oom);
        to->type_name = dup_or_null(src->recs[i].type_name, &oom);
        to->local_type_name = dup_or_null(src->recs[i].local_type_name, &oom);
        to->literal_prefix = dup_or_null(src->recs[i].literal_prefix, &oom);
        to->literal_suffix = dup_or_null(src->recs[i].literal_suffix, &oom);
    }
    lt_desc_truncate(dst, n);
    /* Header fields, except the allocation type; an IRD source has no
    ** application header, so those keep their values. */
    if (src->kind != LT_IRD && src->kind != LT_IPD) {
        dst->array_size = src->array_size;
        dst->bind_offset_ptr = src->bind_offset_ptr;
        dst->bind_type = src->bind_type;
    }
    dst->array_status_ptr = src->array_status_ptr;
    if (dst->kind == LT_IPD)
        dst->rows_processed_ptr = src->rows_processed_ptr;
    if (oom) {
        lt_diag_post(&dst->h, "HY001", 0, "Memory allocation error");
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

static bool is_desc(SQLHDESC handle)
{
    const lt_handle *h = handle;
    return h != NULL && h->magic == LT_MAGIC && h->type == SQL_HANDLE_DESC;
}

SQLRETURN SQL_API SQLCopyDesc(SQLHDESC SourceDescHandle, SQLHDESC TargetDescHandle)
{
    if (!is_desc(SourceDescHandle) || !is_desc(TargetDescHandle))
        return SQL_INVALID_HANDLE;
    lt_desc *src = SourceDescHandle, *dst = TargetDescHandle;
    /* Two descriptors, then up to two statements, each pair in address
    ** order: a copy the other way round cannot deadlock with this one, and
    ** no descriptor lock is ever taken under a statement lock. */
    lt_desc *first = src < dst ? src : dst, *second = src < dst ? dst : src;
    if (first == dst)
        lt_enter(dst, SQL_HANDLE_DESC);
    else
        lt_enter_keep_diag(src, SQL_HANDLE_DESC);
    if (second != first) {
        if (second == dst)
            lt_enter(dst, SQL_HANDLE_DESC);
        else
            lt_enter_keep_diag(src, SQL_HANDLE_DESC);
    }
    lt_stmt *s1 = src->stmt, *s2 = dst->stmt;
    if (s1 == s2)
        s2 = NULL;
    if (s1 != NULL && s2 != NULL && s2 < s1) {
        lt_stmt *t = s1;
        s1 = s2;
        s2 = t;
    }
    if (s1 == NULL) {
        s1 = s2;
        s2 = NULL;
    }
    if (s1 != NULL)
        lt_mutex_lock(&s1->h.lock);
    if (s2 != NULL)
        lt_mutex_lock(&s2->h.lock);
    SQLRETURN rc = copy_desc(src, dst);
    if (s2 != NULL)
        lt_mutex_unlock(&s2->h.lock);
    if (s1 != NULL)
        lt_mutex_unlock(&s1->h.lock);
    if (src != dst)
        lt_leave_keep_diag(&src->h, rc);
    return lt_leave(&dst->h, rc);
}

/* ------------------------------------------------------------------------ */
/* SQLBindCol                                                                */
/* ------------------------------------------------------------------------ */

SQLRETURN SQL_API SQLBindCol(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValue,
                             SQLLEN BufferLength, SQLLEN *StrLen_or_Ind)
{
    lt_handle *h = lt_enter(StatementHandle, SQL_HANDLE_STMT);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_stmt *s = (lt_stmt *)h;
    lt_desc *ard = s->ard;
    if (ColumnNumber > SHRT_MAX - 1 ||
        (ColumnNumber == 0 && s->use_bookmarks == SQL_UB_OFF)) {
        lt_diag_post(h, "07009", 0, "Invalid descriptor index %u", ColumnNumber);
        return lt_leave(h, SQL_ERROR);
    }
    SQLSMALLINT col = (SQLSMALLINT)ColumnNumber;
    if (TargetValue == NULL && StrLen_or_Ind == NULL) {
        /* Unbind; when it was the last, the count drops to the highest
        ** column still bound. */
        if (col <= ard->count && col < ard->capacity) {
            lt_desc_rec *r = &ard->recs[col];
            r->data_ptr = NULL;
            r->indicator_ptr = NULL;
            r->octet_length_ptr = NULL;
            if (col == ard->count) {
                SQLSMALLINT n = ard->count;
                while (n > 0 && ard->recs[n].data_ptr == NULL &&
                       ard->recs[n].indicator_ptr == NULL &&
                       ard->recs[n].octet_length_ptr == NULL)
                    n--;
                lt_desc_truncate(ard, n);
            }
        }
        return lt_leave(h, SQL_SUCCESS);
    }
    if (!lt_ctype_valid(TargetType)) {
        lt_diag_post(h, "HY003", 0, "Invalid application buffer type %d", TargetType);
        return lt_leave(h, SQL_ERROR);
    }
    if (BufferLength < 0) {
        lt_diag_post(h, "HY090", 0, "Invalid string or buffer length");
        return lt_leave(h, SQL_ERROR);
    }
    lt_desc_rec *r = lt_desc_record(ard, col);
    if (r == NULL) {
        lt_diag_post(h, "HY001", 0, "Memory allocation error");
        return lt_leave(h, SQL_ERROR);
    }
    lt_desc_set_type(r, TargetType);
    if (r->concise_type == SQL_C_NUMERIC) {
        /* SQLBindCol gives SQL_C_NUMERIC the driver's default precision and
        ** scale; SQLSetDescField can change them. */
        r->precision = 38;
        r->scale = 0;
    }
    r->octet_length = BufferLength;
    r->length = (SQLULEN)BufferLength;
    r->data_ptr = TargetValue;
    r->indicator_ptr = StrLen_or_Ind;
    r->octet_length_ptr = StrLen_or_Ind;
    if (col > ard->count)
        ard->count = col;
    return lt_leave(h, SQL_SUCCESS);
}
