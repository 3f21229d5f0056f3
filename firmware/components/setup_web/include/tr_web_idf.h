// The device's web server on ESP-IDF: the wizard on the setup access point (with captive-portal
// redirects), or the status page and the JSON API of a set-up device (settings sync with the
// router, status, firmware updates).
#pragma once

#include <stdbool.h>

#include "esp_err.h"
#include "tr_settings.h"
#include "tr_status.h"

typedef struct {
    bool setup;                       // serve the wizard (setup access point)
    tr_settings_t *settings;          // the current settings, owned by the caller
    const char *hostname;
    void (*status)(tr_status_t *out); // the live status
    /** After a change was saved (`*settings` is already the new one). */
    void (*changed)(const tr_settings_t *before);
} tr_web_config_t;

esp_err_t tr_web_start(const tr_web_config_t *config);
