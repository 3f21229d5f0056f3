#include "tr_packetizer.h"

#include <string.h>

static size_t header_len(const tr_packetizer_t *p)
{
    return p->protocol == TR_PROTO_RTP ? TR_RTP_HEADER_LEN : TR_SCREAM_HEADER_LEN;
}

void tr_packetizer_init(tr_packetizer_t *p, tr_protocol_t protocol, uint32_t sample_rate,
                        uint32_t ssrc, uint16_t first_sequence, uint32_t first_timestamp)
{
    memset(p, 0, sizeof *p);
    p->protocol = protocol;
    p->sample_rate = sample_rate;
    p->payload_type = sample_rate == 44100 ? TR_RTP_PT_L16_STEREO_44K1 : TR_RTP_PT_DYNAMIC_L16;
    p->ssrc = ssrc;
    p->sequence = first_sequence;
    p->timestamp = first_timestamp;
    p->marker = true;
}

static void emit_packet(tr_packetizer_t *p, tr_datagram_fn emit, void *ctx)
{
    size_t header = header_len(p);
    if (p->protocol == TR_PROTO_RTP) {
        tr_rtp_write_header(p->packet, p->marker, p->payload_type, p->sequence, p->timestamp,
                            p->ssrc);
    } else {
        tr_scream_format_t f = {p->sample_rate, 16, 2, 0x0003};
        (void)tr_scream_header(&f, p->packet); // 44.1 and 48 kHz are always expressible
    }
    emit(ctx, p->packet, header + 4u * p->frames);
    p->sequence++;
    p->timestamp += p->frames;
    p->frames = 0;
    p->marker = false;
    p->packets_sent++;
}

void tr_packetizer_push(tr_packetizer_t *p, const int16_t *frames, size_t count,
                        tr_datagram_fn emit, void *ctx)
{
    size_t header = header_len(p);
    bool big_endian = p->protocol == TR_PROTO_RTP;
    for (size_t f = 0; f < count; f++) {
        uint8_t *out = p->packet + header + 4u * p->frames;
        for (int c = 0; c < 2; c++) {
            uint16_t v = (uint16_t)frames[2 * f + (size_t)c];
            out[2 * c + (big_endian ? 0 : 1)] = (uint8_t)(v >> 8);
            out[2 * c + (big_endian ? 1 : 0)] = (uint8_t)v;
        }
        if (++p->frames == TR_PACKET_FRAMES) {
            emit_packet(p, emit, ctx);
        }
    }
}

void tr_packetizer_gap(tr_packetizer_t *p, uint32_t count)
{
    p->timestamp += p->frames + count;
    p->frames = 0;
    p->marker = true;
    p->gaps++;
}
