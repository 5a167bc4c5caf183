/* move.c - the move journey's decisions: what SOURCE and TARGET are, resolved once; whether
 * the source is the running disk, which steps run, the trial boot, the record of the move. */
#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <json-c/json.h>

#include "boot/boot.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/move.h"

/* The device a ref names, or NULL (a file, or a device the inventory does not have). */
static const struct blkdev *ref_device(const struct probe_ref *r)
{
	return r->kind == PROBE_REF_BLOCK ? r->dev : NULL;
}

/* The whole disk of a ref, or NULL. */
static const struct blkdev *ref_disk(const struct probe_ref *r)
{
	return r->kind == PROBE_REF_BLOCK ? (r->disk ? r->disk : r->dev) : NULL;
}

int flow_move_plan_make(struct sysroot *sr, const struct inventory *inv,
			const struct flow_move_opts *o, const char *source, const char *target,
			struct flow_move_plan *p, char *why, size_t cap)
{
	const struct blkdev *run = inv->root ? probe_blkdev_whole(inv->root) : NULL;
	int ret = 0, i;

	memset(p, 0, sizeof(*p));
	why[0] = '\0';
	p->live = sysroot_is_live(sr);
	p->pi = strstr(inv->board.model, "Raspberry Pi") != NULL;
	if (source) {
		ret = probe_ref_resolve(sr, inv, source, 0, &p->source, why, cap);
	} else if (run) {
		char path[sizeof(run->kname) + 8];

		ret = str_fmt(path, sizeof(path), PATH_DEV_PREFIX "%s", run->kname);
		if (!ret)
			ret = probe_ref_resolve(sr, inv, path, 0, &p->source, why, cap);
	}
	if (!ret)
		ret = probe_ref_resolve(sr, inv, target, PROBE_REF_MAY_BE_NEW, &p->target, why,
					cap);
	if (ret)
		return ret;
	for (i = 0; i < 2; i++) {
		const struct probe_ref *r = i ? &p->target : &p->source;

		if (r->kind == PROBE_REF_DIR) {
			str_fmt(why, cap, "%s '%s' is a directory: a move copies a disk to a disk or "
				"an image file", i ? "TARGET" : "SOURCE", r->shown);
			return -EISDIR;
		}
		/* only a block device is measured, and only on the running system */
		p->bench[i] = !o->no_bench && !o->no_copy && p->live && ref_device(r);
	}
	p->store_benches = o->apply;
	p->running = p->source.kind == PROBE_REF_BLOCK &&
		     probe_ref_is_running_disk(inv, &p->source);
	p->root_partn = inv->root && inv->root->has_partn ? inv->root->partn : 0;
	p->media = flow_move_media(ref_disk(&p->target));
	p->media_words = flow_move_media_words(ref_disk(&p->target));
	return 0;
}

bool flow_move_trial_possible(struct sysroot *sr, const struct inventory *inv,
			      const struct flow_move_plan *p, char *why, size_t cap)
{
	struct boot_facts f;
	int ret;

	why[0] = '\0';
	ret = boot_facts_read(sr, inv, &f);
	if (ret)
		str_fmt(why, cap, "the boot facts were not read: %s", strerror(-ret));
	else if (boot_tryboot_offered(&f, why, cap) && (!p->running || !p->root_partn))
		str_copy(why, cap, "the source is not the running system's disk");
	boot_facts_release(&f);
	return !why[0];
}

int flow_move_copy_root(struct sysroot *sr, const struct flow_move_plan *p, char *buf,
			size_t cap)
{
	struct inventory *inv = NULL;
	struct blkdev *d;
	size_t i;
	int ret;

	if (p->target.kind != PROBE_REF_BLOCK)
		return -ENOENT;
	ret = probe_inventory_load(sr, &inv);
	if (ret)
		return ret;
	ret = -ENOENT;
	/* the same device by number: the name a fresh read gives it may differ */
	d = probe_inventory_find_devno(inv, major(p->target.devno), minor(p->target.devno));
	if (d)
		d = probe_blkdev_whole(d);
	for (i = 0; d && i < d->n_children; i++) {
		struct blkdev *c = d->children[i];

		if (c->has_partn && c->partn == p->root_partn && c->partuuid[0]) {
			ret = str_fmt(buf, cap, "PARTUUID=%s", c->partuuid);
			break;
		}
	}
	probe_inventory_free(inv);
	return ret;
}

int flow_move_record(struct store *st, const struct flow_move_plan *p, bool tryboot,
		     flow_device_json_fn device_json, struct store_move *m)
{
	struct json_object *src = NULL, *dst = NULL;
	int ret;

	memset(m, 0, sizeof(*m));
	m->tryboot = tryboot;
	if (ref_disk(&p->source))
		src = device_json(ref_disk(&p->source));
	if (ref_disk(&p->target))
		dst = device_json(ref_disk(&p->target));
	store_move_set_device(m, false, src);
	store_move_set_device(m, true, dst);
	ret = store_move_add(st, m);
	json_object_put(src);
	json_object_put(dst);
	return ret;
}

int flow_move_store_path(struct sysroot *sr, char *buf, size_t cap)
{
	if (sysroot_is_live(sr))
		return store_default_path(buf, cap);
	return str_fmt(buf, cap, "%s" STORE_SYSTEM_PATH, sysroot_dir(sr));
}

struct store *flow_move_store_open(struct sysroot *sr)
{
	struct store *st = NULL;
	char path[4096], why[256];

	if (flow_move_store_path(sr, path, sizeof(path)) || access(path, F_OK) ||
	    store_open(path, STORE_READ, 200, &st, why, sizeof(why)))
		return NULL;
	return st;
}
