// SDP (RFC 8866) for one L16 stereo audio stream: written for SAP announcements, read from
// announcements heard on the network (ffmpeg, PulseAudio, PipeWire, GStreamer).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"

typedef struct {
    const char *session_name; // control characters are replaced when written
    uint32_t session_id;
    uint32_t session_version;
    uint32_t origin_ipv4;     // this device
    uint32_t dest_ipv4;       // where the RTP goes (unicast or multicast)
    uint8_t ttl;              // written for multicast destinations
    uint16_t port;
    uint8_t payload_type;
    uint32_t sample_rate;
    uint8_t channels;
} tr_sdp_stream_t;

/** Writes the session description; returns its length, or 0 if `cap` is too small. */
size_t tr_sdp_write(char *out, size_t cap, const tr_sdp_stream_t *stream);

typedef struct {
    char session_name[64];   // truncated
    uint32_t origin_ipv4;    // 0 if not IPv4
    uint32_t connection_ipv4; // from the media section, else the session; 0 if none
    uint16_t port;
    uint8_t payload_type;    // the first payload type listed on the m= line
    char encoding[8];        // "L16", "L24", "S16LE"... (upper case)
    uint32_t sample_rate;
    uint8_t channels;
} tr_sdp_audio_t;

/**
 * Reads the first audio section of `text`. TR_PKT_MALFORMED without "v=0" or with lines that are
 * not "<type>=<value>"; TR_PKT_UNSUPPORTED when there is no audio section or its first payload
 * type has no known format.
 */
tr_pkt_result_t tr_sdp_parse_audio(const char *text, size_t len, tr_sdp_audio_t *out);
