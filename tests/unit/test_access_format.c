/*
** test_access_format.c — the Access reader's decoders on hand-built bytes:
** compressed unicode and UTF-16, the Date/Time rule, Jet 3 rows with a jump
** table and Jet 4 rows, usage maps of both kinds, LVAL chains, overflow
** pointers, the masked password; and malformed versions of each, which must
** give errors, not crashes.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/access_internal.h"
#include "common/datetime.h"
#include "common/endian.h"

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }

/* ---- a database of blank pages ---------------------------------------------- */

typedef struct fake {
    uint8_t *data;
    mdb_db db;
} fake;

static void fake_init(fake *f, bool jet3, uint32_t npages)
{
    memset(f, 0, sizeof *f);
    f->db.fmt = jet3 ? &mdb_jet3_format : &mdb_jet4_format;
    f->db.jet3 = jet3;
    f->db.version = jet3 ? MDB_VER_JET3 : MDB_VER_JET4;
    f->db.page_size = f->db.fmt->page_size;
    f->db.npages = npages;
    f->db.size = (size_t)npages * f->db.page_size;
    f->data = calloc(npages, f->db.page_size);
    assert_non_null(f->data);
    f->db.data = f->data;
    f->db.path = "fake.mdb";
}

static uint8_t *fake_page(fake *f, uint32_t pg) { return f->data + (size_t)pg * f->db.page_size; }

/* Make `pg` a data page of table `tdef` holding `n` rows (laid from the end
** of the page down); returns the page. */
static uint8_t *data_page(fake *f, uint32_t pg, uint32_t tdef, const uint8_t *const *rows,
                          const uint32_t *lens, const uint16_t *flags, uint32_t n)
{
    uint8_t *p = fake_page(f, pg);
    p[0] = MDB_PAGE_DATA;
    p[1] = 1;
    put32(p + 4, tdef);
    uint32_t at = f->db.fmt->data_nrows;
    put16(p + at, n);
    uint32_t end = f->db.page_size;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t start = end - lens[i];
        memcpy(p + start, rows[i], lens[i]);
        put16(p + at + 2 + 2 * i, start | (flags ? flags[i] : 0));
        end = start;
    }
    return p;
}

/* ---- text -------------------------------------------------------------------- */

static void test_compressed_unicode(void **state)
{
    (void)state;
    /* "ab" compressed, switch, U+4E2D U+6587 as code units, switch, "c" */
    static const uint8_t in[] = {'a', 'b', 0x00, 0x2d, 0x4e, 0x87, 0x65, 0x00, 'c'};
    char out[64];
    size_t n = mdb_uncompress_to_utf8(in, sizeof in, out);
    assert_int_equal(n, 2 + 6 + 1);
    assert_memory_equal(out, "ab\xe4\xb8\xad\xe6\x96\x87" "c", n);
    /* a lone trailing byte in two-byte mode is dropped, not read past */
    static const uint8_t odd[] = {'x', 0x00, 0x41};
    n = mdb_uncompress_to_utf8(odd, sizeof odd, out);
    assert_int_equal(n, 1);
    /* Latin-1 range in compressed mode is two UTF-8 bytes */
    static const uint8_t latin[] = {0xe9};
    n = mdb_uncompress_to_utf8(latin, 1, out);
    assert_memory_equal(out, "\xc3\xa9", 2);
}

static void test_utf16(void **state)
{
    (void)state;
    /* U+1F600 as a surrogate pair, then a lone low surrogate, then 'A', then
    ** a lone high surrogate at the end */
    static const uint8_t in[] = {0x3d, 0xd8, 0x00, 0xde, 0x00, 0xdc, 'A', 0, 0x3d, 0xd8};
    char out[64];
    size_t n = mdb_utf16_to_utf8(in, sizeof in, out);
    assert_int_equal(n, 4 + 3 + 1 + 3);
    assert_memory_equal(out, "\xf0\x9f\x98\x80\xef\xbf\xbd" "A\xef\xbf\xbd", n);
    /* an odd byte count ignores the last byte */
    n = mdb_utf16_to_utf8((const uint8_t *)"A\0B", 3, out);
    assert_int_equal(n, 1);
}

static void test_text_in_place(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 2);
    lt_arena arena;
    lt_arena_init(&arena);
    mdb_buf scratch = {0};
    lt_bytes out;
    static const uint8_t ascii[] = {0xff, 0xfe, 'h', 'i'};
    assert_int_equal(mdb_text(&f.db, 0, ascii, 4, &scratch, &arena, &out), 0);
    assert_ptr_equal(out.ptr, (const char *)ascii + 2);
    assert_int_equal(out.len, 2);
    /* FF FE alone is the empty string */
    assert_int_equal(mdb_text(&f.db, 0, ascii, 2, &scratch, &arena, &out), 0);
    assert_int_equal(out.len, 0);
    static const uint8_t wide[] = {'h', 0, 0xe9, 0};
    assert_int_equal(mdb_text(&f.db, 0, wide, 4, &scratch, &arena, &out), 0);
    assert_int_equal(out.len, 3);
    assert_memory_equal(out.ptr, "h\xc3\xa9", 3);
    /* compressed Latin-1 without a mode switch: written at its exact size */
    static const uint8_t latin[] = {0xff, 0xfe, 'B', 'j', 0xf6, 'r', 'n', 0xff};
    assert_int_equal(mdb_text(&f.db, 0, latin, sizeof latin, &scratch, &arena, &out), 0);
    assert_int_equal(out.len, 8);
    assert_memory_equal(out.ptr, "Bj\xc3\xb6rn\xc3\xbf", 8);
    assert_true(out.ptr < (const char *)latin || out.ptr >= (const char *)latin + sizeof latin);
    /* ... and with one: the general decoder (U+00E9 as a code unit, then 'x') */
    static const uint8_t mixed[] = {0xff, 0xfe, 0xe9, 0x00, 0x2d, 0x4e, 0x00, 'x'};
    assert_int_equal(mdb_text(&f.db, 0, mixed, sizeof mixed, &scratch, &arena, &out), 0);
    assert_int_equal(out.len, 6);
    assert_memory_equal(out.ptr, "\xc3\xa9\xe4\xb8\xad" "x", 6);
    /* ... also after an ASCII prefix */
    static const uint8_t late[] = {0xff, 0xfe, 'a', 0x00, 0x2d, 0x4e};
    assert_int_equal(mdb_text(&f.db, 0, late, sizeof late, &scratch, &arena, &out), 0);
    assert_int_equal(out.len, 4);
    assert_memory_equal(out.ptr, "a\xe4\xb8\xad", 4);
    /* Jet 3: code page text; ASCII in place, cp1252 0x80 is the euro sign */
    f.db.jet3 = true;
    static const uint8_t cp[] = {'e', 0x80};
    assert_int_equal(mdb_text(&f.db, 1252, cp, 2, &scratch, &arena, &out), 0);
    assert_memory_equal(out.ptr, "e\xe2\x82\xac", 4);
    assert_int_equal(mdb_text(&f.db, 1252, cp, 1, &scratch, &arena, &out), 0);
    assert_ptr_equal(out.ptr, (const char *)cp);
    mdb_buf_free(&scratch);
    lt_arena_free(&arena);
    free(f.data);
}

/* ---- Date/Time ------------------------------------------------------------------- */

static int64_t ts(int y, int mo, int d, int h, int mi, int s, int ms)
{
    return (int64_t)lt_days_from_civil(y, mo, d) * LT_USEC_PER_DAY +
           ((int64_t)h * 3600 + mi * 60 + s) * 1000000 + (int64_t)ms * 1000;
}

static void test_datetime(void **state)
{
    (void)state;
    int64_t us;
    assert_int_equal(mdb_datetime(0.0, &us), 0);
    assert_true(us == ts(1899, 12, 30, 0, 0, 0, 0));
    assert_int_equal(mdb_datetime(36526.5, &us), 0);
    assert_true(us == ts(2000, 1, 1, 12, 0, 0, 0));
    /* negative: whole days back, the fraction a positive time of day */
    assert_int_equal(mdb_datetime(-1.25, &us), 0);
    assert_true(us == ts(1899, 12, 29, 6, 0, 0, 0));
    assert_int_equal(mdb_datetime(-0.5, &us), 0);
    assert_true(us == ts(1899, 12, 30, 12, 0, 0, 0));
    /* milliseconds are kept, finer parts rounded */
    assert_int_equal(mdb_datetime(1.0 + 1.0 / 86400000.0, &us), 0);
    assert_true(us == ts(1899, 12, 31, 0, 0, 0, 1));
    assert_int_equal(mdb_datetime(2958465.0, &us), 0);
    assert_true(us == ts(9999, 12, 31, 0, 0, 0, 0));
    double nan = 0.0 / 0.0;
    assert_int_equal(mdb_datetime(nan, &us), -1);
    assert_int_equal(mdb_datetime(1e300, &us), -1);
}

/* ---- rows -------------------------------------------------------------------------- */

/* A Jet 4 row: count, fixed bytes, variable values, offsets, count, mask. */
static uint32_t jet4_row(uint8_t *out, uint32_t ncols, const uint8_t *fixed, uint32_t nfixed,
                         const char *const *vars, uint32_t nvar, uint8_t mask)
{
    uint32_t n = 0;
    put16(out, ncols);
    n = 2;
    memcpy(out + n, fixed, nfixed);
    n += nfixed;
    uint32_t offs[16];
    for (uint32_t i = 0; i < nvar; i++) {
        offs[i] = n;
        memcpy(out + n, vars[i], strlen(vars[i]));
        n += (uint32_t)strlen(vars[i]);
    }
    offs[nvar] = n;
    for (int i = (int)nvar; i >= 0; i--) {
        put16(out + n, offs[i]);
        n += 2;
    }
    put16(out + n, nvar);
    n += 2;
    out[n++] = mask;
    return n;
}

static mdb_table two_col_table(mdb_column *cols)
{
    memset(cols, 0, 3 * sizeof *cols);
    cols[0] = (mdb_column){.type = MDB_LONG, .number = 0, .fixed = true, .fixed_offset = 0, .length = 4};
    cols[1] = (mdb_column){.type = MDB_BINARY, .number = 1, .var_index = 0};
    cols[2] = (mdb_column){.type = MDB_BINARY, .number = 2, .var_index = 1};
    return (mdb_table){.tdef_page = 5, .ncols = 3, .cols = cols, .nvar = 2};
}

static void test_jet4_row(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 2);
    mdb_column cols[3];
    mdb_table mt = two_col_table(cols);
    uint8_t buf[256];
    static const uint8_t fixed[4] = {7, 0, 0, 0};
    const char *vars[] = {"abc", ""};
    uint32_t len = jet4_row(buf, 3, fixed, 4, vars, 2, 0x07);
    mdb_row row = {.p = buf, .len = len};
    lt_error err;
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), 0);
    uint32_t off, n;
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[0], &off, &n, &err), 1);
    assert_int_equal(lt_le32(buf + off), 7);
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[1], &off, &n, &err), 1);
    assert_int_equal(n, 3);
    assert_memory_equal(buf + off, "abc", 3);
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[2], &off, &n, &err), 1);
    assert_int_equal(n, 0);     /* empty, not NULL */
    /* NULL bit clear */
    buf[len - 1] = 0x05;
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[1], &off, &n, &err), 0);
    /* a row written before column 2 existed: 2 columns, 1 variable */
    const char *one[] = {"xy"};
    len = jet4_row(buf, 2, fixed, 4, one, 1, 0x03);
    row = (mdb_row){.p = buf, .len = len};
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), 0);
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[2], &off, &n, &err), 0);
    /* malformed: offsets decreasing */
    len = jet4_row(buf, 3, fixed, 4, vars, 2, 0x07);
    put16(buf + len - 1 - 2 - 4, 200);   /* entry 1 (end of var 0) past the row */
    row = (mdb_row){.p = buf, .len = len};
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), 0);
    assert_int_equal(mdb_row_field(&f.db, &row, &cols[1], &off, &n, &err), -1);
    assert_string_equal(err.sqlstate, "HY000");
    /* malformed: a variable count larger than the row */
    put16(buf + len - 3, 0x7fff);
    row = (mdb_row){.p = buf, .len = len};
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), -1);
    /* malformed: a column count whose null mask does not fit */
    put16(buf, 0xffff);
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), -1);
    row = (mdb_row){.p = buf, .len = 1};
    assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), -1);
    free(f.data);
}

/* A Jet 3 row with `nvar` values of `each` bytes, with the jump table Access
** writes (one entry per 256-byte step of the row length). */
static uint32_t jet3_row(uint8_t *out, uint32_t nvar, uint32_t each, uint32_t *offs)
{
    uint32_t bs = 1, fixed = 4;
    uint32_t data_end = 1 + fixed + nvar * each;
    uint32_t jumps = 0, len = 0;
    for (int k = 0; k < 4; k++) {
        len = data_end + (nvar + 1) + jumps + 1 + bs;
        jumps = (len - 1) / 256;
    }
    len = data_end + (nvar + 1) + jumps + 1 + bs;
    memset(out, 0, len);
    out[0] = (uint8_t)(nvar + 1);
    put32(out + 1, 42);
    for (uint32_t i = 0; i <= nvar; i++)
        offs[i] = 1 + fixed + i * each;
    for (uint32_t i = 0; i < nvar; i++)
        memset(out + offs[i], 'a' + (int)i, each);
    uint32_t first = len - bs - jumps - 2;
    for (uint32_t i = 0; i <= nvar; i++)
        out[first - i] = (uint8_t)(offs[i] & 0xff);
    for (uint32_t k = 0; k < jumps; k++) {
        uint32_t e = 0xff;
        for (uint32_t i = 0; i <= nvar; i++)
            if (offs[i] >= 256 * (k + 1)) {
                e = i;
                break;
            }
        out[len - bs - 2 - k] = (uint8_t)e;
    }
    out[len - bs - 1] = (uint8_t)nvar;
    out[len - 1] = 0xff;
    return len;
}

static void test_jet3_jump_table(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, true, 2);
    mdb_column cols[4];
    cols[0] = (mdb_column){.type = MDB_LONG, .number = 0, .fixed = true, .length = 4};
    for (int i = 1; i < 4; i++)
        cols[i] = (mdb_column){.type = MDB_TEXT, .number = (uint16_t)i, .var_index = (uint16_t)(i - 1)};
    mdb_table mt = {.ncols = 4, .cols = cols, .nvar = 3};
    static const uint32_t sizes[] = {10, 82, 83, 84, 100, 200, 250, 300};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint8_t buf[2048];
        uint32_t offs[8];
        uint32_t len = jet3_row(buf, 3, sizes[s], offs);
        mdb_row row = {.p = buf, .len = len};
        lt_error err;
        assert_int_equal(mdb_row_crack(&f.db, &mt, &row, &err), 0);
        for (int i = 1; i < 4; i++) {
            uint32_t off, n;
            assert_int_equal(mdb_row_field(&f.db, &row, &cols[i], &off, &n, &err), 1);
            assert_int_equal(off, offs[i - 1]);
            assert_int_equal(n, sizes[s]);
            assert_int_equal(buf[off], 'a' + i - 1);
        }
        uint32_t off, n;
        assert_int_equal(mdb_row_field(&f.db, &row, &cols[0], &off, &n, &err), 1);
        assert_int_equal(lt_le32(buf + off), 42);
    }
    free(f.data);
}

/* ---- pages, usage maps, cursors ------------------------------------------------------ */

static void test_usage_maps(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 40);
    /* page 1: two maps, an inline one (row 0) and a reference one (row 1) */
    uint8_t inline_map[1 + 4 + 4] = {0};
    inline_map[0] = 0;
    put32(inline_map + 1, 8);      /* bitmap starts at page 8 */
    inline_map[5] = 0x05;          /* pages 8 and 10 */
    inline_map[6] = 0x80;          /* page 23 */
    uint8_t ref_map[1 + 8] = {0};
    ref_map[0] = 1;
    put32(ref_map + 1, 3);         /* bitmap page 3 covers pages 0.. */
    const uint8_t *rows[] = {inline_map, ref_map};
    uint32_t lens[] = {sizeof inline_map, sizeof ref_map};
    data_page(&f, 1, 0, rows, lens, NULL, 2);
    uint8_t *bm = fake_page(&f, 3);
    bm[0] = MDB_PAGE_USAGE;
    bm[4] = 0x30;                  /* pages 4 and 5 */
    bm[4 + 4] = 0x01;              /* page 32 */
    uint32_t *pages, n;
    lt_error err;
    assert_int_equal(mdb_usage_pages(&f.db, 1u << 8 | 0, &pages, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(pages[0], 8);
    assert_int_equal(pages[1], 10);
    assert_int_equal(pages[2], 23);
    free(pages);
    assert_int_equal(mdb_usage_pages(&f.db, 1u << 8 | 1, &pages, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(pages[0], 4);
    assert_int_equal(pages[2], 32);
    free(pages);
    /* a page beyond the file */
    bm[4 + 5] = 0x01;              /* page 40 */
    assert_int_equal(mdb_usage_pages(&f.db, 1u << 8 | 1, &pages, &n, &err), -1);
    assert_non_null(strstr(err.message, "beyond the end"));
    /* a reference to a page that is not a bitmap page */
    bm[0] = MDB_PAGE_DATA;
    assert_int_equal(mdb_usage_pages(&f.db, 1u << 8 | 1, &pages, &n, &err), -1);
    /* a row pointer to a slot the page does not have, and to no page */
    assert_int_equal(mdb_usage_pages(&f.db, 1u << 8 | 9, &pages, &n, &err), -1);
    assert_int_equal(mdb_usage_pages(&f.db, 999u << 8, &pages, &n, &err), -1);
    free(f.data);
}

static void test_slots(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 4);
    static const uint8_t a[] = {1, 2, 3}, b[] = {4, 5};
    const uint8_t *rows[] = {a, b};
    uint32_t lens[] = {3, 2};
    uint8_t *p = data_page(&f, 2, 7, rows, lens, NULL, 2);
    uint16_t raw;
    uint32_t s, e;
    lt_error err;
    assert_int_equal(mdb_page_slot(&f.db, p, 2, 1, &raw, &s, &e, &err), 0);
    assert_int_equal(e - s, 2);
    /* a slot pointing into the slot table */
    put16(p + 14 + 2, 3);
    assert_int_equal(mdb_page_slot(&f.db, p, 2, 1, &raw, &s, &e, &err), -1);
    /* ... which is ignored when the slot is deleted */
    put16(p + 14 + 2, 3 | MDB_ROW_DELETED);
    assert_int_equal(mdb_page_slot(&f.db, p, 2, 1, &raw, &s, &e, &err), 0);
    /* a slot count larger than the page */
    put16(p + 12, 4000);
    assert_int_equal(mdb_page_nrows(&f.db, p, 2, &err), -1);
    free(f.data);
}

static void test_cursor_overflow(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 8);
    /* table with TDEF page 5; map on page 1 lists pages 2 and 3 */
    uint8_t map[1 + 4 + 1] = {0};
    put32(map + 1, 0);
    map[5] = 0x0c;
    const uint8_t *mrows[] = {map};
    uint32_t mlens[] = {sizeof map};
    data_page(&f, 1, 0, mrows, mlens, NULL, 1);
    /* page 2: a live row, a deleted row, an overflow pointer to page 3 row 1 */
    static const uint8_t live[] = {1, 1, 1, 1, 1};
    static const uint8_t dead[] = {2, 2, 2, 2, 2};
    uint8_t ptr[4];
    put32(ptr, 3u << 8 | 1);
    const uint8_t *rows2[] = {live, dead, ptr};
    uint32_t lens2[] = {5, 5, 4};
    uint16_t flags2[] = {0, MDB_ROW_DELETED, MDB_ROW_OVERFLOW};
    data_page(&f, 2, 5, rows2, lens2, flags2, 3);
    /* page 3: a live row and the moved row (marked deleted) */
    static const uint8_t other[] = {3, 3, 3, 3, 3};
    static const uint8_t moved[] = {9, 9, 9, 9, 9, 9};
    const uint8_t *rows3[] = {other, moved};
    uint32_t lens3[] = {5, 6};
    uint16_t flags3[] = {0, MDB_ROW_DELETED};
    uint8_t *p3 = data_page(&f, 3, 5, rows3, lens3, flags3, 2);
    mdb_table mt = {.tdef_page = 5, .usage_map = 1u << 8};
    mdb_cursor c;
    lt_error err;
    /* counted: the live slots, the overflow pointer one row, the moved row
    ** (marked deleted) not again; then the same over a borrowed page list */
    assert_int_equal(mdb_cursor_open(&c, &f.db, &mt, &err), 0);
    assert_int_equal(mdb_cursor_count(&c, &err), 3);
    uint32_t list[] = {2, 3};
    mdb_cursor_close(&c);
    mdb_cursor_start(&c, &f.db, 5, list, 2);
    assert_int_equal(mdb_cursor_count(&c, &err), 3);
    mdb_cursor_close(&c);
    /* a live slot pointing into the slot table: an error when counting */
    uint8_t *p2 = fake_page(&f, 2);
    uint16_t keep = (uint16_t)lt_le16(p2 + 14);
    put16(p2 + 14, 4);
    mdb_cursor_start(&c, &f.db, 5, list, 2);
    assert_int_equal(mdb_cursor_count(&c, &err), -1);
    assert_non_null(strstr(err.message, "outside the page"));
    put16(p2 + 14, keep);
    assert_int_equal(mdb_cursor_open(&c, &f.db, &mt, &err), 0);
    mdb_row row;
    uint8_t seen[4];
    int k = 0;
    int r;
    while ((r = mdb_cursor_next(&c, &row, &err)) > 0) {
        assert_true(k < 4);
        seen[k++] = row.p[0];
    }
    assert_int_equal(r, 0);
    assert_int_equal(k, 3);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 9);   /* the overflow pointer followed */
    assert_int_equal(seen[2], 3);
    mdb_cursor_close(&c);
    /* an overflow pointer that points at itself: an error, not a hang */
    put32(ptr, 2u << 8 | 2);
    data_page(&f, 2, 5, rows2, lens2, flags2, 3);
    assert_int_equal(mdb_cursor_open(&c, &f.db, &mt, &err), 0);
    while ((r = mdb_cursor_next(&c, &row, &err)) > 0)
        ;
    assert_int_equal(r, -1);
    assert_non_null(strstr(err.message, "loop"));
    mdb_cursor_close(&c);
    (void)p3;
    free(f.data);
}

/* ---- long values ---------------------------------------------------------------------- */

static void test_lval(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, false, 8);
    mdb_buf buf = {0};
    const uint8_t *out;
    uint32_t len;
    lt_error err;
    /* inline */
    uint8_t field[32] = {0};
    put32(field, 5 | 0x80000000u);
    memcpy(field + 12, "hello", 5);
    assert_int_equal(mdb_lval(&f.db, field, 17, &buf, &out, &len, &err), 0);
    assert_int_equal(len, 5);
    assert_ptr_equal(out, field + 12);
    /* inline longer than the field */
    assert_int_equal(mdb_lval(&f.db, field, 15, &buf, &out, &len, &err), -1);
    /* single page: page 2 row 0 */
    static const uint8_t single[] = "single-page";
    const uint8_t *r1[] = {single};
    uint32_t l1[] = {11};
    data_page(&f, 2, 0, r1, l1, NULL, 1);
    put32(field, 11 | 0x40000000u);
    put32(field + 4, 2u << 8);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), 0);
    assert_int_equal(len, 11);
    assert_memory_equal(out, "single-page", 11);
    /* chain: page 3 row 0 -> page 4 row 0 */
    uint8_t c1[4 + 6], c2[4 + 5];
    put32(c1, 4u << 8);
    memcpy(c1 + 4, "first-", 6);
    put32(c2, 0);
    memcpy(c2 + 4, "last!", 5);
    const uint8_t *r3[] = {c1};
    uint32_t l3[] = {sizeof c1};
    data_page(&f, 3, 0, r3, l3, NULL, 1);
    const uint8_t *r4[] = {c2};
    uint32_t l4[] = {sizeof c2};
    data_page(&f, 4, 0, r4, l4, NULL, 1);
    put32(field, 11);
    put32(field + 4, 3u << 8);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), 0);
    assert_int_equal(len, 11);
    assert_memory_equal(out, "first-last!", 11);
    /* a chain that ends before the length */
    put32(field, 20);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), -1);
    /* a chain that loops: ends at the length, which may not pass the file */
    put32(c2, 3u << 8);
    data_page(&f, 4, 0, r4, l4, NULL, 1);
    put32(field, 0x3fffffff);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), -1);
    put32(field, 30);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), 0);
    assert_memory_equal(out, "first-last!first-last!first-la", 30);
    /* a pointer to a page that is not a data page */
    put32(field + 4, 6u << 8);
    assert_int_equal(mdb_lval(&f.db, field, 12, &buf, &out, &len, &err), -1);
    /* short field */
    assert_int_equal(mdb_lval(&f.db, field, 11, &buf, &out, &len, &err), -1);
    mdb_buf_free(&buf);
    free(f.data);
}

/* ---- the header: password masking ------------------------------------------------------ */

static void test_header_password(void **state)
{
    (void)state;
    uint8_t *file = calloc(3, 4096);
    assert_non_null(file);
    memcpy(file, "\x00\x01\x00\x00Standard Jet DB", 20);
    file[0x14] = MDB_VER_JET4;
    uint8_t block[128] = {0};
    double created = 44568.25;
    memcpy(block + 0x72 - 0x18, &created, 8);
    uint32_t mask = 44568;
    const char *pw = "s3cret";
    for (size_t i = 0; i < 40; i++) {
        uint8_t c = i % 2 == 0 && i / 2 < strlen(pw) ? (uint8_t)pw[i / 2] : 0;
        block[0x42 - 0x18 + i] = c ^ (uint8_t)(mask >> (8 * (i % 4)));
    }
    block[0x3c - 0x18] = 0xe4;
    block[0x3c - 0x18 + 1] = 0x04;
    static const uint8_t key[4] = {0xc7, 0xda, 0x39, 0x6b};
    mdb_rc4(key, 4, block, file + 0x18, 128);
    mdb_db db;
    lt_error err;
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 3 * 4096, NULL, &err), -1);
    assert_string_equal(err.sqlstate, "28000");
    lt_option wrong[] = {{"PWD", "S3CRET"}};
    lt_options o1 = {1, wrong};
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 3 * 4096, &o1, &err), -1);
    assert_string_equal(err.sqlstate, "28000");
    lt_option right[] = {{"PWD", "s3cret"}};
    lt_options o2 = {1, right};
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 3 * 4096, &o2, &err), 0);
    assert_int_equal(db.npages, 3);
    mdb_db_free(&db);
    /* not an Access file; an unknown version; too short */
    file[0x14] = 9;
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 3 * 4096, &o2, &err), -1);
    file[0x14] = MDB_VER_JET4;
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 4096, &o2, &err), -1);
    assert_non_null(strstr(err.message, "truncated"));
    file[4] = 'X';
    assert_int_equal(mdb_header_parse(&db, "pw.mdb", file, 3 * 4096, &o2, &err), -1);
    free(file);
}

static void test_rc4_pages(void **state)
{
    (void)state;
    /* A Jet 3 header with a page-encoding key: pages 1.. are RC4-decoded. */
    uint8_t *file = calloc(3, 2048);
    assert_non_null(file);
    memcpy(file, "\x00\x01\x00\x00Standard Jet DB", 20);
    file[0x14] = MDB_VER_JET3;
    uint8_t block[126] = {0};
    static const uint8_t dbkey[4] = {0x11, 0x22, 0x33, 0x44};
    memcpy(block + 0x3e - 0x18, dbkey, 4);
    static const uint8_t hkey[4] = {0xc7, 0xda, 0x39, 0x6b};
    mdb_rc4(hkey, 4, block, file + 0x18, 126);
    memset(file + 2 * 2048, 0xab, 2048);
    uint8_t pkey[4] = {0x11 ^ 2, 0x22, 0x33, 0x44};
    mdb_rc4(pkey, 4, file + 2 * 2048, file + 2 * 2048, 2048);
    mdb_db db;
    lt_error err;
    assert_int_equal(mdb_header_parse(&db, "enc.mdb", file, 3 * 2048, NULL, &err), 0);
    assert_non_null(db.decoded);
    const uint8_t *p2 = mdb_page(&db, 2);
    for (int i = 0; i < 2048; i++)
        assert_int_equal(p2[i], 0xab);
    assert_null(mdb_page(&db, 3));
    mdb_db_free(&db);
    /* the same key on an ACE file: encryption, refused with its name */
    memcpy(file + 4, "Standard ACE DB", 16);
    file[0x14] = MDB_VER_ACE14;
    uint8_t *ace = calloc(3, 4096);
    assert_non_null(ace);
    memcpy(ace, file, 0x18);
    uint8_t block4[128] = {0};
    memcpy(block4 + 0x3e - 0x18, dbkey, 4);
    mdb_rc4(hkey, 4, block4, ace + 0x18, 128);
    assert_int_equal(mdb_header_parse(&db, "enc.accdb", ace, 3 * 4096, NULL, &err), -1);
    assert_non_null(strstr(err.message, "encrypted"));
    free(ace);
    free(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compressed_unicode),
        cmocka_unit_test(test_utf16),
        cmocka_unit_test(test_text_in_place),
        cmocka_unit_test(test_datetime),
        cmocka_unit_test(test_jet4_row),
        cmocka_unit_test(test_jet3_jump_table),
        cmocka_unit_test(test_usage_maps),
        cmocka_unit_test(test_slots),
        cmocka_unit_test(test_cursor_overflow),
        cmocka_unit_test(test_lval),
        cmocka_unit_test(test_header_password),
        cmocka_unit_test(test_rc4_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
