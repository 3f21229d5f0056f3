#include "tr_rtp.h"

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

tr_pkt_result_t tr_rtp_parse(const uint8_t *data, size_t len, tr_rtp_packet_t *out)
{
    if (len < TR_RTP_HEADER_LEN) {
        return TR_PKT_TRUNCATED;
    }
    if ((data[0] >> 6) != 2 || (data[1] >= 200 && data[1] <= 204)) {
        return TR_PKT_MALFORMED;
    }
    bool padding = (data[0] & 0x20) != 0;
    bool extension = (data[0] & 0x10) != 0;
    size_t csrc = data[0] & 0x0fu;
    size_t at = TR_RTP_HEADER_LEN + 4 * csrc;
    if (len < at) {
        return TR_PKT_TRUNCATED;
    }
    if (extension) {
        if (len < at + 4) {
            return TR_PKT_TRUNCATED;
        }
        size_t words = be16(data + at + 2);
        at += 4 + 4 * words;
        if (len < at) {
            return TR_PKT_TRUNCATED;
        }
    }
    size_t end = len;
    if (padding) {
        size_t pad = data[len - 1];
        if (pad == 0 || pad > end - at) {
            return TR_PKT_MALFORMED;
        }
        end -= pad;
    }
    out->marker = (data[1] & 0x80) != 0;
    out->payload_type = data[1] & 0x7f;
    out->sequence = be16(data + 2);
    out->timestamp = be32(data + 4);
    out->ssrc = be32(data + 8);
    out->csrc_count = (uint8_t)csrc;
    out->payload = data + at;
    out->payload_len = end - at;
    return TR_PKT_OK;
}

void tr_rtp_write_header(uint8_t out[TR_RTP_HEADER_LEN], bool marker, uint8_t payload_type,
                         uint16_t sequence, uint32_t timestamp, uint32_t ssrc)
{
    out[0] = 0x80;
    out[1] = (uint8_t)((payload_type & 0x7f) | (marker ? 0x80 : 0));
    out[2] = (uint8_t)(sequence >> 8);
    out[3] = (uint8_t)sequence;
    for (int i = 0; i < 4; i++) {
        out[4 + i] = (uint8_t)(timestamp >> (24 - 8 * i));
        out[8 + i] = (uint8_t)(ssrc >> (24 - 8 * i));
    }
}

uint32_t tr_rtp_l16_stereo_rate(uint8_t payload_type, uint32_t dynamic_rate)
{
    if (payload_type == TR_RTP_PT_L16_STEREO_44K1) {
        return 44100;
    }
    if (payload_type >= 96 && payload_type <= 127) {
        return dynamic_rate;
    }
    return 0;
}
