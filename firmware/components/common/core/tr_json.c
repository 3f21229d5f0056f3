#include "tr_json.h"

#include <string.h>

typedef struct {
    const char *p;
    size_t len;
    size_t at;
} cursor_t;

static void skip_space(cursor_t *c)
{
    while (c->at < c->len && (c->p[c->at] == ' ' || c->p[c->at] == '\t' || c->p[c->at] == '\n' ||
                              c->p[c->at] == '\r')) {
        c->at++;
    }
}

static int hex(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

/** Appends the UTF-8 form of `cp` (a BMP code point). */
static bool put_utf8(char *out, size_t cap, size_t *n, unsigned cp)
{
    char b[3];
    size_t k;
    if (cp < 0x80) {
        b[0] = (char)cp;
        k = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | cp >> 6);
        b[1] = (char)(0x80 | (cp & 0x3F));
        k = 2;
    } else {
        b[0] = (char)(0xE0 | cp >> 12);
        b[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        k = 3;
    }
    if (*n + k >= cap) {
        return false;
    }
    memcpy(out + *n, b, k);
    *n += k;
    return true;
}

/** Reads a string at the cursor (which is on its opening quote) into `out`. */
static const char *string(cursor_t *c, char *out, size_t cap, size_t *n)
{
    c->at++;
    *n = 0;
    while (c->at < c->len) {
        unsigned char ch = (unsigned char)c->p[c->at++];
        if (ch == '"') {
            out[*n] = '\0';
            return NULL;
        }
        if (ch < 0x20) {
            return "control character in a string";
        }
        if (ch == '\\') {
            if (c->at >= c->len) {
                break;
            }
            char e = c->p[c->at++];
            const char *simple = strchr("\"\\/bfnrt", e);
            if (e != '\0' && simple) {
                static const char decoded[] = "\"\\/\b\f\n\r\t";
                ch = (unsigned char)decoded[simple - "\"\\/bfnrt"];
            } else if (e == 'u') {
                if (c->at + 4 > c->len) {
                    return "incomplete \\u escape";
                }
                unsigned cp = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hex(c->p[c->at++]);
                    if (h < 0) {
                        return "bad \\u escape";
                    }
                    cp = cp << 4 | (unsigned)h;
                }
                if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    return "\\u0000 and surrogate escapes are not accepted";
                }
                if (!put_utf8(out, cap, n, cp)) {
                    return "string too long";
                }
                continue;
            } else {
                return "bad escape in a string";
            }
        }
        if (*n + 1 >= cap) {
            return "string too long";
        }
        out[(*n)++] = (char)ch;
    }
    return "unterminated string";
}

/** A number, true, false or null at the cursor, copied as written. */
static const char *scalar(cursor_t *c, tr_json_type_t *type, char *out, size_t cap, size_t *n)
{
    static const char *words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t wl = strlen(words[i]);
        if (c->len - c->at >= wl && memcmp(c->p + c->at, words[i], wl) == 0) {
            *type = i < 2 ? TR_JSON_BOOL : TR_JSON_NULL;
            memcpy(out, words[i], wl + 1);
            *n = wl;
            c->at += wl;
            return NULL;
        }
    }
    size_t start = c->at;
    if (c->at < c->len && c->p[c->at] == '-') {
        c->at++;
    }
    size_t digits = 0;
    while (c->at < c->len && ((c->p[c->at] >= '0' && c->p[c->at] <= '9') ||
                              strchr(".eE+-", c->p[c->at]) != NULL)) {
        c->at++;
        digits++;
    }
    if (digits == 0) {
        return c->at < c->len && (c->p[c->at] == '{' || c->p[c->at] == '[')
                   ? "nested objects and arrays are not accepted"
                   : "expected a value";
    }
    *n = c->at - start;
    if (*n >= cap) {
        return "number too long";
    }
    memcpy(out, c->p + start, *n);
    out[*n] = '\0';
    *type = TR_JSON_NUMBER;
    return NULL;
}

const char *tr_json_parse_object(const char *text, size_t len, tr_json_member_fn fn, void *ctx,
                                 size_t *at)
{
    cursor_t c = {text, len, 0};
    char key[TR_JSON_KEY_MAX + 1];
    char value[TR_JSON_VALUE_MAX + 1];
    const char *error = NULL;
    skip_space(&c);
    if (c.at >= c.len || c.p[c.at] != '{') {
        error = "expected a JSON object";
        goto done;
    }
    c.at++;
    skip_space(&c);
    if (c.at < c.len && c.p[c.at] == '}') {
        c.at++;
        goto trailing;
    }
    for (;;) {
        size_t klen, vlen;
        tr_json_type_t type = TR_JSON_STRING;
        skip_space(&c);
        if (c.at >= c.len || c.p[c.at] != '"') {
            error = "expected a key in double quotes";
            goto done;
        }
        if ((error = string(&c, key, sizeof key, &klen)) != NULL) {
            goto done;
        }
        skip_space(&c);
        if (c.at >= c.len || c.p[c.at] != ':') {
            error = "expected ':' after a key";
            goto done;
        }
        c.at++;
        skip_space(&c);
        if (c.at < c.len && c.p[c.at] == '"') {
            error = string(&c, value, sizeof value, &vlen);
        } else {
            error = scalar(&c, &type, value, sizeof value, &vlen);
        }
        if (error != NULL) {
            goto done;
        }
        if (strlen(key) != klen || (type == TR_JSON_STRING && strlen(value) != vlen)) {
            error = "NUL characters are not accepted";
            goto done;
        }
        if (!fn(ctx, key, type, value, vlen)) {
            error = "stopped";
            goto done;
        }
        skip_space(&c);
        if (c.at < c.len && c.p[c.at] == ',') {
            c.at++;
            continue;
        }
        if (c.at < c.len && c.p[c.at] == '}') {
            c.at++;
            break;
        }
        error = "expected ',' or '}'";
        goto done;
    }
trailing:
    skip_space(&c);
    if (c.at != c.len) {
        error = "unexpected text after the object";
    }
done:
    if (at) {
        *at = c.at;
    }
    return error;
}
