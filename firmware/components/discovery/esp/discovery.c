#include <string.h>

#include "esp_log.h"
#include "mdns.h"
#include "sdkconfig.h"
#include "tr_discovery_idf.h"
#include "tr_mdns_txt.h"

static const char *TAG = "discovery";
static bool s_started;
static char s_service[24];

static esp_err_t publish(const tr_settings_t *s, const char *ip, const char *version, bool add)
{
    tr_txt_item_t items[TR_MDNS_TXT_MAX];
    mdns_txt_item_t txt[TR_MDNS_TXT_MAX];
    size_t n = tr_mdns_txt(s, ip, version, items, TR_MDNS_TXT_MAX);
    for (size_t i = 0; i < n; i++) {
        txt[i].key = items[i].key;
        txt[i].value = items[i].value;
    }
    char host[64];
    tr_mdns_hostname(s->name, host, sizeof host);
    mdns_hostname_set(host);
    mdns_instance_name_set(s->name);
    const char *service = tr_mdns_service(s->mode);
    // Receivers' service port is where they listen; senders point at their web page.
    uint16_t port = tr_mode_is_receiver(s->mode) ? tr_settings_port(s) : CONFIG_TR_HTTP_PORT;
    esp_err_t err;
    if (add || strcmp(service, s_service) != 0) {
        if (s_service[0]) {
            mdns_service_remove(s_service, "_udp");
        }
        strncpy(s_service, service, sizeof s_service - 1);
        err = mdns_service_add(s->name, service, "_udp", port, txt, n);
        if (add) {
            mdns_service_add(s->name, "_http", "_tcp", CONFIG_TR_HTTP_PORT, txt, 1); // id only
        }
    } else {
        mdns_service_port_set(service, "_udp", port);
        err = mdns_service_txt_set(service, "_udp", txt, n);
    }
    if (err != ESP_OK) {
        ESP_LOGW(TAG, "mDNS service %s: %s", service, esp_err_to_name(err));
    }
    return err;
}

esp_err_t tr_discovery_start(const tr_settings_t *s, const char *ip, const char *version)
{
    if (!s_started) {
        esp_err_t err = mdns_init();
        if (err != ESP_OK) {
            ESP_LOGE(TAG, "mDNS did not start: %s", esp_err_to_name(err));
            return err;
        }
        s_started = true;
    }
    return publish(s, ip, version, true);
}

esp_err_t tr_discovery_update(const tr_settings_t *s, const char *ip, const char *version)
{
    return s_started ? publish(s, ip, version, false) : ESP_ERR_INVALID_STATE;
}
