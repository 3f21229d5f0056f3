#include <stdio.h>
#include <string.h>

#include "esp_event.h"
#include "esp_log.h"
#include "esp_netif.h"
#include "esp_wifi.h"
#include "lwip/inet.h"
#include "sdkconfig.h"
#include "tr_ipv4.h"
#include "tr_wifi_idf.h"

static const char *TAG = "wifi";

static esp_netif_t *s_sta;
static esp_netif_t *s_ap;
static tr_wifi_event_fn s_on_event;
static bool s_station;

static void on_wifi(void *arg, esp_event_base_t base, int32_t id, void *data)
{
    (void)arg;
    if (base == WIFI_EVENT && id == WIFI_EVENT_STA_START && s_station) {
        esp_wifi_connect();
    } else if (base == WIFI_EVENT && id == WIFI_EVENT_STA_DISCONNECTED) {
        const wifi_event_sta_disconnected_t *d = data;
        ESP_LOGW(TAG, "not connected (reason %d)", d ? d->reason : -1);
        if (s_on_event) {
            s_on_event(TR_WIFI_DISCONNECTED);
        }
    } else if (base == IP_EVENT && id == IP_EVENT_STA_GOT_IP) {
        const ip_event_got_ip_t *got = data;
        ESP_LOGI(TAG, "address " IPSTR, IP2STR(&got->ip_info.ip));
        if (s_on_event) {
            s_on_event(TR_WIFI_GOT_IP);
        }
    }
}

static esp_err_t configure_ap_address(void)
{
    uint32_t ip;
    if (!tr_ipv4_parse(CONFIG_TR_AP_IP, strlen(CONFIG_TR_AP_IP), &ip)) {
        ESP_LOGE(TAG, "CONFIG_TR_AP_IP is not an IPv4 address");
        return ESP_ERR_INVALID_ARG;
    }
    esp_netif_ip_info_t info = {0};
    info.ip.addr = htonl(ip);
    info.gw.addr = htonl(ip);
    info.netmask.addr = htonl(0xFFFFFF00u);
    esp_netif_dhcps_stop(s_ap);
    esp_err_t err = esp_netif_set_ip_info(s_ap, &info);
    esp_netif_dhcps_start(s_ap);
    return err;
}

esp_err_t tr_wifi_init(tr_wifi_event_fn on_event)
{
    s_on_event = on_event;
    esp_err_t err = esp_netif_init();
    if (err == ESP_OK) {
        err = esp_event_loop_create_default();
    }
    if (err != ESP_OK && err != ESP_ERR_INVALID_STATE) {
        return err;
    }
    s_sta = esp_netif_create_default_wifi_sta();
    s_ap = esp_netif_create_default_wifi_ap();
    wifi_init_config_t cfg = WIFI_INIT_CONFIG_DEFAULT();
    if ((err = esp_wifi_init(&cfg)) != ESP_OK) {
        return err;
    }
    esp_event_handler_register(WIFI_EVENT, ESP_EVENT_ANY_ID, on_wifi, NULL);
    esp_event_handler_register(IP_EVENT, IP_EVENT_STA_GOT_IP, on_wifi, NULL);
    return esp_wifi_set_storage(WIFI_STORAGE_RAM); // the settings keep the credentials
}

static void set_ap_config(void)
{
    wifi_config_t ap = {0};
    snprintf((char *)ap.ap.ssid, sizeof ap.ap.ssid, "%s", CONFIG_TR_AP_SSID);
    ap.ap.ssid_len = (uint8_t)strlen(CONFIG_TR_AP_SSID);
    ap.ap.channel = CONFIG_TR_AP_CHANNEL;
    ap.ap.max_connection = 4;
    ap.ap.authmode = WIFI_AUTH_OPEN;
    esp_wifi_set_config(WIFI_IF_AP, &ap);
}

esp_err_t tr_wifi_start_setup_ap(void)
{
    s_station = false;
    esp_err_t err = esp_wifi_set_mode(WIFI_MODE_APSTA);
    if (err != ESP_OK) {
        return err;
    }
    set_ap_config();
    configure_ap_address();
    err = esp_wifi_start();
    ESP_LOGI(TAG, "setup access point %s at %s", CONFIG_TR_AP_SSID, CONFIG_TR_AP_IP);
    return err;
}

esp_err_t tr_wifi_start_station(const char *ssid, const char *password, const char *hostname)
{
    s_station = true;
    esp_netif_set_hostname(s_sta, hostname);
    wifi_config_t sta = {0};
    snprintf((char *)sta.sta.ssid, sizeof sta.sta.ssid, "%s", ssid);
    snprintf((char *)sta.sta.password, sizeof sta.sta.password, "%s", password);
    sta.sta.threshold.authmode = password[0] ? WIFI_AUTH_WPA2_PSK : WIFI_AUTH_OPEN;
    sta.sta.scan_method = WIFI_ALL_CHANNEL_SCAN;
    sta.sta.sort_method = WIFI_CONNECT_AP_BY_SIGNAL;
    esp_err_t err = esp_wifi_set_mode(WIFI_MODE_STA);
    if (err == ESP_OK) {
        err = esp_wifi_set_config(WIFI_IF_STA, &sta);
    }
    if (err == ESP_OK) {
        err = esp_wifi_start();
    }
    // Audio over Wi-Fi: no modem sleep (it adds tens of ms of latency and jitter).
    esp_wifi_set_ps(WIFI_PS_NONE);
    return err;
}

void tr_wifi_reconnect(void)
{
    esp_wifi_connect();
}

void tr_wifi_fallback_ap(bool on)
{
    if (on) {
        esp_wifi_set_mode(WIFI_MODE_APSTA);
        set_ap_config();
        configure_ap_address();
        ESP_LOGW(TAG, "saved network out of reach: setup access point %s is up",
                 CONFIG_TR_AP_SSID);
    } else {
        esp_wifi_set_mode(WIFI_MODE_STA);
    }
}

size_t tr_wifi_scan(tr_scan_entry_t *out, size_t max)
{
    wifi_scan_config_t config = {.show_hidden = false};
    if (esp_wifi_scan_start(&config, true) != ESP_OK) {
        return 0;
    }
    uint16_t count = (uint16_t)max;
    static wifi_ap_record_t records[20];
    if (count > 20) {
        count = 20;
    }
    if (esp_wifi_scan_get_ap_records(&count, records) != ESP_OK) {
        return 0;
    }
    size_t n = 0;
    for (uint16_t i = 0; i < count; i++) { // already sorted by signal
        if (records[i].ssid[0] == '\0') {
            continue;
        }
        snprintf(out[n].ssid, sizeof out[n].ssid, "%s", (const char *)records[i].ssid);
        out[n].rssi = records[i].rssi;
        out[n].secure = records[i].authmode != WIFI_AUTH_OPEN;
        n++;
    }
    return n;
}

void tr_wifi_station(char ip[16], int8_t *rssi)
{
    esp_netif_ip_info_t info;
    ip[0] = '\0';
    *rssi = 0;
    if (esp_netif_get_ip_info(s_sta, &info) == ESP_OK && info.ip.addr != 0) {
        tr_ipv4_format(ntohl(info.ip.addr), ip);
        wifi_ap_record_t ap;
        if (esp_wifi_sta_get_ap_info(&ap) == ESP_OK) {
            *rssi = ap.rssi;
        }
    }
}
