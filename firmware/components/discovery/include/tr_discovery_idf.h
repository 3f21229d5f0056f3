// mDNS on ESP-IDF (espressif/mdns): the device's .local host name, its _tributary-sink or
// _tributary-source service with the TXT fields of tr_mdns_txt.h, and its web page as _http.
#pragma once

#include "esp_err.h"
#include "tr_settings.h"

/** Starts advertising (call once the station has an address). */
esp_err_t tr_discovery_start(const tr_settings_t *s, const char *ip, const char *version);

/** Refreshes the TXT record after a settings change or a new address. */
esp_err_t tr_discovery_update(const tr_settings_t *s, const char *ip, const char *version);
