/*
 * fuzz_target.c - the libFuzzer entry of every fuzz target.
 *
 * Built once per target by CMake with -DSB_FUZZ=ON (scripts/fuzz does
 * it): SB_FUZZ_HEADER names the target's checker, fuzz/NAME_check.h, and
 * SB_FUZZ_ONE its function sb_fuzz_NAME_one, which runs one case and
 * returns 0, or the number of the promise the code under test broke.  A
 * broken promise aborts, so the fuzzer keeps the input that broke it;
 * AddressSanitizer and UndefinedBehaviorSanitizer catch the rest.  An
 * input found this way belongs in tests/data/NAME-regress/, which ctest
 * replays (fuzz/replay.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include SB_FUZZ_HEADER

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (SB_FUZZ_ONE(data, size) != 0)
        abort();
    return 0;
}
