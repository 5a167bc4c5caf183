/* json.c - helpers over json-c for the JSON contracts.
 * Doubles print with enough digits to round-trip; unknown values are null, never guessed. */
#include <errno.h>
#include <math.h>

#include "common/util.h"
#include "common/json.h"

void json_add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

void json_add_u64(struct json_object *o, const char *key, bool has, uint64_t v)
{
	json_object_object_add(o, key, has ? json_object_new_uint64(v) : NULL);
}

void json_add_i64(struct json_object *o, const char *key, bool has, int64_t v)
{
	json_object_object_add(o, key, has ? json_object_new_int64(v) : NULL);
}

void json_add_double(struct json_object *o, const char *key, bool has, double v)
{
	if (!has || !isfinite(v)) {
		json_object_object_add(o, key, NULL);
		return;
	}
	json_object_object_add(o, key, json_object_new_double(v));
}

void json_add_bool(struct json_object *o, const char *key, bool has, bool v)
{
	json_object_object_add(o, key, has ? json_object_new_boolean(v) : NULL);
}

void json_add_null(struct json_object *o, const char *key)
{
	json_object_object_add(o, key, NULL);
}

/* json-c 0.17 and later print an empty array or object as "[]"; 0.16 (Debian 12) as "[",
 * newline, the line's indentation, "]". The contract is one form on every system: 0.16's. */
static int json_put_stable(const char *s, FILE *f)
{
	bool in_str = false, esc = false;
	size_t indent = 0;
	const char *p, *run = s; /* written up to run; the rest in runs, not a call a byte */

	for (p = s; *p; p++) {
		if (in_str) {
			if (esc)
				esc = false;
			else if (*p == '\\')
				esc = true;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '\n') {
			indent = strspn(p + 1, " ");
		} else if ((p[0] == '[' && p[1] == ']') || (p[0] == '{' && p[1] == '}')) {
			if ((p > run && fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run)) ||
			    fprintf(f, "%c\n%*s%c", p[0], (int)indent, "", p[1]) < 0)
				return -EIO;
			p++;
			run = p + 1;
		}
	}
	if (p > run && fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run))
		return -EIO;
	return 0;
}

int json_print(struct json_object *o, FILE *f)
{
	const char *s = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s || json_put_stable(s, f) || fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

struct json_object *json_parse_buf(const char *buf, size_t len, const char **err)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error e;

	*err = NULL;
	if (len > (size_t)INT32_MAX) {
		*err = "document too large";
		return NULL;
	}
	tok = json_tokener_new_ex(64);
	if (!tok) {
		*err = "out of memory";
		return NULL;
	}
	o = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	if (e == json_tokener_continue) {
		*err = "unexpected end of document";
		json_object_put(o);
		o = NULL;
	} else if (e != json_tokener_success) {
		*err = json_tokener_error_desc(e);
		json_object_put(o);
		o = NULL;
	} else if (tok->char_offset < (int)len) {
		size_t i;

		for (i = (size_t)tok->char_offset; i < len; i++) {
			if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t' && buf[i] != '\r') {
				*err = "trailing data after the document";
				json_object_put(o);
				o = NULL;
				break;
			}
		}
	}
	json_tokener_free(tok);
	return o;
}
