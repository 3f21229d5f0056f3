// Why a datagram was not used. Every parser returns one of these instead of failing hard; the
// receiver counts them (the same reasons, with the same names, as the router's engine).
#pragma once

typedef enum {
    TR_PKT_OK = 0,
    TR_PKT_TRUNCATED,   // shorter than its headers say it must be
    TR_PKT_OVERSIZED,   // longer than the protocol allows
    TR_PKT_MALFORMED,   // impossible field values (wrong version, zero rate, bad lengths)
    TR_PKT_UNSUPPORTED, // well formed, but a format this device does not play
    TR_PKT_REASONS,
} tr_pkt_result_t;

/** What a stream carries on the wire. */
typedef enum {
    TR_PROTO_RTP = 0, // RTP L16 (big-endian) stereo
    TR_PROTO_SCREAM,  // Scream: 5-byte header, little-endian PCM
} tr_protocol_t;

/** A short stable name ("ok", "truncated", ...) for logs, stats and tests. */
const char *tr_pkt_result_name(tr_pkt_result_t result);
