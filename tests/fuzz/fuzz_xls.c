/*
** fuzz_xls.c — libFuzzer target for the .xls reader.
**
** Input: the bytes of a file (a compound file or a bare BIFF stream), so the corpus workbooks are seeds as
** they are.  The harness is fuzz_workbook.h's (a sheet can be 65,536 x 65,536
** cells of nothing here).
*/
#include <stdint.h>

#include "fuzz_workbook.h"
#include "xls/xls.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_workbook(data, size, lt_xls_open_memory, "fuzz.xls");
}
