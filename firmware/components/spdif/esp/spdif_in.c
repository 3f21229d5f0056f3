// S/PDIF input: I2S as a 1-bit sampler. 32-bit stereo slots at 384 kHz make a continuous 24.576
// MHz sample clock on the data pin (4 samples per cell of a 48 kHz signal); the decoder tracks
// the cell length, so 44.1 and 32 kHz sources and clock offsets need no reconfiguration.
#include <stdio.h>

#include "driver/i2s_std.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tr_spdif.h"
#include "tr_spdif_idf.h"

static const char *TAG = "spdif_in";

#define CAPTURE_WORDS 1024
#define CAPTURE_RATE (48000u * 128u * CONFIG_TR_SPDIF_IN_OVERSAMPLE)

static i2s_chan_handle_t s_rx;
static tr_audio_push_fn s_push;
static void *s_ctx;
static tr_spdif_decoder_t s_decoder;
static volatile bool s_locked;

static void in_task(void *arg)
{
    (void)arg;
    static uint32_t words[CAPTURE_WORDS];
    static int16_t frames[2 * CAPTURE_WORDS]; // far more than a word can hold
    for (;;) {
        size_t got = 0;
        if (i2s_channel_read(s_rx, words, sizeof words, &got, portMAX_DELAY) != ESP_OK) {
            continue;
        }
        size_t n = tr_spdif_decode(&s_decoder, words, got / sizeof(uint32_t), frames,
                                   CAPTURE_WORDS);
        bool locked = tr_spdif_decoder_locked(&s_decoder);
        uint32_t rate = tr_spdif_decoder_rate(&s_decoder);
        if (locked != s_locked) {
            s_locked = locked;
            if (locked) {
                ESP_LOGI(TAG, "locked, %lu Hz", (unsigned long)rate);
            } else {
                ESP_LOGW(TAG, "signal lost");
            }
        }
        if (n > 0 && locked && (rate == 44100 || rate == 48000)) {
            s_push(s_ctx, frames, n, rate);
        }
    }
}

esp_err_t tr_spdif_in_start(tr_audio_push_fn push, void *ctx)
{
    s_push = push;
    s_ctx = ctx;
    tr_spdif_decoder_init(&s_decoder, CAPTURE_RATE);
    i2s_chan_config_t chan = I2S_CHANNEL_DEFAULT_CONFIG(I2S_NUM_AUTO, I2S_ROLE_MASTER);
    chan.dma_desc_num = 6;
    chan.dma_frame_num = 480;
    esp_err_t err = i2s_new_channel(&chan, NULL, &s_rx);
    if (err != ESP_OK) {
        return err;
    }
    i2s_std_config_t std = {
        .clk_cfg = I2S_STD_CLK_DEFAULT_CONFIG(CAPTURE_RATE / 64),
        .slot_cfg = I2S_STD_MSB_SLOT_DEFAULT_CONFIG(I2S_DATA_BIT_WIDTH_32BIT, I2S_SLOT_MODE_STEREO),
        .gpio_cfg = {
            .mclk = I2S_GPIO_UNUSED,
            .bclk = I2S_GPIO_UNUSED,
            .ws = I2S_GPIO_UNUSED,
            .dout = I2S_GPIO_UNUSED,
            .din = CONFIG_TR_SPDIF_IN_GPIO,
        },
    };
    std.clk_cfg.mclk_multiple = I2S_MCLK_MULTIPLE_128;
    if ((err = i2s_channel_init_std_mode(s_rx, &std)) != ESP_OK ||
        (err = i2s_channel_enable(s_rx)) != ESP_OK) {
        return err;
    }
    ESP_LOGI(TAG, "S/PDIF in on GPIO %d, sampled at %lu Hz", CONFIG_TR_SPDIF_IN_GPIO,
             (unsigned long)CAPTURE_RATE);
    return xTaskCreatePinnedToCore(in_task, "spdif_in", 4096, NULL, configMAX_PRIORITIES - 3,
                                   NULL, 1) == pdPASS
               ? ESP_OK
               : ESP_ERR_NO_MEM;
}

void tr_spdif_in_status(tr_status_t *st)
{
    uint32_t rate = tr_spdif_decoder_rate(&s_decoder);
    if (!s_locked) {
        snprintf(st->last_error, sizeof st->last_error,
                 "no S/PDIF signal on GPIO %d (%lu sync losses, %lu parity errors)",
                 CONFIG_TR_SPDIF_IN_GPIO, (unsigned long)s_decoder.sync_losses,
                 (unsigned long)s_decoder.parity_errors);
    } else if (rate != 44100 && rate != 48000) {
        snprintf(st->last_error, sizeof st->last_error,
                 "S/PDIF input at an unsupported rate (%lu Hz): 44.1 or 48 kHz only",
                 (unsigned long)rate);
    }
}
