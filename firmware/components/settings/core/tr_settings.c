// Defaults, identity, and the rules for each field.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_config.h"
#include "tr_ipv4.h"
#include "tr_settings.h"
#include "tr_settings_fields.h"

static const char *const MODE_NAMES[] = {"", "usb_receiver", "spdif_receiver", "usb_sender",
                                         "spdif_sender"};

const char *tr_mode_name(tr_mode_t mode)
{
    return (unsigned)mode < 5 ? MODE_NAMES[mode] : "";
}

bool tr_mode_is_receiver(tr_mode_t mode)
{
    return mode == TR_MODE_USB_RECEIVER || mode == TR_MODE_SPDIF_RECEIVER;
}

bool tr_mode_is_usb(tr_mode_t mode)
{
    return mode == TR_MODE_USB_RECEIVER || mode == TR_MODE_USB_SENDER;
}

void tr_settings_defaults(tr_settings_t *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", CONFIG_TR_DEFAULT_NAME);
    s->protocol = strcmp(CONFIG_TR_DEFAULT_PROTOCOL, "scream") == 0 ? TR_PROTO_SCREAM : TR_PROTO_RTP;
    s->rate = CONFIG_TR_DEFAULT_RATE == 44100 ? 44100 : 48000;
    s->volume_percent = CONFIG_TR_DEFAULT_VOLUME_PERCENT;
#ifdef CONFIG_TR_JITTER_ADAPTIVE
    s->jitter_adaptive = true;
#endif
    s->jitter_min_ms = CONFIG_TR_JITTER_MIN_MS;
    s->jitter_max_ms = CONFIG_TR_JITTER_MAX_MS;
#ifdef CONFIG_TR_SAP_ANNOUNCE
    s->sap = true;
#endif
}

/** A default name gains the id's last four hex digits (ESP32-RTP-ABCD). */
static void name_after_identity(tr_settings_t *s)
{
    if (strcmp(s->name, CONFIG_TR_DEFAULT_NAME) == 0 && strlen(s->name) + 5 < sizeof s->name) {
        char suffix[6];
        snprintf(suffix, sizeof suffix, "-%.4s", s->config_id + 32);
        for (char *c = suffix; *c; c++) {
            *c = (char)((*c >= 'a' && *c <= 'f') ? *c - 32 : *c);
        }
        strcat(s->name, suffix);
    }
}

void tr_settings_assign_identity(tr_settings_t *s, const uint8_t uuid[16])
{
    uint8_t u[16];
    memcpy(u, uuid, 16);
    u[6] = (uint8_t)((u[6] & 0x0F) | 0x40); // version 4
    u[8] = (uint8_t)((u[8] & 0x3F) | 0x80); // RFC 4122 variant
    char *o = s->config_id;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            *o++ = '-';
        }
        o += sprintf(o, "%02x", u[i]);
    }
    name_after_identity(s);
}

bool tr_settings_restore_identity(tr_settings_t *s, const char *config_id)
{
    if (!tr_uuid_text(config_id)) {
        return false;
    }
    memcpy(s->config_id, config_id, 37);
    name_after_identity(s);
    return true;
}

bool tr_uuid_text(const char *v)
{
    if (strlen(v) != 36) {
        return false;
    }
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        bool hexdigit = (v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f');
        if (dash ? v[i] != '-' : !hexdigit) {
            return false;
        }
    }
    return true;
}

bool tr_field_error(tr_settings_error_t *err, const char *field, const char *rule,
                    const char *message)
{
    if (err) {
        snprintf(err->field, sizeof err->field, "%s", field);
        snprintf(err->rule, sizeof err->rule, "%s", rule);
        snprintf(err->message, sizeof err->message, "%s", message);
    }
    return false;
}

bool tr_parse_uint(const char *v, uint32_t max, uint32_t *out)
{
    size_t n = strlen(v);
    if (n == 0 || n > 10) {
        return false;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') {
            return false;
        }
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    if (x > max) {
        return false;
    }
    *out = (uint32_t)x;
    return true;
}

bool tr_parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1")) {
        *out = true;
    } else if (!strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0")) {
        *out = false;
    } else {
        return false;
    }
    return true;
}

/** A host name: dot-separated labels of letters, digits and inner hyphens. */
static bool host_name(const char *v)
{
    size_t label = 0;
    for (const char *c = v;; c++) {
        bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
        if (*c == '.' || *c == '\0') {
            if (label == 0 || c[-1] == '-') {
                return false;
            }
            if (*c == '\0') {
                return true;
            }
            label = 0;
        } else if (alnum || (*c == '-' && label > 0)) {
            if (++label > 63) {
                return false;
            }
        } else {
            return false;
        }
    }
}

int tr_set_text_field(tr_settings_t *s, const char *key, const char *v, tr_settings_error_t *err)
{
    size_t n = strlen(v);
    if (!strcmp(key, "name")) {
        if (n == 0) {
            return (int)tr_field_error(err, key, "required", "Give the device a name.");
        }
        if (n >= sizeof s->name) {
            return (int)tr_field_error(err, key, "too_long", "At most 32 characters.");
        }
        for (const char *c = v; *c; c++) {
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                  strchr(" -_.", *c))) {
                return (int)tr_field_error(err, key, "format",
                                      "Use letters, digits, spaces, '-', '_' and '.' only.");
            }
        }
        if (v[0] == ' ' || v[n - 1] == ' ') {
            return (int)tr_field_error(err, key, "format", "No spaces at the start or the end.");
        }
        memcpy(s->name, v, n + 1);
    } else if (!strcmp(key, "wifi_ssid")) {
        if (n == 0) {
            return (int)tr_field_error(err, key, "required", "Choose or type your Wi-Fi network.");
        }
        if (n >= sizeof s->wifi_ssid) {
            return (int)tr_field_error(err, key, "too_long", "Wi-Fi names have at most 32 bytes.");
        }
        for (const char *c = v; *c; c++) {
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                return (int)tr_field_error(err, key, "format", "No control characters.");
            }
        }
        memcpy(s->wifi_ssid, v, n + 1);
    } else if (!strcmp(key, "wifi_password")) {
        if (n != 0 && (n < 8 || n > 63)) {
            return (int)tr_field_error(err, key, "range",
                                  "WPA2 passwords have 8 to 63 characters (empty: open network).");
        }
        for (const char *c = v; *c; c++) {
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
                return (int)tr_field_error(err, key, "format", "Printable ASCII characters only.");
            }
        }
        memcpy(s->wifi_password, v, n + 1);
    } else if (!strcmp(key, "target")) {
        uint32_t ip;
        if (n >= sizeof s->target) {
            return (int)tr_field_error(err, key, "too_long", "At most 63 characters.");
        }
        if (n > 0 && !tr_ipv4_parse(v, n, &ip) && !host_name(v)) {
            return (int)tr_field_error(err, key, "format",
                                  "An IPv4 address (192.168.1.10) or a host name (tributary.local).");
        }
        memcpy(s->target, v, n + 1);
    } else {
        return -1; // not a text field
    }
    return 1;
}
