/*
** func_numeric.c — the numeric functions (func.h).
*/
#include "func.h"

/* Filled in as the functions land; the sentinel keeps the array valid C. */
const sql_func sql_funcs_numeric[] = {{"", 0, 0, SQL_AGG_NONE, {0}, 0, 0, NULL}};
const uint32_t sql_funcs_numeric_count = 0;
