/* move-health.c - the health check's judgement of the newest stored move: where the root is
 * now against the move's source and target, pending until a reboot; the stored figures of both. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "boot/boot.h"
#include "common/util.h"
#include "flow/move-health.h"

/* The DEVICE object of the drive the move knew as name/model/serial: the same serial when it
 * had one (a name can change between boots), else the same name and model. */
static struct json_object *find_drive(const struct inventory *inv, flow_device_json_fn device_json,
				      const char *name, const char *model, const char *serial)
{
	size_t i;

	for (i = 0; i < inv->n_top; i++) {
		struct json_object *o = device_json(inv->top[i]);
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

int flow_move_view_load(struct sysroot *sr, const struct inventory *inv,
			flow_device_json_fn device_json, struct flow_move_view *v)
{
	struct boot_facts f;
	struct store *st;
	int ret;

	memset(v, 0, sizeof(*v));
	v->src_boot_s = v->dst_boot_s = NAN;
	st = flow_move_store_open(sr);
	if (!st)
		return -ENOENT;
	ret = store_move_latest(st, &v->m);
	if (ret)
		goto out;
	v->src = find_drive(inv, device_json, v->m.src_name, v->m.src_model, v->m.src_serial);
	v->dst = find_drive(inv, device_json, v->m.dst_name, v->m.dst_model, v->m.dst_serial);
	if (v->src)
		store_run_latest_of(st, v->src, &v->src_run);
	if (v->dst)
		store_run_latest_of(st, v->dst, &v->dst_run);
	boot_mean(st, v->m.src_name, v->m.src_serial, &v->src_boot_s, &v->src_boots);
	boot_mean(st, v->m.dst_name, v->m.dst_serial, &v->dst_boot_s, &v->dst_boots);
	if (!boot_facts_read(sr, inv, &f)) {
		str_copy(v->root_disk, sizeof(v->root_disk), f.root_disk);
		v->has_mode = f.has_mode;
		v->mode = f.mode;
	}
	boot_facts_release(&f);
	if (moved_this_boot(sr, v->m.moved_at))
		v->state = FLOW_MOVE_PENDING;
	else if (v->root_disk[0] && v->dst && !strcmp(v->root_disk, kname_of(v->dst)))
		v->state = FLOW_MOVE_DONE;
	else if (v->root_disk[0] && v->src && !strcmp(v->root_disk, kname_of(v->src)))
		v->state = FLOW_MOVE_NOT_TAKEN;
	else
		v->state = FLOW_MOVE_ELSEWHERE;
out:
	store_close(st);
	return ret;
}

void flow_move_view_release(struct flow_move_view *v)
{
	json_object_put(v->src);
	json_object_put(v->dst);
	run_free(v->src_run);
	run_free(v->dst_run);
}
