// Routes of the device's web server. Wizard mode: /setup/<step> pages, everything else
// redirects there (captive portal). Set-up mode: the status page, /settings, /api/settings
// (settings sync), /api/status, and firmware updates (/api/ota, /api/ota/url, /ota).
#include <stdio.h>
#include <string.h>

#include "esp_log.h"
#include "esp_system.h"
#include "esp_timer.h"
#include "sdkconfig.h"
#include "tr_form.h"
#include "tr_json.h"
#include "tr_ota_idf.h"
#include "tr_settings_form.h"
#include "tr_settings_store_idf.h"
#include "tr_setup_pages.h"
#include "tr_web_idf.h"
#include "tr_wifi_idf.h"
#include "tr_wizard.h"
#include "web_util.h"

static const char *TAG = "web";

static tr_web_config_t s_config;
static tr_wizard_t s_wizard;
static tr_scan_entry_t s_scan[16];
static size_t s_scan_count;
static int64_t s_scan_at = -100000000;
static char s_body[2048];

static void restart_now(void *arg)
{
    (void)arg;
    esp_restart();
}

static void restart_soon(void)
{
    static esp_timer_handle_t timer;
    const esp_timer_create_args_t args = {.callback = restart_now, .name = "restart"};
    if (timer == NULL && esp_timer_create(&args, &timer) == ESP_OK) {
        esp_timer_start_once(timer, 1500000); // the answer reaches the browser first
    }
}

static esp_err_t wizard_page(httpd_req_t *req, const char *status)
{
    if (s_wizard.step == TR_STEP_WIFI && esp_timer_get_time() - s_scan_at > 10000000) {
        s_scan_count = tr_wifi_scan(s_scan, sizeof s_scan / sizeof s_scan[0]);
        s_scan_at = esp_timer_get_time();
    }
    size_t cap;
    char *page = tr_web_page(&cap);
    size_t len = tr_page_wizard(&s_wizard, s_scan, s_scan_count, s_config.hostname, page, cap);
    return tr_web_send(req, status, "text/html; charset=utf-8", page, len);
}

static bool step_of(httpd_req_t *req, tr_wizard_step_t *step)
{
    char name[16];
    const char *tail = req->uri + strlen("/setup/");
    size_t n = strcspn(tail, "?");
    if (n >= sizeof name) {
        return false;
    }
    memcpy(name, tail, n);
    name[n] = '\0';
    return tr_wizard_step_parse(name, step);
}

static esp_err_t setup_get(httpd_req_t *req)
{
    tr_wizard_step_t step;
    if (!s_config.setup) {
        return tr_web_redirect(req, "303 See Other", "/");
    }
    if (step_of(req, &step)) {
        tr_wizard_back(&s_wizard, step);
    }
    return wizard_page(req, "200 OK");
}

static esp_err_t setup_post(httpd_req_t *req)
{
    if (!s_config.setup) {
        if (strcmp(req->uri, "/setup/restart") == 0) {
            tr_store_request_setup();
            restart_soon();
            static const char text[] = "Restarting into the wizard on the ESP32-RTP network.";
            return tr_web_send(req, "200 OK", "text/plain", text, sizeof text - 1);
        }
        return tr_web_redirect(req, "303 See Other", "/");
    }
    tr_wizard_step_t step;
    int len = tr_web_body(req, s_body, sizeof s_body);
    if (len < 0) {
        return ESP_OK;
    }
    if (!step_of(req, &step)) {
        return tr_web_redirect(req, "303 See Other", "/");
    }
    if (tr_wizard_submit(&s_wizard, step, s_body, (size_t)len) == TR_STEP_DONE) {
        if (tr_store_save(&s_wizard.draft) != ESP_OK) {
            s_wizard.step = TR_STEP_REVIEW;
            s_wizard.has_error = true;
            snprintf(s_wizard.error.message, sizeof s_wizard.error.message,
                     "The settings could not be saved to flash; please try again.");
            return wizard_page(req, "500 Internal Server Error");
        }
        *s_config.settings = s_wizard.draft;
        ESP_LOGI(TAG, "set up as %s; restarting", tr_mode_name(s_wizard.draft.mode));
        restart_soon();
    }
    return wizard_page(req, s_wizard.has_error ? "400 Bad Request" : "200 OK");
}

static esp_err_t status_page(httpd_req_t *req, const char *status, const tr_settings_error_t *e)
{
    tr_status_t st;
    memset(&st, 0, sizeof st);
    s_config.status(&st);
    size_t cap;
    char *page = tr_web_page(&cap);
    size_t len = tr_page_status(s_config.settings, &st, e, page, cap);
    return tr_web_send(req, status, "text/html; charset=utf-8", page, len);
}

static esp_err_t root_get(httpd_req_t *req)
{
    if (s_config.setup) {
        char location[32];
        snprintf(location, sizeof location, "/setup/%s", tr_wizard_step_name(s_wizard.step));
        return tr_web_redirect(req, "302 Found", location);
    }
    return status_page(req, "200 OK", NULL);
}

/** Saves a changed copy; answers the error itself and returns false if it cannot. */
static bool commit(httpd_req_t *req, const tr_settings_t *next, bool json)
{
    if (tr_store_save(next) != ESP_OK) {
        if (json) {
            tr_web_error(req, "503 Service Unavailable", "body", "storage",
                         "The settings could not be saved to flash; nothing changed.");
        } else {
            tr_settings_error_t e = {"body", "storage", "The settings could not be saved."};
            status_page(req, "503 Service Unavailable", &e);
        }
        return false;
    }
    tr_settings_t before = *s_config.settings;
    *s_config.settings = *next;
    s_config.changed(&before);
    return true;
}

static esp_err_t settings_post(httpd_req_t *req)
{
    int len = tr_web_body(req, s_body, sizeof s_body);
    if (len < 0) {
        return ESP_OK;
    }
    tr_settings_t next = *s_config.settings;
    tr_settings_error_t e;
    if (!tr_settings_apply_form(&next, s_body, (size_t)len, &e)) {
        return status_page(req, "400 Bad Request", &e);
    }
    return commit(req, &next, false) ? tr_web_redirect(req, "303 See Other", "/") : ESP_OK;
}

static esp_err_t api_settings(httpd_req_t *req)
{
    size_t cap;
    char *page = tr_web_page(&cap);
    if (req->method == HTTP_POST || req->method == HTTP_PUT) {
        int len = tr_web_body(req, s_body, sizeof s_body);
        if (len < 0) {
            return ESP_OK;
        }
        tr_settings_t next = *s_config.settings;
        tr_settings_error_t e;
        if (!tr_settings_apply_json(&next, s_body, (size_t)len, &e)) {
            size_t n = tr_error_json(&e, page, cap);
            return tr_web_send(req, "400 Bad Request", "application/json", page, n);
        }
        if (!commit(req, &next, true)) {
            return ESP_OK;
        }
    }
    tr_status_t st = {0};
    s_config.status(&st);
    size_t n = tr_settings_json(s_config.settings, st.version, page, cap);
    return tr_web_send(req, "200 OK", "application/json", page, n);
}

static esp_err_t api_status(httpd_req_t *req)
{
    tr_status_t st;
    memset(&st, 0, sizeof st);
    s_config.status(&st);
    size_t cap;
    char *page = tr_web_page(&cap);
    size_t n = tr_status_json(s_config.settings, &st, page, cap);
    return tr_web_send(req, "200 OK", "application/json", page, n);
}

static esp_err_t api_ota(httpd_req_t *req)
{
    if (req->content_len > (size_t)CONFIG_TR_OTA_MAX_UPLOAD_KB * 1024u) {
        return tr_web_error(req, "413 Payload Too Large", "body", "too_long",
                            "Larger than an OTA slot: is this esp32-rtp.bin?");
    }
    tr_ota_upload_t *u = tr_ota_upload_begin();
    if (u == NULL) {
        return tr_web_error(req, "409 Conflict", "body", "busy", "An update is already running.");
    }
    size_t left = req->content_len;
    while (left > 0) {
        int n = httpd_req_recv(req, s_body, left < sizeof s_body ? left : sizeof s_body);
        if (n == HTTPD_SOCK_ERR_TIMEOUT) {
            continue;
        }
        if (n <= 0) {
            tr_ota_upload_abort(u);
            return ESP_FAIL;
        }
        const char *why = tr_ota_upload_write(u, (const uint8_t *)s_body, (size_t)n);
        if (why) {
            return tr_web_error(req, "400 Bad Request", "body", "image", why);
        }
        left -= (size_t)n;
    }
    const char *why = tr_ota_upload_end(u);
    if (why) {
        return tr_web_error(req, "400 Bad Request", "body", "image", why);
    }
    restart_soon();
    static const char done[] = "{\"status\":\"installed, restarting\"}";
    return tr_web_send(req, "200 OK", "application/json", done, sizeof done - 1);
}

static bool take_url(void *ctx, const char *key, const char *value)
{
    if (strcmp(key, "url") == 0) {
        snprintf((char *)ctx, 256, "%s", value);
    }
    return true;
}

static bool take_json_url(void *ctx, const char *key, tr_json_type_t type, const char *value,
                          size_t len)
{
    (void)len;
    return type == TR_JSON_STRING ? take_url(ctx, key, value) : true;
}

static esp_err_t api_ota_url(httpd_req_t *req)
{
    int len = tr_web_body(req, s_body, sizeof s_body);
    if (len < 0) {
        return ESP_OK;
    }
    char url[256] = "";
    bool form = strcmp(req->uri, "/ota") == 0; // the page's form; else {"url": "..."}
    if (form) {
        tr_form_parse(s_body, (size_t)len, take_url, url, NULL);
    } else if (tr_json_parse_object(s_body, (size_t)len, take_json_url, url, NULL) != NULL) {
        return tr_web_error(req, "400 Bad Request", "body", "format",
                            "Send a JSON object: {\"url\": \"http://.../esp32-rtp.bin\"}.");
    }
    const char *why = tr_ota_from_url(url);
    if (why) {
        return tr_web_error(req, "400 Bad Request", "url", "format", why);
    }
    static const char started[] = "{\"status\":\"downloading\"}";
    return form ? tr_web_redirect(req, "303 See Other", "/")
                : tr_web_send(req, "202 Accepted", "application/json", started,
                              sizeof started - 1);
}

static esp_err_t not_found(httpd_req_t *req, httpd_err_code_t error)
{
    (void)error;
    if (s_config.setup) { // captive portal: whatever was asked, show the wizard
        return tr_web_redirect(req, "302 Found", "http://" CONFIG_TR_AP_IP "/");
    }
    return tr_web_error(req, "404 Not Found", "path", "unknown", "No such page on this device.");
}

esp_err_t tr_web_start(const tr_web_config_t *config)
{
    s_config = *config;
    tr_wizard_start(&s_wizard, config->settings);
    httpd_config_t http = HTTPD_DEFAULT_CONFIG();
    http.server_port = CONFIG_TR_HTTP_PORT;
    http.uri_match_fn = httpd_uri_match_wildcard;
    http.max_uri_handlers = 16;
    http.stack_size = 8192;
    http.lru_purge_enable = true; // captive-portal checks open many connections
    httpd_handle_t server = NULL;
    esp_err_t err = httpd_start(&server, &http);
    if (err != ESP_OK) {
        return err;
    }
    const httpd_uri_t routes[] = {
        {.uri = "/", .method = HTTP_GET, .handler = root_get},
        {.uri = "/setup/*", .method = HTTP_GET, .handler = setup_get},
        {.uri = "/setup/*", .method = HTTP_POST, .handler = setup_post},
        {.uri = "/settings", .method = HTTP_POST, .handler = settings_post},
        {.uri = "/api/settings", .method = HTTP_GET, .handler = api_settings},
        {.uri = "/api/settings", .method = HTTP_POST, .handler = api_settings},
        {.uri = "/api/settings", .method = HTTP_PUT, .handler = api_settings},
        {.uri = "/api/status", .method = HTTP_GET, .handler = api_status},
        {.uri = "/api/ota", .method = HTTP_POST, .handler = api_ota},
        {.uri = "/api/ota/url", .method = HTTP_POST, .handler = api_ota_url},
        {.uri = "/ota", .method = HTTP_POST, .handler = api_ota_url},
    };
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        httpd_register_uri_handler(server, &routes[i]);
    }
    httpd_register_err_handler(server, HTTPD_404_NOT_FOUND, not_found);
    ESP_LOGI(TAG, "web server on port %d (%s)", CONFIG_TR_HTTP_PORT,
             config->setup ? "wizard" : "status and API");
    return ESP_OK;
}
