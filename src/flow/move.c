/* move.c - the move journey's decisions: what SOURCE and TARGET are, resolved once; whether
 * the source is the running disk, which steps run, the trial boot, the record of the move. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <json-c/json.h>

#include "boot/boot.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/move.h"

static int disk_device(const struct blkdev *d, struct flow_disk *out)
{
	out->kind = FLOW_DISK_DEVICE;
	out->dev = d;
	return str_fmt(out->path, sizeof(out->path), PATH_DEV_PREFIX "%s", d->kname);
}

int flow_disk_resolve(struct sysroot *sr, const struct inventory *inv, const char *named,
		      struct flow_disk *out)
{
	const struct blkdev *d = NULL;
	char real[PATH_MAX];
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (strlen(named) >= sizeof(out->path))
		return -ENAMETOOLONG;
	/* a bare kernel name is the disk, as clone's help spells disks, even when a directory
	 * of that name is in the working directory */
	if (!strchr(named, '/'))
		d = probe_inventory_find(inv, named);
	if (!d && !strncmp(named, PATH_DEV_PREFIX, strlen(PATH_DEV_PREFIX))) {
		/* a /dev link (by-id, by-path, a symlink) followed inside the sysroot; a node the
		 * tree does not have is known by its name */
		const char *base = named;

		if (!sysroot_realpath(sr, named, real, sizeof(real)))
			base = real;
		d = probe_inventory_find(inv, strrchr(base, '/') + 1);
	}
	if (!d && sysroot_is_live(sr) && !stat(named, &st)) {
		if (S_ISBLK(st.st_mode))
			d = probe_inventory_find_devno(inv, major(st.st_rdev), minor(st.st_rdev));
		else if (S_ISDIR(st.st_mode))
			out->kind = FLOW_DISK_DIR;
	} else if (!d && !sysroot_is_live(sr) && !stat(named, &st) && S_ISDIR(st.st_mode)) {
		out->kind = FLOW_DISK_DIR;
	}
	if (d)
		return disk_device(d, out);
	if (out->kind != FLOW_DISK_DIR)
		out->kind = FLOW_DISK_FILE;
	return str_copy(out->path, sizeof(out->path), named);
}

const char *flow_disk_name(const struct flow_disk *d)
{
	return d->kind == FLOW_DISK_DEVICE ? d->dev->kname : d->path;
}

int flow_move_plan_make(struct sysroot *sr, const struct inventory *inv,
			const struct flow_move_opts *o, const char *source, const char *target,
			struct flow_move_plan *p, char *why, size_t cap)
{
	const struct blkdev *run = inv->root ? probe_blkdev_whole(inv->root) : NULL;
	int ret, i;

	memset(p, 0, sizeof(*p));
	why[0] = '\0';
	p->live = sysroot_is_live(sr);
	p->pi = strstr(inv->board.model, "Raspberry Pi") != NULL;
	if (source)
		ret = flow_disk_resolve(sr, inv, source, &p->source);
	else
		ret = run ? disk_device(run, &p->source) : 0;
	if (ret) {
		str_fmt(why, cap, "SOURCE: %s", strerror(-ret));
		return ret;
	}
	ret = flow_disk_resolve(sr, inv, target, &p->target);
	if (ret) {
		str_fmt(why, cap, "TARGET: %s", strerror(-ret));
		return ret;
	}
	for (i = 0; i < 2; i++) {
		const struct flow_disk *d = i ? &p->target : &p->source;

		if (d->kind == FLOW_DISK_DIR) {
			str_fmt(why, cap, "%s '%s' is a directory: a move copies a disk to a disk or "
				"an image file", i ? "TARGET" : "SOURCE", d->path);
			return -EISDIR;
		}
		/* only a block device is measured, and only on the running system */
		p->bench[i] = !o->no_bench && !o->no_copy && p->live &&
			      d->kind == FLOW_DISK_DEVICE;
	}
	p->store_benches = o->apply;
	p->running = run && p->source.kind == FLOW_DISK_DEVICE &&
		     probe_blkdev_whole((struct blkdev *)p->source.dev) == run;
	p->root_partn = inv->root && inv->root->has_partn ? inv->root->partn : 0;
	if (p->target.kind == FLOW_DISK_DEVICE) {
		p->media = flow_move_media(p->target.dev);
		p->media_words = flow_move_media_words(p->target.dev);
	}
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

	if (p->target.kind != FLOW_DISK_DEVICE)
		return -ENOENT;
	ret = probe_inventory_load(sr, &inv);
	if (ret)
		return ret;
	ret = -ENOENT;
	/* the same device by number: the name a fresh read gives it may differ */
	d = probe_inventory_find_devno(inv, p->target.dev->major, p->target.dev->minor);
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
	if (p->source.kind == FLOW_DISK_DEVICE)
		src = device_json(p->source.dev);
	if (p->target.kind == FLOW_DISK_DEVICE)
		dst = device_json(p->target.dev);
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
