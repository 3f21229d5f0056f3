#include "tr_pcm.h"

void tr_pcm_gain(int16_t *samples, size_t count, uint8_t percent)
{
    if (percent >= 100) {
        return;
    }
    // Q15 gain; the square law makes the percentage feel even (50 % is about -12 dB).
    int32_t gain = (int32_t)percent * percent * 32768 / 10000;
    for (size_t i = 0; i < count; i++) {
        int32_t v = samples[i] * gain;
        samples[i] = (int16_t)((v + (v >= 0 ? 16384 : -16384)) / 32768);
    }
}
