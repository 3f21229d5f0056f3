#include "tr_uac_format.h"

static bool offers(const tr_uac_alt_t *a, uint32_t rate)
{
    if (a->continuous) {
        return rate >= a->lo && rate <= a->hi;
    }
    for (uint8_t i = 0; i < a->rate_count && i < 8; i++) {
        if (a->rates[i] == rate) {
            return true;
        }
    }
    return false;
}

tr_uac_choice_t tr_uac_pick(const tr_uac_alt_t *alts, size_t count, uint32_t stream_rate)
{
    const uint32_t rates[] = {stream_rate, 48000, 44100};
    for (size_t r = 0; r < 3; r++) {
        for (uint8_t bits = 16; bits <= 24; bits = (uint8_t)(bits + 8)) {
            for (size_t i = 0; i < count; i++) {
                if (alts[i].channels == 2 && alts[i].bits == bits && offers(&alts[i], rates[r])) {
                    return (tr_uac_choice_t){(int)i, rates[r], bits};
                }
            }
        }
    }
    return (tr_uac_choice_t){-1, 0, 0};
}

void tr_pcm_s16_to_s24le(const int16_t *in, size_t samples, uint8_t *out)
{
    for (size_t i = 0; i < samples; i++) {
        uint16_t v = (uint16_t)in[i];
        out[3 * i] = 0;
        out[3 * i + 1] = (uint8_t)v;
        out[3 * i + 2] = (uint8_t)(v >> 8);
    }
}
