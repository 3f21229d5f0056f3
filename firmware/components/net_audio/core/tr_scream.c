#include "tr_scream.h"

const char *tr_pkt_result_name(tr_pkt_result_t result)
{
    switch (result) {
    case TR_PKT_OK: return "ok";
    case TR_PKT_TRUNCATED: return "truncated";
    case TR_PKT_OVERSIZED: return "oversized";
    case TR_PKT_MALFORMED: return "malformed";
    case TR_PKT_UNSUPPORTED: return "unsupported";
    default: return "unknown";
    }
}

tr_pkt_result_t tr_scream_parse(const uint8_t *data, size_t len, tr_scream_packet_t *out)
{
    if (len < TR_SCREAM_HEADER_LEN) {
        return TR_PKT_TRUNCATED;
    }
    uint32_t base = (data[0] & 0x80) ? 44100u : 48000u;
    uint32_t multiplier = data[0] & 0x7fu;
    uint32_t rate = base * multiplier;
    if (multiplier == 0 || rate > 384000u) {
        return TR_PKT_MALFORMED;
    }
    if (!(data[1] == 16 || data[1] == 24 || data[1] == 32) || data[2] < 1 || data[2] > 8) {
        return TR_PKT_MALFORMED;
    }
    size_t payload = len - TR_SCREAM_HEADER_LEN;
    if (payload == 0) {
        return TR_PKT_TRUNCATED;
    }
    if (payload > TR_SCREAM_PAYLOAD_LEN) {
        return TR_PKT_OVERSIZED;
    }
    out->format.sample_rate = rate;
    out->format.bit_depth = data[1];
    out->format.channels = data[2];
    out->format.channel_mask = (uint16_t)(data[3] | (data[4] << 8));
    out->payload = data + TR_SCREAM_HEADER_LEN;
    out->payload_len = payload;
    return TR_PKT_OK;
}

bool tr_scream_header(const tr_scream_format_t *format, uint8_t out[TR_SCREAM_HEADER_LEN])
{
    uint32_t flag;
    uint32_t multiplier;
    if (format->sample_rate != 0 && format->sample_rate % 48000u == 0) {
        flag = 0;
        multiplier = format->sample_rate / 48000u;
    } else if (format->sample_rate != 0 && format->sample_rate % 44100u == 0) {
        flag = 0x80;
        multiplier = format->sample_rate / 44100u;
    } else {
        return false;
    }
    if (multiplier > 0x7f) {
        return false;
    }
    out[0] = (uint8_t)(flag | multiplier);
    out[1] = format->bit_depth;
    out[2] = format->channels;
    out[3] = (uint8_t)(format->channel_mask & 0xff);
    out[4] = (uint8_t)(format->channel_mask >> 8);
    return true;
}
