// Bounded text building without allocation: every writer (SDP, settings, JSON, HTML pages) appends
// into a caller's buffer and learns at the end whether everything fitted.
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;
    size_t cap;
    size_t len;
    bool overflow; // something did not fit; `data` is still NUL-terminated
} tr_text_t;

void tr_text_init(tr_text_t *t, char *buffer, size_t cap);

/** Appends `len` bytes. */
void tr_text_put(tr_text_t *t, const char *s, size_t len);

/** Appends a NUL-terminated string. */
void tr_text_str(tr_text_t *t, const char *s);

/** Appends printf-style. */
void tr_text_fmt(tr_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Appends `s` with & < > " ' replaced by entities (for HTML text and attribute values). */
void tr_text_html(tr_text_t *t, const char *s);

/** Appends `s` as a JSON string literal, quotes included. */
void tr_text_json(tr_text_t *t, const char *s);

/** Length written, or 0 if anything overflowed (callers treat 0 as "did not fit"). */
size_t tr_text_done(const tr_text_t *t);
