/* run.c - the run model: checked conversion from the history and bench JSON, and back.
 * Import files are outside input, so every member is type-, length- and range-checked. */
#include <math.h>
#include <stdarg.h>
#include <strings.h>

#include "common/sbuf.h"
#include "common/util.h"
#include "common/json.h"
#include "store/run.h"
#include "store/verdict.h"

struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	return r;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	json_object_put(r->device);
	json_object_put(r->target);
	json_object_put(r->checks);
	json_object_put(r->findings);
	free(r);
}

void run_list_release(struct run_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		run_free(l->runs[i]);
	free(l->runs);
	l->runs = NULL;
	l->n = l->alloc = 0;
}

int run_list_push(struct run_list *l, struct run *r)
{
	if (l->n == l->alloc) {
		size_t a = l->alloc ? l->alloc * 2 : 16;
		struct run **p = realloc(l->runs, a * sizeof(*p));

		if (!p) {
			run_free(r);
			return -ENOMEM;
		}
		l->runs = p;
		l->alloc = a;
	}
	l->runs[l->n++] = r;
	return 0;
}

bool run_rw_ok(const char *rw)
{
	static const char *const known[] = { "read", "write", "randread", "randwrite" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(rw, known[i]))
			return true;
	return false;
}

bool run_text_ok(const char *s, size_t cap)
{
	return strlen(s) < cap && str_is_clean_utf8(s);
}

int run_fail(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Optional string member into dst: absent or null gives "". */
static int get_text(struct json_object *o, const char *key, char *dst, size_t cap, bool required,
		    char *why, size_t why_cap)
{
	struct json_object *v = NULL;
	const char *s;

	dst[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (required)
			return run_fail(why, why_cap, "'%s' is missing", key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return run_fail(why, why_cap, "'%s' is not a string", key);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(s) || !run_text_ok(s, cap))
		return run_fail(why, why_cap, "'%s' is too long or not clean UTF-8 text", key);
	if (required && !*s)
		return run_fail(why, why_cap, "'%s' is empty", key);
	return str_copy(dst, cap, s);
}

/* Optional number member: absent or null gives NAN; must be finite, >= 0 and <= max. */
static int get_num(struct json_object *o, const char *key, double max, double *out, char *why,
		   size_t why_cap)
{
	struct json_object *v = NULL;
	double d;

	*out = NAN;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return run_fail(why, why_cap, "'%s' is not a number", key);
	d = json_object_get_double(v);
	/* the value as json-c holds it says little: 1e400 is inf, and an integer too large for
	 * 64 bits is clamped to 18446744073709551615; the limit is what the user can act on */
	if (isnan(d))
		return run_fail(why, why_cap, "'%s' is not a number", key);
	if (d < 0)
		return run_fail(why, why_cap, "'%s' is negative", key);
	if (d > max)
		return run_fail(why, why_cap, "'%s' is too large (at most %.0f)", key, max);
	*out = d;
	return 0;
}

/* Optional sub-document of the given type; copied, serialized size capped. */
static int get_doc(struct json_object *o, const char *key, enum json_type type,
		   struct json_object **out, char *why, size_t why_cap)
{
	struct json_object *v = NULL;
	const char *s;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, type))
		return run_fail(why, why_cap, "'%s' is not an %s", key,
			    type == json_type_array ? "array" : "object");
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	if (!s || strlen(s) > RUN_JSON_MAX)
		return run_fail(why, why_cap, "'%s' is larger than %d bytes", key, RUN_JSON_MAX);
	if (json_object_deep_copy(v, out, NULL) < 0)
		return -ENOMEM;
	return 0;
}

int run_time_check(const char *s, bool date_ok)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, mon, day, hour, min, sec, last;
	size_t i, n = strlen(s);

	if (n != sizeof(pat) - 1 && !(date_ok && n == 10))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (pat[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != pat[i])
			return -EINVAL;
	}
	year = ((s[0] - '0') * 10 + s[1] - '0') * 100 + (s[2] - '0') * 10 + s[3] - '0';
	mon = (s[5] - '0') * 10 + s[6] - '0';
	day = (s[8] - '0') * 10 + s[9] - '0';
	if (mon < 1 || mon > 12)
		return -EDOM;
	last = mdays[mon - 1];
	if (mon == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		last = 29;
	if (day < 1 || day > last)
		return -EDOM;
	if (n == 10)
		return 0;
	hour = (s[11] - '0') * 10 + s[12] - '0';
	min = (s[14] - '0') * 10 + s[15] - '0';
	sec = (s[17] - '0') * 10 + s[18] - '0';
	return hour < 24 && min < 60 && sec <= 60 ? 0 : -EDOM;
}

bool run_time_ok(const char *s, bool date_ok)
{
	return run_time_check(s, date_ok) == 0;
}

static int test_from_json(struct json_object *o, struct run_test *t, char *why, size_t cap)
{
	static const double big = 1e18;
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return run_fail(why, cap, "a test is not an object");
	ret = get_text(o, "name", t->name, sizeof(t->name), true, why, cap);
	if (!ret)
		ret = get_text(o, "rw", t->rw, sizeof(t->rw), true, why, cap);
	if (ret)
		return ret == -E2BIG ? run_fail(why, cap, "a test name is too long") : ret;
	if (!run_rw_ok(t->rw))
		return run_fail(why, cap, "'rw' is not one of read, write, randread, randwrite in test '%s'",
			    t->name);
	if ((ret = get_num(o, "block_bytes", 1ULL << 40, &t->block_bytes, why, cap)) ||
	    (ret = get_num(o, "queue_depth", 1 << 20, &t->queue_depth, why, cap)) ||
	    (ret = get_num(o, "threads", 1 << 20, &t->threads, why, cap)) ||
	    (ret = get_num(o, "runs", 1 << 20, &t->runs, why, cap)) ||
	    (ret = get_num(o, "ios", big, &t->ios, why, cap)) ||
	    (ret = get_num(o, "bw_bytes_per_s", big, &t->bw, why, cap)) ||
	    (ret = get_num(o, "bw_bytes_per_s_min", big, &t->bw_min, why, cap)) ||
	    (ret = get_num(o, "bw_bytes_per_s_max", big, &t->bw_max, why, cap)) ||
	    (ret = get_num(o, "bw_cv", 1e6, &t->bw_cv, why, cap)) ||
	    (ret = get_num(o, "iops", big, &t->iops, why, cap)) ||
	    (ret = get_num(o, "lat_mean_us", big, &t->lat_mean_us, why, cap)) ||
	    (ret = get_num(o, "lat_p50_us", big, &t->lat_p50_us, why, cap)) ||
	    (ret = get_num(o, "lat_p90_us", big, &t->lat_p90_us, why, cap)) ||
	    (ret = get_num(o, "lat_p99_us", big, &t->lat_p99_us, why, cap)) ||
	    (ret = get_num(o, "lat_p999_us", big, &t->lat_p999_us, why, cap)) ||
	    (ret = get_num(o, "lat_max_us", big, &t->lat_max_us, why, cap)) ||
	    (ret = get_num(o, "cpu_user_s", big, &t->cpu_user_s, why, cap)) ||
	    (ret = get_num(o, "cpu_sys_s", big, &t->cpu_sys_s, why, cap))) {
		size_t n = strlen(why);

		snprintf(why + n, cap - n, " in test '%s %s'", t->name, t->rw);
		return ret;
	}
	return 0;
}

static int tests_from_json(struct json_object *o, struct run *r, char *why, size_t cap)
{
	struct json_object *arr = NULL;
	size_t i, n;
	int ret;

	if (!json_object_object_get_ex(o, "tests", &arr) || !arr)
		return run_fail(why, cap, "'tests' is missing");
	if (!json_object_is_type(arr, json_type_array))
		return run_fail(why, cap, "'tests' is not an array");
	n = json_object_array_length(arr);
	if (n > RUN_TESTS_MAX)
		return run_fail(why, cap, "more than %d tests", RUN_TESTS_MAX);
	for (i = 0; i < n; i++) {
		ret = test_from_json(json_object_array_get_idx(arr, i), &r->tests[i], why, cap);
		if (ret)
			return ret;
	}
	r->ntests = n;
	return 0;
}

static int run_fields_from_json(struct json_object *o, struct run *r, char *why, size_t cap)
{
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return run_fail(why, cap, "a run is not an object");
	ret = get_text(o, "started_at", r->started_at, sizeof(r->started_at), true, why, cap);
	if (ret)
		return ret == -E2BIG ? run_fail(why, cap, "'started_at' is not a time") : ret;
	if (!run_time_ok(r->started_at, false))
		return run_fail(why, cap, "'started_at' is not a time like 2026-11-30T10:00:00Z");
	if ((ret = get_text(o, "profile", r->profile, sizeof(r->profile), true, why, cap)) ||
	    (ret = get_text(o, "engine", r->engine, sizeof(r->engine), false, why, cap)) ||
	    (ret = get_text(o, "board", r->board, sizeof(r->board), false, why, cap)) ||
	    (ret = get_text(o, "kernel", r->kernel, sizeof(r->kernel), false, why, cap)) ||
	    (ret = get_text(o, "boot_device", r->boot_device, sizeof(r->boot_device), false, why,
			    cap)) ||
	    (ret = get_text(o, "source", r->source, sizeof(r->source), false, why, cap)))
		return ret == -E2BIG ? run_fail(why, cap, "a text member is too long") : ret;
	if ((ret = get_doc(o, "device", json_type_object, &r->device, why, cap)) ||
	    (ret = get_doc(o, "target", json_type_object, &r->target, why, cap)) ||
	    (ret = get_doc(o, "checks", json_type_array, &r->checks, why, cap)) ||
	    (ret = get_doc(o, "findings", json_type_array, &r->findings, why, cap)))
		return ret;
	return tests_from_json(o, r, why, cap);
}

int run_from_json(struct json_object *o, struct run **out, char *why, size_t why_cap)
{
	struct run *r = run_new();
	int ret;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	ret = run_fields_from_json(o, r, why, why_cap);
	if (ret) {
		run_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

int run_list_from_json(struct json_object *doc, struct run_list *out, char *why, size_t why_cap)
{
	struct json_object *v = NULL, *arr = NULL;
	size_t i, n;
	int ret = 0;

	if (!json_object_is_type(doc, json_type_object))
		return run_fail(why, why_cap, "the document is not a JSON object");
	if (!json_object_object_get_ex(doc, "schema", &v) || !json_object_is_type(v, json_type_int))
		return run_fail(why, why_cap, "'schema' is missing or not a number");
	if (json_object_get_int64(v) != 1)
		return run_fail(why, why_cap, "schema %lld is not known (this sbcdisk reads schema 1)",
			    (long long)json_object_get_int64(v));
	if (!json_object_object_get_ex(doc, "runs", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return run_fail(why, why_cap, "'runs' is missing or not an array");
	n = json_object_array_length(arr);
	if (n > RUN_IMPORT_MAX)
		return run_fail(why, why_cap, "more than %d runs", RUN_IMPORT_MAX);
	for (i = 0; i < n; i++) {
		struct run *r;

		ret = run_from_json(json_object_array_get_idx(arr, i), &r, why, why_cap);
		if (ret == -EINVAL) {
			char inner[200];

			str_copy(inner, sizeof(inner), why);
			run_fail(why, why_cap, "run %zu of %zu: %s", i + 1, n, inner);
		}
		if (!ret)
			ret = run_list_push(out, r);
		if (ret)
			break;
	}
	if (ret)
		run_list_release(out);
	return ret;
}

int run_from_bench(struct json_object *bench, struct json_object *device, const char *board,
		   const char *kernel, const char *boot_device, struct run **out, char *why,
		   size_t why_cap)
{
	struct run *r = NULL;
	int ret;

	ret = run_from_json(bench, &r, why, why_cap);
	if (ret)
		return ret;
	json_object_put(r->device);
	r->device = NULL;
	if (device && json_object_deep_copy(device, &r->device, NULL) < 0) {
		run_free(r);
		return -ENOMEM;
	}
	str_copy(r->board, sizeof(r->board), board ? board : "");
	str_copy(r->kernel, sizeof(r->kernel), kernel ? kernel : "");
	str_copy(r->boot_device, sizeof(r->boot_device), boot_device ? boot_device : "");
	str_sanitize(r->board);
	str_sanitize(r->kernel);
	str_sanitize(r->boot_device);
	*out = r;
	return 0;
}

static void add_num(struct json_object *o, const char *key, double v)
{
	/* whole numbers print as integers: counts and bytes stay exact */
	if (isfinite(v) && v == floor(v) && fabs(v) < 9e15)
		json_add_i64(o, key, true, (int64_t)v);
	else
		json_add_double(o, key, isfinite(v), v);
}

static void add_text(struct json_object *o, const char *key, const char *s)
{
	json_add_str(o, key, *s ? s : NULL);
}

static struct json_object *copy_or_null(struct json_object *o)
{
	struct json_object *c = NULL;

	if (o && json_object_deep_copy(o, &c, NULL) < 0)
		return NULL;
	return c;
}

static struct json_object *test_to_json(const struct run_test *t)
{
	struct json_object *o = json_object_new_object();

	json_add_str(o, "name", t->name);
	json_add_str(o, "rw", t->rw);
	add_num(o, "block_bytes", t->block_bytes);
	add_num(o, "queue_depth", t->queue_depth);
	add_num(o, "threads", t->threads);
	add_num(o, "runs", t->runs);
	add_num(o, "ios", t->ios);
	add_num(o, "bw_bytes_per_s", t->bw);
	add_num(o, "bw_bytes_per_s_min", t->bw_min);
	add_num(o, "bw_bytes_per_s_max", t->bw_max);
	add_num(o, "bw_cv", t->bw_cv);
	add_num(o, "iops", t->iops);
	add_num(o, "lat_mean_us", t->lat_mean_us);
	add_num(o, "lat_p50_us", t->lat_p50_us);
	add_num(o, "lat_p90_us", t->lat_p90_us);
	add_num(o, "lat_p99_us", t->lat_p99_us);
	add_num(o, "lat_p999_us", t->lat_p999_us);
	add_num(o, "lat_max_us", t->lat_max_us);
	add_num(o, "cpu_user_s", t->cpu_user_s);
	add_num(o, "cpu_sys_s", t->cpu_sys_s);
	return o;
}

struct json_object *run_to_json(const struct run *r)
{
	struct json_object *o = json_object_new_object(), *tests, *verdicts;
	struct verdict v;
	double score;
	size_t i;

	if (!o)
		return NULL;
	json_add_i64(o, "id", r->id > 0, r->id);
	json_add_str(o, "started_at", r->started_at);
	json_add_str(o, "profile", r->profile);
	add_text(o, "engine", r->engine);
	add_text(o, "board", r->board);
	add_text(o, "kernel", r->kernel);
	add_text(o, "boot_device", r->boot_device);
	add_text(o, "source", r->source);
	json_object_object_add(o, "device", copy_or_null(r->device));
	json_object_object_add(o, "target", copy_or_null(r->target));
	tests = json_object_new_array();
	verdicts = json_object_new_array();
	for (i = 0; i < r->ntests; i++) {
		json_object_array_add(tests, test_to_json(&r->tests[i]));
		if (verdict_test(r, &r->tests[i], &v) == 0) {
			struct json_object *vo = json_object_new_object();

			json_add_str(vo, "test", r->tests[i].name);
			json_add_str(vo, "rw", r->tests[i].rw);
			verdict_json_add(vo, &v);
			json_object_array_add(verdicts, vo);
		}
	}
	json_object_object_add(o, "tests", tests);
	json_object_object_add(o, "checks", copy_or_null(r->checks));
	json_object_object_add(o, "findings", copy_or_null(r->findings));
	json_object_object_add(o, "verdicts", verdicts);
	score = verdict_score(r);
	if (isfinite(score)) {
		char txt[32];

		/* one decimal, printed as such (not 1507.3000000000002) */
		str_fmt(txt, sizeof(txt), "%.1f", score);
		json_object_object_add(o, "score", json_object_new_double_s(round(score * 10) / 10, txt));
	} else {
		json_add_null(o, "score");
	}
	return o;
}

struct json_object *run_list_to_json(const struct run_list *l)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	size_t i;

	json_add_i64(o, "schema", true, 1);
	for (i = 0; i < l->n; i++)
		json_object_array_add(arr, run_to_json(l->runs[i]));
	json_object_object_add(o, "runs", arr);
	return o;
}

const char *run_test_dir(const struct run_test *t)
{
	if (strstr(t->rw, "write"))
		return strstr(t->rw, "read") ? t->rw : "write";
	if (strstr(t->rw, "read"))
		return "read";
	return t->rw;
}

const struct run_test *run_test_find(const struct run *r, const char *name, const char *dir)
{
	size_t i;

	for (i = 0; i < r->ntests; i++) {
		const struct run_test *t = &r->tests[i];

		if (!strcmp(t->name, name) && (!strcmp(t->rw, dir) || !strcmp(run_test_dir(t), dir)))
			return t;
	}
	return NULL;
}

double run_test_iops(const struct run_test *t)
{
	if (isfinite(t->iops))
		return t->iops;
	if (isfinite(t->bw) && isfinite(t->block_bytes) && t->block_bytes > 0)
		return t->bw / t->block_bytes;
	return NAN;
}

static struct json_object *device_member(const struct run *r, const char *path)
{
	struct json_object *o = r->device;
	char key[64];

	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(key) || !json_object_is_type(o, json_type_object))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (dot ? 1 : 0);
	}
	return o;
}

const char *run_device_str(const struct run *r, const char *path)
{
	struct json_object *o = device_member(r, path);

	if (!o || !json_object_is_type(o, json_type_string))
		return NULL;
	return json_object_get_string(o);
}

double run_device_num(const struct run *r, const char *path)
{
	struct json_object *o = device_member(r, path);

	if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
		return NAN;
	return json_object_get_double(o);
}

const char *run_device_label(const struct run *r, char *buf, size_t cap)
{
	const char *s = run_device_str(r, "model");

	if (!s || !*s)
		s = run_device_str(r, "nvme.model");
	if (!s || !*s)
		s = run_device_str(r, "mmc.name");
	if (s && *s) {
		str_copy(buf, cap, s);
		return buf;
	}
	/* no model: the kernel's name, and how it is attached ("vda (virtio)") */
	s = run_device_str(r, "name");
	if (s && *s && run_device_str(r, "transport"))
		str_fmt(buf, cap, "%s (%s)", s, run_device_str(r, "transport"));
	else
		str_copy(buf, cap, s && *s ? s : "?");
	return buf;
}

void run_attach_summary(const struct run *r, char *buf, size_t cap)
{
	const char *tr = run_device_str(r, "transport"), *drv = run_device_str(r, "usb.driver");
	const char *vid = run_device_str(r, "usb.vid"), *pid = run_device_str(r, "usb.pid");
	const char *timing = run_device_str(r, "mmc.timing");
	double speed = run_device_num(r, "usb.speed_mbps");
	double gts = run_device_num(r, "pcie.link_speed_gts"), w = run_device_num(r, "pcie.link_width");
	struct sbuf sb = SBUF_INIT(255);
	int ret;

	ret = sbuf_adds(&sb, tr ? tr : "?");
	if (!ret && isfinite(speed))
		ret = sbuf_addf(&sb, " %gM", speed);
	if (!ret && drv)
		ret = sbuf_addf(&sb, " %s", drv);
	if (!ret && vid && pid)
		ret = sbuf_addf(&sb, " %s:%s", vid, pid);
	if (!ret && isfinite(gts) && isfinite(w))
		ret = sbuf_addf(&sb, " pcie %g GT/s x%g", gts, w);
	if (!ret && timing)
		ret = sbuf_addf(&sb, " %s", timing);
	/* an imported run can hold anything: a summary that does not fit is cut and says so;
	 * without memory it is unknown */
	str_copy_cut(buf, cap, ret == -ENOMEM ? "?" : sbuf_str(&sb), ret == -E2BIG);
	str_sanitize(buf);
	sbuf_release(&sb);
}

/* the last word of s, lowercase, as a word of sb: "sd uhs SDR104" -> " sdr104" */
static int attach_last_word(struct sbuf *sb, const char *s)
{
	const char *w = strrchr(s, ' ');
	char word[32];
	size_t i;

	str_copy_cut(word, sizeof(word), w ? w + 1 : s, false);
	for (i = 0; word[i]; i++)
		if (word[i] >= 'A' && word[i] <= 'Z')
			word[i] = (char)(word[i] - 'A' + 'a');
	return word[0] ? sbuf_addf(sb, "%s%s", sb->len ? " " : "", word) : 0;
}

void run_attach_short(const struct run *r, char *buf, size_t cap)
{
	const char *tr = run_device_str(r, "transport"), *drv = run_device_str(r, "usb.driver");
	const char *type = run_device_str(r, "mmc.type"), *timing = run_device_str(r, "mmc.timing");
	double speed = run_device_num(r, "usb.speed_mbps");
	double gts = run_device_num(r, "pcie.link_speed_gts"), w = run_device_num(r, "pcie.link_width");
	struct sbuf sb = SBUF_INIT(63);
	int ret = 0;

	if (tr && !strcmp(tr, "usb")) {
		if (!isfinite(speed))
			ret = sbuf_adds(&sb, "usb");
		else if (speed <= 12)
			ret = sbuf_adds(&sb, "usb1");
		else if (speed <= 480)
			ret = sbuf_adds(&sb, "usb2");
		else if (speed <= 5000)
			ret = sbuf_adds(&sb, "usb3");
		else
			ret = sbuf_addf(&sb, "usb3 %.0fG", speed / 1000);
		if (!ret && drv)
			ret = sbuf_addf(&sb, " %s", drv);
	} else if (isfinite(gts) || isfinite(w)) {
		ret = sbuf_adds(&sb, "pcie");
		if (!ret && isfinite(gts))
			ret = sbuf_addf(&sb, " %gGT/s", gts);
		if (!ret && isfinite(w))
			ret = sbuf_addf(&sb, " x%g", w);
	} else if (tr && !strcmp(tr, "mmc") && (type || timing)) {
		if (type) /* the kernel's MMC is a soldered eMMC here */
			ret = attach_last_word(&sb, strcasecmp(type, "MMC") ? type : "emmc");
		if (!ret && timing)
			ret = attach_last_word(&sb, timing);
	} else {
		ret = sbuf_adds(&sb, tr ? tr : "?");
	}
	str_copy_cut(buf, cap, ret == -ENOMEM ? "?" : sbuf_str(&sb), ret == -E2BIG);
	str_sanitize(buf);
	sbuf_release(&sb);
}

bool run_test_is_memory(const struct run_test *t)
{
	return strcasestr(t->name, "cached") || strcasestr(t->rw, "cached");
}
