#include "tr_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tr_text_init(tr_text_t *t, char *buffer, size_t cap)
{
    t->data = buffer;
    t->cap = cap;
    t->len = 0;
    t->overflow = cap == 0;
    if (cap > 0) {
        buffer[0] = '\0';
    }
}

void tr_text_put(tr_text_t *t, const char *s, size_t len)
{
    if (t->overflow) {
        return;
    }
    if (t->len + len + 1 > t->cap) {
        t->overflow = true;
        return;
    }
    memcpy(t->data + t->len, s, len);
    t->len += len;
    t->data[t->len] = '\0';
}

void tr_text_str(tr_text_t *t, const char *s)
{
    tr_text_put(t, s, strlen(s));
}

void tr_text_fmt(tr_text_t *t, const char *fmt, ...)
{
    if (t->overflow) {
        return;
    }
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(t->data + t->len, t->cap - t->len, fmt, args);
    va_end(args);
    if (n < 0 || (size_t)n >= t->cap - t->len) {
        t->data[t->len] = '\0';
        t->overflow = true;
        return;
    }
    t->len += (size_t)n;
}

void tr_text_html(tr_text_t *t, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': tr_text_str(t, "&amp;"); break;
        case '<': tr_text_str(t, "&lt;"); break;
        case '>': tr_text_str(t, "&gt;"); break;
        case '"': tr_text_str(t, "&quot;"); break;
        case '\'': tr_text_str(t, "&#39;"); break;
        default: tr_text_put(t, s, 1); break;
        }
    }
}

void tr_text_json(tr_text_t *t, const char *s)
{
    tr_text_put(t, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char escaped[2] = {'\\', (char)c};
            tr_text_put(t, escaped, 2);
        } else if (c < 0x20) {
            tr_text_fmt(t, "\\u%04x", c);
        } else {
            tr_text_put(t, s, 1);
        }
    }
    tr_text_put(t, "\"", 1);
}

size_t tr_text_done(const tr_text_t *t)
{
    return t->overflow ? 0 : t->len;
}
