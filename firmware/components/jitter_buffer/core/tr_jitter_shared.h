// Shared by the write and read halves of the jitter buffer (not part of its interface); defined in
// tr_jitter_shared.c, which calls neither half.
#pragma once

#include "tr_jitter.h"

/** Positions start here so "before the first packet" is still a valid unsigned position. */
#define TR_JITTER_ORIGIN (1ull << 40)
/** Frames kept behind the read position for interpolation, and slack at the far end. */
#define TR_JITTER_SLACK 4u

static inline bool tr_jitter_is_present(const tr_jitter_t *jb, uint64_t pos)
{
    uint32_t i = (uint32_t)(pos & (jb->capacity - 1));
    return (jb->present[i >> 5] >> (i & 31)) & 1u;
}

static inline void tr_jitter_mark(tr_jitter_t *jb, uint64_t pos, bool present)
{
    uint32_t i = (uint32_t)(pos & (jb->capacity - 1));
    if (present) {
        jb->present[i >> 5] |= 1u << (i & 31);
    } else {
        jb->present[i >> 5] &= ~(1u << (i & 31));
    }
}

/** Clears presence for [from, to): audio the reader has passed or dropped. */
void tr_jitter_forget(tr_jitter_t *jb, uint64_t from, uint64_t to);

/** The target in frames. */
double tr_jitter_target_frames(const tr_jitter_t *jb);

/**
 * Where the stream is due at `now_us`, as a continuous position: the audio that would have
 * arrived by now with the least delay seen recently (the transit envelope). Measured against it,
 * the fill level does not saw-tooth with packet arrivals, and jitter or a stall does not look like
 * clock drift; the write head (what did arrive) still decides underruns.
 */
double tr_jitter_head_at(const tr_jitter_t *jb, int64_t now_us);

/** Called for each packet: an underrun followed soon by packets was a stall, not the end. */
void tr_jitter_confirm_underrun(tr_jitter_t *jb, int64_t arrival_us);
