#include "tr_provision.h"

#include "tr_config.h"

void tr_reset_button_init(tr_reset_button_t *b)
{
    b->window_ms = CONFIG_TR_RESET_WINDOW_MS;
    b->hold_ms = CONFIG_TR_RESET_HOLD_MS;
    b->pressed = false;
    b->since_ms = 0;
    b->result = TR_RESET_WATCHING;
}

tr_reset_t tr_reset_button_sample(tr_reset_button_t *b, bool pressed, uint32_t now_ms)
{
    if (b->result != TR_RESET_WATCHING) {
        return b->result;
    }
    if (pressed && !b->pressed) {
        if (now_ms > b->window_ms) {
            return b->result = TR_RESET_NO; // pressed too late: an ordinary press
        }
        b->pressed = true;
        b->since_ms = now_ms;
    } else if (!pressed && b->pressed) {
        b->pressed = false; // released early: keep watching while the window lasts
    }
    if (b->pressed && now_ms - b->since_ms >= b->hold_ms) {
        return b->result = TR_RESET_YES;
    }
    if (!b->pressed && now_ms > b->window_ms) {
        return b->result = TR_RESET_NO;
    }
    return TR_RESET_WATCHING;
}

tr_boot_t tr_boot_decide(const tr_settings_t *s, bool loaded, bool setup_requested)
{
    return loaded && !setup_requested && tr_settings_configured(s) ? TR_BOOT_RUN : TR_BOOT_SETUP;
}

void tr_netwatch_init(tr_netwatch_t *n, uint32_t now_ms)
{
    n->state = TR_NET_CONNECTING;
    n->since_ms = now_ms;
    n->retry_at_ms = now_ms + 1000;
    n->attempts = 0;
}

tr_net_action_t tr_netwatch_connected(tr_netwatch_t *n, uint32_t now_ms)
{
    tr_net_state_t was = n->state;
    n->state = TR_NET_CONNECTED;
    n->since_ms = now_ms;
    n->attempts = 0;
    return was == TR_NET_FALLBACK ? TR_NET_STOP_SETUP_AP : TR_NET_NOTHING;
}

tr_net_action_t tr_netwatch_disconnected(tr_netwatch_t *n, uint32_t now_ms)
{
    if (n->state == TR_NET_CONNECTED) {
        n->state = TR_NET_CONNECTING;
        n->since_ms = now_ms;
        n->attempts = 0;
    }
    uint32_t backoff = n->attempts < 5 ? 1000u << n->attempts : 30000u;
    n->retry_at_ms = now_ms + backoff;
    n->attempts++;
    return TR_NET_NOTHING;
}

tr_net_action_t tr_netwatch_tick(tr_netwatch_t *n, uint32_t now_ms)
{
    if (n->state == TR_NET_CONNECTED) {
        return TR_NET_NOTHING;
    }
    if (n->state == TR_NET_CONNECTING &&
        now_ms - n->since_ms >= (uint32_t)CONFIG_TR_WIFI_FALLBACK_S * 1000u) {
        n->state = TR_NET_FALLBACK;
        return TR_NET_START_SETUP_AP;
    }
    if ((int32_t)(now_ms - n->retry_at_ms) >= 0) {
        n->retry_at_ms = now_ms + 30000u; // until the disconnect event sets the back-off
        return TR_NET_RETRY;
    }
    return TR_NET_NOTHING;
}
