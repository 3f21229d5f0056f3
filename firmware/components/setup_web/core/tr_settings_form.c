#include "tr_settings_form.h"

#include <stdio.h>
#include <string.h>

#include "tr_form.h"

typedef struct {
    tr_settings_t next;
    tr_settings_error_t *err;
} form_t;

static bool pair(void *ctx, const char *key, const char *value)
{
    form_t *f = ctx;
    if (!strcmp(key, "mode") || !strncmp(key, "wifi_", 5)) {
        snprintf(f->err->field, sizeof f->err->field, "%s", key);
        snprintf(f->err->rule, sizeof f->err->rule, "read_only");
        snprintf(f->err->message, sizeof f->err->message,
                 "Change the mode or the Wi-Fi network with the wizard.");
        return false;
    }
    return tr_settings_set(&f->next, key, value, f->err);
}

bool tr_settings_apply_form(tr_settings_t *s, const char *body, size_t len,
                            tr_settings_error_t *err)
{
    form_t f = {*s, err};
    const char *problem = NULL;
    if (!tr_form_parse(body, len, pair, &f, &problem)) {
        if (strcmp(problem, "stopped") != 0) {
            snprintf(err->field, sizeof err->field, "body");
            snprintf(err->rule, sizeof err->rule, "format");
            snprintf(err->message, sizeof err->message, "The form arrived damaged (%s).",
                     problem);
        }
        return false;
    }
    if (!tr_settings_check(&f.next, err)) {
        return false;
    }
    f.next.revision = s->revision + 1;
    *s = f.next;
    return true;
}
