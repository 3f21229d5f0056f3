// The sender side: packet layout, what a receiver makes of it, and a real peer (ffmpeg) playing
// the RTP stream this firmware sends, described by the SDP it announces.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include "tr_jitter.h"
#include "tr_packetizer.h"
#include "tr_receiver.h"
#include "tr_sdp.h"

extern char **environ;

typedef struct {
    uint8_t data[8][1200];
    size_t len[8];
    int count;
} captured_t;

static void capture(void *ctx, const uint8_t *d, size_t len)
{
    captured_t *c = ctx;
    if (c->count < 8) {
        memcpy(c->data[c->count], d, len);
        c->len[c->count] = len;
    }
    c->count++;
}

static void ramp(int16_t *frames, size_t n, int start)
{
    for (size_t i = 0; i < n; i++) {
        frames[2 * i] = (int16_t)(start + (int)i);
        frames[2 * i + 1] = (int16_t)-(start + (int)i);
    }
}

static void rtp_packets_carry_l16_with_counting_timestamps(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        uint32_t rate = r ? 44100 : 48000;
        tr_packetizer_t p;
        tr_packetizer_init(&p, TR_PROTO_RTP, rate, 0xdeadbeef, 65535, 4294967000u);
        captured_t c = {0};
        int16_t frames[2 * 700];
        ramp(frames, 700, 100);
        tr_packetizer_push(&p, frames, 700, capture, &c);
        assert_int_equal(c.count, 2); // 576 frames sent, 124 waiting
        tr_rtp_packet_t a, b;
        assert_int_equal(tr_rtp_parse(c.data[0], c.len[0], &a), TR_PKT_OK);
        assert_int_equal(tr_rtp_parse(c.data[1], c.len[1], &b), TR_PKT_OK);
        assert_int_equal(a.payload_type, rate == 44100 ? 10 : 96);
        assert_true(a.marker);
        assert_false(b.marker);
        assert_int_equal(a.sequence, 65535);
        assert_int_equal(b.sequence, 0);
        assert_int_equal(b.timestamp, (uint32_t)(4294967000u + 288u));
        assert_int_equal(a.ssrc, 0xdeadbeef);
        assert_int_equal(a.payload_len, 1152);
        assert_int_equal(b.payload[0] << 8 | b.payload[1], 100 + 288); // big-endian
        // A receiver on the RTP port plays it at the right rate.
        tr_receiver_t rx;
        tr_receiver_init(&rx, TR_PROTO_RTP, 48000);
        tr_rx_audio_t audio;
        assert_int_equal(tr_receiver_classify(&rx, c.data[1], c.len[1], &audio), TR_PKT_OK);
        assert_int_equal(audio.sample_rate, rate);
        // A gap drops the partial packet and moves the timestamp on, with the marker set.
        tr_packetizer_gap(&p, 1000);
        c.count = 0;
        tr_packetizer_push(&p, frames, 288, capture, &c);
        assert_int_equal(tr_rtp_parse(c.data[0], c.len[0], &a), TR_PKT_OK);
        assert_true(a.marker);
        assert_int_equal(a.timestamp, (uint32_t)(4294967000u + 576u + 124u + 1000u));
        assert_int_equal(a.sequence, 1);
    }
}

static void scream_packets_round_trip_through_a_receiver(void **state)
{
    (void)state;
    tr_packetizer_t p;
    tr_packetizer_init(&p, TR_PROTO_SCREAM, 44100, 0, 0, 0);
    captured_t c = {0};
    int16_t frames[2 * 288];
    ramp(frames, 288, -5);
    tr_packetizer_push(&p, frames, 288, capture, &c);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.len[0], 5 + 1152);
    static const uint8_t header[5] = {0x81, 16, 2, 0x03, 0x00};
    assert_memory_equal(c.data[0], header, 5);
    tr_receiver_t rx;
    tr_receiver_init(&rx, TR_PROTO_SCREAM, 48000);
    tr_rx_audio_t audio;
    assert_int_equal(tr_receiver_classify(&rx, c.data[0], c.len[0], &audio), TR_PKT_OK);
    assert_int_equal(audio.sample_rate, 44100);
    assert_memory_equal(audio.payload, frames, 1152); // little-endian, as on this host
}

/** An even UDP port on 127.0.0.1 with the next one free too (RTP and RTCP for ffmpeg). */
static uint16_t free_port_pair(void)
{
    for (int attempt = 0; attempt < 50; attempt++) {
        int a = socket(AF_INET, SOCK_DGRAM, 0);
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t len = sizeof addr;
        assert_int_equal(bind(a, (struct sockaddr *)&addr, sizeof addr), 0);
        getsockname(a, (struct sockaddr *)&addr, &len);
        uint16_t port = ntohs(addr.sin_port);
        close(a);
        if (port % 2 || port > 65000) {
            continue;
        }
        int b = socket(AF_INET, SOCK_DGRAM, 0);
        addr.sin_port = htons((uint16_t)(port + 1));
        int ok = bind(b, (struct sockaddr *)&addr, sizeof addr) == 0;
        close(b);
        if (ok) {
            return port;
        }
    }
    fail_msg("no free UDP port pair");
    return 0;
}

typedef struct {
    int fd;
    struct sockaddr_in to;
} udp_out_t;

static void send_udp(void *ctx, const uint8_t *d, size_t len)
{
    udp_out_t *u = ctx;
    assert_int_equal(sendto(u->fd, d, len, 0, (struct sockaddr *)&u->to, sizeof u->to), (ssize_t)len);
}

static void ffmpeg_plays_the_announced_rtp_stream_bit_exact(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        uint32_t rate = r ? 44100 : 48000;
        uint16_t port = free_port_pair();
        tr_packetizer_t p;
        tr_packetizer_init(&p, TR_PROTO_RTP, rate, 0x1234, 777, 99);
        tr_sdp_stream_t stream = {"Tributary test", 1, 1, 0x7f000001, 0x7f000001, 0, port,
                                  p.payload_type, rate, 2};
        char sdp[512];
        assert_true(tr_sdp_write(sdp, sizeof sdp, &stream) > 0);
        char dir[] = "/tmp/tr-sender-XXXXXX";
        assert_non_null(mkdtemp(dir));
        char sdp_path[64], raw_path[64];
        snprintf(sdp_path, sizeof sdp_path, "%s/stream.sdp", dir);
        snprintf(raw_path, sizeof raw_path, "%s/out.raw", dir);
        FILE *f = fopen(sdp_path, "w");
        fputs(sdp, f);
        fclose(f);
        char *argv[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-protocol_whitelist",
                        "file,udp,rtp", "-i", sdp_path, "-t", "1", "-f", "s16le", "-y",
                        raw_path, NULL};
        pid_t pid;
        assert_int_equal(posix_spawnp(&pid, "ffmpeg", NULL, NULL, argv, environ), 0);
        udp_out_t out = {socket(AF_INET, SOCK_DGRAM, 0),
                         {.sin_family = AF_INET, .sin_port = htons(port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}};
        // Paced like the device: a packet every 288 frames, for up to 6 s (ffmpeg needs a moment
        // to start listening; it keeps the first second it hears).
        int16_t frames[2 * 288];
        int next = 0;
        struct timespec tick = {0, (long)(288.0 / rate * 1e9)};
        int status = -1;
        for (int k = 0; k < 6 * (int)rate / 288; k++) {
            ramp(frames, 288, next);
            next += 288;
            tr_packetizer_push(&p, frames, 288, send_udp, &out);
            nanosleep(&tick, NULL);
            if (waitpid(pid, &status, WNOHANG) == pid) {
                break;
            }
        }
        if (status == -1) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fail_msg("ffmpeg did not finish");
        }
        close(out.fd);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        size_t len;
        f = fopen(raw_path, "rb");
        assert_non_null(f);
        static int16_t got[2 * 48000];
        len = fread(got, 4, 48000, f);
        fclose(f);
        remove(raw_path);
        remove(sdp_path);
        rmdir(dir);
        assert_int_equal(len, rate); // exactly one second
        // Bit-exact: a continuous ramp (wrapping at 16 bits), left = -right, from wherever
        // ffmpeg started listening.
        for (size_t i = 1; i < len; i++) {
            assert_int_equal((int16_t)(got[2 * (i - 1)] + 1), got[2 * i]);
            assert_int_equal(got[2 * i], (int16_t)-got[2 * i + 1]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rtp_packets_carry_l16_with_counting_timestamps),
        cmocka_unit_test(scream_packets_round_trip_through_a_receiver),
        cmocka_unit_test(ffmpeg_plays_the_announced_rtp_stream_bit_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
