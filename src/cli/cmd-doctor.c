/* cmd-doctor.c - `sbcdisk doctor`: what is wrong with the storage, why, and the exact fix.
 * Options: --kmsg FILE (a pasted log), --fail-on LEVEL (exit 3); the global --json. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/doctor-run.h"
#include "common/log.h"
#include "report/doctor.h"
#include "common/json.h"
#include "common/util.h"

static void doctor_usage(FILE *f)
{
	const struct diag_rule_info *r;
	size_t i;

	fprintf(f, "Usage: sbcdisk doctor [--kmsg FILE] [--fail-on error|warning|info]\n"
		   "\nFindings from the kernel log and how the devices are attached, each with its\n"
		   "evidence and the exact fix.\n"
		   "\nOptions:\n"
		   "  --kmsg FILE        read a saved or pasted log instead of /dev/kmsg ('-' for\n"
		   "                     standard input): dmesg, dmesg -T, dmesg -r, journalctl -k,\n"
		   "                     quoted ('> ') or mail-wrapped lines all work\n"
		   "  --fail-on LEVEL    exit 3 when a finding of LEVEL or worse exists\n"
		   "  -h, --help         this help\n"
		   "\nWith the global --json: the documented JSON document (schema 1).\n"
		   "\nFinding ids:\n");
	for (i = 0; (r = diag_rule_get(i)); i++)
		fprintf(f, "  %-21s %s\n", r->id, r->summary);
}

int cmd_doctor(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kmsg", required_argument, NULL, 'k' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kmsg = NULL;
	enum diag_sev fail_on = 0;
	struct doctor_run r;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kmsg = optarg;
			break;
		case 'f':
			if (diag_sev_parse(optarg, &fail_on))
				return cli_usage_error(argv[0], "--fail-on takes error, warning or "
						       "info, not '%s'", optarg);
			break;
		case 'h':
			doctor_usage(stdout);
			return EXIT_OK;
		default:
			return cli_option_error(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);

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
