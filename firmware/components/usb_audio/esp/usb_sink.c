// USB receiver: the ESP32-S3 as a USB audio host for a UAC 1.0 DAC or speaker.
#include <stdio.h>
#include <string.h>

#include "esp_intr_alloc.h"
#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tr_uac_format.h"
#include "tr_usb_audio_idf.h"
#include "usb/uac_host.h"
#include "usb/usb_host.h"

static const char *TAG = "usb_sink";

#define BLOCK CONFIG_TR_USB_SINK_BLOCK_FRAMES

typedef struct {
    bool device_event;
    uint8_t addr;
    uint8_t iface;
    uac_host_driver_event_t driver_event;
    uac_host_device_handle_t handle;
    uac_host_device_event_t event;
} sink_event_t;

static QueueHandle_t s_events;
static tr_audio_pull_fn s_pull;
static void *s_ctx;
static volatile uac_host_device_handle_t s_speaker;
static volatile uint32_t s_rate;
static volatile uint8_t s_bits;
static char s_state[96] = "no USB DAC connected";

static void driver_cb(uint8_t addr, uint8_t iface, const uac_host_driver_event_t event, void *arg)
{
    (void)arg;
    sink_event_t e = {.device_event = false, .addr = addr, .iface = iface, .driver_event = event};
    xQueueSend(s_events, &e, 0);
}

static void device_cb(uac_host_device_handle_t handle, const uac_host_device_event_t event,
                      void *arg)
{
    (void)arg;
    sink_event_t e = {.device_event = true, .handle = handle, .event = event};
    xQueueSend(s_events, &e, 0);
}

static void host_task(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t flags = 0;
        usb_host_lib_handle_events(portMAX_DELAY, &flags);
        if (flags & USB_HOST_LIB_EVENT_FLAGS_NO_CLIENTS) {
            usb_host_device_free_all();
        }
    }
}

/** Opens a newly connected speaker interface with the best stereo format it offers. */
static void open_speaker(uint8_t addr, uint8_t iface)
{
    uint32_t rate_bytes = 48000u * 4u * CONFIG_TR_USB_SINK_BUFFER_MS / 1000u;
    const uac_host_device_config_t config = {
        .addr = addr,
        .iface_num = iface,
        .buffer_size = rate_bytes * 3,
        .buffer_threshold = rate_bytes,
        .callback = device_cb,
        .callback_arg = NULL,
    };
    uac_host_device_handle_t handle = NULL;
    if (uac_host_device_open(&config, &handle) != ESP_OK) {
        snprintf(s_state, sizeof s_state, "a USB audio device could not be opened");
        return;
    }
    uac_host_dev_info_t info;
    tr_uac_alt_t alts[8];
    size_t count = 0;
    if (uac_host_get_device_info(handle, &info) == ESP_OK) {
        for (uint8_t alt = 1; alt <= info.iface_alt_num && count < 8; alt++) {
            uac_host_dev_alt_param_t p;
            if (uac_host_get_device_alt_param(handle, alt, &p) != ESP_OK) {
                continue;
            }
            tr_uac_alt_t *a = &alts[count++];
            memset(a, 0, sizeof *a);
            a->channels = p.channels;
            a->bits = p.bit_resolution;
            a->continuous = p.sample_freq_type == 0;
            if (a->continuous) {
                a->lo = p.sample_freq_lower;
                a->hi = p.sample_freq_upper;
            } else {
                a->rate_count = p.sample_freq_type < 8 ? p.sample_freq_type : 8;
                for (uint8_t i = 0; i < a->rate_count && i < UAC_FREQ_NUM_MAX; i++) {
                    a->rates[i] = p.sample_freq[i];
                }
            }
        }
    }
    tr_uac_choice_t choice = tr_uac_pick(alts, count, 48000);
    if (choice.alt < 0) {
        snprintf(s_state, sizeof s_state,
                 "the USB DAC offers no 16- or 24-bit stereo format at 44.1 or 48 kHz");
        uac_host_device_close(handle);
        return;
    }
    uac_host_stream_config_t stream = {
        .channels = 2,
        .bit_resolution = choice.bits,
        .sample_freq = choice.rate,
        .flags = 0,
    };
    if (uac_host_device_start(handle, &stream) != ESP_OK) {
        snprintf(s_state, sizeof s_state, "the USB DAC refused %lu Hz, %u bits",
                 (unsigned long)choice.rate, choice.bits);
        uac_host_device_close(handle);
        return;
    }
    uac_host_device_set_mute(handle, false);
    s_rate = choice.rate;
    s_bits = choice.bits;
    s_speaker = handle;
    snprintf(s_state, sizeof s_state, "USB DAC at %lu Hz, %u bits", (unsigned long)choice.rate,
             choice.bits);
    ESP_LOGI(TAG, "%s", s_state);
}

static void event_task(void *arg)
{
    (void)arg;
    sink_event_t e;
    for (;;) {
        if (xQueueReceive(s_events, &e, portMAX_DELAY) != pdTRUE) {
            continue;
        }
        if (!e.device_event && e.driver_event == UAC_HOST_DRIVER_EVENT_TX_CONNECTED &&
            s_speaker == NULL) {
            open_speaker(e.addr, e.iface);
        } else if (e.device_event && e.event == UAC_HOST_DRIVER_EVENT_DISCONNECTED) {
            if (e.handle == s_speaker) {
                s_speaker = NULL;
                snprintf(s_state, sizeof s_state, "no USB DAC connected");
                ESP_LOGW(TAG, "USB DAC unplugged");
            }
            uac_host_device_close(e.handle);
        } else if (e.device_event && e.event == UAC_HOST_DEVICE_EVENT_TRANSFER_ERROR) {
            ESP_LOGW(TAG, "USB transfer error");
        }
    }
}

static void write_task(void *arg)
{
    (void)arg;
    static int16_t frames[2 * BLOCK];
    static uint8_t wide[2 * 3 * BLOCK];
    for (;;) {
        uac_host_device_handle_t speaker = s_speaker;
        if (speaker == NULL) {
            vTaskDelay(pdMS_TO_TICKS(100));
            continue;
        }
        s_pull(s_ctx, frames, BLOCK, s_rate);
        const uint8_t *data = (const uint8_t *)frames;
        uint32_t size = sizeof frames;
        if (s_bits == 24) {
            tr_pcm_s16_to_s24le(frames, 2 * BLOCK, wide);
            data = wide;
            size = sizeof wide;
        }
        // Blocks while the driver's buffer is full: the DAC's consumption paces this task.
        if (uac_host_device_write(speaker, (uint8_t *)data, size, portMAX_DELAY) != ESP_OK) {
            vTaskDelay(pdMS_TO_TICKS(10));
        }
    }
}

esp_err_t tr_usb_sink_start(tr_audio_pull_fn pull, void *ctx)
{
    s_pull = pull;
    s_ctx = ctx;
    s_events = xQueueCreate(8, sizeof(sink_event_t));
    const usb_host_config_t host = {.skip_phy_setup = false, .intr_flags = ESP_INTR_FLAG_LOWMED};
    esp_err_t err = usb_host_install(&host);
    if (err != ESP_OK || s_events == NULL) {
        return err != ESP_OK ? err : ESP_ERR_NO_MEM;
    }
    xTaskCreatePinnedToCore(host_task, "usb_host", 4096, NULL, 10, NULL, 0);
    const uac_host_driver_config_t uac = {
        .create_background_task = true,
        .task_priority = 11,
        .stack_size = 4096,
        .core_id = 0,
        .callback = driver_cb,
        .callback_arg = NULL,
    };
    if ((err = uac_host_install(&uac)) != ESP_OK) {
        return err;
    }
    xTaskCreatePinnedToCore(event_task, "usb_events", 4096, NULL, 6, NULL, 0);
    return xTaskCreatePinnedToCore(write_task, "usb_sink", 4096, NULL, configMAX_PRIORITIES - 3,
                                   NULL, 1) == pdPASS
               ? ESP_OK
               : ESP_ERR_NO_MEM;
}

void tr_usb_sink_status(tr_status_t *st)
{
    if (s_speaker == NULL) {
        snprintf(st->last_error, sizeof st->last_error, "%s", s_state);
    }
}
