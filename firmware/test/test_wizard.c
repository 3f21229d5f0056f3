// The first-boot wizard: forms, the step order, the pages it renders, and the settings form.
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tr_form.h"
#include "tr_settings_form.h"
#include "tr_setup_pages.h"
#include "tr_wizard.h"

static char page[32768];

static tr_settings_t fresh(void)
{
    tr_settings_t s;
    tr_settings_defaults(&s);
    static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    tr_settings_assign_identity(&s, uuid);
    return s;
}

static tr_wizard_step_t post(tr_wizard_t *w, tr_wizard_step_t step, const char *form)
{
    return tr_wizard_submit(w, step, form, strlen(form));
}

typedef struct {
    char seen[8][2][64];
    int n;
} pairs_t;

static bool collect(void *ctx, const char *key, const char *value)
{
    pairs_t *p = ctx;
    snprintf(p->seen[p->n][0], 64, "%s", key);
    snprintf(p->seen[p->n][1], 64, "%s", value);
    p->n++;
    return true;
}

static void forms_decode_like_browsers_send_them(void **state)
{
    (void)state;
    pairs_t p = {0};
    const char *body = "wifi_ssid=Caf%C3%A9+%26+Bar&wifi_password=a%3Db%2Bc&&empty=&flag";
    assert_true(tr_form_parse(body, strlen(body), collect, &p, NULL));
    assert_int_equal(p.n, 4);
    assert_string_equal(p.seen[0][1], "Caf\xc3\xa9 & Bar");
    assert_string_equal(p.seen[1][1], "a=b+c");
    assert_string_equal(p.seen[2][0], "empty");
    assert_string_equal(p.seen[2][1], "");
    assert_string_equal(p.seen[3][0], "flag");
    char long_value[200] = "a=";
    memset(long_value + 2, 'x', 150);
    const char *bad[] = {"a=%4", "a=%zz", "a=%00", long_value};
    for (size_t i = 0; i < 4; i++) {
        const char *problem = NULL;
        pairs_t q = {0};
        assert_false(tr_form_parse(bad[i], strlen(bad[i]), collect, &q, &problem));
        assert_non_null(problem);
    }
}

static void a_receiver_is_set_up_in_four_steps(void **state)
{
    (void)state;
    tr_settings_t s = fresh();
    tr_wizard_t w;
    tr_wizard_start(&w, &s);
    assert_int_equal(post(&w, TR_STEP_WIFI, "wifi_ssid=Home&wifi_password=correct+horse"),
                     TR_STEP_MODE);
    assert_int_equal(post(&w, TR_STEP_MODE, "mode=spdif_receiver"), TR_STEP_AUDIO);
    assert_int_equal(post(&w, TR_STEP_AUDIO, "name=Living+room&protocol=scream&port=&rate=44100"),
                     TR_STEP_REVIEW);
    assert_int_equal(w.draft.rate, 44100);
    assert_int_equal(post(&w, TR_STEP_REVIEW, "confirm=1"), TR_STEP_DONE);
    assert_true(tr_settings_configured(&w.draft));
    assert_int_equal(w.draft.mode, TR_MODE_SPDIF_RECEIVER);
    assert_int_equal(tr_settings_port(&w.draft), 4010);
    assert_string_equal(w.draft.wifi_password, "correct horse");
    assert_string_equal(w.draft.config_id, s.config_id); // identity kept
    assert_true(tr_page_wizard(&w, NULL, 0, "living-room", page, sizeof page) > 0);
    assert_non_null(strstr(page, "http://living-room.local/"));
}

static void steps_cannot_be_skipped_and_bad_input_stays_put(void **state)
{
    (void)state;
    tr_settings_t s = fresh();
    tr_wizard_t w;
    tr_wizard_start(&w, &s);
    assert_int_equal(post(&w, TR_STEP_REVIEW, "confirm=1"), TR_STEP_WIFI);
    assert_true(w.has_error);
    assert_string_equal(w.error.rule, "order");
    assert_int_equal(post(&w, TR_STEP_WIFI, "wifi_ssid=&wifi_password="), TR_STEP_WIFI);
    assert_string_equal(w.error.field, "wifi_ssid");
    assert_int_equal(post(&w, TR_STEP_WIFI, "wifi_ssid=Home&wifi_password=short"), TR_STEP_WIFI);
    assert_string_equal(w.error.field, "wifi_password");
    assert_string_equal(w.draft.wifi_ssid, ""); // nothing taken from a refused form
    assert_int_equal(post(&w, TR_STEP_WIFI, "wifi_ssid=Home"), TR_STEP_MODE);
    assert_int_equal(post(&w, TR_STEP_MODE, ""), TR_STEP_MODE);
    assert_string_equal(w.error.rule, "required");
    assert_int_equal(post(&w, TR_STEP_MODE, "mode=usb_sender"), TR_STEP_AUDIO);
    // A sender needs the router's address; the page marks the field.
    assert_int_equal(post(&w, TR_STEP_AUDIO, "name=Desk+PC&target=&protocol=rtp"), TR_STEP_AUDIO);
    assert_string_equal(w.error.field, "target");
    assert_true(tr_page_wizard(&w, NULL, 0, "x", page, sizeof page) > 0);
    assert_non_null(strstr(page, "id=\"target\" name=\"target\" type=\"text\" value=\"\" required "
                                 "aria-invalid=\"true\""));
    assert_non_null(strstr(page, "role=\"alert\""));
    // The unticked SAP box is absent from the form: off.
    assert_int_equal(post(&w, TR_STEP_AUDIO, "name=Desk+PC&target=192.168.1.2&protocol=rtp&rate=44100"),
                     TR_STEP_REVIEW);
    assert_false(w.draft.sap);
    assert_int_equal(w.draft.rate, 48000); // a sender's rate comes from its input
    // Going back to change the mode invalidates the audio step.
    tr_wizard_back(&w, TR_STEP_MODE);
    assert_int_equal(w.step, TR_STEP_MODE);
    assert_int_equal(post(&w, TR_STEP_MODE, "mode=usb_receiver"), TR_STEP_AUDIO);
    assert_int_equal(post(&w, TR_STEP_REVIEW, "confirm=1"), TR_STEP_AUDIO);
    assert_int_equal(post(&w, TR_STEP_REVIEW, ""), TR_STEP_AUDIO);
    // Fields of other steps are ignored, not applied.
    assert_int_equal(post(&w, TR_STEP_AUDIO, "name=Desk&mode=spdif_sender&wifi_ssid=Evil"),
                     TR_STEP_REVIEW);
    assert_int_equal(w.draft.mode, TR_MODE_USB_RECEIVER);
    assert_string_equal(w.draft.wifi_ssid, "Home");
    assert_int_equal(post(&w, TR_STEP_REVIEW, ""), TR_STEP_REVIEW);
    assert_string_equal(w.error.field, "confirm");
}

static void pages_escape_what_came_from_outside(void **state)
{
    (void)state;
    tr_settings_t s = fresh();
    tr_wizard_t w;
    tr_wizard_start(&w, &s);
    tr_scan_entry_t scan[2] = {{"<script>alert(1)</script>", -80, true}, {"Home \"5G\"", -50, false}};
    size_t n = tr_page_wizard(&w, scan, 2, "x", page, sizeof page);
    assert_true(n > 0);
    assert_null(strstr(page, "<script>"));
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(page, "Home &quot;5G&quot;"));
    assert_non_null(strstr(page, "weak: audio may drop out"));
    assert_non_null(strstr(page, "action=\"/setup/wifi\""));
    // Every step renders its own fields.
    const char *const steps[] = {"wifi_ssid=Home", "mode=usb_sender", "name=A&target=h.local"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(post(&w, (tr_wizard_step_t)i, steps[i]), i + 1);
        assert_true(tr_page_wizard(&w, NULL, 0, "x", page, sizeof page) > 0);
        for (const char *const *f = tr_wizard_fields(w.step, w.draft.mode); *f; f++) {
            char needle[48];
            snprintf(needle, sizeof needle, "name=\"%s\"", *f);
            assert_non_null(strstr(page, needle));
        }
    }
    // Too small a buffer is an error, not a truncated page.
    assert_int_equal(tr_page_wizard(&w, NULL, 0, "x", page, 100), 0);
}

static void the_status_page_and_api_show_the_stream(void **state)
{
    (void)state;
    tr_settings_t s = fresh();
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "mode", "usb_receiver", &err));
    tr_status_t st = {"abc1234", "esp32-rtp-0f10", "192.168.1.40", -75, "playing from 192.168.1.5",
                      "", 1000, 3, 1, 2, 1, 864, 24.5f, 25.1f, 31.0f, 3600};
    assert_true(tr_page_status(&s, &st, NULL, page, sizeof page) > 0);
    assert_non_null(strstr(page, "1000 received, 3 lost, 1 late, 2 dropped"));
    assert_non_null(strstr(page, "weak: move the board"));
    assert_non_null(strstr(page, "18 ms concealed")); // 864 frames at 48 kHz
    assert_true(tr_status_json(&s, &st, page, sizeof page) > 0);
    assert_non_null(strstr(page, "\"underruns\":1,\"concealed_frames\":864,\"target_ms\":24.5"));
    tr_settings_error_t e = {"volume", "range", "A number from 0.0 to 1.0."};
    assert_true(tr_error_json(&e, page, sizeof page) > 0);
    assert_string_equal(page, "{\"error\":{\"field\":\"volume\",\"rule\":\"range\",\"message\":"
                              "\"A number from 0.0 to 1.0.\"}}");
}

static void the_settings_form_is_all_or_nothing(void **state)
{
    (void)state;
    tr_settings_t s = fresh();
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "mode", "usb_receiver", &err));
    tr_settings_t before = s;
    const char *bad = "name=Ok&volume=2";
    assert_false(tr_settings_apply_form(&s, bad, strlen(bad), &err));
    assert_string_equal(err.field, "volume");
    assert_memory_equal(&s, &before, sizeof s);
    const char *wifi = "wifi_ssid=Other";
    assert_false(tr_settings_apply_form(&s, wifi, strlen(wifi), &err));
    assert_string_equal(err.rule, "read_only");
    const char *good = "name=Kitchen&volume=0.4&jitter_min_ms=40&jitter_adaptive=false"
                       "&jitter_adaptive=true";
    assert_true(tr_settings_apply_form(&s, good, strlen(good), &err));
    assert_string_equal(s.name, "Kitchen");
    assert_int_equal(s.volume_percent, 40);
    assert_true(s.jitter_adaptive); // the checkbox after the hidden "false"
    assert_int_equal(s.revision, before.revision + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_decode_like_browsers_send_them),
        cmocka_unit_test(a_receiver_is_set_up_in_four_steps),
        cmocka_unit_test(steps_cannot_be_skipped_and_bad_input_stays_put),
        cmocka_unit_test(pages_escape_what_came_from_outside),
        cmocka_unit_test(the_status_page_and_api_show_the_stream),
        cmocka_unit_test(the_settings_form_is_all_or_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
