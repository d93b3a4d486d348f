/*
 * fuzz_input.c - libFuzzer target for the deck reader (src/input.c).
 *
 * Built and run by scripts/fuzz.  Every case goes through
 * sb_fuzz_input_one (fuzz/input_check.h), which reads the input to its end
 * and checks each sample it returns; a broken promise aborts, so the
 * fuzzer keeps the input that broke it.  AddressSanitizer and
 * UndefinedBehaviorSanitizer catch the rest.  An input found this way
 * belongs in tests/data/input-regress/, where tests/test_input.c replays
 * it on every test run.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/input_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (sb_fuzz_input_one(data, size) != SB_FUZZ_OK)
        abort();
    return 0;
}
