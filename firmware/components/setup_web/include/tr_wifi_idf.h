// Wi-Fi on ESP-IDF: the ESP32-RTP setup access point, the station that joins the saved network,
// scanning for the wizard, and the events the provisioning logic (tr_provision.h) acts on.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "esp_err.h"
#include "tr_setup_pages.h"

typedef enum {
    TR_WIFI_GOT_IP,
    TR_WIFI_DISCONNECTED,
} tr_wifi_event_t;

typedef void (*tr_wifi_event_fn)(tr_wifi_event_t event);

esp_err_t tr_wifi_init(tr_wifi_event_fn on_event);

/** The setup access point (with the station side idle, so the wizard can scan). */
esp_err_t tr_wifi_start_setup_ap(void);

/** Joins `ssid` (WPA2 or open) as `hostname`; events report the outcome. */
esp_err_t tr_wifi_start_station(const char *ssid, const char *password, const char *hostname);

/** Connects again after a disconnect. */
void tr_wifi_reconnect(void);

/** The setup access point beside the station (fallback), or not. */
void tr_wifi_fallback_ap(bool on);

/** Networks in range, strongest first (blocks for about two seconds). */
size_t tr_wifi_scan(tr_scan_entry_t *out, size_t max);

/** The station's address ("" if none) and signal (0 if not connected). */
void tr_wifi_station(char ip[16], int8_t *rssi);
