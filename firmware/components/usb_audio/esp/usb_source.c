// USB sender: the ESP32-S3 as a USB sound card (UAC via TinyUSB, espressif/usb_device_uac);
// what the computer plays arrives in 16-bit stereo at CONFIG_UAC_SAMPLE_RATE and is sent on.
#include <stdio.h>

#include "esp_log.h"
#include "esp_timer.h"
#include "sdkconfig.h"
#include "tr_usb_audio_idf.h"
#include "usb_device_uac.h"

static const char *TAG = "usb_source";

static tr_audio_push_fn s_push;
static void *s_ctx;
static volatile bool s_muted;
static volatile uint32_t s_host_volume = 100;
static volatile int64_t s_last_us;
static volatile uint64_t s_frames;

static esp_err_t on_output(uint8_t *buf, size_t len, void *ctx)
{
    (void)ctx;
    s_last_us = esp_timer_get_time();
    size_t frames = len / 4;
    s_frames += frames;
    if (s_muted || s_host_volume == 0) {
        static int16_t silence[2 * 480];
        while (frames > 0) { // keep the stream (and its timestamps) going
            size_t n = frames < 480 ? frames : 480;
            s_push(s_ctx, silence, n, CONFIG_UAC_SAMPLE_RATE);
            frames -= n;
        }
        return ESP_OK;
    }
    if (s_host_volume < 100) {
        tr_pcm_gain((int16_t *)buf, frames * 2, (uint8_t)s_host_volume);
    }
    s_push(s_ctx, (const int16_t *)buf, frames, CONFIG_UAC_SAMPLE_RATE);
    return ESP_OK;
}

static void on_mute(uint32_t mute, void *ctx)
{
    (void)ctx;
    s_muted = mute != 0;
}

static void on_volume(uint32_t volume, void *ctx)
{
    (void)ctx;
    // The computer's own volume slider (0-100), applied here; the device's volume setting
    // applies on top in the sender.
    s_host_volume = volume > 100 ? 100 : volume;
}

esp_err_t tr_usb_source_start(tr_audio_push_fn push, void *ctx)
{
    s_push = push;
    s_ctx = ctx;
    uac_device_config_t config = {
        .output_cb = on_output,
        .input_cb = NULL,
        .set_mute_cb = on_mute,
        .set_volume_cb = on_volume,
        .cb_ctx = NULL,
    };
    esp_err_t err = uac_device_init(&config);
    if (err == ESP_OK) {
        ESP_LOGI(TAG, "USB sound card ready (%d Hz, 16-bit stereo)", CONFIG_UAC_SAMPLE_RATE);
    }
    return err;
}

void tr_usb_source_status(tr_status_t *st)
{
    if (esp_timer_get_time() - s_last_us > 1000000) {
        snprintf(st->last_error, sizeof st->last_error,
                 "the computer is not playing to the USB sound card");
    } else if (s_muted) {
        snprintf(st->last_error, sizeof st->last_error, "muted on the computer");
    }
}
