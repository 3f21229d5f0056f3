#include "modes.h"

#include <string.h>

#include "esp_log.h"
#include "sdkconfig.h"
#include "tr_net_audio_idf.h"
#include "tr_spdif_idf.h"
#include "tr_usb_audio_idf.h"

static const char *TAG = "modes";

static tr_jitter_config_t jitter_of(const tr_settings_t *s)
{
    return (tr_jitter_config_t){
        .adaptive = s->jitter_adaptive,
        .min_ms = s->jitter_min_ms,
        .max_ms = s->jitter_max_ms,
        .max_ppm = CONFIG_TR_JITTER_MAX_PPM,
    };
}

static void on_stream(uint32_t rate)
{
    tr_spdif_out_set_rate(rate); // S/PDIF follows the stream; a USB DAC keeps its rate
}

esp_err_t tr_modes_start(const tr_settings_t *s)
{
    esp_err_t err = ESP_OK;
    if (tr_mode_is_receiver(s->mode)) {
        tr_net_rx_config_t rx = {
            .protocol = s->protocol,
            .port = tr_settings_port(s),
            .rtp_rate = s->rate,
            .jitter = jitter_of(s),
            .volume_percent = s->volume_percent,
            .on_stream = s->mode == TR_MODE_SPDIF_RECEIVER ? on_stream : NULL,
        };
        err = tr_net_rx_start(&rx);
        if (err == ESP_OK) {
            err = s->mode == TR_MODE_SPDIF_RECEIVER ? tr_spdif_out_start(s->rate, tr_net_rx_pull, NULL)
                                                     : tr_usb_sink_start(tr_net_rx_pull, NULL);
        }
    } else {
        tr_net_tx_config_t tx = {
            .protocol = s->protocol,
            .target = s->target,
            .port = tr_settings_target_port(s),
            .sap = s->sap,
            .session_name = s->name,
            .volume_percent = s->volume_percent,
        };
        err = tr_net_tx_start(&tx);
        if (err == ESP_OK) {
            err = s->mode == TR_MODE_SPDIF_SENDER ? tr_spdif_in_start(tr_net_tx_push, NULL)
                                                   : tr_usb_source_start(tr_net_tx_push, NULL);
        }
    }
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "%s did not start: %s", tr_mode_name(s->mode), esp_err_to_name(err));
    }
    return err;
}

void tr_modes_status(const tr_settings_t *s, tr_status_t *st)
{
    switch (s->mode) {
    case TR_MODE_USB_RECEIVER:
        tr_net_rx_status(st);
        tr_usb_sink_status(st);
        break;
    case TR_MODE_SPDIF_RECEIVER:
        tr_net_rx_status(st);
        break;
    case TR_MODE_USB_SENDER:
        tr_net_tx_status(st);
        tr_usb_source_status(st);
        break;
    case TR_MODE_SPDIF_SENDER:
        tr_net_tx_status(st);
        tr_spdif_in_status(st);
        break;
    default:
        break;
    }
}

bool tr_modes_apply(const tr_settings_t *before, const tr_settings_t *now)
{
    if (tr_mode_is_receiver(now->mode)) {
        tr_net_rx_set_volume(now->volume_percent);
        tr_jitter_config_t j = jitter_of(now);
        tr_net_rx_set_jitter(&j);
    } else {
        tr_net_tx_set_volume(now->volume_percent);
    }
    // What the audio tasks were started with needs a restart to change.
    return before->mode != now->mode || before->protocol != now->protocol ||
           tr_settings_port(before) != tr_settings_port(now) ||
           tr_settings_target_port(before) != tr_settings_target_port(now) ||
           strcmp(before->target, now->target) != 0 || before->rate != now->rate ||
           before->sap != now->sap || strcmp(before->name, now->name) != 0;
}
