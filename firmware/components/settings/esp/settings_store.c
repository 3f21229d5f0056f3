#include <stdlib.h>
#include <string.h>

#include "esp_log.h"
#include "esp_random.h"
#include "nvs.h"
#include "nvs_flash.h"
#include "tr_settings_store_idf.h"

static const char *TAG = "settings";
static const char *NS_SETTINGS = "tr_settings";
static const char *NS_IDENTITY = "tr_identity";

#define TEXT_MAX 1024

esp_err_t tr_store_init(void)
{
    esp_err_t err = nvs_flash_init();
    if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
        ESP_LOGW(TAG, "NVS partition was full or from a newer layout: erased");
        if ((err = nvs_flash_erase()) == ESP_OK) {
            err = nvs_flash_init();
        }
    }
    return err;
}

static void identity(tr_settings_t *s)
{
    nvs_handle_t h;
    if (nvs_open(NS_IDENTITY, NVS_READWRITE, &h) != ESP_OK) {
        return;
    }
    char saved[40] = "";
    size_t len = sizeof saved;
    if (nvs_get_str(h, "config_id", saved, &len) != ESP_OK ||
        !tr_settings_restore_identity(s, saved)) {
        uint8_t uuid[16];
        esp_fill_random(uuid, sizeof uuid);
        tr_settings_assign_identity(s, uuid);
        nvs_set_str(h, "config_id", s->config_id);
        nvs_commit(h);
        ESP_LOGI(TAG, "new config_id %s", s->config_id);
    }
    nvs_close(h);
}

bool tr_store_load(tr_settings_t *s, tr_settings_error_t *err)
{
    tr_settings_defaults(s);
    identity(s);
    nvs_handle_t h;
    if (nvs_open(NS_SETTINGS, NVS_READWRITE, &h) != ESP_OK) {
        return false;
    }
    char *text = malloc(TEXT_MAX);
    size_t len = TEXT_MAX;
    bool loaded = false;
    if (text && nvs_get_str(h, "settings", text, &len) == ESP_OK) {
        tr_settings_t saved = *s;
        if (tr_settings_deserialize(text, strlen(text), &saved, err)) {
            memcpy(saved.config_id, s->config_id, sizeof saved.config_id);
            *s = saved;
            loaded = true;
        } else {
            ESP_LOGE(TAG, "saved settings do not load (%s: %s); kept aside as settings.bad",
                     err->field, err->message);
            nvs_set_str(h, "settings.bad", text);
            nvs_erase_key(h, "settings");
            nvs_commit(h);
        }
    }
    free(text);
    nvs_close(h);
    return loaded;
}

esp_err_t tr_store_save(const tr_settings_t *s)
{
    char *text = malloc(TEXT_MAX);
    if (text == NULL) {
        return ESP_ERR_NO_MEM;
    }
    size_t len = tr_settings_serialize(s, text, TEXT_MAX);
    tr_settings_t check;
    tr_settings_error_t err;
    esp_err_t result = ESP_ERR_INVALID_ARG;
    if (len > 0 && tr_settings_deserialize(text, len, &check, &err)) {
        nvs_handle_t h;
        result = nvs_open(NS_SETTINGS, NVS_READWRITE, &h);
        if (result == ESP_OK) {
            result = nvs_set_str(h, "settings", text); // NVS replaces a key atomically
            if (result == ESP_OK) {
                result = nvs_commit(h);
            }
            nvs_close(h);
        }
    } else {
        ESP_LOGE(TAG, "refusing to save settings that would not load again");
    }
    free(text);
    return result;
}

esp_err_t tr_store_factory_reset(void)
{
    nvs_handle_t h;
    esp_err_t err = nvs_open(NS_SETTINGS, NVS_READWRITE, &h);
    if (err == ESP_OK) {
        err = nvs_erase_all(h);
        if (err == ESP_OK) {
            err = nvs_commit(h);
        }
        nvs_close(h);
    }
    return err;
}

esp_err_t tr_store_request_setup(void)
{
    nvs_handle_t h;
    esp_err_t err = nvs_open(NS_SETTINGS, NVS_READWRITE, &h);
    if (err == ESP_OK) {
        err = nvs_set_u8(h, "setup", 1);
        if (err == ESP_OK) {
            err = nvs_commit(h);
        }
        nvs_close(h);
    }
    return err;
}

bool tr_store_take_setup_request(void)
{
    nvs_handle_t h;
    uint8_t flag = 0;
    if (nvs_open(NS_SETTINGS, NVS_READWRITE, &h) != ESP_OK) {
        return false;
    }
    if (nvs_get_u8(h, "setup", &flag) == ESP_OK) {
        nvs_erase_key(h, "setup");
        nvs_commit(h);
    }
    nvs_close(h);
    return flag == 1;
}
