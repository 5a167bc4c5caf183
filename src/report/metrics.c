/* metrics.c - the Prometheus text exposition format (version 0.0.4, which node_exporter's
 * textfile collector and promtool read): one descriptor table of per-device families. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics.h"
#include "probe/health.h"
#include "common/util.h"

void metrics_label_put(FILE *f, const char *s)
{
	char buf[METRICS_LABEL_MAX + 1];
	const char *p;

	str_copy(buf, sizeof(buf), s ? s : "");
	str_sanitize_text(buf, strlen(buf));
	for (p = buf; *p; p++) {
		switch (*p) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '"':
			fputs("\\\"", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
		case '\r':
			fputc('?', f); /* kept by the sanitiser as text, no use in a label */
			break;
		default:
			fputc(*p, f);
		}
	}
}

static void label(FILE *f, bool *first, const char *name, const char *value)
{
	fprintf(f, "%s%s=\"", *first ? "" : ",", name);
	metrics_label_put(f, value);
	fputc('"', f);
	*first = false;
}

/* The fewest digits (15 to 17) that read back as exactly v: 353.8, not 353.80000000000001. */
static const char *shortest(double v, char *buf, size_t cap)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, cap, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, cap, "%.17g", v);
	return buf;
}

/* A sample value: integers as integers, anything else in the shortest exact form. */
static void value(FILE *f, double v)
{
	char buf[40];

	if (isnan(v))
		fputs(" NaN\n", f);
	else if (fabs(v) < 1e15 && v == (double)(long long)v)
		fprintf(f, " %lld\n", (long long)v);
	else
		fprintf(f, " %s\n", shortest(v, buf, sizeof(buf)));
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* What a per-device family reads: false when the value is unknown for this device. */
typedef bool (*dev_get_fn)(const struct metrics_dev *d, double *v);
/* Labels after device="...", each written with label(). */
typedef void (*dev_labels_fn)(FILE *f, bool *first, const struct metrics_dev *d);

struct dev_family {
	const char *name, *type, *help;
	dev_get_fn get;
	dev_labels_fn labels;
};

static const struct probe_usb *usb_of(const struct metrics_dev *d)
{
	return probe_blkdev_usb(d->dev);
}

static const struct probe_pcie *pcie_of(const struct metrics_dev *d)
{
	return probe_blkdev_pcie(d->dev);
}

static const struct probe_health *health_of(const struct metrics_dev *d)
{
	const struct probe_health *h = d->dev->health;

	return h && h->state == PROBE_HEALTH_OK ? h : NULL;
}

static bool get_info(const struct metrics_dev *d, double *v)
{
	(void)d;
	*v = 1;
	return true;
}

static void labels_info(FILE *f, bool *first, const struct metrics_dev *d)
{
	const char *tran = probe_transport_name(d->dev->transport);
	char att[256];

	if (probe_blkdev_attachment(d->dev, att, sizeof(att)))
		att[0] = '\0'; /* unknown, as list shows "-" */
	label(f, first, "transport", tran ? tran : "");
	label(f, first, "model", d->dev->model);
	label(f, first, "attachment", att);
}

static bool get_size(const struct metrics_dev *d, double *v)
{
	*v = (double)d->dev->size_bytes;
	return d->dev->has_size;
}

static bool get_usb_speed(const struct metrics_dev *d, double *v)
{
	const struct probe_usb *u = usb_of(d);

	*v = u ? u->speed_mbps : 0;
	return u && u->has_speed;
}

static void labels_usb(FILE *f, bool *first, const struct metrics_dev *d)
{
	const struct probe_usb *u = usb_of(d);
	char id[16] = "";

	if (u->has_ids)
		str_fmt(id, sizeof(id), "%04x:%04x", u->vid_num, u->pid_num);
	label(f, first, "driver", u->driver);
	label(f, first, "usb_id", id);
	label(f, first, "port", u->port);
}

static bool get_pcie_gts(const struct metrics_dev *d, double *v)
{
	const struct probe_pcie *p = pcie_of(d);

	*v = p ? p->link_speed_gts : 0;
	return p && p->has_link_speed;
}

static bool get_pcie_width(const struct metrics_dev *d, double *v)
{
	const struct probe_pcie *p = pcie_of(d);

	*v = p ? p->link_width : 0;
	return p && p->has_link_width;
}

static bool get_uas_aborts(const struct metrics_dev *d, double *v)
{
	*v = (double)d->counts.uas_aborts;
	return d->has_counts;
}

static bool get_uas_resets(const struct metrics_dev *d, double *v)
{
	*v = (double)d->counts.uas_resets;
	return d->has_counts;
}

static bool get_io_errors(const struct metrics_dev *d, double *v)
{
	*v = (double)d->counts.io_errors;
	return d->has_counts;
}

static bool get_health_state(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = d->dev->health;

	*v = 1;
	return h && h->state != PROBE_HEALTH_NOT_READ;
}

static void labels_health_state(FILE *f, bool *first, const struct metrics_dev *d)
{
	static const char *const names[] = {
		[PROBE_HEALTH_OK] = "ok",
		[PROBE_HEALTH_NO_SMART] = "no_smart",
		[PROBE_HEALTH_NO_TOOL] = "no_smartctl",
		[PROBE_HEALTH_ERROR] = "error",
	};
	const struct probe_health *h = d->dev->health;

	label(f, first, "state", h->state < ARRAY_SIZE(names) && names[h->state] ?
					 names[h->state] : "error");
	label(f, first, "device_type", h->device_type);
}

static bool get_passed(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h && h->passed;
	return h && h->has_passed;
}

static bool get_temp(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? h->temperature_c : 0;
	return h && h->has_temperature;
}

static bool get_used(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? h->percentage_used / 100.0 : 0;
	return h && h->has_percentage_used;
}

static bool get_poh(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? (double)h->power_on_hours * 3600.0 : 0;
	return h && h->has_power_on_hours;
}

static bool get_crit(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? h->critical_warning : 0;
	return h && h->has_critical_warning;
}

static bool get_media(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? (double)h->media_errors : 0;
	return h && h->has_media_errors;
}

static bool get_realloc(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? (double)h->reallocated_sectors : 0;
	return h && h->has_reallocated;
}

static bool get_pending(const struct metrics_dev *d, double *v)
{
	const struct probe_health *h = health_of(d);

	*v = h ? (double)h->pending_sectors : 0;
	return h && h->has_pending;
}

/* The stored run's time, or -1 when it does not read as "YYYY-MM-DDTHH:MM:SSZ". */
static double run_time(const struct run *r)
{
	struct tm tm;
	char z = 0;

	memset(&tm, 0, sizeof(tm));
	if (!r || sscanf(r->started_at, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
			 &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 || z != 'Z')
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

static bool get_run_time(const struct metrics_dev *d, double *v)
{
	*v = run_time(d->last_run);
	return *v >= 0;
}

static void labels_run(FILE *f, bool *first, const struct metrics_dev *d)
{
	char id[24];

	str_fmt(id, sizeof(id), "%lld", (long long)d->last_run->id);
	label(f, first, "profile", d->last_run->profile);
	label(f, first, "run", id);
}

static const struct dev_family dev_families[] = {
	{ "sbcdisk_device_info", "gauge",
	  "A whole disk as sbcdisk list shows it; the attachment line is a label.", get_info,
	  labels_info },
	{ "sbcdisk_device_size_bytes", "gauge", "Size of the disk.", get_size, NULL },
	{ "sbcdisk_usb_speed_mbps", "gauge",
	  "USB link speed of the drive in Mbit/s (480, 5000, ...); the interface driver (uas or "
	  "usb-storage) is a label.", get_usb_speed, labels_usb },
	{ "sbcdisk_pcie_link_gts", "gauge", "Trained PCIe link speed of the drive in GT/s per lane.",
	  get_pcie_gts, NULL },
	{ "sbcdisk_pcie_link_width", "gauge", "Trained PCIe link width of the drive (lanes).",
	  get_pcie_width, NULL },
	{ "sbcdisk_uas_aborts", "gauge",
	  "UAS commands aborted since boot, as counted in the kernel log (a gauge: the log's ring "
	  "buffer forgets old lines).", get_uas_aborts, NULL },
	{ "sbcdisk_uas_resets", "gauge",
	  "UAS device resets since boot, as counted in the kernel log.", get_uas_resets, NULL },
	{ "sbcdisk_io_errors", "gauge",
	  "Block I/O and file system error lines since boot, as counted in the kernel log.",
	  get_io_errors, NULL },
	{ "sbcdisk_health_state", "gauge",
	  "Whether drive health could be read through smartctl (the state is a label).",
	  get_health_state, labels_health_state },
	{ "sbcdisk_health_passed", "gauge", "1 when the SMART overall self-assessment passed.",
	  get_passed, NULL },
	{ "sbcdisk_health_temperature_celsius", "gauge", "Drive temperature.", get_temp, NULL },
	{ "sbcdisk_health_life_used_ratio", "gauge",
	  "Share of the rated life used (NVMe percentage_used / 100).", get_used, NULL },
	{ "sbcdisk_health_power_on_seconds", "gauge", "Power-on time from SMART (whole hours).",
	  get_poh, NULL },
	{ "sbcdisk_health_critical_warning", "gauge", "NVMe critical warning bits (0: none).",
	  get_crit, NULL },
	{ "sbcdisk_health_media_errors", "gauge", "NVMe media and data integrity errors.",
	  get_media, NULL },
	{ "sbcdisk_health_reallocated_sectors", "gauge", "Reallocated sectors (ATA).", get_realloc,
	  NULL },
	{ "sbcdisk_health_pending_sectors", "gauge", "Sectors pending reallocation (ATA).",
	  get_pending, NULL },
	{ "sbcdisk_bench_run_timestamp_seconds", "gauge",
	  "Start of the newest stored bench run of this drive (Unix time).", get_run_time,
	  labels_run },
};

static void dev_family_write(FILE *f, const struct metrics_doc *m, const struct dev_family *fam)
{
	bool header = false;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct metrics_dev *d = &m->devs[i];
		bool first = true;
		double v;

		if (!fam->get(d, &v))
			continue;
		if (!header)
			family(f, fam->name, fam->type, fam->help);
		header = true;
		fprintf(f, "%s{", fam->name);
		label(f, &first, "device", d->dev->kname);
		if (fam->labels)
			fam->labels(f, &first, d);
		fputc('}', f);
		value(f, v);
	}
}

/* Findings grouped by (id, device): the worst severity and how many there are. Findings of an
 * earlier boot in a pasted log are history, not now. */
static void findings_write(FILE *f, const struct diag_findings *fs)
{
	unsigned long total[DIAG_ERROR + 1] = { 0 };
	size_t i, k;
	int s;

	family(f, "sbcdisk_findings", "gauge",
	       "Findings of sbcdisk doctor now, by severity (all three always present).");
	for (i = 0; fs && i < fs->n; i++)
		if (!fs->v[i].earlier_boot && fs->v[i].sev >= DIAG_INFO && fs->v[i].sev <= DIAG_ERROR)
			total[fs->v[i].sev]++;
	for (s = DIAG_ERROR; s >= DIAG_INFO; s--)
		fprintf(f, "sbcdisk_findings{severity=\"%s\"} %lu\n", diag_sev_name(s), total[s]);
	if (!fs || !fs->n)
		return;
	for (i = 0; i < fs->n; i++)
		if (!fs->v[i].earlier_boot)
			break;
	if (i == fs->n)
		return;
	family(f, "sbcdisk_finding", "gauge",
	       "A finding of sbcdisk doctor (id as in its table) on a device: how many, with the "
	       "worst severity.");
	for (i = 0; i < fs->n; i++) {
		const struct diag_finding *a = &fs->v[i];
		enum diag_sev worst = a->sev;
		unsigned long n = 0;
		bool first = true, seen = false;

		if (a->earlier_boot)
			continue;
		for (k = 0; k < fs->n; k++) {
			const struct diag_finding *b = &fs->v[k];

			if (b->earlier_boot || strcmp(a->id, b->id) || strcmp(a->device, b->device))
				continue;
			if (k < i) {
				seen = true; /* written with the first of the group */
				break;
			}
			n++;
			if (b->sev > worst)
				worst = b->sev;
		}
		if (seen)
			continue;
		fputs("sbcdisk_finding{", f);
		label(f, &first, "device", a->device);
		label(f, &first, "id", a->id);
		label(f, &first, "severity", diag_sev_name(worst));
		fprintf(f, "} %lu\n", n);
	}
}

/* A test of a run that an earlier test of the same run has the name and direction of: a
 * second sample with the same labels would make the whole file unreadable. */
static bool test_repeated(const struct run *r, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(r->tests[k].name, r->tests[i].name) &&
		    !strcmp(r->tests[k].rw, r->tests[i].rw))
			return true;
	return false;
}

struct bench_family {
	const char *name, *help;
	double (*get)(const struct run_test *t);
};

static double bench_bw(const struct run_test *t)
{
	return t->bw;
}

static double bench_iops(const struct run_test *t)
{
	return t->iops;
}

static double bench_p99(const struct run_test *t)
{
	return t->lat_p99_us / 1e6;
}

static const struct bench_family bench_families[] = {
	{ "sbcdisk_bench_bandwidth_bytes_per_second",
	  "Bandwidth of each test of the newest stored bench run of this drive.", bench_bw },
	{ "sbcdisk_bench_iops", "I/O operations per second of each test of that run.",
	  bench_iops },
	{ "sbcdisk_bench_latency_p99_seconds", "99th percentile latency of each test of that run.",
	  bench_p99 },
};

static void bench_write(FILE *f, const struct metrics_doc *m)
{
	bool header;
	size_t b, i, t;

	for (b = 0; b < ARRAY_SIZE(bench_families); b++) {
		const struct bench_family *fam = &bench_families[b];

		header = false;

		for (i = 0; i < m->n; i++) {
			const struct run *r = m->devs[i].last_run;

			for (t = 0; r && t < r->ntests; t++) {
				double v = fam->get(&r->tests[t]);
				bool first = true;

				if (!isfinite(v) || test_repeated(r, t))
					continue;
				if (!header)
					family(f, fam->name, "gauge", fam->help);
				header = true;
				fprintf(f, "%s{", fam->name);
				label(f, &first, "device", m->devs[i].dev->kname);
				label(f, &first, "profile", r->profile);
				label(f, &first, "test", r->tests[t].name);
				label(f, &first, "rw", r->tests[t].rw);
				fputc('}', f);
				value(f, v);
			}
		}
	}
	for (i = 0, header = false; i < m->n; i++) {
		double at = run_time(m->devs[i].last_run);
		bool first = true;

		if (at < 0)
			continue;
		if (!header)
			family(f, "sbcdisk_bench_age_seconds", "gauge",
			       "Age of the newest stored bench run of this drive when this file was "
			       "written.");
		header = true;
		fputs("sbcdisk_bench_age_seconds{", f);
		label(f, &first, "device", m->devs[i].dev->kname);
		fputc('}', f);
		value(f, (double)m->now - at);
	}
}

int metrics_write(FILE *f, const struct metrics_doc *m)
{
	size_t i;

	family(f, "sbcdisk_kernel_log_read", "gauge",
	       "1 when the kernel log was read (else the counts from it are absent).");
	fprintf(f, "sbcdisk_kernel_log_read %d\n", m->log_read);
	family(f, "sbcdisk_store_read", "gauge",
	       "1 when the result store was read (else the bench figures are absent).");
	fprintf(f, "sbcdisk_store_read %d\n", m->store_read);
	for (i = 0; i < ARRAY_SIZE(dev_families); i++)
		dev_family_write(f, m, &dev_families[i]);
	findings_write(f, m->findings);
	bench_write(f, m);
	return ferror(f) ? -EIO : 0;
}
