/*
** func_string.c — the string functions (func.h).
*/
#include "func.h"

/* Filled in as the functions land; the sentinel keeps the array valid C. */
const sql_func sql_funcs_string[] = {{"", 0, 0, SQL_AGG_NONE, {0}, 0, 0, NULL}};
const uint32_t sql_funcs_string_count = 0;
