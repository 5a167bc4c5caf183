/* cmd-doctor.c - `sbcdisk doctor`: what is wrong with the storage, why, and the exact fix.
 * Options: --kmsg FILE (a pasted log), --fail-on LEVEL (exit 3, by default from a warning);
 * the global --json. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/doctor-run.h"
#include "cli/options.h"
#include "common/log.h"
#include "report/doctor.h"
#include "common/json.h"
#include "common/util.h"

static struct {
	const char *kmsg;
	enum diag_sev fail_on;
} opt = { .fail_on = DIAG_WARNING }; /* as the health check: one rule (man page, EXIT STATUS) */

static int opt_fail_on(const char *cmd, void *value, const char *arg)
{
	if (diag_sev_parse(arg, value))
		return cli_usage_error(cmd, "--fail-on takes error, warning or info, not '%s'",
				       arg);
	return 0;
}

static const struct cli_option options[] = {
	OPT_STRING(0, "kmsg", "FILE", &opt.kmsg,
		   "read a saved or pasted log instead of /dev/kmsg ('-' for\n"
		   "standard input): dmesg (-T, -r, -x, -H), journalctl -k\n"
		   "(any -o), syslog, logread, metalog; quoted ('> ') or\n"
		   "mail-wrapped lines and several boots in one file work"),
	OPT_CALLBACK(0, "fail-on", "LEVEL", &opt.fail_on, opt_fail_on,
		     "exit 3 when a finding of LEVEL or worse exists (default\n"
		     "warning, as the health check)"),
	OPT_HELP(),
	OPT_END(),
};

static void finding_ids(FILE *f)
{
	const struct diag_rule_info *r;
	size_t i;

	for (i = 0; (r = diag_rule_get(i)); i++)
		cli_help_para(f, r->summary, 24, fprintf(f, "  %-21s ", r->id));
}

const struct cli_spec doctor_spec = {
	.usage = "Usage: sbcdisk doctor [--kmsg FILE] [--fail-on error|warning|info]\n"
		 "\nFindings from the kernel log and how the devices are attached, each with its\n"
		 "evidence and the exact fix.\n",
	.options = options,
	.help_col = 21,
	.after = "\nWith the global --json: the documented JSON document (schema 1).\n"
		 "\nFinding ids:\n",
	.after_fn = finding_ids,
};

int cmd_doctor(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *kmsg = opt.kmsg;
	enum diag_sev fail_on = opt.fail_on;
	struct doctor_run r;
	int ret;

	(void)argc;
	ret = doctor_run_collect(ctx, argv[0], kmsg, &r);
	if (ret == EXIT_OK) {
		if (ctx->json) {
			struct json_object *doc = doctor_json(&r.findings);

			ret = json_print(doc, stdout) ? EXIT_FAIL : EXIT_OK;
			json_object_put(doc);
		} else {
			ret = doctor_text_print(stdout, &r.findings, &r.src, ctx->color) ?
				      EXIT_FAIL : EXIT_OK;
		}
		if (ret == EXIT_OK && fail_on && diag_findings_worst(&r.findings) >= (int)fail_on)
			ret = EXIT_FINDINGS;
	}
	doctor_run_release(&r);
	return ret;
}
