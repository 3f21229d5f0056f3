// S/PDIF (IEC 60958, consumer) in software: the encoder turns 16-bit stereo frames into the
// biphase-mark line signal as 32-bit words an I2S peripheral shifts out MSB first (4 words per
// frame, so I2S runs at twice the sample rate with 32-bit stereo slots); the decoder recovers
// frames from the line sampled at a few times its cell rate (what an I2S input captures).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** I2S words per stereo frame: 2 subframes x 64 biphase cells / 32 bits. */
#define TR_SPDIF_WORDS_PER_FRAME 4
/** Frames per channel-status block. */
#define TR_SPDIF_BLOCK_FRAMES 192

typedef struct {
    uint8_t status[24];  // channel-status block (consumer format)
    uint8_t frame;       // position in the 192-frame block
} tr_spdif_encoder_t;

/** Consumer channel status: PCM, copying permitted, the given sample rate. */
void tr_spdif_encoder_init(tr_spdif_encoder_t *e, uint32_t sample_rate);

/** Encodes `count` interleaved stereo frames into `count * 4` words. */
void tr_spdif_encode(tr_spdif_encoder_t *e, const int16_t *frames, size_t count, uint32_t *words);

typedef struct {
    uint32_t capture_rate; // line samples per second
    uint32_t ui_q8;        // line samples per biphase cell (x256), tracked
    uint8_t level;
    uint32_t run;
    uint8_t state;         // seeking, preamble, data
    uint8_t kind;          // B, M or W of the subframe being read
    uint8_t pre_units;
    uint8_t pre_runs;
    uint8_t pre[4];
    bool half;             // a one-cell run seen: the second half of a "1" must follow
    uint8_t nbits;
    uint32_t bits;
    bool have_left;
    int16_t left;
    uint8_t block_frame;
    uint8_t status[24];    // channel status received (left subframes)
    uint32_t frames;       // decoded
    uint32_t parity_errors;
    uint32_t sync_losses;
    uint16_t good_subframes; // since the last sync loss or parity error
} tr_spdif_decoder_t;

/** `capture_rate`: how often the input samples the line (e.g. 24.576 MHz for 48 kHz x 4). */
void tr_spdif_decoder_init(tr_spdif_decoder_t *d, uint32_t capture_rate);

/**
 * Decodes line samples (32 per word, earliest in the most significant bit) into at most
 * `max_frames` interleaved stereo frames; returns how many were written. Frames beyond
 * `max_frames` are dropped (pass enough room: a word of 32 samples holds under one frame).
 */
size_t tr_spdif_decode(tr_spdif_decoder_t *d, const uint32_t *words, size_t count,
                       int16_t *frames, size_t max_frames);

/** The sample rate measured from the cell length: 32000, 44100, 48000, 88200, 96000, or 0. */
uint32_t tr_spdif_decoder_rate(const tr_spdif_decoder_t *d);

/** Locked: a whole block (384 subframes) decoded since the last sync loss or parity error. */
bool tr_spdif_decoder_locked(const tr_spdif_decoder_t *d);
