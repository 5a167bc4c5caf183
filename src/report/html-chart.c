/* html-chart.c - horizontal bar charts in inline SVG, one per test, one bar per run, with the
 * link ceiling of each run marked. Plain SVG: drawn without any script, printable. */
#include <math.h>

#include "common/util.h"
#include "report/html-int.h"
#include "report/text.h"
#include "store/verdict.h"

#define CHART_W   760
#define LABEL_W   250
#define BAR_H     20
#define BAR_GAP   6
#define TOP       10
#define VALUE_PAD 120 /* room right of the longest bar for its value and ratio */

static const char *const bar_colors[COMPARE_RUNS_MAX] = {
	"#2f6fb0", "#d9822b", "#3a9a5b", "#b03a48", "#7a5bb0", "#8c6d3b", "#c2589a", "#5b8c8c",
};

/* Cut s (capacity cap) in place to n characters (UTF-8), the last one "…" when cut. */
static const char *cut_chars(char *s, size_t cap, size_t n)
{
	size_t at, chars = text_chars(s, n, &at);

	if (chars > n && at + sizeof("…") <= cap)
		memcpy(s + at, "…", sizeof("…"));
	return s;
}

static const char *limit_class(enum verdict_limit l)
{
	switch (l) {
	case VERDICT_LINK:
		return "lim-link";
	case VERDICT_DEVICE:
		return "lim-device";
	case VERDICT_PROBLEM:
		return "lim-problem";
	case VERDICT_PROTOCOL:
		return "lim-protocol";
	case VERDICT_MEMORY:
		return "lim-memory";
	default:
		return "lim-unknown";
	}
}

static void chart_write(FILE *f, const struct compare *c, const struct compare_row *row)
{
	double max = 0, base = NAN, span = CHART_W - LABEL_W - VALUE_PAD;
	char num[32], label[160];
	size_t k, shown = 0;
	int h;

	/* runs without the test get no row: a chart shows what was measured */
	for (k = 0; k < c->nruns; k++) {
		if (!isfinite(row->value[k]))
			continue;
		shown++;
		if (row->value[k] > max)
			max = row->value[k];
		if (isnan(base))
			base = row->value[k]; /* ratios are to the first bar of the chart */
	}
	h = TOP * 2 + (int)shown * (BAR_H + BAR_GAP) - BAR_GAP;
	html_put(f, "<figure class=\"chart-box\"><figcaption>");
	html_put(f, "%s", row->test);
	html_put(f, " <span class=\"dir\">%s</span> <span class=\"unit\">%s</span></figcaption>\n",
		!strcmp(row->dir, "read") ? "read" : "write", compare_unit(row));
	html_put(f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-test=\"",
		CHART_W, h, CHART_W, h);
	html_put(f, "%s", row->test);
	html_put(f, " %s\">\n", row->dir);
	for (k = 0, shown = 0; k < c->nruns; k++) {
		const struct run *r = c->runs[k];
		const struct run_test *t = run_test_find(r, row->test, row->dir);
		int y = TOP + (int)shown * (BAR_H + BAR_GAP);
		double v = row->value[k], w;
		struct verdict vd = { .limit = VERDICT_UNKNOWN };
		struct link_ceiling ceil;

		if (!isfinite(v))
			continue;
		shown++;
		if (t)
			verdict_test(r, t, &vd);
		html_put(f, "<text class=\"label\" x=\"%d\" y=\"%d\">#%lld ", LABEL_W - 8,
			y + BAR_H / 2 + 5, (long long)r->id);
		run_device_label(r, label, sizeof(label));
		html_put(f, "%s", cut_chars(label, sizeof(label), 28));
		html_put(f, "</text>\n");
		w = max > 0 ? v / max * span : 0;
		if (w < 2)
			w = 2;
		html_put(f, "<rect class=\"bar %s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			   "rx=\"3\" fill=\"%s\"><title>",
			limit_class(vd.limit), LABEL_W, y, w, BAR_H, bar_colors[k]);
		compare_num(num, sizeof(num), v, row->iops);
		html_put(f, "%s %s", num, compare_unit(row));
		if (vd.text[0]) {
			html_put(f, " — ");
			html_put(f, "%s", vd.text);
		}
		html_put(f, "</title></rect>\n");
		/* the link's ceiling, where it is known and within reach of the chart; a memory
		 * figure (cached reads) is not the disk's and gets none */
		if (!row->iops && vd.limit != VERDICT_MEMORY && !verdict_ceiling(r, &ceil) &&
		    !ceil.floor_only &&
		    ceil.bytes_per_s / 1e6 <= max * 1.25 && max > 0) {
			double x = LABEL_W + ceil.bytes_per_s / 1e6 / max * span;

			html_put(f, "<line class=\"ceiling\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\">"
				   "<title>ceiling of the link: ",
				x, x, y - 3, y + BAR_H + 3);
			html_put(f, "%s", ceil.name);
			html_put(f, "</title></line>\n");
		}
		html_put(f, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s", LABEL_W + w + 6,
			y + BAR_H / 2 + 5, num);
		if (shown > 1 && base > 0)
			html_put(f, " <tspan class=\"ratio\">(%.2f×)</tspan>", v / base);
		html_put(f, "</text>\n");
	}
	html_put(f, "</svg></figure>\n");
}

void html_charts_write(FILE *f, const struct compare *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		chart_write(f, c, &c->rows[i]);
}
