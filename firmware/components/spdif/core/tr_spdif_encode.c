#include <string.h>

#include "tr_spdif.h"

// Preambles as 8 cells after a line at level 0 (first cell in bit 7). The parity bit keeps
// every subframe's ones even, so each one ends at the level it started at: always this form.
#define PREAMBLE_B 0xE8u // 11101000
#define PREAMBLE_M 0xE2u // 11100010
#define PREAMBLE_W 0xE4u // 11100100

/** 16 cells for 8 data bits (LSB first) from level 0; the first cell is the MSB. */
static uint16_t bmc_table[256];

static uint16_t bmc_compute(uint8_t byte)
{
    uint16_t cells = 0;
    unsigned level = 0;
    for (int bit = 0; bit < 8; bit++) {
        level ^= 1; // every bit starts with a transition
        cells = (uint16_t)(cells << 1 | level);
        if (byte >> bit & 1) {
            level ^= 1; // a one has a second transition mid-bit
        }
        cells = (uint16_t)(cells << 1 | level);
    }
    return cells;
}

static inline uint16_t bmc_byte(uint8_t byte)
{
    return bmc_table[byte];
}

static uint8_t parity8(uint8_t v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1;
}

void tr_spdif_encoder_init(tr_spdif_encoder_t *e, uint32_t sample_rate)
{
    memset(e, 0, sizeof *e);
    if (bmc_table[0] == 0) { // filled once (no entry is 0: every bit starts with a transition)
        for (int b = 0; b < 256; b++) {
            bmc_table[b] = bmc_compute((uint8_t)b);
        }
    }
    e->status[0] = 0x04; // consumer, PCM, copying permitted, no pre-emphasis
    // Byte 3, bits 24-27: the sample rate (44.1 kHz 0000, 48 kHz 0100, 32 kHz 1100).
    e->status[3] = sample_rate == 48000 ? 0x02 : sample_rate == 32000 ? 0x03 : 0x00;
}

/** One subframe (64 cells) into two words. */
static void subframe(uint8_t preamble, int16_t sample, unsigned c, uint32_t *out)
{
    uint8_t lo = (uint8_t)((uint16_t)sample & 0xff);
    uint8_t hi = (uint8_t)((uint16_t)sample >> 8);
    // Slots 4-11: the low 8 of 24 audio bits (zero for 16-bit audio), 12-27 the sample, then
    // validity 0, user 0, channel status c, and even parity over slots 4-31.
    unsigned p = parity8(lo) ^ parity8(hi) ^ c;
    uint16_t zero = bmc_byte(0);       // ends at level 0
    uint16_t low = bmc_byte(lo);       // from level 0
    unsigned level = parity8(lo);
    uint16_t high = bmc_byte(hi);
    if (level) {
        high = (uint16_t)~high;
    }
    level ^= parity8(hi);
    uint8_t tail = (uint8_t)(bmc_byte((uint8_t)(c << 2 | p << 3)) >> 8); // 4 bits, 8 cells
    if (level) {
        tail = (uint8_t)~tail;
    }
    out[0] = (uint32_t)preamble << 24 | (uint32_t)zero << 8 | (uint32_t)(low >> 8);
    out[1] = (uint32_t)(low & 0xff) << 24 | (uint32_t)high << 8 | tail;
}

void tr_spdif_encode(tr_spdif_encoder_t *e, const int16_t *frames, size_t count, uint32_t *words)
{
    for (size_t f = 0; f < count; f++) {
        unsigned c = e->status[e->frame >> 3] >> (e->frame & 7) & 1;
        subframe(e->frame == 0 ? PREAMBLE_B : PREAMBLE_M, frames[2 * f], c, words + 4 * f);
        subframe(PREAMBLE_W, frames[2 * f + 1], c, words + 4 * f + 2);
        e->frame = (uint8_t)(e->frame + 1 == TR_SPDIF_BLOCK_FRAMES ? 0 : e->frame + 1);
    }
}
