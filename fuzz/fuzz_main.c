/*
 * libFuzzer entry points for one target, chosen at compile time with
 * -DFUZZ_TARGET=catalog (scenario, theme, prices).  A target's check that
 * fails aborts, so libFuzzer saves the input as a crash.
 */
#include "fuzz.h"

#include <stdlib.h>

#define CAT2(a, b, c) a##b##c
#define CAT(a, b, c) CAT2(a, b, c)
#define INIT CAT(fuzz_, FUZZ_TARGET, _init)
#define ONE CAT(fuzz_, FUZZ_TARGET, _one)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (INIT())
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ONE(data, size))
		abort();
	return 0;
}
