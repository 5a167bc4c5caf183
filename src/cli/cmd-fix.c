/* cmd-fix.c - `sbcdisk fix uas|pcie-gen|usb-current|sd-cqe|nvme-apst|undo`: show the diff of
 * a boot file edit (dry run by default), write it with --apply, explain what happens at the
 * next boot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/fix-disk.h"
#include "cli/fix-proof.h"
#include "cli/fix-try.h"
#include "common/log.h"
#include "common/paths.h"
#include "fix/diff.h"
#include "fix/plan.h"
#include "common/json.h"
#include "common/util.h"

struct fix_opts {
	bool apply;
	bool now;
	const char *db;
	bool no_save;
	const char *disk;
	bool try_;
	bool running_root;
};

static int fail(struct fix_plan *p, int ret)
{
	log_error("fix: %s", p->msgs.why[0] ? p->msgs.why : strerror(-ret));
	return EXIT_FAIL;
}

static const char *kind_name(enum fix_kind k)
{
	return k == FIX_UAS ? "uas" : k == FIX_PCIE_GEN ? "pcie-gen" :
	       k == FIX_USB_CURRENT ? "usb-current" : k == FIX_SD_CQE ? "sd-cqe" :
	       k == FIX_NVME_APST ? "nvme-apst" : k == FIX_FSTAB ? "prepare" : "undo";
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
		     const struct fix_proof_note *rec)
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
			const struct fix_proof_note *rec)
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
		       "'sbcdisk fix undo%s%s --apply' puts it back.\n",
		       p->file.path, p->file.dir, p->backup, o->disk ? " --disk " : "",
		       o->disk ? o->disk : "");
}

/* Record an applied fix in the result store, or (dry run) look for a run to compare with. */
static void record_fix(struct cli_ctx *ctx, const struct fix_plan *p, const struct fix_opts *o,
		       const char *arg, const struct usb_id *id, const struct now_result *now,
		       struct fix_proof_note *rec)
{
	struct fix_proof_what w = { .kind = kind_name(p->kind), .file = p->file.path, .id = id };
	char change[320];

	if (p->kind == FIX_UAS) {
		str_fmt(change, sizeof(change), "usb-storage.quirks += %04x:%04x:u", id->vid,
			id->pid);
		if (!strchr(arg, ':'))
			w.disk = arg;
	} else if (p->kind == FIX_PCIE_GEN) {
		str_fmt(change, sizeof(change), "dtparam=pciex1_gen=%s", arg);
	} else if (p->kind == FIX_USB_CURRENT) {
		str_copy(change, sizeof(change), "usb_max_current_enable=1");
	} else if (p->kind == FIX_SD_CQE) {
		str_copy(change, sizeof(change), "dtparam=sd_cqe=off");
	} else if (p->kind == FIX_NVME_APST) {
		str_copy(change, sizeof(change), "nvme_core.default_ps_max_latency_us=0");
	} else {
		str_fmt(change, sizeof(change), "restored %s", p->restore_from);
	}
	w.change = change;
	w.runtime = now->asked && now->ok && o->apply;
	fix_proof_record(ctx, o->db, &w, o->apply, rec);
}

static struct store_filter filter;
static struct fix_opts fo;
static struct {
	bool help;
	const char *profile;
	struct cli_filter runs;
	unsigned given; /* the entries of options[] given */
} opt = { .runs = { &filter, 1 } };

/* the entries of options[]: which subcommand takes which */
enum { O_APPLY, O_NOW, O_DB, O_NO_SAVE, O_DEVICE, O_PROFILE, O_LAST, O_DISK, O_TRY, O_ROOT, O_HELP };

static const struct cli_option options[] = {
	[O_APPLY] = OPT_BOOL(0, "apply", &fo.apply,
		"write the change: a temporary file beside the original, fsync, rename,\n"
		"fsync of the directory; the original is kept as NAME.sbcdisk-YYYYmmdd-HHMMSS"),
	[O_NOW] = OPT_BOOL(0, "now", &fo.now,
		"(uas) also write the running kernel's usb-storage quirks list; re-plug the\n"
		"drive afterwards"),
	[O_DB] = OPT_DB(&fo.db,
		"the result database the fix is recorded in (default: as bench; with\n"
		"--sysroot only when given)"),
	[O_NO_SAVE] = OPT_BOOL(0, "no-save", &fo.no_save, "do not record the fix"),
	[O_DEVICE] = OPT_DEVICE(&opt.runs,
		"(verify) the drive: its name, model, serial or VID:PID has TEXT"),
	[O_PROFILE] = OPT_STRING(0, "profile", "NAME", &opt.profile,
				 "(verify) the profile of the runs to compare"),
	[O_LAST] = OPT_LAST(&opt.runs, NULL),
	[O_DISK] = OPT_STRING(0, "disk", "DISK", &fo.disk,
		"edit the boot files of DISK (a disk that is not mounted, such as the\n"
		"drive about to boot, or an image file) instead of the running system's"),
	[O_TRY] = OPT_BOOL(0, "try", &fo.try_,
		"(uas) the experiment: a quick bench on each driver, both stored and\n"
		"compared, the device put back (the plan only without --now; --apply\n"
		"writes the winner)"),
	[O_ROOT] = OPT_BOOL(0, "running-root", &fo.running_root,
		"(--try) allow the experiment on the disk of the running root"),
	[O_HELP] = OPT_BOOL('h', "help", &opt.help, NULL),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv);

const struct cli_spec fix_spec = {
	.usage = "Usage: sbcdisk fix uas DEVICE|VID:PID [--disk DISK] [--apply] [--now]\n"
		 "       sbcdisk fix uas DEVICE --try [--now] [--apply] [--running-root]\n"
		 "       sbcdisk fix pcie-gen 2|3 [--disk DISK] [--apply]\n"
		 "       sbcdisk fix usb-current [--disk DISK] [--apply]\n"
		 "       sbcdisk fix sd-cqe [--apply]\n"
		 "       sbcdisk fix nvme-apst [--apply]\n"
		 "       sbcdisk fix undo [--disk DISK] [--apply]\n"
		 "       sbcdisk fix verify [--device TEXT] [--profile NAME]\n"
		 "\n"
		 "Edit the Raspberry Pi boot configuration safely. Without --apply nothing is\n"
		 "written: the diff and what happens at the next boot are shown.\n"
		 "\n"
		 "  uas       add VID:PID:u to usb-storage.quirks= in cmdline.txt, so that\n"
		 "            usb-storage drives the device instead of uas (DEVICE such as sda\n"
		 "            is looked up in sysfs)\n"
		 "  pcie-gen  set dtparam=pciex1_gen=N for the Raspberry Pi 5 in config.txt\n"
		 "  usb-current  set usb_max_current_enable=1 for the Raspberry Pi 5 in\n"
		 "            config.txt: the USB ports may draw 1600 mA on a supply that did\n"
		 "            not offer 5 A (only for a supply that delivers 5 A)\n"
		 "  sd-cqe    set dtparam=sd_cqe=off for the Raspberry Pi 5 in config.txt: no\n"
		 "            command queueing on the SD card ('running CQE recovery')\n"
		 "  nvme-apst add nvme_core.default_ps_max_latency_us=0 to cmdline.txt: the\n"
		 "            kernel leaves NVMe power-saving states (APST) off\n"
		 "  undo      put back the newest backup made by a fix (and remove that backup)\n"
		 "  verify    the runs of the fixed drive before and after the newest fix,\n"
		 "            compared\n",
	.options_title = "\n",
	.options = options,
	.help_col = 12,
	.after = "\n"
		 "The files are found as the firmware finds them: /boot/firmware when it holds\n"
		 "config.txt, else /boot; os_prefix and cmdline= from config.txt (or the device\n"
		 "tree) apply.\n",
	.args_max = -1,
	.check = check,
	.given = &opt.given,
};

/* fix uas: the plan for the device's USB id (*id, looked up in sysfs for a DEVICE) */
static int plan_uas(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
		    struct fix_plan *plan)
{
	struct fix_msgs found = { 0 };
	int ret;

	if (!strchr(arg, ':')) {
		ret = fix_usb_id_of_block(ctx->sr, arg, id, &found);
		if (ret) {
			log_error("fix: cannot find the USB id of '%s': %s", arg, found.why);
			return EXIT_FAIL;
		}
	}
	ret = fix_plan_uas(ctx->sr, *id, plan);
	for (size_t i = found.n; i-- > 0;)
		fix_note_first(&plan->msgs, found.note[i]);
	return ret;
}

static int plan_pcie_gen(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
			 struct fix_plan *plan)
{
	(void)id;
	return fix_plan_pcie_gen(ctx->sr, arg[0] - '0', plan);
}

static int plan_usb_current(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
			    struct fix_plan *plan)
{
	(void)arg;
	(void)id;
	return fix_plan_usb_current(ctx->sr, plan);
}

static int plan_sd_cqe(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
		       struct fix_plan *plan)
{
	(void)arg;
	(void)id;
	return fix_plan_sd_cqe(ctx->sr, plan);
}

static int plan_nvme_apst(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
			  struct fix_plan *plan)
{
	(void)arg;
	(void)id;
	return fix_plan_nvme_apst(ctx->sr, plan);
}

static int plan_undo(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
		     struct fix_plan *plan)
{
	(void)arg;
	(void)id;
	return fix_plan_undo(ctx->sr, plan);
}

/* --disk: the plan of the same fix on the named disk's own boot partition (fix/files.h). */
static int plan_on_disk(struct cli_ctx *ctx, enum fix_kind kind, const char *arg,
			struct usb_id *id, struct fix_plan *plan, struct fix_disk **out)
{
	struct inventory *inv = NULL;
	struct fix_disk *d = calloc(1, sizeof(*d));
	struct fix_msgs found = { 0 };
	int ret;

	*plan = (struct fix_plan){ 0 };
	if (!d) {
		log_error("fix: out of memory");
		return EXIT_FAIL;
	}
	*out = d;
	if (kind == FIX_UAS && !strchr(arg, ':')) {
		ret = fix_usb_id_of_block(ctx->sr, arg, id, &found);
		if (ret) {
			log_error("fix: cannot find the USB id of '%s': %s", arg, found.why);
			return EXIT_FAIL;
		}
	}
	ret = probe_inventory_load(ctx->sr, &inv);
	if (ret && ret != -ENOENT) {
		log_error("fix: cannot read the block devices: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	ret = fix_disk_open(ctx->sr, inv, "fix", fo.disk, d);
	probe_inventory_free(inv);
	if (ret)
		return ret;
	ret = fix_files_plan(&d->files, kind, *id, kind == FIX_PCIE_GEN ? arg[0] - '0' : 0, plan);
	for (size_t i = found.n; i-- > 0;)
		fix_note_first(&plan->msgs, found.note[i]);
	return ret;
}

#define O(x) (1u << (x))
#define O_EDIT (O(O_APPLY) | O(O_DB) | O(O_NO_SAVE) | O(O_DISK))

/* The fixes: the operand each needs (nargs 0 or 1), the entries of options[] each takes,
 * and its plan (-errno, or an exit code after a message); verify has its own run. */
static const struct fix_sub {
	const char *name;
	int nargs;
	const char *needs;
	unsigned opts;
	int (*plan)(struct cli_ctx *ctx, const char *arg, struct usb_id *id,
		    struct fix_plan *plan);
} fix_subs[] = {
	{ "uas", 1, "a DEVICE or VID:PID", O_EDIT | O(O_NOW) | O(O_TRY) | O(O_ROOT), plan_uas },
	{ "pcie-gen", 1, "2 or 3", O_EDIT, plan_pcie_gen },
	{ "usb-current", 0, NULL, O_EDIT, plan_usb_current },
	/* the running system's boot files only: plan_on_disk() knows the kinds above */
	{ "sd-cqe", 0, NULL, O_EDIT & ~O(O_DISK), plan_sd_cqe },
	{ "nvme-apst", 0, NULL, O_EDIT & ~O(O_DISK), plan_nvme_apst },
	{ "undo", 0, NULL, O_EDIT, plan_undo },
	{ "verify", 0, NULL, O(O_DB) | O(O_DEVICE) | O(O_PROFILE) | O(O_LAST), NULL },
	{ NULL, 0, NULL, 0, NULL },
};

static const struct fix_sub *sub;
static struct usb_id sub_id;

static int check(const char *cmd, int argc, char **argv)
{
	const char *arg = argc > 2 ? argv[2] : NULL;
	unsigned i;

	if (argc < 2 && !opt.help)
		return cli_usage_error(cmd, "which fix: 'uas', 'pcie-gen', 'usb-current', 'sd-cqe', "
					    "'nvme-apst' or 'undo'");
	for (sub = fix_subs; argc > 1 && sub->name && strcmp(sub->name, argv[1]); sub++)
		;
	if (argc > 1 && !sub->name)
		return cli_usage_error(cmd, "unknown fix '%s' (uas, pcie-gen, usb-current, sd-cqe, "
					    "nvme-apst, undo, verify)",
				       argv[1]);
	if (opt.help) {
		if (argc > 1 && !sub->plan)
			fputs("Usage: sbcdisk fix verify [--device TEXT] [--profile NAME] [--db PATH]\n"
			      "\nThe newest recorded fix (of the drive whose name, model, serial or\n"
			      "VID:PID has TEXT): the last run of its drive before it next to the\n"
			      "first run after it with the same profile, and the UAS resets in the\n"
			      "kernel log before the fix and since this boot.\n", stdout);
		else
			cli_spec_help(stdout, &fix_spec);
		return CLI_DONE;
	}
	for (i = 0; i < O_HELP; i++) {
		if (!(opt.given & O(i)) || (sub->opts & O(i)))
			continue;
		if (i == O_NOW || i == O_TRY)
			return cli_usage_error(cmd, "'--%s' is for 'fix uas' only",
					       options[i].long_name);
		return cli_usage_error(cmd, "unknown option '--%s'", options[i].long_name);
	}
	if (argc - 2 > sub->nargs)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2 + sub->nargs]);
	if (argc - 2 < sub->nargs)
		return cli_usage_error(cmd, "'fix %s' needs %s", sub->name, sub->needs);
	if (sub->plan == plan_uas && strchr(arg, ':') && usbq_id_parse(arg, &sub_id))
		return cli_usage_error(cmd, "'%s' is not a USB id like 152d:0578", arg);
	if (fo.running_root && !fo.try_)
		return cli_usage_error(cmd, "'--running-root' is for 'fix uas DEVICE --try'");
	if (fo.try_ && (strchr(arg, ':') || fo.disk))
		return cli_usage_error(cmd, "'--try' needs a DEVICE such as sda (a drive plugged "
					    "in now) and no --disk");
	if (sub->plan == plan_pcie_gen && strcmp(arg, "2") && strcmp(arg, "3"))
		return cli_usage_error(cmd, "PCIe generation '%s': the Raspberry Pi 5 "
					    "connector runs at 2 or 3", arg);
	return 0;
}

int cmd_fix(struct cli_ctx *ctx, int argc, char **argv)
{
	struct fix_proof_note rec = { 0 };
	struct now_result now = { 0 };
	struct fix_plan plan = { 0 };
	struct fix_disk *disk = NULL;
	struct sbuf diff = SBUF_INIT(8 * 1024 * 1024);
	struct fix_opts o = fo;
	char la[PATH_MAX + 4], lb[PATH_MAX + 4];
	struct usb_id id = sub_id, *idp = NULL;
	const char *arg = argc > 2 ? argv[2] : NULL;
	char try_id[16];
	int ret;

	if (!sub->plan)
		return fix_proof_report(ctx, o.db, &filter, opt.profile);
	if (o.try_) {
		struct fix_try_opts t = { .run = o.now || o.apply, .apply = o.apply,
					  .root_ok = o.running_root, .db = o.db };
		bool write = false;

		if (ctx->json) {
			log_error("fix: --try shows its steps as text; its runs are in 'sbcdisk "
				  "--json compare'");
			return EXIT_USAGE;
		}
		ret = fix_try_run(ctx, arg, &t, &write, &id);
		if (ret != EXIT_OK || !write)
			return ret;
		/* usb-storage won: the boot configuration as `fix uas VID:PID --apply` writes it
		 * (the disk's name may have changed on the other driver); the running kernel's
		 * list holds the entry already */
		str_fmt(try_id, sizeof(try_id), "%04x:%04x", id.vid, id.pid);
		arg = try_id;
		o.now = false;
	}
	if (o.disk)
		ret = plan_on_disk(ctx, sub->plan == plan_uas ? FIX_UAS :
					sub->plan == plan_pcie_gen ? FIX_PCIE_GEN :
					sub->plan == plan_usb_current ? FIX_USB_CURRENT : FIX_UNDO,
				   arg, &id, &plan, &disk);
	else
		ret = sub->plan(ctx, arg, &id, &plan);
	if (ret == EXIT_FAIL)
		goto out;
	if (sub->plan == plan_uas)
		idp = &id;
	if (ret) {
		ret = fail(&plan, ret);
		goto out;
	}
	/* a file of another disk is named "sda1/cmdline.txt": the labels get their slash */
	str_fmt(la, sizeof(la), "a%s%s", plan.file.path[0] == '/' ? "" : "/", plan.file.path);
	str_fmt(lb, sizeof(lb), "b%s%s", plan.file.path[0] == '/' ? "" : "/", plan.file.path);
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
		ret = disk ? fix_files_apply(&disk->files, &plan) : fix_plan_apply(ctx->sr, &plan);
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
	free(disk);
	return ret;
}
