/* cmd-fix.c - `sbcdisk fix uas|pcie-gen|undo`: show the diff of a boot file edit (dry run by
 * default), write it with --apply, explain what happens at the next boot. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/fix-proof.h"
#include "common/log.h"
#include "common/paths.h"
#include "fix/diff.h"
#include "fix/plan.h"
#include "common/json.h"
#include "common/util.h"

static const char usage_text[] =
	"Usage: sbcdisk fix uas DEVICE|VID:PID [--apply] [--now]\n"
	"       sbcdisk fix pcie-gen 2|3 [--apply]\n"
	"       sbcdisk fix undo [--apply]\n"
	"       sbcdisk fix verify [--device TEXT] [--profile NAME]\n"
	"\n"
	"Edit the Raspberry Pi boot configuration safely. Without --apply nothing is written:\n"
	"the diff and what happens at the next boot are shown.\n"
	"\n"
	"  uas       add VID:PID:u to usb-storage.quirks= in cmdline.txt, so that usb-storage\n"
	"            drives the device instead of uas (DEVICE such as sda is looked up in sysfs)\n"
	"  pcie-gen  set dtparam=pciex1_gen=N for the Raspberry Pi 5 in config.txt\n"
	"  undo      put back the newest backup made by a fix (and remove that backup)\n"
	"  verify    the runs of the fixed drive before and after the newest fix, compared\n"
	"\n"
	"  --apply   write the change: a temporary file beside the original, fsync, rename,\n"
	"            fsync of the directory; the original is kept as NAME.sbcdisk-YYYYmmdd-HHMMSS\n"
	"  --now     (uas) also write the running kernel's usb-storage quirks list; re-plug the\n"
	"            drive afterwards\n"
	"  --db PATH the result database the fix is recorded in (default: as bench; with\n"
	"            --sysroot only when given)\n"
	"  --no-save do not record the fix\n"
	"  --device TEXT\n"
	"            (verify) the drive: its name, model, serial or VID:PID has TEXT\n"
	"  --profile NAME\n"
	"            (verify) the profile of the runs to compare\n"
	"\n"
	"The files are found as the firmware finds them: /boot/firmware when it holds config.txt,\n"
	"else /boot; os_prefix and cmdline= from config.txt (or the device tree) apply.\n";

struct fix_opts {
	bool apply;
	bool now;
	const char *db;
	bool no_save;
};

static int fail(struct fix_plan *p, int ret)
{
	log_error("fix: %s", p->msgs.why[0] ? p->msgs.why : strerror(-ret));
	return EXIT_FAIL;
}

static const char *kind_name(enum fix_kind k)
{
	return k == FIX_UAS ? "uas" : k == FIX_PCIE_GEN ? "pcie-gen" : "undo";
}

struct now_result {
	bool asked;
	bool ok;
	bool changed;
	char before[256];
	char after[256];
	char why[FIX_MSG_MAX];
};

static int emit_json(const struct fix_plan *p, const struct fix_opts *o, const struct sbuf *diff,
		     const struct usb_id *id, const struct now_result *now,
		     const struct fixproof_note *rec)
{
	struct json_object *root = json_object_new_object(), *notes = json_object_new_array();
	char s[PATH_MAX + 300];
	size_t i;
	int ret;

	json_add_u64(root, "schema", true, 1);
	json_add_str(root, "fix", kind_name(p->kind));
	json_add_str(root, "file", p->file.path);
	if (id) {
		str_fmt(s, sizeof(s), "%04x:%04x", id->vid, id->pid);
		json_add_str(root, "usb_id", s);
	} else {
		json_add_null(root, "usb_id");
	}
	json_add_bool(root, "changed", true, p->changed);
	json_add_bool(root, "applied", true, o->apply && p->changed);
	if (p->backup[0]) {
		str_fmt(s, sizeof(s), "%s/%s", p->file.dir, p->backup);
		json_add_str(root, "backup", s);
	} else {
		json_add_null(root, "backup");
	}
	if (p->restore_from[0]) {
		str_fmt(s, sizeof(s), "%s/%s", p->file.dir, p->restore_from);
		json_add_str(root, "restored_from", s);
	}
	json_object_object_add(root, "diff", json_object_new_string_len(sbuf_str(diff),
									(int)diff->len));
	for (i = 0; i < p->msgs.n; i++)
		json_object_array_add(notes, json_object_new_string(p->msgs.note[i]));
	json_object_object_add(root, "notes", notes);
	json_add_str(root, "next_boot", p->next_boot[0] ? p->next_boot : NULL);
	if (now->asked) {
		struct json_object *r = json_object_new_object();

		json_add_str(r, "path", PATH_USB_STORAGE_QUIRKS);
		json_add_str(r, "before", now->ok ? now->before : NULL);
		json_add_str(r, "after", now->ok ? now->after : NULL);
		json_add_bool(r, "written", true, now->ok && o->apply && now->changed);
		json_add_str(r, "error", now->ok ? NULL : now->why);
		json_object_object_add(root, "runtime", r);
	} else {
		json_add_null(root, "runtime");
	}
	/* only when the result store was asked: a fix of a --sysroot tree has no record */
	if (rec->store_used) {
		struct json_object *r = json_object_new_object();

		json_add_i64(r, "fix_id", rec->fix_id > 0, rec->fix_id);
		json_add_str(r, "device", rec->device[0] ? rec->device : NULL);
		json_add_bool(r, "run_before", true, rec->run_before);
		json_object_object_add(root, "record", r);
	}
	ret = json_print(root, stdout);
	json_object_put(root);
	return ret ? EXIT_FAIL : EXIT_OK;
}

/* What the result store says about the fix: recorded, and whether a run before it exists
 * to compare with after the reboot; the hint to make one when not. */
static void emit_record(const struct fix_plan *p, const struct fix_opts *o,
			const struct fixproof_note *rec)
{
	char s[600];

	if (!rec->store_used || !p->changed)
		return;
	if (o->apply && rec->fix_id > 0 && p->kind != FIX_UNDO) {
		str_fmt(s, sizeof(s), "Recorded as fix #%lld for %s. %s", (long long)rec->fix_id,
			rec->device, rec->run_before ?
			"After the reboot, the first 'sbcdisk bench' of the drive (or 'sbcdisk "
			"fix verify') shows what changed against the last run before the fix." :
			"No benchmark run of it is stored from before the fix, so there is nothing "
			"to compare with after the reboot; next time run 'sbcdisk bench' on the "
			"drive before --apply.");
		cli_wrap_print("", "", s);
	} else if (o->apply && rec->fix_id > 0) {
		str_fmt(s, sizeof(s), "Recorded as fix #%lld for %s.", (long long)rec->fix_id,
			rec->device);
		cli_wrap_print("", "", s);
	} else if (!o->apply && p->kind != FIX_UNDO && !rec->run_before) {
		str_fmt(s, sizeof(s), "No benchmark run of %s is stored yet: run 'sbcdisk bench' "
			"on the drive before --apply, so that the first bench after the reboot can "
			"show what the fix changed.", rec->device);
		cli_wrap_print("", "", s);
	}
}

static void emit_text(const struct fix_plan *p, const struct fix_opts *o, const struct sbuf *diff,
		      const struct now_result *now)
{
	size_t i;

	if (diff->len)
		fwrite(sbuf_str(diff), 1, diff->len, stdout);
	else
		printf("%s: no change\n", p->file.path);
	if (p->msgs.n)
		putchar('\n');
	for (i = 0; i < p->msgs.n; i++)
		cli_wrap_print("    ", "  - ", p->msgs.note[i]);
	if (p->next_boot[0]) {
		putchar('\n');
		cli_wrap_print("", "", p->next_boot);
	}
	if (now->asked) {
		putchar('\n');
		if (!now->ok) {
			cli_wrap_print("", "Running kernel: not changed: ", now->why);
		} else if (!now->changed) {
			printf("Running kernel: %s already holds the entry.\n",
			       PATH_USB_STORAGE_QUIRKS);
		} else {
			printf("Running kernel: %s\n", PATH_USB_STORAGE_QUIRKS);
			log_line(stdout, "  before: '%s'", now->before);
			log_line(stdout, "  after:  '%s'%s", now->after, o->apply ? "  (written)" : "");
			if (o->apply)
				cli_wrap_print("", "", "Unplug the drive and plug it in again so that the "
						   "new list is read (a drive that holds the running "
						   "system: reboot instead).");
		}
	}
	putchar('\n');
	if (!p->changed && p->kind == FIX_UNDO)
		printf("The backup %s equals the current file; %s.\n", p->restore_from,
		       o->apply ? "it is removed" : "--apply removes it");
	else if (!p->changed)
		printf("Nothing to write.\n");
	else if (!o->apply)
		cli_wrap_print("", "", p->kind == FIX_UNDO ?
			   "Dry run: nothing was written. Run the same command with --apply to "
			   "put the backup back." :
			   "Dry run: nothing was written. Run the same command with --apply to "
			   "write it (a dated backup is kept beside the file).");
	else if (p->kind == FIX_UNDO && p->backup[0])
		printf("Restored %s from %s/%s (that backup is removed).\n"
		       "Its edited contents are kept as %s/%s; "
		       "'sbcdisk fix undo --apply' puts them back.\n", p->file.path,
		       p->file.dir, p->restore_from, p->file.dir, p->backup);
	else if (p->kind == FIX_UNDO)
		printf("Restored %s from %s/%s (that backup is removed).\n", p->file.path,
		       p->file.dir, p->restore_from);
	else
		printf("Wrote %s; the previous version is %s/%s\n"
		       "'sbcdisk fix undo --apply' puts it back.\n",
		       p->file.path, p->file.dir, p->backup);
}

/* Record an applied fix in the result store, or (dry run) look for a run to compare with. */
static void record_fix(struct cli_ctx *ctx, const struct fix_plan *p, const struct fix_opts *o,
		       const char *arg, const struct usb_id *id, const struct now_result *now,
		       struct fixproof_note *rec)
{
	struct fixproof_what w = { .kind = kind_name(p->kind), .file = p->file.path, .id = id };
	char change[320];

	if (p->kind == FIX_UAS) {
		str_fmt(change, sizeof(change), "usb-storage.quirks += %04x:%04x:u", id->vid,
			id->pid);
		if (!strchr(arg, ':'))
			w.disk = arg;
	} else if (p->kind == FIX_PCIE_GEN) {
		str_fmt(change, sizeof(change), "dtparam=pciex1_gen=%s", arg);
	} else {
		str_fmt(change, sizeof(change), "restored %s", p->restore_from);
	}
	w.change = change;
	w.runtime = now->asked && now->ok && o->apply;
	fixproof_record(ctx, o->db, &w, o->apply, rec);
}

static int parse_opts(int argc, char **argv, struct fix_opts *o, bool allow_now)
{
	static const struct option longopts[] = {
		{ "apply", no_argument, NULL, 'a' },
		{ "now", no_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "no-save", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->apply = true;
			break;
		case 'n':
			if (!allow_now)
				return cli_usage_error("fix", "'--now' is for 'fix uas' only");
			o->now = true;
			break;
		case 'd':
			o->db = optarg;
			break;
		case 's':
			o->no_save = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return CLI_DONE;
		default:
			return cli_option_error("fix", c, argv);
		}
	}
	return 0;
}

/* Options may come before or after the positional argument: pull the positionals out (argv
 * keeps the options, *nopt of them with argv[0]). 0 or EXIT_USAGE after printing why. */
static int split_args(int argc, char **argv, char **pos, int maxpos, int *npos, int *nopt)
{
	int i, out = 1;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			argv[out++] = argv[i];
			if (!strcmp(argv[i], "--db") && i + 1 < argc)
				argv[out++] = argv[++i];
			continue;
		}
		if (*npos == maxpos)
			return cli_usage_error("fix", "unexpected argument '%s'", argv[i]);
		pos[(*npos)++] = argv[i];
	}
	argv[out] = NULL;
	*nopt = out;
	return 0;
}

int cmd_fix(struct cli_ctx *ctx, int argc, char **argv)
{
	struct fixproof_note rec = { 0 };
	struct now_result now = { 0 };
	struct fix_plan plan = { 0 };
	struct sbuf diff = SBUF_INIT(8 * 1024 * 1024);
	struct fix_opts o = { 0 };
	struct fix_msgs found = { 0 };
	char la[PATH_MAX + 4], lb[PATH_MAX + 4];
	struct usb_id id, *idp = NULL;
	const char *what, *arg = NULL;
	char *pos[1];
	int npos, n = 1, ret;

	if (argc < 2)
		return cli_usage_error("fix", "which fix: 'uas', 'pcie-gen' or 'undo'");
	what = argv[1];
	if (!strcmp(what, "-h") || !strcmp(what, "--help")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (!strcmp(what, "verify"))
		return fixproof_verify(ctx, argc - 1, argv + 1);
	if (strcmp(what, "uas") && strcmp(what, "pcie-gen") && strcmp(what, "undo"))
		return cli_usage_error("fix", "unknown fix '%s' (uas, pcie-gen, undo, verify)",
				       what);
	ret = split_args(argc - 1, argv + 1, pos, strcmp(what, "undo") ? 1 : 0, &npos, &n);
	if (ret)
		return ret;
	ret = parse_opts(n, argv + 1, &o, !strcmp(what, "uas"));
	if (ret)
		return ret == CLI_DONE ? EXIT_OK : ret;
	if (strcmp(what, "undo") && npos != 1)
		return cli_usage_error("fix", "'fix %s' needs %s", what,
				       strcmp(what, "uas") ? "2 or 3" : "a DEVICE or VID:PID");
	arg = npos ? pos[0] : NULL;
	if (!strcmp(what, "uas") && strchr(arg, ':') && usbq_id_parse(arg, &id))
		return cli_usage_error("fix", "'%s' is not a USB id like 152d:0578", arg);
	if (!strcmp(what, "pcie-gen") && strcmp(arg, "2") && strcmp(arg, "3"))
		return cli_usage_error("fix", "PCIe generation '%s': the Raspberry Pi 5 "
					      "connector runs at 2 or 3", arg);
	if (cli_setup(ctx))
		return EXIT_FAIL;

	if (!strcmp(what, "uas")) {
		if (!strchr(arg, ':')) {
			ret = fix_usb_id_of_block(ctx->sr, arg, &id, &found);
			if (ret) {
				log_error("fix: cannot find the USB id of '%s': %s", arg,
					  found.why);
				return EXIT_FAIL;
			}
		}
		idp = &id;
		ret = fix_plan_uas(ctx->sr, id, &plan);
		for (size_t i = found.n; i-- > 0;)
			fix_note_first(&plan.msgs, found.note[i]);
	} else if (!strcmp(what, "pcie-gen")) {
		ret = fix_plan_pcie_gen(ctx->sr, arg[0] - '0', &plan);
	} else {
		ret = fix_plan_undo(ctx->sr, &plan);
	}
	if (ret) {
		ret = fail(&plan, ret);
		goto out;
	}
	str_fmt(la, sizeof(la), "a%s", plan.file.path);
	str_fmt(lb, sizeof(lb), "b%s", plan.file.path);
	ret = diff_unified(sbuf_str(&plan.file.data), plan.file.data.len, sbuf_str(&plan.after),
			   plan.after.len, la, lb, &diff);
	if (ret) {
		log_error("fix: cannot show the change: %s", strerror(-ret));
		ret = EXIT_FAIL;
		goto out;
	}
	/* the file's own bytes are shown, not written: escapes in them must not reach the
	 * terminal, and the JSON must stay UTF-8 */
	if (diff.buf)
		str_sanitize_text(diff.buf, diff.len);
	if (o.apply) {
		ret = fix_plan_apply(ctx->sr, &plan);
		if (ret) {
			ret = fail(&plan, ret);
			goto out;
		}
	}
	if (o.now) {
		struct fix_msgs m = { 0 };

		now.asked = true;
		now.ok = !fix_quirks_now(ctx->sr, id, o.apply, now.before, now.after,
					 sizeof(now.before), &now.changed, &m);
		str_copy(now.why, sizeof(now.why), m.why);
	}
	if (!o.no_save && plan.changed)
		record_fix(ctx, &plan, &o, arg, idp, &now, &rec);
	if (ctx->json) {
		ret = emit_json(&plan, &o, &diff, idp, &now, &rec);
	} else {
		emit_text(&plan, &o, &diff, &now);
		emit_record(&plan, &o, &rec);
		ret = EXIT_OK;
	}
	if (now.asked && !now.ok && o.apply)
		ret = EXIT_FAIL;
out:
	sbuf_release(&diff);
	fix_plan_release(&plan);
	return ret;
}
