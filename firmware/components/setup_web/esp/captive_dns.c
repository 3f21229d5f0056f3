// The setup access point's DNS server (UDP 53): every name answers with the device's address.
#include <string.h>

#include "esp_log.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "lwip/sockets.h"
#include "sdkconfig.h"
#include "tr_captive_dns.h"
#include "tr_captive_dns_idf.h"
#include "tr_ipv4.h"

static const char *TAG = "captive_dns";

static void dns_task(void *arg)
{
    (void)arg;
    uint32_t ip = 0;
    tr_ipv4_parse(CONFIG_TR_AP_IP, strlen(CONFIG_TR_AP_IP), &ip);
    int fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(53),
                               .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        ESP_LOGE(TAG, "cannot bind UDP 53");
        vTaskDelete(NULL);
        return;
    }
    uint8_t query[512];
    uint8_t answer[512];
    for (;;) {
        struct sockaddr_in from;
        socklen_t len = sizeof from;
        int n = recvfrom(fd, query, sizeof query, 0, (struct sockaddr *)&from, &len);
        if (n <= 0) {
            continue;
        }
        size_t m = tr_captive_dns_answer(query, (size_t)n, ip, answer, sizeof answer);
        if (m > 0) {
            sendto(fd, answer, m, 0, (struct sockaddr *)&from, len);
        }
    }
}

esp_err_t tr_captive_dns_start(void)
{
    return xTaskCreate(dns_task, "captive_dns", 3072, NULL, 4, NULL) == pdPASS ? ESP_OK
                                                                               : ESP_ERR_NO_MEM;
}
