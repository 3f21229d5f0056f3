// Drift and loss simulation: a sender whose clock runs fast or slow sends 6 ms L16 packets over a
// network with jitter, loss, reordering and stalls; the output reads 5 ms blocks at exactly
// 48 kHz. Prints the figures (correction vs true drift, fill error, latency, concealment,
// underruns, sine SNR through the resampler) and asserts the bounds the firmware promises.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tr_jitter.h"

#define CAP 16384u
#define RATE 48000
#define PACKET 288
#define BLOCK 240

typedef struct {
    const char *name;
    double drift_ppm;   // sender clock error
    double jitter_ms;   // standard deviation of the extra delay (half-normal)
    double loss;        // probability a packet is lost
    double stall_every_s; // 0, or a stall of stall_ms every this many seconds
    double stall_ms;
    double seconds;
    bool adaptive;
} scenario_t;

typedef struct {
    double correction_ppm; // the controller's drift estimate, mean over the second half
    double level_error_ms; // RMS of (level - target) over the second half
    double latency_ms;     // mean time from a frame's packet arrival to its output
    double max_latency_ms;
    double target_ms;      // at the end
    uint32_t lost_packets;
    uint64_t concealed_frames;
    uint32_t underruns;
    uint32_t late_underruns; // in the second half
    double snr_db;         // of a 1 kHz sine after the buffer (second half)
    double max_pitch_ppm;  // largest correction on top of the drift (second half)
} result_t;

typedef struct {
    double arrival_s;
    uint32_t index;
} packet_t;

static int by_arrival(const void *a, const void *b)
{
    double d = ((const packet_t *)a)->arrival_s - ((const packet_t *)b)->arrival_s;
    return d < 0 ? -1 : d > 0;
}

/**
 * Adds the fitted tone's power and the residual's power over one window. The basis has the tone
 * and the tone times t (centred), so a frequency a few ppm off the nominal one is still fitted.
 */
static void fit_window(const double *y, size_t n, double tone, uint64_t first, double *signal,
                       double *noise)
{
    enum { K = 5 };
    double m[K][K + 1] = {{0}};
    double mid = (double)(first + n / 2) / RATE;
    for (size_t k = 0; k < n; k++) {
        double t = (double)(first + k) / RATE;
        double u = t - mid;
        double sn = sin(2 * M_PI * tone * t), cs = cos(2 * M_PI * tone * t);
        double basis[K] = {sn, cs, u * sn, u * cs, 1.0};
        for (int i = 0; i < K; i++) {
            for (int j = 0; j < K; j++) {
                m[i][j] += basis[i] * basis[j];
            }
            m[i][K] += basis[i] * y[k];
        }
    }
    for (int i = 0; i < K; i++) { // Gaussian elimination, then back substitution
        for (int j = i + 1; j < K; j++) {
            double f = m[j][i] / m[i][i];
            for (int k = i; k <= K; k++) {
                m[j][k] -= f * m[i][k];
            }
        }
    }
    double c[K];
    for (int i = K - 1; i >= 0; i--) {
        double v = m[i][K];
        for (int k = i + 1; k < K; k++) {
            v -= m[i][k] * c[k];
        }
        c[i] = v / m[i][i];
    }
    for (size_t k = 0; k < n; k++) {
        double t = (double)(first + k) / RATE;
        double u = t - mid;
        double sn = sin(2 * M_PI * tone * t), cs = cos(2 * M_PI * tone * t);
        double tone_fit = (c[0] + c[2] * u) * sn + (c[1] + c[3] * u) * cs;
        double fit = tone_fit + c[4];
        *signal += tone_fit * tone_fit;
        *noise += (y[k] - fit) * (y[k] - fit);
    }
}

static int16_t ring[CAP * 2];
static uint32_t present[TR_JITTER_PRESENT_WORDS(CAP)];

static result_t run(const scenario_t *sc)
{
    tr_rng_t rng = {0x9e3779b97f4a7c15ull};
    double sender_rate = RATE * (1.0 + sc->drift_ppm * 1e-6);
    uint32_t packets = (uint32_t)(sc->seconds * sender_rate / PACKET);
    packet_t *list = calloc(packets, sizeof *list);
    double *arrival_of = calloc(packets, sizeof *arrival_of);
    uint32_t n = 0;
    result_t r = {0};
    for (uint32_t i = 0; i < packets; i++) {
        double sent = (double)(i + 1) * PACKET / sender_rate; // its last frame exists
        double delay = 0.002 + fabs(tr_rng_normal(&rng)) * sc->jitter_ms / 1000.0;
        if (sc->stall_every_s > 0) {
            double phase = fmod(sent, sc->stall_every_s);
            if (sent > sc->stall_every_s && phase < sc->stall_ms / 1000.0) {
                delay += sc->stall_ms / 1000.0 - phase; // held until the stall ends
            }
        }
        if (tr_rng_unit(&rng) < sc->loss) {
            r.lost_packets++;
            continue;
        }
        list[n++] = (packet_t){sent + delay, i};
        arrival_of[i] = sent + delay;
    }
    qsort(list, n, sizeof *list, by_arrival);

    tr_jitter_config_t config = {.adaptive = sc->adaptive, .min_ms = 20, .max_ms = 200, .max_ppm = 5000};
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, RATE, &config);
    uint8_t payload[PACKET * 4];
    int16_t out[BLOCK * 2];
    double sum_ppm = 0, sum_err2 = 0, sum_latency = 0;
    uint64_t samples = 0, latency_samples = 0;
    // SNR of the tone: least-squares fits at the tone's frequency in output time over 100 ms
    // windows free of concealment. The output reads the stream (1 + ratio) times as fast as
    // nominal, so the tone sits at 1 kHz * (1 + ratio): a pitch offset of a few hundred ppm at
    // most (reported separately), not noise. Windows where the ratio stepped (the adaptive target
    // jumping after a stall) are left out: a 0.1 % pitch step is not noise either.
    double signal_power = 0, noise_power = 0, ratio_sum = 0, ratio_min = 0, ratio_max = 0;
    static double window[4800];
    size_t filled = 0;
    uint64_t window_start = 0;
    bool recovering = false;
    uint32_t next = 0;
    uint64_t blocks = (uint64_t)(sc->seconds * RATE / BLOCK) - 40;
    for (uint64_t b = 0; b < blocks; b++) {
        double now = (double)(b * BLOCK) / RATE;
        int64_t now_us = (int64_t)(now * 1e6);
        while (next < n && list[next].arrival_s <= now) {
            uint32_t i = list[next].index;
            for (int k = 0; k < PACKET; k++) {
                // The sender samples a 1 kHz tone by its own clock (it believes it is 48 kHz).
                uint32_t j = i * PACKET + (uint32_t)k;
                int16_t v = (int16_t)lrint(16000.0 * sin(2 * M_PI * 1000.0 * j / RATE));
                payload[4 * k] = payload[4 * k + 2] = (uint8_t)((uint16_t)v >> 8);
                payload[4 * k + 1] = payload[4 * k + 3] = (uint8_t)v;
            }
            tr_jitter_push_rtp(&jb, (uint16_t)i, i * PACKET, payload, sizeof payload,
                               (int64_t)(list[next].arrival_s * 1e6));
            next++;
        }
        uint64_t pos_before = jb.read_pos;
        bool was_playing = jb.playing;
        uint64_t concealed_before = jb.stats.concealed_frames;
        tr_jitter_read(&jb, out, BLOCK, RATE, now_us);
        if (!was_playing || !jb.playing || jb.read_pos < pos_before) {
            filled = 0; // silence while the buffer refills: the next window starts afresh
            recovering = true;
            continue;
        }
        // The frame now leaving: which packet it came in, and when that packet arrived.
        int64_t first_pos = (int64_t)pos_before - jb.ts_offset - (1ll << 40); // stream timestamp
        if (first_pos >= 0 && (uint64_t)first_pos / PACKET < packets) {
            double arrived = arrival_of[first_pos / PACKET];
            if (arrived > 0 && arrived <= now) {
                double latency = (now - arrived) * 1000.0;
                sum_latency += latency;
                latency_samples++;
                if (b > blocks / 2 && latency > r.max_latency_ms) {
                    r.max_latency_ms = latency;
                }
            }
        }
        if (b == blocks / 2) {
            r.late_underruns = jb.stats.underruns;
        }
        if (b > blocks / 2) {
            double err = tr_jitter_level_ms(&jb) - tr_jitter_target_ms(&jb);
            sum_err2 += err * err;
            sum_ppm += tr_jitter_drift_ppm(&jb);
            samples++;
            bool disturbed = jb.stats.concealed_frames != concealed_before ||
                             jb.read_pos - pos_before > BLOCK + 2;
            bool after_gap = recovering;
            recovering = disturbed;
            if (disturbed || after_gap) { // concealment, its fade-in, or a skip
                filled = 0; // a gap or a skip: start a new window
                continue;
            }
            if (filled == 0) {
                window_start = b * BLOCK;
                ratio_sum = 0;
                ratio_min = ratio_max = jb.ratio_ppm;
            }
            ratio_sum += jb.ratio_ppm;
            ratio_min = jb.ratio_ppm < ratio_min ? jb.ratio_ppm : ratio_min;
            ratio_max = jb.ratio_ppm > ratio_max ? jb.ratio_ppm : ratio_max;
            double offset = fabs(jb.ratio_ppm - sc->drift_ppm);
            if (offset > r.max_pitch_ppm) {
                r.max_pitch_ppm = offset;
            }
            for (int k = 0; k < BLOCK; k++) {
                window[filled++] = out[2 * k];
            }
            if (filled == 4800 && ratio_max - ratio_min > 50.0) {
                filled = 0;
            } else if (filled == 4800) {
                double tone = 1000.0 * (1.0 + ratio_sum / (4800 / BLOCK) * 1e-6);
                fit_window(window, filled, tone, window_start, &signal_power, &noise_power);
                filled = 0;
            }
        }
    }
    r.snr_db = 10.0 * log10(signal_power / (noise_power > 1e-9 ? noise_power : 1e-9));
    r.correction_ppm = sum_ppm / (double)samples;
    r.level_error_ms = sqrt(sum_err2 / (double)samples);
    r.latency_ms = sum_latency / (double)(latency_samples ? latency_samples : 1);
    r.target_ms = tr_jitter_target_ms(&jb);
    r.concealed_frames = jb.stats.concealed_frames;
    r.underruns = jb.stats.underruns;
    r.late_underruns = jb.stats.underruns - r.late_underruns;
    printf("# sim %-28s drift %+6.0f ppm, estimated %+7.1f ppm | level-target RMS %5.2f ms | "
           "target %5.1f ms | latency mean %5.1f max %5.1f ms | lost %u pkts, concealed %llu "
           "frames | underruns %u (%u in 2nd half) | 1 kHz SNR %5.1f dB, pitch within %.0f ppm\n",
           sc->name, sc->drift_ppm, r.correction_ppm, r.level_error_ms, r.target_ms, r.latency_ms,
           r.max_latency_ms, r.lost_packets, (unsigned long long)r.concealed_frames, r.underruns,
           r.late_underruns, r.snr_db, r.max_pitch_ppm);
    free(list);
    free(arrival_of);
    return r;
}

static void clean_network_fast_sender(void **state)
{
    (void)state;
    scenario_t sc = {"clean, fast clock", 100, 0.3, 0, 0, 0, 120, true};
    result_t r = run(&sc);
    assert_true(fabs(r.correction_ppm - 100) < 2);
    assert_true(r.level_error_ms < 0.5);
    assert_int_equal(r.underruns, 0);
    assert_int_equal(r.concealed_frames, 0);
    // 20 ms target + half a 6 ms packet + the 5 ms block the output takes at once.
    assert_true(r.latency_ms < 30.0);
    assert_true(r.snr_db > 85.0); // a -6 dBFS tone in 16 bits allows about 92 dB
}

static void wifi_jitter_and_loss_slow_sender(void **state)
{
    (void)state;
    scenario_t sc = {"jitter 3 ms, 2% loss, slow", -300, 3.0, 0.02, 0, 0, 120, true};
    result_t r = run(&sc);
    assert_true(fabs(r.correction_ppm + 300) < 2);
    assert_int_equal(r.underruns, 0);
    assert_true(r.level_error_ms < 1.5);
    assert_true(r.snr_db > 70.0);
    // Every lost packet is concealed, and nothing else is (within the packets at the edges).
    double lost_frames = r.lost_packets * (double)PACKET;
    assert_true(fabs((double)r.concealed_frames - lost_frames) < 0.05 * lost_frames + 2 * PACKET);
}

static void stalls_grow_the_adaptive_target(void **state)
{
    (void)state;
    scenario_t sc = {"80 ms stall every 3 s", 50, 1.0, 0.005, 3, 80, 120, true};
    result_t r = run(&sc);
    assert_true(r.target_ms >= 60.0);
    // The first stalls teach the target (+10 ms per underrun, and the longest recent gap);
    // of the 39 stalls, later ones are absorbed.
    assert_true(r.underruns <= 5);
    assert_true(r.late_underruns <= 2);
    assert_true(fabs(r.correction_ppm - 50) < 2);
}

static void a_fixed_buffer_underruns_on_every_stall(void **state)
{
    (void)state;
    scenario_t sc = {"same stalls, fixed 20 ms", 50, 1.0, 0.005, 3, 80, 120, false};
    result_t r = run(&sc);
    assert_float_equal(r.target_ms, 20.0, 0.01);
    assert_true(r.underruns >= 35); // nearly every one of the 39 stalls
    assert_true(fabs(r.correction_ppm - 50) < 2);
}

static void heavy_jitter_grows_the_target_and_keeps_the_clock(void **state)
{
    (void)state;
    scenario_t sc = {"jitter 15 ms, 1% loss", 20, 15.0, 0.01, 0, 0, 120, true};
    result_t r = run(&sc);
    assert_true(fabs(r.correction_ppm - 20) < 2);
    assert_true(r.target_ms > 20.0);
    assert_true(r.late_underruns <= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_network_fast_sender),
        cmocka_unit_test(heavy_jitter_grows_the_target_and_keeps_the_clock),
        cmocka_unit_test(wifi_jitter_and_loss_slow_sender),
        cmocka_unit_test(stalls_grow_the_adaptive_target),
        cmocka_unit_test(a_fixed_buffer_underruns_on_every_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
