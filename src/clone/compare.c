// SPDX-License-Identifier: GPL-2.0-or-later
/* compare.c - before clone says done: each target file system checked (e2fsck -fn,
 * fsck.vfat -n), the trees compared (names, types, sizes, modes, owners, link targets and a
 * sample or all of the contents), and boot/'s check of the target (boot_check_disk_with()). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/boot.h"
#include "clone/fs.h"
#include "common/banned.h"
#include "common/util.h"
#include "probe/ref.h"

#define WALK_DEPTH_MAX 64
#define SAMPLE_EVERY   8
#define SAMPLE_MAX     (64ULL << 20)  /* bytes compared at most, without --verify full */
#define SAMPLE_PIECE   (1U << 20)     /* a sampled file larger than 3 of these: 3 of them */
#define SAMPLE_PATHS_MAX (256U << 20) /* the paths of the files to compare, --verify full */

static void check_add(struct clone_plan *p, const char *name, enum clone_check_state st,
		      const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void check_add(struct clone_plan *p, const char *name, enum clone_check_state st,
		      const char *fix, const char *fmt, ...)
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
	str_copy(c->fix, sizeof(c->fix), fix ? fix : "");
	str_sanitize(c->fix);
}

static void diff_add(struct clone_plan *p, const char *rel, const char *what)
{
	if (p->n_diffs < CLONE_DIFFS_MAX)
		str_fmt(p->diffs[p->n_diffs], sizeof(p->diffs[0]), "%s: %s", rel[0] ? rel : "/",
			what);
	p->n_diffs++;
}

int clone_fsck_source(struct clone_plan *p, const struct clone_part *cp, char *res, size_t cap)
{
	struct sbuf out = SBUF_INIT(64 * 1024);
	const char *tool = cp->fs->check_name, *argv[CLONE_FS_ARGV_MAX];
	struct clone_loop lo;
	char last[160];
	int ret, status = -1;

	res[0] = '\0';
	if (cp->mounted_rw)
		return -EBUSY; /* mounted read-write: a check cannot tell */
	if (!cp->fs->check[0])
		return -EOPNOTSUPP;
	ret = clone_loop_attach(p->src_path, cp->start, cp->size, true, &lo);
	if (ret)
		return ret;
	clone_fs_argv(cp->fs->check, lo.name, argv);
	ret = clone_run(argv, &out, true, &status);
	clone_loop_detach(&lo);
	if (!ret) {
		clone_run_last_line(&out, last, sizeof(last));
		if (status)
			str_fmt(res, cap, "the source's p%u has errors too (%s of the source: "
				"exit %d%s%s)%s: repair the source first (%s, unmounted), then "
				"clone again", cp->partno, tool, status, last[0] ? ": " : "", last,
				cp->journal_dirty ? ", its journal not replayed" : "",
				cp->fs->repair_hint);
		else
			str_fmt(res, cap, "the source's p%u is clean (%s): the copy went wrong, "
				"not the source", cp->partno, tool);
		ret = status ? 1 : 0;
	}
	sbuf_release(&out);
	return ret;
}

/* The read-only check of one target partition (e2fsck -fn, fsck.vfat -n). */
static void fsck_part(struct clone_plan *p, struct clone_part *cp)
{
	struct sbuf out = SBUF_INIT(64 * 1024);
	const char *tool = cp->fs->check_name, *argv[CLONE_FS_ARGV_MAX];
	struct clone_loop lo;
	char name[32], last[160], src[400];
	int ret, status = -1;

	str_fmt(name, sizeof(name), "fsck p%u", cp->partno);
	ret = clone_part_attach(p, cp, true, true, &lo);
	if (ret) {
		check_add(p, name, CLONE_CHECK_FAIL, NULL, "no loop device: %s", strerror(-ret));
		return;
	}
	clone_fs_argv(cp->fs->check, lo.name, argv);
	ret = clone_run(argv, &out, true, &status);
	clone_loop_detach(&lo);
	clone_run_last_line(&out, last, sizeof(last));
	if (ret)
		check_add(p, name, CLONE_CHECK_FAIL, NULL, "cannot run %s: %s", argv[0],
			  strerror(-ret));
	else if (status && clone_fsck_source(p, cp, src, sizeof(src)) >= 0)
		check_add(p, name, CLONE_CHECK_FAIL, src, "%s found errors (exit %d): %s", tool,
			  status, last);
	else if (status)
		check_add(p, name, CLONE_CHECK_FAIL, "clone again; if the source's file system "
			  "shows the same errors, repair it first (fsck while unmounted)",
			  "%s found errors (exit %d): %s", tool, status, last);
	else
		check_add(p, name, CLONE_CHECK_PASS, NULL, "%s clean", tool);
	sbuf_release(&out);
}

struct walk {
	struct clone_plan *p;
	int part; /* the partition's index in p */
	bool full;
	dev_t dev; /* the source's file system: other mounts below it are not walked */
	size_t n_both; /* names of the directory being walked that both sides have */
	uint64_t n_regular, hashed_bytes;
	struct sbuf sample; /* the files whose contents are compared: paths, NUL-separated */
	size_t n_sample;
};

/* The sampled files compared by several threads at once: each file is a few small random
 * reads on both disks, and one at a time their latency, not the disks, sets the pace. */
#define COMPARE_THREADS 8
#define COMPARE_BUF	(128 * 1024)

struct compare_pool {
	struct walk *w;
	int sroot, droot;
	const char **paths;
	size_t n;
	size_t next; /* the next path to take, under lock */
	pthread_mutex_t lock;
};

/* [off, end) of both files alike (end UINT64_MAX: to the end of the files) */
static bool same_range(int a, int b, char *ba, char *bb, uint64_t off, uint64_t end)
{
	while (off < end) {
		size_t n = end - off < COMPARE_BUF ? (size_t)(end - off) : COMPARE_BUF;
		ssize_t ra = pread(a, ba, n, (off_t)off);
		ssize_t rb = pread(b, bb, n, (off_t)off);

		if (ra < 0 || ra != rb || memcmp(ba, bb, (size_t)ra))
			return false;
		if (!ra)
			return true;
		off += (uint64_t)ra;
	}
	return true;
}

/* The whole files, or (a sample, full false) of a file larger than three pieces its first,
 * middle and last piece: a sample then reaches many files, not the first large one only. */
static bool same_content(int a, int b, char *ba, char *bb, bool full)
{
	struct stat st;
	uint64_t mid;

	if (full || fstat(a, &st) || (uint64_t)st.st_size <= 3ULL * SAMPLE_PIECE)
		return same_range(a, b, ba, bb, 0, UINT64_MAX);
	mid = ((uint64_t)st.st_size / 2) & ~(uint64_t)4095;
	return same_range(a, b, ba, bb, 0, SAMPLE_PIECE) &&
	       same_range(a, b, ba, bb, mid, mid + SAMPLE_PIECE) &&
	       same_range(a, b, ba, bb, (uint64_t)st.st_size - SAMPLE_PIECE, UINT64_MAX);
}

/* what comparing a file of size bytes reads of each side */
static uint64_t compared_bytes(uint64_t size, bool full)
{
	return full || size <= 3ULL * SAMPLE_PIECE ? size : 3ULL * SAMPLE_PIECE;
}

static void *compare_worker(void *arg)
{
	struct compare_pool *cp = arg;
	struct clone_plan *p = cp->w->p;
	char *ba = malloc(COMPARE_BUF), *bb = malloc(COMPARE_BUF);

	while (ba && bb && !(p->stop && *p->stop)) {
		const char *rel;
		bool same;
		int fa, fb;

		pthread_mutex_lock(&cp->lock);
		rel = cp->next < cp->n ? cp->paths[cp->next++] : NULL;
		pthread_mutex_unlock(&cp->lock);
		if (!rel)
			break;
		fa = openat(cp->sroot, rel + 1, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		fb = openat(cp->droot, rel + 1, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fa >= 0 && fb >= 0) {
			same = same_content(fa, fb, ba, bb, cp->w->full);
			pthread_mutex_lock(&cp->lock);
			if (!same)
				diff_add(p, rel, "content differs");
			p->n_hashed++;
			pthread_mutex_unlock(&cp->lock);
		}
		if (fa >= 0)
			close(fa);
		if (fb >= 0)
			close(fb);
	}
	free(ba);
	free(bb);
	return NULL;
}

static void compare_sample(struct walk *w, int sroot, int droot)
{
	struct compare_pool cp = { .w = w, .sroot = sroot, .droot = droot };
	pthread_t th[COMPARE_THREADS];
	size_t i, n_th = 0;
	const char *s;

	if (!w->n_sample)
		return;
	cp.paths = calloc(w->n_sample, sizeof(*cp.paths));
	if (!cp.paths)
		return;
	for (s = w->sample.buf; cp.n < w->n_sample; s += strlen(s) + 1)
		cp.paths[cp.n++] = s;
	pthread_mutex_init(&cp.lock, NULL);
	for (i = 0; i < COMPARE_THREADS && i < cp.n; i++)
		if (pthread_create(&th[n_th], NULL, compare_worker, &cp) == 0)
			n_th++;
	if (!n_th)
		compare_worker(&cp);
	for (i = 0; i < n_th; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&cp.lock);
	free(cp.paths);
}

/* One entry of both trees compared; true when it is a directory of the source's file system
 * that the target has too, to walk into (the source's stat is read once, here). */
static bool compare_entry(struct walk *w, int sdir, int ddir, const char *name,
			  const char *rel)
{
	struct stat a, b;

	w->p->n_compared++;
	if (fstatat(sdir, name, &a, AT_SYMLINK_NOFOLLOW))
		return false;
	if (fstatat(ddir, name, &b, AT_SYMLINK_NOFOLLOW)) {
		diff_add(w->p, rel, "missing on the target");
		return false;
	}
	w->n_both++;
	if ((a.st_mode & S_IFMT) != (b.st_mode & S_IFMT)) {
		diff_add(w->p, rel, "type differs");
		return false;
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
		/* the files clone rewrote, where it wrote them (symbolic links resolved) */
		const char *fstab = w->p->fstab_at[0] ? w->p->fstab_at : "/etc/fstab";
		const char *extl = w->p->extlinux_at[0] ? w->p->extlinux_at : w->p->extlinux_path;
		bool rewritten = (w->part == w->p->root && !strcmp(rel, fstab) &&
				  w->p->fstab_new) ||
				 (w->part == w->p->boot && w->p->cmdline_new &&
				  !strcmp(rel + (rel[0] == '/'), w->p->cmdline_file)) ||
				 (w->part == w->p->extlinux_part && w->p->extlinux_new &&
				  !strcmp(rel, extl));

		if (rewritten)
			return false;
		if (a.st_size != b.st_size) {
			diff_add(w->p, rel, "size differs");
			return false;
		}
		if ((w->full || (w->n_regular++ % SAMPLE_EVERY == 0 &&
				 w->hashed_bytes < SAMPLE_MAX)) &&
		    sbuf_add(&w->sample, rel, strlen(rel) + 1) == 0) {
			w->n_sample++;
			w->hashed_bytes += compared_bytes((uint64_t)a.st_size, w->full);
		}
	} else if ((S_ISBLK(a.st_mode) || S_ISCHR(a.st_mode)) && a.st_rdev != b.st_rdev) {
		diff_add(w->p, rel, "device number differs");
	}
	return S_ISDIR(a.st_mode) && a.st_dev == w->dev;
}

/* The names of the target's directory ddir that its source sdir lacks (a file the copy's
 * journal replay made from blocks never copied, a file the copy should not have): the target's
 * names are counted, and only when there are more than both sides share, looked up. */
static void target_only(struct walk *w, int sdir, int ddir, const char *rel, size_t n_both)
{
	struct dirent *e;
	size_t n = 0;
	int fd = fcntl(ddir, F_DUPFD_CLOEXEC, 0);
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (n > n_both) {
		rewinddir(d);
		while ((e = readdir(d))) {
			char sub[PATH_MAX];
			struct stat st;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (fstatat(sdir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT &&
			    !str_fmt(sub, sizeof(sub), "%s/%s", rel, e->d_name))
				diff_add(w->p, sub, "only on the target");
		}
	}
	closedir(d);
}

static void walk_dir(struct walk *w, int sdir, int ddir, const char *rel, unsigned depth)
{
	size_t n_both = 0;
	DIR *d;
	struct dirent *e;
	int sfd;

	if (depth > WALK_DEPTH_MAX)
		return;
	sfd = fcntl(sdir, F_DUPFD_CLOEXEC, 0);
	if (sfd < 0 || !(d = fdopendir(sfd))) {
		if (sfd >= 0)
			close(sfd);
		return;
	}
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		bool into;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (str_fmt(sub, sizeof(sub), "%s/%s", rel, e->d_name))
			continue;
		w->n_both = 0;
		into = compare_entry(w, sdir, ddir, e->d_name, sub);
		n_both += w->n_both;
		if (into) {
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
	target_only(w, sdir, ddir, rel, n_both);
}

void clone_compare_dirs(struct clone_plan *p, int part, int sroot, int droot, bool full)
{
	struct walk w = { .p = p, .part = part, .full = full,
			  .sample = SBUF_INIT(SAMPLE_PATHS_MAX) };
	struct stat st;

	/* one walk of both trees: a thread ahead on each tree was tried and made it 2.7x as
	 * slow (34 435 entries, cold or warm: 4.1 s against 1.5 s), the two looking up the
	 * same names at the same time */
	if (fstat(sroot, &st) == 0)
		w.dev = st.st_dev;
	walk_dir(&w, sroot, droot, "", 0);
	compare_sample(&w, sroot, droot);
	sbuf_release(&w.sample);
}

/* The trees under s and d of partition cp compared, and the check that says how. */
static void tree_result(struct clone_plan *p, struct clone_part *cp, int s, int d, bool full)
{
	size_t diffs = p->n_diffs, compared = p->n_compared;
	uint64_t hashed = p->n_hashed;
	char name[32];

	str_fmt(name, sizeof(name), "tree p%u", cp->partno);
	clone_compare_dirs(p, (int)(cp - p->parts), s, d, full);
	diffs = p->n_diffs - diffs;
	compared = p->n_compared - compared;
	hashed = p->n_hashed - hashed;
	if (diffs)
		check_add(p, name, CLONE_CHECK_FAIL, "files that changed during a live copy differ "
			  "by nature: clone again with the system idle, or compare them by hand",
			  "%zu differences in %zu entries (%llu files "
			  "compared byte for byte)", diffs, compared, (unsigned long long)hashed);
	else
		check_add(p, name, CLONE_CHECK_PASS, NULL, "%zu entries alike (%llu files compared byte "
			  "for byte%s)", compared, (unsigned long long)hashed,
			  full ? "" : ", a sample, 3 MiB of each larger one; --verify full for all");
}

/* Both trees of a FAT partition compared as ext's are, each copied out with mtools (the
 * kernel may have no vfat) into a fresh directory that is removed after. */
void clone_compare_fat(struct clone_plan *p, struct clone_part *cp, bool full)
{
	const char *td = getenv("TMPDIR");
	char base[PATH_MAX], name[32];
	int bfd = -1, s = -1, d = -1, ret = 0;

	/* --verify full asked for proof: a tree not compared fails it (a full TMPDIR once
	 * passed); a sample's is a warning */
	enum clone_check_state nc = full ? CLONE_CHECK_FAIL : CLONE_CHECK_WARN;
	const char *room = full ? "give TMPDIR room for the partition's files, or --verify "
				  "sample" : NULL;

	str_fmt(name, sizeof(name), "tree p%u", cp->partno);
	if (str_fmt(base, sizeof(base), "%s/sbcdisk-fat-XXXXXX", td && td[0] ? td : "/tmp") ||
	    !mkdtemp(base)) {
		check_add(p, name, nc, room, "not compared: no directory to copy the files to: %s",
			  strerror(errno));
		return;
	}
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int side = 0; side < 2 && !ret; side++) {
		const char *dir = side ? "d" : "s";
		char to[PATH_MAX];

		if (bfd < 0 || mkdirat(bfd, dir, 0700) ||
		    str_fmt(to, sizeof(to), "%s/%s/", base, dir)) {
			ret = -EIO;
			break;
		}
		/* through clone_fat_*: a "@@" in the image's path is not read as its offset */
		ret = clone_fat_copy_out(side ? clone_dst(p) : p->src_path,
					 side ? cp->t_start : cp->start, to);
	}
	if (!ret) {
		s = openat(bfd, "s", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		d = openat(bfd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (s >= 0 && d >= 0)
		tree_result(p, cp, s, d, full);
	else
		check_add(p, name, nc, room, "not compared: cannot copy the files out with mcopy "
			  "to %s: %s", td && td[0] ? td : "/tmp", strerror(ret ? -ret : errno));
	if (s >= 0)
		close(s);
	if (d >= 0)
		close(d);
	if (bfd >= 0) {
		clone_remove_tree(bfd, "s");
		clone_remove_tree(bfd, "d");
		close(bfd);
	}
	rmdir(base);
}

/* Both trees of a partition, mounted read-only (ext: without journal replay), compared. */
void clone_compare_mounted(struct clone_plan *p, struct clone_part *cp, bool full)
{
	struct clone_loop ls = { .fd = -1 }, ld = { .fd = -1 };
	char sdir[PATH_MAX] = "", ddir[PATH_MAX] = "", name[32];
	/* a copy of its files from its own read-write mount; else (a file system remade in
	 * the target's sectors, not mounted) a read-only mount of it, as for a block copy */
	bool live = cp->method == CLONE_BY_FILES && cp->mounted && cp->mountpoint[0] == '/';
	int s = -1, d = -1, ret;

	str_fmt(name, sizeof(name), "tree p%u", cp->partno);
	if (cp->journal_dirty && cp->method == CLONE_BY_WHOLE) {
		/* the source's tree is what its journal makes it, and a mount replays the
		 * journal by writing it: the copy's check above is all there is */
		check_add(p, name, CLONE_CHECK_WARN, NULL, "not compared: the source's journal "
			  "needs recovery, which only a mount that writes the source would show; "
			  "copied byte for byte, the journal replayed on the copy");
		return;
	}
	if (live) {
		/* mounted read-write: its own mount is the tree (a second mount would not be) */
		ret = 0;
	} else {
		ret = clone_part_attach(p, cp, false, true, &ls);
		if (!ret)
			ret = clone_mount(ls.name, cp->fstype, true, sdir, sizeof(sdir));
	}
	if (!ret)
		ret = clone_part_attach(p, cp, true, true, &ld);
	if (!ret)
		ret = clone_mount(ld.name, cp->fstype, true, ddir, sizeof(ddir));
	if (ret) {
		check_add(p, name, CLONE_CHECK_WARN, NULL, "not compared: cannot mount both: %s",
			  strerror(-ret));
		goto out;
	}
	s = open(live ? cp->mountpoint : sdir,
		 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = open(ddir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s >= 0 && d >= 0)
		tree_result(p, cp, s, d, full);
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

/* The target as the boot check sees it: a disk whose partitions carry the new ids, in a
 * view of the inventory where it stands for the real target device (the kernel may not have
 * re-read its table; an image file is no device at all). */
struct target_view {
	struct clone_plan *p;
	struct inventory inv;
	struct blkdev disk;
	struct blkdev parts[CLONE_PARTS_MAX];
	struct blkdev *children[CLONE_PARTS_MAX];
	struct sbuf listing[CLONE_PARTS_MAX]; /* mdir of a FAT partition, read once */
	bool listed[CLONE_PARTS_MAX];
};

static const struct clone_part *view_part(const struct target_view *tv, const struct blkdev *b)
{
	size_t i = (size_t)(b - tv->parts);

	return b >= tv->parts && i < tv->p->n_parts ? &tv->p->parts[i] : NULL;
}

static int target_read(void *arg, const struct blkdev *b, const char *name, size_t cap,
		       struct sbuf *out)
{
	const struct target_view *tv = arg;
	const struct clone_part *cp = view_part(tv, b);
	int ret;

	sbuf_init(out, cap + 1);
	if (!cp)
		ret = -ENOENT;
	else if (cp->fs->read_file)
		ret = cp->fs->read_file(clone_dst(tv->p), cp->t_start, name, cap, out);
	else
		ret = -ENOENT;
	if (ret)
		sbuf_release(out);
	return ret;
}

/* A FAT listing has one "::/path" a line (mdir -/ -b); names compare without case. */
static bool listing_has(const char *listing, const char *name)
{
	char want[300];
	const char *s = listing;
	size_t n;

	if (str_fmt(want, sizeof(want), "::/%s", name[0] == '/' ? name + 1 : name))
		return false;
	n = strlen(want);
	while ((s = strcasestr(s, want))) {
		if ((s == listing || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\r' || !s[n]))
			return true;
		s += n;
	}
	return false;
}

static bool target_exists(void *arg, const struct blkdev *b, const char *name)
{
	struct target_view *tv = arg;
	const struct clone_part *cp = view_part(tv, b);
	size_t i = (size_t)(b - tv->parts);

	if (!cp)
		return false;
	if (cp->fs->list) {
		if (!tv->listed[i]) {
			tv->listed[i] = true;
			sbuf_init(&tv->listing[i], 1 << 20);
			if (cp->fs->list(clone_dst(tv->p), cp->t_start, &tv->listing[i]))
				tv->listing[i].len = 0;
		}
		return listing_has(sbuf_str(&tv->listing[i]), name);
	}
	if (cp->fs->read_file) {
		struct sbuf tmp = SBUF_INIT(1);
		int ret = cp->fs->read_file(clone_dst(tv->p), cp->t_start, name, 0, &tmp);

		sbuf_release(&tmp);
		return ret == 0 || ret == -EFBIG;
	}
	return false;
}

/* The kernel's name of partition n of a disk named disk; an image's partitions "IMAGE:pN". */
static void part_kname(const char *disk, bool image, unsigned n, char *out, size_t cap)
{
	size_t l = strlen(disk);
	bool digit = l && disk[l - 1] >= '0' && disk[l - 1] <= '9';

	str_fmt(out, cap, "%s%s%u", disk, image ? ":p" : digit ? "p" : "", n);
}

/* Is d the real target, a partition of it, or a loop device over it (over the target's
 * file, by its identity, or over the target's device)? */
static bool is_real_target(const struct clone_plan *p, const struct inventory *inv,
			   const struct blkdev *d)
{
	const struct blkdev *w = probe_blkdev_whole((struct blkdev *)d);
	struct probe_reach *r;
	struct stat st;
	bool same = false;

	if (p->dst_disk[0] && !strcmp(w->kname, p->dst_disk))
		return true;
	if (!w->backing_file[0] || (p->dst_held ? fstat(p->dst_fd, &st) : stat(p->dst_path, &st)))
		return false;
	r = malloc(sizeof(*r));
	if (!r)
		return false;
	probe_reach_blkdev(p->sr, inv, w, r);
	for (size_t i = 0; i < r->n && !same; i++) {
		const struct probe_extent *e = &r->e[i];

		if (!e->container && (S_ISREG(st.st_mode) ? e->file && e->dev == st.st_dev &&
								  e->ino == st.st_ino
							  : !e->file && e->dev == st.st_rdev))
			same = true;
	}
	free(r);
	return same;
}

static int target_view_make(struct target_view *tv, struct clone_plan *p,
			    const struct inventory *inv)
{
	const struct blkdev *real = p->dst_disk[0] ? probe_inventory_find(inv, p->dst_disk) : NULL;
	const char *base = strrchr(p->dst_path, '/');
	size_t i, n = 0;

	tv->p = p;
	if (real)
		tv->disk = *real;
	str_copy(tv->disk.kname, sizeof(tv->disk.kname),
		 p->dst_disk[0] ? p->dst_disk : base ? base + 1 : p->dst_path);
	str_copy(tv->disk.name, sizeof(tv->disk.name), tv->disk.kname);
	str_copy(tv->disk.type, sizeof(tv->disk.type), "disk");
	tv->disk.is_partition = false;
	tv->disk.disk = NULL;
	tv->disk.n_mountpoints = 0;
	tv->disk.n_slaves = 0;
	tv->disk.slave = NULL;
	tv->disk.is_root = tv->disk.is_boot = false;
	tv->disk.fstype[0] = tv->disk.uuid[0] = tv->disk.partuuid[0] = tv->disk.label[0] = '\0';
	tv->disk.has_size = true;
	tv->disk.size_bytes = p->dst_size;
	for (i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];
		struct blkdev *b = &tv->parts[i];

		part_kname(tv->disk.kname, !p->dst_disk[0], cp->partno, b->kname, sizeof(b->kname));
		str_copy(b->name, sizeof(b->name), b->kname);
		str_copy(b->type, sizeof(b->type), "part");
		b->is_partition = b->has_partn = true;
		b->partn = cp->partno;
		b->has_size = true;
		b->size_bytes = cp->t_size;
		b->transport = tv->disk.transport;
		str_copy(b->fstype, sizeof(b->fstype), cp->fstype);
		str_copy(b->label, sizeof(b->label), cp->label);
		str_copy(b->uuid, sizeof(b->uuid), cp->t_uuid);
		str_copy(b->partuuid, sizeof(b->partuuid), cp->t_partuuid);
		b->disk = &tv->disk;
		tv->children[i] = b;
	}
	tv->disk.children = tv->children;
	tv->disk.n_children = p->n_parts;

	tv->inv = *inv;
	tv->inv.all = calloc(inv->n_all + 1 + p->n_parts, sizeof(*tv->inv.all));
	tv->inv.top = calloc(inv->n_top + 1, sizeof(*tv->inv.top));
	if (!tv->inv.all || !tv->inv.top)
		return -ENOMEM;
	for (i = 0; i < inv->n_all; i++)
		if (!is_real_target(p, inv, inv->all[i]))
			tv->inv.all[n++] = inv->all[i];
	tv->inv.all[n++] = &tv->disk;
	for (i = 0; i < p->n_parts; i++)
		tv->inv.all[n++] = &tv->parts[i];
	tv->inv.n_all = n;
	for (i = n = 0; i < inv->n_top; i++)
		if (!is_real_target(p, inv, inv->top[i]))
			tv->inv.top[n++] = inv->top[i];
	tv->inv.top[n++] = &tv->disk;
	tv->inv.n_top = n;
	return 0;
}

static void target_view_release(struct target_view *tv)
{
	free(tv->inv.all);
	free(tv->inv.top);
	for (size_t i = 0; i < CLONE_PARTS_MAX; i++)
		if (tv->listed[i])
			sbuf_release(&tv->listing[i]);
}

/* boot/'s check of the target, the one that `sbcdisk boot check` runs: its boot partition and
 * files, root= and fstab on it, ids no other disk has, this board's bootloader, boot order
 * and quirks. An image or a loop device is judged by what it holds, not by this board. */
static void check_boot(struct clone_plan *p)
{
	struct target_view *tv = calloc(1, sizeof(*tv));
	struct boot_disk_access acc = { .read = target_read, .exists = target_exists,
					.arg = tv, .name = "the copy", .board = &p->board };
	struct boot_checks bc = { 0 };
	struct inventory *inv = NULL;
	struct boot_facts f = { 0 }, fv;
	bool facts = false;
	int ret;

	ret = tv ? probe_inventory_load(p->sr, &inv) : -ENOMEM;
	if (!ret)
		ret = boot_facts_read(p->sr, inv, &f);
	facts = !ret;
	if (!ret)
		ret = target_view_make(tv, p, inv);
	if (!ret) {
		fv = f;
		if (!boot_disk_is_candidate(&tv->disk))
			fv.loader = BOOT_LOADER_UNKNOWN;
		ret = boot_check_disk_with(p->sr, &tv->inv, &fv, &tv->disk, &acc, &bc);
	}
	if (ret) {
		check_add(p, "boot check", CLONE_CHECK_WARN, NULL, "not run: %s", strerror(-ret));
	} else {
		for (size_t i = 0; i < bc.n; i++) {
			const struct boot_check_item *it = &bc.item[i];

			check_add(p, it->id, it->result == BOOT_PASS ? CLONE_CHECK_PASS :
				  it->result == BOOT_WARN ? CLONE_CHECK_WARN : CLONE_CHECK_FAIL,
				  it->fix[0] ? it->fix : NULL, "%s", it->text);
		}
	}
	boot_checks_release(&bc);
	if (facts)
		boot_facts_release(&f);
	if (tv)
		target_view_release(tv);
	free(tv);
	probe_inventory_free(inv);
}

int clone_boot_check_path(struct sysroot *sr, const char *path, const char *disk,
			  const struct inventory *inv, const struct boot_facts *f,
			  const struct config_board *board, struct boot_checks *c, char *why,
			  size_t whycap)
{
	struct target_view *tv = calloc(1, sizeof(*tv));
	struct clone_plan *p = calloc(1, sizeof(*p));
	struct boot_disk_access acc = { .read = target_read, .exists = target_exists,
					.arg = tv, .name = NULL, .board = board };
	struct boot_facts fv = *f;
	int fd = -1, ret;
	uint64_t size;
	struct stat st;

	if (!tv || !p) {
		ret = -ENOMEM;
		goto out;
	}
	p->sr = sr;
	str_copy(p->dst_path, sizeof(p->dst_path), path);
	str_copy(p->dst_disk, sizeof(p->dst_disk), disk);
	ret = clone_table_read(path, p, why, whycap);
	if (ret)
		goto out;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || clone_fd_size(fd, &st, &size)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open it: %s", strerror(errno));
		goto out;
	}
	p->dst_size = size;
	for (size_t i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		clone_part_probe(fd, cp);
		cp->fs = clone_fs_of(cp->fstype);
		cp->t_start = cp->start;
		cp->t_size = cp->size;
		str_copy(cp->t_uuid, sizeof(cp->t_uuid), cp->uuid);
		str_copy(cp->t_partuuid, sizeof(cp->t_partuuid), cp->partuuid);
	}
	ret = target_view_make(tv, p, inv);
	if (ret)
		goto out;
	acc.name = tv->disk.kname;
	if (!boot_disk_is_candidate(&tv->disk))
		fv.loader = BOOT_LOADER_UNKNOWN;
	ret = boot_check_disk_with(sr, &tv->inv, &fv, &tv->disk, &acc, c);
	if (ret)
		str_fmt(why, whycap, "%s", strerror(-ret));
out:
	if (fd >= 0)
		close(fd);
	if (tv)
		target_view_release(tv);
	free(tv);
	free(p);
	return ret;
}

int clone_compare(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap)
{
	size_t i;

	(void)why;
	(void)whycap;
	if (p->whole)
		return 0;
	for (i = 0; i < p->n_parts && !(p->stop && *p->stop); i++) {
		struct clone_part *cp = &p->parts[i];

		if (cp->method == CLONE_BY_NONE)
			continue; /* nothing of it was copied */
		if (cp->fs->check[0])
			fsck_part(p, cp);
		if (cp->fs->compare && !(p->stop && *p->stop))
			cp->fs->compare(p, cp, o->verify_full);
	}
	if (!(p->stop && *p->stop))
		check_boot(p);
	return p->stop && *p->stop ? -EINTR : 0;
}
