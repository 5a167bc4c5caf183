// SPDX-License-Identifier: GPL-2.0-or-later
/* verify.c - before clone says done: each target file system checked (e2fsck -fn,
 * fsck.vfat -n), the trees compared (names, types, sizes, modes, owners, link targets and a
 * sample or all of the contents), and the target's own boot checks. The boot checks are
 * small and self-contained so that the boot layer's check can replace them. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/bootcfg.h"
#include "common/kcmdline.h"
#include "common/rootspec.h"
#include "common/util.h"

#define WALK_DEPTH_MAX 64
#define SAMPLE_EVERY   8
#define SAMPLE_MAX     (64ULL << 20)

static void check_add(struct clone_plan *p, const char *name, enum clone_check_state st,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void check_add(struct clone_plan *p, const char *name, enum clone_check_state st,
		      const char *fmt, ...)
{
	struct clone_check *c;
	va_list ap;

	if (p->n_checks == CLONE_CHECKS_MAX)
		return;
	c = &p->checks[p->n_checks++];
	str_copy(c->name, sizeof(c->name), name);
	c->state = st;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	str_sanitize(c->detail);
}

static void diff_add(struct clone_plan *p, const char *rel, const char *what)
{
	if (p->n_diffs < CLONE_DIFFS_MAX)
		str_fmt(p->diffs[p->n_diffs], sizeof(p->diffs[0]), "%s: %s", rel[0] ? rel : "/",
			what);
	p->n_diffs++;
}

/* e2fsck -fn or fsck.vfat -n of one target partition. */
static void fsck_part(struct clone_plan *p, struct clone_part *cp)
{
	struct sbuf out = SBUF_INIT(64 * 1024);
	bool ext = cp->method == CLONE_BY_USED || cp->method == CLONE_BY_FILES;
	struct clone_loop lo;
	char name[32], last[160];
	int ret, status = -1;

	str_fmt(name, sizeof(name), "fsck p%u", cp->partno);
	ret = clone_loop_attach(p->dst_path, cp->t_start, cp->t_size, true, &lo);
	if (ret) {
		check_add(p, name, CLONE_CHECK_FAIL, "no loop device: %s", strerror(-ret));
		return;
	}
	{
		const char *e2[] = { "e2fsck", "-f", "-n", lo.name, NULL };
		const char *vf[] = { "fsck.vfat", "-n", lo.name, NULL };

		ret = clone_run(ext ? e2 : vf, &out, true, &status);
	}
	clone_loop_detach(&lo);
	clone_run_last_line(&out, last, sizeof(last));
	if (ret)
		check_add(p, name, CLONE_CHECK_FAIL, "cannot run %s: %s",
			  ext ? "e2fsck" : "fsck.vfat", strerror(-ret));
	else if (status)
		check_add(p, name, CLONE_CHECK_FAIL, "%s found errors (exit %d): %s",
			  ext ? "e2fsck -fn" : "fsck.vfat -n", status, last);
	else
		check_add(p, name, CLONE_CHECK_PASS, "%s clean", ext ? "e2fsck -fn" : "fsck.vfat -n");
	sbuf_release(&out);
}

struct walk {
	struct clone_plan *p;
	bool full;
	dev_t dev; /* the source's file system: other mounts below it are not walked */
	uint64_t n_regular, hashed_bytes;
};

static bool same_content(int a, int b, uint64_t size)
{
	static char ba[65536], bb[65536];
	uint64_t off = 0;

	while (off < size) {
		ssize_t ra = pread(a, ba, sizeof(ba), (off_t)off);
		ssize_t rb = pread(b, bb, sizeof(bb), (off_t)off);

		if (ra <= 0 || ra != rb || memcmp(ba, bb, (size_t)ra))
			return false;
		off += (uint64_t)ra;
	}
	return true;
}

static void compare_entry(struct walk *w, int sdir, int ddir, const char *name,
			  const char *rel)
{
	struct stat a, b;

	w->p->n_compared++;
	if (fstatat(sdir, name, &a, AT_SYMLINK_NOFOLLOW))
		return;
	if (fstatat(ddir, name, &b, AT_SYMLINK_NOFOLLOW)) {
		diff_add(w->p, rel, "missing on the target");
		return;
	}
	if ((a.st_mode & S_IFMT) != (b.st_mode & S_IFMT)) {
		diff_add(w->p, rel, "type differs");
		return;
	}
	if (a.st_mode != b.st_mode)
		diff_add(w->p, rel, "mode differs");
	if (a.st_uid != b.st_uid || a.st_gid != b.st_gid)
		diff_add(w->p, rel, "owner differs");
	if (S_ISLNK(a.st_mode)) {
		char la[PATH_MAX], lb[PATH_MAX];
		ssize_t na = readlinkat(sdir, name, la, sizeof(la));
		ssize_t nb = readlinkat(ddir, name, lb, sizeof(lb));

		if (na != nb || (na > 0 && memcmp(la, lb, (size_t)na)))
			diff_add(w->p, rel, "link target differs");
	} else if (S_ISREG(a.st_mode)) {
		bool rewritten = !strcmp(rel, "/etc/fstab") && w->p->fstab_new;

		if (rewritten)
			return;
		if (a.st_size != b.st_size) {
			diff_add(w->p, rel, "size differs");
			return;
		}
		if (w->full || (w->n_regular++ % SAMPLE_EVERY == 0 &&
				w->hashed_bytes < SAMPLE_MAX)) {
			int fa = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			int fb = openat(ddir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

			if (fa >= 0 && fb >= 0) {
				if (!same_content(fa, fb, (uint64_t)a.st_size))
					diff_add(w->p, rel, "content differs");
				w->p->n_hashed++;
				w->hashed_bytes += (uint64_t)a.st_size;
			}
			if (fa >= 0)
				close(fa);
			if (fb >= 0)
				close(fb);
		}
	} else if ((S_ISBLK(a.st_mode) || S_ISCHR(a.st_mode)) && a.st_rdev != b.st_rdev) {
		diff_add(w->p, rel, "device number differs");
	}
}

static void walk_dir(struct walk *w, int sdir, int ddir, const char *rel, unsigned depth)
{
	DIR *d;
	struct dirent *e;
	int sfd;

	if (depth > WALK_DEPTH_MAX)
		return;
	sfd = dup(sdir);
	if (sfd < 0 || !(d = fdopendir(sfd))) {
		if (sfd >= 0)
			close(sfd);
		return;
	}
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (str_fmt(sub, sizeof(sub), "%s/%s", rel, e->d_name))
			continue;
		compare_entry(w, sdir, ddir, e->d_name, sub);
		if (fstatat(sdir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
		    st.st_dev == w->dev) {
			int s2 = openat(sdir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int d2 = openat(ddir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (s2 >= 0 && d2 >= 0)
				walk_dir(w, s2, d2, sub, depth + 1);
			if (s2 >= 0)
				close(s2);
			if (d2 >= 0)
				close(d2);
		}
	}
	closedir(d);
}

/* Both trees of an ext partition, mounted read-only without journal replay, compared. */
static void compare_tree(struct clone_plan *p, struct clone_part *cp, bool full)
{
	struct clone_loop ls = { .fd = -1 }, ld = { .fd = -1 };
	char sdir[PATH_MAX] = "", ddir[PATH_MAX] = "", name[32];
	struct walk w = { .p = p, .full = full };
	int s = -1, d = -1, ret;

	str_fmt(name, sizeof(name), "tree p%u", cp->partno);
	if (cp->method == CLONE_BY_FILES) {
		/* mounted read-write: its own mount is the tree (a second mount would not be) */
		ret = 0;
	} else {
		ret = clone_loop_attach(p->src_path, cp->start, cp->size, true, &ls);
		if (!ret)
			ret = clone_mount(ls.name, cp->fstype, true, sdir, sizeof(sdir));
	}
	if (!ret)
		ret = clone_loop_attach(p->dst_path, cp->t_start, cp->t_size, true, &ld);
	if (!ret)
		ret = clone_mount(ld.name, cp->fstype, true, ddir, sizeof(ddir));
	if (ret) {
		check_add(p, name, CLONE_CHECK_WARN, "not compared: cannot mount both: %s",
			  strerror(-ret));
		goto out;
	}
	s = open(cp->method == CLONE_BY_FILES ? cp->mountpoint : sdir,
		 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = open(ddir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s >= 0 && d >= 0) {
		struct stat st;

		if (fstat(s, &st) == 0)
			w.dev = st.st_dev;
		walk_dir(&w, s, d, "", 0);
	}
	if (p->n_diffs)
		check_add(p, name, CLONE_CHECK_FAIL, "%zu differences in %zu entries (%llu files "
			  "compared byte for byte)", p->n_diffs, p->n_compared,
			  (unsigned long long)p->n_hashed);
	else
		check_add(p, name, CLONE_CHECK_PASS, "%zu entries alike (%llu files compared byte "
			  "for byte%s)", p->n_compared, (unsigned long long)p->n_hashed,
			  full ? "" : ", a sample; --verify full for all");
out:
	if (s >= 0)
		close(s);
	if (d >= 0)
		close(d);
	clone_umount(ddir);
	clone_umount(sdir);
	clone_loop_detach(&ld);
	clone_loop_detach(&ls);
}

/* Does a spec name a partition of the target? */
static bool target_resolves(const struct clone_plan *p, const char *s, size_t len)
{
	struct rootspec rs;

	if (rootspec_parse(s, len, &rs))
		return false;
	for (size_t i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];
		struct rootspec_part rp = { .partuuid = cp->t_partuuid, .uuid = cp->t_uuid,
					    .label = cp->label, .partlabel = cp->partlabel };

		if (rootspec_matches(&rs, &rp))
			return true;
	}
	return false;
}

static bool fat_has(const char *listing, const char *name)
{
	char want[300];
	const char *s = listing;
	size_t n;

	if (str_fmt(want, sizeof(want), "::/%s", name))
		return false;
	n = strlen(want);
	while ((s = strcasestr(s, want))) {
		if ((s == listing || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\r' || !s[n]))
			return true;
		s += n;
	}
	return false;
}

/* The target's boot partition: FAT, config.txt, cmdline.txt, the kernel and a device tree. */
static void check_boot_files(struct clone_plan *p, const char *cmdline, size_t cmdlen)
{
	struct sbuf ls = SBUF_INIT(256 * 1024), cfgt = SBUF_INIT(CONFIG_FILE_MAX);
	const struct clone_part *b = p->boot >= 0 ? &p->parts[p->boot] : NULL;
	char img[PATH_MAX + 32], kernel[128] = "", dtb[128] = "";
	static const char *const kernels[] = { "kernel8.img", "kernel_2712.img", "kernel7l.img",
					       "kernel7.img", "kernel.img" };
	struct config cfg = { 0 };
	int status;

	(void)cmdline;
	(void)cmdlen;
	if (!b || b->partno != 1) {
		check_add(p, "boot partition", CLONE_CHECK_FAIL, "the first partition is not FAT: "
			  "the firmware reads config.txt from a FAT first partition");
		return;
	}
	str_fmt(img, sizeof(img), "%s@@%llu", p->dst_path, (unsigned long long)b->t_start);
	{
		const char *argv[] = { "mdir", "-b", "-i", img, "::", NULL };

		if (clone_run(argv, &ls, false, &status) || status) {
			check_add(p, "boot partition", CLONE_CHECK_FAIL, "cannot list it (mdir)");
			goto out;
		}
	}
	if (!fat_has(sbuf_str(&ls), "config.txt") || !fat_has(sbuf_str(&ls), "cmdline.txt")) {
		check_add(p, "boot partition", CLONE_CHECK_FAIL, "config.txt or cmdline.txt is "
			  "missing from the FAT first partition: copy them from the source's");
		goto out;
	}
	check_add(p, "boot partition", CLONE_CHECK_PASS, "FAT p1 holds config.txt and cmdline.txt");
	if (clone_fat_read(p->dst_path, b->t_start, "config.txt", CONFIG_FILE_MAX, &cfgt) == 0 &&
	    config_parse(cfgt.buf ? cfgt.buf : "", cfgt.len, &cfg) == 0) {
		config_get(&cfg, "kernel", kernel, sizeof(kernel));
		config_get(&cfg, "device_tree", dtb, sizeof(dtb));
	}
	if (kernel[0]) {
		if (fat_has(sbuf_str(&ls), kernel))
			check_add(p, "kernel", CLONE_CHECK_PASS, "%s (config.txt kernel=)", kernel);
		else
			check_add(p, "kernel", CLONE_CHECK_FAIL, "config.txt names kernel=%s, which "
				  "is not on p1: copy it there or fix kernel=", kernel);
	} else {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(kernels); i++)
			if (fat_has(sbuf_str(&ls), kernels[i]))
				break;
		if (i < ARRAY_SIZE(kernels))
			check_add(p, "kernel", CLONE_CHECK_PASS, "%s", kernels[i]);
		else
			check_add(p, "kernel", CLONE_CHECK_FAIL, "no kernel*.img on p1 and no "
				  "kernel= in config.txt");
	}
	if (dtb[0]) {
		if (fat_has(sbuf_str(&ls), dtb))
			check_add(p, "device tree", CLONE_CHECK_PASS, "%s (config.txt device_tree=)",
				  dtb);
		else
			check_add(p, "device tree", CLONE_CHECK_FAIL, "config.txt names "
				  "device_tree=%s, which is not on p1", dtb);
	} else if (strstr(sbuf_str(&ls), ".dtb")) {
		check_add(p, "device tree", CLONE_CHECK_PASS, "device trees on p1");
	} else {
		check_add(p, "device tree", CLONE_CHECK_FAIL, "no .dtb on p1 and no device_tree= "
			  "in config.txt");
	}
out:
	config_release(&cfg);
	sbuf_release(&ls);
	sbuf_release(&cfgt);
}

static void check_root_and_fstab(struct clone_plan *p)
{
	struct sbuf cmd = SBUF_INIT(CLONE_TEXT_MAX), tab = SBUF_INIT(CLONE_TEXT_MAX);
	size_t voff, vlen;

	if (p->boot >= 0 &&
	    clone_fat_read(p->dst_path, p->parts[p->boot].t_start, "cmdline.txt",
			   CLONE_TEXT_MAX, &cmd) == 0) {
		const char *t = sbuf_str(&cmd);
		char v[160];

		if (rootspec_cmdline_root(t, cmd.len, &voff, &vlen)) {
			check_add(p, "root=", CLONE_CHECK_FAIL, "cmdline.txt has no root=");
		} else {
			str_fmt(v, sizeof(v), "%.*s", (int)(vlen < 120 ? vlen : 120), t + voff);
			if (target_resolves(p, t + voff, vlen))
				check_add(p, "root=", CLONE_CHECK_PASS, "root=%s is on the target", v);
			else
				check_add(p, "root=", CLONE_CHECK_FAIL, "root=%s is not a partition "
					  "of the target: set root=PARTUUID=%s", v,
					  p->root >= 0 ? p->parts[p->root].t_partuuid : "?");
		}
		if (p->quirks[0]) {
			const char *q = strstr(t, p->quirks);

			if (q)
				check_add(p, "quirks", CLONE_CHECK_PASS, "%s carried over", p->quirks);
			else
				check_add(p, "quirks", CLONE_CHECK_FAIL, "this system runs with %s; "
					  "add it to the target's cmdline.txt", p->quirks);
		}
	}
	if (p->root >= 0 && (p->parts[p->root].method == CLONE_BY_USED ||
			     p->parts[p->root].method == CLONE_BY_FILES) &&
	    clone_ext_read_file(p->dst_path, p->parts[p->root].t_start, "/etc/fstab",
				CLONE_TEXT_MAX, &tab) == 0) {
		struct fstab_entry e;
		size_t pos = 0, n_ok = 0, n_bad = 0;
		char bad[160] = "";
		int r;

		while ((r = rootspec_fstab_next(sbuf_str(&tab), tab.len, &pos, &e)) != -ENOENT) {
			struct rootspec rs;

			if (r || rootspec_parse(e.spec, strlen(e.spec), &rs) ||
			    rs.kind == ROOTSPEC_OTHER || !strcmp(e.type, "swap"))
				continue;
			if (target_resolves(p, e.spec, strlen(e.spec))) {
				n_ok++;
			} else {
				if (!n_bad)
					str_fmt(bad, sizeof(bad), "%s (%s)", e.spec, e.dir);
				n_bad++;
			}
		}
		if (n_bad)
			check_add(p, "fstab", CLONE_CHECK_FAIL, "%zu entries name no partition of "
				  "the target, e.g. %s: name the target's ids", n_bad, bad);
		else
			check_add(p, "fstab", CLONE_CHECK_PASS, "%zu entries resolve on the target",
				  n_ok);
	}
	sbuf_release(&cmd);
	sbuf_release(&tab);
}

int clone_verify(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap)
{
	size_t i;

	(void)why;
	(void)whycap;
	if (p->whole)
		return 0;
	for (i = 0; i < p->n_parts && !(p->stop && *p->stop); i++) {
		struct clone_part *cp = &p->parts[i];

		bool ext = cp->method == CLONE_BY_USED || cp->method == CLONE_BY_FILES;

		if (ext || !strcmp(cp->fstype, "vfat"))
			fsck_part(p, cp);
		if (ext && !(p->stop && *p->stop))
			compare_tree(p, cp, o->verify_full);
	}
	check_boot_files(p, NULL, 0);
	check_root_and_fstab(p);
	if (p->ids_shared)
		check_add(p, "unique ids", CLONE_CHECK_FAIL, "%s", p->ids_shared_what);
	else
		check_add(p, "unique ids", CLONE_CHECK_PASS, "no other attached disk has the "
			  "target's PARTUUIDs or UUIDs");
	return p->stop && *p->stop ? -EINTR : 0;
}
