// Biphase-mark decoding from run lengths: the line is sampled a few times per cell; the length
// of each run between transitions, in cells (1, 2 or 3), says everything: a 2-cell run is a 0,
// two 1-cell runs are a 1, and only preambles (B 3-1-1-3, M 3-3-1-1, W 3-2-1-2) hold 3-cell runs.
// The cell length is tracked, so the capture clock need not be locked to the sender's.
#include <string.h>

#include "tr_spdif.h"

enum { SEEK, PREAMBLE, DATA };
enum { KIND_B = 1, KIND_M, KIND_W };

void tr_spdif_decoder_init(tr_spdif_decoder_t *d, uint32_t capture_rate)
{
    memset(d, 0, sizeof *d);
    d->capture_rate = capture_rate;
    // Start from 48 kHz (128 cells per frame); 44.1 or 32 kHz are tracked from there.
    d->ui_q8 = (uint32_t)(((uint64_t)capture_rate << 8) / (128u * 48000u));
}

static void lose_sync(tr_spdif_decoder_t *d)
{
    d->sync_losses++;
    d->good_subframes = 0;
    d->state = SEEK;
    d->have_left = false;
}

static void subframe_done(tr_spdif_decoder_t *d, int16_t *frames, size_t max, size_t *n)
{
    // bits: slot 4 in bit 0 ... slot 31 (parity) in bit 27.
    uint32_t ones = d->bits;
    ones ^= ones >> 16;
    ones ^= ones >> 8;
    ones ^= ones >> 4;
    ones ^= ones >> 2;
    ones ^= ones >> 1;
    if (ones & 1) {
        d->parity_errors++;
        d->good_subframes = 0;
        d->have_left = false;
        return;
    }
    if (d->good_subframes < UINT16_MAX) {
        d->good_subframes++;
    }
    int16_t sample = (int16_t)(uint16_t)(d->bits >> 8); // slots 12-27: the top 16 audio bits
    if (d->kind == KIND_W) {
        if (d->have_left && *n < max) {
            frames[2 * *n] = d->left;
            frames[2 * *n + 1] = sample;
            (*n)++;
            d->frames++;
        }
        d->have_left = false;
        return;
    }
    if (d->kind == KIND_B) {
        d->block_frame = 0;
    }
    if (d->block_frame < TR_SPDIF_BLOCK_FRAMES) {
        uint8_t c = (uint8_t)(d->bits >> 26 & 1);
        uint8_t *byte = &d->status[d->block_frame >> 3];
        *byte = (uint8_t)((*byte & ~(1u << (d->block_frame & 7))) | c << (d->block_frame & 7));
        d->block_frame++;
    }
    d->left = sample;
    d->have_left = true;
}

static void on_run(tr_spdif_decoder_t *d, uint32_t run, int16_t *frames, size_t max, size_t *n)
{
    uint32_t units = (uint32_t)(((uint64_t)run * 256 + d->ui_q8 / 2) / d->ui_q8);
    if (units < 1 || units > 3) {
        if (d->state != SEEK) {
            lose_sync(d);
        }
        return;
    }
    // Track the cell length from every run (slowly: one run is a coarse measure).
    int32_t measured = (int32_t)(run * 256 / units);
    d->ui_q8 = (uint32_t)((int32_t)d->ui_q8 + (measured - (int32_t)d->ui_q8) / 32);
    if (units == 3 && d->state != PREAMBLE) {
        if (d->state == DATA) {
            lose_sync(d); // a preamble in the middle of a subframe
        }
        d->state = PREAMBLE;
        d->pre[0] = 3;
        d->pre_runs = 1;
        d->pre_units = 3;
        return;
    }
    if (d->state == SEEK) {
        return;
    }
    if (d->state == PREAMBLE) {
        d->pre[d->pre_runs++] = (uint8_t)units;
        d->pre_units = (uint8_t)(d->pre_units + units);
        if (d->pre_units < 8 && d->pre_runs < 4) {
            return;
        }
        uint32_t p = (uint32_t)d->pre[0] << 12 | (uint32_t)d->pre[1] << 8 | (uint32_t)d->pre[2] << 4 |
                     d->pre[3];
        d->kind = p == 0x3113 ? KIND_B : p == 0x3311 ? KIND_M : p == 0x3212 ? KIND_W : 0;
        if (d->pre_units != 8 || d->pre_runs != 4 || d->kind == 0) {
            lose_sync(d);
            return;
        }
        d->state = DATA;
        d->nbits = 0;
        d->bits = 0;
        d->half = false;
        return;
    }
    // DATA: a 2-cell run is a 0; two 1-cell runs are a 1.
    if (units == 2 && !d->half) {
        d->nbits++;
    } else if (units == 1 && d->half) {
        d->bits |= 1u << d->nbits++;
        d->half = false;
    } else if (units == 1) {
        d->half = true;
        return;
    } else {
        lose_sync(d);
        return;
    }
    if (d->nbits == 28) {
        subframe_done(d, frames, max, n);
        d->state = SEEK; // the next run opens the next preamble
    }
}

size_t tr_spdif_decode(tr_spdif_decoder_t *d, const uint32_t *words, size_t count,
                       int16_t *frames, size_t max_frames)
{
    size_t n = 0;
    for (size_t w = 0; w < count; w++) {
        uint32_t bits = words[w];
        int left = 32;
        while (left > 0) {
            // Samples that differ from the current level, among the `left` still to read.
            uint32_t diff = d->level ? ~bits : bits;
            if (left < 32) {
                diff &= ~(0xFFFFFFFFu >> left);
            }
            if (diff == 0) {
                d->run += (uint32_t)left;
                break;
            }
            int same = __builtin_clz(diff);
            d->run += (uint32_t)same;
            on_run(d, d->run, frames, max_frames, &n);
            d->run = 0;
            d->level ^= 1;
            bits <<= same;
            left -= same;
        }
    }
    return n;
}

uint32_t tr_spdif_decoder_rate(const tr_spdif_decoder_t *d)
{
    if (!tr_spdif_decoder_locked(d)) {
        return 0;
    }
    uint32_t rate = (uint32_t)(((uint64_t)d->capture_rate << 8) / (128u * d->ui_q8));
    static const uint32_t known[] = {32000, 44100, 48000, 88200, 96000};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        uint32_t k = known[i];
        if (rate > k - k / 50 && rate < k + k / 50) {
            return k;
        }
    }
    return 0;
}

bool tr_spdif_decoder_locked(const tr_spdif_decoder_t *d)
{
    return d->good_subframes >= 2 * TR_SPDIF_BLOCK_FRAMES;
}
