// The read half: waits until the target is buffered, then plays at the output's clock with a
// resampling ratio a PI controller keeps on the fill level (clock drift correction), conceals
// missing audio with short fades, and notices underruns.
#include "tr_jitter_shared.h"

/** Time constant of the smoothed fill level the controller acts on. */
#define LEVEL_TAU_S 1.0
/**
 * Proportional gain: 10 ms of level error give a 0.1 % rate change (far more than the router's
 * engine, which corrects 3 ppm per ms and moves larger errors away with a crossfade).
 */
#define KP_PPM_PER_MS 100.0
/**
 * Queued audio this far above the target (or the target itself, if larger) is skipped rather than
 * drained at max_ppm: a sender catching up would otherwise add its excess to the latency for
 * minutes.
 */
#define CATCH_UP_MS 40.0
/** Fade length for concealment and restarts. */
#define FADE_FRAMES 64u

float tr_jitter_target_ms(const tr_jitter_t *jb)
{
    return (float)(tr_jitter_target_frames(jb) * 1000.0 / jb->rate);
}

float tr_jitter_level_ms(const tr_jitter_t *jb)
{
    return jb->playing ? (float)(jb->level_avg * 1000.0 / jb->rate) : 0.0f;
}

float tr_jitter_correction_ppm(const tr_jitter_t *jb)
{
    return (float)jb->ratio_ppm;
}

float tr_jitter_drift_ppm(const tr_jitter_t *jb)
{
    return (float)jb->drift.ppm;
}

float tr_jitter_jitter_ms(const tr_jitter_t *jb)
{
    return (float)(jb->jitter_s * 1000.0);
}

static int16_t clip(float v)
{
    return (int16_t)(v > 32767.0f ? 32767 : v < -32768.0f ? -32768 : (int)(v + (v < 0 ? -0.5f : 0.5f)));
}

/** Silence reached by fading the last output frame (no clicks when audio stops). */
static void fade_out(tr_jitter_t *jb, int16_t *out, bool count)
{
    float g = jb->conceal_run < FADE_FRAMES ? 1.0f - (float)jb->conceal_run / FADE_FRAMES : 0.0f;
    out[0] = clip(jb->last[0] * g);
    out[1] = clip(jb->last[1] * g);
    jb->conceal_run++;
    if (count) {
        jb->stats.concealed_frames++;
    }
}

/** One output frame interpolated at read_pos + read_frac; false if its audio is missing. */
static bool interpolate(tr_jitter_t *jb, int16_t *out)
{
    uint64_t p = jb->read_pos;
    if (!tr_jitter_is_present(jb, p) || !tr_jitter_is_present(jb, p + 1)) {
        return false;
    }
    uint32_t m = jb->capacity - 1;
    const int16_t *y0 = &jb->ring[2 * (p & m)];
    const int16_t *y1 = &jb->ring[2 * ((p + 1) & m)];
    const int16_t *ym1 = tr_jitter_is_present(jb, p - 1) ? &jb->ring[2 * ((p - 1) & m)] : y0;
    const int16_t *y2 = tr_jitter_is_present(jb, p + 2) ? &jb->ring[2 * ((p + 2) & m)] : y1;
    float x = (float)jb->read_frac * (1.0f / 4294967296.0f);
    float gain = 1.0f;
    if (jb->ramp > 0) {
        gain = 1.0f - (float)jb->ramp / FADE_FRAMES;
        jb->ramp--;
    }
    for (int c = 0; c < 2; c++) {
        // 4-point, 3rd-order Hermite: flat enough near Nyquist for slow ratio changes.
        float a = ym1[c], b = y0[c], d = y1[c], e = y2[c];
        float c1 = 0.5f * (d - a);
        float c2 = a - 2.5f * b + 2.0f * d - 0.5f * e;
        float c3 = 0.5f * (e - a) + 1.5f * (b - d);
        float v = (((c3 * x + c2) * x + c1) * x + b) * gain;
        jb->last[c] = v;
        out[c] = clip(v);
    }
    return true;
}

/** Runs the rate control once per read; returns the read step in Q32. */
static uint64_t control(tr_jitter_t *jb, double target, size_t frames, uint32_t out_rate,
                        int64_t now_us)
{
    double dt = (double)frames / out_rate;
    double head = tr_jitter_head_at(jb, now_us) - dt * jb->rate; // after this block
    double level = head - ((double)jb->read_pos + jb->read_frac / 4294967296.0);
    double a = dt / LEVEL_TAU_S;
    jb->level_avg += (level - jb->level_avg) * (a < 1.0 ? a : 1.0);
    double err_ms = (jb->level_avg - target) * 1000.0 / jb->rate;
    double target_ms = target * 1000.0 / jb->rate;
    if (err_ms > (CATCH_UP_MS > target_ms ? CATCH_UP_MS : target_ms)) {
        uint64_t to = (uint64_t)(head - target);
        tr_jitter_forget(jb, jb->read_pos - 1, to - 1);
        jb->stats.skipped_frames += to - jb->read_pos;
        jb->read_pos = to;
        jb->level_avg = target;
        err_ms = 0;
    }
    double limit = jb->config.max_ppm;
    double correction = KP_PPM_PER_MS * err_ms;
    jb->correction_ppm = correction > limit ? limit : correction < -limit ? -limit : correction;
    // (1 + drift) * (1 + correction): the drift feeds forward, the correction holds the level.
    jb->ratio_ppm = ((1.0 + jb->drift.ppm * 1e-6) * (1.0 + jb->correction_ppm * 1e-6) - 1.0) * 1e6;
    double step = (double)jb->rate / out_rate * (1.0 + jb->ratio_ppm * 1e-6);
    return (uint64_t)(step * 4294967296.0);
}

void tr_jitter_read(tr_jitter_t *jb, int16_t *out, size_t frames, uint32_t out_rate,
                    int64_t now_us)
{
    double target = tr_jitter_target_frames(jb);
    size_t f = 0;
    if (!jb->playing) {
        // Skip what was never written: a stream that starts, or resumes, later than it stopped.
        while (jb->read_pos < jb->write_head && !tr_jitter_is_present(jb, jb->read_pos)) {
            jb->read_pos++;
        }
        // The level as it will be after this block: the block is taken now, all at once.
        double block = (double)frames * jb->rate / out_rate;
        double level = tr_jitter_head_at(jb, now_us) - block - (double)jb->read_pos;
        if (level >= target && jb->write_head - jb->read_pos >= block + TR_JITTER_SLACK) {
            // Start exactly a target behind the newest audio: no transient for the controller,
            // and after a stall the burst that ends it is not all added to the latency.
            double start = (double)jb->read_pos + (level - target);
            uint64_t to = (uint64_t)start;
            tr_jitter_forget(jb, jb->read_pos - 1, to - 1);
            jb->stats.skipped_frames += to - jb->read_pos;
            jb->read_pos = to;
            jb->read_frac = (uint32_t)((start - (double)to) * 4294967296.0);
            level = target;
            jb->playing = true;
            jb->level_avg = level;
            jb->ramp = FADE_FRAMES;
            jb->conceal_run = 0;
        } else {
            for (; f < frames; f++) {
                fade_out(jb, out + 2 * f, false);
            }
            return;
        }
    }
    uint64_t step = control(jb, target, frames, out_rate, now_us);
    for (; f < frames; f++) {
        if (jb->read_pos + 2 >= jb->write_head) {
            jb->playing = false;
            jb->underrun_at_us = now_us;
            for (; f < frames; f++) {
                fade_out(jb, out + 2 * f, false);
            }
            return;
        }
        if (interpolate(jb, out + 2 * f)) {
            if (jb->conceal_run > 0) {
                jb->conceal_run = 0;
                jb->ramp = FADE_FRAMES;
            }
        } else {
            fade_out(jb, out + 2 * f, true);
        }
        jb->stats.played_frames++;
        uint64_t acc = (uint64_t)jb->read_frac + step;
        uint64_t advance = acc >> 32;
        jb->read_frac = (uint32_t)acc;
        if (advance > 0) {
            tr_jitter_forget(jb, jb->read_pos - 1, jb->read_pos - 1 + advance);
            jb->read_pos += advance;
        }
    }
}
