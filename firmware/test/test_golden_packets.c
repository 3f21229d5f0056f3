// The golden packets in testdata/packets (shared with the router engine's Rust tests): real
// ffmpeg and GStreamer datagrams, Scream packets and broken ones, parsed as expected.tsv says.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tr_ipv4.h"
#include "tr_receiver.h"
#include "tr_rtp.h"
#include "tr_sap.h"
#include "tr_scream.h"
#include "tr_sdp.h"

static int16_t sample(const uint8_t *p, bool big_endian)
{
    return (int16_t)(uint16_t)(big_endian ? (p[0] << 8) | p[1] : (p[1] << 8) | p[0]);
}

/** samples=L,R,L,R and last=L,R against the payload. */
static void check_samples(const tr_golden_row_t *row, const uint8_t *payload, size_t len,
                          bool big_endian)
{
    char buf[64];
    if (tr_golden_field(row, "samples", buf, sizeof buf) == NULL) {
        return;
    }
    int want[6];
    char last[64];
    assert_non_null(tr_golden_field(row, "last", last, sizeof last));
    assert_int_equal(sscanf(buf, "%d,%d,%d,%d", &want[0], &want[1], &want[2], &want[3]), 4);
    assert_int_equal(sscanf(last, "%d,%d", &want[4], &want[5]), 2);
    size_t at[6] = {0, 2, 4, 6, len - 4, len - 2};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(sample(payload + at[i], big_endian), want[i]);
    }
}

static void check_scream(const tr_golden_row_t *row, const uint8_t *data, size_t len)
{
    tr_scream_packet_t p;
    tr_pkt_result_t r = tr_scream_parse(data, len, &p);
    assert_string_equal(tr_pkt_result_name(r), row->verdict);
    if (r != TR_PKT_OK) {
        return;
    }
    assert_int_equal(p.format.sample_rate, tr_golden_int(row, "rate"));
    assert_int_equal(p.format.bit_depth, tr_golden_int(row, "depth"));
    assert_int_equal(p.format.channels, tr_golden_int(row, "channels"));
    assert_int_equal(p.format.channel_mask, tr_golden_int(row, "mask"));
    assert_int_equal(p.payload_len, tr_golden_int(row, "payload"));
    check_samples(row, p.payload, p.payload_len, false);
    uint8_t header[TR_SCREAM_HEADER_LEN];
    assert_true(tr_scream_header(&p.format, header));
    assert_memory_equal(header, data, TR_SCREAM_HEADER_LEN);
}

static void check_rtp(const tr_golden_row_t *row, const uint8_t *data, size_t len)
{
    tr_rtp_packet_t p;
    tr_pkt_result_t r = tr_rtp_parse(data, len, &p);
    assert_string_equal(tr_pkt_result_name(r), row->verdict);
    if (r != TR_PKT_OK) {
        return;
    }
    assert_int_equal(p.payload_type, tr_golden_int(row, "pt"));
    assert_int_equal(p.marker, tr_golden_int(row, "marker"));
    assert_int_equal(p.sequence, tr_golden_int(row, "seq"));
    assert_int_equal(p.timestamp, tr_golden_int(row, "timestamp"));
    assert_int_equal(p.ssrc, tr_golden_int(row, "ssrc"));
    assert_int_equal(p.payload_len, tr_golden_int(row, "payload"));
    check_samples(row, p.payload, p.payload_len, true);
    uint8_t header[TR_RTP_HEADER_LEN];
    tr_rtp_write_header(header, p.marker, p.payload_type, p.sequence, p.timestamp, p.ssrc);
    assert_memory_equal(header, data, TR_RTP_HEADER_LEN);
}

static void check_sap(const tr_golden_row_t *row, const uint8_t *data, size_t len)
{
    tr_sap_packet_t sap;
    tr_pkt_result_t r = tr_sap_parse(data, len, &sap);
    assert_string_equal(tr_pkt_result_name(r), row->verdict);
    if (r != TR_PKT_OK) {
        return;
    }
    char buf[64];
    char ip[TR_IPV4_TEXT_MAX];
    assert_int_equal(sap.msg_id_hash, tr_golden_int(row, "msgid"));
    tr_ipv4_format(sap.origin_ipv4, ip);
    assert_string_equal(ip, tr_golden_field(row, "origin", buf, sizeof buf));
    tr_sdp_audio_t sdp;
    assert_int_equal(tr_sdp_parse_audio(sap.sdp, sap.sdp_len, &sdp), TR_PKT_OK);
    assert_int_equal(sdp.port, tr_golden_int(row, "port"));
    assert_int_equal(sdp.payload_type, tr_golden_int(row, "pt"));
    assert_string_equal(sdp.encoding, tr_golden_field(row, "encoding", buf, sizeof buf));
    assert_int_equal(sdp.sample_rate, tr_golden_int(row, "rate"));
    assert_int_equal(sdp.channels, tr_golden_int(row, "channels"));
    tr_ipv4_format(sdp.connection_ipv4, ip);
    assert_string_equal(ip, tr_golden_field(row, "connection", buf, sizeof buf));
    // Re-announcing what was heard gives a packet the parser reads back the same way.
    uint8_t again[512];
    size_t n = tr_sap_write(again, sizeof again, false, sap.msg_id_hash, sap.origin_ipv4, sap.sdp,
                            sap.sdp_len);
    assert_int_equal(n, len);
    assert_memory_equal(again, data, len);
}

static void every_golden_packet_parses_as_the_table_says(void **state)
{
    (void)state;
    static tr_golden_row_t rows[64];
    size_t n = tr_golden_rows(rows, 64);
    assert_true(n >= 13);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char path[160];
        snprintf(path, sizeof path, "packets/%s", rows[i].file);
        uint8_t *data = tr_test_read(path, &len);
        if (strcmp(rows[i].kind, "scream") == 0) {
            check_scream(&rows[i], data, len);
        } else if (strcmp(rows[i].kind, "rtp") == 0) {
            check_rtp(&rows[i], data, len);
        } else if (strcmp(rows[i].kind, "sap") == 0) {
            check_sap(&rows[i], data, len);
        } else {
            fail_msg("unknown kind %s", rows[i].kind);
        }
        free(data);
    }
}

/** What the ESP32-S3 receiver makes of each golden packet on its own protocol's port. */
static void the_receiver_plays_only_16_bit_stereo(void **state)
{
    (void)state;
    static tr_golden_row_t rows[64];
    size_t n = tr_golden_rows(rows, 64);
    int played = 0;
    for (size_t i = 0; i < n; i++) {
        bool scream = strcmp(rows[i].kind, "scream") == 0;
        if (!scream && strcmp(rows[i].kind, "rtp") != 0) {
            continue;
        }
        size_t len;
        char path[160];
        snprintf(path, sizeof path, "packets/%s", rows[i].file);
        uint8_t *data = tr_test_read(path, &len);
        tr_receiver_t rx;
        tr_receiver_init(&rx, scream ? TR_PROTO_SCREAM : TR_PROTO_RTP, 48000);
        tr_rx_audio_t audio;
        tr_pkt_result_t r = tr_receiver_classify(&rx, data, len, &audio);
        char buf[32];
        const char *want = rows[i].verdict;
        if (strcmp(want, "ok") == 0 && tr_golden_field(&rows[i], "esp32", buf, sizeof buf)) {
            want = buf; // "unsupported"
        }
        assert_string_equal(tr_pkt_result_name(r), want);
        if (r == TR_PKT_OK) {
            played++;
            long long rate = scream ? tr_golden_int(&rows[i], "rate")
                             : tr_golden_int(&rows[i], "pt") == 10 ? 44100 : 48000;
            assert_int_equal(audio.sample_rate, rate);
            assert_int_equal(audio.payload_len, 1152);
        }
        free(data);
    }
    assert_int_equal(played, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_golden_packet_parses_as_the_table_says),
        cmocka_unit_test(the_receiver_plays_only_16_bit_stereo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
