#include "tr_sdp.h"

#include <string.h>

#include "tr_ipv4.h"
#include "tr_text.h"

size_t tr_sdp_write(char *out, size_t cap, const tr_sdp_stream_t *s)
{
    tr_text_t t;
    tr_text_init(&t, out, cap);
    char origin[TR_IPV4_TEXT_MAX];
    char dest[TR_IPV4_TEXT_MAX];
    tr_ipv4_format(s->origin_ipv4, origin);
    tr_ipv4_format(s->dest_ipv4, dest);
    tr_text_fmt(&t, "v=0\r\no=- %lu %lu IN IP4 %s\r\ns=", (unsigned long)s->session_id,
                (unsigned long)s->session_version, origin);
    for (const char *c = s->session_name; c && *c; c++) {
        unsigned char ch = (unsigned char)*c;
        tr_text_put(&t, (ch < 0x20 || ch == 0x7f) ? "?" : c, 1);
    }
    tr_text_fmt(&t, "\r\nc=IN IP4 %s", dest);
    if (tr_ipv4_is_multicast(s->dest_ipv4)) {
        tr_text_fmt(&t, "/%u", (unsigned)s->ttl);
    }
    tr_text_fmt(&t, "\r\nt=0 0\r\nm=audio %u RTP/AVP %u\r\na=rtpmap:%u L16/%lu/%u\r\n",
                (unsigned)s->port, (unsigned)s->payload_type, (unsigned)s->payload_type,
                (unsigned long)s->sample_rate, (unsigned)s->channels);
    return tr_text_done(&t);
}

typedef struct {
    const char *p;
    size_t len;
} span_t;

static bool span_eq(span_t s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.p, lit, n) == 0;
}

/** The `index`-th space-separated field of `s` (empty span if there is none). */
static span_t field(span_t s, int index)
{
    size_t at = 0;
    for (int i = 0;; i++) {
        while (at < s.len && s.p[at] == ' ') {
            at++;
        }
        size_t start = at;
        while (at < s.len && s.p[at] != ' ') {
            at++;
        }
        if (i == index || start == at) {
            return (span_t){s.p + start, at - start};
        }
    }
}

static bool number(span_t s, uint32_t max, uint32_t *out)
{
    if (s.len == 0 || s.len > 10) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.p[i] < '0' || s.p[i] > '9') {
            return false;
        }
        v = v * 10 + (uint64_t)(s.p[i] - '0');
    }
    if (v > max) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/** "IN IP4 a.b.c.d[/ttl]" -> the address; false otherwise (IPv6 is not used here). */
static bool connection_address(span_t value, uint32_t *out)
{
    span_t addr = field(value, 2);
    size_t n = 0;
    while (n < addr.len && addr.p[n] != '/') {
        n++;
    }
    return span_eq(field(value, 1), "IP4") && tr_ipv4_parse(addr.p, n, out);
}

/** "96 L16/48000/2" for payload type `pt` -> encoding, rate, channels (default 1). */
static bool rtpmap(span_t value, uint8_t pt, tr_sdp_audio_t *out)
{
    uint32_t listed;
    if (!number(field(value, 0), 127, &listed) || listed != pt) {
        return false;
    }
    span_t spec = field(value, 1);
    size_t slash = 0;
    while (slash < spec.len && spec.p[slash] != '/') {
        slash++;
    }
    if (slash == 0 || slash >= sizeof out->encoding || slash == spec.len) {
        return false;
    }
    span_t rate = {spec.p + slash + 1, 0};
    while (slash + 1 + rate.len < spec.len && rate.p[rate.len] != '/') {
        rate.len++;
    }
    uint32_t r;
    uint32_t channels = 1;
    size_t after = slash + 1 + rate.len;
    if (!number(rate, 768000, &r) || r == 0) {
        return false;
    }
    if (after < spec.len && (!number((span_t){spec.p + after + 1, spec.len - after - 1}, 255,
                                     &channels) ||
                             channels == 0)) {
        return false;
    }
    for (size_t i = 0; i < slash; i++) {
        char c = spec.p[i];
        out->encoding[i] = (char)((c >= 'a' && c <= 'z') ? c - 32 : c);
    }
    out->encoding[slash] = '\0';
    out->sample_rate = r;
    out->channels = (uint8_t)channels;
    return true;
}

tr_pkt_result_t tr_sdp_parse_audio(const char *text, size_t len, tr_sdp_audio_t *out)
{
    memset(out, 0, sizeof *out);
    uint32_t session_connection = 0;
    bool seen_version = false;
    bool in_audio = false;  // inside the first audio section
    bool done_audio = false; // that section ended
    bool have_format = false;
    size_t at = 0;
    while (at < len) {
        size_t end = at;
        while (end < len && text[end] != '\n') {
            end++;
        }
        span_t line = {text + at, end - at};
        at = end + 1;
        if (line.len > 0 && line.p[line.len - 1] == '\r') {
            line.len--;
        }
        if (line.len == 0) {
            continue;
        }
        if (line.len < 2 || line.p[1] != '=') {
            return TR_PKT_MALFORMED;
        }
        char type = line.p[0];
        span_t value = {line.p + 2, line.len - 2};
        if (!seen_version) {
            if (type != 'v' || !span_eq(value, "0")) {
                return TR_PKT_MALFORMED;
            }
            seen_version = true;
            continue;
        }
        if (type == 'm') {
            if (in_audio) {
                in_audio = false;
                done_audio = true;
            }
            uint32_t port;
            uint32_t pt;
            if (!done_audio && span_eq(field(value, 0), "audio") &&
                number(field(value, 1), 65535, &port) && number(field(value, 3), 127, &pt)) {
                in_audio = true;
                out->port = (uint16_t)port;
                out->payload_type = (uint8_t)pt;
            }
        } else if (type == 's' && !in_audio && !done_audio) {
            size_t n = value.len < sizeof out->session_name - 1 ? value.len
                                                                : sizeof out->session_name - 1;
            memcpy(out->session_name, value.p, n);
            out->session_name[n] = '\0';
        } else if (type == 'o') {
            span_t addr = field(value, 5);
            if (span_eq(field(value, 4), "IP4")) {
                (void)tr_ipv4_parse(addr.p, addr.len, &out->origin_ipv4);
            }
        } else if (type == 'c') {
            uint32_t address;
            if (connection_address(value, &address)) {
                if (in_audio) {
                    out->connection_ipv4 = address;
                } else if (!done_audio) {
                    session_connection = address;
                }
            }
        } else if (type == 'a' && in_audio && !have_format && value.len > 7 &&
                   memcmp(value.p, "rtpmap:", 7) == 0) {
            have_format = rtpmap((span_t){value.p + 7, value.len - 7}, out->payload_type, out);
        }
    }
    if (!seen_version) {
        return TR_PKT_MALFORMED;
    }
    if (!in_audio && !done_audio) {
        return TR_PKT_UNSUPPORTED;
    }
    if (!have_format && (out->payload_type == 10 || out->payload_type == 11)) {
        memcpy(out->encoding, "L16", 4);
        out->sample_rate = 44100;
        out->channels = out->payload_type == 10 ? 2 : 1;
        have_format = true;
    }
    if (!have_format) {
        return TR_PKT_UNSUPPORTED;
    }
    if (out->connection_ipv4 == 0) {
        out->connection_ipv4 = session_connection;
    }
    return TR_PKT_OK;
}
