/* cmd-health.c - `sbcdisk` with no command: the devices and how they are attached (list's
 * table), then the doctor's findings. Exit 3 when a warning or an error was found. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/doctor-run.h"
#include "cli/health-move.h"
#include "cli/options.h"
#include "common/log.h"
#include "report/doctor.h"
#include "common/json.h"
#include "report/list.h"
#include "report/text.h"
#include "common/util.h"

/* The headline's order of kinds: a problem (the drive far below its path, errors in the log,
 * a failing drive), power, the link, the protocol, the device; what is none of these last. */
static const char *const rank_problem[] = { "run-far-below", "io-errors", "fs-corrupt",
					    "nvme-errors", "mmc-errors", "pcie-errors",
					    "pcie-link-down", "usb-errors", "usb-host-",
					    "device-not-ready", "drive-failing", NULL };
static const char *const rank_power[] = { "undervoltage", "usb-current-limited",
					  "usb-over-current", NULL };
static const char *const rank_link[] = { "usb-link-slow", "pcie-link-", "boot-usb2", NULL };
static const char *const rank_protocol[] = { "uas-", "quirks-param-", NULL };
static const char *const rank_device[] = { "drive-", "nvme-apst-", NULL };

static int headline_rank(const struct diag_finding *f)
{
	static const char *const *const kinds[] = { rank_problem, rank_power, rank_link,
						    rank_protocol, rank_device };
	const char *const *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		for (p = kinds[i]; *p; p++)
			if (str_starts(f->id, *p))
				return (int)i;
	return (int)ARRAY_SIZE(kinds);
}

/* Whether a is more serious than b: a warning or an error before a note, then by kind, then
 * by severity. */
static bool headline_before(const struct diag_finding *a, const struct diag_finding *b)
{
	bool wa = a->sev >= DIAG_WARNING, wb = b->sev >= DIAG_WARNING;

	if (wa != wb)
		return wa;
	if (headline_rank(a) != headline_rank(b))
		return headline_rank(a) < headline_rank(b);
	return a->sev > b->sev;
}

/* One drive's headline: its last run's verdict (or none yet), the most serious finding about
 * it and the one next step. */
struct headline {
	const struct diag_dev *d;
	const struct doctor_last_run *run; /* NULL: no run of it stored */
	const struct diag_finding *best;   /* NULL: none */
	char verdict[200];                 /* "no run yet", "run #3: limited by the link (...)" */
	char next[160];                    /* "" when there is nothing to do */
};

/* Drives only: not an eMMC's boot or RPMB areas. */
static bool headline_wanted(const struct diag_dev *d)
{
	return d->transport != DIAG_T_UNKNOWN && d->transport != DIAG_T_OTHER &&
	       !strstr(d->name, "boot") && !strstr(d->name, "rpmb");
}

static void headline_make(const struct doctor_run *r, size_t i, struct headline *h)
{
	const struct diag_dev *d = &r->inv.devs[i];
	size_t k;

	memset(h, 0, sizeof(*h));
	h->d = d;
	if (r->last_runs && r->last_runs[i].id)
		h->run = &r->last_runs[i];
	for (k = 0; k < r->findings.n; k++) {
		const struct diag_finding *f = &r->findings.v[k];

		if (str_starts(f->device, d->name) && (!h->best || headline_before(f, h->best)))
			h->best = f;
	}
	if (!h->run) {
		str_copy(h->verdict, sizeof(h->verdict), "no run yet");
	} else if (!h->run->judged) {
		str_fmt(h->verdict, sizeof(h->verdict), "run #%lld: not judged", h->run->id);
	} else {
		const char *dash = strstr(h->run->v.text, " — ");

		/* the verdict's own next step is the finding's, said once below */
		str_fmt(h->verdict, sizeof(h->verdict), "run #%lld: %.*s", h->run->id,
			dash ? (int)(dash - h->run->v.text) : (int)strlen(h->run->v.text),
			h->run->v.text);
	}
	if (h->best && h->best->n_fix_cmds)
		str_copy(h->next, sizeof(h->next), h->best->fix_cmds[0]);
	else if (!h->run)
		str_fmt(h->next, sizeof(h->next), "sbcdisk bench /dev/%s", d->name);
}

/* "run #3: limited by the link (USB 2.0, 480M); <finding>; next: <command>" */
static void headline_line(const struct headline *h, char *buf, size_t cap)
{
	size_t nl = strlen(h->d->name);
	const char *title = h->best ? h->best->title : "no finding";
	char t[sizeof(h->best->title)];

	if (!strncmp(title, h->d->name, nl) && title[nl] == ':' && title[nl + 1] == ' ')
		title += nl + 2; /* "nvme0n1: PCIe link ..." says the name once */
	/* mid-sentence after "; ": "The system ..." reads "the system ...", "PCIe ..." stays */
	str_copy(t, sizeof(t), title);
	if (isupper((unsigned char)t[0]) && !isupper((unsigned char)t[1]))
		t[0] = (char)tolower((unsigned char)t[0]);
	str_fmt(buf, cap, "%s; %s%s%s", h->verdict, t, h->next[0] ? "; next: " : "", h->next);
}

static void health_headlines(const struct doctor_run *r)
{
	char line[600], name[80];
	size_t i;

	for (i = 0; i < r->inv.n; i++) {
		struct headline h;

		if (!headline_wanted(&r->inv.devs[i]))
			continue;
		headline_make(r, i, &h);
		headline_line(&h, line, sizeof(line));
		str_fmt(name, sizeof(name), "%s: ", h.d->name);
		text_wrap(stdout, "  ", name, line, text_cols(SIZE_MAX));
	}
}

/* The headlines for --json: {device, run_id, verdict {limit, text, expected_bytes_per_s ...}
 * or null, finding (its id) or null, next_step or null}. */
static struct json_object *health_headlines_json(const struct doctor_run *r)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < r->inv.n; i++) {
		struct json_object *o, *v = NULL;
		struct headline h;
		char line[600];

		if (!headline_wanted(&r->inv.devs[i]))
			continue;
		headline_make(r, i, &h);
		o = json_object_new_object();
		json_add_str(o, "device", h.d->name);
		json_add_i64(o, "run_id", h.run != NULL, h.run ? h.run->id : 0);
		if (h.run && h.run->judged) {
			v = json_object_new_object();
			verdict_json_add(v, &h.run->v);
		}
		json_object_object_add(o, "verdict", v);
		headline_line(&h, line, sizeof(line));
		json_add_str(o, "headline", line);
		json_add_str(o, "finding", h.best ? h.best->id : NULL);
		json_add_str(o, "finding_title", h.best ? h.best->title : NULL);
		json_add_str(o, "next_step", h.next[0] ? h.next : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

/* The table, the one line per drive, then the findings. 0 or -errno. */
static int health_text(struct cli_ctx *ctx, struct doctor_run *r)
{
	int ids[LIST_COLUMNS_MAX];
	size_t n = list_columns_default(ids, LIST_COLUMNS_MAX), i, cnt[4] = { 0 };
	char line[2048];
	int ret;

	if (r->probe_inv) {
		ret = list_table_print(r->probe_inv, ids, n, false, false, stdout);
		if (ret)
			return ret;
	} else {
		log_line(stdout, "No block devices below '%s'.", sysroot_dir(ctx->sr));
	}
	for (i = 0; i < r->findings.n; i++)
		cnt[r->findings.v[i].sev]++;
	printf("\n");
	health_headlines(r);
	if (r->inv.n)
		printf("\n");
	if (r->src.log_problem) {
		str_fmt(line, sizeof(line), "not read (%s).", r->src.log_problem);
		text_wrap(stdout, "  ", "Kernel log: ", line, text_cols(SIZE_MAX));
	}
	if (!r->findings.n) {
		if (r->probe_inv && r->probe_inv->n_left_out)
			printf("No problems found in the devices that were read (the list is "
			       "incomplete).\n");
		else
			doctor_text_all_clear(stdout, &r->src);
		health_move_print(ctx, r->probe_inv, stdout);
		return 0;
	}
	printf("Problems: %zu error%s, %zu warning%s, %zu info (details: sbcdisk doctor)\n\n",
	       cnt[DIAG_ERROR], cnt[DIAG_ERROR] == 1 ? "" : "s", cnt[DIAG_WARNING],
	       cnt[DIAG_WARNING] == 1 ? "" : "s", cnt[DIAG_INFO]);
	doctor_text_findings(stdout, &r->findings, ctx->color);
	health_move_print(ctx, r->probe_inv, stdout);
	return 0;
}

static const struct cli_option options[] = {
	OPT_END(),
};

/* no options and no operands: 'sbcdisk --help' is the global help */
const struct cli_spec health_spec = {
	.usage = "",
	.options = options,
};

int cmd_health(struct cli_ctx *ctx, int argc, char **argv)
{
	struct doctor_run r;
	int ret;

	(void)argc;
	ret = doctor_run_collect(ctx, argv[0], NULL, &r);
	if (ret == EXIT_OK) {
		if (ctx->json) {
			struct json_object *doc = r.probe_inv ? list_inventory_to_json(r.probe_inv) :
								json_object_new_object();
			struct json_object *move = health_move_json(ctx, r.probe_inv);

			if (!r.probe_inv)
				json_object_object_add(doc, "schema", json_object_new_int(1));
			json_object_object_add(doc, "findings", doctor_json_findings(&r.findings));
			json_object_object_add(doc, "headlines", health_headlines_json(&r));
			if (move)
				json_object_object_add(doc, "move", move);
			ret = json_print(doc, stdout) ? EXIT_FAIL : EXIT_OK;
			json_object_put(doc);
		} else {
			ret = health_text(ctx, &r) ? EXIT_FAIL : EXIT_OK;
		}
		if (ret == EXIT_OK && diag_findings_worst(&r.findings) >= DIAG_WARNING)
			ret = EXIT_FINDINGS;
	}
	doctor_run_release(&r);
	return ret;
}
