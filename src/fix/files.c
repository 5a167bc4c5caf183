/* files.c - the fixes on another disk's boot partition through an accessor (fix/files.h): the
 * same edits of cmdline.txt and config.txt as plan.c, with backup and undo beside the file. */
#include <errno.h>
#include <time.h>

#include "fix/files.h"
#include "fix/cmdline.h"
#include "fix/config.h"
#include "common/bootcfg.h"
#include "common/util.h"

static void files_init(struct fix_plan *p, enum fix_kind kind)
{
	*p = (struct fix_plan){ .kind = kind };
	sbuf_init(&p->file.data, CONFIG_FILE_MAX);
	sbuf_init(&p->after, CONFIG_FILE_MAX + 4096);
}

static int set_name(const struct fix_files *io, struct fix_plan *p, const char *name)
{
	const char *slash = strrchr(name, '/');

	str_copy(p->file.dir, sizeof(p->file.dir), io->where);
	str_copy(p->file.name, sizeof(p->file.name), name);
	if (slash) /* os_prefix "os/": the backup goes beside the file, in its directory */
		str_fmt(p->file.dir, sizeof(p->file.dir), "%s/%.*s", io->where,
			(int)(slash - name), name);
	return str_fmt(p->file.path, sizeof(p->file.path), "%s/%s", io->where, name) ?
		       -ENAMETOOLONG : 0;
}

/* The file's bytes into p->file.data. */
static int read_into(const struct fix_files *io, const char *name, size_t cap, struct sbuf *out,
		     struct fix_msgs *m, const char *where)
{
	struct sbuf tmp;
	int ret = io->read(io->arg, name, cap, &tmp);

	if (ret == -ENOENT)
		return fix_refuse(m, ret, "%s/%s does not exist: is this the disk's boot partition?",
				  where, name);
	if (ret)
		return fix_refuse(m, ret, "cannot read %s/%s: %s", where, name, strerror(-ret));
	sbuf_reset(out);
	ret = sbuf_add(out, tmp.buf ? tmp.buf : "", tmp.len);
	sbuf_release(&tmp);
	return ret;
}

/* The command line file's name on the partition: its own config.txt decides, read for
 * io->board as the firmware reads it (common/bootcfg-eval.h: filters, include, os_prefix,
 * cmdline=), cmdline.txt when it has none. */
static int cmdline_name(const struct fix_files *io, char *name, size_t cap, struct fix_msgs *m)
{
	struct config_source src = { .read = io->read, .arg = io->arg };
	char why[256] = "";
	int ret;

	ret = boot_loc_cmdline_name(&src, &io->board, name, cap, why, sizeof(why));
	if (ret)
		return fix_refuse(m, ret, "%s/config.txt: %s", io->where,
				  why[0] ? why : strerror(-ret));
	if (strcmp(name, "cmdline.txt"))
		fix_note(m, "the disk's own config.txt names the command line file '%s'", name);
	return 0;
}

static int plan_uas(const struct fix_files *io, struct usb_id id, struct fix_plan *p)
{
	struct cmdline cl = { 0 };
	char name[160];
	int ret;

	ret = cmdline_name(io, name, sizeof(name), &p->msgs);
	if (!ret)
		ret = set_name(io, p, name);
	if (!ret)
		ret = read_into(io, name, CMDLINE_FILE_MAX, &p->file.data, &p->msgs, io->where);
	if (ret)
		return ret;
	ret = cmdline_parse(sbuf_str(&p->file.data), p->file.data.len, &cl);
	if (!ret)
		ret = cmdline_quirks_add(&cl, id, USBQ_FLAG_IGNORE_UAS, &p->msgs, &p->changed);
	if (!ret)
		ret = cmdline_write(&cl, &p->after);
	cmdline_release(&cl);
	if (ret)
		return p->msgs.why[0] ? ret : fix_refuse(&p->msgs, ret, "cannot edit %s: %s",
							  p->file.path, strerror(-ret));
	str_fmt(p->next_boot, sizeof(p->next_boot),
		p->changed ? "When the board boots from this disk, its kernel reads %s: "
			     "usb-storage, not uas, drives %04x:%04x from the first moment. The "
			     "running system's own files are not changed." :
			     "Nothing to change: %s already holds the quirk.",
		p->file.path, id.vid, id.pid);
	return 0;
}

static int plan_config(const struct fix_files *io, enum fix_kind kind, int gen,
		       struct fix_plan *p)
{
	struct config cfg = { 0 };
	int ret;

	ret = set_name(io, p, "config.txt");
	if (!ret)
		ret = read_into(io, "config.txt", CONFIG_FILE_MAX, &p->file.data, &p->msgs,
				io->where);
	if (ret)
		return ret;
	ret = config_parse(sbuf_str(&p->file.data), p->file.data.len, &cfg);
	if (!ret)
		ret = kind == FIX_PCIE_GEN ? config_pcie_gen_set(&cfg, gen, &p->msgs, &p->changed) :
					     config_usb_current_set(&cfg, &p->msgs, &p->changed);
	if (!ret)
		ret = config_write(&cfg, &p->after);
	config_release(&cfg);
	if (ret)
		return p->msgs.why[0] ? ret : fix_refuse(&p->msgs, ret, "cannot edit %s: %s",
							  p->file.path, strerror(-ret));
	str_fmt(p->next_boot, sizeof(p->next_boot), p->changed ?
		"When a Raspberry Pi 5 boots from this disk, its firmware reads %s with the new "
		"line. The running system's own files are not changed." :
		"Nothing to change in %s.", p->file.path);
	return 0;
}

/* The newest "::/NAME.sbcdisk-STAMP" of the listing into out ("" when none). */
static void newest_backup(const char *listing, const char *name, char *out, size_t cap)
{
	char want[300];
	const char *s = listing, *e;
	size_t n;

	out[0] = '\0';
	if (str_fmt(want, sizeof(want), "::/%s" BOOT_BACKUP_TAG, name))
		return;
	n = strlen(want);
	for (; *s; s = *e ? e + 1 : e) {
		char line[300];

		e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		if ((size_t)(e - s) >= sizeof(line) || strncmp(s, want, n))
			continue;
		memcpy(line, s + 3, (size_t)(e - s) - 3);
		line[e - s - 3] = '\0';
		if (line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (boot_backup_is_stamp(line + n - 3) && (!out[0] || strcmp(line, out) > 0))
			str_copy(out, cap, line);
	}
}

static const char *stamp_of(const char *backup)
{
	const char *t = strstr(backup, BOOT_BACKUP_TAG);

	return t ? t + strlen(BOOT_BACKUP_TAG) : "";
}

static int plan_undo(const struct fix_files *io, struct fix_plan *p)
{
	char name[160], bc[300], bg[300];
	const char *from, *target;
	struct sbuf list;
	int ret;

	ret = cmdline_name(io, name, sizeof(name), &p->msgs);
	if (ret)
		return ret;
	ret = io->list(io->arg, &list);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot list %s: %s", io->where, strerror(-ret));
	newest_backup(sbuf_str(&list), name, bc, sizeof(bc));
	newest_backup(sbuf_str(&list), "config.txt", bg, sizeof(bg));
	sbuf_release(&list);
	if (!bc[0] && !bg[0])
		return fix_refuse(&p->msgs, -ENOENT, "no backup made by sbcdisk fix on %s",
				  io->where);
	from = bc[0] && (!bg[0] || strcmp(stamp_of(bc), stamp_of(bg)) >= 0) ? bc : bg;
	target = from == bc ? name : "config.txt";
	str_copy(p->restore_from, sizeof(p->restore_from), from);
	ret = set_name(io, p, target);
	if (!ret)
		ret = read_into(io, target, CONFIG_FILE_MAX, &p->file.data, &p->msgs, io->where);
	if (!ret)
		ret = read_into(io, from, CONFIG_FILE_MAX, &p->after, &p->msgs, io->where);
	if (ret)
		return ret;
	p->changed = p->after.len != p->file.data.len ||
		     memcmp(sbuf_str(&p->after), sbuf_str(&p->file.data), p->after.len);
	fix_note(&p->msgs, "puts back %s/%s, the newest backup, and then removes it", io->where,
		 from);
	str_fmt(p->next_boot, sizeof(p->next_boot),
		"When the board boots from this disk, it reads %s as it was before the fix that "
		"made %s.", p->file.path, from);
	/* restore_from is shown as dir/restore_from: the name relative to the directory */
	if (strrchr(from, '/'))
		str_copy(p->restore_from, sizeof(p->restore_from), strrchr(from, '/') + 1);
	return 0;
}

int fix_files_plan(const struct fix_files *io, enum fix_kind kind, struct usb_id id, int gen,
		   struct fix_plan *p)
{
	files_init(p, kind);
	switch (kind) {
	case FIX_UAS:
		return plan_uas(io, id, p);
	case FIX_PCIE_GEN:
	case FIX_USB_CURRENT:
		return plan_config(io, kind, gen, p);
	case FIX_UNDO:
		return plan_undo(io, p);
	case FIX_SD_CQE:
	case FIX_NVME_APST: /* the running system's files only (cli/cmd-fix.c) */
	case FIX_FSTAB:     /* prepare's fstab edit: fix/fstab.c */
		break;
	}
	return -EINVAL;
}

/* The partition-relative name of the plan's file (path is where + "/" + name). */
static const char *rel_name(const struct fix_files *io, const struct fix_plan *p)
{
	return p->file.path + strlen(io->where) + 1;
}

static int apply_undo(const struct fix_files *io, struct fix_plan *p, const char *rel)
{
	char from[PATH_MAX];
	const char *slash = strrchr(rel, '/');
	int ret;

	if (p->changed) {
		ret = io->write(io->arg, rel, sbuf_str(&p->after), p->after.len);
		if (ret)
			return fix_refuse(&p->msgs, ret, "cannot write %s (it may be half "
					  "written: the backup %s is kept): %s", p->file.path,
					  p->restore_from, strerror(-ret));
	}
	if (str_fmt(from, sizeof(from), "%.*s%s", slash ? (int)(slash - rel + 1) : 0, rel,
		    p->restore_from))
		return -ENAMETOOLONG;
	ret = io->remove(io->arg, from);
	if (ret)
		return fix_refuse(&p->msgs, ret, "restored %s, but cannot remove the backup %s: %s",
				  p->file.path, from, strerror(-ret));
	return 0;
}

int fix_files_apply(const struct fix_files *io, struct fix_plan *p)
{
	const char *rel = rel_name(io, p);
	char stamp[32], backup[PATH_MAX];
	struct sbuf now;
	struct tm tm;
	time_t t = time(NULL);
	int ret;

	p->backup[0] = '\0';
	if (!p->changed && p->kind != FIX_UNDO)
		return 0;
	ret = io->read(io->arg, rel, CONFIG_FILE_MAX, &now);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot read %s again: %s", p->file.path,
				  strerror(-ret));
	ret = now.len != p->file.data.len ||
	      memcmp(sbuf_str(&now), sbuf_str(&p->file.data), now.len) ? -ESTALE : 0;
	sbuf_release(&now);
	if (ret)
		return fix_refuse(&p->msgs, ret, "%s changed since it was read; nothing was "
				  "written: run the command again", p->file.path);
	if (p->kind == FIX_UNDO)
		return apply_undo(io, p, rel);
	if (!gmtime_r(&t, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	for (int i = 1; i <= 9; i++) {
		struct sbuf probe;

		ret = i == 1 ? str_fmt(backup, sizeof(backup), "%s" BOOT_BACKUP_TAG "%s", rel,
				       stamp) :
			       str_fmt(backup, sizeof(backup), "%s" BOOT_BACKUP_TAG "%s-%d", rel,
				       stamp, i);
		if (ret)
			return -ENAMETOOLONG;
		ret = io->read(io->arg, backup, 0, &probe);
		if (ret == -ENOENT)
			break;
		if (!ret)
			sbuf_release(&probe);
		ret = -EEXIST;
	}
	if (ret != -ENOENT)
		return fix_refuse(&p->msgs, -EEXIST, "too many backups of %s this second",
				  p->file.path);
	ret = io->write(io->arg, backup, sbuf_str(&p->file.data), p->file.data.len);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot write the backup %s/%s (nothing was "
				  "changed): %s", io->where, backup, strerror(-ret));
	ret = io->write(io->arg, rel, sbuf_str(&p->after), p->after.len);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot write %s (the backup %s/%s holds what "
				  "it was): %s", p->file.path, io->where, backup, strerror(-ret));
	str_copy(p->backup, sizeof(p->backup), strrchr(backup, '/') ? strrchr(backup, '/') + 1 :
								    backup);
	return 0;
}
