// A reader for flat JSON objects ({"key": value, ...} with string, number, boolean or null
// values): what the settings API accepts. Nested objects and arrays are refused with a message;
// nothing is allocated.
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    TR_JSON_STRING,
    TR_JSON_NUMBER,
    TR_JSON_BOOL,
    TR_JSON_NULL,
} tr_json_type_t;

/** Longest key and (decoded) string value accepted. */
#define TR_JSON_KEY_MAX 32
#define TR_JSON_VALUE_MAX 256

/**
 * Called for each member with its key and value as text (strings decoded, numbers and
 * booleans as written). Returning false stops the parse (the caller keeps its own error).
 */
typedef bool (*tr_json_member_fn)(void *ctx, const char *key, tr_json_type_t type,
                                  const char *value, size_t len);

/**
 * Parses `text` as one flat object. Returns NULL on success, else a message such as
 * "expected ':' after a key" with the byte offset in `*at`; "stopped" if `fn` returned false.
 */
const char *tr_json_parse_object(const char *text, size_t len, tr_json_member_fn fn, void *ctx,
                                 size_t *at);
