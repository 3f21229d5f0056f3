// Boot: settings, the factory-reset button, then either the setup wizard on the ESP32-RTP access
// point or the chosen mode on the saved network (with the setup access point back if that
// network stays out of reach).
#include <stdio.h>
#include <string.h>

#include "driver/gpio.h"
#include "esp_app_desc.h"
#include "esp_log.h"
#include "esp_system.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"
#include "modes.h"
#include "sdkconfig.h"
#include "tr_captive_dns_idf.h"
#include "tr_discovery_idf.h"
#include "tr_mdns_txt.h"
#include "tr_ota_idf.h"
#include "tr_provision.h"
#include "tr_settings_store_idf.h"
#include "tr_web_idf.h"
#include "tr_wifi_idf.h"

static const char *TAG = "tributary";

static tr_settings_t s_settings;
static char s_hostname[64];
static const char *s_version;
static QueueHandle_t s_wifi_events;

static uint32_t now_ms(void)
{
    return (uint32_t)(esp_timer_get_time() / 1000);
}

/** Watches the BOOT button during the first seconds; a long press erases the settings. */
static void reset_watch_task(void *arg)
{
    (void)arg;
    const gpio_config_t pin = {
        .pin_bit_mask = 1ull << CONFIG_TR_RESET_GPIO,
        .mode = GPIO_MODE_INPUT,
        .pull_up_en = GPIO_PULLUP_ENABLE,
    };
    gpio_config(&pin);
    tr_reset_button_t button;
    tr_reset_button_init(&button);
    tr_reset_t result;
    while ((result = tr_reset_button_sample(&button, gpio_get_level(CONFIG_TR_RESET_GPIO) == 0,
                                            now_ms())) == TR_RESET_WATCHING) {
        vTaskDelay(pdMS_TO_TICKS(20));
    }
    if (result == TR_RESET_YES) {
        ESP_LOGW(TAG, "factory reset (BOOT held): settings erased, restarting");
        tr_store_factory_reset();
        vTaskDelay(pdMS_TO_TICKS(200));
        esp_restart();
    }
    vTaskDelete(NULL);
}

static void on_wifi(tr_wifi_event_t event)
{
    xQueueSend(s_wifi_events, &event, 0);
}

static void fill_status(tr_status_t *st)
{
    st->version = s_version;
    st->hostname = s_hostname;
    tr_wifi_station(st->ip, &st->rssi);
    st->uptime_s = now_ms() / 1000;
    tr_modes_status(&s_settings, st);
    const char *ota = tr_ota_state();
    if (ota[0] && st->last_error[0] == '\0') {
        snprintf(st->last_error, sizeof st->last_error, "%s", ota);
    }
}

static void on_changed(const tr_settings_t *before)
{
    char ip[16];
    int8_t rssi;
    tr_wifi_station(ip, &rssi);
    tr_discovery_update(&s_settings, ip, s_version);
    if (tr_modes_apply(before, &s_settings)) {
        ESP_LOGI(TAG, "settings changed: restarting to apply them");
        vTaskDelay(pdMS_TO_TICKS(1500));
        esp_restart();
    }
}

static void log_stats(void)
{
    tr_status_t st;
    memset(&st, 0, sizeof st);
    fill_status(&st);
    ESP_LOGI(TAG, "%s | %lu packets, %lu lost, %lu late, %lu dropped, %lu underruns, "
                  "%llu frames concealed | target %.1f ms, level %.1f ms, drift %+.0f ppm | "
                  "RSSI %d dBm%s%s",
             st.audio, (unsigned long)st.packets, (unsigned long)st.lost, (unsigned long)st.late,
             (unsigned long)st.dropped, (unsigned long)st.underruns,
             (unsigned long long)st.concealed_frames, (double)st.target_ms, (double)st.level_ms,
             (double)st.drift_ppm, st.rssi, st.last_error[0] ? " | " : "", st.last_error);
}

static void run(void)
{
    tr_wifi_start_station(s_settings.wifi_ssid, s_settings.wifi_password, s_hostname);
    tr_netwatch_t watch;
    tr_netwatch_init(&watch, now_ms());
    bool started = false;
    uint32_t next_stats = now_ms() + CONFIG_TR_LOG_STATS_S * 1000u;
    for (;;) {
        tr_wifi_event_t event;
        tr_net_action_t action = TR_NET_NOTHING;
        if (xQueueReceive(s_wifi_events, &event, pdMS_TO_TICKS(1000)) == pdTRUE) {
            if (event == TR_WIFI_GOT_IP) {
                action = tr_netwatch_connected(&watch, now_ms());
                char ip[16];
                int8_t rssi;
                tr_wifi_station(ip, &rssi);
                if (!started) {
                    started = true;
                    tr_modes_start(&s_settings);
                    tr_web_config_t web = {false, &s_settings, s_hostname, fill_status, on_changed};
                    tr_web_start(&web);
                    tr_discovery_start(&s_settings, ip, s_version);
                    tr_ota_confirm(); // this image reached a working network
                } else {
                    tr_discovery_update(&s_settings, ip, s_version);
                }
                if (rssi < -70) {
                    ESP_LOGW(TAG, "weak Wi-Fi (%d dBm): audio may drop out", rssi);
                }
            } else {
                action = tr_netwatch_disconnected(&watch, now_ms());
            }
        } else {
            action = tr_netwatch_tick(&watch, now_ms());
        }
        if (action == TR_NET_RETRY) {
            tr_wifi_reconnect();
        } else if (action == TR_NET_START_SETUP_AP) {
            tr_wifi_fallback_ap(true);
            if (!started) { // never connected: the wizard can fix the password
                tr_captive_dns_start();
                tr_web_config_t web = {true, &s_settings, s_hostname, fill_status, on_changed};
                tr_web_start(&web);
                started = true;
            }
        } else if (action == TR_NET_STOP_SETUP_AP) {
            tr_wifi_fallback_ap(false);
        }
        if ((int32_t)(now_ms() - next_stats) >= 0 && started) {
            log_stats();
            next_stats = now_ms() + CONFIG_TR_LOG_STATS_S * 1000u;
        }
    }
}

void app_main(void)
{
    s_version = esp_app_get_description()->version;
    ESP_LOGI(TAG, "Tributary ESP32-S3 firmware %s", s_version);
    esp_err_t err = tr_store_init();
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "flash storage unavailable (%s): settings will not be kept",
                 esp_err_to_name(err));
    }
    tr_settings_error_t problem = {0};
    bool loaded = tr_store_load(&s_settings, &problem);
    bool setup_requested = tr_store_take_setup_request();
    tr_mdns_hostname(s_settings.name, s_hostname, sizeof s_hostname);
    xTaskCreate(reset_watch_task, "reset_watch", 2048, NULL, 3, NULL);
    s_wifi_events = xQueueCreate(8, sizeof(tr_wifi_event_t));
    if ((err = tr_wifi_init(on_wifi)) != ESP_OK) {
        ESP_LOGE(TAG, "Wi-Fi did not start: %s", esp_err_to_name(err));
        return;
    }
    if (tr_boot_decide(&s_settings, loaded, setup_requested) == TR_BOOT_SETUP) {
        ESP_LOGI(TAG, "not set up: join %s and open http://%s/", CONFIG_TR_AP_SSID,
                 CONFIG_TR_AP_IP);
        tr_wifi_start_setup_ap();
        tr_captive_dns_start();
        tr_web_config_t web = {true, &s_settings, s_hostname, fill_status, on_changed};
        tr_web_start(&web);
        return;
    }
    ESP_LOGI(TAG, "%s \"%s\" joining %s", tr_mode_name(s_settings.mode), s_settings.name,
             s_settings.wifi_ssid);
    run();
}
