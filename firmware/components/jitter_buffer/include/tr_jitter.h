// The receive buffer of an ESP32-S3 receiver: places packets by RTP timestamp (so loss and
// reordering fall out of the positions) or as a Scream byte stream, sizes itself with the same
// rules as the router's engine (fixed, or adaptive to the measured jitter within 20-200 ms), and
// plays out at the output's own clock, resampling (4-point Hermite) by the sender's measured clock
// drift plus a proportional correction on the fill level, as the router does. Caller-provided storage; nothing here
// allocates, blocks or knows about FreeRTOS.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_drift.h"

/** 32-bit words of presence bits needed for `capacity` frames. */
#define TR_JITTER_PRESENT_WORDS(capacity) (((capacity) + 31u) / 32u)

typedef struct {
    bool adaptive;    // track measured jitter (true) or hold min_ms (false)
    uint16_t min_ms;  // the fixed target, or the adaptive floor (clamped to 20-200)
    uint16_t max_ms;  // the adaptive ceiling (clamped to min-200)
    uint16_t max_ppm; // largest fill-level correction on top of the drift, ppm
} tr_jitter_config_t;

typedef struct {
    uint32_t packets;
    uint32_t lost;       // RTP sequence numbers never seen (a late arrival takes one back)
    uint32_t late;       // arrived after their audio was due
    uint32_t reordered;
    uint32_t duplicates;
    uint32_t resyncs;    // sender restarts or timestamp jumps
    uint32_t underruns;  // the output ran dry while playing
    uint32_t overflows;  // audio dropped because the output was not taking it
    uint64_t played_frames;
    uint64_t concealed_frames; // output frames faded out over missing audio
    uint64_t skipped_frames;   // frames dropped to catch up
} tr_jitter_stats_t;

typedef struct {
    int16_t *ring;      // capacity stereo frames
    uint32_t *present;  // one bit per ring frame
    uint32_t capacity;  // a power of two
    uint32_t rate;
    tr_jitter_config_t config;
    tr_jitter_stats_t stats;
    // write side
    uint64_t write_head;
    uint32_t packet_frames;
    int64_t last_arrival_us;
    float peak_gap_ms;
    float spike_ms;
    double jitter_s;
    double last_transit_s;
    bool have_transit;
    int64_t origin_us;  // reference of the transit times (restarts with each talk spurt)
    uint64_t origin_pos;
    double envelope_cur_s;  // least transit in the current window, and in the one before
    double envelope_prev_s;
    int64_t envelope_start_us;
    bool have_rtp;
    uint64_t highest_seq;
    uint64_t last_ext_ts;
    int64_t ts_offset;
    uint64_t scream_next;
    uint8_t partial[4];
    uint8_t partial_len;
    // read side
    bool playing;
    uint64_t read_pos;
    uint32_t read_frac; // Q32 fraction between read_pos and read_pos + 1
    double level_avg;   // frames, smoothed
    tr_drift_t drift;   // the sender's clock (feed-forward)
    double correction_ppm; // proportional correction on the fill level
    double ratio_ppm;   // drift + correction, as applied
    float last[2];      // last output frame, for concealment fades
    uint32_t conceal_run;
    uint32_t ramp;      // frames of fade-in left after concealment or a start
    int64_t underrun_at_us; // INT64_MIN, or when the output last ran dry (confirmed by packets)
} tr_jitter_t;

/**
 * Prepares `jb` for a stream at `rate` Hz. `ring` holds `capacity` interleaved stereo frames and
 * `present` TR_JITTER_PRESENT_WORDS(capacity) words; `capacity` must be a power of two and more
 * than 200 ms of audio plus a packet.
 */
void tr_jitter_init(tr_jitter_t *jb, int16_t *ring, uint32_t *present, uint32_t capacity,
                    uint32_t rate, const tr_jitter_config_t *config);

/** Forgets the stream (a new sender or a new rate); keeps storage, config and stats. */
void tr_jitter_reset(tr_jitter_t *jb, uint32_t rate);

/** Changes the sizing rules (clamped as documented above). */
void tr_jitter_set_config(tr_jitter_t *jb, const tr_jitter_config_t *config);

/** An RTP packet's L16 stereo payload (big-endian), received at `arrival_us` (monotonic). */
void tr_jitter_push_rtp(tr_jitter_t *jb, uint16_t sequence, uint32_t timestamp,
                        const uint8_t *payload, size_t len, int64_t arrival_us);

/** A Scream packet's 16-bit stereo payload (little-endian byte stream). */
void tr_jitter_push_scream(tr_jitter_t *jb, const uint8_t *payload, size_t len,
                           int64_t arrival_us);

/**
 * Fills `out` with `frames` interleaved stereo frames at `out_rate` Hz for the output's clock
 * at `now_us`: silence until the target is buffered, concealment over missing audio.
 */
void tr_jitter_read(tr_jitter_t *jb, int16_t *out, size_t frames, uint32_t out_rate,
                    int64_t now_us);

/** How much audio the buffer keeps queued now, in milliseconds. */
float tr_jitter_target_ms(const tr_jitter_t *jb);

/** Audio buffered ahead of the output (smoothed), in milliseconds. */
float tr_jitter_level_ms(const tr_jitter_t *jb);

/** The resampling ratio applied now, drift and correction, in ppm (positive: reading faster). */
float tr_jitter_correction_ppm(const tr_jitter_t *jb);

/** The sender's clock against this device's, as measured from arrival times, in ppm. */
float tr_jitter_drift_ppm(const tr_jitter_t *jb);

/** The RFC 3550 interarrival jitter, in milliseconds. */
float tr_jitter_jitter_ms(const tr_jitter_t *jb);
