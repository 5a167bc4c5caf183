/* uas-try.c - the driver experiment: the plan, the switch of one USB interface between uas and
 * usb-storage (the quirks parameter, unbind, bind), and finding the disk again. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/sbuf.h"
#include "common/util.h"
#include "fix/plan.h"
#include "flow/uas-try.h"
#include "probe/ref.h"
#include "store/run.h"

#define DRV_UAS "uas"
#define DRV_BOT "usb-storage"

int flow_uas_try_plan_make(struct sysroot *sr, const struct inventory *inv, const char *dev,
			   struct flow_uas_try_plan *p, char *why, size_t cap)
{
	const struct probe_usb *u;
	struct probe_ref ref;
	struct fix_msgs m = { 0 };
	bool changed;
	int ret;

	*p = (struct flow_uas_try_plan){ .live = sysroot_is_live(sr) };
	ret = probe_ref_resolve(sr, inv, dev, 0, &ref, why, cap);
	if (ret)
		return ret;
	if (ref.kind != PROBE_REF_BLOCK || !ref.disk) {
		str_fmt(why, cap, "'%s' is no disk of this system (see 'sbcdisk list')", dev);
		return -ENOENT;
	}
	u = probe_blkdev_usb(ref.disk);
	if (!u || !u->interface[0] || !u->has_ids) {
		str_fmt(why, cap, "%s is not attached over USB: there is no driver to try",
			ref.disk->kname);
		return -ENODEV;
	}
	str_copy(p->disk, sizeof(p->disk), ref.disk->kname);
	str_copy(p->interface, sizeof(p->interface), u->interface);
	p->id = (struct usb_id){ u->vid_num, u->pid_num };
	p->running = probe_ref_is_running_disk(inv, &ref);
	if (!u->driver[0]) {
		str_fmt(why, cap, "the USB interface %s of %s has no driver bound", u->interface,
			p->disk);
		return -ENODEV;
	}
	str_copy(p->driver, sizeof(p->driver), u->driver);
	if (!strcmp(u->driver, DRV_UAS)) {
		str_copy(p->other, sizeof(p->other), DRV_BOT);
	} else if (!strcmp(u->driver, DRV_BOT)) {
		str_copy(p->other, sizeof(p->other), DRV_UAS);
	} else {
		str_fmt(why, cap, "%s is driven by '%s', neither uas nor usb-storage", p->disk,
			u->driver);
		return -EINVAL;
	}
	/* the quirks parameter: read only here (apply false) */
	ret = fix_quirks_now(sr, p->id, false, p->quirks_before, p->quirks_with,
			     sizeof(p->quirks_before), &changed, &m);
	p->quirks_loaded = ret != -ENOENT;
	if (ret && ret != -ENOENT) {
		str_copy(why, cap, m.why);
		return ret;
	}
	if (p->quirks_loaded) {
		struct sbuf out = SBUF_INIT(FLOW_UAS_TRY_QUIRKS_MAX - 1);

		ret = usbq_list_drop(p->quirks_before, strlen(p->quirks_before), p->id,
				     USBQ_FLAG_IGNORE_UAS, &out);
		if (!ret)
			str_copy(p->quirks_without, sizeof(p->quirks_without), sbuf_str(&out));
		sbuf_release(&out);
	}
	return ret;
}

/* Write text to a sysfs attribute of the tree. 0 or -errno. */
static int attr_write(struct sysroot *sr, const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = sysroot_open_fd(sr, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	/* the quirks parameter takes an empty write as "no entries" */
	n = write(fd, len ? text : "\n", len ? len : 1);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != (len ? len : 1))
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int driver_attr(struct sysroot *sr, const char *driver, const char *attr,
		       const char *interface)
{
	char path[PATH_MAX];

	if (str_fmt(path, sizeof(path), "%s/%s/%s", PATH_SYS_BUS_USB_DRIVERS, driver, attr))
		return -ENAMETOOLONG;
	return attr_write(sr, path, interface);
}

int flow_uas_try_switch(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *to,
			char *why, size_t cap)
{
	const char *quirks = p->quirks_before;
	char path[PATH_MAX], now[32] = "";
	int ret;

	/* usb-storage takes a UAS-capable device only with the u flag; uas only without it */
	if (strcmp(to, p->driver))
		quirks = !strcmp(to, DRV_BOT) ? p->quirks_with : p->quirks_without;
	if (p->quirks_loaded) {
		ret = attr_write(sr, PATH_USB_STORAGE_QUIRKS, quirks);
		if (ret) {
			str_fmt(why, cap, "cannot write %s: %s", PATH_USB_STORAGE_QUIRKS,
				strerror(-ret));
			return ret;
		}
	}
	str_fmt(path, sizeof(path), "%s/%s/driver", PATH_SYS_BUS_USB_DEVICES, p->interface);
	if (sysroot_link_basename(sr, path, now, sizeof(now)) < 0)
		now[0] = '\0';
	if (!strcmp(now, to))
		return 0;
	if (now[0]) {
		ret = driver_attr(sr, now, "unbind", p->interface);
		if (ret) {
			str_fmt(why, cap, "cannot unbind %s from %s: %s", p->interface, now,
				strerror(-ret));
			return ret;
		}
	}
	ret = driver_attr(sr, to, "bind", p->interface);
	if (ret)
		str_fmt(why, cap, "%s did not take %s: %s", to, p->interface, strerror(-ret));
	return ret;
}

int flow_uas_try_find(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *driver,
		      char *disk, size_t cap)
{
	struct inventory *inv = NULL;
	size_t i;
	int ret;

	ret = probe_inventory_load(sr, &inv);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < inv->n_top && ret == -ENOENT; i++) {
		const struct probe_usb *u = probe_blkdev_usb(inv->top[i]);

		if (u && !strcmp(u->interface, p->interface) && !strcmp(u->driver, driver))
			ret = str_copy(disk, cap, inv->top[i]->kname) ? -ENAMETOOLONG : 0;
	}
	probe_inventory_free(inv);
	return ret;
}

int flow_uas_try_wait(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *driver,
		      unsigned seconds, char *disk, size_t cap)
{
	struct timespec one = { 1, 0 };
	unsigned i;
	int ret;

	for (i = 0;; i++) {
		ret = flow_uas_try_find(sr, p, driver, disk, cap);
		if (ret != -ENOENT || i >= seconds)
			return ret;
		nanosleep(&one, NULL);
	}
}

int flow_uas_try_runs(struct store *st, const struct flow_uas_try_plan *p,
		      const int64_t ids[2], double bw[2])
{
	struct run_list l = { 0 };
	char vid[8], pid[8];
	size_t i, j;
	int ret;

	str_fmt(vid, sizeof(vid), "%04x", p->id.vid);
	str_fmt(pid, sizeof(pid), "%04x", p->id.pid);
	if (!ids[0] || !ids[1])
		return -ENOENT; /* a run that was not stored */
	ret = store_runs_get(st, ids, 2, &l);
	for (i = 0; !ret && i < 2; i++) {
		const struct run *r = l.runs[i];
		const char *v = run_device_str(r, "usb.vid"), *d = run_device_str(r, "usb.pid");

		/* the drive of the experiment, whatever name it had on each driver */
		if (!v || !d || strcasecmp(v, vid) || strcasecmp(d, pid)) {
			ret = -ENOENT;
			break;
		}
		bw[i] = 0;
		for (j = 0; j < r->ntests; j++)
			if (!strcmp(r->tests[j].rw, "read") && r->tests[j].bw == r->tests[j].bw) {
				bw[i] = r->tests[j].bw;
				break;
			}
	}
	run_list_release(&l);
	return ret;
}
