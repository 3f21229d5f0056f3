// A set-up device's own page (status, settings, firmware update), /api/status, and error bodies.
#include <stdio.h>
#include <string.h>

#include "tr_page_common.h"
#include "tr_setup_pages.h"

static void row(tr_text_t *t, const char *label, const char *value)
{
    tr_text_fmt(t, "<tr><th>%s</th><td>", label);
    tr_text_html(t, value);
    tr_text_str(t, "</td></tr>");
}

static void stats(tr_text_t *t, const tr_settings_t *s, const tr_status_t *st)
{
    char buf[128];
    tr_text_str(t, "<section><h2>Status</h2><table>");
    row(t, "Audio", st->audio);
    if (st->last_error[0]) {
        row(t, "Last problem", st->last_error);
    }
    snprintf(buf, sizeof buf, "%s, %d dBm%s", st->ip[0] ? st->ip : "not connected", st->rssi,
             st->rssi < -70 && st->ip[0] ? " (weak: move the board or the access point)" : "");
    row(t, "Network", buf);
    if (tr_mode_is_receiver(s->mode)) {
        snprintf(buf, sizeof buf, "%lu received, %lu lost, %lu late, %lu dropped",
                 (unsigned long)st->packets, (unsigned long)st->lost, (unsigned long)st->late,
                 (unsigned long)st->dropped);
        row(t, "Packets", buf);
        snprintf(buf, sizeof buf, "%.1f ms queued (target %.1f ms), %lu underruns, %.0f ms concealed",
                 (double)st->level_ms, (double)st->target_ms, (unsigned long)st->underruns,
                 (double)st->concealed_frames * 1000.0 / s->rate);
        row(t, "Buffer", buf);
        snprintf(buf, sizeof buf, "%+.0f ppm", (double)st->drift_ppm);
        row(t, "Sender clock", buf);
    } else {
        snprintf(buf, sizeof buf, "%lu sent", (unsigned long)st->packets);
        row(t, "Packets", buf);
    }
    row(t, "Firmware", st->version);
    row(t, "config_id", s->config_id);
    tr_text_str(t, "</table></section>");
}

static void settings_form(tr_text_t *t, const tr_settings_t *s, const tr_settings_error_t *e)
{
    char buf[16];
    tr_text_str(t, "<form method=\"post\" action=\"/settings\"><h2>Settings</h2>");
    tr_page_input(t, "Name", "name", "text", s->name, NULL, "required", e);
    snprintf(buf, sizeof buf, "%u.%02u", s->volume_percent / 100u, s->volume_percent % 100u);
    tr_page_input(t, "Volume (0 to 1)", "volume", "number", buf, NULL,
                  "min=\"0\" max=\"1\" step=\"0.01\"", e);
    if (tr_mode_is_receiver(s->mode)) {
        snprintf(buf, sizeof buf, "%u", (unsigned)s->jitter_min_ms);
        tr_page_input(t, "Jitter buffer floor (ms)", "jitter_min_ms", "number", buf,
                      "20 to 200; the fixed size when not adaptive.", "min=\"20\" max=\"200\"", e);
        snprintf(buf, sizeof buf, "%u", (unsigned)s->jitter_max_ms);
        tr_page_input(t, "Jitter buffer ceiling (ms)", "jitter_max_ms", "number", buf, NULL,
                      "min=\"20\" max=\"200\"", e);
        tr_text_fmt(t,
                    "<input type=\"hidden\" name=\"jitter_adaptive\" value=\"false\">"
                    "<label class=\"choice\"><input type=\"checkbox\" name=\"jitter_adaptive\" "
                    "value=\"true\"%s>Adapt to the network's jitter</label>",
                    s->jitter_adaptive ? " checked" : "");
    } else {
        tr_page_input(t, "Tributary server", "target", "text", s->target, NULL, "required", e);
    }
    tr_text_str(t, "<button type=\"submit\">Save</button></form>");
}

size_t tr_page_status(const tr_settings_t *s, const tr_status_t *st,
                      const tr_settings_error_t *error, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    tr_page_open(&t, s->name);
    tr_text_str(&t, "<h1>");
    tr_text_html(&t, s->name);
    tr_text_fmt(&t, "</h1><p class=\"steps\">%s</p>", tr_mode_name(s->mode));
    tr_page_error(&t, error);
    stats(&t, s, st);
    settings_form(&t, s, error);
    tr_text_str(&t,
                "<form method=\"post\" action=\"/ota\"><h2>Update the firmware</h2>"
                "<label for=\"url\">From a URL (esp32-rtp.bin)</label>"
                "<input id=\"url\" name=\"url\" type=\"url\" required>"
                "<button type=\"submit\">Update</button></form>"
                "<form method=\"post\" action=\"/setup/restart\"><h2>Set up again</h2>"
                "<p class=\"hint\">Runs the wizard again (Wi-Fi, mode, audio) on the ESP32-RTP "
                "access point. To erase everything, hold BOOT for 3 s right after power-on.</p>"
                "<button type=\"submit\">Start the wizard</button></form>"
                "<p><a href=\"/api/status\">/api/status</a> &middot; "
                "<a href=\"/api/settings\">/api/settings</a></p>");
    tr_page_close(&t);
    return tr_text_done(&t);
}

size_t tr_status_json(const tr_settings_t *s, const tr_status_t *st, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    tr_text_str(&t, "{\"name\":");
    tr_text_json(&t, s->name);
    tr_text_str(&t, ",\"mode\":");
    tr_text_json(&t, tr_mode_name(s->mode));
    tr_text_str(&t, ",\"config_id\":");
    tr_text_json(&t, s->config_id);
    tr_text_str(&t, ",\"version\":");
    tr_text_json(&t, st->version);
    tr_text_str(&t, ",\"hostname\":");
    tr_text_json(&t, st->hostname);
    tr_text_str(&t, ",\"ip\":");
    tr_text_json(&t, st->ip);
    tr_text_fmt(&t, ",\"rssi\":%d,\"uptime_s\":%lu,\"audio\":", st->rssi,
                (unsigned long)st->uptime_s);
    tr_text_json(&t, st->audio);
    tr_text_str(&t, ",\"last_error\":");
    tr_text_json(&t, st->last_error);
    tr_text_fmt(&t,
                ",\"packets\":%lu,\"lost\":%lu,\"late\":%lu,\"dropped\":%lu,\"underruns\":%lu,"
                "\"concealed_frames\":%llu,\"target_ms\":%.1f,\"level_ms\":%.1f,"
                "\"drift_ppm\":%.1f}",
                (unsigned long)st->packets, (unsigned long)st->lost, (unsigned long)st->late,
                (unsigned long)st->dropped, (unsigned long)st->underruns,
                (unsigned long long)st->concealed_frames, (double)st->target_ms,
                (double)st->level_ms, (double)st->drift_ppm);
    return tr_text_done(&t);
}

size_t tr_error_json(const tr_settings_error_t *e, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    tr_text_str(&t, "{\"error\":{\"field\":");
    tr_text_json(&t, e->field);
    tr_text_str(&t, ",\"rule\":");
    tr_text_json(&t, e->rule);
    tr_text_str(&t, ",\"message\":");
    tr_text_json(&t, e->message);
    tr_text_str(&t, "}}");
    return tr_text_done(&t);
}
