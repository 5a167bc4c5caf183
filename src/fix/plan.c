/* plan.c - the fixes: locate the file, read it through the sysroot, edit the model, diff;
 * apply with a backup and an atomic replacement. A board is never left unbootable: every
 * failure leaves the original file as it was. */
#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "fix/plan.h"
#include "common/atomicfile.h"
#include "fix/cmdline.h"
#include "fix/config.h"
#include "common/paths.h"
#include "probe/probe.h"
#include "common/util.h"

static void plan_init(struct fix_plan *p, enum fix_kind kind)
{
	*p = (struct fix_plan){ .kind = kind };
	sbuf_init(&p->file.data, CMDLINE_FILE_MAX);
	sbuf_init(&p->after, CONFIG_FILE_MAX + 4096);
}

void fix_plan_release(struct fix_plan *p)
{
	boot_file_release(&p->file);
	sbuf_release(&p->after);
}

/* Prefix a refusal with the file it is about. */
static int refuse_file(struct fix_plan *p, int ret)
{
	char why[FIX_MSG_MAX];

	str_copy(why, sizeof(why), p->msgs.why[0] ? p->msgs.why : strerror(-ret));
	return fix_refuse(&p->msgs, ret, "cannot edit '%s': %s", p->file.path, why);
}

/* A cmdline.txt fix: the file the firmware reads, edit() applied to its model, the bytes
 * after it in p->after. */
static int plan_cmdline(struct sysroot *sr, struct fix_plan *p, enum fix_kind kind,
			int (*edit)(struct cmdline *cl, const void *arg, struct fix_plan *p),
			const void *arg)
{
	struct cmdline cl = { 0 };
	struct boot_loc loc;
	int ret;

	plan_init(p, kind);
	ret = boot_locate(sr, &loc, &p->msgs);
	if (ret)
		return ret;
	str_copy(p->file.path, sizeof(p->file.path), loc.cmdline);
	ret = boot_file_read(sr, loc.cmdline, CMDLINE_FILE_MAX, &p->file, &p->msgs);
	if (ret)
		return refuse_file(p, ret);
	ret = cmdline_parse(sbuf_str(&p->file.data), p->file.data.len, &cl);
	if (!ret)
		ret = edit(&cl, arg, p);
	if (!ret)
		ret = cmdline_write(&cl, &p->after);
	cmdline_release(&cl);
	return ret ? refuse_file(p, ret) : 0;
}

static int edit_uas(struct cmdline *cl, const void *arg, struct fix_plan *p)
{
	return cmdline_quirks_add(cl, *(const struct usb_id *)arg, USBQ_FLAG_IGNORE_UAS, &p->msgs,
				  &p->changed);
}

static int edit_apst(struct cmdline *cl, const void *arg, struct fix_plan *p)
{
	(void)arg;
	return cmdline_param_set(cl, "nvme_core.default_ps_max_latency_us", "0", &p->msgs,
				 &p->changed);
}

int fix_plan_uas(struct sysroot *sr, struct usb_id id, struct fix_plan *p)
{
	int ret = plan_cmdline(sr, p, FIX_UAS, edit_uas, &id);

	if (ret)
		return ret;
	if (p->changed)
		str_fmt(p->next_boot, sizeof(p->next_boot),
			"At the next boot the kernel reads usb-storage.quirks with %04x:%04x:u "
			"(u = IGNORE_UAS): the uas driver leaves that device alone and usb-storage "
			"drives it instead. Expect 'UAS is ignored for this device' (older kernels: "
			"'blacklisted') and 'Quirks match for vid %04x pid %04x' in the kernel log.",
			id.vid, id.pid, id.vid, id.pid);
	else
		str_fmt(p->next_boot, sizeof(p->next_boot),
			"Nothing to change: the quirks list already has %04x:%04x with the flag u.",
			id.vid, id.pid);
	return 0;
}

int fix_plan_nvme_apst(struct sysroot *sr, struct fix_plan *p)
{
	int ret = plan_cmdline(sr, p, FIX_NVME_APST, edit_apst, NULL);

	if (ret)
		return ret;
	str_copy(p->next_boot, sizeof(p->next_boot), p->changed ?
		 "At the next boot the NVMe driver reads nvme_core.default_ps_max_latency_us=0 "
		 "and leaves the drive's power-saving states (APST) off: no 'failed to set APST "
		 "feature', and no drive that sleeps and never wakes; it draws a little more "
		 "power when idle." :
		 "Nothing to change: cmdline.txt already has "
		 "nvme_core.default_ps_max_latency_us=0.");
	return 0;
}

/*
 * Why the boot directories hold no config.txt that could be read, in the user's terms: a
 * symbolic link (Raspberry Pi OS never makes one, and the firmware reads the FAT boot
 * partition, which has none: sbcdisk neither follows nor edits it), a file too large, or none.
 */
static int config_missing(struct sysroot *sr, const struct boot_loc *loc, struct fix_plan *p)
{
	static const char *const dirs[] = { PATH_BOOT_FIRMWARE, PATH_BOOT };
	char path[64];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (str_fmt(path, sizeof(path), "%s/config.txt", dirs[i]) ||
		    sysroot_stat(sr, path, &st, false))
			continue;
		str_copy(p->file.path, sizeof(p->file.path), path);
		if (S_ISLNK(st.st_mode))
			return fix_refuse(&p->msgs, -ELOOP, "cannot edit '%s': it is a symbolic link "
					  "(the firmware reads the boot partition, which has no links; "
					  "it is not followed)", path);
		if (S_ISREG(st.st_mode) && st.st_size > CONFIG_FILE_MAX)
			return fix_refuse(&p->msgs, -EFBIG, "cannot edit '%s': it is %lld bytes, "
					  "more than the %d KiB a config.txt may have here", path,
					  (long long)st.st_size, CONFIG_FILE_MAX / 1024);
		if (!S_ISREG(st.st_mode))
			return fix_refuse(&p->msgs, -EINVAL, "cannot edit '%s': it is not a "
					  "regular file", path);
	}
	return fix_refuse(&p->msgs, -ENOENT, "cannot edit '%s': there is no config.txt in %s or "
			  "%s", loc->config, PATH_BOOT_FIRMWARE, PATH_BOOT);
}

/* A config.txt fix: the file read, set() applied to its model, the bytes after it. */
static int plan_config(struct sysroot *sr, struct fix_plan *p, int gen,
		       int (*set)(struct config *cfg, int gen, struct fix_msgs *m, bool *changed))
{
	struct config cfg = { 0 };
	struct boot_loc loc;
	char model[128];
	int ret;

	/* only config.txt's place matters here: which command line file config.txt names (or
	 * why that is not known) does not, and config.txt's own faults are said below */
	boot_loc_find(sr, &loc);
	str_copy(p->file.path, sizeof(p->file.path), loc.config);
	if (!loc.has_config)
		return config_missing(sr, &loc, p);
	ret = boot_file_read(sr, loc.config, CONFIG_FILE_MAX, &p->file, &p->msgs);
	if (ret)
		return refuse_file(p, ret);
	/* pciex1_gen is the Pi 5's connector: on another board the line would do nothing,
	 * and a fix that changes nothing must not look like one */
	if (!sysroot_read_dt_string(sr, PATH_PROC_DT_MODEL, model, sizeof(model)) && model[0] &&
	    !strstr(model, "Raspberry Pi 5") && !strstr(model, "Compute Module 5") &&
	    !strstr(model, "Raspberry Pi 500"))
		return fix_refuse(&p->msgs, -EOPNOTSUPP, "this board is a '%s', not a Raspberry "
				  "Pi 5: dtparam=pciex1_gen only sets a Pi 5's PCIe connector, so "
				  "nothing is written", model);
	ret = config_parse(sbuf_str(&p->file.data), p->file.data.len, &cfg);
	if (!ret)
		ret = set(&cfg, gen, &p->msgs, &p->changed);
	if (!ret)
		ret = config_write(&cfg, &p->after);
	config_release(&cfg);
	if (ret == -E2BIG) /* strerror() would say "Argument list too long" */
		return fix_refuse(&p->msgs, ret, "cannot edit '%s': it is too large: it has more "
				  "than %d lines, the most a config.txt may have here", p->file.path,
				  CONFIG_LINES_MAX);
	if (ret)
		return refuse_file(p, ret);
	return 0;
}

int fix_plan_pcie_gen(struct sysroot *sr, int gen, struct fix_plan *p)
{
	int ret;

	plan_init(p, FIX_PCIE_GEN);
	ret = plan_config(sr, p, gen, config_pcie_gen_set);
	if (ret)
		return ret;
	if (!p->changed)
		str_fmt(p->next_boot, sizeof(p->next_boot),
			"Nothing to change: a Raspberry Pi 5 already runs its PCIe connector at "
			"Gen %d with this config.txt.", gen);
	else if (gen == 3)
		str_copy(p->next_boot, sizeof(p->next_boot),
			 "At the next boot a Raspberry Pi 5 trains its PCIe connector at Gen 3 "
			 "(8 GT/s) instead of Gen 2 (5 GT/s). The Pi 5 is certified for Gen 2 "
			 "only: if the drive shows errors or disappears, run 'sbcdisk fix pcie-gen 2 "
			 "--apply' or 'sbcdisk fix undo --apply'.");
	else
		str_copy(p->next_boot, sizeof(p->next_boot),
			 "At the next boot a Raspberry Pi 5 trains its PCIe connector at Gen 2 "
			 "(5 GT/s), the speed it is certified for.");
	return 0;
}

static int usb_current_set(struct config *cfg, int unused, struct fix_msgs *m, bool *changed)
{
	(void)unused;
	return config_usb_current_set(cfg, m, changed);
}

int fix_plan_usb_current(struct sysroot *sr, struct fix_plan *p)
{
	int ret;

	plan_init(p, FIX_USB_CURRENT);
	ret = plan_config(sr, p, 0, usb_current_set);
	if (ret)
		return ret;
	fix_note(&p->msgs, "WARNING: this lets the USB ports draw up to 1600 mA in total on any "
			   "supply. Only a supply that delivers 5 A at 5 V without saying so over "
			   "USB-PD (a bench or GPIO-header supply) should get it; on a 3 A supply "
			   "the board browns out, and drives reset or lose data. A 5 A USB-PD "
			   "supply needs no setting: the firmware raises the limit by itself.");
	if (!p->changed)
		str_copy(p->next_boot, sizeof(p->next_boot),
			 "Nothing to change: a Raspberry Pi 5 already reads "
			 "usb_max_current_enable=1 from this config.txt.");
	else
		str_copy(p->next_boot, sizeof(p->next_boot),
			 "At the next boot a Raspberry Pi 5 sets its USB current limit high "
			 "(1600 mA for all ports) whatever the supply reports. If the board then "
			 "reports under-voltage, run 'sbcdisk fix undo --apply'.");
	return 0;
}

static int edit_sd_cqe(struct config *cfg, int unused, struct fix_msgs *m, bool *changed)
{
	(void)unused;
	return config_sd_cqe_off(cfg, m, changed);
}

int fix_plan_sd_cqe(struct sysroot *sr, struct fix_plan *p)
{
	int ret;

	plan_init(p, FIX_SD_CQE);
	ret = plan_config(sr, p, 0, edit_sd_cqe);
	if (ret)
		return ret;
	str_copy(p->next_boot, sizeof(p->next_boot), p->changed ?
		 "At the next boot a Raspberry Pi 5 runs its SD card without command queueing "
		 "(CQE): no more 'running CQE recovery'; A2 cards lose some random-I/O speed." :
		 "Nothing to change: command queueing is already off for a Raspberry Pi 5's SD "
		 "card with this config.txt.");
	return 0;
}

/* The part of a backup name after the tag: its time stamp. */
static const char *backup_stamp(const char *backup)
{
	const char *t = strstr(backup, BOOT_BACKUP_TAG);

	return t ? t + strlen(BOOT_BACKUP_TAG) : "";
}

static bool same(const struct sbuf *a, const struct sbuf *b)
{
	return a->len == b->len && !memcmp(sbuf_str(a), sbuf_str(b), a->len);
}

/* Whether now is exactly what `fix uas` makes of before, for one of the ids in now's quirks
 * list: then nothing was edited after that fix. */
static bool uas_fix_made(const struct sbuf *before, const struct sbuf *now)
{
	struct sbuf q = SBUF_INIT(CMDLINE_FILE_MAX), out = SBUF_INIT(CMDLINE_FILE_MAX);
	struct cmdline cl = { 0 };
	const char *p, *e, *end;
	bool made = false, changed;
	struct fix_msgs m;
	struct usb_id id;
	char entry[16];

	if (cmdline_parse(sbuf_str(now), now->len, &cl) || cmdline_quirks_get(&cl, &q))
		goto out;
	for (p = sbuf_str(&q), end = p + q.len; !made && p < end; p = e + 1) {
		const char *colon;

		e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		colon = memchr(p, ':', (size_t)(e - p));
		colon = colon ? memchr(colon + 1, ':', (size_t)(e - colon - 1)) : NULL;
		if (!colon || str_fmt(entry, sizeof(entry), "%.*s", (int)(colon - p), p) ||
		    usbq_id_parse(entry, &id))
			continue;
		cmdline_release(&cl);
		m = (struct fix_msgs){ 0 };
		made = !cmdline_parse(sbuf_str(before), before->len, &cl) &&
		       !cmdline_quirks_add(&cl, id, USBQ_FLAG_IGNORE_UAS, &m, &changed) && changed &&
		       !cmdline_write(&cl, &out) && same(&out, now);
	}
out:
	cmdline_release(&cl);
	sbuf_release(&q);
	sbuf_release(&out);
	return made;
}

/* Whether now is exactly what `fix pcie-gen 2` or `3` or `fix usb-current` makes of before. */
static bool pcie_fix_made(const struct sbuf *before, const struct sbuf *now)
{
	struct sbuf out = SBUF_INIT(CONFIG_FILE_MAX + 4096);
	struct config cfg;
	bool made = false, changed;
	struct fix_msgs m;
	int gen;

	for (gen = 2; gen <= 3 && !made; gen++) {
		m = (struct fix_msgs){ 0 };
		made = !config_parse(sbuf_str(before), before->len, &cfg) &&
		       !config_pcie_gen_set(&cfg, gen, &m, &changed) && changed &&
		       !config_write(&cfg, &out) && same(&out, now);
		config_release(&cfg);
	}
	if (!made) {
		m = (struct fix_msgs){ 0 };
		made = !config_parse(sbuf_str(before), before->len, &cfg) &&
		       !config_usb_current_set(&cfg, &m, &changed) && changed &&
		       !config_write(&cfg, &out) && same(&out, now);
		config_release(&cfg);
	}
	sbuf_release(&out);
	return made;
}

int fix_plan_undo(struct sysroot *sr, struct fix_plan *p)
{
	char bc[300] = "", bg[300] = "", path[PATH_MAX];
	const char *target, *from;
	struct boot_loc loc;
	const char *slash;
	struct sbuf raw;
	int ret;

	plan_init(p, FIX_UNDO);
	ret = boot_locate(sr, &loc, &p->msgs);
	if (ret)
		return ret;
	slash = strrchr(loc.cmdline, '/');
	str_fmt(path, sizeof(path), "%.*s", (int)(slash - loc.cmdline), loc.cmdline);
	boot_backup_newest(sr, path, slash + 1, bc, sizeof(bc));
	boot_backup_newest(sr, loc.fw_dir, "config.txt", bg, sizeof(bg));
	if (!bc[0] && !bg[0])
		return fix_refuse(&p->msgs, -ENOENT, "there is no backup to put back: no "
						     "%s" BOOT_BACKUP_TAG "* or config.txt"
						     BOOT_BACKUP_TAG "* in %s",
				  slash + 1, loc.fw_dir);
	/* stamps are unique within a directory (boot_file_backup), so they order the fixes */
	if (bc[0] && (!bg[0] || strcmp(backup_stamp(bc), backup_stamp(bg)) > 0)) {
		target = loc.cmdline;
		from = bc;
	} else {
		target = loc.config;
		from = bg;
	}
	str_copy(p->restore_from, sizeof(p->restore_from), from);
	str_copy(p->file.path, sizeof(p->file.path), target);
	ret = boot_file_read(sr, target, CONFIG_FILE_MAX, &p->file, &p->msgs);
	if (ret)
		return refuse_file(p, ret);
	str_fmt(path, sizeof(path), "%s/%s", p->file.dir, from);
	ret = sysroot_read_file(sr, path, CONFIG_FILE_MAX, &raw);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot read the backup '%s': %s", path,
				  strerror(-ret));
	sbuf_reset(&p->after);
	ret = sbuf_add(&p->after, raw.buf ? raw.buf : "", raw.len);
	sbuf_release(&raw);
	if (ret)
		return ret;
	p->changed = !same(&p->after, &p->file.data);
	fix_note(&p->msgs, "puts back %s, the newest backup, and then removes it", from);
	/* never drop the only copy of an edit made after the fix */
	if (target == loc.cmdline)
		p->keep_current = p->changed && !uas_fix_made(&p->after, &p->file.data);
	else
		p->keep_current = p->changed && !pcie_fix_made(&p->after, &p->file.data);
	if (p->keep_current)
		fix_note(&p->msgs, "%s was changed after that fix: its current contents are kept as "
				   "a new backup beside it (a second 'sbcdisk fix undo --apply' puts "
				   "them back)", p->file.path);
	str_fmt(p->next_boot, sizeof(p->next_boot),
		"At the next boot the firmware and the kernel read %s as it was before the fix "
		"that made %s.", p->file.path, from);
	return 0;
}

/* Refuse with the file's name: "cannot write 'F' (nothing was changed): why". */
static int refuse_write(struct fix_plan *p, int ret, const char *why)
{
	return fix_refuse(&p->msgs, ret, "cannot write '%s' (it is unchanged; nothing was "
					 "changed): %s", p->file.path, why);
}

/* Under the directory lock: the file still holds what the plan read. 0 or -errno. */
static int plan_still_valid(struct sysroot *sr, struct fix_plan *p)
{
	struct sbuf now;
	int ret = sysroot_read_file(sr, p->file.path, CONFIG_FILE_MAX, &now);

	if (ret)
		return refuse_write(p, ret, strerror(-ret));
	if (now.len != p->file.data.len || memcmp(sbuf_str(&now), sbuf_str(&p->file.data),
						  now.len))
		ret = refuse_write(p, -EAGAIN, "it changed while this command ran; run it again");
	sbuf_release(&now);
	return ret;
}

/* A backup made by a fix that was killed before its replacement holds the file as it is:
 * no change happened, so it goes. */
static void settle_backup(struct sysroot *sr, int dfd, struct fix_plan *p)
{
	char newest[300];

	if (boot_backup_newest(sr, p->file.dir, p->file.name, newest, sizeof(newest)) ||
	    !newest[0] || !strcmp(newest, p->restore_from))
		return;
	if (afile_backup_settle(dfd, p->file.name, newest) == 1)
		fix_note(&p->msgs, "removed %s: a fix that was interrupted left it, and the file "
				   "never changed", newest);
}

static int apply_locked(struct sysroot *sr, int dfd, struct fix_plan *p)
{
	const void *old = NULL;
	int ret;

	ret = plan_still_valid(sr, p);
	if (ret)
		return ret;
	settle_backup(sr, dfd, p);
	if (p->kind != FIX_UNDO || p->keep_current)
		old = sbuf_str(&p->file.data);
	if (p->changed) {
		ret = boot_file_commit(dfd, sr, &p->file, sbuf_str(&p->after), p->after.len, old,
				       p->file.data.len, p->backup, sizeof(p->backup));
		if (ret)
			return refuse_write(p, ret, strerror(-ret));
	}
	if (p->kind == FIX_UNDO) {
		ret = boot_file_remove(sr, p->file.dir, p->restore_from);
		if (ret)
			return fix_refuse(&p->msgs, ret, "restored '%s' but cannot remove the "
							 "backup '%s': %s", p->file.path,
					  p->restore_from, strerror(-ret));
	}
	return 0;
}

int fix_plan_apply(struct sysroot *sr, struct fix_plan *p)
{
	int dfd, ret;

	p->backup[0] = '\0';
	if (!p->changed && p->kind != FIX_UNDO)
		return 0;
	dfd = boot_dir_open(sr, p->file.dir);
	if (dfd < 0)
		return refuse_write(p, dfd, strerror(-dfd));
	ret = afile_lock(dfd, false);
	if (ret == -EBUSY)
		ret = refuse_write(p, ret, "another sbcdisk is changing the files there; run this "
					   "again when it has finished");
	else if (ret)
		ret = refuse_write(p, ret, strerror(-ret));
	else
		ret = apply_locked(sr, dfd, p);
	close(dfd); /* and with it the lock */
	return ret;
}

int fix_quirks_now(struct sysroot *sr, struct usb_id id, bool apply, char *before,
		   char *after, size_t cap, bool *changed, struct fix_msgs *m)
{
	struct sbuf cur, nv = SBUF_INIT(4096);
	struct usbq_merge res;
	size_t len;
	int fd, ret;

	*changed = false;
	before[0] = after[0] = '\0';
	ret = sysroot_read_file(sr, PATH_USB_STORAGE_QUIRKS, 4096, &cur);
	if (ret == -ENOENT)
		return fix_refuse(m, ret, "%s does not exist: the usb-storage driver is not "
					  "loaded, so nothing is bound to it yet",
				  PATH_USB_STORAGE_QUIRKS);
	if (ret)
		return fix_refuse(m, ret, "cannot read %s: %s", PATH_USB_STORAGE_QUIRKS,
				  strerror(-ret));
	len = cur.len;
	while (len && isspace((unsigned char)cur.buf[len - 1]))
		len--;
	ret = usbq_list_add(cur.buf ? cur.buf : "", len, id, USBQ_FLAG_IGNORE_UAS, &nv, &res);
	if (!ret && (str_fmt(before, cap, "%.*s", (int)len, cur.buf ? cur.buf : "") ||
		     str_copy(after, cap, sbuf_str(&nv))))
		ret = fix_refuse(m, -E2BIG, "%s holds %zu characters: not a quirks list the "
					    "kernel would keep", PATH_USB_STORAGE_QUIRKS, len);
	if (ret)
		goto out;
	if (nv.len > USBQ_VALUE_MAX) {
		ret = fix_refuse(m, -ENOSPC, "the running kernel's list would be %zu characters; "
					     "it takes at most %d", nv.len, USBQ_VALUE_MAX);
		goto out;
	}
	*changed = res.change != USBQ_SAME || res.dups_removed;
	if (!apply || !*changed)
		goto out;
	fd = sysroot_open_fd(sr, PATH_USB_STORAGE_QUIRKS, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		ret = fix_refuse(m, fd, "cannot write %s: %s", PATH_USB_STORAGE_QUIRKS,
				 strerror(-fd));
		goto out;
	}
	if (write(fd, nv.buf, nv.len) != (ssize_t)nv.len)
		ret = fix_refuse(m, -errno ? -errno : -EIO, "cannot write %s: %s",
				 PATH_USB_STORAGE_QUIRKS, strerror(errno ? errno : EIO));
	if (close(fd) && !ret)
		ret = fix_refuse(m, -errno, "cannot write %s: %s", PATH_USB_STORAGE_QUIRKS,
				 strerror(errno));
out:
	sbuf_release(&cur);
	sbuf_release(&nv);
	return ret;
}

static bool dev_name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return false;
	return true;
}

int fix_usb_id_of_block(struct sysroot *sr, const char *dev, struct usb_id *id,
			struct fix_msgs *m)
{
	const char *name = str_starts(dev, PATH_DEV_PREFIX) ? dev + strlen(PATH_DEV_PREFIX) : dev;
	const struct probe_usb *u;
	struct inventory *inv = NULL;
	struct blkdev *d;
	char speed[32] = "";
	int ret;

	if (!dev_name_ok(name) || !strcmp(name, ".") || !strcmp(name, ".."))
		return fix_refuse(m, -EINVAL, "not a block device name");
	ret = probe_inventory_load(sr, &inv);
	if (ret)
		return fix_refuse(m, ret, "cannot read the block devices: %s", strerror(-ret));
	d = probe_inventory_find(inv, name);
	if (!d) {
		ret = fix_refuse(m, -ENOENT, "no such block device");
		goto out;
	}
	u = probe_blkdev_usb(d);
	if (!u || !u->has_ids) {
		ret = fix_refuse(m, -ENODEV, "it is not a USB device: the uas quirk cannot apply");
		goto out;
	}
	id->vid = u->vid_num;
	id->pid = u->pid_num;
	if (u->has_speed)
		str_fmt(speed, sizeof(speed), ", %gM", u->speed_mbps);
	fix_note(m, "%s is the USB device %04x:%04x%s%s%s at port %s, driver %s%s", name, id->vid,
		 id->pid, u->bridge[0] ? " (" : "", u->bridge, u->bridge[0] ? ")" : "", u->port,
		 u->driver[0] ? u->driver : "unknown", speed);
	if (inv->root && probe_blkdev_whole(inv->root) == probe_blkdev_whole(d))
		fix_note(m, "it holds the running system: the fix takes effect at the next reboot "
			    "(do not unplug it)");
	ret = 0;
out:
	probe_inventory_free(inv);
	return ret;
}
