#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *tr_test_read(const char *relative, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TESTDATA_DIR, relative);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("cannot open %s", path);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return data;
}

size_t tr_golden_rows(tr_golden_row_t *rows, size_t max)
{
    size_t len;
    char *text = (char *)tr_test_read("packets/expected.tsv", &len);
    size_t n = 0;
    char *save = NULL;
    text = realloc(text, len + 1);
    text[len] = '\0';
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0') {
            continue;
        }
        assert_true(n < max);
        tr_golden_row_t *r = &rows[n++];
        memset(r, 0, sizeof *r);
        char *cols[4] = {0};
        int c = 0;
        for (char *p = line; c < 4; c++) {
            cols[c] = p;
            char *tab = strchr(p, '\t');
            if (tab == NULL) {
                c++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        assert_true(c >= 3);
        snprintf(r->file, sizeof r->file, "%s", cols[0]);
        snprintf(r->kind, sizeof r->kind, "%s", cols[1]);
        snprintf(r->verdict, sizeof r->verdict, "%s", cols[2]);
        snprintf(r->fields, sizeof r->fields, "%s", cols[3] ? cols[3] : "");
    }
    free(text);
    assert_true(n > 0);
    return n;
}

const char *tr_golden_field(const tr_golden_row_t *row, const char *key, char *buf, size_t cap)
{
    size_t klen = strlen(key);
    const char *p = row->fields;
    while (*p) {
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t vlen = n - klen - 1 < cap - 1 ? n - klen - 1 : cap - 1;
            memcpy(buf, p + klen + 1, vlen);
            buf[vlen] = '\0';
            return buf;
        }
        p += n;
        while (*p == ' ') {
            p++;
        }
    }
    return NULL;
}

long long tr_golden_int(const tr_golden_row_t *row, const char *key)
{
    char buf[64];
    if (tr_golden_field(row, key, buf, sizeof buf) == NULL) {
        fail_msg("%s: no field %s", row->file, key);
    }
    return strtoll(buf, NULL, 10);
}

uint32_t tr_rng_next(tr_rng_t *rng)
{
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

double tr_rng_unit(tr_rng_t *rng)
{
    return tr_rng_next(rng) / 4294967296.0;
}

double tr_rng_normal(tr_rng_t *rng)
{
    double u1 = tr_rng_unit(rng);
    double u2 = tr_rng_unit(rng);
    return sqrt(-2.0 * log(u1 + 1e-300)) * cos(2.0 * M_PI * u2);
}
