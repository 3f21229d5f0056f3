// Sender: frames pushed by the input (USB or S/PDIF task) are packetized and sent to the
// router; a second task resolves the router's name and announces the RTP stream with SAP.
#include "lwip/netdb.h"
#include <stdio.h>
#include <string.h>

#include "esp_log.h"
#include "esp_netif.h"
#include "esp_random.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "lwip/sockets.h"
#include "sdkconfig.h"
#include "tr_ipv4.h"
#include "tr_net_audio_idf.h"
#include "tr_packetizer.h"
#include "tr_pcm.h"
#include "tr_sap.h"
#include "tr_sdp.h"

static const char *TAG = "net_tx";

static tr_net_tx_config_t s_config;
static char s_target[64];
static char s_name[33];
static int s_fd = -1;
static volatile uint32_t s_dest_ip; // host byte order, 0 until resolved
static volatile uint8_t s_volume = 100;
static tr_packetizer_t s_packetizer;
static volatile uint32_t s_rate; // 0 until the input delivers
static int64_t s_last_push_us;
static uint32_t s_send_errors;
static int16_t s_scratch[2 * 1024];

static void send_datagram(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx;
    uint32_t ip = s_dest_ip;
    if (ip == 0) {
        return;
    }
    struct sockaddr_in to = {
        .sin_family = AF_INET,
        .sin_port = htons(s_config.port),
        .sin_addr.s_addr = htonl(ip),
    };
    if (sendto(s_fd, data, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to) < 0) {
        s_send_errors++;
    }
}

void tr_net_tx_push(void *ctx, const int16_t *frames, size_t count, uint32_t rate)
{
    (void)ctx;
    int64_t now = esp_timer_get_time();
    if (rate != s_rate) {
        // A new input rate (an S/PDIF source switched): a new stream for the receivers.
        tr_packetizer_init(&s_packetizer, s_config.protocol, rate, esp_random(),
                           (uint16_t)esp_random(), esp_random());
        s_rate = rate;
        ESP_LOGI(TAG, "sending %lu Hz", (unsigned long)rate);
    } else if (now - s_last_push_us > 50000) {
        // The input paused: let the timestamps say so, so receivers do not drift.
        tr_packetizer_gap(&s_packetizer, (uint32_t)((now - s_last_push_us) * rate / 1000000));
    }
    s_last_push_us = now;
    while (count > 0) {
        size_t n = count < 1024 ? count : 1024;
        memcpy(s_scratch, frames, n * 2 * sizeof(int16_t));
        tr_pcm_gain(s_scratch, n * 2, s_volume);
        tr_packetizer_push(&s_packetizer, s_scratch, n, send_datagram, NULL);
        frames += 2 * n;
        count -= n;
    }
}

static uint32_t resolve(const char *host)
{
    uint32_t ip;
    if (tr_ipv4_parse(host, strlen(host), &ip)) {
        return ip;
    }
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_DGRAM};
    struct addrinfo *result = NULL;
    if (getaddrinfo(host, NULL, &hints, &result) != 0 || result == NULL) {
        return 0;
    }
    ip = ntohl(((struct sockaddr_in *)result->ai_addr)->sin_addr.s_addr);
    freeaddrinfo(result);
    return ip;
}

static uint32_t own_ip(void)
{
    esp_netif_ip_info_t info;
    esp_netif_t *sta = esp_netif_get_handle_from_ifkey("WIFI_STA_DEF");
    if (sta == NULL || esp_netif_get_ip_info(sta, &info) != ESP_OK) {
        return 0;
    }
    return ntohl(info.ip.addr);
}

static void announce(int fd, uint32_t version)
{
    uint32_t rate = s_rate;
    uint32_t dest = s_dest_ip;
    if (rate == 0 || dest == 0) {
        return;
    }
    tr_sdp_stream_t stream = {
        .session_name = s_name,
        .session_id = s_packetizer.ssrc,
        .session_version = version,
        .origin_ipv4 = own_ip(),
        .dest_ipv4 = dest,
        .ttl = CONFIG_TR_SAP_TTL,
        .port = s_config.port,
        .payload_type = s_packetizer.payload_type,
        .sample_rate = rate,
        .channels = 2,
    };
    char sdp[384];
    uint8_t packet[512];
    size_t sdp_len = tr_sdp_write(sdp, sizeof sdp, &stream);
    uint16_t hash = (uint16_t)(stream.session_id ^ stream.session_id >> 16 ^ version);
    size_t len = sdp_len ? tr_sap_write(packet, sizeof packet, false, hash, stream.origin_ipv4,
                                        sdp, sdp_len)
                         : 0;
    struct sockaddr_in to = {
        .sin_family = AF_INET,
        .sin_port = htons(TR_SAP_PORT),
        .sin_addr.s_addr = htonl(TR_SAP_GROUP_GLOBAL),
    };
    if (len > 0) {
        sendto(fd, packet, len, 0, (struct sockaddr *)&to, sizeof to);
    }
}

static void control_task(void *arg)
{
    (void)arg;
    int sap = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    uint8_t ttl = CONFIG_TR_SAP_TTL;
    setsockopt(sap, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
    int64_t next_resolve = 0;
    int64_t next_announce = 0;
    uint32_t announced_rate = 0;
    uint32_t version = 1;
    for (;;) {
        int64_t now = esp_timer_get_time();
        if (now >= next_resolve) {
            uint32_t ip = resolve(s_target);
            if (ip != s_dest_ip && ip != 0) {
                char text[TR_IPV4_TEXT_MAX];
                tr_ipv4_format(ip, text);
                ESP_LOGI(TAG, "%s is %s", s_target, text);
                s_dest_ip = ip;
            } else if (ip == 0) {
                ESP_LOGW(TAG, "cannot resolve %s yet", s_target);
            }
            // Until found, look again at the mDNS query interval; then once a minute.
            next_resolve = now + (s_dest_ip ? 60000000LL : CONFIG_TR_MDNS_QUERY_S * 1000000LL);
        }
        if (s_config.sap && s_config.protocol == TR_PROTO_RTP && now >= next_announce) {
            if (s_rate != announced_rate) {
                announced_rate = s_rate;
                version++;
            }
            announce(sap, version);
            next_announce = now + CONFIG_TR_SAP_INTERVAL_S * 1000000LL;
        }
        vTaskDelay(pdMS_TO_TICKS(500));
    }
}

esp_err_t tr_net_tx_start(const tr_net_tx_config_t *config)
{
    s_config = *config;
    snprintf(s_target, sizeof s_target, "%s", config->target);
    snprintf(s_name, sizeof s_name, "%s", config->session_name);
    s_config.target = s_target;
    s_config.session_name = s_name;
    s_volume = config->volume_percent;
    s_fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    if (s_fd < 0) {
        return ESP_FAIL;
    }
    BaseType_t ok = xTaskCreatePinnedToCore(control_task, "net_tx", 4096, NULL, 5, NULL,
                                            tskNO_AFFINITY);
    return ok == pdPASS ? ESP_OK : ESP_ERR_NO_MEM;
}

void tr_net_tx_set_volume(uint8_t percent)
{
    s_volume = percent;
}

void tr_net_tx_status(tr_status_t *st)
{
    char text[TR_IPV4_TEXT_MAX];
    tr_ipv4_format(s_dest_ip, text);
    st->packets = s_packetizer.packets_sent;
    st->dropped = s_send_errors;
    if (s_dest_ip == 0) {
        snprintf(st->audio, sizeof st->audio, "looking up %s", s_target);
    } else if (s_rate == 0 || esp_timer_get_time() - s_last_push_us > 1000000) {
        snprintf(st->audio, sizeof st->audio, "no input; will send to %s:%u", text,
                 s_config.port);
    } else {
        snprintf(st->audio, sizeof st->audio, "sending %s at %lu Hz to %s:%u",
                 s_config.protocol == TR_PROTO_RTP ? "RTP" : "Scream", (unsigned long)s_rate,
                 text, s_config.port);
    }
}
