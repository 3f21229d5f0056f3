#include "tr_mdns_txt.h"

#include <stdio.h>
#include <string.h>

const char *tr_mdns_service(tr_mode_t mode)
{
    return tr_mode_is_receiver(mode) ? "_tributary-sink" : "_tributary-source";
}

void tr_mdns_hostname(const char *name, char *out, size_t cap)
{
    size_t n = 0;
    size_t limit = cap - 1 < 63 ? cap - 1 : 63;
    for (const char *c = name; *c && n < limit; c++) {
        char ch = *c;
        if (ch >= 'A' && ch <= 'Z') {
            ch = (char)(ch + 32);
        }
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            out[n++] = ch;
        } else if (n > 0 && out[n - 1] != '-') {
            out[n++] = '-';
        }
    }
    while (n > 0 && out[n - 1] == '-') {
        n--;
    }
    out[n] = '\0';
    if (n == 0) {
        snprintf(out, cap, "esp32-rtp");
    }
}

static void item(tr_txt_item_t *items, size_t max, size_t *n, const char *key, const char *value)
{
    if (*n < max) {
        snprintf(items[*n].key, sizeof items[*n].key, "%s", key);
        snprintf(items[*n].value, sizeof items[*n].value, "%s", value);
        (*n)++;
    }
}

size_t tr_mdns_txt(const tr_settings_t *s, const char *ip, const char *version,
                   tr_txt_item_t *items, size_t max)
{
    size_t n = 0;
    char buf[16];
    item(items, max, &n, "id", s->config_id);
    item(items, max, &n, "ip", ip);
    // What it sends or listens for (the service's port is where: see tr_settings_port).
    item(items, max, &n, "type", s->protocol == TR_PROTO_SCREAM ? "scream" : "rtp");
    if (tr_mode_is_receiver(s->mode)) {
        item(items, max, &n, "bit_depth", "16");
        snprintf(buf, sizeof buf, "%lu", (unsigned long)s->rate);
        item(items, max, &n, "sample_rate", buf);
        item(items, max, &n, "channels", "2");
        item(items, max, &n, "channel_layout", "stereo");
    } else {
        item(items, max, &n, "version", version);
        snprintf(buf, sizeof buf, "%lu", (unsigned long)s->rate);
        item(items, max, &n, "sample_rate", buf);
    }
    item(items, max, &n, "name", s->name);
    item(items, max, &n, "mode", tr_mode_name(s->mode));
    snprintf(buf, sizeof buf, "%u.%02u", s->volume_percent / 100u, s->volume_percent % 100u);
    item(items, max, &n, "volume", buf);
    snprintf(buf, sizeof buf, "%lu", (unsigned long)s->revision);
    item(items, max, &n, "rev", buf);
    return n;
}
