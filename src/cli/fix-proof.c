/* fix-proof.c - proof that a fix helped: what `fix --apply` wrote goes into the result store
 * with the drive it is about; the runs of that drive before and after it are compared. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "cli/cli-store.h"
#include "cli/fix-proof.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "diag/diag.h"
#include "probe/probe.h"
#include "report/list.h"

#define SUMMARY_MAX 1024

bool fix_proof_store_wanted(const struct cli_ctx *ctx, const char *db)
{
	return db || !ctx->sysroot_dir;
}

/* This boot's id ("" when unknown): a run in the boot a fix was written in ran without it. */
static void boot_id_read(struct cli_ctx *ctx, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (!ctx->sr || sysroot_read_str(ctx->sr, PATH_PROC_BOOT_ID, buf, cap) < 0)
		buf[0] = '\0';
	str_sanitize(buf);
}

/* The disk the fix is about: the one named, else the first disk on that USB id, else (PCIe)
 * the first NVMe disk. NULL when the inventory shows none. */
static struct blkdev *fix_disk(const struct inventory *inv, const struct fix_proof_what *w)
{
	size_t i;

	if (!inv)
		return NULL;
	if (w->disk) {
		const char *name = w->disk;
		struct blkdev *d;

		if (!strncmp(name, PATH_DEV_PREFIX, strlen(PATH_DEV_PREFIX)))
			name += strlen(PATH_DEV_PREFIX);
		d = probe_inventory_find(inv, name);
		return d ? probe_blkdev_whole(d) : NULL;
	}
	for (i = 0; i < inv->n_top; i++) {
		struct blkdev *d = inv->top[i];

		if (w->id && d->usb && d->usb->has_ids && d->usb->vid_num == w->id->vid &&
		    d->usb->pid_num == w->id->pid)
			return d;
		if (!w->id && !strcmp(w->kind, "pcie-gen") && d->transport == PROBE_TRAN_NVME)
			return d;
	}
	return NULL;
}

static void device_label(const struct store_fix *f, char *buf, size_t cap)
{
	const char *name = f->dev_name[0] ? f->dev_name : f->usb_id[0] ? f->usb_id : NULL;

	if (name && f->dev_model[0])
		str_fmt(buf, cap, "%s (%s)", name, f->dev_model);
	else
		str_copy(buf, cap, name ? name : f->dev_model[0] ? f->dev_model : "the drive");
}

/* The UAS resets of f's drive in the kernel log of dr; -1 when unknown. */
static long uas_resets_of(struct doctor_run *dr, const struct store_fix *f)
{
	struct usb_id id = { 0 };
	unsigned long n = 0;
	int ret;

	if (!dr || !dr->log || !dr->src.log_name)
		return -1;
	if (f->usb_id[0] && usbq_id_parse(f->usb_id, &id))
		return -1;
	ret = diag_log_uas_resets(dr->log, id.vid, id.pid, f->dev_name, &n);
	return ret && ret != -ENOENT ? -1 : (long)n;
}

/* The newest fix of the same boot file that was not an undo: the drive an undo is about. */
static void undo_device(struct store *st, const char *file, struct store_fix *f)
{
	struct store_fix *v = NULL;
	size_t i, n = 0;

	if (store_fixes_query(st, NULL, 0, &v, &n))
		return;
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].file, file))
			continue;
		if (!strcmp(v[i].kind, "undo"))
			continue;
		str_copy(f->dev_name, sizeof(f->dev_name), v[i].dev_name);
		str_copy(f->dev_model, sizeof(f->dev_model), v[i].dev_model);
		str_copy(f->dev_serial, sizeof(f->dev_serial), v[i].dev_serial);
		str_copy(f->usb_id, sizeof(f->usb_id), v[i].usb_id);
		break;
	}
	free(v);
}

int fix_proof_record(struct cli_ctx *ctx, const char *db, const struct fix_proof_what *w,
		     bool apply, struct fix_proof_note *n)
{
	struct store_fix f = { .uas_resets = -1 };
	struct json_object *dev = NULL;
	struct doctor_run dr = { 0 };
	struct store *st = NULL;
	struct blkdev *d;
	int ret;

	memset(n, 0, sizeof(*n));
	if (!fix_proof_store_wanted(ctx, db))
		return 0;
	n->store_used = true;
	str_copy(f.kind, sizeof(f.kind), w->kind);
	str_copy(f.change, sizeof(f.change), w->change);
	str_copy(f.file, sizeof(f.file), w->file);
	f.runtime = w->runtime;
	if (w->id)
		str_fmt(f.usb_id, sizeof(f.usb_id), "%04x:%04x", w->id->vid, w->id->pid);
	if (doctor_run_collect(ctx, "fix", NULL, &dr) != EXIT_OK)
		log_debug("fix: no inventory or kernel log: the drive may be unknown");
	d = fix_disk(dr.probe_inv, w);
	if (d) {
		dev = list_device_to_json(d);
		store_fix_set_device(&f, dev);
		json_object_put(dev);
	}
	ret = cli_store_open(apply ? "fix: the fix was not recorded" : "fix", db,
			     apply ? STORE_WRITE : STORE_READ, !apply, &st);
	if (ret) {
		ret = ret == -ENOENT ? 0 : ret; /* a dry run and no database: no run before */
		goto out;
	}
	if (!strcmp(w->kind, "undo"))
		undo_device(st, w->file, &f);
	f.uas_resets = uas_resets_of(&dr, &f);
	boot_id_read(ctx, f.boot_id, sizeof(f.boot_id));
	device_label(&f, n->device, sizeof(n->device));
	ret = store_fix_has_run_before(st, &f, &n->run_before);
	if (!ret && apply)
		ret = store_fix_add(st, &f);
	if (ret)
		log_error("fix: the fix was not recorded: %s", store_strerror(st));
	else
		n->fix_id = f.id;
out:
	if (!n->device[0])
		device_label(&f, n->device, sizeof(n->device));
	store_close(st);
	doctor_run_release(&dr);
	return ret;
}

static void append(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(buf);

	if (n < cap)
		str_copy(buf + n, cap - n, s);
}

/* "270", "23.4", "1.25": three figures are enough to see a change. */
static void fmt_mbps(char *buf, size_t cap, double v)
{
	str_fmt(buf, cap, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

struct proof {
	struct store_fix fix;
	struct run *before, *after;
	bool has_rebooted, rebooted; /* a boot since the fix (unknown without boot ids) */
	long resets_since;           /* -1 unknown */
	char summary[SUMMARY_MAX];
};

static double test_mbps(const struct run_test *t)
{
	return isfinite(t->bw) ? t->bw / 1e6 : NAN;
}

/* "RND4K Q32T1 read 23.0 → 270 MB/s; ...; UAS resets: 14 before, 0 since" */
static void proof_summary(struct proof *p)
{
	char a[32], b[32], part[256];
	size_t i;

	p->summary[0] = '\0';
	for (i = 0; p->before && p->after && i < p->after->ntests; i++) {
		const struct run_test *ta = &p->after->tests[i], *tb;

		tb = run_test_find(p->before, ta->name, run_test_dir(ta));
		if (!tb || !isfinite(test_mbps(ta)) || !isfinite(test_mbps(tb)))
			continue;
		fmt_mbps(b, sizeof(b), test_mbps(tb));
		fmt_mbps(a, sizeof(a), test_mbps(ta));
		str_fmt(part, sizeof(part), "%s%s %s %s → %s MB/s", p->summary[0] ? "; " : "",
			ta->name, run_test_dir(ta), b, a);
		append(p->summary, sizeof(p->summary), part);
	}
	if (p->fix.uas_resets >= 0 || p->resets_since >= 0) {
		char x[24] = "unknown", y[24] = "unknown";

		if (p->fix.uas_resets >= 0)
			str_fmt(x, sizeof(x), "%ld", p->fix.uas_resets);
		if (p->resets_since >= 0)
			str_fmt(y, sizeof(y), "%ld", p->resets_since);
		str_fmt(part, sizeof(part), "%sUAS resets: %s before, %s since",
			p->summary[0] ? "; " : "", x, y);
		append(p->summary, sizeof(p->summary), part);
	}
}

/* Load the runs around p->fix and what the kernel log says now. */
static int proof_build(struct cli_ctx *ctx, struct store *st, const char *profile,
		       struct doctor_run *dr, struct proof *p)
{
	char boot[40];
	int ret;

	ret = store_fix_runs(st, &p->fix, profile, &p->before, &p->after);
	if (ret && ret != -ENOENT)
		return ret;
	boot_id_read(ctx, boot, sizeof(boot));
	p->has_rebooted = boot[0] && p->fix.boot_id[0];
	p->rebooted = p->has_rebooted && strcmp(boot, p->fix.boot_id);
	p->resets_since = -1;
	/* the log of this boot tells "since" only once the fix is in effect */
	if (p->rebooted || p->fix.runtime)
		p->resets_since = uas_resets_of(dr, &p->fix);
	if (strcmp(p->fix.kind, "uas") && !p->fix.usb_id[0])
		p->fix.uas_resets = p->resets_since = -1;
	proof_summary(p);
	return 0;
}

static void proof_release(struct proof *p)
{
	run_free(p->before);
	run_free(p->after);
}

/* The summary, one change a line. */
static void proof_lines(const struct proof *p)
{
	const char *s = p->summary, *e;

	if (!*s) {
		fputs("  no figure was measured in both runs\n", stdout);
		return;
	}
	for (; *s; s = *e ? e + 2 : e) {
		e = strstr(s, "; ");
		if (!e)
			e = s + strlen(s);
		printf("  %.*s\n", (int)(e - s), s);
	}
}

static void fix_title(const struct store_fix *f, char *buf, size_t cap)
{
	char dev[160];

	device_label(f, dev, sizeof(dev));
	str_fmt(buf, cap, "fix %s (%s) on %s, %.10s %.5s UTC", f->kind, f->change, dev,
		f->applied_at, f->applied_at + 11);
}

void fix_proof_after_bench(struct cli_ctx *ctx, struct store *st, int64_t run_id,
			   const char *profile, struct doctor_run *dr)
{
	struct proof p = { 0 };
	char title[600], line[1024];

	if (store_fix_before_run(st, run_id, &p.fix))
		return;
	fix_title(&p.fix, title, sizeof(title));
	if (proof_build(ctx, st, profile, dr, &p))
		goto out;
	if (p.has_rebooted && !p.rebooted && !p.fix.runtime) {
		str_fmt(line, sizeof(line), "This run is from the boot in which %s was written: it "
			"takes effect after the reboot, and the first bench then shows what changed.",
			title);
		putchar('\n');
		cli_wrap_print("", "", line);
		goto out;
	}
	/* only the first run after the fix with this profile says it; fix verify says it again */
	if (!p.after || p.after->id != run_id)
		goto out;
	if (!p.before) {
		str_fmt(line, sizeof(line), "Since %s: no run with profile '%s' is stored from "
			"before it, so there is nothing to compare with.", title, p.after->profile);
		putchar('\n');
		cli_wrap_print("", "", line);
		goto out;
	}
	str_fmt(line, sizeof(line), "Since %s (run #%lld before it, #%lld now, profile %s):", title,
		(long long)p.before->id, (long long)run_id, p.after->profile);
	putchar('\n');
	cli_wrap_print("", "", line);
	proof_lines(&p);
out:
	proof_release(&p);
}

static struct json_object *run_ref(const struct run *r)
{
	struct json_object *o;

	if (!r)
		return NULL;
	o = json_object_new_object();
	json_add_i64(o, "id", true, r->id);
	json_add_str(o, "started_at", r->started_at);
	json_add_str(o, "profile", r->profile);
	return o;
}

struct json_object *fix_proof_fix_json(const struct store_fix *f)
{
	struct json_object *fx = json_object_new_object(), *dev = json_object_new_object();

	json_add_i64(fx, "id", true, f->id);
	json_add_str(fx, "applied_at", f->applied_at);
	json_add_str(fx, "kind", f->kind);
	json_add_str(fx, "change", f->change);
	json_add_str(fx, "file", f->file);
	json_add_bool(fx, "runtime", true, f->runtime);
	json_add_str(dev, "name", f->dev_name[0] ? f->dev_name : NULL);
	json_add_str(dev, "model", f->dev_model[0] ? f->dev_model : NULL);
	json_add_str(dev, "serial", f->dev_serial[0] ? f->dev_serial : NULL);
	json_add_str(dev, "usb_id", f->usb_id[0] ? f->usb_id : NULL);
	json_object_object_add(fx, "device", dev);
	json_add_i64(fx, "uas_resets", f->uas_resets >= 0, f->uas_resets);
	return fx;
}

static struct json_object *proof_json(const struct proof *p)
{
	struct json_object *root = json_object_new_object(), *fx = fix_proof_fix_json(&p->fix);
	struct json_object *tests = json_object_new_array(), *res = json_object_new_object();
	size_t i;

	json_add_u64(root, "schema", true, 1);
	json_object_object_add(root, "fix", fx);
	json_add_bool(root, "rebooted", p->has_rebooted, p->rebooted);
	json_object_object_add(root, "run_before", run_ref(p->before));
	json_object_object_add(root, "run_after", run_ref(p->after));
	for (i = 0; p->before && p->after && i < p->after->ntests; i++) {
		const struct run_test *ta = &p->after->tests[i];
		const struct run_test *tb = run_test_find(p->before, ta->name, run_test_dir(ta));
		struct json_object *t;

		if (!tb || (!isfinite(tb->bw) && !isfinite(ta->bw)))
			continue;
		t = json_object_new_object();
		json_add_str(t, "test", ta->name);
		json_add_str(t, "rw", run_test_dir(ta));
		json_add_double(t, "before_bw_bytes_per_s", isfinite(tb->bw), tb->bw);
		json_add_double(t, "after_bw_bytes_per_s", isfinite(ta->bw), ta->bw);
		json_add_double(t, "ratio", isfinite(tb->bw) && isfinite(ta->bw) && tb->bw > 0,
				isfinite(tb->bw) && tb->bw > 0 ? ta->bw / tb->bw : 0);
		json_object_array_add(tests, t);
	}
	json_object_object_add(root, "tests", tests);
	json_add_i64(res, "before", p->fix.uas_resets >= 0, p->fix.uas_resets);
	json_add_i64(res, "since", p->resets_since >= 0, p->resets_since);
	json_object_object_add(root, "uas_resets", res);
	json_add_str(root, "summary", p->summary[0] ? p->summary : NULL);
	return root;
}

static void proof_text(const struct proof *p)
{
	char title[600], dev[160];

	fix_title(&p->fix, title, sizeof(title));
	device_label(&p->fix, dev, sizeof(dev));
	log_line(stdout, "Fix #%lld: %s", (long long)p->fix.id, title);
	if (p->before)
		log_line(stdout, "  before: run #%lld, %.10s %.5s, profile %s", (long long)p->before->id,
			 p->before->started_at, p->before->started_at + 11, p->before->profile);
	else
		log_line(stdout, "  before: no run of %s is stored from before the fix", dev);
	if (p->after)
		log_line(stdout, "  after:  run #%lld, %.10s %.5s, profile %s", (long long)p->after->id,
			 p->after->started_at, p->after->started_at + 11, p->after->profile);
	else if (p->has_rebooted && !p->rebooted && !p->fix.runtime)
		log_line(stdout, "  after:  not yet: the fix takes effect after the reboot; then run "
			 "'sbcdisk bench' on %s", dev);
	else
		log_line(stdout, "  after:  no run yet: run 'sbcdisk bench' on %s%s%s", dev,
			 p->before ? " with --profile " : "", p->before ? p->before->profile : "");
	if (p->before && p->after)
		proof_lines(p);
	else if (p->summary[0])
		log_line(stdout, "  %s", p->summary);
	if (!p->before)
		log_line(stdout, "  Next time, run 'sbcdisk bench' on the drive before 'fix ... "
			 "--apply', so that there is something to compare with.");
}

int fix_proof_report(struct cli_ctx *ctx, const char *db, const struct store_filter *sf,
		     const char *profile)
{
	struct store_filter f = *sf;
	struct store_fix *fixes = NULL;
	struct doctor_run dr = { 0 };
	struct proof p = { 0 };
	struct store *st = NULL;
	size_t n = 0;
	int ret;

	if (cli_store_open("fix", db, STORE_READ, false, &st))
		return EXIT_FAIL;
	ret = store_fixes_query(st, f.device, 1, &fixes, &n);
	if (ret) {
		ret = cli_store_error("fix", st);
		goto out;
	}
	if (!n) {
		log_error("fix: no fix is recorded%s%s%s", f.device ? " for '" : "",
			  f.device ? f.device : "", f.device ? "'" : "");
		ret = EXIT_FAIL;
		goto out;
	}
	p.fix = fixes[0];
	if (doctor_run_collect(ctx, "fix", NULL, &dr) != EXIT_OK)
		log_debug("fix: no kernel log: the resets since are unknown");
	if (proof_build(ctx, st, profile, &dr, &p)) {
		ret = cli_store_error("fix", st);
		goto out;
	}
	if (ctx->json) {
		struct json_object *o = proof_json(&p);

		ret = json_print(o, stdout) ? EXIT_FAIL : EXIT_OK;
		json_object_put(o);
	} else {
		proof_text(&p);
		ret = EXIT_OK;
	}
out:
	proof_release(&p);
	free(fixes);
	doctor_run_release(&dr);
	store_close(st);
	return ret;
}
