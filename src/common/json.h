/* json.h - helpers over json-c for the JSON contracts: null for unknown, stable printing.
 * Every document is built as a json_object tree and printed by json_print(). */
#ifndef SBCDISK_COMMON_JSON_H
#define SBCDISK_COMMON_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Add key: the string, or null when s is NULL. */
void json_add_str(struct json_object *o, const char *key, const char *s);
/* Add key: the number, or null when has is false. */
void json_add_u64(struct json_object *o, const char *key, bool has, uint64_t v);
void json_add_i64(struct json_object *o, const char *key, bool has, int64_t v);
void json_add_double(struct json_object *o, const char *key, bool has, double v);
void json_add_bool(struct json_object *o, const char *key, bool has, bool v);
void json_add_null(struct json_object *o, const char *key);

/* Pretty-print with two-space indentation and a final newline. 0 or -EIO. */
int json_print(struct json_object *o, FILE *f);

/* Parse a whole document from a buffer; NULL on error with *err set to a static text. */
struct json_object *json_parse_buf(const char *buf, size_t len, const char **err);

#endif
