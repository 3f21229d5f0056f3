// The wizard's pages: one form per step, posted to /setup/<step>.
#include <stdio.h>
#include <string.h>

#include "tr_page_common.h"
#include "tr_setup_pages.h"

static const struct {
    tr_mode_t mode;
    const char *title;
    const char *text;
} MODES[] = {
    {TR_MODE_USB_RECEIVER, "USB receiver",
     "Plays audio from Tributary on a USB DAC or USB speakers plugged into this board."},
    {TR_MODE_SPDIF_RECEIVER, "S/PDIF receiver",
     "Plays audio from Tributary on an S/PDIF output (GPIO 17) to an amplifier or soundbar."},
    {TR_MODE_USB_SENDER, "USB sender",
     "Appears as a USB sound card on a computer; what it plays goes to Tributary."},
    {TR_MODE_SPDIF_SENDER, "S/PDIF sender",
     "Sends an S/PDIF input (GPIO 17, from a TV or CD player) to Tributary."},
};

static const char *mode_title(tr_mode_t mode)
{
    for (size_t i = 0; i < sizeof MODES / sizeof MODES[0]; i++) {
        if (MODES[i].mode == mode) {
            return MODES[i].title;
        }
    }
    return "not chosen";
}

static void form_open(tr_text_t *t, const tr_wizard_t *w, tr_wizard_step_t step)
{
    tr_text_fmt(t, "<p class=\"steps\">Step %d of 4</p>", (int)step + 1);
    tr_page_error(t, w->has_error ? &w->error : NULL);
    tr_text_fmt(t, "<form method=\"post\" action=\"/setup/%s\">", tr_wizard_step_name(step));
}

static void form_close(tr_text_t *t, tr_wizard_step_t step, const char *button)
{
    tr_text_fmt(t, "<button type=\"submit\">%s</button></form>", button);
    if (step > TR_STEP_WIFI) {
        tr_text_fmt(t, "<p><a href=\"/setup/%s\">Back</a></p>", tr_wizard_step_name(step - 1));
    }
}

static void wifi_step(tr_text_t *t, const tr_wizard_t *w, const tr_scan_entry_t *scan, size_t n)
{
    const tr_settings_error_t *e = w->has_error ? &w->error : NULL;
    tr_text_str(t, "<h1>Connect to your Wi-Fi</h1>");
    form_open(t, w, TR_STEP_WIFI);
    tr_page_input(t, "Network name", "wifi_ssid", "text", w->draft.wifi_ssid,
                  "Pick one below or type it (2.4 GHz networks only).",
                  "list=\"networks\" required autocomplete=\"off\"", e);
    tr_text_str(t, "<datalist id=\"networks\">");
    for (size_t i = 0; i < n; i++) {
        tr_text_str(t, "<option value=\"");
        tr_text_html(t, scan[i].ssid);
        tr_text_str(t, "\">");
    }
    tr_text_str(t, "</datalist>");
    tr_page_input(t, "Password", "wifi_password", "password", w->draft.wifi_password,
                  "Leave empty for an open network.", NULL, e);
    form_close(t, TR_STEP_WIFI, "Next");
    if (n > 0) {
        tr_text_str(t, "<section><h2>Networks in range</h2><table><tr><th>Name</th>"
                       "<th>Signal</th></tr>");
        for (size_t i = 0; i < n; i++) {
            tr_text_str(t, "<tr><td>");
            tr_text_html(t, scan[i].ssid);
            tr_text_fmt(t, "%s</td><td>%d dBm%s</td></tr>", scan[i].secure ? "" : " (open)",
                        scan[i].rssi, scan[i].rssi < -70 ? " (weak: audio may drop out)" : "");
        }
        tr_text_str(t, "</table></section>");
    }
}

static void mode_step(tr_text_t *t, const tr_wizard_t *w)
{
    tr_text_str(t, "<h1>What should this device do?</h1>");
    form_open(t, w, TR_STEP_MODE);
    for (size_t i = 0; i < sizeof MODES / sizeof MODES[0]; i++) {
        tr_text_fmt(t,
                    "<label class=\"choice\"><input type=\"radio\" name=\"mode\" value=\"%s\"%s>"
                    "<strong>%s</strong><br>%s</label>",
                    tr_mode_name(MODES[i].mode), w->draft.mode == MODES[i].mode ? " checked" : "",
                    MODES[i].title, MODES[i].text);
    }
    form_close(t, TR_STEP_MODE, "Next");
}

static void option(tr_text_t *t, const char *value, const char *label, bool selected)
{
    tr_text_fmt(t, "<option value=\"%s\"%s>%s</option>", value, selected ? " selected" : "", label);
}

static void audio_step(tr_text_t *t, const tr_wizard_t *w)
{
    const tr_settings_t *d = &w->draft;
    const tr_settings_error_t *e = w->has_error ? &w->error : NULL;
    bool receiver = tr_mode_is_receiver(d->mode);
    char port[8] = "";
    tr_text_fmt(t, "<h1>%s</h1>", receiver ? "Receiving audio" : "Sending audio");
    form_open(t, w, TR_STEP_AUDIO);
    tr_page_input(t, "Device name", "name", "text", d->name,
                  "Shown in Tributary and used for its .local address.", "required", e);
    tr_text_str(t, "<label for=\"protocol\">Protocol</label><select id=\"protocol\" "
                   "name=\"protocol\">");
    option(t, "rtp", "RTP (L16)", d->protocol == TR_PROTO_RTP);
    option(t, "scream", "Scream", d->protocol == TR_PROTO_SCREAM);
    tr_text_str(t, "</select>");
    if (receiver) {
        if (d->port) {
            snprintf(port, sizeof port, "%u", (unsigned)d->port);
        }
        tr_page_input(t, "Listen port", "port", "number", port,
                      "Empty: 40000 for RTP, 4010 for Scream.", "min=\"1\" max=\"65535\"", e);
        tr_text_str(t, "<label for=\"rate\">Sample rate</label><select id=\"rate\" "
                       "name=\"rate\">");
        option(t, "48000", "48 kHz", d->rate == 48000);
        option(t, "44100", "44.1 kHz", d->rate == 44100);
        tr_text_str(t, "</select><p class=\"hint\">What Tributary should send; a Scream "
                       "stream or an RTP one announced by SAP says its own rate.</p>");
    } else {
        if (d->target_port) {
            snprintf(port, sizeof port, "%u", (unsigned)d->target_port);
        }
        tr_page_input(t, "Tributary server", "target", "text", d->target,
                      "Its IP address (192.168.1.10) or name (tributary.local).", "required", e);
        tr_page_input(t, "Destination port", "target_port", "number", port,
                      "Empty: 40000 for RTP, 4010 for Scream.", "min=\"1\" max=\"65535\"", e);
        tr_text_fmt(t,
                    "<label class=\"choice\"><input type=\"checkbox\" name=\"sap\"%s>Announce "
                    "the RTP stream (SAP), so Tributary and other players find it</label>",
                    d->sap ? " checked" : "");
    }
    form_close(t, TR_STEP_AUDIO, "Next");
}

static void row(tr_text_t *t, const char *label, const char *value)
{
    tr_text_fmt(t, "<tr><th>%s</th><td>", label);
    tr_text_html(t, value);
    tr_text_str(t, "</td></tr>");
}

static void review_step(tr_text_t *t, const tr_wizard_t *w)
{
    const tr_settings_t *d = &w->draft;
    char buf[96];
    tr_text_str(t, "<h1>Check and save</h1>");
    form_open(t, w, TR_STEP_REVIEW);
    tr_text_str(t, "<table>");
    row(t, "Wi-Fi", d->wifi_ssid);
    row(t, "Mode", mode_title(d->mode));
    row(t, "Name", d->name);
    snprintf(buf, sizeof buf, "%s, port %u", d->protocol == TR_PROTO_RTP ? "RTP" : "Scream",
             (unsigned)(tr_mode_is_receiver(d->mode) ? tr_settings_port(d)
                                                     : tr_settings_target_port(d)));
    row(t, "Protocol", buf);
    if (!tr_mode_is_receiver(d->mode)) {
        row(t, "Sends to", d->target);
    }
    tr_text_str(t, "</table><input type=\"hidden\" name=\"confirm\" value=\"1\">");
    form_close(t, TR_STEP_REVIEW, "Save and restart");
}

size_t tr_page_wizard(const tr_wizard_t *w, const tr_scan_entry_t *scan, size_t scan_count,
                      const char *hostname, char *out, size_t cap)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    tr_page_open(&t, "Set up your ESP32-S3");
    switch (w->step) {
    case TR_STEP_WIFI: wifi_step(&t, w, scan, scan_count); break;
    case TR_STEP_MODE: mode_step(&t, w); break;
    case TR_STEP_AUDIO: audio_step(&t, w); break;
    case TR_STEP_REVIEW: review_step(&t, w); break;
    default:
        tr_text_str(&t, "<h1>Saved</h1><section><p>The device restarts and joins <strong>");
        tr_text_html(&t, w->draft.wifi_ssid);
        tr_text_str(&t, "</strong>. Reconnect this phone or computer to that network, then open "
                        "<a href=\"http://");
        tr_text_html(&t, hostname);
        tr_text_str(&t, ".local/\">http://");
        tr_text_html(&t, hostname);
        tr_text_str(&t, ".local/</a> (or its address from your router's list of clients).</p>"
                        "<p>If it cannot join the network within a minute, the ESP32-RTP "
                        "access point comes back so you can correct the password.</p></section>");
        break;
    }
    tr_page_close(&t);
    return tr_text_done(&t);
}
