/* cmd-clone.c - `sbcdisk clone [SOURCE] TARGET [--apply]`: options, the plan table and its
 * JSON, the progress line and signals; the work is in clone/. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "bench/profile.h"
#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "report/text.h"
#include "clone/clone.h"
#include "common/json.h"
#include "common/log.h"
#include "common/util.h"
#include "probe/probe.h"
#include "report/list.h"

static volatile sig_atomic_t clone_signal;

static void on_signal(int sig)
{
	clone_signal = sig;
}

static void progress_line(void *arg, const struct clone_progress *p)
{
	cli_progress_show(arg, p->phase, p->done, p->total, p->bw, p->left_s);
}

static struct clone_opts co;
static const char *opt_db;

static int opt_root_size(const char *cmd, void *value, const char *arg)
{
	struct clone_opts *o = value;

	if (bench_parse_size(arg, &o->root_size) || o->root_size < (16ULL << 20))
		return cli_usage_error(cmd, "bad size '%s': e.g. 32g (16m at least)", arg);
	o->has_root_size = true;
	return 0;
}

static int opt_verify(const char *cmd, void *value, const char *arg)
{
	struct clone_opts *o = value;

	if (!strcmp(arg, "full"))
		o->verify_full = true;
	else if (strcmp(arg, "sample"))
		return cli_usage_error(cmd, "bad --verify '%s': full or sample", arg);
	return 0;
}

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &co.apply, "do it (the table is written last; a stop wipes it)"),
	OPT_CALLBACK(0, "root-size", "SIZE", &co, opt_root_size,
		     "the root partition's size (e.g. 32g), not the rest of the disk"),
	OPT_CALLBACK(0, "verify", "full|sample", &co, opt_verify,
		     "compare every file's content, or a sample (default)"),
	OPT_BOOL(0, "whole", &co.whole,
		 "copy every block as it is (layouts clone does not understand);\n"
		 "the copy then shares every id with the source"),
	OPT_BOOL(0, "allow-live-blocks", &co.allow_live_blocks,
		 "copy a file system mounted read-write block by block anyway"),
	OPT_DB(&opt_db, "the result database whose last bench of each disk gives the\n"
	       "expected time (without one the source's read is measured)"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(cmd, "which target? e.g. 'sbcdisk clone sda' or "
				       "'sbcdisk clone / backup.img'");
	if (argc == 2) {
		co.target = argv[1];
	} else if (argc == 3) {
		co.source = strcmp(argv[1], "/") ? argv[1] : NULL;
		co.target = argv[2];
	} else {
		return cli_usage_error(cmd, "one source and one target only, not '%s'", argv[3]);
	}
	if (co.whole && co.has_root_size)
		return cli_usage_error(cmd, "--whole copies the layout as it is: no --root-size");
	return 0;
}

static void reset(void)
{
	memset(&co, 0, sizeof(co));
	opt_db = NULL;
}

const struct cli_spec clone_spec = {
	.usage = "Usage: sbcdisk clone [SOURCE] TARGET [--apply] [options]\n"
		 "\nMove a system to another disk, or make a bootable image of it. SOURCE defaults\n"
		 "to the disk that holds the running root; TARGET is a whole disk (sda, nvme0n1,\n"
		 "/dev/loop3) or an image file (created when it does not exist, and removed again\n"
		 "if the clone fails). Without --apply nothing is written: the plan is shown.\n"
		 "\nThe target gets the source's partition table (GPT when it is over 2 TiB), a new\n"
		 "disk id and partition ids, new file system UUIDs; ext2/3/4 is copied by its used\n"
		 "blocks and grown to fill the disk; root= in cmdline.txt and /etc/fstab are\n"
		 "rewritten to the new ids on the target. The source is only read.\n",
	.options = options,
	.help_col = 23,
	.after = "\nExit status: 0 done (or the plan shown), 1 failure or a failed check, 2 usage.\n"
		 "With the global --json: one JSON document (schema 1), and no progress line.\n",
	.args_max = -1,
	.check = check,
	.reset = reset,
};

/* The fastest sequential test (fio's rw "read" or "write") of a run, bytes/s. */
static bool run_seq_bw(const struct run *r, const char *rw, double *bw)
{
	bool found = false;

	for (size_t i = 0; i < r->ntests; i++) {
		const struct run_test *t = &r->tests[i];

		if (strcmp(t->rw, rw) || !isfinite(t->bw) || t->bw <= 0)
			continue;
		if (!found || t->bw > *bw)
			*bw = t->bw;
		found = true;
	}
	return found;
}

/* The last stored bench of a disk (by kernel name), its sequential rw speed. */
static bool disk_stored_bw(struct store *st, const struct inventory *inv, const char *kname,
			   const char *rw, double *bw, char *at, size_t atcap)
{
	const struct blkdev *d = kname[0] ? probe_inventory_find(inv, kname) : NULL;
	struct json_object *dev = d ? list_device_to_json(d) : NULL;
	struct run *r = NULL;
	bool ok = false;

	if (dev && store_run_latest_of(st, dev, &r) == 0 && r && run_seq_bw(r, rw, bw)) {
		str_copy(at, atcap, r->started_at);
		ok = true;
	}
	run_free(r);
	json_object_put(dev);
	return ok;
}

/* The source's read and the target's write speed from their last stored benches. Nothing
 * stored (or no store) is no error: the estimate measures the source instead. */
static void speeds_stored(const char *db, struct clone_plan *p)
{
	struct clone_speed *s = &p->speed;
	struct store *st = NULL;

	if ((!p->src_disk[0] && !p->dst_disk[0]) || !p->inv)
		return;
	if (cli_store_open("clone", db, STORE_READ, true, &st))
		return;
	if (disk_stored_bw(st, p->inv, p->src_disk, "read", &s->read_bps, s->read_at,
			   sizeof(s->read_at))) {
		s->has_read = true;
		str_copy(s->read_from, sizeof(s->read_from), "stored");
	}
	if (disk_stored_bw(st, p->inv, p->dst_disk, "write", &s->write_bps, s->write_at,
			   sizeof(s->write_at))) {
		s->has_write = true;
		str_copy(s->write_from, sizeof(s->write_from), "stored");
	}
	store_close(st);
}

/* "about 3 min 20 s (source read 42 MB/s, measured now over 84 MiB; target write speed
 * unknown: no stored bench)" */
static void print_estimate(const struct clone_plan *p, FILE *f)
{
	const struct clone_speed *s = &p->speed;
	char t[32], a[32];
	unsigned long long secs;

	if (!s->has_time) {
		fprintf(f, "expected time: unknown (no stored bench of the source, and it could not "
			"be read now)\n");
		return;
	}
	secs = (unsigned long long)(s->time_s + 0.5);
	if (secs >= 60)
		str_fmt(t, sizeof(t), "%llu min %llu s", secs / 60, secs % 60);
	else if (s->time_s >= 1)
		str_fmt(t, sizeof(t), "%llu s", secs);
	else
		str_copy(t, sizeof(t), "a second or less");
	fprintf(f, "expected time: about %s (source read %.0f MB/s, ", t, s->read_bps / 1e6);
	if (!strcmp(s->read_from, "stored")) {
		fprintf(f, "its bench of %s", s->read_at);
	} else {
		size_to_human(s->measured_bytes, a, sizeof(a));
		fprintf(f, "measured now over %s", a);
	}
	if (s->has_write)
		fprintf(f, "; target write %.0f MB/s, its bench of %s)\n", s->write_bps / 1e6,
			s->write_at);
	else
		fprintf(f, "; target write speed unknown: no stored bench of it, so this assumes "
			"it keeps up)\n");
}

static const char *state_name(enum clone_check_state s)
{
	return s == CLONE_CHECK_PASS ? "PASS" : s == CLONE_CHECK_FAIL ? "FAIL" : "WARN";
}

/* The partitions of the plan: source, then target; on a terminal the source's columns go
 * first. */
static const struct text_col plan_cols[] = {
	{ "PART", 4, false, 1, 0 },   { "FS", 6, false, 2, 0 },     { "LABEL", 12, false, 6, 6 },
	{ "USED", 8, true, 5, 0 },    { "START", 8, true, 9, 0 },   { "SIZE", 8, true, 8, 0 },
	{ " ->", 4, false, 8, 0 },    { "START", 8, true, 10, 0 },  { "SIZE", 8, true, 3, 0 },
	{ " COPY", 13, false, 4, 0 }, { "NEW ID", 48, false, 7, 12 },
};

static void print_table(const struct clone_plan *p, FILE *f)
{
	char a[32], b[32], c[32], d[32], e[32], part[16], copy[32], label[16], ids[160];
	struct text_table t;
	size_t i;

	size_to_human(p->src_size, a, sizeof(a));
	size_to_human(p->dst_size, b, sizeof(b));
	if (p->whole) {
		fprintf(f, "source  %s  %s\ntarget  %s  %s%s\ncopy    every block as it is "
			"(--whole); the copy shares every id with the source\n", p->src_path, a,
			p->dst_path, b, p->dst_exists ? "" : " (new image file)");
	} else {
		fprintf(f, "source  %s  %s  %s %s\n", p->src_path, a, p->src_label, p->src_id);
		fprintf(f, "target  %s  %s  %s %s (new)%s\n\n", p->dst_path, b, p->dst_label,
			p->dst_id, p->dst_exists ? "" : "  (new image file)");
		text_table_init(&t, plan_cols, ARRAY_SIZE(plan_cols), 1);
		text_table_header(&t, f);
		for (i = 0; i < p->n_parts; i++) {
			const struct clone_part *cp = &p->parts[i];

			if (cp->has_used)
				size_to_human(cp->used, a, sizeof(a));
			else
				str_copy(a, sizeof(a), "-");
			size_to_human(cp->start, b, sizeof(b));
			size_to_human(cp->size, c, sizeof(c));
			size_to_human(cp->t_start, d, sizeof(d));
			size_to_human(cp->t_size, e, sizeof(e));
			str_fmt(part, sizeof(part), "p%u", cp->partno);
			str_fmt(copy, sizeof(copy), " %s", clone_method_name(cp->method));
			str_fmt(ids, sizeof(ids), "%s%s%s", cp->t_partuuid, cp->t_uuid[0] ? " " : "",
				cp->t_uuid);
			{
				const char *cells[] = { part, cp->fstype[0] ? cp->fstype : "-",
							label, a, b, c, " ->", d, e, copy, ids };

				/* the label was cut at 12 without a mark before the columns fitted */
				str_fmt(label, 13, "%s", cp->label[0] ? cp->label : "-");
				text_table_row(&t, f, cells);
			}
		}
	}
	if (p->n_rewrites) {
		fprintf(f, "\nrewritten on the target:\n");
		for (i = 0; i < p->n_rewrites; i++) {
			const struct clone_rewrite *r = &p->rewrites[i];

			fprintf(f, "  %s:%u%s\n    - %s\n    + %s\n", r->file, r->line,
				p->applied ? (r->done ? "  (done)" : "  (NOT done)") : "", r->before,
				r->after);
		}
	}
	for (i = 0; i < p->n_warnings; i++)
		fprintf(f, "warning: %s\n", p->warnings[i]);
	size_to_human(p->copy_bytes, a, sizeof(a));
	fprintf(f, "\nto copy: %s\n", a);
	if (!p->applied) {
		print_estimate(p, f);
		return;
	}
	fprintf(f, "copied in %.1f s (%.1f MB/s)\n", p->copy_s,
		p->copy_s > 0 ? (double)p->copy_bytes / p->copy_s / 1e6 : 0.0);
	if (p->has_window)
		fprintf(f, "window between the last file pass and the end: %.1f s (what changed "
			"on the source after it is not on the target)\n", p->window_s);
	if (p->n_checks)
		fprintf(f, "\nchecks:\n");
	for (i = 0; i < p->n_checks; i++) {
		fprintf(f, "  %s  %-16s %s\n", state_name(p->checks[i].state), p->checks[i].name,
			p->checks[i].detail);
		if (p->checks[i].fix[0] && p->checks[i].state != CLONE_CHECK_PASS)
			fprintf(f, "        %-16s fix: %s\n", "", p->checks[i].fix);
	}
	for (i = 0; i < p->n_diffs && i < CLONE_DIFFS_MAX; i++)
		fprintf(f, "  differs: %s\n", p->diffs[i]);
	if (p->n_diffs > CLONE_DIFFS_MAX)
		fprintf(f, "  ... and %zu more\n", p->n_diffs - CLONE_DIFFS_MAX);
}

static struct json_object *plan_json(const struct clone_plan *p)
{
	struct json_object *doc = json_object_new_object(), *src, *dst, *arr, *o;
	size_t i;

	if (!doc)
		return NULL;
	json_add_u64(doc, "schema", true, 1);
	json_add_bool(doc, "applied", true, p->applied);
	json_add_bool(doc, "whole", true, p->whole);
	src = json_object_new_object();
	json_add_str(src, "path", p->src_path);
	json_add_u64(src, "size_bytes", true, p->src_size);
	json_add_str(src, "label", p->whole ? NULL : p->src_label);
	json_add_str(src, "disk_id", p->whole ? NULL : p->src_id);
	json_object_object_add(doc, "source", src);
	dst = json_object_new_object();
	json_add_str(dst, "path", p->dst_path);
	json_add_u64(dst, "size_bytes", true, p->dst_size);
	json_add_bool(dst, "image_file", true, p->dst_is_file);
	json_add_str(dst, "label", p->whole ? NULL : p->dst_label);
	json_add_str(dst, "disk_id", p->whole ? NULL : p->dst_id);
	json_add_bool(dst, "label_changed", true, p->label_changed);
	json_object_object_add(doc, "target", dst);
	arr = json_object_new_array();
	for (i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];

		o = json_object_new_object();
		json_add_u64(o, "partno", true, cp->partno);
		json_add_str(o, "fstype", cp->fstype[0] ? cp->fstype : NULL);
		json_add_str(o, "label", cp->label[0] ? cp->label : NULL);
		json_add_str(o, "uuid", cp->uuid[0] ? cp->uuid : NULL);
		json_add_str(o, "partuuid", cp->partuuid[0] ? cp->partuuid : NULL);
		json_add_u64(o, "used_bytes", cp->has_used, cp->used);
		json_add_u64(o, "start_bytes", true, cp->start);
		json_add_u64(o, "size_bytes", true, cp->size);
		json_add_bool(o, "mounted", true, cp->mounted);
		json_add_bool(o, "root", true, (int)i == p->root);
		json_add_bool(o, "boot", true, (int)i == p->boot);
		json_add_str(o, "method", clone_method_name(cp->method));
		json_add_u64(o, "copy_bytes", true, cp->copy_bytes);
		json_add_u64(o, "target_start_bytes", true, cp->t_start);
		json_add_u64(o, "target_size_bytes", true, cp->t_size);
		json_add_str(o, "target_partuuid", cp->t_partuuid);
		json_add_str(o, "target_uuid", cp->t_uuid[0] ? cp->t_uuid : NULL);
		json_add_u64(o, "copied_bytes", p->applied, cp->copied);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "partitions", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_rewrites; i++) {
		o = json_object_new_object();
		json_add_str(o, "file", p->rewrites[i].file);
		json_add_u64(o, "line", true, p->rewrites[i].line);
		json_add_str(o, "before", p->rewrites[i].before);
		json_add_str(o, "after", p->rewrites[i].after);
		json_add_bool(o, "done", p->applied, p->rewrites[i].done);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "rewrites", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_warnings; i++)
		json_object_array_add(arr, json_object_new_string(p->warnings[i]));
	json_object_object_add(doc, "warnings", arr);
	json_add_u64(doc, "copy_bytes", true, p->copy_bytes);
	o = json_object_new_object();
	json_add_double(o, "time_s", p->speed.has_time, p->speed.time_s);
	json_add_double(o, "source_read_bw_bytes_per_s", p->speed.has_read, p->speed.read_bps);
	json_add_str(o, "source_read_from", p->speed.read_from[0] ? p->speed.read_from : NULL);
	json_add_str(o, "source_read_bench_at", p->speed.read_at[0] ? p->speed.read_at : NULL);
	json_add_u64(o, "source_read_measured_bytes", !strcmp(p->speed.read_from, "measured"),
		     p->speed.measured_bytes);
	json_add_double(o, "target_write_bw_bytes_per_s", p->speed.has_write,
			p->speed.write_bps);
	json_add_str(o, "target_write_from", p->speed.write_from[0] ? p->speed.write_from : NULL);
	json_add_str(o, "target_write_bench_at", p->speed.write_at[0] ? p->speed.write_at : NULL);
	json_object_object_add(doc, "expected", o);
	json_add_double(doc, "copy_s", p->applied, p->copy_s);
	json_add_double(doc, "window_s", p->has_window, p->window_s);
	arr = json_object_new_array();
	for (i = 0; i < p->n_checks; i++) {
		o = json_object_new_object();
		json_add_str(o, "name", p->checks[i].name);
		json_add_str(o, "state", state_name(p->checks[i].state));
		json_add_str(o, "detail", p->checks[i].detail);
		json_add_str(o, "fix", p->checks[i].fix[0] ? p->checks[i].fix : NULL);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "checks", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_diffs && i < CLONE_DIFFS_MAX; i++)
		json_object_array_add(arr, json_object_new_string(p->diffs[i]));
	json_object_object_add(doc, "differences", arr);
	json_add_u64(doc, "differences_count", p->applied, p->n_diffs);
	json_add_bool(doc, "target_wiped", true, p->wiped);
	return doc;
}

static int print_plan(struct cli_ctx *ctx, const struct clone_plan *p)
{
	struct json_object *doc;
	int ret;

	if (!ctx->json) {
		print_table(p, stdout);
		return fflush(stdout) ? -EIO : 0;
	}
	doc = plan_json(p);
	if (!doc)
		return -ENOMEM;
	ret = json_print(doc, stdout);
	json_object_put(doc);
	return ret;
}

/* What a failed clone left, after its reason: the image it made is gone; what a target the
 * user named holds. */
static const char *failed_state(const struct clone_plan *p, int ret)
{
	if (p->dst_removed)
		return "; the image it was making is removed";
	if (ret == -ENODEV) /* the target went away: its message says what it holds */
		return "";
	if (!p->dst_touched)
		return "; nothing was written to the target";
	if (!p->table_written)
		return "; the target holds no usable copy (no partition table)";
	return "; the target has its new table, but the copy was not checked";
}

int cmd_clone(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_progress ps;
	static struct clone_plan plan;
	struct clone_opts o = co;
	const char *db = opt_db;
	char why[400] = "";
	int ret, rc = EXIT_OK;
	size_t i;

	(void)argc;
	(void)argv;
	clone_signal = 0;
	cli_catch_stop_signals(on_signal);
	ret = clone_plan_make(ctx->sr, &o, &plan, why, sizeof(why));
	if (ret) {
		str_sanitize(why);
		log_error("clone: %s", why[0] ? why : strerror(-ret));
		clone_plan_release(&plan);
		return EXIT_FAIL;
	}
	if (!o.apply) {
		speeds_stored(db, &plan);
		clone_plan_estimate(&plan);
		if (print_plan(ctx, &plan))
			rc = EXIT_FAIL;
		if (!ctx->json && !ctx->quiet)
			fprintf(stdout, "dry run: nothing written; --apply to do it\n");
		clone_plan_release(&plan);
		return rc;
	}
	plan.stop = &clone_signal;
	cli_progress_init(&ps, ctx);
	plan.progress = progress_line;
	plan.progress_arg = &ps;
	ret = clone_apply(&plan, &o, why, sizeof(why));
	cli_progress_clear(&ps);
	if (ret == -EINTR || clone_signal) {
		log_error("clone: stopped by a signal; %s", plan.dst_removed ?
			  "the image it was making is removed" : plan.wiped ?
			  "the target's partition table is wiped: it holds no usable copy" :
			  "the target could not be wiped: do not boot from it");
		rc = 128 + (clone_signal ? clone_signal : SIGINT);
	} else if (ret) {
		str_sanitize(why);
		log_error("clone: %s%s", why[0] ? why : strerror(-ret), failed_state(&plan, ret));
		rc = EXIT_FAIL;
	}
	if (!ret) {
		for (i = 0; i < plan.n_checks; i++)
			if (plan.checks[i].state == CLONE_CHECK_FAIL)
				rc = EXIT_FAIL;
		if (print_plan(ctx, &plan))
			rc = EXIT_FAIL;
	}
	clone_plan_release(&plan);
	return rc;
}
