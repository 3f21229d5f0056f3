// The sender's clock against this device's, from packet arrival times alone: network delay only
// adds to a packet's transit time, so the least transit of each one-second window lies on a clean
// line whose slope is the clock error. A least-squares line through the last 64 windows gives it
// in ppm (published from 8 windows on). The router's engine measures drift the same way.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define TR_DRIFT_WINDOWS 64

typedef struct {
    double window_start_s;
    double window_min_s;
    bool window_open;
    double t[TR_DRIFT_WINDOWS];   // window centres (s since the stream's origin)
    double min[TR_DRIFT_WINDOWS]; // least transit in each window (s)
    uint32_t count;
    uint32_t next;
    double ppm; // positive: the sender's clock is fast
} tr_drift_t;

/** Forgets the windows (the time origin changed); keeps the last estimate as a starting point. */
void tr_drift_restart(tr_drift_t *d);

/** A packet's transit time `transit_s` observed at `now_s` (both against the same origin). */
void tr_drift_observe(tr_drift_t *d, double now_s, double transit_s);
