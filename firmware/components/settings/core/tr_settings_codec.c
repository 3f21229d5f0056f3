// The settings as text: the saved file (key=value lines), and JSON for the API.
#include <stdio.h>
#include <string.h>

#include "tr_json.h"
#include "tr_settings.h"
#include "tr_settings_fields.h"
#include "tr_text.h"

static const char *protocol_name(tr_protocol_t p)
{
    return p == TR_PROTO_SCREAM ? "scream" : "rtp";
}

static void encoded(tr_text_t *t, const char *key, const char *value)
{
    tr_text_str(t, key);
    tr_text_put(t, "=", 1);
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        if (*c <= 0x20 || *c >= 0x7f || *c == '%' || *c == '=') {
            tr_text_fmt(t, "%%%02X", *c);
        } else {
            tr_text_put(t, (const char *)c, 1);
        }
    }
    tr_text_put(t, "\n", 1);
}

size_t tr_settings_serialize(const tr_settings_t *s, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    char num[16];
    if (s->mode != TR_MODE_NONE) {
        encoded(&t, "mode", tr_mode_name(s->mode));
    }
    encoded(&t, "name", s->name);
    if (s->wifi_ssid[0]) {
        encoded(&t, "wifi_ssid", s->wifi_ssid);
    }
    encoded(&t, "wifi_password", s->wifi_password);
    if (s->config_id[0]) {
        encoded(&t, "config_id", s->config_id);
    }
    encoded(&t, "protocol", protocol_name(s->protocol));
    snprintf(num, sizeof num, "%u", (unsigned)s->port);
    encoded(&t, "port", num);
    encoded(&t, "target", s->target);
    snprintf(num, sizeof num, "%u", (unsigned)s->target_port);
    encoded(&t, "target_port", num);
    snprintf(num, sizeof num, "%lu", (unsigned long)s->rate);
    encoded(&t, "rate", num);
    snprintf(num, sizeof num, "%u.%02u", s->volume_percent / 100u, s->volume_percent % 100u);
    encoded(&t, "volume", num);
    encoded(&t, "jitter_adaptive", s->jitter_adaptive ? "true" : "false");
    snprintf(num, sizeof num, "%u", (unsigned)s->jitter_min_ms);
    encoded(&t, "jitter_min_ms", num);
    snprintf(num, sizeof num, "%u", (unsigned)s->jitter_max_ms);
    encoded(&t, "jitter_max_ms", num);
    encoded(&t, "sap", s->sap ? "true" : "false");
    snprintf(num, sizeof num, "%lu", (unsigned long)s->revision);
    encoded(&t, "revision", num);
    return tr_text_done(&t);
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool tr_settings_deserialize(const char *text, size_t len, tr_settings_t *out,
                             tr_settings_error_t *err)
{
    tr_settings_t s;
    tr_settings_defaults(&s);
    size_t at = 0;
    while (at < len) {
        char key[24];
        char value[80];
        size_t k = 0, v = 0;
        while (at < len && text[at] != '=' && text[at] != '\n' && k < sizeof key - 1) {
            key[k++] = text[at++];
        }
        key[k] = '\0';
        if (at >= len || text[at] != '=') {
            return tr_field_error(err, key, "format", "A line of the saved settings is damaged.");
        }
        at++;
        while (at < len && text[at] != '\n') {
            char c = text[at++];
            if (c == '%') {
                int hi = at + 1 < len ? hexval(text[at]) : -1;
                int lo = at + 1 < len ? hexval(text[at + 1]) : -1;
                if (hi < 0 || lo < 0) {
                    return tr_field_error(err, key, "format", "Bad escape in the saved settings.");
                }
                c = (char)(hi << 4 | lo);
                at += 2;
            }
            if (v >= sizeof value - 1 || c == '\0') {
                return tr_field_error(err, key, "format", "A saved value is damaged.");
            }
            value[v++] = c;
        }
        value[v] = '\0';
        at++; // the newline
        if (!tr_settings_set_field(&s, key, value, true, err)) {
            return false;
        }
    }
    if (!tr_settings_check(&s, err)) {
        return false;
    }
    *out = s;
    return true;
}

size_t tr_settings_json(const tr_settings_t *s, const char *version, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    tr_text_str(&t, "{\"config_id\":");
    tr_text_json(&t, s->config_id);
    tr_text_str(&t, ",\"name\":");
    tr_text_json(&t, s->name);
    tr_text_str(&t, ",\"mode\":");
    tr_text_json(&t, tr_mode_name(s->mode));
    tr_text_fmt(&t, ",\"protocol\":\"%s\",\"port\":%u,\"target\":", protocol_name(s->protocol),
                (unsigned)tr_settings_port(s));
    tr_text_json(&t, s->target);
    tr_text_fmt(&t,
                ",\"target_port\":%u,\"rate\":%lu,\"volume\":%u.%02u,\"jitter_adaptive\":%s,"
                "\"jitter_min_ms\":%u,\"jitter_max_ms\":%u,\"sap\":%s,\"wifi_ssid\":",
                (unsigned)tr_settings_target_port(s), (unsigned long)s->rate,
                s->volume_percent / 100u, s->volume_percent % 100u,
                s->jitter_adaptive ? "true" : "false", (unsigned)s->jitter_min_ms,
                (unsigned)s->jitter_max_ms, s->sap ? "true" : "false");
    tr_text_json(&t, s->wifi_ssid);
    tr_text_fmt(&t,
                ",\"wifi_password_set\":%s,\"revision\":%lu,\"bit_depth\":16,\"channels\":2,"
                "\"channel_layout\":\"stereo\",\"version\":",
                s->wifi_password[0] ? "true" : "false", (unsigned long)s->revision);
    tr_text_json(&t, version);
    tr_text_str(&t, "}");
    return tr_text_done(&t);
}

typedef struct {
    tr_settings_t next;
    const tr_settings_t *current;
    tr_settings_error_t *err;
} apply_t;

/** What JSON type each field takes. */
static tr_json_type_t field_type(const char *key)
{
    static const char *numbers[] = {"port", "target_port", "rate", "volume", "jitter_min_ms",
                                    "jitter_max_ms", "revision", "bit_depth", "channels"};
    static const char *bools[] = {"jitter_adaptive", "sap", "wifi_password_set"};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if (!strcmp(key, numbers[i])) {
            return TR_JSON_NUMBER;
        }
    }
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
        if (!strcmp(key, bools[i])) {
            return TR_JSON_BOOL;
        }
    }
    return TR_JSON_STRING;
}

static bool apply_member(void *ctx, const char *key, tr_json_type_t type, const char *value,
                         size_t len)
{
    (void)len;
    apply_t *a = ctx;
    tr_json_type_t want = field_type(key);
    if (type != want) {
        return tr_field_error(a->err, key, "type",
                              want == TR_JSON_NUMBER ? "Must be a number."
                              : want == TR_JSON_BOOL ? "Must be true or false."
                                                     : "Must be a string.");
    }
    // Fixed or device-owned values may be sent back unchanged (a GET, edited, then POSTed).
    if (!strcmp(key, "bit_depth") || !strcmp(key, "channels")) {
        bool same = !strcmp(value, !strcmp(key, "bit_depth") ? "16" : "2");
        return same || tr_field_error(a->err, key, "one_of",
                                      "This device plays and sends 16-bit stereo only.");
    }
    if (!strcmp(key, "channel_layout")) {
        return !strcmp(value, "stereo") ||
               tr_field_error(a->err, key, "one_of", "This device plays and sends stereo only.");
    }
    if (!strcmp(key, "wifi_password_set") || !strcmp(key, "version")) {
        return true;
    }
    if (!strcmp(key, "config_id") || !strcmp(key, "revision")) {
        char current[40];
        snprintf(current, sizeof current, "%lu", (unsigned long)a->current->revision);
        bool same = !strcmp(value, !strcmp(key, "config_id") ? a->current->config_id : current);
        return same || tr_field_error(a->err, key, "read_only", "Set by the device.");
    }
    return tr_settings_set(&a->next, key, value, a->err);
}

bool tr_settings_apply_json(tr_settings_t *s, const char *json, size_t len,
                            tr_settings_error_t *err)
{
    apply_t a = {*s, s, err};
    size_t at;
    const char *problem = tr_json_parse_object(json, len, apply_member, &a, &at);
    if (problem && strcmp(problem, "stopped") != 0) {
        char message[120];
        snprintf(message, sizeof message, "Not valid JSON at byte %lu: %s.", (unsigned long)at,
                 problem);
        return tr_field_error(err, "body", "format", message);
    }
    if (problem || !tr_settings_check(&a.next, err)) {
        return false;
    }
    a.next.revision = s->revision + 1;
    *s = a.next;
    return true;
}
