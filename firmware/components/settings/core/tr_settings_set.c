// Setting the non-text fields, and the rules across fields.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_config.h"
#include "tr_settings.h"
#include "tr_settings_fields.h"

bool tr_settings_set_field(tr_settings_t *s, const char *key, const char *v, bool trusted,
                           tr_settings_error_t *err)
{
    int text = tr_set_text_field(s, key, v, err);
    if (text >= 0) {
        return text == 1;
    }
    uint32_t n;
    bool b;
    if (!strcmp(key, "mode")) {
        for (int m = TR_MODE_USB_RECEIVER; m <= TR_MODE_SPDIF_SENDER; m++) {
            if (!strcmp(v, tr_mode_name((tr_mode_t)m))) {
                s->mode = (tr_mode_t)m;
                return true;
            }
        }
        return tr_field_error(err, key, "one_of",
                              "usb_receiver, spdif_receiver, usb_sender or spdif_sender.");
    }
    if (!strcmp(key, "protocol")) {
        if (strcmp(v, "rtp") && strcmp(v, "scream")) {
            return tr_field_error(err, key, "one_of", "rtp or scream.");
        }
        s->protocol = strcmp(v, "rtp") ? TR_PROTO_SCREAM : TR_PROTO_RTP;
        return true;
    }
    if (!strcmp(key, "port") || !strcmp(key, "target_port")) {
        if (!tr_parse_uint(v, 65535, &n)) {
            return tr_field_error(err, key, "range", "A port from 1 to 65535 (0: the default).");
        }
        *(!strcmp(key, "port") ? &s->port : &s->target_port) = (uint16_t)n;
        return true;
    }
    if (!strcmp(key, "rate")) {
        if (!tr_parse_uint(v, 1000000, &n) || (n != 44100 && n != 48000)) {
            return tr_field_error(err, key, "one_of", "44100 or 48000.");
        }
        s->rate = n;
        return true;
    }
    if (!strcmp(key, "volume")) {
        char *end = NULL;
        double x = strtod(v, &end);
        if (v[0] == '\0' || *end != '\0' || !(x >= 0.0 && x <= 1.0)) {
            return tr_field_error(err, key, "range", "A number from 0.0 to 1.0.");
        }
        s->volume_percent = (uint8_t)lround(x * 100.0);
        return true;
    }
    if (!strcmp(key, "jitter_min_ms") || !strcmp(key, "jitter_max_ms")) {
        if (!tr_parse_uint(v, 1000, &n) || n < 20 || n > 200) {
            return tr_field_error(err, key, "range", "From 20 to 200 ms.");
        }
        *(!strcmp(key, "jitter_min_ms") ? &s->jitter_min_ms : &s->jitter_max_ms) = (uint16_t)n;
        return true;
    }
    if (!strcmp(key, "jitter_adaptive") || !strcmp(key, "sap")) {
        if (!tr_parse_bool(v, &b)) {
            return tr_field_error(err, key, "type", "true or false.");
        }
        *(!strcmp(key, "sap") ? &s->sap : &s->jitter_adaptive) = b;
        return true;
    }
    if (!strcmp(key, "config_id") || !strcmp(key, "revision")) {
        if (!trusted) {
            return tr_field_error(err, key, "read_only", "Set by the device.");
        }
        if (!strcmp(key, "revision")) {
            if (!tr_parse_uint(v, UINT32_MAX, &n)) {
                return tr_field_error(err, key, "format", "A whole number.");
            }
            s->revision = n;
        } else if (!tr_uuid_text(v)) {
            return tr_field_error(err, key, "format", "A lower-case UUID.");
        } else {
            memcpy(s->config_id, v, 37);
        }
        return true;
    }
    return tr_field_error(err, key, "unknown_field", "Not a setting of this device.");
}

bool tr_settings_set(tr_settings_t *s, const char *key, const char *value,
                     tr_settings_error_t *err)
{
    return tr_settings_set_field(s, key, value, false, err);
}

bool tr_settings_check(const tr_settings_t *s, tr_settings_error_t *err)
{
    if (s->jitter_min_ms > s->jitter_max_ms) {
        return tr_field_error(err, "jitter_max_ms", "order",
                              "The ceiling must not be below the floor (jitter_min_ms).");
    }
    if (s->mode != TR_MODE_NONE && !tr_mode_is_receiver(s->mode) && s->target[0] == '\0') {
        return tr_field_error(err, "target", "required",
                              "A sender needs the router's address.");
    }
    return true;
}

bool tr_settings_configured(const tr_settings_t *s)
{
    return s->mode != TR_MODE_NONE && s->wifi_ssid[0] != '\0' && tr_settings_check(s, NULL);
}

uint16_t tr_settings_port(const tr_settings_t *s)
{
    return s->port ? s->port
                   : (uint16_t)(s->protocol == TR_PROTO_RTP ? CONFIG_TR_RTP_PORT : CONFIG_TR_SCREAM_PORT);
}

uint16_t tr_settings_target_port(const tr_settings_t *s)
{
    return s->target_port ? s->target_port
                          : (uint16_t)(s->protocol == TR_PROTO_RTP ? CONFIG_TR_RTP_PORT
                                                                   : CONFIG_TR_SCREAM_PORT);
}
