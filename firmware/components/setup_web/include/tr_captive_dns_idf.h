// Starts the captive DNS server task on the setup access point (ESP-IDF only).
#pragma once

#include "esp_err.h"

esp_err_t tr_captive_dns_start(void);
