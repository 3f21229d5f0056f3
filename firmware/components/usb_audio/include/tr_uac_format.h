// Choosing how to talk to a USB DAC: among the formats its streaming interface offers, the one
// that plays 16-bit stereo best, ideally at the stream's own rate.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One alternate setting as the UAC host driver describes it. */
typedef struct {
    uint8_t channels;
    uint8_t bits;          // bit resolution
    bool continuous;       // a range of rates (lo-hi) rather than a list
    uint32_t lo, hi;
    uint8_t rate_count;
    uint32_t rates[8];
} tr_uac_alt_t;

typedef struct {
    int alt;          // index into the list, -1 if none is usable
    uint32_t rate;    // the rate to open it at
    uint8_t bits;     // 16 or 24 (24-bit DACs get the 16-bit samples widened)
} tr_uac_choice_t;

/**
 * Picks a stereo, 16- or 24-bit setting at `stream_rate` if offered, else at 48 kHz, else
 * 44.1 kHz (the jitter buffer resamples). 16 bits are preferred at equal rates.
 */
tr_uac_choice_t tr_uac_pick(const tr_uac_alt_t *alts, size_t count, uint32_t stream_rate);

/** Widens 16-bit frames to 24-bit little-endian (3 bytes a sample) for 24-bit DACs. */
void tr_pcm_s16_to_s24le(const int16_t *in, size_t samples, uint8_t *out);
