#include "tr_ipv4.h"

#include <stdio.h>

bool tr_ipv4_parse(const char *text, size_t len, uint32_t *out)
{
    uint32_t address = 0;
    size_t at = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (at >= len || text[at] != '.') {
                return false;
            }
            at++;
        }
        size_t digits = 0;
        uint32_t value = 0;
        while (at < len && text[at] >= '0' && text[at] <= '9' && digits < 4) {
            value = value * 10 + (uint32_t)(text[at] - '0');
            at++;
            digits++;
        }
        if (digits == 0 || digits > 3 || value > 255) {
            return false;
        }
        address = (address << 8) | value;
    }
    if (at != len) {
        return false;
    }
    *out = address;
    return true;
}

void tr_ipv4_format(uint32_t address, char out[TR_IPV4_TEXT_MAX])
{
    snprintf(out, TR_IPV4_TEXT_MAX, "%u.%u.%u.%u", (unsigned)(address >> 24),
             (unsigned)((address >> 16) & 0xff), (unsigned)((address >> 8) & 0xff),
             (unsigned)(address & 0xff));
}

bool tr_ipv4_is_multicast(uint32_t address)
{
    return (address >> 28) == 0xE;
}
