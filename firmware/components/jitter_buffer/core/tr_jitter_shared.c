// What the write and read halves of the jitter buffer both use: presence bookkeeping, the target,
// where the stream is due, and underrun accounting. Both halves call into this file and never into
// each other.
#include "tr_jitter_shared.h"

/** An underrun followed by packets within this time was a stall, not the end of the stream. */
#define STALL_US 500000
/** Adaptive target added per underrun. */
#define SPIKE_STEP_MS 10.0f

void tr_jitter_forget(tr_jitter_t *jb, uint64_t from, uint64_t to)
{
    if (to > from + jb->capacity) {
        from = to - jb->capacity;
    }
    for (uint64_t p = from; p < to; p++) {
        tr_jitter_mark(jb, p, false);
    }
}

double tr_jitter_target_frames(const tr_jitter_t *jb)
{
    const tr_jitter_config_t *c = &jb->config;
    double ms = c->min_ms;
    if (c->adaptive) {
        double packet_ms = (double)jb->packet_frames * 1000.0 / jb->rate;
        ms = packet_ms + 4.0 * jb->jitter_s * 1000.0;
        if (ms < c->min_ms + (double)jb->spike_ms) {
            ms = c->min_ms + (double)jb->spike_ms;
        }
        if (ms < (double)jb->peak_gap_ms + 2.0) {
            ms = (double)jb->peak_gap_ms + 2.0;
        }
        ms = ms < c->min_ms ? c->min_ms : ms > c->max_ms ? c->max_ms : ms;
    }
    return ms * jb->rate / 1000.0;
}

double tr_jitter_head_at(const tr_jitter_t *jb, int64_t now_us)
{
    if (!jb->have_transit) {
        return (double)jb->write_head;
    }
    double envelope = jb->envelope_prev_s < jb->envelope_cur_s ? jb->envelope_prev_s
                                                               : jb->envelope_cur_s;
    double due_s = (double)(now_us - jb->origin_us) / 1e6 - envelope;
    return (double)jb->origin_pos + due_s * jb->rate;
}

void tr_jitter_confirm_underrun(tr_jitter_t *jb, int64_t arrival_us)
{
    if (jb->underrun_at_us == INT64_MIN) {
        return;
    }
    if (arrival_us - jb->underrun_at_us < STALL_US) {
        jb->stats.underruns++;
        if (jb->config.adaptive) {
            float spike = jb->spike_ms + SPIKE_STEP_MS;
            jb->spike_ms = spike < jb->config.max_ms ? spike : jb->config.max_ms;
        }
    }
    jb->underrun_at_us = INT64_MIN;
}
