// The device's web pages as HTML: the wizard's steps (served on the ESP32-RTP access point, no
// JavaScript needed, so captive-portal browsers work) and the status and settings page of a
// set-up device. Everything shown that came from outside (scanned network names, settings) is
// escaped.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_settings.h"
#include "tr_status.h"
#include "tr_wizard.h"

typedef struct {
    char ssid[33];
    int8_t rssi;  // dBm
    bool secure;
} tr_scan_entry_t;


/** The page for the wizard's current step (`hostname` is named on the last page). */
size_t tr_page_wizard(const tr_wizard_t *w, const tr_scan_entry_t *scan, size_t scan_count,
                      const char *hostname, char *out, size_t cap);

/** The status and settings page of a set-up device; `error` (or NULL) from the last save. */
size_t tr_page_status(const tr_settings_t *s, const tr_status_t *st,
                      const tr_settings_error_t *error, char *out, size_t cap);

/** The same status as JSON (GET /api/status). */
size_t tr_status_json(const tr_settings_t *s, const tr_status_t *st, char *out, size_t cap);

/** The JSON body of a 4xx answer: {"error": {"field", "rule", "message"}}. */
size_t tr_error_json(const tr_settings_error_t *e, char *out, size_t cap);
