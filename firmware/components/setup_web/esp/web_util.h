// Small helpers of the web server glue (not part of the component's interface).
#pragma once

#include <stddef.h>

#include "esp_http_server.h"
#include "tr_settings.h"

/** Reads the whole body into buf (NUL-terminated); -1 after answering 413 if it is too long. */
int tr_web_body(httpd_req_t *req, char *buf, size_t cap);

esp_err_t tr_web_send(httpd_req_t *req, const char *status, const char *type, const char *body,
                      size_t len);
esp_err_t tr_web_redirect(httpd_req_t *req, const char *status, const char *location);

/** A 4xx (or 5xx) JSON error body {"error": {field, rule, message}}. */
esp_err_t tr_web_error(httpd_req_t *req, const char *status, const char *field, const char *rule,
                       const char *message);

/** The shared page buffer (handlers run one at a time on the server's task). */
char *tr_web_page(size_t *cap);
