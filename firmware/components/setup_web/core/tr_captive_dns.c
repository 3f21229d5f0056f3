#include "tr_captive_dns.h"

#include <string.h>

#define HEADER 12
#define TYPE_A 1
#define TYPE_ANY 255
#define CLASS_IN 1

size_t tr_captive_dns_answer(const uint8_t *query, size_t len, uint32_t ipv4, uint8_t *out,
                             size_t cap)
{
    if (len < HEADER + 5 || len > 512) {
        return 0;
    }
    uint16_t flags = (uint16_t)(query[2] << 8 | query[3]);
    uint16_t qdcount = (uint16_t)(query[4] << 8 | query[5]);
    if ((flags & 0x8000) || ((flags >> 11) & 0xF) != 0 || qdcount != 1) {
        return 0; // a response, not a standard query, or not exactly one question
    }
    size_t at = HEADER;
    size_t name_len = 0;
    for (;;) {
        if (at >= len) {
            return 0;
        }
        uint8_t label = query[at++];
        if (label == 0) {
            break;
        }
        if (label > 63 || (name_len += label + 1u) > 255 || at + label > len) {
            return 0; // compression pointers have no place in a question
        }
        at += label;
    }
    if (at + 4 > len) {
        return 0;
    }
    uint16_t qtype = (uint16_t)(query[at] << 8 | query[at + 1]);
    uint16_t qclass = (uint16_t)(query[at + 2] << 8 | query[at + 3]);
    at += 4;
    size_t question_end = at;
    int answer = (qtype == TYPE_A || qtype == TYPE_ANY) && (qclass & 0x7FFF) == CLASS_IN;
    size_t need = question_end + (answer ? 16u : 0u);
    if (cap < need) {
        return 0;
    }
    memcpy(out, query, question_end); // header and question; extra records are dropped
    out[2] = (uint8_t)(0x84 | (query[2] & 0x01)); // response, authoritative, keep RD
    out[3] = 0x00;                                 // no recursion available, NOERROR
    out[6] = 0;
    out[7] = (uint8_t)answer; // ANCOUNT
    memset(out + 8, 0, 4);    // NSCOUNT, ARCOUNT
    if (answer) {
        uint8_t *a = out + question_end;
        static const uint8_t fixed[] = {0xC0, 0x0C, 0, TYPE_A, 0, CLASS_IN, 0, 0, 0, 60, 0, 4};
        memcpy(a, fixed, sizeof fixed);
        a[12] = (uint8_t)(ipv4 >> 24);
        a[13] = (uint8_t)(ipv4 >> 16);
        a[14] = (uint8_t)(ipv4 >> 8);
        a[15] = (uint8_t)ipv4;
    }
    return need;
}
