// The settings in flash (NVS, ESP-IDF only). Every save is checked to load again first; a saved
// copy that does not load is kept aside ("settings.bad") and the defaults are used. The device's
// config_id lives apart and survives a factory reset.
#pragma once

#include <stdbool.h>

#include "esp_err.h"
#include "tr_settings.h"

esp_err_t tr_store_init(void);

/**
 * Defaults, the identity (created on first boot), then the saved settings over them. Returns
 * true if saved settings were loaded; false for a fresh or reset device, or damaged settings
 * (`err` then says what was wrong).
 */
bool tr_store_load(tr_settings_t *s, tr_settings_error_t *err);

/** Saves `s` if it would load again; ESP_ERR_INVALID_ARG otherwise. */
esp_err_t tr_store_save(const tr_settings_t *s);

/** Forgets the settings (not the identity). */
esp_err_t tr_store_factory_reset(void);

/** The wizard on the next boot (asked for from the device's page), read once. */
esp_err_t tr_store_request_setup(void);
bool tr_store_take_setup_request(void);
