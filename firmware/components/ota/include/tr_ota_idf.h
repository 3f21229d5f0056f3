// Firmware updates on ESP-IDF: an image uploaded to the device (the router, or the settings
// page) or fetched from a URL, written to the other OTA slot, then booted. A new image that
// does not reach a working network is rolled back by the bootloader.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "esp_err.h"

typedef struct tr_ota_upload tr_ota_upload_t;

/** Starts an upload; NULL if one is already running. */
tr_ota_upload_t *tr_ota_upload_begin(void);

/** Writes the next piece; a message for the user on failure (the upload is then over). */
const char *tr_ota_upload_write(tr_ota_upload_t *u, const uint8_t *data, size_t len);

/** Finishes: verifies the image and makes it the next boot. NULL on success. */
const char *tr_ota_upload_end(tr_ota_upload_t *u);

/** Gives up (the connection closed early). */
void tr_ota_upload_abort(tr_ota_upload_t *u);

/** Fetches and installs the image at `url` in the background; a message if it cannot start. */
const char *tr_ota_from_url(const char *url);

/** The state of the last or current update ("" when none). */
const char *tr_ota_state(void);

/** Marks the running image good (after the network and the mode are up). */
void tr_ota_confirm(void);
