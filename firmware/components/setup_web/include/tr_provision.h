// The device's life before it plays: the factory-reset button read during the first seconds of
// boot, whether to run the wizard or the chosen mode, and falling back to the setup access point
// when the saved Wi-Fi network cannot be joined.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tr_settings.h"

typedef enum {
    TR_RESET_WATCHING, // keep sampling
    TR_RESET_NO,       // boot normally
    TR_RESET_YES,      // erase the settings (config_id stays)
} tr_reset_t;

typedef struct {
    uint32_t window_ms; // the press must start within this long after boot
    uint32_t hold_ms;   // and last this long
    bool pressed;
    uint32_t since_ms;
    tr_reset_t result;
} tr_reset_button_t;

/** From the Kconfig options CONFIG_TR_RESET_WINDOW_MS and CONFIG_TR_RESET_HOLD_MS. */
void tr_reset_button_init(tr_reset_button_t *b);

/** One reading of the button at `now_ms` since boot; sample every 10-50 ms until decided. */
tr_reset_t tr_reset_button_sample(tr_reset_button_t *b, bool pressed, uint32_t now_ms);

typedef enum {
    TR_BOOT_SETUP, // the ESP32-RTP access point and the wizard
    TR_BOOT_RUN,   // join the Wi-Fi network and start the mode
} tr_boot_t;

/**
 * `loaded`: the saved settings were read (false when missing or damaged). `setup_requested`:
 * the user asked for the wizard again from the device's page.
 */
tr_boot_t tr_boot_decide(const tr_settings_t *s, bool loaded, bool setup_requested);

typedef enum {
    TR_NET_CONNECTING,
    TR_NET_CONNECTED,
    TR_NET_FALLBACK, // still trying, with the setup access point up beside it
} tr_net_state_t;

typedef enum {
    TR_NET_NOTHING,
    TR_NET_RETRY,          // connect again
    TR_NET_START_SETUP_AP, // the network stayed out of reach: offer the setup page
    TR_NET_STOP_SETUP_AP,  // joined again
} tr_net_action_t;

typedef struct {
    tr_net_state_t state;
    uint32_t since_ms;    // when the current state began
    uint32_t retry_at_ms;
    uint32_t attempts;
} tr_netwatch_t;

void tr_netwatch_init(tr_netwatch_t *n, uint32_t now_ms);
tr_net_action_t tr_netwatch_connected(tr_netwatch_t *n, uint32_t now_ms);
tr_net_action_t tr_netwatch_disconnected(tr_netwatch_t *n, uint32_t now_ms);
/** Called every second or so; retries with back-off (1, 2, 4 ... 30 s). */
tr_net_action_t tr_netwatch_tick(tr_netwatch_t *n, uint32_t now_ms);
