/* fuzz-kmsg.c - the kernel log reader, event parser, log summary and rules on any bytes:
 * no crash, no leak; feeding in two pieces gives the same messages as feeding at once;
 * every finding has a fixed id, evidence inside the log, and renders to valid JSON. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag/diag.h"
#include "diag/kmsg.h"
#include "report/doctor.h"
#include "common/json.h"
#include "common/util.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

struct digest {
	uint64_t h;
	unsigned long n;
};

static int digest_line(void *arg, const struct kmsg_line *l)
{
	struct digest *d = arg;
	size_t i;

	check(strlen(l->msg) == l->msg_len && l->msg_len <= KMSG_LINE_MAX);
	check(l->msg >= l->text && l->msg <= l->text + strlen(l->text));
	check(l->last_lineno >= l->lineno && l->last_lineno - l->lineno <= l->wrapped);
	for (i = 0; i < l->msg_len; i++)
		d->h = (d->h ^ (unsigned char)l->msg[i]) * 1099511628211ULL;
	d->h = (d->h ^ l->lineno) * 1099511628211ULL;
	d->h = (d->h ^ l->last_lineno) * 1099511628211ULL;
	d->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct digest whole = { 14695981039346656037ULL, 0 }, split = whole;
	struct diag_findings fs = { 0 };
	struct kmsg_reader *r = malloc(sizeof(*r));
	struct diag_log *log = NULL;
	struct json_object *doc, *back;
	const char *err;
	size_t i, cut = size ? data[0] % (size + 1) : 0;
	FILE *null;
	int j;

	check(r != NULL);
	check(!kmsg_read_buf((const char *)data, size, digest_line, &whole));
	kmsg_reader_init(r, digest_line, &split);
	check(!kmsg_reader_feed(r, (const char *)data, cut));
	check(!kmsg_reader_feed(r, (const char *)data + cut, size - cut));
	check(!kmsg_reader_finish(r));
	free(r);
	check(whole.n == split.n && whole.h == split.h);

	check(!diag_log_new(&log));
	check(!diag_log_parse_buf(log, (const char *)data, size));
	check(!diag_run(log, NULL, &fs));
	for (i = 0; i < fs.n; i++) {
		const struct diag_finding *f = &fs.v[i];

		check(diag_rule_known(f->id));
		check(f->sev >= DIAG_INFO && f->sev <= DIAG_ERROR);
		/* the last boot's first, then worst first */
		check(i == 0 || fs.v[i - 1].earlier_boot < f->earlier_boot ||
		      (fs.v[i - 1].earlier_boot == f->earlier_boot && fs.v[i - 1].sev >= f->sev));
		check(f->n_evidence >= 0 && f->n_evidence <= DIAG_EVID_MAX);
		for (j = 0; j < f->n_evidence; j++) {
			const struct diag_evidence *e = &f->evidence[j];

			check(e->line <= diag_log_lines(log));
			/* a wrapped message's range ends after its first line, inside the log */
			check(!e->last_line || (e->line && e->last_line > e->line &&
						e->last_line <= diag_log_lines(log)));
		}
	}
	null = fopen("/dev/null", "w");
	if (null) {
		doctor_text_findings(null, &fs, true);
		fclose(null);
	}
	doc = doctor_json(&fs);
	back = json_parse_buf(json_object_to_json_string(doc),
			      strlen(json_object_to_json_string(doc)), &err);
	check(back != NULL);
	json_object_put(back);
	json_object_put(doc);
	diag_findings_release(&fs);
	diag_log_free(log);
	return 0;
}
