#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esp_crt_bundle.h"
#include "esp_http_client.h"
#include "esp_https_ota.h"
#include "esp_log.h"
#include "esp_ota_ops.h"
#include "esp_system.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "tr_ota_idf.h"
#include "tr_ota_image.h"

static const char *TAG = "ota";

struct tr_ota_upload {
    const esp_partition_t *slot;
    esp_ota_handle_t handle;
    uint8_t head[TR_OTA_HEAD_BYTES];
    size_t head_len;
    bool started;
    size_t written;
};

static tr_ota_upload_t s_upload;
static volatile bool s_busy;
static char s_state[128] = "";
static char s_url[256];

static void set_state(const char *text)
{
    snprintf(s_state, sizeof s_state, "%s", text);
    ESP_LOGI(TAG, "%s", text);
}

tr_ota_upload_t *tr_ota_upload_begin(void)
{
    if (s_busy) {
        return NULL;
    }
    s_busy = true;
    memset(&s_upload, 0, sizeof s_upload);
    s_upload.slot = esp_ota_get_next_update_partition(NULL);
    set_state("receiving an uploaded image");
    return &s_upload;
}

static const char *fail(tr_ota_upload_t *u, const char *why)
{
    if (u->started) {
        esp_ota_abort(u->handle);
    }
    snprintf(s_state, sizeof s_state, "update refused: %s", why);
    ESP_LOGW(TAG, "%s", s_state);
    s_busy = false;
    return why;
}

const char *tr_ota_upload_write(tr_ota_upload_t *u, const uint8_t *data, size_t len)
{
    if (u->slot == NULL) {
        return fail(u, "no OTA slot in the partition table");
    }
    if (!u->started) {
        // Hold the first bytes until the image can be checked.
        size_t take = len < sizeof u->head - u->head_len ? len : sizeof u->head - u->head_len;
        memcpy(u->head + u->head_len, data, take);
        u->head_len += take;
        data += take;
        len -= take;
        if (u->head_len < sizeof u->head) {
            return NULL;
        }
        tr_ota_app_t app;
        const char *why = tr_ota_check_image(u->head, u->head_len, &app);
        if (why) {
            return fail(u, why);
        }
        if (esp_ota_begin(u->slot, OTA_WITH_SEQUENTIAL_WRITES, &u->handle) != ESP_OK) {
            return fail(u, "cannot prepare the update slot");
        }
        u->started = true;
        if (esp_ota_write(u->handle, u->head, u->head_len) != ESP_OK) {
            return fail(u, "writing the image failed");
        }
        u->written = u->head_len;
        snprintf(s_state, sizeof s_state, "writing version %s", app.version);
    }
    if (len > 0 && esp_ota_write(u->handle, data, len) != ESP_OK) {
        return fail(u, "writing the image failed");
    }
    u->written += len;
    return NULL;
}

const char *tr_ota_upload_end(tr_ota_upload_t *u)
{
    if (!u->started) {
        return fail(u, "the file is too short to be a firmware image");
    }
    esp_err_t err = esp_ota_end(u->handle);
    u->started = false;
    if (err != ESP_OK) {
        return fail(u, err == ESP_ERR_OTA_VALIDATE_FAILED ? "the image is damaged (checksum)"
                                                          : "the image could not be finished");
    }
    if (esp_ota_set_boot_partition(u->slot) != ESP_OK) {
        return fail(u, "cannot select the new image");
    }
    set_state("update installed: restarting");
    s_busy = false;
    return NULL;
}

void tr_ota_upload_abort(tr_ota_upload_t *u)
{
    fail(u, "the upload stopped before the end");
}

static void url_task(void *arg)
{
    (void)arg;
    esp_http_client_config_t http = {
        .url = s_url,
        .timeout_ms = 15000,
        .keep_alive_enable = true,
        .crt_bundle_attach = esp_crt_bundle_attach,
    };
    esp_https_ota_config_t config = {.http_config = &http};
    esp_https_ota_handle_t handle = NULL;
    esp_err_t err = esp_https_ota_begin(&config, &handle);
    esp_app_desc_t desc;
    if (err == ESP_OK && esp_https_ota_get_img_desc(handle, &desc) == ESP_OK &&
        strcmp(desc.project_name, TR_OTA_PROJECT) != 0) {
        esp_https_ota_abort(handle);
        set_state("update refused: not the Tributary firmware (project is not esp32-rtp)");
        s_busy = false;
        vTaskDelete(NULL);
        return;
    }
    while (err == ESP_OK) {
        err = esp_https_ota_perform(handle);
        if (err != ESP_ERR_HTTPS_OTA_IN_PROGRESS) {
            break;
        }
        err = ESP_OK;
    }
    if (err == ESP_OK && esp_https_ota_is_complete_data_received(handle)) {
        err = esp_https_ota_finish(handle);
        handle = NULL;
    } else if (handle) {
        esp_https_ota_abort(handle);
    }
    if (err == ESP_OK) {
        set_state("update installed: restarting");
        vTaskDelay(pdMS_TO_TICKS(1000));
        esp_restart();
    }
    snprintf(s_state, sizeof s_state, "update from %s failed: %s", s_url, esp_err_to_name(err));
    ESP_LOGW(TAG, "%s", s_state);
    s_busy = false;
    vTaskDelete(NULL);
}

const char *tr_ota_from_url(const char *url)
{
    const char *why = tr_ota_check_url(url);
    if (why) {
        return why;
    }
    if (s_busy) {
        return "an update is already running";
    }
    s_busy = true;
    snprintf(s_url, sizeof s_url, "%s", url);
    set_state("downloading the update");
    if (xTaskCreate(url_task, "ota_url", 8192, NULL, 5, NULL) != pdPASS) {
        s_busy = false;
        return "out of memory";
    }
    return NULL;
}

const char *tr_ota_state(void)
{
    return s_state;
}

void tr_ota_confirm(void)
{
    esp_ota_img_states_t state;
    const esp_partition_t *running = esp_ota_get_running_partition();
    if (esp_ota_get_state_partition(running, &state) == ESP_OK &&
        state == ESP_OTA_IMG_PENDING_VERIFY) {
        esp_ota_mark_app_valid_cancel_rollback();
        ESP_LOGI(TAG, "this image works: rollback cancelled");
    }
}
