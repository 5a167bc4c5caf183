// SPDX-License-Identifier: GPL-2.0-or-later
/* fstab.c - the fstab edits of `prepare`: one line appended under a comment that says who
 * added it, written as the boot files are (dated backup, atomic replacement), and its undo. */
#include <errno.h>
#include <string.h>

#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"
#include "fix/plan.h"

#define FSTAB_FILE_MAX (256 * 1024)

static void fstab_init(struct fix_plan *p, enum fix_kind kind)
{
	*p = (struct fix_plan){ .kind = kind };
	sbuf_init(&p->file.data, FSTAB_FILE_MAX);
	sbuf_init(&p->after, FSTAB_FILE_MAX + 4096);
}

static int fstab_read(struct sysroot *sr, struct fix_plan *p)
{
	char why[FIX_MSG_MAX];
	int ret;

	str_copy(p->file.path, sizeof(p->file.path), PATH_ETC_FSTAB);
	ret = boot_file_read(sr, PATH_ETC_FSTAB, FSTAB_FILE_MAX, &p->file, &p->msgs);
	if (!ret)
		return 0;
	str_copy(why, sizeof(why), p->msgs.why[0] ? p->msgs.why : strerror(-ret));
	return fix_refuse(&p->msgs, ret, "cannot edit '%s': %s", PATH_ETC_FSTAB, why);
}

int fix_plan_fstab(struct sysroot *sr, const char *line, const char *comment,
		   struct fix_plan *p)
{
	const char *old;
	int ret;

	fstab_init(p, FIX_FSTAB);
	ret = fstab_read(sr, p);
	if (ret)
		return ret;
	old = sbuf_str(&p->file.data);
	if (sbuf_add(&p->after, old, p->file.data.len) ||
	    (p->file.data.len && old[p->file.data.len - 1] != '\n' && sbuf_addch(&p->after, '\n')) ||
	    sbuf_addf(&p->after, "%s%s\n%s\n", FIX_FSTAB_TAG, comment, line))
		return fix_refuse(&p->msgs, -EFBIG, "'%s' is too large to edit", PATH_ETC_FSTAB);
	p->changed = true;
	fix_note(&p->msgs, "appends to %s: %s", PATH_ETC_FSTAB, line);
	return 0;
}

/* Does now hold before plus lines that prepare added (each after its comment), only? */
static bool fstab_only_added(const struct sbuf *before, const struct sbuf *now)
{
	const char *s = sbuf_str(now), *end = s + now->len;
	size_t tl = strlen(FIX_FSTAB_TAG);

	if (now->len < before->len || memcmp(s, sbuf_str(before), before->len))
		return false;
	s += before->len;
	if (before->len && s[-1] != '\n' && s < end && *s == '\n')
		s++;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		if ((size_t)(end - s) < tl || memcmp(s, FIX_FSTAB_TAG, tl) || !nl)
			return false;
		nl = memchr(nl + 1, '\n', (size_t)(end - nl - 1));
		if (!nl)
			return false;
		s = nl + 1;
	}
	return true;
}

int fix_plan_fstab_undo(struct sysroot *sr, struct fix_plan *p)
{
	char from[300] = "", path[PATH_MAX];
	struct sbuf raw;
	int ret;

	fstab_init(p, FIX_UNDO);
	ret = fstab_read(sr, p);
	if (ret)
		return ret;
	ret = boot_backup_newest(sr, p->file.dir, p->file.name, from, sizeof(from));
	if (ret || !from[0])
		return fix_refuse(&p->msgs, -ENOENT, "there is no backup to put back: no "
				  "%s" BOOT_BACKUP_TAG "* in %s", p->file.name, p->file.dir);
	str_copy(p->restore_from, sizeof(p->restore_from), from);
	str_fmt(path, sizeof(path), "%s/%s", p->file.dir, from);
	ret = sysroot_read_file(sr, path, FSTAB_FILE_MAX, &raw);
	if (ret)
		return fix_refuse(&p->msgs, ret, "cannot read the backup '%s': %s", path,
				  strerror(-ret));
	ret = sbuf_add(&p->after, raw.buf ? raw.buf : "", raw.len);
	sbuf_release(&raw);
	if (ret)
		return ret;
	p->changed = p->after.len != p->file.data.len ||
		     memcmp(sbuf_str(&p->after), sbuf_str(&p->file.data), p->after.len);
	fix_note(&p->msgs, "puts back %s, the newest backup, and then removes it", from);
	/* never drop the only copy of an edit made after prepare's */
	p->keep_current = p->changed && !fstab_only_added(&p->after, &p->file.data);
	if (p->keep_current)
		fix_note(&p->msgs, "%s was changed after that edit: its current contents are kept "
			 "as a new backup beside it", p->file.path);
	return 0;
}
