// SAP (RFC 2974) announcements: a small header, then "application/sdp" and an SDP document.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"

#define TR_SAP_PORT 9875
/** The global-scope SAP group; PulseAudio and PipeWire also use 224.0.0.56. */
#define TR_SAP_GROUP_GLOBAL 0xE0027FFEu // 224.2.127.254

typedef struct {
    bool deletion;          // T bit: the session is going away
    uint16_t msg_id_hash;   // identifies the announcement (changes with the session version)
    uint32_t origin_ipv4;   // host byte order; 0 when the origin is IPv6
    const char *sdp;        // points into the datagram, not NUL-terminated
    size_t sdp_len;
} tr_sap_packet_t;

/** Parses an announcement; encrypted or compressed ones, and non-SDP payloads, are unsupported. */
tr_pkt_result_t tr_sap_parse(const uint8_t *data, size_t len, tr_sap_packet_t *out);

/**
 * Writes an IPv4 announcement (or deletion) carrying `sdp`. Returns the datagram length, or 0
 * when `cap` is too small.
 */
size_t tr_sap_write(uint8_t *out, size_t cap, bool deletion, uint16_t msg_id_hash,
                    uint32_t origin_ipv4, const char *sdp, size_t sdp_len);
