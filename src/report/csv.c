/* csv.c - stored runs as CSV, one row per test, for spreadsheets and scripts.
 * Numbers are printed by us; every string that came from a device goes through csv_field(). */
#include <math.h>

#include "common/util.h"
#include "report/csv.h"
#include "store/verdict.h"

void csv_field(FILE *f, const char *s)
{
	bool quote = false;
	const char *p;

	if (!s)
		return;
	if (strchr("=+-@\t\r", s[0]) && s[0]) {
		/* defuse formulas (OWASP "CSV injection"); the text itself stays readable */
		quote = true;
	}
	for (p = s; *p && !quote; p++)
		quote = *p == ',' || *p == '"' || *p == '\n' || *p == '\r';
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (strchr("=+-@\t\r", s[0]))
		fputc('\'', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

static void csv_text(FILE *f, const char *s)
{
	fputc(',', f);
	csv_field(f, s);
}

static const char header[] =
	"id,started_at,profile,engine,board,kernel,boot_device,device,model,serial,transport,"
	"attachment,test,rw,block_bytes,queue_depth,threads,runs,bw_bytes_per_s,mb_per_s,iops,"
	"lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,limit,verdict,score\n";

int csv_write_runs(FILE *f, const struct run_list *l)
{
	size_t i, k;

	fputs(header, f);
	for (i = 0; i < l->n; i++) {
		const struct run *r = l->runs[i];
		double score = verdict_score(r);
		char attach[256];

		run_attach_summary(r, attach, sizeof(attach));
		for (k = 0; k < r->ntests; k++) {
			const struct run_test *t = &r->tests[k];
			struct verdict v = { .limit = VERDICT_UNKNOWN, .text = "" };
			const char *model = run_device_str(r, "model");

			verdict_test(r, t, &v);
			fprintf(f, "%lld", (long long)r->id);
			csv_text(f, r->started_at);
			csv_text(f, r->profile);
			csv_text(f, r->engine);
			csv_text(f, r->board);
			csv_text(f, r->kernel);
			csv_text(f, r->boot_device);
			csv_text(f, run_device_str(r, "name"));
			csv_text(f, model ? model : run_device_str(r, "nvme.model"));
			csv_text(f, run_device_str(r, "serial"));
			csv_text(f, run_device_str(r, "transport"));
			csv_text(f, attach);
			csv_text(f, t->name);
			csv_text(f, t->rw);
			csv_num(f, t->block_bytes);
			csv_num(f, t->queue_depth);
			csv_num(f, t->threads);
			csv_num(f, t->runs);
			csv_num(f, t->bw);
			csv_num(f, t->bw / 1e6);
			csv_num(f, run_test_iops(t));
			csv_num(f, t->lat_mean_us);
			csv_num(f, t->lat_p50_us);
			csv_num(f, t->lat_p90_us);
			csv_num(f, t->lat_p99_us);
			csv_num(f, t->lat_p999_us);
			csv_num(f, t->lat_max_us);
			csv_text(f, verdict_limit_name(v.limit));
			csv_text(f, v.text);
			csv_num(f, isfinite(score) ? round(score * 10) / 10 : NAN);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
