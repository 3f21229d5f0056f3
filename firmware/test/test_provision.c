// Before the device plays: the reset button, the boot decision, the Wi-Fi fallback, and the
// captive DNS answered to a real resolver (Node's c-ares).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"
#include "tr_captive_dns.h"
#include "tr_config.h"
#include "tr_ipv4.h"
#include "tr_provision.h"

extern char **environ;

static tr_reset_t run_button(const char *pattern, uint32_t step_ms)
{
    // One character per sample: '#' pressed, '.' released.
    tr_reset_button_t b;
    tr_reset_button_init(&b);
    tr_reset_t r = TR_RESET_WATCHING;
    for (uint32_t i = 0; pattern[i] && r == TR_RESET_WATCHING; i++) {
        r = tr_reset_button_sample(&b, pattern[i] == '#', i * step_ms);
    }
    return r;
}

static void the_reset_button_needs_a_long_early_press(void **state)
{
    (void)state;
    assert_int_equal(CONFIG_TR_RESET_GPIO, 0);
    assert_int_equal(CONFIG_TR_RESET_WINDOW_MS, 3000);
    assert_int_equal(CONFIG_TR_RESET_HOLD_MS, 3000);
    char p[200];
    memset(p, '.', 199);
    p[199] = '\0';
    assert_int_equal(run_button(p, 50), TR_RESET_NO); // untouched: boots after the window
    memset(p, '#', 61);                               // held from boot for 3.05 s
    assert_int_equal(run_button(p, 50), TR_RESET_YES);
    memset(p, '.', 199);
    memset(p + 20, '#', 61); // pressed at 1 s, held 3 s
    assert_int_equal(run_button(p, 50), TR_RESET_YES);
    memset(p, '.', 199);
    memset(p + 20, '#', 50); // released after 2.5 s
    assert_int_equal(run_button(p, 50), TR_RESET_NO);
    memset(p, '.', 199);
    memset(p + 70, '#', 100); // pressed after the window (3.5 s): an ordinary press
    assert_int_equal(run_button(p, 50), TR_RESET_NO);
}

static void boots_into_setup_until_configured(void **state)
{
    (void)state;
    tr_settings_t s;
    tr_settings_defaults(&s);
    assert_int_equal(tr_boot_decide(&s, true, false), TR_BOOT_SETUP);
    tr_settings_error_t err;
    assert_true(tr_settings_set(&s, "wifi_ssid", "Home", &err));
    assert_true(tr_settings_set(&s, "mode", "usb_receiver", &err));
    assert_int_equal(tr_boot_decide(&s, true, false), TR_BOOT_RUN);
    assert_int_equal(tr_boot_decide(&s, false, false), TR_BOOT_SETUP); // damaged file
    assert_int_equal(tr_boot_decide(&s, true, true), TR_BOOT_SETUP);  // asked for the wizard
}

static void an_unreachable_network_brings_back_the_setup_ap(void **state)
{
    (void)state;
    tr_netwatch_t n;
    tr_netwatch_init(&n, 0);
    int retries = 0;
    uint32_t t;
    tr_net_action_t a = TR_NET_NOTHING;
    for (t = 0; t < 120000 && a != TR_NET_START_SETUP_AP; t += 100) {
        a = tr_netwatch_tick(&n, t);
        if (a == TR_NET_RETRY) {
            retries++;
            tr_netwatch_disconnected(&n, t + 50); // the attempt fails
        }
    }
    assert_int_equal(a, TR_NET_START_SETUP_AP);
    assert_in_range(t, CONFIG_TR_WIFI_FALLBACK_S * 1000, CONFIG_TR_WIFI_FALLBACK_S * 1000 + 200);
    assert_in_range(retries, 5, 12); // 1, 2, 4, 8, 16, 30, 30 s apart: not a tight loop
    assert_int_equal(tr_netwatch_connected(&n, t), TR_NET_STOP_SETUP_AP);
    assert_int_equal(tr_netwatch_tick(&n, t + 100000), TR_NET_NOTHING);
}

/** A query for `name` (type 1 = A, 28 = AAAA). */
static size_t query(uint8_t *q, const char *name, uint16_t type)
{
    uint8_t header[12] = {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0};
    memcpy(q, header, 12);
    size_t at = 12;
    const char *label = name;
    while (*label) {
        const char *dot = strchr(label, '.');
        size_t n = dot ? (size_t)(dot - label) : strlen(label);
        q[at++] = (uint8_t)n;
        memcpy(q + at, label, n);
        at += n;
        label += n + (dot ? 1 : 0);
    }
    q[at++] = 0;
    q[at++] = 0;
    q[at++] = (uint8_t)type;
    q[at++] = 0;
    q[at++] = 1;
    return at;
}

static void every_name_resolves_to_the_device(void **state)
{
    (void)state;
    uint32_t ap;
    assert_true(tr_ipv4_parse(CONFIG_TR_AP_IP, strlen(CONFIG_TR_AP_IP), &ap));
    uint8_t q[512], r[512];
    size_t n = query(q, "connectivitycheck.gstatic.com", 1);
    size_t m = tr_captive_dns_answer(q, n, ap, r, sizeof r);
    assert_int_equal(m, n + 16);
    assert_int_equal(r[0], 0x12); // same id
    assert_int_equal(r[2] & 0x80, 0x80);
    assert_int_equal(r[7], 1);
    assert_memory_equal(r + m - 4, "\xc0\xa8\x04\x01", 4); // 192.168.4.1
    n = query(q, "example.com", 28);
    m = tr_captive_dns_answer(q, n, ap, r, sizeof r);
    assert_int_equal(m, n);
    assert_int_equal(r[7], 0); // AAAA: no answer, NOERROR
    assert_int_equal(r[3] & 0x0F, 0);
    // Dropped: responses, truncated or compressed questions, too small a buffer.
    r[2] = 0x81;
    assert_int_equal(tr_captive_dns_answer(r, m, ap, q, sizeof q), 0);
    n = query(q, "a.b", 1);
    assert_int_equal(tr_captive_dns_answer(q, n - 3, ap, r, sizeof r), 0);
    q[12] = 0xC0;
    assert_int_equal(tr_captive_dns_answer(q, n, ap, r, sizeof r), 0);
    n = query(q, "a.b", 1);
    assert_int_equal(tr_captive_dns_answer(q, n, ap, r, n + 10), 0);
    tr_rng_t rng = {99};
    for (int i = 0; i < 20000; i++) {
        size_t len = tr_rng_next(&rng) % 80;
        for (size_t k = 0; k < len; k++) {
            q[k] = (uint8_t)tr_rng_next(&rng);
        }
        (void)tr_captive_dns_answer(q, len, ap, r, sizeof r);
    }
}

static void a_real_resolver_gets_the_setup_address(void **state)
{
    (void)state;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof addr;
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    getsockname(fd, (struct sockaddr *)&addr, &alen);
    char script[256];
    snprintf(script, sizeof script,
             "const r=new (require('dns').promises.Resolver)();r.setServers(['127.0.0.1:%u']);"
             "r.resolve4('captive.apple.com').then(a=>console.log(a.join(',')))",
             ntohs(addr.sin_port));
    int out[2];
    assert_int_equal(pipe(out), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    char *argv[] = {"node", "-e", script, NULL};
    pid_t pid;
    assert_int_equal(posix_spawnp(&pid, "node", &actions, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    uint32_t ap;
    assert_true(tr_ipv4_parse(CONFIG_TR_AP_IP, strlen(CONFIG_TR_AP_IP), &ap));
    int answered = 0;
    struct pollfd pfd = {fd, POLLIN, 0};
    while (answered < 4 && poll(&pfd, 1, 5000) > 0) {
        uint8_t q[512], r[512];
        struct sockaddr_in from;
        socklen_t flen = sizeof from;
        ssize_t n = recvfrom(fd, q, sizeof q, 0, (struct sockaddr *)&from, &flen);
        size_t m = n > 0 ? tr_captive_dns_answer(q, (size_t)n, ap, r, sizeof r) : 0;
        if (m > 0) {
            sendto(fd, r, m, 0, (struct sockaddr *)&from, flen);
            answered++;
            break;
        }
    }
    char line[64] = {0};
    ssize_t got = read(out[0], line, sizeof line - 1);
    close(out[0]);
    int status;
    waitpid(pid, &status, 0);
    close(fd);
    assert_int_equal(answered, 1);
    assert_true(got > 0);
    assert_string_equal(line, "192.168.4.1\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_reset_button_needs_a_long_early_press),
        cmocka_unit_test(boots_into_setup_until_configured),
        cmocka_unit_test(an_unreachable_network_brings_back_the_setup_ap),
        cmocka_unit_test(every_name_resolves_to_the_device),
        cmocka_unit_test(a_real_resolver_gets_the_setup_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
