// USB audio on the ESP32-S3's USB OTG port (ESP-IDF only): as a host for a USB DAC (receiver
// mode, espressif/usb_host_uac) or as a USB sound card for a computer (sender mode,
// espressif/usb_device_uac on TinyUSB). One or the other: the port has one role per boot.
#pragma once

#include "esp_err.h"
#include "tr_pcm.h"
#include "tr_status.h"

/**
 * USB receiver: waits for a UAC 1.0 speaker or DAC, opens it with the best stereo format
 * (tr_uac_pick), and writes what `pull` returns at that rate. Survives unplugging.
 */
esp_err_t tr_usb_sink_start(tr_audio_pull_fn pull, void *ctx);

/** USB sender: a 48 kHz 16-bit stereo sound card; what the computer plays goes to `push`. */
esp_err_t tr_usb_source_start(tr_audio_push_fn push, void *ctx);

/** Problems worth showing (no DAC, a refused format, the computer not playing), if any. */
void tr_usb_sink_status(tr_status_t *status);
void tr_usb_source_status(tr_status_t *status);
