// The sender side: 16-bit stereo frames (host byte order) in, RTP L16 or Scream datagrams out,
// 288 frames (1152 bytes, the product's "MTU") per packet, with sequence numbers and timestamps
// counting frames so that receivers see gaps as gaps.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"
#include "tr_rtp.h"
#include "tr_scream.h"

#define TR_PACKET_FRAMES 288

typedef void (*tr_datagram_fn)(void *ctx, const uint8_t *datagram, size_t len);

typedef struct {
    tr_protocol_t protocol;
    uint32_t sample_rate;
    uint8_t payload_type;
    uint16_t sequence;
    uint32_t timestamp; // of the first frame of the packet being filled
    uint32_t ssrc;
    bool marker;        // set on the first packet after a start or a gap
    uint32_t frames;    // in the packet being filled
    uint8_t packet[TR_RTP_HEADER_LEN + TR_RTP_MAX_PAYLOAD];
    uint32_t packets_sent;
    uint32_t gaps;      // input interruptions signalled with tr_packetizer_gap
} tr_packetizer_t;

/**
 * Prepares a stream: 44.1 kHz RTP uses the static payload type 10, 48 kHz the dynamic type 96
 * (announced by SAP). `ssrc`, `first_sequence` and `first_timestamp` should be random.
 */
void tr_packetizer_init(tr_packetizer_t *p, tr_protocol_t protocol, uint32_t sample_rate,
                        uint32_t ssrc, uint16_t first_sequence, uint32_t first_timestamp);

/** Appends interleaved stereo frames, calling `emit` for every full packet. */
void tr_packetizer_push(tr_packetizer_t *p, const int16_t *frames, size_t count,
                        tr_datagram_fn emit, void *ctx);

/**
 * The input lost `count` frames (the USB host paused, the S/PDIF input lost lock): the partly
 * filled packet is dropped and the timestamp moves on, so receivers conceal rather than drift.
 */
void tr_packetizer_gap(tr_packetizer_t *p, uint32_t count);
