// The jitter buffer's rules, one behaviour at a time (the drift/loss simulation is separate).
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "tr_jitter.h"

#define CAP 16384u
static int16_t ring[CAP * 2];
static uint32_t present[TR_JITTER_PRESENT_WORDS(CAP)];
static const tr_jitter_config_t ADAPTIVE = {.adaptive = true, .min_ms = 20, .max_ms = 200, .max_ppm = 5000};
static const tr_jitter_config_t FIXED_40 = {.adaptive = false, .min_ms = 40, .max_ms = 200, .max_ppm = 5000};

/** 288 frames of L16 (big-endian): left = base + i, right = -(base + i). */
static void l16(uint8_t *out, int base, int frames)
{
    for (int i = 0; i < frames; i++) {
        int16_t l = (int16_t)(base + i), r = (int16_t)-(base + i);
        out[4 * i] = (uint8_t)((uint16_t)l >> 8);
        out[4 * i + 1] = (uint8_t)l;
        out[4 * i + 2] = (uint8_t)((uint16_t)r >> 8);
        out[4 * i + 3] = (uint8_t)r;
    }
}

static void push(tr_jitter_t *jb, uint16_t seq, int64_t at_us)
{
    uint8_t p[1152];
    l16(p, (uint16_t)(seq - 65530) * 288 % 20000, 288);
    tr_jitter_push_rtp(jb, seq, (uint32_t)(uint16_t)(seq - 65530) * 288u, p, sizeof p, at_us);
}

static void counts_loss_reordering_and_late_packets(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &ADAPTIVE);
    int64_t t = 0;
    const uint16_t order[] = {65530, 65531, 65533, 65532, 65535, 0, 1};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        push(&jb, order[i], t += 6000);
    }
    assert_int_equal(jb.stats.packets, 7);
    assert_int_equal(jb.stats.reordered, 1);
    assert_int_equal(jb.stats.lost, 1); // 65534 never came
    // Play past everything, then 65534 arrives: late, and no longer lost (RFC 3550 counts it).
    int16_t out[2 * 4096];
    tr_jitter_read(&jb, out, 2000, 48000, t);
    tr_jitter_read(&jb, out, 10, 48000, t + 42000);
    push(&jb, 65534, t + 43000);
    assert_int_equal(jb.stats.late, 1);
    assert_int_equal(jb.stats.lost, 0);
    push(&jb, 65531, t + 44000); // long played
    assert_int_equal(jb.stats.late, 2);
}

static void waits_for_the_target_then_plays_the_samples_in_order(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &FIXED_40);
    int16_t out[2 * 240];
    int64_t next_packet = 0;
    uint16_t seq = 65530;
    int64_t started = -1;
    for (int64_t t = 0; t < 200000; t += 5000) {
        while (next_packet <= t) {
            push(&jb, seq++, next_packet);
            next_packet += 6000;
        }
        tr_jitter_read(&jb, out, 240, 48000, t);
        if (!jb.playing) {
            for (int i = 0; i < 480; i++) {
                assert_int_equal(out[i], 0);
            }
            continue;
        }
        if (started < 0) {
            started = t;
            continue; // the block with the fade-in
        }
        // The ramp itself: left = -right, rising by one per frame.
        for (int i = 1; i < 240; i++) {
            assert_int_equal(out[2 * i], -out[2 * i + 1]);
            assert_in_range(out[2 * i] - out[2 * i - 2], 0, 2);
        }
    }
    // Packets' first frames are due on arrival: 40 ms are queued (after the 5 ms block) from
    // 45 ms on, and the read at 45 ms starts.
    assert_int_equal(started, 45000);
    assert_int_equal(jb.stats.concealed_frames, 0);
    assert_int_equal(jb.stats.underruns, 0);
    assert_in_range((int)tr_jitter_level_ms(&jb), 39, 41);
}

static void a_lost_packet_is_concealed_without_an_underrun(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &FIXED_40);
    int16_t out[2 * 240];
    int64_t next_packet = 0;
    uint16_t seq = 65530;
    for (int64_t t = 0; t < 400000; t += 5000) {
        while (next_packet <= t) {
            if (seq != 20) {
                push(&jb, seq, next_packet);
            }
            seq++;
            next_packet += 6000;
        }
        tr_jitter_read(&jb, out, 240, 48000, t);
    }
    assert_int_equal(jb.stats.lost, 1);
    assert_in_range(jb.stats.concealed_frames, 286, 290);
    assert_int_equal(jb.stats.underruns, 0);
}

static void a_stall_is_an_underrun_and_the_adaptive_target_grows(void **state)
{
    (void)state;
    for (int adaptive = 0; adaptive <= 1; adaptive++) {
        tr_jitter_t jb;
        tr_jitter_init(&jb, ring, present, CAP, 48000, adaptive ? &ADAPTIVE : &FIXED_40);
        int16_t out[2 * 240];
        int64_t next_packet = 0;
        uint16_t seq = 1;
        float before = 0;
        for (int64_t t = 0; t < 2000000; t += 5000) {
            while (next_packet <= t) {
                // Packets 100-116 are held up 120 ms, then arrive in a burst.
                int64_t arrival = (seq >= 100 && seq <= 116) ? 100 * 6000 + 120000 : next_packet;
                if (arrival <= t) {
                    push(&jb, seq++, arrival);
                    next_packet += 6000;
                } else {
                    break;
                }
            }
            if (t == 500000) {
                before = tr_jitter_target_ms(&jb);
            }
            tr_jitter_read(&jb, out, 240, 48000, t);
        }
        assert_int_equal(jb.stats.underruns, 1);
        float after = tr_jitter_target_ms(&jb);
        if (adaptive) {
            assert_true(after >= before + 9.0f);
        } else {
            assert_float_equal(after, 40.0f, 0.01f);
        }
    }
}

static void adaptive_target_tracks_jitter_within_its_bounds(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &ADAPTIVE);
    assert_float_equal(tr_jitter_target_ms(&jb), 20.0f, 0.01f);
    int64_t t = 0;
    uint8_t p[1152];
    l16(p, 0, 288);
    for (uint32_t seq = 0; seq < 2000; seq++) {
        t += 6000 + (seq % 2 ? -30000 : 30000);
        tr_jitter_push_rtp(&jb, (uint16_t)seq, seq * 288, p, sizeof p, t < 0 ? 0 : t);
    }
    float ms = tr_jitter_target_ms(&jb);
    assert_true(ms > 100.0f && ms <= 200.0f);
    tr_jitter_config_t fixed = {.adaptive = false, .min_ms = 5, .max_ms = 500, .max_ppm = 5000};
    tr_jitter_set_config(&jb, &fixed);
    assert_float_equal(tr_jitter_target_ms(&jb), 20.0f, 0.01f); // clamped to the router's floor
}

static void scream_frames_straddling_packets_are_reassembled(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &FIXED_40);
    uint8_t stream[4 * 3000];
    for (int i = 0; i < 3000; i++) {
        int16_t l = (int16_t)i, r = (int16_t)(1000 - i);
        memcpy(stream + 4 * i, &l, 2); // little-endian host
        memcpy(stream + 4 * i + 2, &r, 2);
    }
    size_t at = 0;
    size_t sizes[] = {1151, 1, 1150, 3, 1152, 7};
    for (int k = 0; at < sizeof stream; k++) {
        size_t n = sizes[k % 6] < sizeof stream - at ? sizes[k % 6] : sizeof stream - at;
        tr_jitter_push_scream(&jb, stream + at, n, k * 6000);
        at += n;
    }
    assert_int_equal(jb.write_head - jb.read_pos, 3000);
    for (uint64_t p = jb.read_pos; p < jb.write_head; p++) {
        uint32_t i = (uint32_t)(p & (CAP - 1));
        int n = (int)(p - jb.read_pos);
        assert_int_equal(ring[2 * i], n);
        assert_int_equal(ring[2 * i + 1], 1000 - n);
    }
}

static void a_sender_restart_resyncs_ahead_of_playback(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &FIXED_40);
    int16_t out[2 * 240];
    uint8_t p[1152];
    l16(p, 0, 288);
    for (uint32_t i = 0; i < 20; i++) {
        tr_jitter_push_rtp(&jb, (uint16_t)(10 + i), 1000 + i * 288, p, sizeof p, i * 6000);
        tr_jitter_read(&jb, out, 240, 48000, i * 6000);
    }
    tr_jitter_push_rtp(&jb, 40000, 77, p, sizeof p, 121000);
    assert_int_equal(jb.stats.resyncs, 1);
    assert_true(jb.write_head >= jb.read_pos + 40 * 48);
}

static void audio_nobody_plays_is_dropped_oldest_first(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &ADAPTIVE);
    uint8_t p[1152];
    for (uint32_t i = 0; i < 200; i++) { // 1.2 s, never read
        l16(p, (int)i, 288);
        tr_jitter_push_rtp(&jb, (uint16_t)i, i * 288, p, sizeof p, i * 6000);
    }
    assert_true(jb.stats.overflows > 0);
    assert_true(jb.write_head - jb.read_pos <= CAP);
    // The newest packet is intact.
    uint32_t last = (uint32_t)((jb.write_head - 1) & (CAP - 1));
    assert_int_equal(ring[2 * last], 199 + 287);
}

static void a_resumed_stream_does_not_play_the_pause(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &FIXED_40);
    int16_t out[2 * 240];
    int64_t next = 0;
    uint32_t seq = 0;
    for (int64_t t = 0; t < 3000000; t += 5000) {
        // The sender pauses from 1.0 s to 1.9 s, its timestamps running on (as RTP's do).
        while (next <= t) {
            if (next < 1000000 || next >= 1900000) {
                push(&jb, (uint16_t)seq, next);
            }
            seq++;
            next += 6000;
        }
        tr_jitter_read(&jb, out, 240, 48000, t);
    }
    float level = tr_jitter_level_ms(&jb);
    assert_in_range((int)level, 36, 50);
    assert_int_equal(jb.stats.underruns, 0); // the sender stopped: not counted as a stall
}

static void a_44k1_stream_plays_at_the_right_pitch_on_a_48k_output(void **state)
{
    (void)state;
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 44100, &FIXED_40);
    static int16_t out[2 * 48000];
    uint8_t p[1152];
    double phase = 0;
    int64_t next = 0;
    uint32_t ts = 0;
    size_t got = 0;
    for (int64_t t = 0; got < 48000; t += 5000) {
        while (next <= t) {
            for (int i = 0; i < 288; i++) {
                int16_t v = (int16_t)(10000 * sin(phase));
                phase += 2 * M_PI * 1000 / 44100;
                p[4 * i] = p[4 * i + 2] = (uint8_t)((uint16_t)v >> 8);
                p[4 * i + 1] = p[4 * i + 3] = (uint8_t)v;
            }
            tr_jitter_push_rtp(&jb, (uint16_t)(ts / 288), ts, p, sizeof p, next);
            ts += 288;
            next += 288 * 1000000 / 44100;
        }
        int16_t block[2 * 240];
        tr_jitter_read(&jb, block, 240, 48000, t);
        if (jb.playing && t > 200000) {
            memcpy(out + 2 * got, block, sizeof block);
            got += 240;
        }
    }
    int crossings = 0;
    for (size_t i = 1; i < 48000; i++) {
        crossings += (out[2 * (i - 1)] < 0) != (out[2 * i] < 0);
    }
    assert_in_range(crossings, 1998, 2002); // 1 kHz over one second of 48 kHz output
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_loss_reordering_and_late_packets),
        cmocka_unit_test(waits_for_the_target_then_plays_the_samples_in_order),
        cmocka_unit_test(a_lost_packet_is_concealed_without_an_underrun),
        cmocka_unit_test(a_stall_is_an_underrun_and_the_adaptive_target_grows),
        cmocka_unit_test(adaptive_target_tracks_jitter_within_its_bounds),
        cmocka_unit_test(scream_frames_straddling_packets_are_reassembled),
        cmocka_unit_test(a_sender_restart_resyncs_ahead_of_playback),
        cmocka_unit_test(audio_nobody_plays_is_dropped_oldest_first),
        cmocka_unit_test(a_resumed_stream_does_not_play_the_pause),
        cmocka_unit_test(a_44k1_stream_plays_at_the_right_pitch_on_a_48k_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
