// application/x-www-form-urlencoded bodies (what the setup pages post): decoded pair by pair.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define TR_FORM_KEY_MAX 32
#define TR_FORM_VALUE_MAX 128

/** Called per pair with the decoded key and value; returning false stops. */
typedef bool (*tr_form_pair_fn)(void *ctx, const char *key, const char *value);

/**
 * Decodes `body` ('+' is a space, %XX a byte). Returns false on a malformed escape, a NUL byte,
 * a key or value too long, or when `fn` stops; `*problem` then says which.
 */
bool tr_form_parse(const char *body, size_t len, tr_form_pair_fn fn, void *ctx,
                   const char **problem);
