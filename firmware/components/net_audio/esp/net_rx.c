// Receive task: one UDP socket for the stream, one for SAP (RTP only), into the jitter buffer
// under a mutex; outputs pull from it on their own clocks.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/param.h>

#include "esp_log.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "lwip/sockets.h"
#include "sdkconfig.h"
#include "tr_ipv4.h"
#include "tr_net_audio_idf.h"
#include "tr_pcm.h"
#include "tr_receiver.h"
#include "tr_sap.h"

static const char *TAG = "net_rx";

#define CAPACITY (1u << CONFIG_TR_JITTER_CAPACITY_LOG2)
static int16_t s_ring[CAPACITY * 2];
static uint32_t s_present[TR_JITTER_PRESENT_WORDS(CAPACITY)];
static tr_jitter_t s_jb;
static tr_receiver_t s_rx;
static SemaphoreHandle_t s_lock;
static tr_net_rx_config_t s_config;
static volatile uint8_t s_volume = 100;
static uint32_t s_sap_learnt;

static int bound_socket(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    if (fd < 0) {
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {
        .sin_family = AF_INET,
        .sin_port = htons(port),
        .sin_addr.s_addr = htonl(INADDR_ANY),
    };
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        ESP_LOGE(TAG, "cannot bind UDP port %u (errno %d)", port, errno);
        close(fd);
        return -1;
    }
    return fd;
}

static __attribute__((unused)) void join_group(int fd, uint32_t group)
{
    struct ip_mreq m = {
        .imr_multiaddr.s_addr = htonl(group),
        .imr_interface.s_addr = htonl(INADDR_ANY),
    };
    if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof m) != 0) {
        ESP_LOGW(TAG, "cannot join a SAP group (errno %d)", errno);
    }
}

static void on_datagram(const uint8_t *data, size_t len, const struct sockaddr_in *from)
{
    int64_t now = esp_timer_get_time();
    uint32_t ip = ntohl(from->sin_addr.s_addr);
    xSemaphoreTake(s_lock, portMAX_DELAY);
    tr_rx_outcome_t outcome = tr_receiver_handle(&s_rx, &s_jb, data, len, ip,
                                                 ntohs(from->sin_port), now);
    uint32_t rate = s_rx.sample_rate;
    xSemaphoreGive(s_lock);
    if (outcome == TR_RX_NEW_STREAM) {
        char text[TR_IPV4_TEXT_MAX];
        tr_ipv4_format(ip, text);
        ESP_LOGI(TAG, "playing %s from %s:%u at %lu Hz",
                 s_config.protocol == TR_PROTO_RTP ? "RTP" : "Scream", text,
                 ntohs(from->sin_port), (unsigned long)rate);
        if (s_config.on_stream) {
            s_config.on_stream(rate);
        }
    }
}

static void on_sap(const uint8_t *data, size_t len)
{
    tr_sap_packet_t sap;
    tr_sdp_audio_t sdp;
    if (tr_sap_parse(data, len, &sap) != TR_PKT_OK || sap.deletion ||
        tr_sdp_parse_audio(sap.sdp, sap.sdp_len, &sdp) != TR_PKT_OK) {
        return;
    }
    xSemaphoreTake(s_lock, portMAX_DELAY);
    bool learnt = tr_receiver_learn(&s_rx, &sdp, s_config.port);
    xSemaphoreGive(s_lock);
    if (learnt && sdp.sample_rate != s_sap_learnt) {
        s_sap_learnt = sdp.sample_rate;
        ESP_LOGI(TAG, "SAP: \"%s\" sends L16/%lu/2 to this port", sdp.session_name,
                 (unsigned long)sdp.sample_rate);
    }
}

static void rx_task(void *arg)
{
    (void)arg;
    static uint8_t buffer[1600];
    int audio = bound_socket(s_config.port);
    int sap = -1;
#if CONFIG_TR_SAP_LISTEN
    if (s_config.protocol == TR_PROTO_RTP) {
        sap = bound_socket(TR_SAP_PORT);
        if (sap >= 0) {
            join_group(sap, TR_SAP_GROUP_GLOBAL);
            join_group(sap, 0xE0000038u); // 224.0.0.56, PulseAudio and PipeWire
        }
    }
#endif
    if (audio < 0) {
        vTaskDelete(NULL);
        return;
    }
    ESP_LOGI(TAG, "listening for %s on UDP port %u",
             s_config.protocol == TR_PROTO_RTP ? "RTP" : "Scream", s_config.port);
    for (;;) {
        fd_set set;
        FD_ZERO(&set);
        FD_SET(audio, &set);
        if (sap >= 0) {
            FD_SET(sap, &set);
        }
        struct timeval timeout = {.tv_sec = 1};
        if (select(MAX(audio, sap) + 1, &set, NULL, NULL, &timeout) <= 0) {
            continue;
        }
        struct sockaddr_in from;
        socklen_t from_len = sizeof from;
        if (FD_ISSET(audio, &set)) {
            int n = recvfrom(audio, buffer, sizeof buffer, 0, (struct sockaddr *)&from, &from_len);
            if (n > 0) {
                on_datagram(buffer, (size_t)n, &from);
            }
        }
        if (sap >= 0 && FD_ISSET(sap, &set)) {
            int n = recvfrom(sap, buffer, sizeof buffer, 0, (struct sockaddr *)&from, &from_len);
            if (n > 0) {
                on_sap(buffer, (size_t)n);
            }
        }
    }
}

esp_err_t tr_net_rx_start(const tr_net_rx_config_t *config)
{
    s_config = *config;
    s_volume = config->volume_percent;
    s_lock = xSemaphoreCreateMutex();
    if (s_lock == NULL) {
        return ESP_ERR_NO_MEM;
    }
    tr_jitter_init(&s_jb, s_ring, s_present, CAPACITY, config->rtp_rate, &config->jitter);
    tr_receiver_init(&s_rx, config->protocol, config->rtp_rate);
    s_rx.sample_rate = config->rtp_rate;
    BaseType_t ok = xTaskCreatePinnedToCore(rx_task, "net_rx", 4096, NULL,
                                            CONFIG_TR_NET_TASK_PRIORITY, NULL, 0);
    return ok == pdPASS ? ESP_OK : ESP_ERR_NO_MEM;
}

void tr_net_rx_pull(void *ctx, int16_t *frames, size_t count, uint32_t rate)
{
    (void)ctx;
    xSemaphoreTake(s_lock, portMAX_DELAY);
    tr_jitter_read(&s_jb, frames, count, rate, esp_timer_get_time());
    xSemaphoreGive(s_lock);
    tr_pcm_gain(frames, count * 2, s_volume);
}

uint32_t tr_net_rx_rate(void)
{
    return s_rx.sample_rate;
}

void tr_net_rx_set_volume(uint8_t percent)
{
    s_volume = percent;
}

void tr_net_rx_set_jitter(const tr_jitter_config_t *config)
{
    xSemaphoreTake(s_lock, portMAX_DELAY);
    tr_jitter_set_config(&s_jb, config);
    xSemaphoreGive(s_lock);
}

void tr_net_rx_status(tr_status_t *st)
{
    xSemaphoreTake(s_lock, portMAX_DELAY);
    const tr_jitter_stats_t *j = &s_jb.stats;
    st->packets = j->packets;
    st->lost = j->lost;
    st->late = j->late;
    st->underruns = j->underruns;
    st->concealed_frames = j->concealed_frames;
    st->dropped = s_rx.foreign;
    for (int r = TR_PKT_TRUNCATED; r < TR_PKT_REASONS; r++) {
        st->dropped += s_rx.dropped[r];
    }
    st->target_ms = tr_jitter_target_ms(&s_jb);
    st->level_ms = tr_jitter_level_ms(&s_jb);
    st->drift_ppm = tr_jitter_drift_ppm(&s_jb);
    bool playing = s_jb.playing;
    uint32_t ip = s_rx.source_ip;
    bool locked = s_rx.locked && esp_timer_get_time() - s_rx.last_us < 1000000;
    xSemaphoreGive(s_lock);
    char text[TR_IPV4_TEXT_MAX];
    tr_ipv4_format(ip, text);
    if (locked) {
        snprintf(st->audio, sizeof st->audio, "%s %s from %s at %lu Hz",
                 playing ? "playing" : "buffering",
                 s_config.protocol == TR_PROTO_RTP ? "RTP" : "Scream", text,
                 (unsigned long)s_rx.sample_rate);
    } else {
        snprintf(st->audio, sizeof st->audio, "waiting for %s on UDP port %u",
                 s_config.protocol == TR_PROTO_RTP ? "RTP" : "Scream", s_config.port);
    }
}
