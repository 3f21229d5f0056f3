#include "tr_form.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/** Decodes text[*at..] up to `stop` or '&' into out; false on a bad escape or overflow. */
static bool decode(const char *text, size_t len, size_t *at, char stop, char *out, size_t cap,
                   const char **problem)
{
    size_t n = 0;
    while (*at < len && text[*at] != '&' && text[*at] != stop) {
        char c = text[(*at)++];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            int hi = *at + 1 < len ? hexval(text[*at]) : -1;
            int lo = *at + 1 < len ? hexval(text[*at + 1]) : -1;
            if (hi < 0 || lo < 0) {
                *problem = "a malformed %-escape";
                return false;
            }
            c = (char)(hi << 4 | lo);
            *at += 2;
        }
        if (c == '\0') {
            *problem = "a NUL byte";
            return false;
        }
        if (n + 1 >= cap) {
            *problem = "a field longer than the form allows";
            return false;
        }
        out[n++] = c;
    }
    out[n] = '\0';
    return true;
}

bool tr_form_parse(const char *body, size_t len, tr_form_pair_fn fn, void *ctx,
                   const char **problem)
{
    char key[TR_FORM_KEY_MAX + 1];
    char value[TR_FORM_VALUE_MAX + 1];
    size_t at = 0;
    const char *unused;
    if (problem == NULL) {
        problem = &unused;
    }
    *problem = NULL;
    while (at < len) {
        if (body[at] == '&') {
            at++;
            continue;
        }
        if (!decode(body, len, &at, '=', key, sizeof key, problem)) {
            return false;
        }
        value[0] = '\0';
        if (at < len && body[at] == '=') {
            at++;
            if (!decode(body, len, &at, '&', value, sizeof value, problem)) {
                return false;
            }
        }
        if (!fn(ctx, key, value)) {
            *problem = "stopped";
            return false;
        }
    }
    return true;
}
