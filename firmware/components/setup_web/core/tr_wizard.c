#include "tr_wizard.h"

#include <string.h>

#include "tr_form.h"

static const char *const NAMES[TR_STEP_COUNT] = {"wifi", "mode", "audio", "review", "done"};

static const char *const WIFI_FIELDS[] = {"wifi_ssid", "wifi_password", NULL};
static const char *const MODE_FIELDS[] = {"mode", NULL};
static const char *const RECEIVER_FIELDS[] = {"name", "protocol", "port", "rate", NULL};
// Senders take their rate from the input (USB: 48 kHz; S/PDIF: whatever the source sends).
static const char *const SENDER_FIELDS[] = {"name", "protocol", "target", "target_port", "sap",
                                            NULL};
static const char *const REVIEW_FIELDS[] = {"confirm", NULL};
static const char *const NO_FIELDS[] = {NULL};

const char *tr_wizard_step_name(tr_wizard_step_t step)
{
    return step < TR_STEP_COUNT ? NAMES[step] : "";
}

bool tr_wizard_step_parse(const char *name, tr_wizard_step_t *out)
{
    for (int i = 0; i < TR_STEP_COUNT; i++) {
        if (!strcmp(name, NAMES[i])) {
            *out = (tr_wizard_step_t)i;
            return true;
        }
    }
    return false;
}

const char *const *tr_wizard_fields(tr_wizard_step_t step, tr_mode_t mode)
{
    switch (step) {
    case TR_STEP_WIFI: return WIFI_FIELDS;
    case TR_STEP_MODE: return MODE_FIELDS;
    case TR_STEP_AUDIO:
        return tr_mode_is_receiver(mode) ? RECEIVER_FIELDS : SENDER_FIELDS;
    case TR_STEP_REVIEW: return REVIEW_FIELDS;
    default: return NO_FIELDS;
    }
}

void tr_wizard_start(tr_wizard_t *w, const tr_settings_t *current)
{
    memset(w, 0, sizeof *w);
    w->draft = *current;
    w->step = TR_STEP_WIFI;
    w->reached = TR_STEP_WIFI;
}

typedef struct {
    tr_wizard_t *w;
    tr_settings_t next;
    tr_wizard_step_t step;
    bool confirmed;
    bool seen_required;
} submit_t;

static bool field_allowed(tr_wizard_step_t step, tr_mode_t mode, const char *key)
{
    for (const char *const *f = tr_wizard_fields(step, mode); *f; f++) {
        if (!strcmp(*f, key)) {
            return true;
        }
    }
    return false;
}

static bool on_pair(void *ctx, const char *key, const char *value)
{
    submit_t *s = ctx;
    if (!field_allowed(s->step, s->next.mode, key)) {
        return true; // buttons and the like
    }
    if (!strcmp(key, "confirm")) {
        s->confirmed = true;
        return true;
    }
    if ((!strcmp(key, "port") || !strcmp(key, "target_port")) && value[0] == '\0') {
        value = "0"; // left empty: the protocol's default
    }
    return tr_settings_set(&s->next, key, value, &s->w->error);
}

static tr_wizard_step_t refuse(tr_wizard_t *w, const char *field, const char *rule,
                               const char *message)
{
    w->has_error = true;
    strncpy(w->error.field, field, sizeof w->error.field - 1);
    strncpy(w->error.rule, rule, sizeof w->error.rule - 1);
    strncpy(w->error.message, message, sizeof w->error.message - 1);
    return w->step;
}

tr_wizard_step_t tr_wizard_submit(tr_wizard_t *w, tr_wizard_step_t step, const char *form,
                                  size_t len)
{
    memset(&w->error, 0, sizeof w->error);
    w->has_error = false;
    if (step > w->reached || step >= TR_STEP_DONE) {
        return refuse(w, "step", "order", "Finish the earlier steps first.");
    }
    submit_t s = {w, w->draft, step, false, false};
    if (step == TR_STEP_AUDIO && !tr_mode_is_receiver(s.next.mode)) {
        s.next.sap = false; // an unticked checkbox is simply absent from the form
    }
    const char *problem = NULL;
    if (!tr_form_parse(form, len, on_pair, &s, &problem)) {
        if (strcmp(problem, "stopped") == 0) {
            w->has_error = true; // tr_settings_set filled the error
            w->step = step;
            return w->step;
        }
        w->step = step;
        return refuse(w, "form", "format", "The form arrived damaged; please send it again.");
    }
    w->step = step;
    // What each step cannot go without.
    if (step == TR_STEP_WIFI && s.next.wifi_ssid[0] == '\0') {
        return refuse(w, "wifi_ssid", "required", "Choose or type your Wi-Fi network.");
    }
    if (step == TR_STEP_MODE && s.next.mode == TR_MODE_NONE) {
        return refuse(w, "mode", "required", "Choose what this device does.");
    }
    if (step == TR_STEP_AUDIO && !tr_settings_check(&s.next, &w->error)) {
        w->has_error = true;
        return w->step;
    }
    if (step == TR_STEP_REVIEW) {
        if (!s.confirmed) {
            return refuse(w, "confirm", "required", "Press Save and restart to finish.");
        }
        if (!tr_settings_configured(&s.next)) {
            return refuse(w, "step", "order", "Some steps are not finished.");
        }
    }
    w->draft = s.next;
    w->step = (tr_wizard_step_t)(step + 1);
    if (w->step > w->reached) {
        w->reached = w->step;
    }
    // A changed mode invalidates the audio step (receivers and senders ask different things).
    if (step == TR_STEP_MODE && w->reached > TR_STEP_AUDIO) {
        w->reached = TR_STEP_AUDIO;
    }
    return w->step;
}

void tr_wizard_back(tr_wizard_t *w, tr_wizard_step_t step)
{
    if (step <= w->reached && step < TR_STEP_DONE) {
        w->step = step;
        w->has_error = false;
    }
}
