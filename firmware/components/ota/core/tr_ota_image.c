#include "tr_ota_image.h"

#include <stdio.h>
#include <string.h>

#define IMAGE_MAGIC 0xE9
#define CHIP_ID_ESP32S3 9
#define APP_DESC_MAGIC 0xABCD5432u
// Image header (8) + extended header (16), first segment header (8), then esp_app_desc_t.
#define APP_DESC_AT 32

static void copy_field(char *out, const uint8_t *from, size_t size)
{
    size_t n = 0;
    while (n < size && from[n] != 0) {
        n++;
    }
    memcpy(out, from, n);
    out[n] = '\0';
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e) {
            out[i] = '?';
        }
    }
}

const char *tr_ota_check_image(const uint8_t *head, size_t len, tr_ota_app_t *app)
{
    if (len < TR_OTA_HEAD_BYTES) {
        return "the file is too short to be a firmware image";
    }
    if (head[0] != IMAGE_MAGIC || head[1] == 0 || head[1] > 16) {
        return "not an ESP32 app image (esp32-rtp.bin from a release)";
    }
    uint16_t chip = (uint16_t)(head[12] | head[13] << 8);
    if (chip != CHIP_ID_ESP32S3) {
        return "built for another chip than the ESP32-S3";
    }
    const uint8_t *d = head + APP_DESC_AT;
    uint32_t magic = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                     (uint32_t)d[3] << 24;
    if (magic != APP_DESC_MAGIC) {
        return "not an app image (a bootloader or a partition table?)";
    }
    tr_ota_app_t local;
    app = app ? app : &local;
    copy_field(app->version, d + 16, 32);
    copy_field(app->project, d + 48, 32);
    copy_field(app->idf_version, d + 112, 32);
    if (strcmp(app->project, TR_OTA_PROJECT) != 0) {
        return "not the Tributary firmware (its project name is not esp32-rtp)";
    }
    return NULL;
}

const char *tr_ota_check_url(const char *url)
{
    size_t n = strlen(url);
    const char *host;
    if (n > 255) {
        return "the URL is longer than 255 characters";
    }
    if (!strncmp(url, "http://", 7)) {
        host = url + 7;
    } else if (!strncmp(url, "https://", 8)) {
        host = url + 8;
    } else {
        return "the URL must start with http:// or https://";
    }
    if (*host == '\0' || *host == '/' || *host == ':') {
        return "the URL has no host";
    }
    for (const char *c = url; *c; c++) {
        if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f) {
            return "the URL contains spaces or characters that must be encoded";
        }
    }
    return NULL;
}
