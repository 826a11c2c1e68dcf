/*
** fuzz_xlsb.c — libFuzzer target for the .xlsb reader.
**
** Input: the bytes of a file (a ZIP package), so the corpus workbooks are seeds as
** they are.  The harness is fuzz_workbook.h's (a sheet can be 1,048,576 x 16,384
** cells of nothing here).
*/
#include <stdint.h>

#include "fuzz_workbook.h"
#include "xlsb/xlsb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_workbook(data, size, lt_xlsb_open_memory, "fuzz.xlsb");
}
