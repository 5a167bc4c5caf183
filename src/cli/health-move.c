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
#include "flow/move-health.h"
#include "report/list.h"
#include "report/text.h"
#include "store/store.h"

static void fig(char *buf, size_t cap, double bw)
{
	if (isfinite(bw) && bw >= 0)
		str_fmt(buf, cap, "%.1f MB/s", bw / 1e6);
	else
		str_copy(buf, cap, "-");
}

/* The source's tests in its order, each beside the target's test of the same name and
 * direction; then the boot times. */
static void print_side_by_side(const struct flow_move_view *v, FILE *out)
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
	struct flow_move_view v;
	char line[1024];

	if (!inv || flow_move_view_load(ctx->sr, inv, list_device_to_json, &v))
		return;
	words = v.has_mode ? boot_mode_words(v.mode) : NULL;
	str_fmt(line, sizeof(line), "%s -> %s (move --apply %s%s)", v.m.src_name, v.m.dst_name,
		v.m.moved_at, v.m.tryboot ? ", first boot as a tryboot trial" : "");
	fputc('\n', out);
	text_wrap(out, "  ", "Move: ", line, text_cols(SIZE_MAX));
	fprintf(out, "Booted from: %s; root on %s\n", words ? words : "not known",
		v.root_disk[0] ? v.root_disk : "-");
	switch (v.state) {
	case FLOW_MOVE_PENDING:
		if (v.m.tryboot)
			str_fmt(line, sizeof(line), "Pending: reboot with  sudo reboot '0 tryboot'  "
				"(the trial boot from %s that move --apply set up in this boot; a "
				"plain reboot is no trial).", v.m.dst_name);
		else
			str_fmt(line, sizeof(line), "Pending: reboot with  sudo reboot  (the boot "
				"order that tries %s first was set up by move --apply in this boot).",
				v.m.dst_name);
		break;
	case FLOW_MOVE_DONE:
		str_fmt(line, sizeof(line), "The move is complete: the root file system is on %s, "
			"the move's target.%s", v.root_disk, v.m.tryboot && v.has_mode &&
			v.mode == BOOT_MODE_SD ? " The firmware and kernel still came from the SD "
			"card (the tryboot trial): `sbcdisk boot order usb,sd --apply` (nvme,sd for "
			"an NVMe drive) makes the board start from the target for good." : "");
		break;
	case FLOW_MOVE_NOT_TAKEN:
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
	flow_move_view_release(&v);
}

struct json_object *health_move_json(struct cli_ctx *ctx, const struct inventory *inv)
{
	static const char *const state[] = { "complete", "not-taken", "elsewhere", "pending" };
	struct json_object *o;
	struct flow_move_view v;

	if (!inv || flow_move_view_load(ctx->sr, inv, list_device_to_json, &v))
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
	flow_move_view_release(&v);
	return o;
}
