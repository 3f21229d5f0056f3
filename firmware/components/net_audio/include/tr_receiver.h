// What a receiver does with each datagram on its port: parse it (Scream or RTP), keep what this
// device plays (16-bit stereo at 44.1 or 48 kHz), follow one sender at a time, and hand the audio
// to the jitter buffer. Every dropped packet is counted by reason.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_jitter.h"
#include "tr_packet.h"
#include "tr_sdp.h"

/** A sender silent this long gives way to another one. */
#define TR_RECEIVER_SWITCH_US 1000000

typedef struct {
    tr_protocol_t protocol;
    uint32_t dynamic_rate;       // rate of RTP dynamic payload types (settings, or SAP)
    bool locked;                 // following a sender
    uint32_t source_ip;          // host byte order
    uint16_t source_port;
    uint32_t ssrc;
    uint32_t sample_rate;        // of the stream being played
    int64_t last_us;
    uint32_t dropped[TR_PKT_REASONS]; // by reason (index TR_PKT_OK unused)
    uint32_t foreign;            // packets from a second sender while the first was playing
    uint32_t streams;            // senders followed so far
} tr_receiver_t;

/** Playable audio found in a datagram. */
typedef struct {
    uint32_t sample_rate;
    bool rtp;
    uint16_t sequence;
    uint32_t timestamp;
    uint32_t ssrc;
    const uint8_t *payload; // RTP: big-endian; Scream: little-endian
    size_t payload_len;
} tr_rx_audio_t;

typedef enum {
    TR_RX_DROPPED,    // counted in `dropped` or `foreign`
    TR_RX_PLAYED,     // pushed into the jitter buffer
    TR_RX_NEW_STREAM, // a new sender or rate: the buffer was reset, then the audio pushed
} tr_rx_outcome_t;

void tr_receiver_init(tr_receiver_t *rx, tr_protocol_t protocol, uint32_t dynamic_rate);

/** Parses and checks one datagram (counting nothing); TR_PKT_OK fills `out`. */
tr_pkt_result_t tr_receiver_classify(const tr_receiver_t *rx, const uint8_t *data, size_t len,
                                     tr_rx_audio_t *out);

/** Classifies, counts, follows one sender and feeds `jb`. */
tr_rx_outcome_t tr_receiver_handle(tr_receiver_t *rx, tr_jitter_t *jb, const uint8_t *data,
                                   size_t len, uint32_t source_ip, uint16_t source_port,
                                   int64_t now_us);

/**
 * Learns the rate of dynamic payload types from a SAP announcement of a stream sent to
 * `port` (L16 stereo at 44.1 or 48 kHz only). Returns true if it applied.
 */
bool tr_receiver_learn(tr_receiver_t *rx, const tr_sdp_audio_t *sdp, uint16_t port);
