/* run-import.c - reading a history document run by run: the text is checked and cut without
 * building it, and only the members a run has are handed to json-c, one run at a time. A
 * 63 MB file holding one long array under a key nobody reads took 2.4 GB as one json-c tree. */
#include <errno.h>
#include <stdarg.h>

#include "common/sbuf.h"
#include "common/util.h"
#include "common/json.h"
#include "store/run.h"

#define SCAN_DEPTH 64
/* Raw text caps checked before parsing (whitespace included): a document member may be
 * RUN_JSON_MAX bytes once printed plainly; a text member is far shorter than this. */
#define RAW_DOC_MAX  (4 * RUN_JSON_MAX)
#define RAW_TEXT_MAX 4096

struct scan {
	const char *p, *end, *base;
	char *why;
	size_t cap;
};

static int bad(struct scan *s, const char *what)
{
	snprintf(s->why, s->cap, "not JSON: %s at byte %zu", what, (size_t)(s->p - s->base));
	return -EBADMSG;
}

static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool at(struct scan *s, char c)
{
	ws(s);
	return s->p < s->end && *s->p == c;
}

static int expect(struct scan *s, char c, const char *what)
{
	if (!at(s, c))
		return bad(s, s->p < s->end ? what : "unexpected end of document");
	s->p++;
	return 0;
}

static int hexdig(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at s->p ('"'): checked; raw and n: its bytes between the quotes, escapes kept. */
static int string(struct scan *s, const char **raw, size_t *n)
{
	const char *start;

	if (expect(s, '"', "a string expected"))
		return -EBADMSG;
	start = s->p;
	while (s->p < s->end && *s->p != '"') {
		if ((unsigned char)*s->p < 0x20)
			return bad(s, "a control character in a string");
		if (*s->p == '\\') {
			s->p++;
			if (s->p >= s->end)
				break;
			if (*s->p == 'u') {
				if (s->end - s->p < 5 || !hexdig(s->p[1]) || !hexdig(s->p[2]) ||
				    !hexdig(s->p[3]) || !hexdig(s->p[4]))
					return bad(s, "a bad \\u escape");
				s->p += 4;
			} else if (!strchr("\"\\/bfnrt", *s->p)) {
				return bad(s, "a bad escape");
			}
		}
		s->p++;
	}
	if (s->p >= s->end)
		return bad(s, "unexpected end of document");
	*raw = start;
	*n = (size_t)(s->p - start);
	s->p++;
	return 0;
}

static int digits(struct scan *s)
{
	const char *q = s->p;

	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > q ? 0 : bad(s, "a bad number");
}

static int number(struct scan *s)
{
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (digits(s))
		return -EBADMSG;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (digits(s))
			return -EBADMSG;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (digits(s))
			return -EBADMSG;
	}
	return 0;
}

static int literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return bad(s, "an unknown word");
	s->p += n;
	return 0;
}

/* Check one value and step over it, building nothing. */
static int value(struct scan *s, int depth)
{
	const char *raw;
	size_t n;

	ws(s);
	if (s->p >= s->end)
		return bad(s, "unexpected end of document");
	if (depth > SCAN_DEPTH)
		return bad(s, "nested too deep");
	switch (*s->p) {
	case '"':
		return string(s, &raw, &n);
	case '{':
		s->p++;
		if (at(s, '}')) {
			s->p++;
			return 0;
		}
		do {
			if (string(s, &raw, &n) || expect(s, ':', "':' expected") ||
			    value(s, depth + 1))
				return -EBADMSG;
		} while (at(s, ',') && s->p++);
		return expect(s, '}', "',' or '}' expected");
	case '[':
		s->p++;
		if (at(s, ']')) {
			s->p++;
			return 0;
		}
		do {
			if (value(s, depth + 1))
				return -EBADMSG;
		} while (at(s, ',') && s->p++);
		return expect(s, ']', "',' or ']' expected");
	case 't':
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		return number(s);
	}
}

static bool key_is(const char *raw, size_t n, const char *key)
{
	return strlen(key) == n && !memcmp(raw, key, n);
}

static bool key_in(const char *raw, size_t n, const char *const *keys)
{
	for (; *keys; keys++)
		if (key_is(raw, n, *keys))
			return true;
	return false;
}


static const char *const test_keys[] = {
	"name", "rw", "block_bytes", "queue_depth", "threads", "runs", "ios", "bw_bytes_per_s",
	"bw_bytes_per_s_min", "bw_bytes_per_s_max", "bw_cv", "iops", "lat_mean_us", "lat_p50_us",
	"lat_p90_us", "lat_p99_us", "lat_p999_us", "lat_max_us", "cpu_user_s", "cpu_sys_s", NULL,
};
static const char *const run_text_keys[] = {
	"started_at", "profile", "engine", "board", "kernel", "boot_device", "source", NULL,
};
static const char *const run_doc_keys[] = { "device", "target", "checks", "findings", NULL };

/*
 * The object at s, with only the members keep names, into out; "tests" (when tests is set)
 * is an array whose objects are cut the same way. A known member larger than its cap is
 * refused here, before json-c sees it.
 */
static int cut_object(struct scan *s, struct sbuf *out, bool is_run, char *why, size_t cap)
{
	const char *key, *v;
	size_t kn;
	bool first = true;
	int ret;

	ws(s);
	if (s->p >= s->end || *s->p != '{')
		return value(s, 1) ? -EBADMSG : 1; /* not an object: the caller says so */
	s->p++;
	if (sbuf_addch(out, '{'))
		return -ENOMEM;
	if (!at(s, '}')) {
		do {
			if (string(s, &key, &kn) || expect(s, ':', "':' expected"))
				return -EBADMSG;
			ws(s);
			v = s->p;
			if (is_run && key_is(key, kn, "tests") && at(s, '[')) {
				if (sbuf_addf(out, "%s\"tests\":[", first ? "" : ","))
					return -ENOMEM;
				s->p++;
				first = false;
				if (!at(s, ']')) {
					bool tfirst = true;

					do {
						if (!tfirst && sbuf_addch(out, ','))
							return -ENOMEM;
						tfirst = false;
						ret = cut_object(s, out, false, why, cap);
						if (ret < 0)
							return ret;
						if (ret > 0 && sbuf_adds(out, "0")) /* refused later */
							return -ENOMEM;
					} while (at(s, ',') && s->p++);
				}
				if (expect(s, ']', "',' or ']' expected") || sbuf_addch(out, ']'))
					return -EBADMSG;
				continue;
			}
			if (value(s, 2))
				return -EBADMSG;
			if (is_run ? !key_in(key, kn, run_text_keys) &&
					     !key_in(key, kn, run_doc_keys) && !key_is(key, kn, "tests") :
				     !key_in(key, kn, test_keys))
				continue; /* not ours: checked, never built */
			if ((size_t)(s->p - v) > (key_in(key, kn, run_doc_keys) ? RAW_DOC_MAX :
										 RAW_TEXT_MAX))
				return key_in(key, kn, run_doc_keys) ?
					       run_fail(why, cap, "'%.*s' is larger than %d bytes",
						    (int)kn, key, RUN_JSON_MAX) :
					       run_fail(why, cap, "'%.*s' is too long (more than %d bytes)",
						    (int)kn, key, RAW_TEXT_MAX);
			if ((!first && sbuf_addch(out, ',')) || sbuf_addch(out, '"') ||
			    sbuf_add(out, key, kn) || sbuf_adds(out, "\":") ||
			    sbuf_add(out, v, (size_t)(s->p - v)))
				return -ENOMEM;
			first = false;
		} while (at(s, ',') && s->p++);
	}
	if (expect(s, '}', "',' or '}' expected"))
		return -EBADMSG;
	return sbuf_addch(out, '}') ? -ENOMEM : 0;
}

/* An integer (no fraction, no exponent) at p, which value() has checked. */
static bool schema_is_int(const char *p)
{
	const char *q = p + (*p == '-');
	const char *d = q;

	while (*q >= '0' && *q <= '9')
		q++;
	return q > d && *q != '.' && *q != 'e' && *q != 'E';
}

int run_doc_open(struct run_doc *d, const char *buf, size_t len, char *why, size_t cap)
{
	struct scan s = { .p = buf, .end = buf + len, .base = buf, .why = why, .cap = cap };
	const char *key, *schema = NULL, *runs = NULL;
	size_t kn;
	long long version;

	memset(d, 0, sizeof(*d));
	ws(&s);
	if (s.p >= s.end)
		return bad(&s, "an empty document");
	if (*s.p != '{') {
		if (value(&s, 1))
			return -EBADMSG;
		return run_fail(why, cap, "the document is not a JSON object");
	}
	s.p++;
	if (!at(&s, '}')) {
		do {
			if (string(&s, &key, &kn) || expect(&s, ':', "':' expected"))
				return -EBADMSG;
			ws(&s);
			if (key_is(key, kn, "schema")) /* the last one counts, as in json-c */
				schema = s.p;
			else if (key_is(key, kn, "runs"))
				runs = s.p;
			if (value(&s, 1))
				return -EBADMSG;
		} while (at(&s, ',') && s.p++);
	}
	if (expect(&s, '}', "',' or '}' expected"))
		return -EBADMSG;
	ws(&s);
	if (s.p < s.end)
		return bad(&s, "trailing data after the document");
	if (!schema || !schema_is_int(schema))
		return run_fail(why, cap, "'schema' is missing or not a number");
	version = strtoll(schema, NULL, 10);
	if (version != 1)
		return run_fail(why, cap, "schema %lld is not known (this sbcdisk reads schema 1)",
			    version);
	if (!runs || *runs != '[')
		return run_fail(why, cap, "'runs' is missing or not an array");
	/* count the runs: "run 3 of 18" */
	s.p = runs + 1;
	d->first = runs + 1;
	d->end = buf + len;
	d->base = buf;
	if (!at(&s, ']')) {
		do {
			if (value(&s, 2))
				return -EBADMSG;
			d->n++;
		} while (at(&s, ',') && s.p++);
	}
	if (d->n > RUN_IMPORT_MAX)
		return run_fail(why, cap, "more than %d runs", RUN_IMPORT_MAX);
	d->next = d->first;
	return 0;
}

void run_doc_rewind(struct run_doc *d)
{
	d->next = d->first;
	d->i = 0;
}

int run_doc_next(struct run_doc *d, struct run **out, char *why, size_t cap)
{
	struct scan s = { .p = d->next, .end = d->end, .base = d->base, .why = why, .cap = cap };
	struct sbuf sb = SBUF_INIT(8 * RAW_DOC_MAX);
	struct json_object *o = NULL;
	char inner[200];
	const char *err;
	int ret;

	*out = NULL;
	if (d->i >= d->n)
		return 0;
	if (d->i > 0 && expect(&s, ',', "',' expected"))
		return -EBADMSG;
	ret = cut_object(&s, &sb, true, inner, sizeof(inner));
	if (ret > 0)
		ret = run_fail(inner, sizeof(inner), "a run is not an object");
	if (!ret) {
		o = json_parse_buf(sbuf_str(&sb), sb.len, &err);
		ret = o ? run_from_json(o, out, inner, sizeof(inner)) : -ENOMEM;
	}
	if (ret == -E2BIG)
		ret = run_fail(inner, sizeof(inner), "a run is larger than %d bytes", 8 * RAW_DOC_MAX);
	if (ret == -EINVAL)
		run_fail(why, cap, "run %zu of %zu: %s", d->i + 1, d->n, inner);
	json_object_put(o);
	sbuf_release(&sb);
	d->next = s.p;
	d->i++;
	return ret;
}
