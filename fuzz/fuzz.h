/*
 * fuzz: libFuzzer targets for every input accelsizer reads from a file: the
 * catalog folder, scenario files, theme files, price lists, the catalog's
 * published results and a model's config.json (--model-config).
 *
 * Each target is a pair of functions, fuzz_NAME_init() and fuzz_NAME_one(),
 * so the same code runs in two places:
 *   - under libFuzzer (clang, make fuzz), where fuzz_main.c wraps them in
 *     LLVMFuzzerInitialize / LLVMFuzzerTestOneInput and turns a non-zero
 *     return into an abort, which libFuzzer saves as a crash;
 *   - in tests/unit/test_regress.c (gcc, make check), which replays every
 *     saved crash in tests/fixtures/regress/NAME/ and every seed in
 *     fuzz/corpus/NAME/ through the very same entry point.
 *
 * fuzz_NAME_one() returns 0 when the input was either accepted with sane
 * contents or refused with a clean message; otherwise it prints what is
 * wrong to stderr and returns 1.  Memory errors and undefined behaviour are
 * for the sanitizers to catch.
 */
#ifndef ACCELSIZER_FUZZ_H
#define ACCELSIZER_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int fuzz_catalog_init(void);
int fuzz_catalog_one(const uint8_t *data, size_t size);
int fuzz_scenario_init(void);
int fuzz_scenario_one(const uint8_t *data, size_t size);
int fuzz_theme_init(void);
int fuzz_theme_one(const uint8_t *data, size_t size);
int fuzz_prices_init(void);
int fuzz_prices_one(const uint8_t *data, size_t size);
int fuzz_ledger_init(void);
int fuzz_ledger_one(const uint8_t *data, size_t size);
int fuzz_hfconfig_init(void);
int fuzz_hfconfig_one(const uint8_t *data, size_t size);
/* Not files but what reads them: the catalog cache image, mutated field by
 * field behind a recomputed checksum, and the number parsers. */
int fuzz_cache_init(void);
int fuzz_cache_one(const uint8_t *data, size_t size);
int fuzz_number_init(void);
int fuzz_number_one(const uint8_t *data, size_t size);

/* Kinds of catalog file the first byte of a catalog input selects. */
enum { FUZZ_CAT_ACCEL, FUZZ_CAT_PLATFORM, FUZZ_CAT_FABRIC, FUZZ_CAT_MODEL, FUZZ_CAT_DEFAULTS,
       FUZZ_CAT_KINDS };

/*
 * A clean error message: non-empty, starting with prefix (the file the user
 * gave), one line, no control characters that a terminal would act on (a
 * value quoted back from a hostile file must not clear the screen), valid
 * UTF-8.  Prints the problem and returns false otherwise.
 */
bool fuzz_clean_message(const char *what, const char *msg, const char *prefix);

/* Is s valid UTF-8 without control characters? */
bool fuzz_printable_utf8(const char *s);

/* The whole of a file, malloc'd (the caller frees), or NULL. */
uint8_t *fuzz_slurp(const char *path, size_t *len);

#endif
