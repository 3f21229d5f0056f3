// The write half: RTP placement by timestamp, Scream as a byte stream, loss/late/reorder
// counting and the jitter measurement that sizes the adaptive target.
#include <string.h>

#include "tr_jitter_shared.h"

/** A timestamp or sequence jump larger than this restarts the stream mapping. */
#define RESYNC_SECONDS 2.0
#define RESYNC_SEQUENCE 3000u
/** A pause longer than this starts a new talk spurt (the jitter history restarts). */
#define SPURT_GAP_US 200000
/** Adaptive target added per underrun, and how fast it is given back. */
#define SPIKE_DECAY_MS_PER_S 0.5f

/** Extends a `bits`-wide counter to 64 bits, choosing the wrap closest to `reference`. */
static uint64_t extend(uint64_t reference, uint64_t value, unsigned bits)
{
    uint64_t modulus = 1ull << bits;
    uint64_t base = reference & ~(modulus - 1);
    uint64_t candidates[3] = {(base - modulus) | value, base | value, (base + modulus) | value};
    uint64_t best = candidates[1];
    uint64_t best_distance = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        if (i == 0 && base < modulus) {
            continue; // would wrap below zero
        }
        uint64_t c = candidates[i];
        uint64_t distance = c > reference ? c - reference : reference - c;
        if (distance < best_distance) {
            best_distance = distance;
            best = c;
        }
    }
    return best;
}

static void clamp_config(tr_jitter_config_t *c)
{
    if (c->min_ms < 20) {
        c->min_ms = 20;
    }
    if (c->min_ms > 200) {
        c->min_ms = 200;
    }
    if (c->max_ms < c->min_ms) {
        c->max_ms = c->min_ms;
    }
    if (c->max_ms > 200) {
        c->max_ms = 200;
    }
    if (c->max_ppm > 10000) {
        c->max_ppm = 10000;
    }
}

void tr_jitter_set_config(tr_jitter_t *jb, const tr_jitter_config_t *config)
{
    jb->config = *config;
    clamp_config(&jb->config);
}

void tr_jitter_init(tr_jitter_t *jb, int16_t *ring, uint32_t *present, uint32_t capacity,
                    uint32_t rate, const tr_jitter_config_t *config)
{
    memset(jb, 0, sizeof *jb);
    jb->ring = ring;
    jb->present = present;
    jb->capacity = capacity;
    tr_jitter_set_config(jb, config);
    tr_jitter_reset(jb, rate);
}

void tr_jitter_reset(tr_jitter_t *jb, uint32_t rate)
{
    memset(jb->present, 0, TR_JITTER_PRESENT_WORDS(jb->capacity) * sizeof(uint32_t));
    jb->rate = rate;
    jb->write_head = TR_JITTER_ORIGIN;
    jb->read_pos = TR_JITTER_ORIGIN;
    jb->read_frac = 0;
    jb->scream_next = TR_JITTER_ORIGIN;
    jb->partial_len = 0;
    jb->have_rtp = false;
    jb->have_transit = false;
    jb->playing = false;
    jb->packet_frames = 0;
    jb->last_arrival_us = INT64_MIN;
    jb->peak_gap_ms = 0;
    jb->spike_ms = 0;
    jb->jitter_s = 0;
    jb->level_avg = 0;
    tr_drift_restart(&jb->drift);
    jb->drift.ppm = 0;
    jb->correction_ppm = 0;
    jb->ratio_ppm = 0;
    jb->last[0] = jb->last[1] = 0;
    jb->conceal_run = 0;
    jb->ramp = 0;
    jb->underrun_at_us = INT64_MIN;
}

/** Where a (re)started stream lands: after what was written, and a target ahead when playing. */
static uint64_t resync_position(const tr_jitter_t *jb)
{
    uint64_t ahead = jb->read_pos + (jb->playing ? (uint64_t)tr_jitter_target_frames(jb) : 0);
    return jb->write_head > ahead ? jb->write_head : ahead;
}

static void count_packet(tr_jitter_t *jb, uint32_t frames, int64_t arrival_us)
{
    int64_t since_us = jb->last_arrival_us == INT64_MIN ? INT64_MAX
                                                        : arrival_us - jb->last_arrival_us;
    if (since_us >= SPURT_GAP_US) {
        jb->have_transit = false; // a new talk spurt: its first transit is the new reference
    } else if (since_us > 0) {
        float since_s = (float)since_us / 1e6f;
        // Peak-hold of the gap between packets, halving in about 10 s.
        float decayed = jb->peak_gap_ms * (1.0f - since_s / 14.0f);
        float gap_ms = since_s * 1000.0f;
        jb->peak_gap_ms = decayed > gap_ms ? decayed : gap_ms;
        float spike = jb->spike_ms - (since_s < 1.0f ? since_s : 1.0f) * SPIKE_DECAY_MS_PER_S;
        jb->spike_ms = spike > 0 ? spike : 0;
    }
    tr_jitter_confirm_underrun(jb, arrival_us);
    jb->stats.packets++;
    jb->packet_frames = frames;
    jb->last_arrival_us = arrival_us;
}

/** Length of one window of the transit envelope. */
#define ENVELOPE_WINDOW_US 1000000

/**
 * RFC 3550 interarrival jitter from the packet that starts at `start_pos`, and the envelope of
 * the transit time (its minimum over the last one to two seconds): network delay only ever adds
 * to the transit, so the envelope says when audio is due without jitter. As in the router, a
 * packet's first frame is due when it arrives, its last one a packet's time later.
 */
static void observe_transit(tr_jitter_t *jb, int64_t arrival_us, uint64_t start_pos)
{
    if (!jb->have_transit) {
        jb->origin_us = arrival_us;
        jb->origin_pos = start_pos;
        tr_drift_restart(&jb->drift);
    }
    double transit = (double)(arrival_us - jb->origin_us) / 1e6 -
                     ((double)start_pos - (double)jb->origin_pos) / jb->rate;
    if (jb->have_transit) {
        double d = transit - jb->last_transit_s;
        d = d < 0 ? -d : d;
        if (d < 1.0) {
            jb->jitter_s += (d - jb->jitter_s) / 16.0;
        }
        if (arrival_us - jb->envelope_start_us >= ENVELOPE_WINDOW_US) {
            jb->envelope_prev_s = jb->envelope_cur_s;
            jb->envelope_cur_s = transit;
            jb->envelope_start_us = arrival_us;
        } else if (transit < jb->envelope_cur_s) {
            jb->envelope_cur_s = transit;
        }
    } else {
        jb->envelope_prev_s = jb->envelope_cur_s = transit;
        jb->envelope_start_us = arrival_us;
    }
    tr_drift_observe(&jb->drift, (double)(arrival_us - jb->origin_us) / 1e6, transit);
    jb->last_transit_s = transit;
    jb->have_transit = true;
}

/** Writes `frames` stereo frames at `pos` (16-bit, big- or little-endian bytes). */
static void store(tr_jitter_t *jb, uint64_t pos, const uint8_t *bytes, uint32_t frames,
                  bool big_endian)
{
    uint64_t end = pos + frames;
    if (end <= jb->read_pos) {
        jb->stats.late++;
        return;
    }
    if (pos < jb->read_pos) {
        uint64_t skip = jb->read_pos - pos;
        bytes += 4 * skip;
        frames -= (uint32_t)skip;
        pos = jb->read_pos;
    }
    uint64_t room = jb->capacity - TR_JITTER_SLACK;
    if (end - jb->read_pos > room) {
        // The output is not taking audio (stopped, or far slower): drop the oldest.
        uint64_t new_read = end - room;
        tr_jitter_forget(jb, jb->read_pos > 0 ? jb->read_pos - 1 : 0, new_read - 1);
        jb->stats.skipped_frames += new_read - jb->read_pos;
        jb->stats.overflows++;
        jb->read_pos = new_read;
        jb->read_frac = 0;
        if (pos < new_read) {
            bytes += 4 * (new_read - pos);
            frames -= (uint32_t)(new_read - pos);
            pos = new_read;
        }
    }
    if (frames > 0 && tr_jitter_is_present(jb, pos) && tr_jitter_is_present(jb, pos + frames - 1)) {
        jb->stats.duplicates++;
        return;
    }
    int hi = big_endian ? 0 : 1;
    for (uint32_t f = 0; f < frames; f++) {
        uint32_t i = (uint32_t)((pos + f) & (jb->capacity - 1));
        const uint8_t *b = bytes + 4 * f;
        jb->ring[2 * i] = (int16_t)(uint16_t)((b[hi] << 8) | b[1 - hi]);
        jb->ring[2 * i + 1] = (int16_t)(uint16_t)((b[2 + hi] << 8) | b[3 - hi]);
        tr_jitter_mark(jb, pos + f, true);
    }
    if (pos + frames > jb->write_head) {
        jb->write_head = pos + frames;
    }
}

void tr_jitter_push_rtp(tr_jitter_t *jb, uint16_t sequence, uint32_t timestamp,
                        const uint8_t *payload, size_t len, int64_t arrival_us)
{
    uint32_t frames = (uint32_t)(len / 4);
    if (frames == 0 || frames > jb->capacity / 2) {
        return;
    }
    count_packet(jb, frames, arrival_us);
    uint64_t ext_seq;
    uint64_t ext_ts;
    bool restart = !jb->have_rtp;
    if (restart) {
        ext_seq = (1ull << 32) | sequence;
        ext_ts = (1ull << 40) | timestamp;
    } else {
        ext_seq = extend(jb->highest_seq, sequence, 16);
        ext_ts = extend(jb->last_ext_ts, timestamp, 32);
        uint64_t seq_jump = ext_seq > jb->highest_seq ? ext_seq - jb->highest_seq
                                                      : jb->highest_seq - ext_seq;
        uint64_t ts_jump = ext_ts > jb->last_ext_ts ? ext_ts - jb->last_ext_ts
                                                    : jb->last_ext_ts - ext_ts;
        restart = seq_jump > RESYNC_SEQUENCE || (double)ts_jump > RESYNC_SECONDS * jb->rate;
    }
    if (restart) {
        if (jb->have_rtp) {
            jb->stats.resyncs++;
        }
        jb->ts_offset = (int64_t)resync_position(jb) - (int64_t)ext_ts;
        jb->have_rtp = true;
        jb->highest_seq = ext_seq;
        jb->last_ext_ts = ext_ts;
        jb->have_transit = false;
    } else if (ext_seq > jb->highest_seq) {
        jb->stats.lost += (uint32_t)(ext_seq - jb->highest_seq - 1);
        jb->highest_seq = ext_seq;
        jb->last_ext_ts = ext_ts;
    } else if (ext_seq < jb->highest_seq) {
        jb->stats.reordered++;
        if (jb->stats.lost > 0) {
            jb->stats.lost--;
        }
    }
    uint64_t pos = (uint64_t)((int64_t)ext_ts + jb->ts_offset);
    if (pos + frames <= jb->read_pos) {
        jb->stats.late++;
        // A sender that restarted without jumping its clock lands far in the past.
        if (jb->read_pos - pos > (uint64_t)(jb->rate / 5) && ext_seq >= jb->highest_seq) {
            jb->have_rtp = false;
        }
        return;
    }
    if (ext_seq == jb->highest_seq) {
        observe_transit(jb, arrival_us, pos);
    }
    store(jb, pos, payload, frames, true);
}

void tr_jitter_push_scream(tr_jitter_t *jb, const uint8_t *payload, size_t len,
                           int64_t arrival_us)
{
    uint32_t frames = (uint32_t)((jb->partial_len + len) / 4);
    if (len == 0 || frames > jb->capacity / 2) {
        return;
    }
    count_packet(jb, frames, arrival_us);
    if (jb->scream_next < jb->read_pos) {
        // The sender paused (or is new) while the output moved on: start again a target ahead.
        jb->scream_next = resync_position(jb);
        jb->partial_len = 0;
        jb->have_transit = false;
        jb->stats.resyncs++;
    }
    if (jb->partial_len > 0) {
        size_t take = 4u - jb->partial_len < len ? 4u - jb->partial_len : len;
        memcpy(jb->partial + jb->partial_len, payload, take);
        jb->partial_len = (uint8_t)(jb->partial_len + take);
        payload += take;
        len -= take;
        if (jb->partial_len == 4) {
            store(jb, jb->scream_next++, jb->partial, 1, false);
            jb->partial_len = 0;
        }
    }
    uint32_t whole = (uint32_t)(len / 4);
    if (whole > 0) {
        store(jb, jb->scream_next, payload, whole, false);
        jb->scream_next += whole;
    }
    uint64_t start = jb->scream_next - whole;
    memcpy(jb->partial + jb->partial_len, payload + 4 * whole, len - 4 * whole);
    jb->partial_len = (uint8_t)(jb->partial_len + len - 4 * whole);
    observe_transit(jb, arrival_us, start);
}
