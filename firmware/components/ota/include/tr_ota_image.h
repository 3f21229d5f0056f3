// Checks on a firmware image before it is written to the other OTA slot: an ESP32-S3 app image
// of this firmware (project "esp32-rtp"), not a bootloader, another chip's build or a random
// file. ESP-IDF verifies the checksum and SHA-256 after writing; this refuses early and says why.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The project name of this firmware's images (esp_app_desc_t.project_name). */
#define TR_OTA_PROJECT "esp32-rtp"

/** Bytes needed to check an image: header, first segment header and the app description. */
#define TR_OTA_HEAD_BYTES 288

typedef struct {
    char project[33];
    char version[33];
    char idf_version[33];
} tr_ota_app_t;

/**
 * Reads the start of an image (at least TR_OTA_HEAD_BYTES). Returns NULL if it is an ESP32-S3
 * app of this firmware, else a message ("not an ESP32 app image", "built for another chip",
 * "not the Tributary firmware (project x)") for the user.
 */
const char *tr_ota_check_image(const uint8_t *head, size_t len, tr_ota_app_t *app);

/** An http:// or https:// URL with a host, no spaces or control characters, at most 255 bytes. */
const char *tr_ota_check_url(const char *url);
