/* health-move.c - the health check after `move --apply`: the newest stored move, where the
 * board booted from this time, whether the root is on the move's target, and the stored runs
 * and boot times of the source and the target side by side. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "cli/cli-store.h"
#include "cli/health-move.h"
#include "common/json.h"
#include "common/util.h"
#include "report/list.h"
#include "report/text.h"
#include "store/store.h"

enum move_state {
	MOVE_DONE,	/* the root is on the target */
	MOVE_NOT_TAKEN, /* the root is on the source again */
	MOVE_ELSEWHERE, /* on neither, or unknown */
	MOVE_PENDING,	/* made in this boot: the reboot that tries it is still to come */
};

struct move_view {
	struct store_move m;
	struct json_object *src, *dst; /* DEVICE objects of the drives found, or NULL */
	struct run *src_run, *dst_run; /* their newest stored runs, or NULL */
	double src_boot_s, dst_boot_s; /* mean boot time, NAN unknown */
	size_t src_boots, dst_boots;
	char root_disk[64];
	bool has_mode;
	unsigned mode;
	enum move_state state;
};

static struct store *open_store(struct cli_ctx *ctx)
{
	return cli_store_open_system(ctx);
}

/* The DEVICE object of the drive the move knew as name/model/serial: the same serial when it
 * had one (a name can change between boots), else the same name and model. */
static struct json_object *find_drive(const struct inventory *inv, const char *name,
				      const char *model, const char *serial)
{
	size_t i;

	for (i = 0; i < inv->n_top; i++) {
		struct json_object *o = list_device_to_json(inv->top[i]);
		struct store_move t = { 0 };

		store_move_set_device(&t, true, o);
		if (serial[0] ? !strcmp(t.dst_serial, serial) :
				(!strcmp(t.dst_name, name) && !strcmp(t.dst_model, model)))
			return o;
		json_object_put(o);
	}
	return NULL;
}

static void boot_mean(struct store *st, const char *name, const char *serial, double *mean,
		      size_t *boots)
{
	struct store_boot_filter f = { .device = serial[0] ? serial : name };
	struct store_boot_group *g = NULL;
	size_t n = 0;

	*mean = NAN;
	*boots = 0;
	if (!store_boot_groups(st, &f, &g, &n) && n && g[0].total.n) {
		*mean = g[0].total.mean;
		*boots = g[0].boots;
	}
	free(g);
}

static const char *kname_of(struct json_object *dev)
{
	struct json_object *v;

	return dev && json_object_object_get_ex(dev, "name", &v) ? json_object_get_string(v) : "";
}

/* Whether the move (moved_at, "2026-11-20T10:05:00Z" UTC) was made after this boot began:
 * then no reboot has tried it yet. false when either time is not known. */
static bool moved_this_boot(struct sysroot *sr, const char *moved_at)
{
	struct tm tm = { 0 };
	const char *end;
	int64_t began;

	end = strptime(moved_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end || boot_started_read(sr, &began))
		return false;
	return (int64_t)timegm(&tm) >= began;
}

/* 0, or -ENOENT when no move is stored. */
static int view_load(struct cli_ctx *ctx, const struct inventory *inv, struct move_view *v)
{
	struct boot_facts f;
	struct store *st;
	int ret;

	memset(v, 0, sizeof(*v));
	v->src_boot_s = v->dst_boot_s = NAN;
	st = open_store(ctx);
	if (!st)
		return -ENOENT;
	ret = store_move_latest(st, &v->m);
	if (ret)
		goto out;
	v->src = find_drive(inv, v->m.src_name, v->m.src_model, v->m.src_serial);
	v->dst = find_drive(inv, v->m.dst_name, v->m.dst_model, v->m.dst_serial);
	if (v->src)
		store_run_latest_of(st, v->src, &v->src_run);
	if (v->dst)
		store_run_latest_of(st, v->dst, &v->dst_run);
	boot_mean(st, v->m.src_name, v->m.src_serial, &v->src_boot_s, &v->src_boots);
	boot_mean(st, v->m.dst_name, v->m.dst_serial, &v->dst_boot_s, &v->dst_boots);
	if (!boot_facts_read(ctx->sr, inv, &f)) {
		str_copy(v->root_disk, sizeof(v->root_disk), f.root_disk);
		v->has_mode = f.has_mode;
		v->mode = f.mode;
	}
	boot_facts_release(&f);
	if (moved_this_boot(ctx->sr, v->m.moved_at))
		v->state = MOVE_PENDING;
	else if (v->root_disk[0] && v->dst && !strcmp(v->root_disk, kname_of(v->dst)))
		v->state = MOVE_DONE;
	else if (v->root_disk[0] && v->src && !strcmp(v->root_disk, kname_of(v->src)))
		v->state = MOVE_NOT_TAKEN;
	else
		v->state = MOVE_ELSEWHERE;
out:
	store_close(st);
	return ret;
}

static void view_release(struct move_view *v)
{
	json_object_put(v->src);
	json_object_put(v->dst);
	run_free(v->src_run);
	run_free(v->dst_run);
}

static void fig(char *buf, size_t cap, double bw)
{
	if (isfinite(bw) && bw >= 0)
		str_fmt(buf, cap, "%.1f MB/s", bw / 1e6);
	else
		str_copy(buf, cap, "-");
}

/* The source's tests in its order, each beside the target's test of the same name and
 * direction; then the boot times. */
static void print_side_by_side(const struct move_view *v, FILE *out)
{
	const struct run *a = v->src_run, *b = v->dst_run, *lead = a ? a : b;
	char x[32], y[32], ratio[32];
	size_t i;

	fprintf(out, "  %-22s %14s %14s\n", "", v->m.src_name, v->m.dst_name);
	fprintf(out, "  %-22s %14.10s %14.10s\n", "bench (newest stored)",
		a ? a->started_at : "none", b ? b->started_at : "none");
	for (i = 0; lead && i < lead->ntests; i++) {
		const struct run_test *t = &lead->tests[i], *o;
		const char *dir = run_test_dir(t);
		char label[96];

		o = run_test_find(lead == a ? b : a, t->name, dir);
		fig(x, sizeof(x), lead == a ? t->bw : (o ? o->bw : NAN));
		fig(y, sizeof(y), lead == a ? (o ? o->bw : NAN) : t->bw);
		ratio[0] = '\0';
		if (a && b && o && t->bw > 0 && o->bw > 0)
			str_fmt(ratio, sizeof(ratio), "  x%.1f",
				lead == a ? o->bw / t->bw : t->bw / o->bw);
		str_fmt(label, sizeof(label), "%s %s", t->name, dir);
		fprintf(out, "  %-22s %14s %14s%s\n", label, x, y, ratio);
	}
	if (isfinite(v->src_boot_s))
		str_fmt(x, sizeof(x), "%.1f s (%zu)", v->src_boot_s, v->src_boots);
	else
		str_copy(x, sizeof(x), "-");
	if (isfinite(v->dst_boot_s))
		str_fmt(y, sizeof(y), "%.1f s (%zu)", v->dst_boot_s, v->dst_boots);
	else
		str_copy(y, sizeof(y), "-");
	fprintf(out, "  %-22s %14s %14s\n", "boot time (boots)", x, y);
}

void health_move_print(struct cli_ctx *ctx, const struct inventory *inv, FILE *out)
{
	const char *words;
	struct move_view v;
	char line[1024];

	if (!inv || view_load(ctx, inv, &v))
		return;
	words = v.has_mode ? boot_mode_words(v.mode) : NULL;
	str_fmt(line, sizeof(line), "%s -> %s (move --apply %s%s)", v.m.src_name, v.m.dst_name,
		v.m.moved_at, v.m.tryboot ? ", first boot as a tryboot trial" : "");
	fputc('\n', out);
	text_wrap(out, "  ", "Move: ", line, text_cols(SIZE_MAX));
	fprintf(out, "Booted from: %s; root on %s\n", words ? words : "not known",
		v.root_disk[0] ? v.root_disk : "-");
	switch (v.state) {
	case MOVE_PENDING:
		if (v.m.tryboot)
			str_fmt(line, sizeof(line), "Pending: reboot with  sudo reboot '0 tryboot'  "
				"(the trial boot from %s that move --apply set up in this boot; a "
				"plain reboot is no trial).", v.m.dst_name);
		else
			str_fmt(line, sizeof(line), "Pending: reboot with  sudo reboot  (the boot "
				"order that tries %s first was set up by move --apply in this boot).",
				v.m.dst_name);
		break;
	case MOVE_DONE:
		str_fmt(line, sizeof(line), "The move is complete: the root file system is on %s, "
			"the move's target.%s", v.root_disk, v.m.tryboot && v.has_mode &&
			v.mode == BOOT_MODE_SD ? " The firmware and kernel still came from the SD "
			"card (the tryboot trial): `sbcdisk boot order usb,sd --apply` (nvme,sd for "
			"an NVMe drive) makes the board start from the target for good." : "");
		break;
	case MOVE_NOT_TAKEN:
		str_fmt(line, sizeof(line), "The move did not take: the board started from %s, the "
			"move's source, again (%s). Check: sbcdisk boot check /dev/%s (will the "
			"copy boot), sbcdisk boot (the boot order), the copy's cmdline.txt root=, "
			"and the screen or serial console of a boot from %s.", v.root_disk,
			v.m.tryboot ? "the tryboot trial failed and the firmware fell back" :
				      "the bootloader did not start the target",
			v.m.dst_name, v.m.dst_name);
		break;
	default:
		str_fmt(line, sizeof(line), "The root file system is on %s, neither the move's "
			"source nor its target%s.", v.root_disk[0] ? v.root_disk : "a disk not known",
			v.dst ? "" : " (the target is not attached)");
		break;
	}
	text_wrap(out, "", "", line, text_cols(SIZE_MAX));
	fprintf(out, "Before and after:\n");
	print_side_by_side(&v, out);
	view_release(&v);
}

struct json_object *health_move_json(struct cli_ctx *ctx, const struct inventory *inv)
{
	static const char *const state[] = { "complete", "not-taken", "elsewhere", "pending" };
	struct json_object *o;
	struct move_view v;

	if (!inv || view_load(ctx, inv, &v))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "source", json_object_new_string(v.m.src_name));
	json_object_object_add(o, "target", json_object_new_string(v.m.dst_name));
	json_object_object_add(o, "moved_at", json_object_new_string(v.m.moved_at));
	json_object_object_add(o, "tryboot", json_object_new_boolean(v.m.tryboot));
	json_object_object_add(o, "state", json_object_new_string(state[v.state]));
	json_object_object_add(o, "root_disk", v.root_disk[0] ?
				       json_object_new_string(v.root_disk) : NULL);
	json_object_object_add(o, "boot_mode", v.has_mode && boot_mode_name(v.mode) ?
				       json_object_new_string(boot_mode_name(v.mode)) : NULL);
	json_object_object_add(o, "source_run_id", v.src_run ?
				       json_object_new_int64(v.src_run->id) : NULL);
	json_object_object_add(o, "target_run_id", v.dst_run ?
				       json_object_new_int64(v.dst_run->id) : NULL);
	view_release(&v);
	return o;
}
