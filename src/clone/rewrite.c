// SPDX-License-Identifier: GPL-2.0-or-later
/* rewrite.c - the names in cmdline.txt's root=, extlinux.conf's APPEND root= and /etc/fstab
 * that name a source partition, rewritten to the target's new ids; every other byte kept.
 * Parsing is common/rootspec.c's and (extlinux.conf) boot/'s. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/kcmdline.h"
#include "common/rootspec.h"
#include "common/sbuf.h"
#include "common/util.h"

/* The partition number in a kernel name of a disk's partition: mmcblk0p2, nvme0n1p2, sda2,
 * vdb3, loop0p1; 0 when the name is none of these. */
static unsigned name_partno(const char *n)
{
	size_t len = strlen(n), i = len;

	while (i && isdigit((unsigned char)n[i - 1]))
		i--;
	if (i == len || i == 0 || len - i > 3)
		return 0;
	if (n[i - 1] == 'p' && i >= 2 && isdigit((unsigned char)n[i - 2]))
		return (unsigned)atoi(n + i); /* mmcblk0p2, nvme0n1p2, loop0p1 */
	if ((!strncmp(n, "sd", 2) || !strncmp(n, "vd", 2) || !strncmp(n, "hd", 2) ||
	     !strncmp(n, "xvd", 3)) && isalpha((unsigned char)n[i - 1]))
		return (unsigned)atoi(n + i);
	return 0;
}

/* The disk of a partition's kernel name into disk ("mmcblk0p2" -> "mmcblk0", "sda2" ->
 * "sda"); its partition number, 0 when the name is no partition's. */
static unsigned name_disk(const char *n, char *disk, size_t cap)
{
	unsigned no = name_partno(n);
	size_t len = strlen(n), i = len;

	disk[0] = '\0';
	if (!no)
		return 0;
	while (i && isdigit((unsigned char)n[i - 1]))
		i--;
	if (n[i - 1] == 'p' && i >= 2 && isdigit((unsigned char)n[i - 2]))
		i--;
	return str_fmt(disk, cap, "%.*s", (int)i, n) ? 0 : no;
}

/* Does the source carry kernel names here that its own system uses? A disk does; an image
 * has none, and a loop device's (loop7p2) are not the ones its system gives itself. */
static bool names_are_own(const struct clone_plan *p)
{
	return p->src_disk[0] && strncmp(p->src_disk, "loop", 4);
}

/* A device name the source's system gives its root (root=, fstab's /) tells its own disk
 * name: remembered, the first one only. */
static void own_disk_learn(struct clone_plan *p, const struct rootspec *rs)
{
	struct rootspec dn = *rs;

	if (p->src_own_disk[0] || names_are_own(p))
		return;
	if (dn.kind == ROOTSPEC_OTHER && name_partno(dn.value))
		dn.kind = ROOTSPEC_DEVNAME; /* root=mmcblk0p2: a name without /dev/ */
	if (dn.kind == ROOTSPEC_DEVNAME)
		name_disk(dn.value, p->src_own_disk, sizeof(p->src_own_disk));
}

/* The source partition a spec names, or NULL. A device name names a partition by the
 * source's kernel names here; where those are not its own (an image, a loop device), by
 * the disk name its system gives its root: /dev/mmcblk0p1 is partition 1 when root= is
 * /dev/mmcblk0p2, and /dev/sda2 is another disk. One rule for an image and a loop device. */
static struct clone_part *spec_part(struct clone_plan *p, const struct rootspec *rs)
{
	size_t i;

	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];
		struct rootspec_part rp = { .name = cp->name, .partuuid = cp->partuuid,
					    .uuid = cp->uuid, .label = cp->label,
					    .partlabel = cp->partlabel };

		if (rootspec_matches(rs, &rp))
			return cp;
	}
	if (rs->kind == ROOTSPEC_OTHER && name_partno(rs->value)) {
		/* root=mmcblk0p2: the kernel takes a name without /dev/ too */
		struct rootspec dn = *rs;

		dn.kind = ROOTSPEC_DEVNAME;
		return spec_part(p, &dn);
	}
	if (rs->kind == ROOTSPEC_DEVNAME && !names_are_own(p) && p->src_own_disk[0]) {
		char disk[64];
		unsigned n = name_disk(rs->value, disk, sizeof(disk));

		for (i = 0; n && !strcmp(disk, p->src_own_disk) && i < p->n_parts; i++)
			if (p->parts[i].partno == n)
				return &p->parts[i];
	}
	return NULL;
}

/* The new spec for a name of cp: the same kind where the id is new, else the PARTUUID
 * (a device name differs on the new disk; a label is now on two attached disks). */
static int spec_new(const struct rootspec *rs, const char *written, const struct clone_part *cp,
		    bool cmdline, char *out, size_t cap)
{
	bool by_path = !strncmp(written, "/dev/disk/by-", 13);

	switch (rs->kind) {
	case ROOTSPEC_UUID:
		if (!cp->t_uuid[0])
			break;
		return str_fmt(out, cap, by_path ? "/dev/disk/by-uuid/%s" : "UUID=%s", cp->t_uuid);
	case ROOTSPEC_LABEL:
		if (!cmdline && cp->t_uuid[0])
			return str_fmt(out, cap, "UUID=%s", cp->t_uuid);
		break;
	case ROOTSPEC_PARTUUID:
		if (by_path)
			return str_fmt(out, cap, "/dev/disk/by-partuuid/%s", cp->t_partuuid);
		break;
	default:
		break;
	}
	return str_fmt(out, cap, "PARTUUID=%s", cp->t_partuuid);
}

static void add_warning(struct clone_plan *p, const char *msg)
{
	if (p->n_warnings < sizeof(p->warnings) / sizeof(p->warnings[0]))
		str_copy(p->warnings[p->n_warnings++], sizeof(p->warnings[0]), msg);
}

static unsigned line_of(const char *text, size_t off)
{
	unsigned n = 1;

	for (size_t i = 0; i < off; i++)
		n += text[i] == '\n';
	return n;
}

/* One replacement of [off, off + len) of text by repl, recorded for the plan's table. */
struct edit {
	size_t off, len;
	char repl[192];
};

static int record(struct clone_plan *p, const char *file, const char *text, size_t len,
		  size_t lo, size_t llen, const struct edit *e)
{
	struct clone_rewrite *r;
	char before[192], after[192];
	size_t pre = e->off - lo, bl = llen < sizeof(before) - 1 ? llen : sizeof(before) - 1;

	(void)len;
	if (p->n_rewrites == CLONE_REWRITES_MAX)
		return -E2BIG;
	memcpy(before, text + lo, bl);
	before[bl] = '\0';
	if (str_fmt(after, sizeof(after), "%.*s%s%.*s", (int)pre, text + lo, e->repl,
		    (int)(llen - pre - e->len), text + e->off + e->len) < 0) {
		/* a very long line: show the name alone */
		str_fmt(before, sizeof(before), "%.*s", (int)e->len, text + e->off);
		str_copy(after, sizeof(after), e->repl);
	}
	r = &p->rewrites[p->n_rewrites++];
	memset(r, 0, sizeof(*r));
	str_copy(r->file, sizeof(r->file), file);
	r->line = line_of(text, e->off);
	str_copy(r->before, sizeof(r->before), before);
	str_copy(r->after, sizeof(r->after), after);
	str_sanitize(r->before);
	str_sanitize(r->after);
	return 0;
}

/* The bounds of the token (a kernel argument) holding off, for the table's before/after. */
static void arg_bounds(const char *text, size_t len, size_t off, size_t *lo, size_t *llen)
{
	size_t a = off, b = off;

	while (a && text[a - 1] != ' ' && text[a - 1] != '\t' && text[a - 1] != '\n')
		a--;
	while (b < len && text[b] != ' ' && text[b] != '\t' && text[b] != '\n' && text[b] != '\r')
		b++;
	*lo = a;
	*llen = b - a;
}

/* The root= of a kernel command line at [base, base + blen) of text (cmdline.txt, or one
 * APPEND line of extlinux.conf): one edit when it names a source partition, else a warning
 * (when the line has a root= at all, or when it must have one). */
static int rewrite_root(struct clone_plan *p, const char *file, const char *text, size_t len,
			size_t base, size_t blen, bool must, struct edit *ed, size_t *n)
{
	size_t voff, vlen, lo, llen;
	struct clone_part *cp;
	struct rootspec rs;
	char w[200];
	int ret;

	if (rootspec_cmdline_root(text + base, blen, &voff, &vlen)) {
		if (must) {
			str_fmt(w, sizeof(w), "%s has no root=: left alone", file);
			add_warning(p, w);
		}
		return 0;
	}
	voff += base;
	ret = rootspec_parse(text + voff, vlen, &rs);
	if (!ret)
		own_disk_learn(p, &rs);
	if (ret || !(cp = spec_part(p, &rs))) {
		char v[128];

		str_fmt(v, sizeof(v), "%.*s", (int)(vlen < 100 ? vlen : 100), text + voff);
		str_sanitize(v);
		str_fmt(w, sizeof(w), "%s: root=%s names no partition of the source: left alone",
			file, v);
		add_warning(p, w);
		return 0;
	}
	if (*n == CLONE_REWRITES_MAX)
		return -E2BIG;
	ed += *n;
	ed->off = voff;
	ed->len = vlen;
	spec_new(&rs, rs.value, cp, true, ed->repl, sizeof(ed->repl));
	if (vlen == strlen(ed->repl) && !memcmp(text + voff, ed->repl, vlen))
		return 0;
	arg_bounds(text, len, voff, &lo, &llen);
	(*n)++;
	return record(p, file, text, len, lo, llen, ed);
}

int clone_rewrite_text(struct clone_plan *p, const char *file, enum clone_text kind,
		       const char *text, size_t len, char **out, size_t *outlen)
{
	struct edit edits[CLONE_REWRITES_MAX];
	struct sbuf sb = SBUF_INIT(CLONE_TEXT_MAX + 4096);
	size_t n = 0, i, at = 0;
	struct rootspec rs;
	int ret = 0;

	*out = NULL;
	*outlen = 0;
	if (kind == CLONE_TEXT_CMDLINE) {
		/* the firmware reads the first line only: its root= is the one in force */
		size_t l1 = kcmdline_first_line(text, len), j;

		for (j = l1; j < len && kcmdline_is_space(text[j]); j++)
			;
		if (j < len) {
			char w[200];

			str_fmt(w, sizeof(w), "%s has more than one line: the firmware reads the "
				"first only; the others are left alone", file);
			add_warning(p, w);
		}
		ret = rewrite_root(p, file, text, len, 0, l1, true, edits, &n);
		if (ret)
			return ret;
	} else if (kind == CLONE_TEXT_EXTLINUX) {
		struct boot_extlinux_iter it = { 0 };
		size_t off, alen;

		/* every APPEND line of every LABEL: the one booted by default and the fallbacks */
		while (!boot_extlinux_next_append(text, len, &it, &off, &alen)) {
			ret = rewrite_root(p, file, text, len, off, alen, false, edits, &n);
			if (ret)
				return ret;
		}
	} else {
		struct fstab_entry e;
		size_t pos = 0;
		int r;

		/* the name of the root's disk, when the root is named by a device */
		while (!p->src_own_disk[0] && (r = rootspec_fstab_next(text, len, &pos, &e)) !=
		       -ENOENT)
			if (!r && !strcmp(e.dir, "/") && !rootspec_parse(e.spec, strlen(e.spec), &rs))
				own_disk_learn(p, &rs);
		pos = 0;
		while ((r = rootspec_fstab_next(text, len, &pos, &e)) != -ENOENT) {
			struct clone_part *cp;
			struct edit *ed;

			if (r || rootspec_parse(e.spec, strlen(e.spec), &rs))
				continue;
			cp = spec_part(p, &rs);
			if (!cp)
				continue;
			if (n == CLONE_REWRITES_MAX)
				return -E2BIG;
			ed = &edits[n];
			ed->off = e.spec_off;
			ed->len = e.spec_len;
			spec_new(&rs, e.spec, cp, false, ed->repl, sizeof(ed->repl));
			if (e.spec_len == strlen(ed->repl) &&
			    !memcmp(text + e.spec_off, ed->repl, e.spec_len))
				continue;
			ret = record(p, file, text, len, e.line_off, e.line_len, ed);
			if (ret)
				return ret;
			n++;
		}
	}
	if (!n)
		return 0;
	for (i = 0; i < n && !ret; i++) {
		ret = sbuf_add(&sb, text + at, edits[i].off - at);
		if (!ret)
			ret = sbuf_adds(&sb, edits[i].repl);
		at = edits[i].off + edits[i].len;
	}
	if (!ret)
		ret = sbuf_add(&sb, text + at, len - at);
	if (ret) {
		sbuf_release(&sb);
		return ret;
	}
	*outlen = sb.len;
	*out = sbuf_detach(&sb);
	return 0;
}
