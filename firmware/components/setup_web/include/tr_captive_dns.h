// The setup access point's DNS server: every name resolves to the device, so phones and laptops
// that join ESP32-RTP open the setup page on their own (captive portal detection).
#pragma once

#include <stddef.h>
#include <stdint.h>

/**
 * Answers one DNS query datagram: an A record with `ipv4` (host byte order, TTL 60 s) for A and
 * ANY questions, an empty NOERROR answer for other types (AAAA: clients fall back to IPv4).
 * Returns the response length, or 0 for datagrams to drop (responses, truncated or malformed
 * queries, several questions, or `cap` too small).
 */
size_t tr_captive_dns_answer(const uint8_t *query, size_t len, uint32_t ipv4, uint8_t *out,
                             size_t cap);
