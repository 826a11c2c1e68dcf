/*
** info.c — SQLGetInfo and SQLGetFunctions.
**
** SQLGetInfo is one table: info type, the C type of its value, the value.
** A few answers depend on the connection (names) or the build (the driver's
** file name) and are computed in info_dynamic().  Every answer describes
** what Lector really does: a read-only, single-tier driver without
** catalogs, schemas, procedures or transactions, whose SQL is whatever
** driver/sql implements *today*.  The engine's part is gathered in the
** ENGINE_* block below: when the engine learns GROUP BY, joins or a
** function set, that block changes and nothing else.
**
** SQLGetFunctions answers from `functions[]`, the entry points the shared
** object exports; tests/unit/test_driver_info.c checks that list against
** the built liblectorodbc.so with dlsym.
*/
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* glibc declares dladdr() only with it */
#endif

#include <string.h>

#ifndef _WIN32
#include <dlfcn.h>
#endif

#include "driver.h"

#ifndef SQL_ASYNC_DBC_FUNCTIONS
#define SQL_ASYNC_DBC_FUNCTIONS 10023
#define SQL_ASYNC_DBC_NOT_CAPABLE 0x00000000L
#endif
#ifndef SQL_DRIVER_AWARE_POOLING_SUPPORTED
#define SQL_DRIVER_AWARE_POOLING_SUPPORTED 10024
#define SQL_DRIVER_AWARE_POOLING_NOT_CAPABLE 0x00000000L
#endif
#ifndef SQL_ASYNC_NOTIFICATION
#define SQL_ASYNC_NOTIFICATION 10025
#define SQL_ASYNC_NOTIFICATION_NOT_CAPABLE 0x00000000L
#endif
#ifndef SQL_CONVERT_GUID
#define SQL_CONVERT_GUID 173
#endif
#ifndef SQL_DTC_TRANSITION_COST
#define SQL_DTC_TRANSITION_COST 1750
#endif
#ifndef SQL_RETURN_ESCAPE_CLAUSE
#define SQL_RETURN_ESCAPE_CLAUSE 180
#define SQL_RC_NONE 0x00000000L
#endif

/* ------------------------------------------------------------------------ */
/* What the SQL engine implements today                                      */
/* ------------------------------------------------------------------------ */

/* Scalar function sets: the entries of driver/sql/func_*.c (and func.c's
** IFNULL, DATABASE, USER), callable plainly and as {fn ...}. */
#define ENGINE_STRING_FUNCTIONS \
    (SQL_FN_STR_ASCII | SQL_FN_STR_BIT_LENGTH | SQL_FN_STR_CHAR | SQL_FN_STR_CHAR_LENGTH | \
     SQL_FN_STR_CHARACTER_LENGTH | SQL_FN_STR_CONCAT | SQL_FN_STR_INSERT | SQL_FN_STR_LCASE | \
     SQL_FN_STR_LEFT | SQL_FN_STR_LENGTH | SQL_FN_STR_LOCATE | SQL_FN_STR_LOCATE_2 | \
     SQL_FN_STR_LTRIM | SQL_FN_STR_OCTET_LENGTH | SQL_FN_STR_POSITION | SQL_FN_STR_REPEAT | \
     SQL_FN_STR_REPLACE | SQL_FN_STR_RIGHT | SQL_FN_STR_RTRIM | SQL_FN_STR_SPACE | \
     SQL_FN_STR_SUBSTRING | SQL_FN_STR_UCASE)
#define ENGINE_NUMERIC_FUNCTIONS \
    (SQL_FN_NUM_ABS | SQL_FN_NUM_ACOS | SQL_FN_NUM_ASIN | SQL_FN_NUM_ATAN | SQL_FN_NUM_ATAN2 | \
     SQL_FN_NUM_CEILING | SQL_FN_NUM_COS | SQL_FN_NUM_COT | SQL_FN_NUM_DEGREES | SQL_FN_NUM_EXP | \
     SQL_FN_NUM_FLOOR | SQL_FN_NUM_LOG | SQL_FN_NUM_LOG10 | SQL_FN_NUM_MOD | SQL_FN_NUM_PI | \
     SQL_FN_NUM_POWER | SQL_FN_NUM_RADIANS | SQL_FN_NUM_RAND | SQL_FN_NUM_ROUND | \
     SQL_FN_NUM_SIGN | SQL_FN_NUM_SIN | SQL_FN_NUM_SQRT | SQL_FN_NUM_TAN | SQL_FN_NUM_TRUNCATE)
#define ENGINE_TIMEDATE_FUNCTIONS \
    (SQL_FN_TD_CURRENT_DATE | SQL_FN_TD_CURRENT_TIME | SQL_FN_TD_CURRENT_TIMESTAMP | \
     SQL_FN_TD_CURDATE | SQL_FN_TD_CURTIME | SQL_FN_TD_DAYNAME | SQL_FN_TD_DAYOFMONTH | \
     SQL_FN_TD_DAYOFWEEK | SQL_FN_TD_DAYOFYEAR | SQL_FN_TD_EXTRACT | SQL_FN_TD_HOUR | \
     SQL_FN_TD_MINUTE | SQL_FN_TD_MONTH | SQL_FN_TD_MONTHNAME | SQL_FN_TD_NOW | \
     SQL_FN_TD_QUARTER | SQL_FN_TD_SECOND | SQL_FN_TD_TIMESTAMPADD | SQL_FN_TD_TIMESTAMPDIFF | \
     SQL_FN_TD_WEEK | SQL_FN_TD_YEAR)
#define ENGINE_SYSTEM_FUNCTIONS (SQL_FN_SYS_DBNAME | SQL_FN_SYS_IFNULL | SQL_FN_SYS_USERNAME)
/* TIMESTAMPADD / TIMESTAMPDIFF intervals */
#define ENGINE_TSI_INTERVALS \
    (SQL_FN_TSI_FRAC_SECOND | SQL_FN_TSI_SECOND | SQL_FN_TSI_MINUTE | SQL_FN_TSI_HOUR | \
     SQL_FN_TSI_DAY | SQL_FN_TSI_WEEK | SQL_FN_TSI_MONTH | SQL_FN_TSI_QUARTER | SQL_FN_TSI_YEAR)
#define ENGINE_TIMEDATE_ADD_INTERVALS ENGINE_TSI_INTERVALS
#define ENGINE_TIMEDATE_DIFF_INTERVALS ENGINE_TSI_INTERVALS
/* UPPER, LOWER, SUBSTRING(x FROM a FOR b), TRIM(LEADING|TRAILING|BOTH ...)
** (not CONVERT ... USING nor TRANSLATE) */
#define ENGINE_SQL92_STRING_FUNCTIONS \
    (SQL_SSF_LOWER | SQL_SSF_UPPER | SQL_SSF_SUBSTRING | SQL_SSF_TRIM_BOTH | \
     SQL_SSF_TRIM_LEADING | SQL_SSF_TRIM_TRAILING)
#define ENGINE_SQL92_NUMERIC_VALUE_FUNCTIONS \
    (SQL_SNVF_BIT_LENGTH | SQL_SNVF_CHAR_LENGTH | SQL_SNVF_CHARACTER_LENGTH | \
     SQL_SNVF_EXTRACT | SQL_SNVF_OCTET_LENGTH | SQL_SNVF_POSITION)
#define ENGINE_SQL92_DATETIME_FUNCTIONS \
    (SQL_SDF_CURRENT_DATE | SQL_SDF_CURRENT_TIME | SQL_SDF_CURRENT_TIMESTAMP)
/* CAST / {fn CONVERT}: per source type, the SQL_CVT_* targets in
** convert_targets() below (driver/sql/cast.c, sql_cast_allowed). */
#define ENGINE_CONVERT_FUNCTIONS (SQL_FN_CVT_CAST | SQL_FN_CVT_CONVERT)
/* COUNT, SUM, AVG, MIN, MAX, with DISTINCT or ALL */
#define ENGINE_AGGREGATE_FUNCTIONS \
    (SQL_AF_ALL | SQL_AF_AVG | SQL_AF_COUNT | SQL_AF_DISTINCT | SQL_AF_MAX | SQL_AF_MIN | \
     SQL_AF_SUM)
/* Every column the select list shows outside an aggregate is a GROUP BY
** key; GROUP BY may hold more. */
#define ENGINE_GROUP_BY SQL_GB_GROUP_BY_CONTAINS_SELECT
/* Predicates the parser and executor handle (NOT forms included). */
#define ENGINE_PREDICATES \
    (SQL_SP_COMPARISON | SQL_SP_BETWEEN | SQL_SP_IN | SQL_SP_ISNULL | \
     SQL_SP_ISNOTNULL | SQL_SP_LIKE | SQL_SP_EXISTS)
/* CASE, CAST, COALESCE, NULLIF (SQL_SVE_*) */
#define ENGINE_VALUE_EXPRESSIONS (SQL_SVE_CASE | SQL_SVE_CAST | SQL_SVE_COALESCE | SQL_SVE_NULLIF)
/* Joins (SQL_SRJO_*, SQL_OJ_*) and tables per SELECT: [INNER] JOIN, LEFT /
** RIGHT / FULL [OUTER] JOIN, CROSS JOIN, NATURAL JOIN and commas, chained
** left to right, any condition in ON (equalities hash) or USING, also
** inside {oj ...}; derived tables; parenthesised (nested) joins, and
** ODBC's nested outer joins `a LEFT OUTER JOIN b LEFT OUTER JOIN c ON x ON
** y` and {oj} within {oj} (SQL_OJ_NESTED); no limit on tables.  SQL-92's
** EXCEPT [ALL] and INTERSECT [ALL] query operators have their SQL_SRJO_
** bits too (UNION JOIN and CORRESPONDING are not supported). */
#define ENGINE_JOIN_OPERATORS \
    (SQL_SRJO_CROSS_JOIN | SQL_SRJO_INNER_JOIN | SQL_SRJO_LEFT_OUTER_JOIN | \
     SQL_SRJO_RIGHT_OUTER_JOIN | SQL_SRJO_FULL_OUTER_JOIN | SQL_SRJO_NATURAL_JOIN | \
     SQL_SRJO_EXCEPT_JOIN | SQL_SRJO_INTERSECT_JOIN)
#define ENGINE_OJ_CAPABILITIES \
    (SQL_OJ_LEFT | SQL_OJ_RIGHT | SQL_OJ_FULL | SQL_OJ_NESTED | SQL_OJ_NOT_ORDERED | \
     SQL_OJ_INNER | SQL_OJ_ALL_COMPARISON_OPS)
#define ENGINE_OUTER_JOINS "Y"
#define ENGINE_MAX_TABLES_IN_SELECT 0
/* Subqueries in comparisons, IN and EXISTS, correlated too; no ANY/ALL. */
#define ENGINE_SUBQUERIES \
    (SQL_SQ_COMPARISON | SQL_SQ_EXISTS | SQL_SQ_IN | SQL_SQ_CORRELATED_SUBQUERIES)
/* UNION [ALL] (also EXCEPT [ALL] and INTERSECT [ALL], which SQL_UNION has
** no bit for) */
#define ENGINE_UNION (SQL_U_UNION | SQL_U_UNION_ALL)
/* DATE '2024-01-31', TIME '...', TIMESTAMP '...' */
#define ENGINE_DATETIME_LITERALS \
    (SQL_DL_SQL92_DATE | SQL_DL_SQL92_TIME | SQL_DL_SQL92_TIMESTAMP)
#define ENGINE_CONCAT_NULL_BEHAVIOR SQL_CB_NULL
/* NULL sorts as the smallest value (binder.c) */
#define ENGINE_NULL_COLLATION SQL_NC_LOW
/* Text compares by memcmp of UTF-8: code point order */
#define ENGINE_COLLATION_SEQ "UCS_BASIC"
#define ENGINE_COLUMN_ALIAS "Y"
#define ENGINE_CORRELATION_NAME SQL_CN_ANY
#define ENGINE_EXPRESSIONS_IN_ORDERBY "Y"
#define ENGINE_ORDER_BY_COLUMNS_IN_SELECT "N"
#define ENGINE_LIKE_ESCAPE_CLAUSE "Y"
/* The engine's keywords (driver/sql/lexer.h) that are not ODBC keywords
** (SQL_ODBC_KEYWORDS); the unit test keeps the two lists in step. */
#define ENGINE_KEYWORDS "LIMIT,NULLS,OFFSET,PERCENT,ROW,TOP"

#ifndef SQL_CVT_GUID
#define SQL_CVT_GUID 0x01000000L
#endif
#define CVT_TEXT \
    (SQL_CVT_CHAR | SQL_CVT_VARCHAR | SQL_CVT_LONGVARCHAR | SQL_CVT_WCHAR | SQL_CVT_WVARCHAR | \
     SQL_CVT_WLONGVARCHAR)
#define CVT_NUMBERS \
    (SQL_CVT_NUMERIC | SQL_CVT_DECIMAL | SQL_CVT_INTEGER | SQL_CVT_SMALLINT | SQL_CVT_TINYINT | \
     SQL_CVT_BIGINT | SQL_CVT_REAL | SQL_CVT_FLOAT | SQL_CVT_DOUBLE | SQL_CVT_BIT)
#define CVT_BINARY (SQL_CVT_BINARY | SQL_CVT_VARBINARY | SQL_CVT_LONGVARBINARY)

/* SQL_CONVERT_<from>: the SQL_CVT_* types CAST and CONVERT turn `from`
** into (driver/sql/cast.c: text to and from anything, numbers and BIT
** among themselves, DATE <-> TIMESTAMP -> TIME). */
static SQLUINTEGER convert_targets(SQLUSMALLINT info_type)
{
    switch (info_type) {
    case SQL_CONVERT_CHAR: case SQL_CONVERT_VARCHAR: case SQL_CONVERT_LONGVARCHAR:
    case SQL_CONVERT_WCHAR: case SQL_CONVERT_WVARCHAR: case SQL_CONVERT_WLONGVARCHAR:
        return CVT_TEXT | CVT_NUMBERS | CVT_BINARY | SQL_CVT_DATE | SQL_CVT_TIME |
               SQL_CVT_TIMESTAMP | SQL_CVT_GUID;
    case SQL_CONVERT_BIGINT: case SQL_CONVERT_BIT: case SQL_CONVERT_DECIMAL:
    case SQL_CONVERT_DOUBLE: case SQL_CONVERT_FLOAT: case SQL_CONVERT_INTEGER:
    case SQL_CONVERT_NUMERIC: case SQL_CONVERT_REAL: case SQL_CONVERT_SMALLINT:
    case SQL_CONVERT_TINYINT:
        return CVT_TEXT | CVT_NUMBERS;
    case SQL_CONVERT_DATE:
        return CVT_TEXT | SQL_CVT_DATE | SQL_CVT_TIMESTAMP;
    case SQL_CONVERT_TIME:
        return CVT_TEXT | SQL_CVT_TIME;
    case SQL_CONVERT_TIMESTAMP:
        return CVT_TEXT | SQL_CVT_DATE | SQL_CVT_TIME | SQL_CVT_TIMESTAMP;
    case SQL_CONVERT_BINARY: case SQL_CONVERT_VARBINARY: case SQL_CONVERT_LONGVARBINARY:
        return CVT_TEXT | CVT_BINARY;
    case SQL_CONVERT_GUID:
        return CVT_TEXT | SQL_CVT_GUID;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* What the driver is                                                        */
/* ------------------------------------------------------------------------ */

/* Longest table, column and cursor names accepted and reported. */
#define NAME_LEN_MAX 255
#define CURSOR_NAME_LEN_MAX 128 /* SQLSetCursorName (execute.c) */

/* Cursor capabilities.  Positioning with SQLSetPos(SQL_POSITION,
** SQL_LOCK_NO_CHANGE) works in both cursor types; a static cursor also
** scrolls and takes bookmarks (the row number, see LT_BOOKMARK_SIZE). */
#define CA1_FORWARD (SQL_CA1_NEXT | SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_POS_POSITION)
#define CA1_STATIC                                                          \
    (SQL_CA1_NEXT | SQL_CA1_ABSOLUTE | SQL_CA1_RELATIVE | SQL_CA1_BOOKMARK | \
     SQL_CA1_LOCK_NO_CHANGE | SQL_CA1_POS_POSITION)
#define CA2_COMMON                                                          \
    (SQL_CA2_READ_ONLY_CONCURRENCY | SQL_CA2_MAX_ROWS_SELECT |              \
     SQL_CA2_MAX_ROWS_CATALOG)

typedef enum info_kind { I_STR, I_U16, I_U32 } info_kind;

typedef struct info_entry {
    SQLUSMALLINT type;
    info_kind kind;
    SQLUINTEGER num;
    const char *str;
} info_entry;

#define S(t, v) {t, I_STR, 0, v}
#define U16(t, v) {t, I_U16, (SQLUINTEGER)(v), NULL}
#define U32(t, v) {t, I_U32, (SQLUINTEGER)(v), NULL}

static const info_entry info_table[] = {
    /* driver and data source */
    S(SQL_DBMS_NAME, LT_DRIVER_NAME),
    S(SQL_DBMS_VER, LT_DRIVER_VERSION),
    S(SQL_DRIVER_VER, LT_DRIVER_VERSION),
    S(SQL_DRIVER_ODBC_VER, "03.80"),
    S(SQL_XOPEN_CLI_YEAR, "1995"),
    U32(SQL_STANDARD_CLI_CONFORMANCE, SQL_SCC_XOPEN_CLI_VERSION1),
    U32(SQL_ODBC_INTERFACE_CONFORMANCE, SQL_OIC_CORE),
    U16(SQL_ODBC_API_CONFORMANCE, SQL_OAC_LEVEL1),
    U16(SQL_ODBC_SAG_CLI_CONFORMANCE, SQL_OSCC_COMPLIANT),
    U16(SQL_ODBC_SQL_CONFORMANCE, SQL_OSC_MINIMUM),
    /* Entry level is the least SQL_SQL_CONFORMANCE can say. */
    U32(SQL_SQL_CONFORMANCE, SQL_SC_SQL92_ENTRY),
    S(SQL_SERVER_NAME, ""),
    S(SQL_USER_NAME, ""),
    S(SQL_DATA_SOURCE_READ_ONLY, "Y"),
    S(SQL_ACCESSIBLE_TABLES, "Y"),
    S(SQL_ACCESSIBLE_PROCEDURES, "N"),
    U16(SQL_FILE_USAGE, SQL_FILE_TABLE),
    U16(SQL_MAX_DRIVER_CONNECTIONS, 0),
    U16(SQL_MAX_CONCURRENT_ACTIVITIES, 0),
    U16(SQL_ACTIVE_ENVIRONMENTS, 0),
    U32(SQL_ASYNC_MODE, SQL_AM_NONE),
    U32(SQL_MAX_ASYNC_CONCURRENT_STATEMENTS, 0),
    U32(SQL_ASYNC_DBC_FUNCTIONS, SQL_ASYNC_DBC_NOT_CAPABLE),
    U32(SQL_ASYNC_NOTIFICATION, SQL_ASYNC_NOTIFICATION_NOT_CAPABLE),
    U32(SQL_DRIVER_AWARE_POOLING_SUPPORTED, SQL_DRIVER_AWARE_POOLING_NOT_CAPABLE),
    U32(SQL_DTC_TRANSITION_COST, 0),
    /* Power Query asks it; nothing here returns values from an INSERT. */
    U32(SQL_RETURN_ESCAPE_CLAUSE, SQL_RC_NONE),
    S(SQL_MULT_RESULT_SETS, "N"),
    S(SQL_MULTIPLE_ACTIVE_TXN, "Y"),
    S(SQL_NEED_LONG_DATA_LEN, "N"),
    S(SQL_ROW_UPDATES, "N"),

    /* transactions: none, nothing is ever written */
    U16(SQL_TXN_CAPABLE, SQL_TC_NONE),
    U32(SQL_DEFAULT_TXN_ISOLATION, 0),
    U32(SQL_TXN_ISOLATION_OPTION, 0),
    U16(SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CB_PRESERVE),
    U16(SQL_CURSOR_ROLLBACK_BEHAVIOR, SQL_CB_PRESERVE),

    /* names: no catalogs, schemas or procedures */
    S(SQL_CATALOG_NAME, "N"),
    S(SQL_CATALOG_NAME_SEPARATOR, ""),
    S(SQL_CATALOG_TERM, ""),
    U16(SQL_CATALOG_LOCATION, 0),
    U32(SQL_CATALOG_USAGE, 0),
    S(SQL_SCHEMA_TERM, ""),
    U32(SQL_SCHEMA_USAGE, 0),
    S(SQL_PROCEDURES, "N"),
    S(SQL_PROCEDURE_TERM, ""),
    S(SQL_TABLE_TERM, "table"),
    S(SQL_IDENTIFIER_QUOTE_CHAR, "\""),
    U16(SQL_IDENTIFIER_CASE, SQL_IC_MIXED),
    U16(SQL_QUOTED_IDENTIFIER_CASE, SQL_IC_MIXED),
    S(SQL_SEARCH_PATTERN_ESCAPE, "\\"),
    /* Unquoted identifiers take letters, digits and '_' (ASCII or not). */
    S(SQL_SPECIAL_CHARACTERS, ""),
    S(SQL_KEYWORDS, ENGINE_KEYWORDS),

    /* limits (0: none) */
    U16(SQL_MAX_IDENTIFIER_LEN, NAME_LEN_MAX),
    U16(SQL_MAX_COLUMN_NAME_LEN, NAME_LEN_MAX),
    U16(SQL_MAX_TABLE_NAME_LEN, NAME_LEN_MAX),
    U16(SQL_MAX_CURSOR_NAME_LEN, CURSOR_NAME_LEN_MAX),
    U16(SQL_MAX_SCHEMA_NAME_LEN, 0),
    U16(SQL_MAX_CATALOG_NAME_LEN, 0),
    U16(SQL_MAX_PROCEDURE_NAME_LEN, 0),
    U16(SQL_MAX_USER_NAME_LEN, 0),
    U16(SQL_MAX_COLUMNS_IN_GROUP_BY, 0),
    U16(SQL_MAX_COLUMNS_IN_INDEX, 0),
    U16(SQL_MAX_COLUMNS_IN_ORDER_BY, 0),
    U16(SQL_MAX_COLUMNS_IN_SELECT, 0),
    U16(SQL_MAX_COLUMNS_IN_TABLE, 0),
    U16(SQL_MAX_TABLES_IN_SELECT, ENGINE_MAX_TABLES_IN_SELECT),
    U32(SQL_MAX_INDEX_SIZE, 0),
    U32(SQL_MAX_ROW_SIZE, 0),
    S(SQL_MAX_ROW_SIZE_INCLUDES_LONG, "Y"),
    U32(SQL_MAX_STATEMENT_LEN, 0),
    U32(SQL_MAX_CHAR_LITERAL_LEN, 0),
    U32(SQL_MAX_BINARY_LITERAL_LEN, 0),

    /* cursors and fetching */
    U32(SQL_SCROLL_OPTIONS, SQL_SO_FORWARD_ONLY | SQL_SO_STATIC),
    U32(SQL_SCROLL_CONCURRENCY, SQL_SCCO_READ_ONLY),
    U32(SQL_FETCH_DIRECTION,
        SQL_FD_FETCH_NEXT | SQL_FD_FETCH_FIRST | SQL_FD_FETCH_LAST |
            SQL_FD_FETCH_PRIOR | SQL_FD_FETCH_ABSOLUTE |
            SQL_FD_FETCH_RELATIVE | SQL_FD_FETCH_BOOKMARK),
    U32(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, CA1_FORWARD),
    U32(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2, CA2_COMMON),
    U32(SQL_STATIC_CURSOR_ATTRIBUTES1, CA1_STATIC),
    U32(SQL_STATIC_CURSOR_ATTRIBUTES2, CA2_COMMON),
    U32(SQL_DYNAMIC_CURSOR_ATTRIBUTES1, 0),
    U32(SQL_DYNAMIC_CURSOR_ATTRIBUTES2, 0),
    U32(SQL_KEYSET_CURSOR_ATTRIBUTES1, 0),
    U32(SQL_KEYSET_CURSOR_ATTRIBUTES2, 0),
    U32(SQL_CURSOR_SENSITIVITY, SQL_INSENSITIVE),
    U32(SQL_STATIC_SENSITIVITY, 0),
    U32(SQL_LOCK_TYPES, SQL_LCK_NO_CHANGE),
    U32(SQL_POS_OPERATIONS, SQL_POS_POSITION),
    U32(SQL_POSITIONED_STATEMENTS, 0),
    /* A bookmark (a row number) outlives scrolling and the (empty)
    ** transaction; a new execution may order rows differently. */
    U32(SQL_BOOKMARK_PERSISTENCE, SQL_BP_SCROLL | SQL_BP_TRANSACTION),
    U32(SQL_GETDATA_EXTENSIONS, LT_GETDATA_EXTENSIONS),
    U32(SQL_BATCH_ROW_COUNT, 0),
    U32(SQL_BATCH_SUPPORT, 0),
    U32(SQL_PARAM_ARRAY_ROW_COUNTS, SQL_PARC_NO_BATCH),
    U32(SQL_PARAM_ARRAY_SELECTS, SQL_PAS_NO_SELECT),

    /* SQL: statements other than SELECT are refused */
    U32(SQL_ALTER_DOMAIN, 0),
    U32(SQL_ALTER_TABLE, 0),
    U32(SQL_CREATE_ASSERTION, 0),
    U32(SQL_CREATE_CHARACTER_SET, 0),
    U32(SQL_CREATE_COLLATION, 0),
    U32(SQL_CREATE_DOMAIN, 0),
    U32(SQL_CREATE_SCHEMA, 0),
    U32(SQL_CREATE_TABLE, 0),
    U32(SQL_CREATE_TRANSLATION, 0),
    U32(SQL_CREATE_VIEW, 0),
    U32(SQL_DROP_ASSERTION, 0),
    U32(SQL_DROP_CHARACTER_SET, 0),
    U32(SQL_DROP_COLLATION, 0),
    U32(SQL_DROP_DOMAIN, 0),
    U32(SQL_DROP_SCHEMA, 0),
    U32(SQL_DROP_TABLE, 0),
    U32(SQL_DROP_TRANSLATION, 0),
    U32(SQL_DROP_VIEW, 0),
    U32(SQL_DDL_INDEX, 0),
    U32(SQL_INDEX_KEYWORDS, SQL_IK_NONE),
    U32(SQL_INSERT_STATEMENT, 0),
    U32(SQL_SQL92_GRANT, 0),
    U32(SQL_SQL92_REVOKE, 0),
    U32(SQL_SQL92_FOREIGN_KEY_DELETE_RULE, 0),
    U32(SQL_SQL92_FOREIGN_KEY_UPDATE_RULE, 0),
    U32(SQL_INFO_SCHEMA_VIEWS, 0),
    S(SQL_INTEGRITY, "N"),
    U16(SQL_NON_NULLABLE_COLUMNS, SQL_NNC_NULL),

    /* SQL: the query language, as far as the engine goes */
    U32(SQL_AGGREGATE_FUNCTIONS, ENGINE_AGGREGATE_FUNCTIONS),
    U32(SQL_STRING_FUNCTIONS, ENGINE_STRING_FUNCTIONS),
    U32(SQL_NUMERIC_FUNCTIONS, ENGINE_NUMERIC_FUNCTIONS),
    U32(SQL_TIMEDATE_FUNCTIONS, ENGINE_TIMEDATE_FUNCTIONS),
    U32(SQL_SYSTEM_FUNCTIONS, ENGINE_SYSTEM_FUNCTIONS),
    U32(SQL_TIMEDATE_ADD_INTERVALS, ENGINE_TIMEDATE_ADD_INTERVALS),
    U32(SQL_TIMEDATE_DIFF_INTERVALS, ENGINE_TIMEDATE_DIFF_INTERVALS),
    U32(SQL_SQL92_STRING_FUNCTIONS, ENGINE_SQL92_STRING_FUNCTIONS),
    U32(SQL_SQL92_NUMERIC_VALUE_FUNCTIONS, ENGINE_SQL92_NUMERIC_VALUE_FUNCTIONS),
    U32(SQL_SQL92_DATETIME_FUNCTIONS, ENGINE_SQL92_DATETIME_FUNCTIONS),
    U32(SQL_CONVERT_FUNCTIONS, ENGINE_CONVERT_FUNCTIONS),
    U32(SQL_SQL92_PREDICATES, ENGINE_PREDICATES),
    U32(SQL_SQL92_VALUE_EXPRESSIONS, ENGINE_VALUE_EXPRESSIONS),
    U32(SQL_SQL92_RELATIONAL_JOIN_OPERATORS, ENGINE_JOIN_OPERATORS),
    U32(SQL_SQL92_ROW_VALUE_CONSTRUCTOR, 0),
    U32(SQL_OJ_CAPABILITIES, ENGINE_OJ_CAPABILITIES),
    S(SQL_OUTER_JOINS, ENGINE_OUTER_JOINS),
    U32(SQL_SUBQUERIES, ENGINE_SUBQUERIES),
    U32(SQL_UNION, ENGINE_UNION),
    U16(SQL_GROUP_BY, ENGINE_GROUP_BY),
    U32(SQL_DATETIME_LITERALS, ENGINE_DATETIME_LITERALS),
    U16(SQL_CONCAT_NULL_BEHAVIOR, ENGINE_CONCAT_NULL_BEHAVIOR),
    U16(SQL_NULL_COLLATION, ENGINE_NULL_COLLATION),
    S(SQL_COLLATION_SEQ, ENGINE_COLLATION_SEQ),
    S(SQL_COLUMN_ALIAS, ENGINE_COLUMN_ALIAS),
    U16(SQL_CORRELATION_NAME, ENGINE_CORRELATION_NAME),
    S(SQL_EXPRESSIONS_IN_ORDERBY, ENGINE_EXPRESSIONS_IN_ORDERBY),
    S(SQL_ORDER_BY_COLUMNS_IN_SELECT, ENGINE_ORDER_BY_COLUMNS_IN_SELECT),
    S(SQL_LIKE_ESCAPE_CLAUSE, ENGINE_LIKE_ESCAPE_CLAUSE),
};

/* The SQL_CONVERT_<type> info types. */
static bool is_convert_info(SQLUSMALLINT t)
{
    switch (t) {
    case SQL_CONVERT_BIGINT: case SQL_CONVERT_BINARY: case SQL_CONVERT_BIT:
    case SQL_CONVERT_CHAR: case SQL_CONVERT_DATE: case SQL_CONVERT_DECIMAL:
    case SQL_CONVERT_DOUBLE: case SQL_CONVERT_FLOAT: case SQL_CONVERT_INTEGER:
    case SQL_CONVERT_LONGVARCHAR: case SQL_CONVERT_NUMERIC:
    case SQL_CONVERT_REAL: case SQL_CONVERT_SMALLINT: case SQL_CONVERT_TIME:
    case SQL_CONVERT_TIMESTAMP: case SQL_CONVERT_TINYINT:
    case SQL_CONVERT_VARBINARY: case SQL_CONVERT_VARCHAR:
    case SQL_CONVERT_LONGVARBINARY: case SQL_CONVERT_WCHAR:
    case SQL_CONVERT_WVARCHAR: case SQL_CONVERT_WLONGVARCHAR:
    case SQL_CONVERT_INTERVAL_DAY_TIME: case SQL_CONVERT_INTERVAL_YEAR_MONTH:
    case SQL_CONVERT_GUID:
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------------ */
/* SQLGetFunctions                                                           */
/* ------------------------------------------------------------------------ */

/* Every ODBC function the driver exports, by SQL_API_ id.  The ODBC 2
** functions the driver manager maps onto ODBC 3 ones (SQLAllocEnv,
** SQLError, SQLTransact ...) are not exported and not listed. */
typedef struct function_entry {
    SQLUSMALLINT id;
    const char *name;
} function_entry;

static const function_entry functions[] = {
    {SQL_API_SQLALLOCHANDLE, "SQLAllocHandle"},
    {SQL_API_SQLBINDCOL, "SQLBindCol"},
    {SQL_API_SQLBINDPARAMETER, "SQLBindParameter"},
    {SQL_API_SQLBROWSECONNECT, "SQLBrowseConnect"},
    {SQL_API_SQLCANCEL, "SQLCancel"},
    {SQL_API_SQLCLOSECURSOR, "SQLCloseCursor"},
    {SQL_API_SQLCOLATTRIBUTE, "SQLColAttribute"},
    {SQL_API_SQLCOLUMNPRIVILEGES, "SQLColumnPrivileges"},
    {SQL_API_SQLCOLUMNS, "SQLColumns"},
    {SQL_API_SQLCONNECT, "SQLConnect"},
    {SQL_API_SQLCOPYDESC, "SQLCopyDesc"},
    {SQL_API_SQLDESCRIBECOL, "SQLDescribeCol"},
    {SQL_API_SQLDESCRIBEPARAM, "SQLDescribeParam"},
    {SQL_API_SQLDISCONNECT, "SQLDisconnect"},
    {SQL_API_SQLDRIVERCONNECT, "SQLDriverConnect"},
    {SQL_API_SQLENDTRAN, "SQLEndTran"},
    {SQL_API_SQLEXECDIRECT, "SQLExecDirect"},
    {SQL_API_SQLEXECUTE, "SQLExecute"},
    {SQL_API_SQLEXTENDEDFETCH, "SQLExtendedFetch"},
    {SQL_API_SQLFETCH, "SQLFetch"},
    {SQL_API_SQLFETCHSCROLL, "SQLFetchScroll"},
    {SQL_API_SQLFOREIGNKEYS, "SQLForeignKeys"},
    {SQL_API_SQLFREEHANDLE, "SQLFreeHandle"},
    {SQL_API_SQLFREESTMT, "SQLFreeStmt"},
    {SQL_API_SQLGETCONNECTATTR, "SQLGetConnectAttr"},
    {SQL_API_SQLGETCURSORNAME, "SQLGetCursorName"},
    {SQL_API_SQLGETDATA, "SQLGetData"},
    {SQL_API_SQLGETDESCFIELD, "SQLGetDescField"},
    {SQL_API_SQLGETDESCREC, "SQLGetDescRec"},
    {SQL_API_SQLGETDIAGFIELD, "SQLGetDiagField"},
    {SQL_API_SQLGETDIAGREC, "SQLGetDiagRec"},
    {SQL_API_SQLGETENVATTR, "SQLGetEnvAttr"},
    {SQL_API_SQLGETFUNCTIONS, "SQLGetFunctions"},
    {SQL_API_SQLGETINFO, "SQLGetInfo"},
    {SQL_API_SQLGETSTMTATTR, "SQLGetStmtAttr"},
    {SQL_API_SQLGETTYPEINFO, "SQLGetTypeInfo"},
    {SQL_API_SQLMORERESULTS, "SQLMoreResults"},
    {SQL_API_SQLNATIVESQL, "SQLNativeSql"},
    {SQL_API_SQLNUMPARAMS, "SQLNumParams"},
    {SQL_API_SQLNUMRESULTCOLS, "SQLNumResultCols"},
    {SQL_API_SQLPARAMDATA, "SQLParamData"},
    {SQL_API_SQLPREPARE, "SQLPrepare"},
    {SQL_API_SQLPRIMARYKEYS, "SQLPrimaryKeys"},
    {SQL_API_SQLPROCEDURECOLUMNS, "SQLProcedureColumns"},
    {SQL_API_SQLPROCEDURES, "SQLProcedures"},
    {SQL_API_SQLPUTDATA, "SQLPutData"},
    {SQL_API_SQLROWCOUNT, "SQLRowCount"},
    {SQL_API_SQLSETCONNECTATTR, "SQLSetConnectAttr"},
    {SQL_API_SQLSETCURSORNAME, "SQLSetCursorName"},
    {SQL_API_SQLSETDESCFIELD, "SQLSetDescField"},
    {SQL_API_SQLSETDESCREC, "SQLSetDescRec"},
    {SQL_API_SQLSETENVATTR, "SQLSetEnvAttr"},
    {SQL_API_SQLSETPOS, "SQLSetPos"},
    {SQL_API_SQLSETSTMTATTR, "SQLSetStmtAttr"},
    {SQL_API_SQLSPECIALCOLUMNS, "SQLSpecialColumns"},
    {SQL_API_SQLSTATISTICS, "SQLStatistics"},
    {SQL_API_SQLTABLEPRIVILEGES, "SQLTablePrivileges"},
    {SQL_API_SQLTABLES, "SQLTables"},
};

/* Every SQL_API_ id an application may ask about; others are HY095. */
static bool valid_function_id(SQLUSMALLINT id)
{
    static const SQLUSMALLINT odbc2[] = {
        SQL_API_SQLALLOCCONNECT, SQL_API_SQLALLOCENV, SQL_API_SQLALLOCSTMT,
        SQL_API_SQLCOLATTRIBUTES, SQL_API_SQLERROR, SQL_API_SQLFREECONNECT,
        SQL_API_SQLFREEENV, SQL_API_SQLGETCONNECTOPTION,
        SQL_API_SQLGETSTMTOPTION, SQL_API_SQLPARAMOPTIONS,
        SQL_API_SQLSETCONNECTOPTION, SQL_API_SQLSETPARAM,
        SQL_API_SQLSETSCROLLOPTIONS, SQL_API_SQLSETSTMTOPTION,
        SQL_API_SQLTRANSACT, SQL_API_SQLBULKOPERATIONS,
        SQL_API_SQLDRIVERS, SQL_API_SQLDATASOURCES,
#ifdef SQL_API_SQLCANCELHANDLE
        SQL_API_SQLCANCELHANDLE,
#endif
    };
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        if (functions[i].id == id)
            return true;
    for (size_t i = 0; i < sizeof odbc2 / sizeof *odbc2; i++)
        if (odbc2[i] == id)
            return true;
    return false;
}

static bool function_exists(SQLUSMALLINT id)
{
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        if (functions[i].id == id)
            return true;
    return false;
}

SQLRETURN SQL_API SQLGetFunctions(SQLHDBC ConnectionHandle,
                                  SQLUSMALLINT FunctionId,
                                  SQLUSMALLINT *Supported)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    if (Supported == NULL) {
        lt_diag_post(h, "HY009", 0, "Invalid use of null pointer");
        return lt_leave(h, SQL_ERROR);
    }
    size_t n = sizeof functions / sizeof *functions;
    if (FunctionId == SQL_API_ODBC3_ALL_FUNCTIONS) {
        memset(Supported, 0,
               SQL_API_ODBC3_ALL_FUNCTIONS_SIZE * sizeof *Supported);
        for (size_t i = 0; i < n; i++)
            Supported[functions[i].id >> 4] |=
                (SQLUSMALLINT)(1u << (functions[i].id & 0xF)); /* as SQL_FUNC_EXISTS reads */
        return lt_leave(h, SQL_SUCCESS);
    }
    if (FunctionId == SQL_API_ALL_FUNCTIONS) {
        /* ODBC 2 form: 100 flags, ids below 100 only */
        memset(Supported, 0, 100 * sizeof *Supported);
        for (size_t i = 0; i < n; i++)
            if (functions[i].id < 100)
                Supported[functions[i].id] = SQL_TRUE;
        return lt_leave(h, SQL_SUCCESS);
    }
    if (!valid_function_id(FunctionId)) {
        lt_diag_post(h, "HY095", 0, "Function type out of range: %u",
                     (unsigned)FunctionId);
        return lt_leave(h, SQL_ERROR);
    }
    *Supported = function_exists(FunctionId) ? SQL_TRUE : SQL_FALSE;
    return lt_leave(h, SQL_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* SQLGetInfo                                                                */
/* ------------------------------------------------------------------------ */

/* The file name of this shared object, without its directory. */
static const char *driver_file_name(void)
{
#ifndef _WIN32
    static const char anchor = 0;
    Dl_info dl;
    if (dladdr(&anchor, &dl) != 0 && dl.dli_fname != NULL &&
        dl.dli_fname[0] != '\0') {
        const char *slash = strrchr(dl.dli_fname, '/');
        return slash != NULL ? slash + 1 : dl.dli_fname;
    }
#else
    /* The DLL that holds this function; the name is the same for every
    ** caller, so one static buffer serves them all. */
    static char path[MAX_PATH];
    HMODULE self = NULL;
    if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                           GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)(void *)driver_file_name, &self) &&
        GetModuleFileNameA(self, path, sizeof path) > 0) {
        const char *slash = strrchr(path, '\\');
        return slash != NULL ? slash + 1 : path;
    }
    return "lectorodbc.dll";
#endif
    /* the names CMake gives the two builds */
    return sizeof(SQLWCHAR) == 4 ? "liblectorodbc-iodbc.so" : "liblectorodbc.so";
}

static SQLRETURN put_string(lt_handle *h, const char *s, SQLPOINTER value,
                            SQLSMALLINT buflen, SQLSMALLINT *outlen)
{
    return lt_str_out(h, s != NULL ? s : "", value, buflen, outlen, NULL);
}

static SQLRETURN put_u16(SQLUINTEGER v, SQLPOINTER value, SQLSMALLINT *outlen)
{
    SQLUSMALLINT x = (SQLUSMALLINT)v;
    if (value != NULL)
        memcpy(value, &x, sizeof x);
    if (outlen != NULL)
        *outlen = sizeof x;
    return SQL_SUCCESS;
}

static SQLRETURN put_u32(SQLUINTEGER v, SQLPOINTER value, SQLSMALLINT *outlen)
{
    if (value != NULL)
        memcpy(value, &v, sizeof v);
    if (outlen != NULL)
        *outlen = sizeof v;
    return SQL_SUCCESS;
}

static SQLRETURN put_handle(SQLULEN v, SQLPOINTER value, SQLSMALLINT *outlen)
{
    if (value != NULL)
        memcpy(value, &v, sizeof v);
    if (outlen != NULL)
        *outlen = sizeof v;
    return SQL_SUCCESS;
}

/* Answers that depend on the connection or the build; -1 when `type` is
** not one of them. */
static int info_dynamic(lt_dbc *dbc, SQLUSMALLINT type, SQLPOINTER value,
                        SQLSMALLINT buflen, SQLSMALLINT *outlen, SQLRETURN *rc)
{
    switch (type) {
    case SQL_DRIVER_NAME:
        *rc = put_string(&dbc->h, driver_file_name(), value, buflen, outlen);
        return 0;
    case SQL_DATA_SOURCE_NAME:
        *rc = put_string(&dbc->h, dbc->dsn, value, buflen, outlen);
        return 0;
    case SQL_DATABASE_NAME:
        *rc = put_string(&dbc->h, dbc->database, value, buflen, outlen);
        return 0;
    case SQL_DESCRIBE_PARAMETER:
        *rc = put_string(&dbc->h,
                         function_exists(SQL_API_SQLDESCRIBEPARAM) ? "Y" : "N",
                         value, buflen, outlen);
        return 0;
    case SQL_DRIVER_HENV:
        *rc = put_handle((SQLULEN)(uintptr_t)dbc->env, value, outlen);
        return 0;
    case SQL_DRIVER_HDBC:
        *rc = put_handle((SQLULEN)(uintptr_t)dbc, value, outlen);
        return 0;
    case SQL_DRIVER_HSTMT:
    case SQL_DRIVER_HDESC:
        /* *value holds the handle already: the driver manager passes ours */
        if (outlen != NULL)
            *outlen = sizeof(SQLULEN);
        *rc = SQL_SUCCESS;
        return 0;
    default:
        if (is_convert_info(type)) {
            *rc = put_u32(convert_targets(type), value, outlen);
            return 0;
        }
        return -1;
    }
}

SQLRETURN SQL_API SQLGetInfo(SQLHDBC ConnectionHandle, SQLUSMALLINT InfoType,
                             SQLPOINTER InfoValue, SQLSMALLINT BufferLength,
                             SQLSMALLINT *StringLength)
{
    lt_handle *h = lt_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    lt_dbc *dbc = (lt_dbc *)h;
    SQLRETURN rc;
    if (info_dynamic(dbc, InfoType, InfoValue, BufferLength, StringLength,
                     &rc) == 0)
        return lt_leave(h, rc);
    for (size_t i = 0; i < sizeof info_table / sizeof *info_table; i++) {
        const info_entry *e = &info_table[i];
        if (e->type != InfoType)
            continue;
        switch (e->kind) {
        case I_STR:
            rc = put_string(h, e->str, InfoValue, BufferLength, StringLength);
            break;
        case I_U16:
            rc = put_u16(e->num, InfoValue, StringLength);
            break;
        default:
            rc = put_u32(e->num, InfoValue, StringLength);
            break;
        }
        return lt_leave(h, rc);
    }
    lt_diag_post(h, "HY096", 0, "Information type out of range: %u",
                 (unsigned)InfoType);
    return lt_leave(h, SQL_ERROR);
}
