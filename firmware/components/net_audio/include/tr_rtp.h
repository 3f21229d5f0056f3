// RTP (RFC 3550) packets carrying L16: 16-bit big-endian PCM, here always stereo.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"

#define TR_RTP_HEADER_LEN 12
/** Largest payload sent: the product's "MTU" of 1152 bytes (288 stereo 16-bit frames). */
#define TR_RTP_MAX_PAYLOAD 1152
/** RFC 3551 static payload type for L16 stereo at 44.1 kHz. */
#define TR_RTP_PT_L16_STEREO_44K1 10
/** The dynamic payload type this firmware announces for L16 stereo at 48 kHz. */
#define TR_RTP_PT_DYNAMIC_L16 96

typedef struct {
    bool marker;
    uint8_t payload_type;
    uint16_t sequence;
    uint32_t timestamp;
    uint32_t ssrc;
    uint8_t csrc_count;
    const uint8_t *payload; // points into the datagram, padding removed
    size_t payload_len;
} tr_rtp_packet_t;

/**
 * Parses an RTP datagram, skipping CSRCs and any header extension and removing padding.
 * RTCP (second byte 200-204) is rejected as malformed so a shared port cannot confuse them.
 */
tr_pkt_result_t tr_rtp_parse(const uint8_t *data, size_t len, tr_rtp_packet_t *out);

/** Writes a 12-byte header: version 2, no padding, extension or CSRC. */
void tr_rtp_write_header(uint8_t out[TR_RTP_HEADER_LEN], bool marker, uint8_t payload_type,
                         uint16_t sequence, uint32_t timestamp, uint32_t ssrc);

/**
 * The sample rate of an L16 stereo stream with `payload_type`: 44100 for the static type 10,
 * `dynamic_rate` for the dynamic range 96-127, 0 for anything this device does not play.
 */
uint32_t tr_rtp_l16_stereo_rate(uint8_t payload_type, uint32_t dynamic_rate);
