#include "tr_receiver.h"

#include <string.h>

#include "tr_rtp.h"
#include "tr_scream.h"

void tr_receiver_init(tr_receiver_t *rx, tr_protocol_t protocol, uint32_t dynamic_rate)
{
    memset(rx, 0, sizeof *rx);
    rx->protocol = protocol;
    rx->dynamic_rate = dynamic_rate;
}

static bool playable_rate(uint32_t rate)
{
    return rate == 44100 || rate == 48000;
}

tr_pkt_result_t tr_receiver_classify(const tr_receiver_t *rx, const uint8_t *data, size_t len,
                                     tr_rx_audio_t *out)
{
    memset(out, 0, sizeof *out);
    if (rx->protocol == TR_PROTO_SCREAM) {
        tr_scream_packet_t p;
        tr_pkt_result_t r = tr_scream_parse(data, len, &p);
        if (r != TR_PKT_OK) {
            return r;
        }
        if (p.format.bit_depth != 16 || p.format.channels != 2 ||
            !playable_rate(p.format.sample_rate)) {
            return TR_PKT_UNSUPPORTED;
        }
        out->sample_rate = p.format.sample_rate;
        out->payload = p.payload;
        out->payload_len = p.payload_len;
        return TR_PKT_OK;
    }
    tr_rtp_packet_t p;
    tr_pkt_result_t r = tr_rtp_parse(data, len, &p);
    if (r != TR_PKT_OK) {
        return r;
    }
    uint32_t rate = tr_rtp_l16_stereo_rate(p.payload_type, rx->dynamic_rate);
    if (!playable_rate(rate)) {
        return TR_PKT_UNSUPPORTED;
    }
    if (p.payload_len == 0) {
        return TR_PKT_TRUNCATED;
    }
    if (p.payload_len % 4 != 0) {
        return TR_PKT_MALFORMED; // not whole 16-bit stereo frames
    }
    out->sample_rate = rate;
    out->rtp = true;
    out->sequence = p.sequence;
    out->timestamp = p.timestamp;
    out->ssrc = p.ssrc;
    out->payload = p.payload;
    out->payload_len = p.payload_len;
    return TR_PKT_OK;
}

tr_rx_outcome_t tr_receiver_handle(tr_receiver_t *rx, tr_jitter_t *jb, const uint8_t *data,
                                   size_t len, uint32_t source_ip, uint16_t source_port,
                                   int64_t now_us)
{
    tr_rx_audio_t a;
    tr_pkt_result_t r = tr_receiver_classify(rx, data, len, &a);
    if (r != TR_PKT_OK) {
        rx->dropped[r]++;
        return TR_RX_DROPPED;
    }
    bool same_sender = rx->locked && rx->source_ip == source_ip &&
                       rx->source_port == source_port && (!a.rtp || rx->ssrc == a.ssrc);
    bool current_alive = rx->locked && now_us - rx->last_us < TR_RECEIVER_SWITCH_US;
    if (!same_sender && current_alive) {
        rx->foreign++;
        return TR_RX_DROPPED;
    }
    tr_rx_outcome_t outcome = TR_RX_PLAYED;
    if (!same_sender || a.sample_rate != rx->sample_rate) {
        rx->locked = true;
        rx->source_ip = source_ip;
        rx->source_port = source_port;
        rx->ssrc = a.ssrc;
        rx->sample_rate = a.sample_rate;
        rx->streams++;
        tr_jitter_reset(jb, a.sample_rate);
        outcome = TR_RX_NEW_STREAM;
    }
    rx->last_us = now_us;
    if (a.rtp) {
        tr_jitter_push_rtp(jb, a.sequence, a.timestamp, a.payload, a.payload_len, now_us);
    } else {
        tr_jitter_push_scream(jb, a.payload, a.payload_len, now_us);
    }
    return outcome;
}

bool tr_receiver_learn(tr_receiver_t *rx, const tr_sdp_audio_t *sdp, uint16_t port)
{
    if (sdp->port != port || strcmp(sdp->encoding, "L16") != 0 || sdp->channels != 2 ||
        !playable_rate(sdp->sample_rate) || sdp->payload_type < 96) {
        return false;
    }
    rx->dynamic_rate = sdp->sample_rate;
    return true;
}
