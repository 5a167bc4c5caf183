/* html.c - the HTML report page: summary, a CrystalDiskMark-like panel per run with its
 * latencies, attachment facts, doctor findings and verdicts, then charts comparing the runs. */
#include <math.h>

#include "common/util.h"
#include "report/boot-times.h"
#include "report/html-int.h"
#include "report/html.h"
#include "store/verdict.h"

#ifndef SBCDISK_VERSION
#define SBCDISK_VERSION "0"
#endif

/* Only on a page that marks fixes. */
static const char css_fix[] =
	"tr.fix-marker td{background:#fff7e0;border-top:2px solid #b9770e;color:#6b4a06}"
	"tr.fix-marker b{color:#b9770e}";

/* Only on a page with boot times. */
static const char css_boot[] = ".scorebar span.boot{background:#2f6fb0}";

static const char css[] =
	":root{--ink:#1d2530;--muted:#5d6b7a;--line:#d8dee6;--bg:#f4f6f9;--card:#fff;"
	"--link:#2f6fb0;--device:#3a9a5b;--problem:#c0392b;--unknown:#8a96a3}"
	"*{box-sizing:border-box}"
	"body{margin:0;background:var(--bg);color:var(--ink);"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif}"
	"main{max-width:1100px;margin:0 auto;padding:24px}"
	"header.page{background:#1d2530;color:#fff;padding:20px 24px}"
	"header.page h1{margin:0;font-size:22px;font-weight:600}"
	"header.page p{margin:4px 0 0;color:#b8c4d0}"
	"h2{font-size:18px;margin:28px 0 10px}"
	"h3{font-size:15px;margin:16px 0 6px}"
	"section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;"
	"padding:16px 20px;margin:0 0 18px}"
	"table{border-collapse:collapse;width:100%}"
	"th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);"
	"vertical-align:top}"
	"th{font-weight:600;color:var(--muted);font-size:12px}"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
	".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;"
	"color:#fff;background:var(--unknown)}"
	".badge.lim-link{background:var(--link)}.badge.lim-device{background:var(--device)}"
	".badge.lim-problem{background:var(--problem)}"
	".badge.lim-protocol{background:var(--link)}"
	".unknown{color:var(--muted);font-size:12px}"
	".scorebar{background:#e6ebf1;border-radius:4px;height:8px;width:120px;"
	"display:inline-block;vertical-align:middle;margin-left:6px}"
	".scorebar span{display:block;height:8px;border-radius:4px;background:#3a9a5b}"
	".run-head{display:flex;justify-content:space-between;gap:16px;flex-wrap:wrap}"
	".run-head h2{margin:0}"
	".run-head .score{text-align:right}"
	".run-head .score b{font-size:28px;display:block;line-height:1}"
	".meta{color:var(--muted);margin:4px 0 10px}"
	".cdm{display:grid;grid-template-columns:110px 1fr 1fr;gap:6px;max-width:560px;"
	"margin:12px 0}"
	".cdm .h{font-size:12px;color:var(--muted);text-align:center;font-weight:600}"
	".cdm .name{background:#3a9a5b;color:#fff;border-radius:6px;padding:8px;"
	"font-weight:600;text-align:center;line-height:1.2}"
	".cdm .val{background:#f7f9fb;border:2px solid var(--line);border-radius:6px;"
	"padding:6px 10px;text-align:right}"
	".cdm .val b{font-size:24px;font-variant-numeric:tabular-nums;display:block}"
	".cdm .val small{color:var(--muted)}"
	".cdm .val.lim-link{border-color:var(--link)}"
	".cdm .val.lim-problem{border-color:var(--problem);background:#fdf1ef}"
	".cdm .val.lim-device{border-color:#b9dcc5}"
	".cdm .val.lim-protocol{border-color:var(--link)}"
	"dl.facts{display:grid;grid-template-columns:200px 1fr;gap:2px 12px;margin:6px 0}"
	"dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;word-break:break-word}"
	"ul.findings{margin:6px 0;padding-left:20px}"
	".sev-error{color:var(--problem);font-weight:600}.sev-warning{color:#b9770e;"
	"font-weight:600}"
	".chart-box{margin:0 0 14px;background:var(--card);border:1px solid var(--line);"
	"border-radius:8px;padding:10px 14px;break-inside:avoid}"
	".chart-box figcaption{font-weight:600;margin-bottom:4px}"
	".chart-box .dir,.chart-box .unit{color:var(--muted);font-weight:400}"
	"svg.chart{max-width:100%;height:auto;font:12px system-ui,sans-serif}"
	"svg.chart text.label{text-anchor:end;fill:#1d2530}"
	"svg.chart text.value{fill:#1d2530;font-variant-numeric:tabular-nums}"
	"svg.chart text.none{fill:#8a96a3;font-style:italic}"
	"svg.chart .ratio{fill:#5d6b7a}"
	"svg.chart line.ceiling{stroke:#c0392b;stroke-width:2;stroke-dasharray:4 3}"
	".legend{color:var(--muted);font-size:13px}"

	"footer{color:var(--muted);font-size:12px;margin:30px 0}"
	"@media print{body{background:#fff;font-size:11px}main{max-width:none;padding:0}"
	"header.page{background:#fff;color:#000;border-bottom:2px solid #000;padding:0 0 8px}"
	"header.page p{color:#333}section.card,.chart-box{border-color:#999;"
	"break-inside:avoid}.badge{border:1px solid #000;color:#000;background:#fff!important}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}"
	"@page{size:A4;margin:12mm}";

static const char *limit_class(enum verdict_limit l)
{
	static const char *const names[] = { "lim-unknown", "lim-link", "lim-device",
					     "lim-problem", "lim-protocol", "lim-memory" };

	return (size_t)l < ARRAY_SIZE(names) ? names[l] : "lim-unknown";
}

static void badge(FILE *f, const struct verdict *v)
{
	if (v->limit == VERDICT_UNKNOWN) {
		html_put(f, "<span class=\"unknown\">"); /* nothing to flag: no badge */
		html_put(f, "%s", v->text);
		html_put(f, "</span>");
		return;
	}
	html_put(f, "<span class=\"badge %s\">", limit_class(v->limit));
	html_put(f, "%s", v->text);
	html_put(f, "</span>");
}

/* Whether fix x came after run r: by time, and within one second by the newest run id then. */
static bool fix_after(const struct store_fix *x, const struct run *r)
{
	int c = strcmp(x->applied_at, r->started_at);

	return c > 0 || (c == 0 && x->runs_max >= r->id);
}

/* One row of the runs table that marks a fix on the timeline of its drive. */
static void fix_marker_write(FILE *f, const struct run_list *l, const struct html_opts *o,
			     size_t k)
{
	const struct store_fix *x = &o->fixes[k];
	char label[160] = "";
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->runs[i]->id == o->fix_run[k])
			run_device_label(l->runs[i], label, sizeof(label));
	html_put(f, "<tr class=\"fix-marker\" id=\"fix-%lld\"><td colspan=\"8\"><b>&#9873; fix "
		    "#%lld</b> %.10s %.5s · ", (long long)x->id, (long long)x->id, x->applied_at,
		 x->applied_at + 11);
	html_put(f, "%s: %s", x->kind, x->change);
	html_put(f, " · %s", label[0] ? label : x->dev_name);
	if (x->uas_resets >= 0)
		html_put(f, " · UAS resets at the time: %ld", x->uas_resets);
	html_put(f, "</td></tr>\n");
}

/* The boot times of the runs' drives: one row per drive and attachment, a bar for the mean. */
static void boots_write(FILE *f, const struct html_opts *o)
{
	char mean[32], min[32], max[32], k[32], i[32], u[32];
	double worst = 0;
	size_t n;

	for (n = 0; n < o->n_boots; n++)
		if (o->boots[n].total.n)
			worst = fmax(worst, o->boots[n].total.max);
	html_put(f, "<section class=\"card\" id=\"boot-times\"><h2 style=\"margin-top:0\">Boot "
		    "times</h2><table><thead><tr><th>Boot device</th><th>Attachment</th>"
		    "<th class=\"num\">Boots</th><th class=\"num\">Total s (mean)</th>"
		    "<th class=\"num\">min</th><th class=\"num\">max</th>"
		    "<th class=\"num\">Kernel s</th><th class=\"num\">Initrd s</th>"
		    "<th class=\"num\">Userspace s</th></tr></thead><tbody>\n");
	for (n = 0; n < o->n_boots; n++) {
		const struct store_boot_group *g = &o->boots[n];

		compare_num(mean, sizeof(mean), g->total.n ? g->total.mean : NAN, false);
		compare_num(min, sizeof(min), g->total.n ? g->total.min : NAN, false);
		compare_num(max, sizeof(max), g->total.n ? g->total.max : NAN, false);
		compare_num(k, sizeof(k), g->kernel.n ? g->kernel.mean : NAN, false);
		compare_num(i, sizeof(i), g->initrd.n ? g->initrd.mean : NAN, false);
		compare_num(u, sizeof(u), g->userspace.n ? g->userspace.mean : NAN, false);
		html_put(f, "<tr class=\"boot-device\"><td>");
		html_put(f, "%s", g->device);
		html_put(f, "</td><td>");
		html_put(f, "%s", g->attachment[0] ? g->attachment : "-");
		html_put(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%s", g->boots, mean);
		if (g->total.n && worst > 0)
			html_put(f, "<span class=\"scorebar\"><span class=\"boot\" style=\"width:"
				    "%.0f%%\"></span></span>", fmax(2, g->total.mean / worst * 100));
		html_put(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
			    "<td class=\"num\">%s</td><td class=\"num\">%s</td>"
			    "<td class=\"num\">%s</td></tr>\n", min, max, k, i, u);
	}
	html_put(f, "</tbody></table><p class=\"legend\">");
	html_put(f, "%s", BOOT_TIMES_TOTAL " Recorded once per boot by sbcdisk boot time --record; "
		 "kernel, initrd and userspace are means. " BOOT_TIMES_NOT_COUNTED);
	html_put(f, "</p></section>\n");
}

static void summary_write(FILE *f, const struct run_list *l, const struct html_opts *o)
{
	size_t k = 0;
	double best = 0;
	char num[32], attach[256], label[160];
	size_t i;

	for (i = 0; i < l->n; i++)
		if (isfinite(verdict_score(l->runs[i])))
			best = fmax(best, verdict_score(l->runs[i]));
	html_put(f, "<section class=\"card\"><h2 style=\"margin-top:0\">Runs</h2><table><thead><tr>"
	      "<th>Run</th><th>Started</th><th>Board</th><th>Device</th><th>Attachment</th>"
	      "<th>Profile</th><th class=\"num\">Boot-drive score</th><th>Verdict</th></tr>"
	      "</thead><tbody>\n");
	for (i = 0; i < l->n; i++) {
		const struct run *r = l->runs[i];
		double s = verdict_score(r);
		struct verdict v;

		for (; k < o->n_fixes && !fix_after(&o->fixes[k], r); k++)
			fix_marker_write(f, l, o, k);
		if (verdict_run(r, &v)) {
			v.limit = VERDICT_UNKNOWN;
			str_copy(v.text, sizeof(v.text), "no figure to judge");
		}
		run_attach_summary(r, attach, sizeof(attach));
		html_put(f, "<tr><td><a href=\"#run-%lld\">#%lld</a></td><td>%.10s</td><td>",
			(long long)r->id, (long long)r->id, r->started_at);
		html_put(f, "%s", *r->board ? r->board : "-");
		html_put(f, "</td><td>");
		html_put(f, "%s", run_device_label(r, label, sizeof(label)));
		html_put(f, "</td><td>");
		html_put(f, "%s", attach);
		html_put(f, "</td><td>");
		html_put(f, "%s", r->profile);
		compare_num(num, sizeof(num), s, true);
		html_put(f, "</td><td class=\"num\">%s", num);
		if (isfinite(s) && best > 0)
			html_put(f, "<span class=\"scorebar\"><span style=\"width:%.0f%%\"></span></span>",
				fmax(2, s / best * 100));
		html_put(f, "</td><td>");
		badge(f, &v);
		html_put(f, "</td></tr>\n");
	}
	for (; k < o->n_fixes; k++)
		fix_marker_write(f, l, o, k);
	html_put(f, "</tbody></table></section>\n");
}

/* The CrystalDiskMark-like panel: tests as rows, read and write as columns. */
static void panel_write(FILE *f, const struct run *r, const struct compare *c)
{
	char num[32], iops[32];
	size_t i, k;

	html_put(f, "<div class=\"cdm\"><div></div><div class=\"h\">Read MB/s</div>"
	      "<div class=\"h\">Write MB/s</div>\n");
	for (i = 0; i < c->nrows; i++) {
		const char *name = c->rows[i].test, *sp = strchr(name, ' ');

		if (i > 0 && !strcmp(c->rows[i - 1].test, name))
			continue;
		html_put(f, "<div class=\"name\">");
		if (sp && !strchr(sp + 1, ' ')) {
			char head[64];

			str_fmt(head, sizeof(head), "%.*s", (int)(sp - name), name);
			html_put(f, "%s", head);
			html_put(f, "<br>");
			html_put(f, "%s", sp + 1);
		} else {
			html_put(f, "%s", name);
		}
		html_put(f, "</div>");
		for (k = 0; k < 2; k++) {
			const struct run_test *t = run_test_find(r, name, k ? "write" : "read");
			struct verdict v = { .limit = VERDICT_UNKNOWN };

			if (!t) {
				html_put(f, "<div class=\"val\"><b>-</b></div>");
				continue;
			}
			verdict_test(r, t, &v);
			compare_num(num, sizeof(num), t->bw / 1e6, false);
			compare_num(iops, sizeof(iops), run_test_iops(t), true);
			html_put(f, "<div class=\"val %s\"><b>%s</b><small>%s IOPS</small></div>",
				limit_class(v.limit), num, iops);
		}
		html_put(f, "\n");
	}
	html_put(f, "</div>\n");
}

static void latency_write(FILE *f, const struct run *r)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], cv[32];
	size_t i;

	html_put(f, "<h3>Latency and what limits each figure</h3><table><thead><tr><th>Test</th>"
	      "<th>R/W</th><th class=\"num\">MB/s</th><th class=\"num\">mean µs</th>"
	      "<th class=\"num\">p50</th><th class=\"num\">p90</th><th class=\"num\">p99</th>"
	      "<th class=\"num\">p99.9</th><th class=\"num\">max</th><th class=\"num\">CV</th>"
	      "<th>Verdict</th></tr></thead><tbody>\n");
	for (i = 0; i < r->ntests; i++) {
		const struct run_test *t = &r->tests[i];
		struct verdict v = { .limit = VERDICT_UNKNOWN };
		char mbs[32];

		compare_num(mbs, sizeof(mbs), t->bw / 1e6, false);
		compare_num(a, sizeof(a), t->lat_mean_us, false);
		compare_num(b, sizeof(b), t->lat_p50_us, false);
		compare_num(c, sizeof(c), t->lat_p90_us, false);
		compare_num(d, sizeof(d), t->lat_p99_us, false);
		compare_num(e, sizeof(e), t->lat_p999_us, false);
		compare_num(g, sizeof(g), t->lat_max_us, false);
		/* one run has no spread to show: "-", as the terminal's table has it */
		if (isfinite(t->bw_cv) && !(isfinite(t->runs) && t->runs <= 1))
			str_fmt(cv, sizeof(cv), "%.1f%%", t->bw_cv * 100);
		else
			str_copy(cv, sizeof(cv), "-");
		html_put(f, "<tr><td>");
		html_put(f, "%s", t->name);
		html_put(f, "</td><td>");
		html_put(f, "%s", t->rw);
		html_put(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
			   "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s"
			   "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
			   "<td class=\"num\">%s</td><td>",
			mbs, a, b, c, d, e, g, cv);
		if (!verdict_test(r, t, &v))
			badge(f, &v);
		else
			html_put(f, "%s", strcasestr(t->name, "cached") ? "memory figure" : "-");
		html_put(f, "</td></tr>\n");
	}
	html_put(f, "</tbody></table>\n");
}

static void fact(FILE *f, const char *key, const char *value)
{
	html_put(f, "<dt>");
	html_put(f, "%s", key);
	html_put(f, "</dt><dd>");
	html_put(f, "%s", value);
	html_put(f, "</dd>\n");
}

/* Every known fact of a JSON object, nested objects as "usb vid", arrays joined. */
static void facts_of(FILE *f, const char *prefix, struct json_object *o, int depth)
{
	char key[160], size[32];

	if (!o || depth > 3 || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v)
	{
		if (!v || !strcmp(k, "children"))
			continue;
		str_fmt(key, sizeof(key), "%s%s%s", prefix, *prefix ? " " : "", k);
		switch (json_object_get_type(v)) {
		case json_type_object:
			facts_of(f, key, v, depth + 1);
			break;
		case json_type_array: {
			size_t i, n = json_object_array_length(v);

			for (i = 0; i < n && i < 16; i++) {
				struct json_object *e = json_object_array_get_idx(v, i);
				char sub[180];

				str_fmt(sub, sizeof(sub), "%s %zu", key, i + 1);
				if (json_object_is_type(e, json_type_object))
					facts_of(f, sub, e, depth + 1);
				else if (e)
					fact(f, n > 1 ? sub : key, json_object_get_string(e));
			}
			break;
		}
		default:
			if (!strcmp(k, "size_bytes") && json_object_is_type(v, json_type_int)) {
				size_to_human((uint64_t)json_object_get_int64(v), size, sizeof(size));
				fact(f, key, size);
			} else {
				fact(f, key, json_object_get_string(v));
			}
		}
	}
}

static void findings_write(FILE *f, const struct run *r)
{
	size_t i, n = r->findings ? json_object_array_length(r->findings) : 0;

	html_put(f, "<h3>Doctor findings at the time</h3>");
	if (!r->findings) {
		html_put(f, "<p class=\"legend\">Not recorded with this run.</p>\n");
		return;
	}
	if (!n) {
		html_put(f, "<p class=\"legend\">None.</p>\n");
		return;
	}
	html_put(f, "<ul class=\"findings\">\n");
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(r->findings, i), *v;
		const char *sev = "info", *id = "?", *title = NULL;

		if (json_object_object_get_ex(e, "severity", &v) && v)
			sev = json_object_get_string(v);
		if (json_object_object_get_ex(e, "id", &v) && v)
			id = json_object_get_string(v);
		if (json_object_object_get_ex(e, "title", &v) && v)
			title = json_object_get_string(v);
		html_put(f, "<li><span class=\"sev-%s\">",
			!strcmp(sev, "error") ? "error" : !strcmp(sev, "warning") ? "warning" : "info");
		html_put(f, "%s", sev);
		html_put(f, "</span> <code>");
		html_put(f, "%s", id);
		html_put(f, "</code> ");
		html_put(f, "%s", title);
		html_put(f, "</li>\n");
	}
	html_put(f, "</ul>\n");
}

static int run_write(FILE *f, const struct run *r)
{
	struct run_list one = { .runs = (struct run **)&r, .n = 1 };
	struct compare *c = malloc(sizeof(*c));
	char num[32], label[160], app[200];
	struct verdict v;
	double s = verdict_score(r);

	if (!c)
		return -ENOMEM;
	compare_build(&one, c);
	if (verdict_run(r, &v)) {
		v.limit = VERDICT_UNKNOWN;
		str_copy(v.text, sizeof(v.text), "no figure to judge");
	}
	html_put(f, "<section class=\"card run\" id=\"run-%lld\"><div class=\"run-head\"><div>"
		   "<h2>#%lld ",
		(long long)r->id, (long long)r->id);
	html_put(f, "%s", run_device_label(r, label, sizeof(label)));
	html_put(f, "</h2><div class=\"meta\">");
	html_put(f, "%s", *r->board ? r->board : "board unknown");
	if (*r->kernel) {
		html_put(f, " · kernel ");
		html_put(f, "%s", r->kernel);
	}
	html_put(f, " · %.10s %.5s UTC · profile ", r->started_at, r->started_at + 11);
	html_put(f, "%s", r->profile);
	if (*r->engine) {
		html_put(f, " · engine ");
		html_put(f, "%s", r->engine);
	}
	if (*r->boot_device) {
		html_put(f, " · root on ");
		html_put(f, "%s", r->boot_device);
	}
	html_put(f, "</div>");
	badge(f, &v);
	if (!verdict_app_class(r, app, sizeof(app))) {
		html_put(f, " <span class=\"badge\">SD ");
		html_put(f, "%s", app);
		html_put(f, "</span>");
	}
	compare_num(num, sizeof(num), s, true);
	html_put(f, "</div><div class=\"score\"><b>%s</b>boot-drive score</div></div>\n", num);
	panel_write(f, r, c);
	latency_write(f, r);
	html_put(f, "<h3>How the drive was attached</h3><dl class=\"facts\">\n");
	if (r->device)
		facts_of(f, "", r->device, 0);
	else
		fact(f, "device", "not recorded");
	if (r->target)
		facts_of(f, "target", r->target, 1);
	if (*r->source)
		fact(f, "source", r->source);
	html_put(f, "</dl>\n");
	findings_write(f, r);
	html_put(f, "</section>\n");
	free(c);
	return 0;
}

int html_report_write(FILE *f, const struct run_list *l, const struct html_opts *o)
{
	struct compare *c = malloc(sizeof(*c));
	char when[40];
	struct tm tm;
	size_t i;
	int ret;

	if (!c)
		return -ENOMEM;
	ret = compare_build(l, c);
	if (ret)
		goto out;
	gmtime_r(&o->generated_at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	html_put(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<title>sbcdisk storage report</title>\n<style>");
	fputs(css, f); /* our constant, and CSS is not HTML: the one thing written unescaped */
	if (o->n_fixes)
		fputs(css_fix, f);
	if (o->n_boots)
		fputs(css_boot, f);
	html_put(f, "</style></head><body>\n"
		   "<header class=\"page\"><h1>Storage report</h1><p>%zu run%s · made by sbcdisk "
		   "%s on %s</p></header><main>\n",
		 l->n, l->n == 1 ? "" : "s", SBCDISK_VERSION, when);
	summary_write(f, l, o);
	if (o->n_boots)
		boots_write(f, o);
	html_put(f, "<h2>Test by test</h2><p class=\"legend\">One chart per test, one bar per run that "
	      "measured it; the number in brackets is the ratio to the chart's first bar. A "
	      "dashed red line marks "
	      "the practical ceiling of a run's link where it is known.</p>\n");
	html_charts_write(f, c);
	for (i = 0; i < l->n && !ret; i++)
		ret = run_write(f, l->runs[i]);
	html_put(f, "<footer>MB/s = 1,000,000 bytes per second. Verdicts: “limited by the link” when a "
	      "figure reaches 70 %% of the practical ceiling of the USB, PCIe or SD/eMMC link; "
	      "“far below what the link allows” when a large-block figure stays under 25 %% of "
	      "it on a drive that should be fast, or when doctor found a problem; else “limited "
	      "by the device”. The boot-drive score is 100 × the weighted geometric mean of "
	      "the 4 KiB random and sequential figures over the floor of the SD A1 class "
	      "(1500 read IOPS, 500 write IOPS, 10 MB/s).</footer>\n</main></body></html>\n");
	if (!ret && ferror(f))
		ret = -EIO;
out:
	free(c);
	return ret;
}
