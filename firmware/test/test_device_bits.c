// The smaller portable pieces: mDNS names and TXT fields, the OTA image and URL checks, the USB
// DAC format choice, and the rule that the core includes nothing from ESP-IDF or FreeRTOS.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tr_config.h"
#include "tr_mdns_txt.h"
#include "tr_ota_image.h"
#include "tr_pcm.h"
#include "tr_uac_format.h"

static const char *txt(const tr_txt_item_t *items, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(items[i].key, key)) {
            return items[i].value;
        }
    }
    return NULL;
}

static void mdns_names_and_txt_fields(void **state)
{
    (void)state;
    char host[64];
    tr_mdns_hostname("Living Room #2", host, sizeof host);
    assert_string_equal(host, "living-room-2");
    tr_mdns_hostname("--..--", host, sizeof host);
    assert_string_equal(host, "esp32-rtp");
    tr_mdns_hostname("ESP32-RTP-ABCD", host, sizeof host);
    assert_string_equal(host, "esp32-rtp-abcd");
    tr_settings_t s;
    tr_settings_defaults(&s);
    static const uint8_t uuid[16] = {0};
    tr_settings_assign_identity(&s, uuid);
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "mode", "spdif_receiver", &err));
    tr_txt_item_t items[TR_MDNS_TXT_MAX];
    size_t n = tr_mdns_txt(&s, "192.168.1.40", "abc1234", items, TR_MDNS_TXT_MAX);
    // The spec's sink fields, and the protocol it listens for.
    assert_string_equal(txt(items, n, "id"), s.config_id);
    assert_string_equal(txt(items, n, "ip"), "192.168.1.40");
    assert_string_equal(txt(items, n, "bit_depth"), "16");
    assert_string_equal(txt(items, n, "sample_rate"), "48000");
    assert_string_equal(txt(items, n, "channels"), "2");
    assert_string_equal(txt(items, n, "channel_layout"), "stereo");
    assert_string_equal(txt(items, n, "type"), "rtp");
    assert_string_equal(txt(items, n, "rev"), "0");
    assert_null(txt(items, n, "version"));
    assert_string_equal(tr_mdns_service(s.mode), "_tributary-sink");
    // A source: id, ip, type, version.
    assert_true(tr_settings_set(&s, "mode", "usb_sender", &err));
    assert_true(tr_settings_set(&s, "protocol", "scream", &err));
    n = tr_mdns_txt(&s, "192.168.1.41", "abc1234", items, TR_MDNS_TXT_MAX);
    assert_string_equal(txt(items, n, "type"), "scream");
    assert_string_equal(txt(items, n, "version"), "abc1234");
    assert_null(txt(items, n, "channel_layout"));
    assert_string_equal(tr_mdns_service(s.mode), "_tributary-source");
    for (size_t i = 0; i < n; i++) { // each key=value fits a TXT string (255 bytes)
        assert_true(strlen(items[i].key) + 1 + strlen(items[i].value) <= 255);
    }
}

/** A minimal image head: header, extended header, segment header, app description. */
static void image(uint8_t *b, uint16_t chip, const char *project)
{
    memset(b, 0, TR_OTA_HEAD_BYTES);
    b[0] = 0xE9;
    b[1] = 4;
    b[12] = (uint8_t)chip;
    b[13] = (uint8_t)(chip >> 8);
    static const uint8_t magic[4] = {0x32, 0x54, 0xCD, 0xAB};
    memcpy(b + 32, magic, 4);
    memcpy(b + 32 + 16, "abc1234", 7);
    memcpy(b + 32 + 48, project, strlen(project));
    memcpy(b + 32 + 112, "v5.4.1", 6);
}

static void ota_refuses_what_is_not_this_firmware(void **state)
{
    (void)state;
    uint8_t b[TR_OTA_HEAD_BYTES];
    tr_ota_app_t app;
    image(b, 9, "esp32-rtp");
    assert_null(tr_ota_check_image(b, sizeof b, &app));
    assert_string_equal(app.version, "abc1234");
    assert_string_equal(app.idf_version, "v5.4.1");
    assert_non_null(strstr(tr_ota_check_image(b, 100, &app), "too short"));
    image(b, 0, "esp32-rtp"); // an ESP32 build
    assert_non_null(strstr(tr_ota_check_image(b, sizeof b, &app), "another chip"));
    image(b, 9, "blink");
    assert_non_null(strstr(tr_ota_check_image(b, sizeof b, &app), "not the Tributary firmware"));
    image(b, 9, "esp32-rtp");
    b[32] = 0; // a bootloader has no app description
    assert_non_null(strstr(tr_ota_check_image(b, sizeof b, &app), "not an app image"));
    b[0] = 'P'; // a zip (PK...) uploaded by mistake
    assert_non_null(strstr(tr_ota_check_image(b, sizeof b, &app), "not an ESP32 app image"));
    assert_null(tr_ota_check_url("http://192.168.1.10/firmware/esp32-rtp.bin"));
    assert_null(tr_ota_check_url("https://example.org/esp32-rtp.bin"));
    assert_non_null(tr_ota_check_url("ftp://example.org/x.bin"));
    assert_non_null(tr_ota_check_url("http:///x.bin"));
    assert_non_null(tr_ota_check_url("http://a b/x.bin"));
}

static void usb_dacs_get_the_best_stereo_format(void **state)
{
    (void)state;
    tr_uac_alt_t alts[] = {
        {1, 16, false, 0, 0, 2, {48000, 44100}},      // mono
        {2, 24, false, 0, 0, 2, {44100, 48000}},      // 24-bit
        {2, 16, false, 0, 0, 1, {48000}},             // 16-bit, 48 kHz only
        {2, 16, true, 8000, 96000, 0, {0}},           // a range
    };
    tr_uac_choice_t c = tr_uac_pick(alts, 3, 44100);
    assert_int_equal(c.alt, 1); // 16-bit at 44.1 is not offered; 24-bit at 44.1 is
    assert_int_equal(c.rate, 44100);
    assert_int_equal(c.bits, 24);
    c = tr_uac_pick(alts, 4, 44100);
    assert_int_equal(c.alt, 3);
    assert_int_equal(c.bits, 16);
    c = tr_uac_pick(alts, 1, 48000);
    assert_int_equal(c.alt, -1); // mono only: nothing usable
    tr_uac_alt_t only96[] = {{2, 16, false, 0, 0, 1, {96000}}};
    assert_int_equal(tr_uac_pick(only96, 1, 48000).alt, -1);
    int16_t loud[4] = {32767, -32768, 1000, -3};
    tr_pcm_gain(loud, 4, 100); // unity: untouched
    assert_int_equal(loud[0], 32767);
    assert_int_equal(loud[1], -32768);
    tr_pcm_gain(loud, 4, 50); // square law: 25 %
    assert_int_equal(loud[0], 8192);
    assert_int_equal(loud[1], -8192);
    assert_int_equal(loud[2], 250);
    assert_int_equal(loud[3], -1); // rounded, not truncated toward zero
    tr_pcm_gain(loud, 4, 0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(loud[i], 0);
    }
    int16_t in[3] = {1, -1, 0x1234};
    uint8_t out[9];
    tr_pcm_s16_to_s24le(in, 3, out);
    static const uint8_t want[9] = {0, 1, 0, 0, 0xff, 0xff, 0, 0x34, 0x12};
    assert_memory_equal(out, want, 9);
}

static void kconfig_defaults_are_the_specs(void **state)
{
    (void)state;
    assert_string_equal(CONFIG_TR_AP_SSID, "ESP32-RTP");
    assert_string_equal(CONFIG_TR_AP_IP, "192.168.4.1");
    assert_int_equal(CONFIG_TR_SPDIF_OUT_GPIO, 17);
    assert_int_equal(CONFIG_TR_SPDIF_IN_GPIO, 17);
    assert_int_equal(CONFIG_TR_SCREAM_PORT, 4010);
    assert_int_equal(CONFIG_TR_RTP_PORT, 40000);
    assert_int_equal(CONFIG_TR_SAP_INTERVAL_S, 5);
    assert_int_equal(CONFIG_TR_SAP_TTL, 64);
    assert_int_equal(CONFIG_TR_JITTER_MIN_MS, 20);
    assert_int_equal(CONFIG_TR_JITTER_MAX_MS, 200);
    assert_int_equal(CONFIG_TR_MDNS_QUERY_S, 5);
}

/** Fails if a file under components/<c>/core, or a header it includes, includes the platform. */
static void check_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        char *inc = strstr(line, "#include");
        if (inc == NULL || line[0] != '#') {
            continue;
        }
        static const char *forbidden[] = {"freertos", "esp_", "driver/", "lwip", "nvs",
                                          "sdkconfig.h\"", "hal/", "soc/", "tinyusb", "usb/"};
        for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
            if (strstr(inc, forbidden[i]) && !strstr(path, "tr_config.h")) {
                fail_msg("%s:%d includes %s", path, number, inc);
            }
        }
    }
    fclose(f);
}

static void the_core_includes_no_platform_headers(void **state)
{
    (void)state;
    const char *root = FIRMWARE_DIR "/components";
    DIR *components = opendir(root);
    assert_non_null(components);
    struct dirent *c;
    int checked = 0;
    while ((c = readdir(components)) != NULL) {
        if (c->d_name[0] == '.') {
            continue;
        }
        const char *sub[] = {"core", "include"};
        for (int k = 0; k < 2; k++) {
            char dir[512];
            snprintf(dir, sizeof dir, "%s/%s/%s", root, c->d_name, sub[k]);
            DIR *d = opendir(dir);
            if (d == NULL) {
                continue;
            }
            struct dirent *f;
            while ((f = readdir(d)) != NULL) {
                // Public headers of glue (tr_<component>.h without a core) may use esp_err_t;
                // they are named *_idf.h.
                if (f->d_name[0] == '.' || strstr(f->d_name, "_idf.h")) {
                    continue;
                }
                char path[1024];
                snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
                check_file(path);
                checked++;
            }
            closedir(d);
        }
    }
    closedir(components);
    assert_true(checked > 40);
}

/** Appends every file under `dir` (recursively) with one of the extensions to `text`. */
static void slurp(const char *dir, char *text, size_t cap, size_t *len)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "build")) {
            continue;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        const char *dot = strrchr(e->d_name, '.');
        if (dot == NULL) {
            slurp(path, text, cap, len); // a folder (files here all have extensions)
        } else if (!strcmp(dot, ".c") || !strcmp(dot, ".h")) {
            FILE *f = fopen(path, "r");
            if (f) {
                *len += fread(text + *len, 1, cap - *len - 1, f);
                fclose(f);
            }
        }
    }
    closedir(d);
    text[*len] = '\0';
}

/** Every option the firmware declares is used by its code: no dead tunables. */
static void every_kconfig_option_is_used(void **state)
{
    (void)state;
    static char code[4 * 1024 * 1024];
    size_t len = 0;
    slurp(FIRMWARE_DIR "/components", code, sizeof code, &len);
    slurp(FIRMWARE_DIR "/main", code, sizeof code, &len);
    const char *kconfigs[] = {"components/common/Kconfig", "components/net_audio/Kconfig",
                              "components/jitter_buffer/Kconfig", "components/spdif/Kconfig",
                              "components/usb_audio/Kconfig", "components/settings/Kconfig",
                              "components/setup_web/Kconfig", "components/discovery/Kconfig",
                              "components/ota/Kconfig", "main/Kconfig.projbuild"};
    int options = 0;
    for (size_t k = 0; k < sizeof kconfigs / sizeof kconfigs[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FIRMWARE_DIR, kconfigs[k]);
        FILE *f = fopen(path, "r");
        if (f == NULL) {
            continue; // a component without options
        }
        char line[256];
        while (fgets(line, sizeof line, f)) {
            char name[64];
            if (sscanf(line, " config %63[A-Z0-9_]", name) == 1) {
                char needle[80];
                snprintf(needle, sizeof needle, "CONFIG_%s", name);
                if (strstr(code, needle) == NULL) {
                    fail_msg("%s declares %s, which no code uses", kconfigs[k], name);
                }
                options++;
            }
        }
        fclose(f);
    }
    assert_true(options >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mdns_names_and_txt_fields),
        cmocka_unit_test(ota_refuses_what_is_not_this_firmware),
        cmocka_unit_test(usb_dacs_get_the_best_stereo_format),
        cmocka_unit_test(kconfig_defaults_are_the_specs),
        cmocka_unit_test(the_core_includes_no_platform_headers),
        cmocka_unit_test(every_kconfig_option_is_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
