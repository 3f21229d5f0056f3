// Helpers shared by the settings code (not part of its interface).
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tr_settings.h"

/** Fills `err` and returns false. */
bool tr_field_error(tr_settings_error_t *err, const char *field, const char *rule,
                    const char *message);

/** Strict decimal (digits only, at most `max`). */
bool tr_parse_uint(const char *v, uint32_t max, uint32_t *out);

/** true/on/1 or false/off/0. */
bool tr_parse_bool(const char *v, bool *out);

/** Sets name, wifi_ssid, wifi_password or target: 1 done, 0 invalid (err set), -1 other key. */
int tr_set_text_field(tr_settings_t *s, const char *key, const char *v, tr_settings_error_t *err);

/** Sets any field; `trusted` (the saved file) may also set config_id and revision. */
bool tr_settings_set_field(tr_settings_t *s, const char *key, const char *value, bool trusted,
                           tr_settings_error_t *err);

/** A lower-case RFC 4122 UUID in text form. */
bool tr_uuid_text(const char *v);
