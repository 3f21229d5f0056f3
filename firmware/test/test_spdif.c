// S/PDIF in software: the encoder's line signal against the standard's rules, and the decoder
// recovering it from an oversampled capture whose clock is not locked to the sender's.
#include <string.h>

#include "test_support.h"
#include "tr_spdif.h"

/** The 64 cells of subframe `s` (0 = left of frame 0) as 0/1 values. */
static void cells_of(const uint32_t *words, size_t s, uint8_t cells[64])
{
    for (int i = 0; i < 64; i++) {
        cells[i] = (uint8_t)(words[2 * s + (size_t)i / 32] >> (31 - i % 32) & 1);
    }
}

static void the_line_follows_biphase_mark_rules(void **state)
{
    (void)state;
    tr_spdif_encoder_t e;
    tr_spdif_encoder_init(&e, 48000);
    int16_t frames[2 * 200];
    for (int i = 0; i < 400; i++) {
        frames[i] = (int16_t)(i * 997 - 30000);
    }
    static uint32_t words[4 * 200];
    tr_spdif_encode(&e, frames, 200, words);
    uint8_t prev_last = 0;
    for (size_t s = 0; s < 400; s++) {
        uint8_t c[64];
        cells_of(words, s, c);
        // Preamble: B on the first left subframe of the block, M on other lefts, W on rights.
        uint8_t pre = 0;
        for (int i = 0; i < 8; i++) {
            pre = (uint8_t)(pre << 1 | c[i]);
        }
        assert_int_equal(pre, s % 384 == 0 ? 0xE8 : s % 2 ? 0xE4 : 0xE2);
        assert_int_not_equal(c[0], prev_last); // a transition into every preamble
        // Slots 4-31: a transition at every bit boundary; a mid-bit one exactly for ones.
        uint32_t bits = 0;
        int ones = 0;
        for (int slot = 4; slot < 32; slot++) {
            uint8_t before = c[2 * slot - 1], first = c[2 * slot], second = c[2 * slot + 1];
            assert_int_not_equal(first, before);
            if (first != second) {
                bits |= 1u << (slot - 4);
                ones++;
            }
        }
        assert_int_equal(ones % 2, 0); // even parity
        assert_int_equal((int16_t)(uint16_t)(bits >> 8), frames[s]);
        assert_int_equal(bits & 0xff, 0);       // 16-bit audio: the low 8 of 24 bits are zero
        assert_int_equal(bits >> 24 & 3, 0);    // valid, no user data
        // Channel status: frame 24's bit is byte 3 bit 0, frame 25's byte 3 bit 1 (48 kHz: 1).
        if (s / 2 == 25) {
            assert_int_equal(bits >> 26 & 1, 1);
        }
        if (s / 2 == 24 || s / 2 == 0) {
            assert_int_equal(bits >> 26 & 1, 0);
        }
        prev_last = c[63];
    }
}

/**
 * Samples the encoded line at `samples_per_cell` (fractional: the capture clock is not the
 * sender's), with `jitter` cells of random edge noise, into 32-bit capture words.
 */
static size_t capture(const uint32_t *words, size_t nwords, double samples_per_cell, double jitter,
                      uint32_t *out, size_t max_out, tr_rng_t *rng)
{
    size_t total_cells = nwords * 32;
    double t = 0.37; // the capture starts mid-cell
    size_t produced = 0;
    uint32_t acc = 0;
    int nbits = 0;
    while (produced < max_out) {
        double at = t / samples_per_cell + (tr_rng_unit(rng) - 0.5) * jitter;
        size_t cell = at < 0 ? 0 : (size_t)at;
        if (cell >= total_cells) {
            break;
        }
        uint32_t bit = words[cell / 32] >> (31 - cell % 32) & 1;
        acc = acc << 1 | bit;
        if (++nbits == 32) {
            out[produced++] = acc;
            nbits = 0;
        }
        t += 1.0;
    }
    return produced;
}

static void decodes_an_unlocked_oversampled_capture(void **state)
{
    (void)state;
    struct {
        uint32_t rate;
        double oversample; // capture samples per cell
        double jitter;
    } cases[] = {{48000, 4.0, 0.1}, {48000, 3.1, 0.15}, {44100, 4.354, 0.1}, {44100, 3.3, 0.1}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tr_spdif_encoder_t e;
        tr_spdif_encoder_init(&e, cases[k].rate);
        enum { FRAMES = 4000 };
        static int16_t in[2 * FRAMES];
        static uint32_t line[4 * FRAMES];
        for (int i = 0; i < FRAMES; i++) {
            in[2 * i] = (int16_t)(i * 7 - 12345);
            in[2 * i + 1] = (int16_t)(32767 - i * 13);
        }
        tr_spdif_encode(&e, in, FRAMES, line);
        static uint32_t cap[4 * FRAMES * 5];
        tr_rng_t rng = {42 + k};
        size_t n = capture(line, 4 * FRAMES, cases[k].oversample, cases[k].jitter, cap,
                           sizeof cap / sizeof cap[0], &rng);
        tr_spdif_decoder_t d;
        // The capture rate as the device would set it (48 kHz x 4), whatever the sender sends.
        tr_spdif_decoder_init(&d, 48000u * 128u * 4u);
        static int16_t out[2 * FRAMES];
        size_t got = 0;
        for (size_t w = 0; w < n; w += 100) { // in DMA-sized pieces
            size_t len = n - w < 100 ? n - w : 100;
            got += tr_spdif_decode(&d, cap + w, len, out + 2 * got, FRAMES - got);
        }
        // The first frame or two go to finding the first preamble; then every one arrives.
        assert_true(got >= FRAMES - 3);
        size_t skip = 0;
        while (out[0] != in[2 * skip]) {
            skip++;
            assert_true(skip < 4);
        }
        assert_memory_equal(out, in + 2 * skip, 2 * sizeof(int16_t) * (FRAMES - skip - 1));
        assert_int_equal(d.parity_errors, 0);
        assert_true(tr_spdif_decoder_locked(&d));
        // The rate comes from the measured cell length (4.354 samples a cell is 44.1 kHz when
        // the capture is set for 48 kHz x 4), and the channel status agrees.
        uint32_t measured_rate = (uint32_t)(48000.0 * 4.0 / cases[k].oversample + 0.5);
        uint32_t expect = measured_rate > 46000 && measured_rate < 50000 ? 48000
                          : measured_rate > 43000 && measured_rate < 45300 ? 44100 : 0;
        assert_int_equal(tr_spdif_decoder_rate(&d), expect);
        assert_int_equal(d.status[3] & 0x0f, cases[k].rate == 48000 ? 0x02 : 0x00);
    }
}

static void a_damaged_subframe_is_dropped_and_decoding_resumes(void **state)
{
    (void)state;
    tr_spdif_encoder_t e;
    tr_spdif_encoder_init(&e, 48000);
    static int16_t in[2 * 1000];
    static uint32_t line[4 * 1000];
    for (int i = 0; i < 2000; i++) {
        in[i] = (int16_t)(i * 31);
    }
    tr_spdif_encode(&e, in, 1000, line);
    line[4 * 500 + 1] ^= 0x00F00000; // flip four cells inside frame 500's left sample
    static uint32_t cap[4 * 1000 * 4];
    tr_rng_t rng = {7};
    size_t n = capture(line, 4 * 1000, 4.0, 0.05, cap, sizeof cap / sizeof cap[0], &rng);
    tr_spdif_decoder_t d;
    tr_spdif_decoder_init(&d, 48000u * 128u * 4u);
    static int16_t out[2 * 1000];
    size_t got = tr_spdif_decode(&d, cap, n, out, 1000);
    assert_true(d.parity_errors + d.sync_losses >= 1);
    assert_true(got >= 995 && got < 1000); // the damaged frame is missing, the rest decoded
    assert_int_equal(out[2 * (got - 1)], in[2 * 998]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_line_follows_biphase_mark_rules),
        cmocka_unit_test(decodes_an_unlocked_oversampled_capture),
        cmocka_unit_test(a_damaged_subframe_is_dropped_and_decoding_resumes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
