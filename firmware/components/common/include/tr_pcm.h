// Small PCM helpers shared by the outputs and inputs.
#pragma once

#include <stddef.h>
#include <stdint.h>

/** Scales interleaved samples by `percent` (0-100) in place, rounding; 100 leaves them as is. */
void tr_pcm_gain(int16_t *samples, size_t count, uint8_t percent);

/** Where audio comes from or goes to, so components need not know each other. */
typedef void (*tr_audio_pull_fn)(void *ctx, int16_t *frames, size_t count, uint32_t rate);
typedef void (*tr_audio_push_fn)(void *ctx, const int16_t *frames, size_t count, uint32_t rate);
