// Everything a device is set up with: the wizard writes it, the settings page and the router
// (settings sync) change it, flash keeps it. Every change goes through the same validation, so
// nothing is saved that would not load again; errors name the field and the rule.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tr_packet.h"

typedef enum {
    TR_MODE_NONE = 0,        // not set up: the wizard runs
    TR_MODE_USB_RECEIVER,    // network -> USB DAC (the ESP32-S3 is a USB audio host)
    TR_MODE_SPDIF_RECEIVER,  // network -> S/PDIF out
    TR_MODE_USB_SENDER,      // USB sound card for a computer -> network
    TR_MODE_SPDIF_SENDER,    // S/PDIF in -> network
} tr_mode_t;

typedef struct {
    tr_mode_t mode;
    char name[33];           // 1-32 characters: letters, digits, space - _ .
    char wifi_ssid[33];      // 1-32 bytes
    char wifi_password[65];  // empty (open network) or 8-63 characters
    char config_id[37];      // UUID, assigned once, read-only
    tr_protocol_t protocol;
    uint16_t port;           // receivers: listen port; 0 = the protocol's default
    char target[64];         // senders: router address (IPv4 or host name)
    uint16_t target_port;    // 0 = the protocol's default
    uint32_t rate;           // 44100 or 48000
    uint8_t volume_percent;  // 0-100 (the API speaks 0.0-1.0)
    bool jitter_adaptive;
    uint16_t jitter_min_ms;  // 20-200
    uint16_t jitter_max_ms;  // 20-200, >= min
    bool sap;                // senders announce their RTP stream
    uint32_t revision;       // counts saved changes (read-only; in mDNS TXT as `rev`)
} tr_settings_t;

typedef struct {
    char field[24];
    char rule[20];      // required, too_long, range, one_of, format, unknown_field, read_only,
                        // type, order
    char message[120];
} tr_settings_error_t;

const char *tr_mode_name(tr_mode_t mode); // "usb_receiver", ... ("" for none)
bool tr_mode_is_receiver(tr_mode_t mode);
bool tr_mode_is_usb(tr_mode_t mode);

/** The Kconfig defaults (CONFIG_TR_DEFAULT_*, CONFIG_TR_JITTER_*, CONFIG_TR_SAP_ANNOUNCE). */
void tr_settings_defaults(tr_settings_t *s);

/**
 * Gives a device its identity once: `uuid` (16 random bytes) becomes config_id (RFC 4122
 * version 4), and a default name gains the id's last four hex digits.
 */
void tr_settings_assign_identity(tr_settings_t *s, const uint8_t uuid[16]);

/** Restores a saved config_id (false if it is not a UUID), naming a default-named device. */
bool tr_settings_restore_identity(tr_settings_t *s, const char *config_id);

/** Sets one field from text (as in forms, JSON strings or the saved file). */
bool tr_settings_set(tr_settings_t *s, const char *key, const char *value,
                     tr_settings_error_t *err);

/** Rules across fields (min <= max, a sender needs a target). */
bool tr_settings_check(const tr_settings_t *s, tr_settings_error_t *err);

/** Set up: a mode, a Wi-Fi network, and a target if it sends. */
bool tr_settings_configured(const tr_settings_t *s);

/** The receive port, or the destination port, with 0 resolved to the protocol's default. */
uint16_t tr_settings_port(const tr_settings_t *s);
uint16_t tr_settings_target_port(const tr_settings_t *s);

/** The saved form: "key=value" lines, values percent-encoded. 0 if `cap` is too small. */
size_t tr_settings_serialize(const tr_settings_t *s, char *out, size_t cap);

/** Reads the saved form over the defaults; false (with the error) if any line is invalid. */
bool tr_settings_deserialize(const char *text, size_t len, tr_settings_t *out,
                             tr_settings_error_t *err);

/**
 * The settings as JSON for the API: every field but the Wi-Fi password (reported as
 * wifi_password_set), plus the fixed format (bit_depth 16, channels 2, channel_layout stereo)
 * and the firmware `version`. 0 if `cap` is too small.
 */
size_t tr_settings_json(const tr_settings_t *s, const char *version, char *out, size_t cap);

/**
 * Applies a flat JSON object of changes, all or nothing: on any error `s` is unchanged and
 * `err` names the first field at fault. The revision counts each successful change.
 */
bool tr_settings_apply_json(tr_settings_t *s, const char *json, size_t len,
                            tr_settings_error_t *err);
