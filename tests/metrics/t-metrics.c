/* t-metrics.c - the Prometheus text renderer: label values escaped as the format requires
 * (hostile bytes, quotes, backslashes, line feeds), one sample per label set. */
#include <math.h>
#include <stdlib.h>

#include "t.h"
#include "report/metrics.h"
#include "common/util.h"

/* What metrics_label_put() makes of s. */
static const char *escaped(const char *s)
{
	static char buf[4 * METRICS_LABEL_MAX];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	if (!f)
		abort();
	metrics_label_put(f, s);
	fclose(f);
	return buf;
}

/* The whole exposition of m, in a static buffer. */
static const char *render(const struct metrics_doc *m)
{
	static char buf[1 << 16];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		abort();
	T_EQ_INT(metrics_write(f, m), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_escape(void)
{
	T_EQ_STR(escaped("Samsung SSD 860"), "Samsung SSD 860");
	T_EQ_STR(escaped("a\"b"), "a\\\"b");
	T_EQ_STR(escaped("a\\b"), "a\\\\b");
	T_EQ_STR(escaped("a\nb"), "a\\nb");
	/* all three at once, and the escapes of the escapes */
	T_EQ_STR(escaped("\"\\\n\\n\\\""), "\\\"\\\\\\n\\\\n\\\\\\\"");
	/* control bytes, a terminal escape, invalid UTF-8: never raw in the file */
	T_EQ_STR(escaped("x\x1b[2Jy\tz\r\x7f"), "x?[2Jy?z??");
	T_EQ_STR(escaped("\xff\xfe ok \xc3\xa9"), "?? ok \xc3\xa9");
	T_EQ_STR(escaped(NULL), "");
	/* capped: a long value cannot grow the file without end */
	{
		char big[4 * METRICS_LABEL_MAX];

		memset(big, '"', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		T_EQ_INT(strlen(escaped(big)), 2 * METRICS_LABEL_MAX);
	}
}

static void test_document(void)
{
	struct probe_usb usb = { .has_speed = true, .speed_mbps = 480, .has_ids = true,
				 .vid_num = 0x152d, .pid_num = 0x0578 };
	struct blkdev d = { .kname = "sda", .type = "disk", .transport = PROBE_TRAN_USB };
	struct diag_finding fv[4];
	struct diag_findings fs = { .v = fv, .n = 4 };
	struct run *r = run_new();
	struct metrics_dev md;
	struct metrics_doc m = { .devs = &md, .n = 1, .findings = &fs, .log_read = true,
				 .store_read = true, .now = 1767225600 + 90 };
	const char *out;

	if (!r)
		abort();
	str_copy(usb.driver, sizeof(usb.driver), "uas\"\n");
	str_copy(d.model, sizeof(d.model), "Evil\"Mo\\del");
	d.usb = &usb;
	memset(fv, 0, sizeof(fv));
	/* the same id on the same device twice: one sample, the worst severity, counted */
	fv[0] = (struct diag_finding){ .id = "uas-errors", .sev = DIAG_WARNING, .device = "sda" };
	fv[1] = (struct diag_finding){ .id = "uas-errors", .sev = DIAG_ERROR, .device = "sda" };
	fv[2] = (struct diag_finding){ .id = "undervoltage", .sev = DIAG_WARNING };
	/* an earlier boot of a pasted log: history, not now */
	fv[3] = (struct diag_finding){ .id = "io-errors", .sev = DIAG_ERROR, .device = "sda",
				       .earlier_boot = true };
	md = (struct metrics_dev){ .dev = &d, .has_counts = true, .last_run = r,
				   .counts = { .uas_aborts = 4, .uas_resets = 2 } };
	str_copy(r->started_at, sizeof(r->started_at), "2026-01-01T00:00:00Z");
	str_copy(r->profile, sizeof(r->profile), "quick");
	r->id = 7;
	r->ntests = 3;
	str_copy(r->tests[0].name, sizeof(r->tests[0].name), "SEQ1M Q8T1");
	str_copy(r->tests[0].rw, sizeof(r->tests[0].rw), "read");
	r->tests[0].bw = 41e6;
	r->tests[0].iops = 39.1;
	r->tests[0].lat_p99_us = 250000;
	/* the same test again (a custom --test given twice): one sample only */
	r->tests[1] = r->tests[0];
	r->tests[1].bw = 1;
	str_copy(r->tests[2].name, sizeof(r->tests[2].name), "RND4K Q1T1");
	str_copy(r->tests[2].rw, sizeof(r->tests[2].rw), "randread");
	r->tests[2].bw = NAN; /* unknown: no sample */
	r->tests[2].iops = 2500;
	r->tests[2].lat_p99_us = NAN;

	out = render(&m);
	T_CHECK(strstr(out, "sbcdisk_device_info{device=\"sda\",transport=\"usb\","
			    "model=\"Evil\\\"Mo\\\\del\",attachment=\"") != NULL);
	T_CHECK(strstr(out, "sbcdisk_usb_speed_mbps{device=\"sda\",driver=\"uas\\\"\\n\","
			    "usb_id=\"152d:0578\",port=\"\"} 480\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_uas_resets{device=\"sda\"} 2\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_finding{device=\"sda\",id=\"uas-errors\","
			    "severity=\"error\"} 2\n") != NULL);
	T_EQ_INT(count(out, "id=\"uas-errors\""), 1);
	T_CHECK(strstr(out, "sbcdisk_finding{device=\"\",id=\"undervoltage\","
			    "severity=\"warning\"} 1\n") != NULL);
	T_EQ_INT(count(out, "io-errors"), 0);
	T_CHECK(strstr(out, "sbcdisk_findings{severity=\"error\"} 1\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_findings{severity=\"info\"} 0\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_bench_bandwidth_bytes_per_second{device=\"sda\","
			    "profile=\"quick\",test=\"SEQ1M Q8T1\",rw=\"read\"} 41000000\n") != NULL);
	T_EQ_INT(count(out, "test=\"SEQ1M Q8T1\""), 3); /* bw, iops, p99: once each */
	T_CHECK(strstr(out, "sbcdisk_bench_iops{device=\"sda\",profile=\"quick\","
			    "test=\"RND4K Q1T1\",rw=\"randread\"} 2500\n") != NULL);
	T_EQ_INT(count(out, "test=\"RND4K Q1T1\""), 1);
	T_CHECK(strstr(out, "sbcdisk_bench_latency_p99_seconds{device=\"sda\",profile=\"quick\","
			    "test=\"SEQ1M Q8T1\",rw=\"read\"} 0.25\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_bench_run_timestamp_seconds{device=\"sda\",profile=\"quick\","
			    "run=\"7\"} 1767225600\n") != NULL);
	T_CHECK(strstr(out, "sbcdisk_bench_age_seconds{device=\"sda\"} 90\n") != NULL);
	/* no PCIe link, no health read: those families are absent, not zero */
	T_EQ_INT(count(out, "pcie"), 0);
	T_EQ_INT(count(out, "sbcdisk_health"), 0);
	/* every family's HELP and TYPE once */
	T_EQ_INT(count(out, "# TYPE sbcdisk_finding gauge\n"), 1);
	T_EQ_INT(count(out, "# TYPE sbcdisk_bench_iops gauge\n"), 1);

	/* without a log: no counts, and the file says the log was not read */
	md.has_counts = false;
	m.log_read = false;
	out = render(&m);
	T_CHECK(strstr(out, "sbcdisk_kernel_log_read 0\n") != NULL);
	T_EQ_INT(count(out, "sbcdisk_uas_resets"), 0);
	run_free(r);
}

int main(void)
{
	test_escape();
	test_document();
	return t_done();
}
