// The settings page's form (POST /settings), applied like the JSON API: all or nothing.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "tr_settings.h"

/**
 * Applies an urlencoded form of settings. The wizard's own fields (mode, Wi-Fi) are refused
 * here (read_only: the wizard changes them). On any error `s` is unchanged.
 */
bool tr_settings_apply_form(tr_settings_t *s, const char *body, size_t len,
                            tr_settings_error_t *err);
