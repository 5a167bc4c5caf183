/* fuzz-metrics.c - the Prometheus text of `sbcdisk metrics` with hostile strings everywhere a
 * device, the log or the store can put one (model, driver, port, profile, test names, finding
 * devices): every line must still be a comment or a sample the exposition format reads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/metrics.h"
#include "common/util.h"

#define METRICS_FUZZ_MAX 8192

static void check(bool ok)
{
	if (!ok)
		abort();
}

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
	       (!first && c >= '0' && c <= '9');
}

/* One sample line: name{label="value",...} number (the grammar of the text format). */
static void check_sample(const char *p, const char *end)
{
	check(p < end && name_char(*p, true));
	while (p < end && name_char(*p, false))
		p++;
	if (p < end && *p == '{') {
		p++;
		while (p < end && *p != '}') {
			check(name_char(*p, true));
			while (p < end && name_char(*p, false))
				p++;
			check(p + 1 < end && p[0] == '=' && p[1] == '"');
			for (p += 2; p < end && *p != '"'; p++) {
				check(*p != '\n');
				if (*p == '\\') {
					p++;
					check(p < end && (*p == '\\' || *p == '"' || *p == 'n'));
				}
			}
			check(p < end && *p == '"');
			p++;
			if (p < end && *p == ',')
				p++;
		}
		check(p < end && *p == '}');
		p++;
	}
	check(p < end && *p == ' ');
	p++;
	check(p < end);
	{
		char num[64], *e;
		size_t n = (size_t)(end - p);

		check(n < sizeof(num));
		memcpy(num, p, n);
		num[n] = '\0';
		strtod(num, &e);
		check(*e == '\0' || !strcmp(num, "NaN"));
	}
}

static void check_text(char *buf, size_t len)
{
	char *p = buf, *end = buf + len, *nl;

	check(len && buf[len - 1] == '\n');
	check(memchr(buf, '\0', len) == NULL);
	buf[len] = '\0';
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		check(nl != NULL);
		*nl = '\0';
		check(str_is_clean_utf8(p));
		if (!strncmp(p, "# HELP ", 7) || !strncmp(p, "# TYPE ", 7))
			continue;
		check_sample(p, nl);
	}
}

/* The next NUL-separated field of the input ("" past the end). */
static const char *field(const char **p, const char *end)
{
	const char *s = *p;
	const char *z = s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;

	if (!z)
		return "";
	*p = z + 1;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_usb usb = { .has_speed = true, .speed_mbps = 5000, .has_ids = true };
	struct blkdev d = { .transport = PROBE_TRAN_USB, .has_size = true, .size_bytes = 1 };
	struct diag_finding fv[2];
	struct diag_findings fs = { .v = fv, .n = 2 };
	struct metrics_dev md = { .dev = &d, .has_counts = true };
	struct metrics_doc m = { .devs = &md, .n = 1, .findings = &fs, .log_read = true,
				 .store_read = true, .now = 2000000000 };
	struct run *r;
	const char *p, *end;
	char *in, *out = NULL;
	size_t outlen = 0;
	FILE *f;

	if (size > METRICS_FUZZ_MAX)
		return 0;
	/* a copy with a NUL at the end, so every field ends */
	in = malloc(size + 1);
	r = run_new();
	if (!in || !r)
		abort();
	memcpy(in, data, size);
	in[size] = '\0';
	p = in;
	end = in + size + 1;
	str_copy(d.kname, sizeof(d.kname), field(&p, end));
	str_copy(d.model, sizeof(d.model), field(&p, end));
	str_copy(usb.driver, sizeof(usb.driver), field(&p, end));
	str_copy(usb.port, sizeof(usb.port), field(&p, end));
	d.usb = &usb;
	memset(fv, 0, sizeof(fv));
	fv[0].id = "uas-errors";
	fv[0].sev = DIAG_ERROR;
	str_copy(fv[0].device, sizeof(fv[0].device), field(&p, end));
	fv[1].id = "io-errors";
	fv[1].sev = DIAG_WARNING;
	str_copy(fv[1].device, sizeof(fv[1].device), field(&p, end));
	str_copy(r->profile, sizeof(r->profile), field(&p, end));
	str_copy(r->started_at, sizeof(r->started_at), field(&p, end));
	r->ntests = 2;
	str_copy(r->tests[0].name, sizeof(r->tests[0].name), field(&p, end));
	str_copy(r->tests[0].rw, sizeof(r->tests[0].rw), field(&p, end));
	str_copy(r->tests[1].name, sizeof(r->tests[1].name), field(&p, end));
	str_copy(r->tests[1].rw, sizeof(r->tests[1].rw), field(&p, end));
	r->tests[0].bw = r->tests[1].bw = 1e6;
	r->tests[0].iops = r->tests[1].iops = 0.5;
	r->tests[0].lat_p99_us = r->tests[1].lat_p99_us = 123.25;
	md.last_run = r;

	f = open_memstream(&out, &outlen);
	if (!f)
		abort();
	check(metrics_write(f, &m) == 0);
	check(fclose(f) == 0);
	out = realloc(out, outlen + 1);
	if (!out)
		abort();
	check_text(out, outlen);
	free(out);
	run_free(r);
	free(in);
	return 0;
}
