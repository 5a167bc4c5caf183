/* verdict.c - ties a figure to the practical ceiling of the link it went through, and scores
 * a drive for use as a boot drive. Ceilings and their sources: docs/verdicts.md. */
#include <math.h>
#include <strings.h>

#include "common/util.h"
#include "store/verdict.h"

/* USB: bulk transfer after protocol overhead, as measured with UAS/BOT bridges. */
static const struct {
	double mbps;
	double bytes_per_s;
	const char *name;
} usb_ceilings[] = {
	{ 1.5, 0.15e6, "USB 1.0 low speed, 1.5M" },
	{ 12, 1.0e6, "USB 1.1, 12M" },
	{ 480, 40e6, "USB 2.0, 480M" },
	{ 5000, 450e6, "USB 3 Gen 1, 5000M" },
	{ 10000, 1000e6, "USB 3 Gen 2, 10000M" },
	{ 20000, 2000e6, "USB 3 Gen 2x2, 20000M" },
};

/* PCIe: raw rate per lane after line encoding (8b/10b to Gen 2, 128b/130b from Gen 3). */
static const struct {
	double gts;
	int gen;
	double lane_bytes_per_s;
} pcie_lanes[] = {
	{ 2.5, 1, 250e6 },
	{ 5.0, 2, 500e6 },
	{ 8.0, 3, 984.6e6 },
	{ 16.0, 4, 1969.2e6 },
	{ 32.0, 5, 3938.5e6 },
};
/* Transaction-layer overhead (TLP headers, DLLPs, flow control) at 128-256 B payloads. */
#define PCIE_EFFICIENCY 0.85

/* SD and eMMC bus modes, matched in this order against the debugfs timing text. */
static const struct {
	const char *match;
	double bytes_per_s;
	const char *name;
} mmc_ceilings[] = {
	{ "HS400", 400e6, "eMMC HS400" },
	{ "HS200", 200e6, "eMMC HS200" },
	{ "DDR52", 90e6, "eMMC DDR52" },
	{ "mmc high-speed", 45e6, "eMMC high speed" },
	{ "SDR104", 90e6, "SD SDR104" },
	{ "DDR50", 45e6, "SD DDR50" },
	{ "SDR50", 45e6, "SD SDR50" },
	{ "SDR25", 23e6, "SD SDR25" },
	{ "sd high-speed", 23e6, "SD high speed" },
	{ "SDR12", 11e6, "SD SDR12" },
	{ "legacy", 11e6, "SD default speed" },
};

int verdict_usb_ceiling(double speed_mbps, struct link_ceiling *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usb_ceilings); i++) {
		if (fabs(speed_mbps - usb_ceilings[i].mbps) < 0.01) {
			c->bytes_per_s = usb_ceilings[i].bytes_per_s;
			str_copy(c->name, sizeof(c->name), usb_ceilings[i].name);
			c->floor_only = false;
			return 0;
		}
	}
	return -ENODATA;
}

int verdict_pcie_ceiling(double gts, double width, struct link_ceiling *c)
{
	size_t i;

	if (!isfinite(width) || width < 1 || width > 32 || width != floor(width))
		return -ENODATA;
	for (i = 0; i < ARRAY_SIZE(pcie_lanes); i++) {
		if (fabs(gts - pcie_lanes[i].gts) < 0.01) {
			c->bytes_per_s = pcie_lanes[i].lane_bytes_per_s * width * PCIE_EFFICIENCY;
			str_fmt(c->name, sizeof(c->name), "PCIe Gen %d x%d", pcie_lanes[i].gen,
				(int)width);
			c->floor_only = false;
			return 0;
		}
	}
	return -ENODATA;
}

int verdict_mmc_ceiling(const char *timing, struct link_ceiling *c)
{
	size_t i;

	if (!timing)
		return -ENODATA;
	for (i = 0; i < ARRAY_SIZE(mmc_ceilings); i++) {
		if (strcasestr(timing, mmc_ceilings[i].match)) {
			c->bytes_per_s = mmc_ceilings[i].bytes_per_s;
			str_copy(c->name, sizeof(c->name), mmc_ceilings[i].name);
			c->floor_only = false;
			return 0;
		}
	}
	return -ENODATA;
}

static bool is_nvme(const struct run *r)
{
	const char *tr = run_device_str(r, "transport");
	struct json_object *pcie = NULL;

	return (tr && !strcmp(tr, "nvme")) || run_device_str(r, "nvme.model") ||
	       (json_object_object_get_ex(r->device, "pcie", &pcie) && pcie);
}

int verdict_ceiling(const struct run *r, struct link_ceiling *c)
{
	double speed = run_device_num(r, "usb.speed_mbps");

	if (!r->device)
		return -ENODATA;
	if (isfinite(speed))
		return verdict_usb_ceiling(speed, c);
	if (run_device_str(r, "usb.vid"))
		return -ENODATA; /* on USB, speed not recorded */
	if (!verdict_pcie_ceiling(run_device_num(r, "pcie.link_speed_gts"),
				  run_device_num(r, "pcie.link_width"), c))
		return 0;
	if (is_nvme(r)) {
		/* Every PCIe link is at least Gen 1 x1: a floor, good to spot the absurd. */
		verdict_pcie_ceiling(2.5, 1, c);
		str_copy(c->name, sizeof(c->name), "PCIe link not recorded");
		c->floor_only = true;
		return 0;
	}
	return verdict_mmc_ceiling(run_device_str(r, "mmc.timing"), c);
}

const char *verdict_limit_name(enum verdict_limit l)
{
	switch (l) {
	case VERDICT_LINK:
		return "link";
	case VERDICT_DEVICE:
		return "device";
	case VERDICT_PROBLEM:
		return "problem";
	default:
		return NULL;
	}
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

/* A drive that is fast unless something is wrong: NVMe, or an SSD that is not spinning. */
static bool expected_fast(const struct run *r)
{
	const char *model = run_device_str(r, "model");
	struct json_object *rot = NULL;

	if (is_nvme(r))
		return true;
	if (json_object_object_get_ex(r->device, "rotational", &rot) && rot &&
	    json_object_get_boolean(rot))
		return false;
	return model && (strcasestr(model, "SSD") || strcasestr(model, "NVMe"));
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

static void far_below(const struct run *r, struct verdict *v)
{
	const char *id = problem_finding(r);

	v->limit = VERDICT_PROBLEM;
	if (id)
		str_fmt(v->text, sizeof(v->text), "far below what the link allows — see doctor: %s",
			id);
	else
		str_copy(v->text, sizeof(v->text),
			 "far below what the link allows — run sbcdisk doctor");
}

static bool is_memory_figure(const struct run_test *t)
{
	return run_test_is_memory(t);
}

int verdict_test(const struct run *r, const struct run_test *t, struct verdict *v)
{
	struct link_ceiling c;
	double share;

	if (!isfinite(t->bw) || is_memory_figure(t))
		return -ENODATA;
	v->ceiling = NAN;
	v->limit = VERDICT_UNKNOWN;
	if (verdict_ceiling(r, &c)) {
		str_copy(v->text, sizeof(v->text), "no ceiling known for how the drive is attached");
		return 0;
	}
	share = t->bw / c.bytes_per_s;
	if (c.floor_only) {
		if (is_large(t) && share < VERDICT_FAR_SHARE) {
			v->ceiling = c.bytes_per_s;
			far_below(r, v);
		} else {
			str_fmt(v->text, sizeof(v->text), "no ceiling known (%s)", c.name);
		}
		return 0;
	}
	v->ceiling = c.bytes_per_s;
	if (share >= VERDICT_LINK_SHARE) {
		v->limit = VERDICT_LINK;
		str_fmt(v->text, sizeof(v->text), "limited by the link (%s)", c.name);
	} else if (is_large(t) && share < VERDICT_FAR_SHARE &&
		   (problem_finding(r) || expected_fast(r))) {
		far_below(r, v);
	} else {
		v->limit = VERDICT_DEVICE;
		str_copy(v->text, sizeof(v->text), "limited by the device");
	}
	return 0;
}

int verdict_run(const struct run *r, struct verdict *out)
{
	static const enum verdict_limit order[] = { VERDICT_PROBLEM, VERDICT_LINK, VERDICT_DEVICE,
						    VERDICT_UNKNOWN };
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
