// What the device is doing: filled by the running parts (network, outputs, inputs), shown on
// the status page and at /api/status.
#pragma once

#include <stdint.h>

/** What the device is doing, for the status page and /api/status. */
typedef struct {
    const char *version;
    const char *hostname;    // without ".local"
    char ip[16];             // "" when not connected
    int8_t rssi;             // dBm, 0 when not connected
    char audio[96];          // one line: "playing from 192.168.1.5", "no USB DAC connected", ...
    char last_error[96];     // the latest problem worth showing ("" when none)
    uint32_t packets;
    uint32_t lost;
    uint32_t late;
    uint32_t dropped;        // malformed, unsupported or from a second sender
    uint32_t underruns;
    uint64_t concealed_frames;
    float target_ms;
    float level_ms;
    float drift_ppm;
    uint32_t uptime_s;
} tr_status_t;
