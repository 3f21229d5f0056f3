// The network side of the device on ESP-IDF: the receive task (Scream or RTP on a UDP port, SAP
// heard on the side) feeding the jitter buffer that outputs pull from, and the sender (RTP with
// SAP announcements, or Scream) that inputs push into. Built only by ESP-IDF.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "esp_err.h"
#include "tr_jitter.h"
#include "tr_packet.h"
#include "tr_status.h"

typedef struct {
    tr_protocol_t protocol;
    uint16_t port;
    uint32_t rtp_rate;          // rate of dynamic RTP payload types until SAP says otherwise
    tr_jitter_config_t jitter;
    uint8_t volume_percent;
    /** Called from the receive task when a new sender or rate starts (may be NULL). */
    void (*on_stream)(uint32_t rate);
} tr_net_rx_config_t;

esp_err_t tr_net_rx_start(const tr_net_rx_config_t *config);

/** For outputs (tr_audio_pull_fn): `count` frames at `rate`, volume applied. */
void tr_net_rx_pull(void *ctx, int16_t *frames, size_t count, uint32_t rate);

/** The rate of the stream being played (the configured one before any arrives). */
uint32_t tr_net_rx_rate(void);

void tr_net_rx_set_volume(uint8_t percent);
void tr_net_rx_set_jitter(const tr_jitter_config_t *config);
void tr_net_rx_status(tr_status_t *status);

typedef struct {
    tr_protocol_t protocol;
    const char *target;        // IPv4 or host name (resolved again every minute)
    uint16_t port;
    bool sap;                  // announce the RTP stream
    const char *session_name;  // the device name, in the SDP
    uint8_t volume_percent;
} tr_net_tx_config_t;

esp_err_t tr_net_tx_start(const tr_net_tx_config_t *config);

/** For inputs (tr_audio_push_fn): packetizes and sends; called from one task only. */
void tr_net_tx_push(void *ctx, const int16_t *frames, size_t count, uint32_t rate);

void tr_net_tx_set_volume(uint8_t percent);
void tr_net_tx_status(tr_status_t *status);
