// Settings: the Kconfig defaults, one rule per field, the saved file, and the JSON API (all or
// nothing, errors naming the field and the rule).
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tr_settings.h"

static const uint8_t UUID[16] = {0x3f, 0x1c, 0x00, 0x11, 0x22, 0x33, 0xff, 0x44,
                                 0xff, 0x55, 0x66, 0x77, 0x88, 0x99, 0xab, 0xcd};

static void defaults_are_the_kconfig_ones(void **state)
{
    (void)state;
    tr_settings_t s;
    tr_settings_defaults(&s);
    assert_string_equal(s.name, "ESP32-RTP");
    assert_int_equal(s.mode, TR_MODE_NONE);
    assert_int_equal(s.protocol, TR_PROTO_RTP);
    assert_int_equal(s.rate, 48000);
    assert_int_equal(s.volume_percent, 100);
    assert_true(s.jitter_adaptive);
    assert_int_equal(s.jitter_min_ms, 20);
    assert_int_equal(s.jitter_max_ms, 200);
    assert_true(s.sap);
    assert_int_equal(tr_settings_port(&s), 40000); // the router's RTP input
    s.protocol = TR_PROTO_SCREAM;
    assert_int_equal(tr_settings_port(&s), 4010); // Scream's default
    assert_false(tr_settings_configured(&s));
}

static void identity_is_a_v4_uuid_and_names_the_device(void **state)
{
    (void)state;
    tr_settings_t s;
    tr_settings_defaults(&s);
    tr_settings_assign_identity(&s, UUID);
    assert_string_equal(s.config_id, "3f1c0011-2233-4f44-bf55-66778899abcd");
    assert_string_equal(s.name, "ESP32-RTP-ABCD");
    tr_settings_t named;
    tr_settings_defaults(&named);
    strcpy(named.name, "Kitchen");
    tr_settings_assign_identity(&named, UUID);
    assert_string_equal(named.name, "Kitchen");
    // A saved id comes back on the next boot, naming a still default-named device the same way.
    tr_settings_t again;
    tr_settings_defaults(&again);
    assert_true(tr_settings_restore_identity(&again, s.config_id));
    assert_string_equal(again.config_id, s.config_id);
    assert_string_equal(again.name, "ESP32-RTP-ABCD");
    assert_false(tr_settings_restore_identity(&again, "not-a-uuid"));
    assert_false(tr_settings_restore_identity(&again, "3F1C0011-2233-4F44-BF55-66778899ABCD"));
}

static void each_field_names_its_rule(void **state)
{
    (void)state;
    struct {
        const char *key, *value, *rule;
    } bad[] = {
        {"name", "", "required"},
        {"name", "a<script>", "format"},
        {"name", " padded", "format"},
        {"name", "123456789012345678901234567890123", "too_long"},
        {"wifi_ssid", "", "required"},
        {"wifi_ssid", "tab\there", "format"},
        {"wifi_password", "short", "range"},
        {"mode", "usb", "one_of"},
        {"protocol", "udp", "one_of"},
        {"port", "65536", "range"},
        {"port", "-1", "range"},
        {"target", "not a host!", "format"},
        {"target", "-bad.local", "format"},
        {"rate", "96000", "one_of"},
        {"volume", "1.5", "range"},
        {"volume", "nan", "range"},
        {"jitter_min_ms", "19", "range"},
        {"jitter_max_ms", "201", "range"},
        {"sap", "maybe", "type"},
        {"config_id", "3f1c0011-2233-4f44-bf55-66778899abcd", "read_only"},
        {"colour", "red", "unknown_field"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tr_settings_t s, before;
        tr_settings_defaults(&s);
        before = s;
        tr_settings_error_t err;
        assert_false(tr_settings_set(&s, bad[i].key, bad[i].value, &err));
        assert_string_equal(err.field, bad[i].key);
        assert_string_equal(err.rule, bad[i].rule);
        assert_true(strlen(err.message) > 5);
        assert_memory_equal(&s, &before, sizeof s); // nothing changed
    }
    tr_settings_t s;
    tr_settings_defaults(&s);
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "target", "192.168.1.20", &err));
    assert_true(tr_settings_set(&s, "target", "tributary.local", &err));
    assert_true(tr_settings_set(&s, "wifi_password", "", &err)); // open network
    assert_true(tr_settings_set(&s, "volume", "0.25", &err));
    assert_int_equal(s.volume_percent, 25);
    assert_true(tr_settings_set(&s, "jitter_min_ms", "150", &err));
    assert_true(tr_settings_set(&s, "jitter_max_ms", "100", &err));
    assert_false(tr_settings_check(&s, &err));
    assert_string_equal(err.rule, "order");
    assert_true(tr_settings_set(&s, "jitter_max_ms", "200", &err));
    assert_true(tr_settings_set(&s, "mode", "usb_sender", &err));
    assert_true(tr_settings_set(&s, "target", "", &err));
    assert_false(tr_settings_check(&s, &err));
    assert_string_equal(err.field, "target");
}

static tr_settings_t configured(void)
{
    tr_settings_t s;
    tr_settings_defaults(&s);
    tr_settings_assign_identity(&s, UUID);
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "mode", "spdif_sender", &err));
    assert_true(tr_settings_set(&s, "wifi_ssid", "Caf\xc3\xa9 = 100% \"free\"", &err));
    assert_true(tr_settings_set(&s, "wifi_password", "p@ss word=%41\\", &err));
    assert_true(tr_settings_set(&s, "target", "tributary.local", &err));
    assert_true(tr_settings_set(&s, "protocol", "scream", &err));
    assert_true(tr_settings_set(&s, "rate", "44100", &err));
    return s;
}

static void the_saved_file_loads_back_identically(void **state)
{
    (void)state;
    tr_settings_t s = configured();
    assert_true(tr_settings_configured(&s));
    char file[1024];
    size_t n = tr_settings_serialize(&s, file, sizeof file);
    assert_true(n > 0);
    assert_null(memchr(file, '\0', n));
    tr_settings_t back;
    tr_settings_error_t err;
    assert_true(tr_settings_deserialize(file, n, &back, &err));
    assert_memory_equal(&back, &s, sizeof s);
    // Too small a buffer is reported, not truncated.
    assert_int_equal(tr_settings_serialize(&s, file, 40), 0);
}

static void a_damaged_file_is_refused_whole(void **state)
{
    (void)state;
    const char *damaged[] = {
        "mode=usb_receiver\nrate=22050\n",
        "mode=usb_receiver\ngarbage\n",
        "name=Bad%2\n",
        "name=Nul%00here\n",
        "mode=usb_sender\n", // a sender without a target
    };
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        tr_settings_t out;
        memset(&out, 0x5a, sizeof out);
        tr_settings_t before = out;
        tr_settings_error_t err;
        assert_false(tr_settings_deserialize(damaged[i], strlen(damaged[i]), &out, &err));
        assert_memory_equal(&out, &before, sizeof out);
    }
}

static void the_api_json_round_trips_and_hides_the_password(void **state)
{
    (void)state;
    tr_settings_t s = configured();
    char json[1024];
    assert_true(tr_settings_json(&s, "abc1234", json, sizeof json) > 0);
    assert_null(strstr(json, "p@ss"));
    assert_non_null(strstr(json, "\"wifi_password_set\":true"));
    assert_non_null(strstr(json, "\"port\":4010"));
    assert_non_null(strstr(json, "\"channel_layout\":\"stereo\""));
    assert_non_null(strstr(json, "\"wifi_ssid\":\"Caf\xc3\xa9 = 100% \\\"free\\\"\""));
    // Sending the whole object back changes nothing but the revision.
    tr_settings_t copy = s;
    tr_settings_error_t err;
    assert_true(tr_settings_apply_json(&copy, json, strlen(json), &err));
    assert_int_equal(copy.revision, s.revision + 1);
    copy.revision = s.revision;
    copy.port = s.port;               // the API shows ports resolved (0 became 4010)
    copy.target_port = s.target_port;
    assert_memory_equal(&copy, &s, sizeof s);
}

static void api_changes_are_all_or_nothing(void **state)
{
    (void)state;
    struct {
        const char *body, *field, *rule;
    } bad[] = {
        {"{\"volume\": 0.5, \"rate\": 22050}", "rate", "one_of"},
        {"{\"volume\": \"0.5\"}", "volume", "type"},
        {"{\"sap\": 1}", "sap", "type"},
        {"{\"channels\": 6}", "channels", "one_of"},
        {"{\"config_id\": \"00000000-0000-4000-8000-000000000000\"}", "config_id", "read_only"},
        {"{\"nickname\": \"x\"}", "nickname", "unknown_field"},
        {"{\"volume\": 0.5, \"eq\": [1, 2]}", "body", "format"},
        {"{\"volume\": 0.5", "body", "format"},
        {"[1]", "body", "format"},
        {"{\"jitter_min_ms\": 150, \"jitter_max_ms\": 100}", "jitter_max_ms", "order"},
        {"{\"name\": \"a\\u0000b\"}", "body", "format"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tr_settings_t s = configured();
        tr_settings_t before = s;
        tr_settings_error_t err;
        assert_false(tr_settings_apply_json(&s, bad[i].body, strlen(bad[i].body), &err));
        assert_string_equal(err.field, bad[i].field);
        assert_string_equal(err.rule, bad[i].rule);
        assert_memory_equal(&s, &before, sizeof s);
    }
    tr_settings_t s = configured();
    tr_settings_error_t err;
    const char *ok = "{ \"volume\" : 0.5 , \"name\":\"Living room\", \"channels\": 2, "
                     "\"jitter_adaptive\": false }";
    assert_true(tr_settings_apply_json(&s, ok, strlen(ok), &err));
    assert_int_equal(s.volume_percent, 50);
    assert_string_equal(s.name, "Living room");
    assert_false(s.jitter_adaptive);
}

static void hostile_input_never_crashes(void **state)
{
    (void)state;
    tr_rng_t rng = {12345};
    static const char alphabet[] = "{}[]\":,\\u0 truefalsn-.eE19aZ%=\n\t";
    char buf[300];
    for (int i = 0; i < 20000; i++) {
        size_t n = tr_rng_next(&rng) % sizeof buf;
        for (size_t k = 0; k < n; k++) {
            buf[k] = (tr_rng_next(&rng) % 4) ? alphabet[tr_rng_next(&rng) % (sizeof alphabet - 1)]
                                               : (char)tr_rng_next(&rng);
        }
        tr_settings_t s = configured();
        tr_settings_error_t err;
        (void)tr_settings_apply_json(&s, buf, n, &err);
        (void)tr_settings_deserialize(buf, n, &s, &err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_the_kconfig_ones),
        cmocka_unit_test(identity_is_a_v4_uuid_and_names_the_device),
        cmocka_unit_test(each_field_names_its_rule),
        cmocka_unit_test(the_saved_file_loads_back_identically),
        cmocka_unit_test(a_damaged_file_is_refused_whole),
        cmocka_unit_test(the_api_json_round_trips_and_hides_the_password),
        cmocka_unit_test(api_changes_are_all_or_nothing),
        cmocka_unit_test(hostile_input_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
