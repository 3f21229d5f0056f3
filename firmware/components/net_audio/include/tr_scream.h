// The Scream wire format: a 5-byte header, then interleaved little-endian PCM.
//
//   byte 0    bit 7: base rate 44.1 kHz (1) or 48 kHz (0); bits 0-6: multiplier (1 = base rate)
//   byte 1    bit depth (16, 24 or 32)
//   byte 2    channels (1-8)
//   byte 3-4  channel mask (WAVEFORMATEXTENSIBLE dwChannelMask), low byte first
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"

#define TR_SCREAM_HEADER_LEN 5
#define TR_SCREAM_PAYLOAD_LEN 1152

typedef struct {
    uint32_t sample_rate;
    uint8_t bit_depth;
    uint8_t channels;
    uint16_t channel_mask;
} tr_scream_format_t;

typedef struct {
    tr_scream_format_t format;
    const uint8_t *payload; // points into the datagram
    size_t payload_len;     // 1-1152 bytes
} tr_scream_packet_t;

/** Validates a Scream datagram: rates are multiples (1-127) of 44.1 or 48 kHz up to 384 kHz. */
tr_pkt_result_t tr_scream_parse(const uint8_t *data, size_t len, tr_scream_packet_t *out);

/** The header bytes for `format`; false if Scream cannot express its rate. */
bool tr_scream_header(const tr_scream_format_t *format, uint8_t out[TR_SCREAM_HEADER_LEN]);
