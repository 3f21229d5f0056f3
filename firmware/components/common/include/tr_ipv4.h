// Dotted-quad IPv4 addresses in host byte order (the way SAP, SDP and the settings carry them).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TR_IPV4_TEXT_MAX 16

/** Parses exactly "a.b.c.d" (0-255 each, no leading '+', no spaces) from `len` bytes. */
bool tr_ipv4_parse(const char *text, size_t len, uint32_t *out);

/** Writes "a.b.c.d" and a NUL into `out` (at least TR_IPV4_TEXT_MAX bytes). */
void tr_ipv4_format(uint32_t address, char out[TR_IPV4_TEXT_MAX]);

/** 224.0.0.0/4. */
bool tr_ipv4_is_multicast(uint32_t address);
