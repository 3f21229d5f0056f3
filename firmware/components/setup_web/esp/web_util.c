#include "web_util.h"

#include <stdio.h>
#include <string.h>

#include "tr_setup_pages.h"

static char s_page[24 * 1024];

char *tr_web_page(size_t *cap)
{
    *cap = sizeof s_page;
    return s_page;
}

esp_err_t tr_web_send(httpd_req_t *req, const char *status, const char *type, const char *body,
                      size_t len)
{
    httpd_resp_set_status(req, status);
    httpd_resp_set_type(req, type);
    httpd_resp_set_hdr(req, "Cache-Control", "no-store");
    return httpd_resp_send(req, body, (ssize_t)len);
}

esp_err_t tr_web_redirect(httpd_req_t *req, const char *status, const char *location)
{
    httpd_resp_set_status(req, status);
    httpd_resp_set_hdr(req, "Location", location);
    return httpd_resp_send(req, NULL, 0);
}

esp_err_t tr_web_error(httpd_req_t *req, const char *status, const char *field, const char *rule,
                       const char *message)
{
    tr_settings_error_t e;
    snprintf(e.field, sizeof e.field, "%s", field);
    snprintf(e.rule, sizeof e.rule, "%s", rule);
    snprintf(e.message, sizeof e.message, "%s", message);
    char body[256];
    size_t len = tr_error_json(&e, body, sizeof body);
    return tr_web_send(req, status, "application/json", body, len);
}

int tr_web_body(httpd_req_t *req, char *buf, size_t cap)
{
    if (req->content_len >= cap) {
        tr_web_error(req, "413 Payload Too Large", "body", "too_long",
                     "The request body is larger than this device accepts.");
        return -1;
    }
    size_t got = 0;
    while (got < req->content_len) {
        int n = httpd_req_recv(req, buf + got, req->content_len - got);
        if (n == HTTPD_SOCK_ERR_TIMEOUT) {
            continue;
        }
        if (n <= 0) {
            return -1; // the connection closed: nothing to answer
        }
        got += (size_t)n;
    }
    buf[got] = '\0';
    return (int)got;
}
