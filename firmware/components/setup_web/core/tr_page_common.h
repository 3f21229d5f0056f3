// Shared pieces of the setup pages (not part of the component's interface).
#pragma once

#include "tr_settings.h"
#include "tr_text.h"

/** <!doctype html>, head with the style sheet, and the opening of <main>. */
void tr_page_open(tr_text_t *t, const char *title);

/** Closes <main> and the document. */
void tr_page_close(tr_text_t *t);

/**
 * A labelled input; marked invalid (with the message) when `error` names it. `attrs` (trusted
 * markup, or NULL) is added to the element.
 */
void tr_page_input(tr_text_t *t, const char *label, const char *name, const char *type,
                   const char *value, const char *hint, const char *attrs,
                   const tr_settings_error_t *error);

/** An error banner for `error` (nothing if NULL or empty). */
void tr_page_error(tr_text_t *t, const tr_settings_error_t *error);
