// A real sender (ffmpeg, as users run it) streaming RTP L16 in real time to the receiver core on
// a loopback socket: the receiver follows it, the jitter buffer plays it at this host's clock,
// and the output is the 1 kHz tone ffmpeg generated, with nothing lost or concealed.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include "tr_jitter.h"
#include "tr_receiver.h"

extern char **environ;

#define CAP 16384u
static int16_t ring[CAP * 2];
static uint32_t present[TR_JITTER_PRESENT_WORDS(CAP)];

static int64_t now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void plays_what_ffmpeg_sends(void **state)
{
    (void)state;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof addr;
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    getsockname(fd, (struct sockaddr *)&addr, &alen);
    char url[64];
    snprintf(url, sizeof url, "rtp://127.0.0.1:%u?pkt_size=1164", ntohs(addr.sin_port));
    char *argv[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                    "sine=frequency=1000:sample_rate=48000:duration=4", "-ac", "2", "-c:a",
                    "pcm_s16be", "-f", "rtp", url, NULL};
    pid_t pid;
    posix_spawn_file_actions_t quiet; // ffmpeg prints the stream's SDP on stdout
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    assert_int_equal(posix_spawnp(&pid, "ffmpeg", &quiet, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&quiet);

    tr_jitter_config_t config = {.adaptive = true, .min_ms = 20, .max_ms = 200, .max_ppm = 5000};
    tr_jitter_t jb;
    tr_jitter_init(&jb, ring, present, CAP, 48000, &config);
    tr_receiver_t rx;
    tr_receiver_init(&rx, TR_PROTO_RTP, 48000); // ffmpeg's dynamic type 97 at 48 kHz
    static int16_t out[2 * 48000 * 5];
    static bool steady[48000 * 5 / 240]; // a block played without gaps, skips or fades
    size_t played = 0;
    // The 4.5 s are counted from the first packet, not from the spawn: ffmpeg's own start-up
    // took over 1 s on a loaded machine and the window then held only 568 of its 667 packets.
    int64_t spawned = now_us();
    int64_t start = 0;
    int64_t next_read = 0;
    uint8_t packet[1500];
    while (start == 0 ? now_us() - spawned < 15000000 : now_us() - start < 4500000) {
        int wait_ms = start == 0 ? 100 : (int)((next_read - now_us()) / 1000);
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, wait_ms > 0 ? wait_ms : 0) > 0) {
            struct sockaddr_in from;
            socklen_t flen = sizeof from;
            ssize_t n = recvfrom(fd, packet, sizeof packet, 0, (struct sockaddr *)&from, &flen);
            if (n > 0) {
                if (start == 0) {
                    start = now_us();
                    next_read = start;
                }
                tr_receiver_handle(&rx, &jb, packet, (size_t)n, ntohl(from.sin_addr.s_addr),
                                   ntohs(from.sin_port), now_us());
            }
        }
        if (start != 0 && now_us() >= next_read) { // the "DAC" takes 5 ms blocks on this clock
            bool was_playing = jb.playing;
            uint64_t concealed = jb.stats.concealed_frames;
            uint64_t skipped = jb.stats.skipped_frames;
            tr_jitter_read(&jb, out + 2 * played, 240, 48000, now_us());
            if ((jb.playing || played > 0) && played / 240 < sizeof steady) {
                steady[played / 240] = was_playing && jb.playing &&
                                       concealed == jb.stats.concealed_frames &&
                                       skipped == jb.stats.skipped_frames;
                played += 240;
            }
            next_read += 5000;
        }
    }
    int status;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    close(fd);

    print_message("# ffmpeg -> receiver: %u packets, %u lost, %u late, %llu concealed frames, "
                  "%u underruns, jitter %.2f ms, target %.1f ms, drift %+.0f ppm\n",
                  jb.stats.packets, jb.stats.lost, jb.stats.late,
                  (unsigned long long)jb.stats.concealed_frames, jb.stats.underruns,
                  (double)tr_jitter_jitter_ms(&jb), (double)tr_jitter_target_ms(&jb),
                  (double)tr_jitter_drift_ppm(&jb));
    assert_true(start != 0); // ffmpeg sent within 15 s
    assert_int_equal(rx.streams, 1);
    assert_true(jb.stats.packets > 600); // 4 s of 6 ms packets
    assert_int_equal(rx.dropped[TR_PKT_MALFORMED] + rx.dropped[TR_PKT_UNSUPPORTED], 0);
    assert_int_equal(jb.stats.lost, 0);
    // The output is the 1 kHz tone: zero crossings counted inside steady blocks (ffmpeg -re
    // sends in bursts, so the adaptive buffer may re-prime once or twice early on).
    assert_true(played > 48000 * 2);
    size_t steady_frames = 0;
    int crossings = 0;
    double peak = 0;
    for (size_t b = 0; b < played / 240; b++) {
        if (!steady[b] || (b > 0 && !steady[b - 1])) {
            continue; // also skip the block after a disturbance (its fade-in)
        }
        for (size_t i = b * 240 + 1; i < (b + 1) * 240; i++) {
            crossings += (out[2 * (i - 1)] < 0) != (out[2 * i] < 0);
            peak = fmax(peak, fabs((double)out[2 * i]));
            assert_int_equal(out[2 * i], out[2 * i + 1]);
        }
        steady_frames += 239;
    }
    double hz = crossings / 2.0 / (steady_frames / 48000.0);
    print_message("# steady output: %.2f s, tone at %.1f Hz\n", steady_frames / 48000.0, hz);
    assert_true(steady_frames > 48000 * 2);
    assert_true(hz > 990.0 && hz < 1010.0);
    assert_true(peak > 2500); // ffmpeg's default sine peaks near 2900
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plays_what_ffmpeg_sends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
