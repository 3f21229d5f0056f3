// What a device says about itself over mDNS: its host name, its service, and the TXT fields the
// router reads (sinks: bit_depth, sample_rate, channels, channel_layout, id, ip; sources: id, ip,
// type, version), plus `type` for sinks too (the protocol they listen for), and the settings
// that sync (name, mode, volume, and `rev`, which counts saved changes).
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "tr_settings.h"

#define TR_MDNS_TXT_MAX 14

typedef struct {
    char key[16];
    char value[64];
} tr_txt_item_t;

/** Receivers: "_tributary-sink"; senders: "_tributary-source" (protocol "_udp"). */
const char *tr_mdns_service(tr_mode_t mode);

/**
 * A host name from the device name: lower case, letters, digits and single hyphens, at most 63
 * characters ("Living Room #2" -> "living-room-2"); "esp32-rtp" if nothing is left.
 */
void tr_mdns_hostname(const char *name, char *out, size_t cap);

/** The TXT items for `s` at address `ip` running firmware `version`; returns how many. */
size_t tr_mdns_txt(const tr_settings_t *s, const char *ip, const char *version,
                   tr_txt_item_t *items, size_t max);
