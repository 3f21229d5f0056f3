// S/PDIF output: I2S in MSB-justified 32-bit stereo at twice the sample rate gives 128 bits per
// audio frame, exactly the biphase-mark cell rate, on the data pin alone.
#include "driver/i2s_std.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tr_spdif.h"
#include "tr_spdif_idf.h"

static const char *TAG = "spdif_out";

#define FRAMES CONFIG_TR_SPDIF_DMA_FRAMES

static i2s_chan_handle_t s_tx;
static tr_audio_pull_fn s_pull;
static void *s_ctx;
static volatile uint32_t s_rate;
static volatile uint32_t s_wanted_rate;
static tr_spdif_encoder_t s_encoder;

static i2s_std_clk_config_t clock_for(uint32_t rate)
{
    i2s_std_clk_config_t clk = I2S_STD_CLK_DEFAULT_CONFIG(2 * rate);
    clk.mclk_multiple = I2S_MCLK_MULTIPLE_128;
    return clk;
}

static void out_task(void *arg)
{
    (void)arg;
    static int16_t frames[2 * FRAMES];
    static uint32_t words[TR_SPDIF_WORDS_PER_FRAME * FRAMES];
    for (;;) {
        uint32_t wanted = s_wanted_rate;
        if (wanted != s_rate) {
            i2s_std_clk_config_t clk = clock_for(wanted);
            i2s_channel_disable(s_tx);
            if (i2s_channel_reconfig_std_clock(s_tx, &clk) == ESP_OK) {
                s_rate = wanted;
                tr_spdif_encoder_init(&s_encoder, wanted);
                ESP_LOGI(TAG, "%lu Hz", (unsigned long)wanted);
            } else {
                ESP_LOGE(TAG, "cannot set the I2S clock for %lu Hz", (unsigned long)wanted);
                s_wanted_rate = s_rate;
            }
            i2s_channel_enable(s_tx);
        }
        s_pull(s_ctx, frames, FRAMES, s_rate);
        tr_spdif_encode(&s_encoder, frames, FRAMES, words);
        size_t written = 0;
        i2s_channel_write(s_tx, words, sizeof words, &written, portMAX_DELAY);
    }
}

esp_err_t tr_spdif_out_start(uint32_t rate, tr_audio_pull_fn pull, void *ctx)
{
    s_pull = pull;
    s_ctx = ctx;
    s_rate = s_wanted_rate = rate;
    tr_spdif_encoder_init(&s_encoder, rate);
    i2s_chan_config_t chan = I2S_CHANNEL_DEFAULT_CONFIG(I2S_NUM_AUTO, I2S_ROLE_MASTER);
    chan.dma_desc_num = CONFIG_TR_SPDIF_DMA_BUFFERS;
    chan.dma_frame_num = 2 * FRAMES; // I2S frames: two per S/PDIF frame
    // No auto-clear: zeroed DMA buffers would be a flat line, not S/PDIF, and the amplifier
    // would lose lock. The task writes encoded silence whenever the buffer has nothing.
    esp_err_t err = i2s_new_channel(&chan, &s_tx, NULL);
    if (err != ESP_OK) {
        return err;
    }
    i2s_std_config_t std = {
        .clk_cfg = clock_for(rate),
        .slot_cfg = I2S_STD_MSB_SLOT_DEFAULT_CONFIG(I2S_DATA_BIT_WIDTH_32BIT, I2S_SLOT_MODE_STEREO),
        .gpio_cfg = {
            .mclk = I2S_GPIO_UNUSED,
            .bclk = I2S_GPIO_UNUSED,
            .ws = I2S_GPIO_UNUSED,
            .dout = CONFIG_TR_SPDIF_OUT_GPIO,
            .din = I2S_GPIO_UNUSED,
        },
    };
    if ((err = i2s_channel_init_std_mode(s_tx, &std)) != ESP_OK ||
        (err = i2s_channel_enable(s_tx)) != ESP_OK) {
        return err;
    }
    ESP_LOGI(TAG, "S/PDIF out on GPIO %d", CONFIG_TR_SPDIF_OUT_GPIO);
    return xTaskCreatePinnedToCore(out_task, "spdif_out", 4096, NULL, configMAX_PRIORITIES - 3,
                                   NULL, 1) == pdPASS
               ? ESP_OK
               : ESP_ERR_NO_MEM;
}

void tr_spdif_out_set_rate(uint32_t rate)
{
    if (rate == 44100 || rate == 48000) {
        s_wanted_rate = rate;
    }
}
