/* verdict.c - judges a figure against what its path can carry (common/path.c: link, protocol,
 * drive), and scores a drive for use as a boot drive. Ranges and sources: docs/paths.md. */
#include <math.h>
#include <strings.h>

#include "common/json.h"
#include "common/util.h"
#include "store/verdict.h"

int verdict_usb_ceiling(double speed_mbps, struct link_ceiling *c)
{
	c->floor_only = false;
	return path_usb_ceiling(speed_mbps, &c->bytes_per_s, c->name, sizeof(c->name));
}

int verdict_pcie_ceiling(double gts, double width, struct link_ceiling *c)
{
	c->floor_only = false;
	return path_pcie_ceiling(gts, width, &c->bytes_per_s, c->name, sizeof(c->name));
}

int verdict_mmc_ceiling(const char *timing, struct link_ceiling *c)
{
	c->floor_only = false;
	return path_mmc_ceiling(timing, &c->bytes_per_s, c->name, sizeof(c->name));
}

static bool is_nvme(const struct run *r)
{
	const char *tr = run_device_str(r, "transport");
	struct json_object *pcie = NULL;

	return (tr && !strcmp(tr, "nvme")) || run_device_str(r, "nvme.model") ||
	       (json_object_object_get_ex(r->device, "pcie", &pcie) && pcie);
}

static bool is_memory_figure(const struct run_test *t)
{
	return run_test_is_memory(t);
}

static bool is_large(const struct run_test *t);

void verdict_path_in(const struct run *r, struct path_in *in)
{
	const char *vid = run_device_str(r, "usb.vid"), *pid = run_device_str(r, "usb.pid");
	struct json_object *rot = NULL;
	size_t i;

	memset(in, 0, sizeof(*in));
	in->board = r->board[0] ? r->board : NULL;
	in->transport = run_device_str(r, "transport");
	in->model = run_device_str(r, "model");
	in->bridge = run_device_str(r, "usb.bridge");
	in->usb_driver = run_device_str(r, "usb.driver");
	in->mmc_type = run_device_str(r, "mmc.type");
	in->mmc_timing = run_device_str(r, "mmc.timing");
	in->usb_speed_mbps = run_device_num(r, "usb.speed_mbps");
	in->pcie_gts = run_device_num(r, "pcie.link_speed_gts");
	in->pcie_width = run_device_num(r, "pcie.link_width");
	in->rotational = -1;
	if (r->device && json_object_object_get_ex(r->device, "rotational", &rot) && rot)
		in->rotational = json_object_get_boolean(rot) ? 1 : 0;
	in->nvme = is_nvme(r);
	if (vid && pid && strlen(vid) == 4 && strlen(pid) == 4)
		str_fmt(in->usb_id, sizeof(in->usb_id), "%s:%s", vid, pid);
	in->best_bw = NAN;
	for (i = 0; i < r->ntests; i++) {
		const struct run_test *t = &r->tests[i];

		if (isfinite(t->bw) && !is_memory_figure(t) && is_large(t) &&
		    !(t->bw <= in->best_bw))
			in->best_bw = t->bw;
	}
}

int verdict_path(const struct run *r, struct path_expect *e)
{
	struct path_in in;

	if (!r->device) {
		memset(e, 0, sizeof(*e));
		e->lo = e->hi = e->link_ceiling = NAN;
		return -ENODATA;
	}
	verdict_path_in(r, &in);
	return path_expect(&in, e);
}

int verdict_ceiling(const struct run *r, struct link_ceiling *c)
{
	struct path_expect e;

	if (verdict_path(r, &e) || !isfinite(e.link_ceiling))
		return -ENODATA;
	c->bytes_per_s = e.link_ceiling;
	c->floor_only = e.floor_only;
	str_copy(c->name, sizeof(c->name), e.link);
	return 0;
}

const char *verdict_limit_name(enum verdict_limit l)
{
	switch (l) {
	case VERDICT_LINK:
		return "link";
	case VERDICT_PROTOCOL:
		return "protocol";
	case VERDICT_DEVICE:
		return "device";
	case VERDICT_PROBLEM:
		return "problem";
	case VERDICT_MEMORY:
		return "memory";
	default:
		return NULL;
	}
}

/* Whole numbers as integers, as the run's own figures print. */
static void json_add_bytes(struct json_object *o, const char *key, double v)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < 9e15)
		json_add_i64(o, key, true, (int64_t)v);
	else
		json_add_double(o, key, isfinite(v), v);
}

void verdict_json_add(struct json_object *o, const struct verdict *v)
{
	json_add_str(o, "limit", verdict_limit_name(v->limit));
	json_add_bytes(o, "ceiling_bytes_per_s", v->ceiling);
	if (isfinite(v->expect_lo) && isfinite(v->expect_hi)) {
		struct json_object *ex = json_object_new_object();

		json_add_bytes(ex, "low", round(v->expect_lo));
		json_add_bytes(ex, "high", round(v->expect_hi));
		json_object_object_add(o, "expected_bytes_per_s", ex);
	} else {
		json_add_null(o, "expected_bytes_per_s");
	}
	json_add_str(o, "text", v->text);
}

/* Transfers big enough that only bandwidth limits them, not the latency of one request:
 * 1 MiB blocks, or 128 KiB with 8 or more in flight. */
static bool is_large(const struct run_test *t)
{
	if (isfinite(t->block_bytes))
		return t->block_bytes >= 1024 * 1024 ||
		       (t->block_bytes >= 128 * 1024 && isfinite(t->queue_depth) &&
			t->queue_depth >= 8);
	return !strncasecmp(t->name, "SEQ", 3) || strcasestr(t->name, "hdparm") ||
	       !strncasecmp(t->name, "dd", 2);
}

/* A finding about another drive (by name or by USB id) says nothing about this run. */
static bool finding_is_other(const struct run *r, struct json_object *f)
{
	const char *name = run_device_str(r, "name"), *vid = run_device_str(r, "usb.vid");
	const char *pid = run_device_str(r, "usb.pid");
	struct json_object *v;
	char usb_id[16];

	if (json_object_object_get_ex(f, "device", &v) && v && name &&
	    strncmp(json_object_get_string(v), name, strlen(name)))
		return true;
	if (json_object_object_get_ex(f, "usb_id", &v) && v && vid && pid) {
		str_fmt(usb_id, sizeof(usb_id), "%s:%s", vid, pid);
		if (strcasecmp(json_object_get_string(v), usb_id))
			return true;
	}
	return false;
}

/* Id of the first stored doctor finding about this drive (or about no drive in particular)
 * that is an error or a warning, or NULL. */
static const char *problem_finding(const struct run *r)
{
	size_t i, n = r->findings ? json_object_array_length(r->findings) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(r->findings, i), *v;
		const char *sev = NULL, *id = NULL;

		if (!json_object_is_type(f, json_type_object) || finding_is_other(r, f))
			continue;
		if (json_object_object_get_ex(f, "severity", &v) && v)
			sev = json_object_get_string(v);
		if (json_object_object_get_ex(f, "id", &v) && v)
			id = json_object_get_string(v);
		if (id && sev && (!strcmp(sev, "error") || !strcmp(sev, "warning")) &&
		    str_is_clean_utf8(id) && strlen(id) < 48)
			return id;
	}
	return NULL;
}

/* The next sbcdisk command that can find why the drive is far below its path. */
static void next_step(const struct run *r, const struct path_expect *e, char *buf, size_t cap)
{
	const char *name = run_device_str(r, "name");

	if (!name || !str_is_clean_utf8(name) || strlen(name) > 32)
		name = "DEVICE";
	if (!strcmp(e->protocol, "uas") ||
	    (!e->protocol[0] && e->link_ceiling > 100e6 && run_device_num(r, "usb.speed_mbps") > 480))
		str_fmt(buf, cap, "try sbcdisk fix uas %s --try", name);
	else if (run_device_str(r, "usb.vid") || isfinite(run_device_num(r, "usb.speed_mbps")))
		str_copy(buf, cap, "check the cable, port and power: sbcdisk doctor");
	else if (e->medium == PATH_MEDIUM_NVME && (e->floor_only || strstr(e->link, "board")))
		str_copy(buf, cap, "check its PCIe link: sbcdisk list");
	else if (e->medium == PATH_MEDIUM_NVME) /* the link is known and not the limit */
		str_copy(buf, cap, "check its temperature and health: "
			 "sbcdisk list -o +TEMP,HEALTH,WEAR");
	else
		str_copy(buf, cap, "run sbcdisk doctor");
}

static void far_below(const struct run *r, const struct path_expect *e, struct verdict *v)
{
	const char *id = problem_finding(r);
	char next[80];

	v->limit = VERDICT_PROBLEM;
	next_step(r, e, next, sizeof(next));
	if (id)
		str_fmt(v->text, sizeof(v->text), "far below this path — see doctor: %s; %s", id,
			next);
	else
		str_fmt(v->text, sizeof(v->text), "far below this path — %s", next);
}

static bool fast_medium(const struct path_expect *e)
{
	return e->medium == PATH_MEDIUM_SATA_SSD || e->medium == PATH_MEDIUM_NVME;
}

/* A figure that reaches the path's range: limited by the part that sets it. */
static void at_range(const struct path_expect *e, struct verdict *v)
{
	switch (e->binding) {
	case PATH_PART_PROTOCOL:
		v->limit = VERDICT_PROTOCOL;
		str_fmt(v->text, sizeof(v->text), "limited by the protocol (%s on %s)", e->protocol,
			e->link);
		break;
	case PATH_PART_MEDIUM:
		v->limit = VERDICT_DEVICE;
		str_fmt(v->text, sizeof(v->text), "limited by the device (%s)",
			path_medium_name(e->medium));
		break;
	default:
		v->limit = VERDICT_LINK;
		str_fmt(v->text, sizeof(v->text), "limited by the link (%s)", e->link);
		break;
	}
}

static void judge_large(const struct run *r, const struct run_test *t, const struct path_expect *e,
			struct verdict *v)
{
	/* one request at a time: a USB or PCIe drive's own latency sets the pace, not the link */
	bool shallow = isfinite(t->queue_depth) && t->queue_depth < 4 && e->link_ceiling > 100e6;

	v->expect_lo = e->lo;
	v->expect_hi = e->hi;
	if (t->bw >= e->lo) {
		at_range(e, v);
	} else if (t->bw < e->lo * VERDICT_FAR_SHARE && (problem_finding(r) || fast_medium(e))) {
		far_below(r, e, v);
	} else {
		v->limit = VERDICT_DEVICE;
		str_copy(v->text, sizeof(v->text),
			 shallow && e->binding != PATH_PART_MEDIUM
				 ? "limited by the device (at queue depth 1)"
				 : "limited by the device");
	}
}

/* What limits test t, small transfers included (verdict_test() says which of this is shown). */
static int verdict_test_path(const struct run *r, const struct run_test *t, struct verdict *v)
{
	struct path_expect e;
	double share;

	if (!isfinite(t->bw))
		return -ENODATA;
	v->ceiling = v->expect_lo = v->expect_hi = NAN;
	v->limit = VERDICT_UNKNOWN;
	if (is_memory_figure(t)) {
		v->limit = VERDICT_MEMORY;
		str_copy(v->text, sizeof(v->text), "a memory figure (cached reads), not the disk's");
		return 0;
	}
	if (verdict_path(r, &e)) {
		str_copy(v->text, sizeof(v->text), "no ceiling known for how the drive is attached");
		return 0;
	}
	if (e.floor_only) {
		if (is_large(t) && t->bw < e.lo * VERDICT_FAR_SHARE) {
			v->ceiling = e.link_ceiling;
			far_below(r, &e, v);
		} else {
			str_fmt(v->text, sizeof(v->text), "no ceiling known (%s)", e.link);
		}
		return 0;
	}
	v->ceiling = e.link_ceiling;
	if (is_large(t)) {
		judge_large(r, t, &e, v);
		return 0;
	}
	share = t->bw / e.link_ceiling;
	if (share >= VERDICT_LINK_SHARE) {
		v->limit = VERDICT_LINK;
		str_fmt(v->text, sizeof(v->text), "limited by the link (%s)", e.link);
	} else {
		v->limit = VERDICT_DEVICE;
		str_copy(v->text, sizeof(v->text), "limited by the device");
	}
	return 0;
}

int verdict_test(const struct run *r, const struct run_test *t, struct verdict *v)
{
	int ret = verdict_test_path(r, t, v);

	if (ret || is_large(t) || v->limit == VERDICT_MEMORY || v->limit == VERDICT_LINK ||
	    v->limit == VERDICT_UNKNOWN)
		return ret;
	v->limit = VERDICT_UNKNOWN;
	str_copy(v->text, sizeof(v->text), "not judged: small transfers are paced by the latency "
					   "of the whole path, for which no range is known");
	return 0;
}

int verdict_run(const struct run *r, struct verdict *out)
{
	static const enum verdict_limit order[] = { VERDICT_PROBLEM, VERDICT_LINK, VERDICT_PROTOCOL,
						    VERDICT_DEVICE, VERDICT_UNKNOWN };
	struct verdict v;
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(order); k++) {
		for (i = 0; i < r->ntests; i++) {
			if (verdict_test(r, &r->tests[i], &v) == 0 && v.limit == order[k]) {
				*out = v;
				return 0;
			}
		}
	}
	return -ENODATA;
}

/* The large test the run's line speaks of: the best large read, else the best large write. */
static const struct run_test *line_test(const struct run *r)
{
	const struct run_test *best = NULL;
	size_t i;
	int pass;

	for (pass = 0; pass < 2 && !best; pass++) {
		for (i = 0; i < r->ntests; i++) {
			const struct run_test *t = &r->tests[i];

			if (!isfinite(t->bw) || is_memory_figure(t) || !is_large(t) ||
			    strcmp(run_test_dir(t), pass ? "write" : "read"))
				continue;
			if (!best || t->bw > best->bw)
				best = t;
		}
	}
	return best;
}

int verdict_run_line(const struct run *r, char *buf, size_t cap)
{
	const struct run_test *t = line_test(r);
	const char *dir, *how;
	struct path_expect e;
	struct verdict v;

	if (!t) {
		/* the path's range all the same: a bench of small blocks only still ends with it */
		if (verdict_path(r, &e) || e.floor_only)
			return -ENODATA;
		str_fmt(buf, cap, "%s: large reads should reach %.0f–%.0f MB/s; this run measured no "
				  "large transfer",
			e.label, e.lo / 1e6, e.hi / 1e6);
		return 0;
	}
	if (verdict_test(r, t, &v))
		return -ENODATA;
	verdict_path(r, &e);
	dir = !strcmp(run_test_dir(t), "read") ? "reads" : "writes";
	if (!isfinite(v.expect_lo)) {
		str_fmt(buf, cap, "%s%slarge %s measured %.0f MB/s: %s", e.label,
			e.label[0] ? ": " : "", dir, t->bw / 1e6, v.text);
		return 0;
	}
	switch (v.limit) {
	case VERDICT_LINK:
	case VERDICT_PROTOCOL:
		how = "at what the path carries";
		break;
	case VERDICT_PROBLEM:
		how = strstr(v.text, "— ") ? strstr(v.text, "— ") - 1 : v.text;
		break;
	default:
		how = t->bw >= v.expect_lo ? "the drive's own pace" : "below: the drive sets the pace";
		break;
	}
	if (v.limit == VERDICT_PROBLEM)
		str_fmt(buf, cap, "%s: large %s should reach %.0f–%.0f MB/s; measured %.0f MB/s: "
				  "far below%s",
			e.label, dir, v.expect_lo / 1e6, v.expect_hi / 1e6, t->bw / 1e6, how);
	else
		str_fmt(buf, cap, "%s: large %s should reach %.0f–%.0f MB/s; measured %.0f MB/s: %s",
			e.label, dir, v.expect_lo / 1e6, v.expect_hi / 1e6, t->bw / 1e6, how);
	return 0;
}

/* The score's parts: test, direction, reference (the SD A1 floor), weight. */
static const struct {
	const char *names[3]; /* first found wins */
	const char *dir;
	bool iops;            /* IOPS, else MB/s */
	double ref;
	double weight;
} score_parts[] = {
	{ { "RND4K Q1T1" }, "read", true, 1500, 0.35 },
	{ { "RND4K Q1T1" }, "write", true, 500, 0.25 },
	{ { "RND4K Q32T1", "RND4K Q32T16" }, "read", true, 1500, 0.10 },
	{ { "RND4K Q32T1", "RND4K Q32T16" }, "write", true, 500, 0.10 },
	{ { "SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1" }, "read", false, 10, 0.10 },
	{ { "SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1" }, "write", false, 10, 0.10 },
};

double verdict_score(const struct run *r)
{
	double sum = 0, wsum = 0;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(score_parts); i++) {
		const struct run_test *t = NULL;
		double x;

		for (k = 0; k < 3 && score_parts[i].names[k] && !t; k++)
			t = run_test_find(r, score_parts[i].names[k], score_parts[i].dir);
		x = !t ? NAN : score_parts[i].iops ? run_test_iops(t) : t->bw / 1e6;
		if (!isfinite(x)) {
			if (i < 2)
				return NAN; /* the low-queue-depth random figures are the score */
			continue;
		}
		x = fmax(x / score_parts[i].ref, 1e-3);
		sum += score_parts[i].weight * log(x);
		wsum += score_parts[i].weight;
	}
	return 100 * exp(sum / wsum);
}

struct app_check {
	bool seen, pass;
	char failed[96];
};

int verdict_app_class(const struct run *r, char *buf, size_t cap)
{
	struct app_check cls[2] = { 0 };
	size_t i, n = r->checks ? json_object_array_length(r->checks) : 0;
	const char *declared = run_device_str(r, "mmc.app_class");

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(r->checks, i), *v;
		const char *name;
		int k;

		if (!json_object_object_get_ex(c, "name", &v) || !v)
			continue;
		name = json_object_get_string(v);
		if ((name[0] != 'A' && name[0] != 'a') || (name[1] != '1' && name[1] != '2'))
			continue;
		k = name[1] - '1';
		if (!cls[k].seen)
			cls[k].pass = true;
		cls[k].seen = true;
		if (json_object_object_get_ex(c, "pass", &v) && v && json_object_get_boolean(v))
			continue;
		if (cls[k].pass) {
			str_copy(cls[k].failed, sizeof(cls[k].failed), name + 2 + (name[2] == ' '));
			str_sanitize(cls[k].failed);
		}
		cls[k].pass = false;
	}
	if (!cls[0].seen && !cls[1].seen)
		return -ENODATA;
	buf[0] = '\0';
	for (i = 0; i < 2; i++) {
		size_t len = strlen(buf);

		if (!cls[i].seen)
			continue;
		snprintf(buf + len, cap - len, "%sA%zu %s%s%s%s", len ? ", " : "", i + 1,
			 cls[i].pass ? "met" : "not met", cls[i].pass ? "" : " (",
			 cls[i].pass ? "" : cls[i].failed, cls[i].pass ? "" : ")");
	}
	if (declared && (!strcmp(declared, "A1") || !strcmp(declared, "A2"))) {
		int k = declared[1] - '1';
		size_t len = strlen(buf);

		if (cls[k].seen && !cls[k].pass)
			snprintf(buf + len, cap - len, "; the card claims %s", declared);
	}
	return 0;
}
