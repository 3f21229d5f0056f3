#include "tr_drift.h"

#define WINDOW_S 1.0
#define MIN_WINDOWS 8u
/** Real crystals are within a few hundred ppm; a steeper line is a burst, not a clock. */
#define MAX_PPM 1000.0

void tr_drift_restart(tr_drift_t *d)
{
    d->window_open = false;
    d->count = 0;
    d->next = 0;
}

static void fit(tr_drift_t *d)
{
    uint32_t n = d->count;
    double mt = 0, mm = 0;
    for (uint32_t i = 0; i < n; i++) {
        mt += d->t[i];
        mm += d->min[i];
    }
    mt /= n;
    mm /= n;
    double stt = 0, stm = 0;
    for (uint32_t i = 0; i < n; i++) {
        stt += (d->t[i] - mt) * (d->t[i] - mt);
        stm += (d->t[i] - mt) * (d->min[i] - mm);
    }
    if (stt <= 0) {
        return;
    }
    // transit = arrival - position / nominal rate: a fast sender's positions run ahead, so its
    // transit falls by (ppm * 1e-6) seconds per second.
    double ppm = -stm / stt * 1e6;
    if (ppm >= -MAX_PPM && ppm <= MAX_PPM) {
        d->ppm = ppm;
    }
}

void tr_drift_observe(tr_drift_t *d, double now_s, double transit_s)
{
    if (!d->window_open) {
        d->window_open = true;
        d->window_start_s = now_s;
        d->window_min_s = transit_s;
        return;
    }
    if (now_s - d->window_start_s >= WINDOW_S) {
        d->t[d->next] = d->window_start_s + WINDOW_S / 2;
        d->min[d->next] = d->window_min_s;
        d->next = (d->next + 1) % TR_DRIFT_WINDOWS;
        if (d->count < TR_DRIFT_WINDOWS) {
            d->count++;
        }
        if (d->count >= MIN_WINDOWS) {
            fit(d);
        }
        d->window_start_s = now_s;
        d->window_min_s = transit_s;
    } else if (transit_s < d->window_min_s) {
        d->window_min_s = transit_s;
    }
}
