// Helpers shared by the host tests: cmocka's prerequisites, files from testdata/, the golden
// packet table, and a deterministic random generator for simulations and fuzzing.
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>

/** Reads testdata/<relative> into a malloc'd buffer (fails the test if it cannot). */
uint8_t *tr_test_read(const char *relative, size_t *len);

/** One row of testdata/packets/expected.tsv. */
typedef struct {
    char file[96];
    char kind[16];
    char verdict[16];
    char fields[512]; // "key=value key=value"
} tr_golden_row_t;

/** Reads every row of the golden table; returns the count (fails the test on none). */
size_t tr_golden_rows(tr_golden_row_t *rows, size_t max);

/** The value of `key` in a row's fields, or NULL. */
const char *tr_golden_field(const tr_golden_row_t *row, const char *key, char *buf, size_t cap);

/** The integer value of `key` (fails the test if missing). */
long long tr_golden_int(const tr_golden_row_t *row, const char *key);

/** xorshift64*: deterministic, so every run of a simulation sees the same network. */
typedef struct {
    uint64_t state;
} tr_rng_t;

uint32_t tr_rng_next(tr_rng_t *rng);
/** Uniform in [0, 1). */
double tr_rng_unit(tr_rng_t *rng);
/** Standard normal (Box-Muller). */
double tr_rng_normal(tr_rng_t *rng);
