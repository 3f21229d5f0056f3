// S/PDIF on the ESP32-S3's I2S peripheral (ESP-IDF only): the output shifts the encoder's
// biphase-mark words out on one GPIO (no clock pins), the input samples one GPIO at 4 times the
// 48 kHz cell rate and decodes in software.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "esp_err.h"
#include "tr_pcm.h"
#include "tr_status.h"

/** Starts the output task: it pulls frames at the current rate and keeps the line running. */
esp_err_t tr_spdif_out_start(uint32_t rate, tr_audio_pull_fn pull, void *ctx);

/** A new stream rate (44.1 or 48 kHz): the I2S clock and the channel status follow. */
void tr_spdif_out_set_rate(uint32_t rate);

/** Starts the input task: decoded frames are pushed with the measured rate. */
esp_err_t tr_spdif_in_start(tr_audio_push_fn push, void *ctx);

/** Lock state and counters for the status page. */
void tr_spdif_in_status(tr_status_t *status);
