/* cmd-health.c - `sbcdisk` with no command: the devices and how they are attached (list's
 * table), then the doctor's findings. Exit 3 when a warning or an error was found. */
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

/* The kind of a finding in the headline's order: a problem, power, the link, the protocol,
 * the device. */
static int headline_rank(const struct diag_finding *f)
{
	static const char *const order[] = { "run-far-below", "undervoltage", "usb-link-slow",
					     "pcie-link", "uas-", "drive-" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (str_starts(f->id, order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(order);
}

/* One line per drive: its last run's verdict (or none yet), the most serious finding about
 * it and the one next step. */
static void health_headlines(const struct doctor_run *r)
{
	size_t i, k;

	for (i = 0; i < r->inv.n; i++) {
		const struct diag_dev *d = &r->inv.devs[i];
		const struct diag_finding *best = NULL;
		char run[64];

		const char *title;
		size_t nl = strlen(d->name);

		/* drives only: not an eMMC's boot or RPMB areas */
		if (d->transport == DIAG_T_UNKNOWN || d->transport == DIAG_T_OTHER ||
		    strstr(d->name, "boot") || strstr(d->name, "rpmb"))
			continue;
		for (k = 0; k < r->findings.n; k++) {
			const struct diag_finding *f = &r->findings.v[k];

			if (!str_starts(f->device, d->name))
				continue;
			if (!best || f->sev > best->sev ||
			    (f->sev == best->sev && headline_rank(f) < headline_rank(best)))
				best = f;
		}
		if (d->last_run_far)
			str_fmt(run, sizeof(run), "run #%lld far below its path", d->last_run_id);
		else
			str_copy(run, sizeof(run), d->has_stored_run ? "last run stored" : "no run yet");
		title = best ? best->title : "no finding";
		if (!strncmp(title, d->name, nl) && title[nl] == ':' && title[nl + 1] == ' ')
			title += nl + 2; /* "nvme0n1: PCIe link ..." says the name once */
		printf("%s: %s; %s", d->name, run, title);
		if (best && best->n_fix_cmds)
			printf("; next: %s", best->fix_cmds[0]);
		else if (!d->has_stored_run)
			printf("; next: sbcdisk bench /dev/%s", d->name);
		printf("\n");
	}
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
