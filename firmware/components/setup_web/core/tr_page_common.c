#include "tr_page_common.h"

#include <string.h>

static const char STYLE[] =
    "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1c2430}"
    "main{max-width:34rem;margin:0 auto;padding:1rem}"
    "h1{font-size:1.35rem;margin:.5rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}"
    "form,section{background:#fff;border-radius:8px;padding:1rem;margin:0 0 1rem;"
    "box-shadow:0 1px 2px #0002}"
    "label{display:block;font-weight:600;margin:.8rem 0 .2rem}"
    "input,select{width:100%;box-sizing:border-box;padding:.55rem;font-size:1rem;"
    "border:1px solid #9aa5b1;border-radius:6px}"
    "input[type=radio],input[type=checkbox]{width:auto;margin-right:.5rem}"
    ".choice{display:block;border:1px solid #d0d7de;border-radius:6px;padding:.6rem;"
    "margin:.5rem 0;font-weight:400}"
    ".hint{color:#52606d;font-size:.9rem;margin:.2rem 0 0}"
    "[aria-invalid=true]{border-color:#b42318;outline:2px solid #b4231833}"
    ".error{background:#fdecea;border:1px solid #b42318;color:#7a1610;padding:.7rem;"
    "border-radius:6px;margin:0 0 1rem}"
    "button{background:#0b5cad;color:#fff;border:0;border-radius:6px;padding:.7rem 1.2rem;"
    "font-size:1rem;margin-top:1rem}"
    "a{color:#0b5cad}table{width:100%;border-collapse:collapse}"
    "td,th{text-align:left;padding:.3rem;border-bottom:1px solid #e4e7eb;vertical-align:top}"
    ".steps{color:#52606d;font-size:.9rem}";

void tr_page_open(tr_text_t *t, const char *title)
{
    tr_text_str(t, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                   "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                   "<title>");
    tr_text_html(t, title);
    tr_text_str(t, "</title><style>");
    tr_text_str(t, STYLE);
    tr_text_str(t, "</style></head><body><main>");
}

void tr_page_close(tr_text_t *t)
{
    tr_text_str(t, "</main></body></html>");
}

void tr_page_error(tr_text_t *t, const tr_settings_error_t *error)
{
    if (error == NULL || error->message[0] == '\0') {
        return;
    }
    tr_text_str(t, "<p class=\"error\" role=\"alert\">");
    tr_text_html(t, error->message);
    tr_text_str(t, "</p>");
}

void tr_page_input(tr_text_t *t, const char *label, const char *name, const char *type,
                   const char *value, const char *hint, const char *attrs,
                   const tr_settings_error_t *error)
{
    bool invalid = error && !strcmp(error->field, name);
    tr_text_fmt(t, "<label for=\"%s\">", name);
    tr_text_html(t, label);
    tr_text_fmt(t, "</label><input id=\"%s\" name=\"%s\" type=\"%s\" value=\"", name, name, type);
    tr_text_html(t, value);
    tr_text_str(t, "\"");
    if (attrs) {
        tr_text_put(t, " ", 1);
        tr_text_str(t, attrs);
    }
    if (invalid) {
        tr_text_fmt(t, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", name);
    }
    tr_text_str(t, ">");
    if (invalid) {
        tr_text_fmt(t, "<p class=\"hint\" id=\"%s-error\">", name);
        tr_text_html(t, error->message);
        tr_text_str(t, "</p>");
    } else if (hint) {
        tr_text_str(t, "<p class=\"hint\">");
        tr_text_html(t, hint);
        tr_text_str(t, "</p>");
    }
}
