#include "tr_sap.h"

#include <string.h>

static const char SDP_TYPE[] = "application/sdp";

tr_pkt_result_t tr_sap_parse(const uint8_t *data, size_t len, tr_sap_packet_t *out)
{
    if (len < 4) {
        return TR_PKT_TRUNCATED;
    }
    if ((data[0] >> 5) != 1) {
        return TR_PKT_MALFORMED;
    }
    if (data[0] & 0x03) {
        return TR_PKT_UNSUPPORTED; // encrypted or compressed
    }
    bool ipv6 = (data[0] & 0x10) != 0;
    size_t at = 4 + (ipv6 ? 16u : 4u) + 4u * data[1];
    if (len < at) {
        return TR_PKT_TRUNCATED;
    }
    out->deletion = (data[0] & 0x04) != 0;
    out->msg_id_hash = (uint16_t)((data[2] << 8) | data[3]);
    out->origin_ipv4 = ipv6 ? 0
                            : ((uint32_t)data[4] << 24) | ((uint32_t)data[5] << 16) |
                                  ((uint32_t)data[6] << 8) | data[7];
    // The payload type is optional: a payload starting with "v=0" is SDP without one.
    size_t rest = len - at;
    if (!(rest >= 3 && memcmp(data + at, "v=0", 3) == 0)) {
        const uint8_t *nul = memchr(data + at, 0, rest);
        if (nul == NULL) {
            return TR_PKT_MALFORMED;
        }
        size_t type_len = (size_t)(nul - (data + at));
        if (type_len != sizeof SDP_TYPE - 1 || memcmp(data + at, SDP_TYPE, type_len) != 0) {
            return TR_PKT_UNSUPPORTED;
        }
        at += type_len + 1;
    }
    if (at >= len) {
        return TR_PKT_TRUNCATED;
    }
    out->sdp = (const char *)(data + at);
    out->sdp_len = len - at;
    return TR_PKT_OK;
}

size_t tr_sap_write(uint8_t *out, size_t cap, bool deletion, uint16_t msg_id_hash,
                    uint32_t origin_ipv4, const char *sdp, size_t sdp_len)
{
    size_t need = 8 + sizeof SDP_TYPE + sdp_len;
    if (cap < need) {
        return 0;
    }
    out[0] = (uint8_t)(0x20 | (deletion ? 0x04 : 0));
    out[1] = 0; // no authentication data
    out[2] = (uint8_t)(msg_id_hash >> 8);
    out[3] = (uint8_t)msg_id_hash;
    for (int i = 0; i < 4; i++) {
        out[4 + i] = (uint8_t)(origin_ipv4 >> (24 - 8 * i));
    }
    memcpy(out + 8, SDP_TYPE, sizeof SDP_TYPE); // includes the terminating NUL
    memcpy(out + 8 + sizeof SDP_TYPE, sdp, sdp_len);
    return need;
}
