/*
** test_driver_core.h — helpers shared by the tests of the ODBC layer's core
** (test_driver_core*.c): they call the driver's entry points directly,
** without a driver manager.
*/
#ifndef TEST_DRIVER_CORE_H
#define TEST_DRIVER_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "driver/driver.h"

#define CORPUS_DBF LT_CORPUS_DIR "/dbf/real/olemb-dbfread"
#define PEOPLE_DBF CORPUS_DBF "/people.dbf"
#define MEMO_DBF CORPUS_DBF "/memotest.dbf"

/* The SQLSTATE of diagnostic record `rec` of a handle ("" when none). */
static inline const char *state_of(SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec)
{
    static char state[6];
    SQLINTEGER native;
    SQLCHAR msg[1024];
    SQLSMALLINT len;
    state[0] = '\0';
    if (SQLGetDiagRec(type, h, rec, (SQLCHAR *)state, &native, msg, sizeof msg, &len) !=
        SQL_SUCCESS)
        state[0] = '\0';
    return state;
}

/* The message of record `rec` ("" when none). */
static inline const char *message_of(SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec)
{
    static char msg[2048];
    SQLCHAR state[6];
    SQLINTEGER native;
    SQLSMALLINT len;
    msg[0] = '\0';
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, rec, state, &native, (SQLCHAR *)msg,
                                     sizeof msg, &len)))
        msg[0] = '\0';
    return msg;
}

#define assert_state(type, h, expected) \
    assert_string_equal(state_of((type), (h), 1), (expected))
#define assert_stmt_state(h, expected) assert_state(SQL_HANDLE_STMT, (h), (expected))
#define assert_dbc_state(h, expected) assert_state(SQL_HANDLE_DBC, (h), (expected))

#define assert_ok(rc) assert_int_equal((rc), SQL_SUCCESS)

typedef struct fixture {
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
} fixture;

static inline SQLHENV new_env(void)
{
    SQLHENV env = NULL;
    assert_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env));
    assert_ok(SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0));
    return env;
}

/* Connect with a connection string; fails the test on error. */
static inline void connect_to(fixture *f, const char *conn)
{
    f->env = new_env();
    assert_ok(SQLAllocHandle(SQL_HANDLE_DBC, f->env, &f->dbc));
    SQLRETURN rc = SQLDriverConnect(f->dbc, NULL, (SQLCHAR *)conn, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    if (!SQL_SUCCEEDED(rc))
        fail_msg("connect '%s': %s %s", conn, state_of(SQL_HANDLE_DBC, f->dbc, 1),
                 message_of(SQL_HANDLE_DBC, f->dbc, 1));
    assert_ok(SQLAllocHandle(SQL_HANDLE_STMT, f->dbc, &f->stmt));
}

static inline void disconnect(fixture *f)
{
    if (f->stmt)
        assert_ok(SQLFreeHandle(SQL_HANDLE_STMT, f->stmt));
    assert_ok(SQLDisconnect(f->dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_DBC, f->dbc));
    assert_ok(SQLFreeHandle(SQL_HANDLE_ENV, f->env));
    memset(f, 0, sizeof *f);
}

/* Execute `sql` on the fixture's statement; fails the test on error. */
static inline void exec_ok(SQLHSTMT stmt, const char *sql)
{
    SQLRETURN rc = SQLExecDirect(stmt, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc))
        fail_msg("execute '%s': %s %s", sql, state_of(SQL_HANDLE_STMT, stmt, 1),
                 message_of(SQL_HANDLE_STMT, stmt, 1));
}

/* Write a dBASE III table of `rows` records to `path`: ID N(8), NAME C(12)
** ("name<ID>"), NOTE C(40) (a sentence with the ID in it). */
static inline void write_big_dbf(const char *path, uint32_t rows)
{
    static const struct { const char *name; char type; uint8_t len; } fields[] = {
        {"ID", 'N', 8}, {"NAME", 'C', 12}, {"NOTE", 'C', 40}};
    const int nf = 3;
    uint16_t header = (uint16_t)(32 + 32 * nf + 1);
    uint16_t recsize = 1 + 8 + 12 + 40;
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    uint8_t h[32] = {0x03, 124, 1, 1};
    h[4] = (uint8_t)rows; h[5] = (uint8_t)(rows >> 8);
    h[6] = (uint8_t)(rows >> 16); h[7] = (uint8_t)(rows >> 24);
    h[8] = (uint8_t)header; h[9] = (uint8_t)(header >> 8);
    h[10] = (uint8_t)recsize; h[11] = (uint8_t)(recsize >> 8);
    fwrite(h, 1, 32, fp);
    for (int i = 0; i < nf; i++) {
        uint8_t d[32] = {0};
        memcpy(d, fields[i].name, strlen(fields[i].name));
        d[11] = (uint8_t)fields[i].type;
        d[16] = fields[i].len;
        fwrite(d, 1, 32, fp);
    }
    fputc(0x0D, fp);
    for (uint32_t r = 1; r <= rows; r++) {
        char rec[128];
        char name[16], note[48];
        snprintf(name, sizeof name, "name%u", r);
        snprintf(note, sizeof note, "row number %u of the big table", r);
        snprintf(rec, sizeof rec, " %8u%-12s%-40s", r, name, note);
        fwrite(rec, 1, recsize, fp);
    }
    fputc(0x1A, fp);
    fclose(fp);
}

#endif /* TEST_DRIVER_CORE_H */
