// SPDX-License-Identifier: GPL-2.0-or-later
/* treecopy.c - the files of a live (mounted read-write) file system copied into a fresh one:
 * one walker creates every object, a pool of threads fills in the regular files' contents and
 * their owners, modes, xattrs and times, so that many small files are in flight at once.
 * A second pass copies only what changed since the first and removes what went away. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/util.h"

#define TC_WORKERS	8
#define TC_QUEUE	128	     /* files in flight: two descriptors each */
#define TC_CHUNK	(8U << 20)   /* one copy_file_range/sendfile call at most */
#define TC_BUF		(256U << 10) /* the read/write fallback's buffer, per thread */
#define TC_XATTR	(64U << 10)  /* XATTR_LIST_MAX and XATTR_SIZE_MAX */
#define TC_BATCH	32768	     /* regular files sorted by inode at once */
#define TC_FLUSH	(64ULL << 20) /* the target flushed every this many bytes copied */
#define TC_DEPTH_MAX	256	     /* directories deeper than this are refused, not followed */

/* A regular file whose contents and attributes a worker fills in. */
struct tc_job {
	int sfd, dfd;
	bool prune; /* created under a default ACL */
	struct stat st;
	char rel[]; /* "/home/pi/x", for the message */
};

/* A regular file found by the walk, copied when a batch of them is full, in inode order. */
struct tc_file {
	struct stat st;
	bool prune;
	char rel[];
};

/* A directory whose times are set once everything in it is written. */
struct tc_dir {
	struct timespec times[2];
	char *rel;
};

/* (dev, ino) of a file with several names → the first name copied ("/a/b", target side). */
struct tc_link {
	dev_t dev;
	ino_t ino;
	char *rel;
};

struct tc_xbuf {
	char list[TC_XATTR], val[TC_XATTR];
};

struct tc {
	struct clone_tree *t;
	int sroot, droot;
	dev_t dev;
	char rel[PATH_MAX];

	pthread_mutex_t mu;
	pthread_cond_t can_put, can_take, idle;
	struct tc_job *q[TC_QUEUE];
	unsigned q_head, q_len, busy;
	bool closing;

	atomic_int err;	     /* the first error, -errno; workers and walker */
	char err_rel[PATH_MAX];
	const char *err_what;
	atomic_bool no_cfr;  /* copy_file_range refused (EXDEV...): sendfile from then on */
	atomic_bool no_sendfile;
	_Atomic uint64_t bytes;
	_Atomic uint64_t flush_at; /* bytes copied when the target is next flushed */
	atomic_int flushing;	   /* an int: a bool's compare-exchange needs libatomic on riscv64 */

	struct tc_link *links;
	size_t n_links, cap_links;
	struct tc_dir *dirs;
	size_t n_dirs, cap_dirs;
	struct tc_file **files; /* TC_BATCH of them at most */
	size_t n_files;
	struct tc_xbuf xb; /* the walker's */
	uint64_t last_progress_ns;
};

static bool tc_stopped(const struct tc *c)
{
	return (c->t->stop && *c->t->stop) || atomic_load(&c->err);
}

/* The first error wins; later ones are its consequences. */
static int tc_fail(struct tc *c, int err, const char *what, const char *rel)
{
	int zero = 0;

	if (atomic_compare_exchange_strong(&c->err, &zero, err)) {
		pthread_mutex_lock(&c->mu);
		str_copy(c->err_rel, sizeof(c->err_rel), rel[0] ? rel : "/");
		c->err_what = what;
		pthread_mutex_unlock(&c->mu);
	}
	return err;
}

static void tc_progress(struct tc *c, bool force)
{
	uint64_t now = time_now_ns();

	if (!c->t->progress || (!force && now - c->last_progress_ns < 250000000ULL))
		return;
	c->last_progress_ns = now;
	c->t->progress(c->t->progress_arg, atomic_load(&c->bytes));
}

/* ---- xattrs, raw: ACLs (system.posix_acl_*), capabilities, user and trusted names ---- */

static bool name_listed(const char *list, ssize_t n, const char *name)
{
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(list + i) + 1)
		if (!strcmp(list + i, name))
			return true;
	return false;
}

/* The target's xattrs the source does not have go: ACLs the target inherited from its
 * directory's default ACL at creation. */
static int xattrs_prune(struct tc_xbuf *xb, ssize_t n, int dfd, const char *dpath)
{
	ssize_t m = dfd >= 0 ? flistxattr(dfd, xb->val, sizeof(xb->val))
			     : llistxattr(dpath, xb->val, sizeof(xb->val));

	if (m < 0)
		return errno == ENOTSUP ? 0 : -errno;
	for (ssize_t i = 0; i < m; i += (ssize_t)strlen(xb->val + i) + 1) {
		const char *name = xb->val + i;

		if (name_listed(xb->list, n, name))
			continue;
		if ((dfd >= 0 ? fremovexattr(dfd, name) : lremovexattr(dpath, name)) &&
		    errno != ENODATA)
			return -errno;
	}
	return 0;
}

/* Copy every xattr of the source to the target: by descriptor when sfd >= 0, else by path
 * (symlinks and special files). A name the target cannot hold (EOPNOTSUPP) is left out, as
 * a file system without it would; anything else is an error. prune: the target may have
 * inherited ACLs the source does not have. */
static int xattrs_copy(struct tc_xbuf *xb, int sfd, int dfd, const char *spath, const char *dpath,
		       bool prune)
{
	ssize_t n, v;

	n = sfd >= 0 ? flistxattr(sfd, xb->list, sizeof(xb->list))
		     : llistxattr(spath, xb->list, sizeof(xb->list));
	if (n < 0 && (errno == ENOTSUP || errno == ENOENT))
		n = 0;
	else if (n < 0)
		return -errno;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(xb->list + i) + 1) {
		const char *name = xb->list + i;

		v = sfd >= 0 ? fgetxattr(sfd, name, xb->val, sizeof(xb->val))
			     : lgetxattr(spath, name, xb->val, sizeof(xb->val));
		if (v < 0) {
			if (errno == ENODATA || errno == ENOTSUP)
				continue; /* removed meanwhile */
			return -errno;
		}
		if ((dfd >= 0 ? fsetxattr(dfd, name, xb->val, (size_t)v, 0)
			      : lsetxattr(dpath, name, xb->val, (size_t)v, 0)) &&
		    errno != ENOTSUP)
			return -errno;
	}
	return prune ? xattrs_prune(xb, n, dfd, dpath) : 0;
}

/* ---- the workers: contents, then owner, mode (after the owner: chown clears setuid and
 * capabilities), xattrs, times ---- */

/* Every TC_FLUSH bytes copied, one worker flushes the target file system while the others go
 * on: the writes reach the disk during the copy, not all in one sync at the end (with much
 * memory, writeback would not start before it). Measured: (b) of tools/bench-clone took two
 * thirds of the time it took without. */
static int flush_maybe(struct tc *c)
{
	int idle = 0, ret = 0;
	uint64_t b = atomic_load(&c->bytes);

	if (b < atomic_load(&c->flush_at) ||
	    !atomic_compare_exchange_strong(&c->flushing, &idle, 1))
		return 0;
	atomic_store(&c->flush_at, b + TC_FLUSH);
	if (syncfs(c->droot))
		ret = -errno;
	atomic_store(&c->flushing, 0);
	return ret;
}

/* len bytes at off: copy_file_range (same file system), else sendfile, else read/write. */
static int data_copy(struct tc *c, int sfd, int dfd, off_t off, off_t len, char *buf)
{
	while (len > 0) {
		size_t n = len > (off_t)TC_CHUNK ? TC_CHUNK : (size_t)len;
		ssize_t r = -1;

		if (tc_stopped(c))
			return -EINTR;
		if (!atomic_load(&c->no_cfr)) {
			off_t i = off, o = off;

			r = copy_file_range(sfd, &i, dfd, &o, n, 0);
			if (r < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
				      errno == EOPNOTSUPP)) {
				atomic_store(&c->no_cfr, true);
				continue;
			}
		} else if (!atomic_load(&c->no_sendfile)) {
			off_t i = off;

			if (lseek(dfd, off, SEEK_SET) < 0)
				return -errno;
			r = sendfile(dfd, sfd, &i, n);
			if (r < 0 && (errno == EINVAL || errno == ENOSYS)) {
				atomic_store(&c->no_sendfile, true);
				continue;
			}
		} else {
			r = pread(sfd, buf, n < TC_BUF ? n : TC_BUF, off);
			if (r > 0) {
				ssize_t w = 0;

				while (w < r) {
					ssize_t k = pwrite(dfd, buf + w, (size_t)(r - w), off + w);

					if (k < 0 && errno == EINTR)
						continue;
					if (k <= 0)
						return k < 0 ? -errno : -ENOSPC;
					w += k;
				}
			}
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* the file shrank meanwhile: the second pass sees it */
		off += r;
		len -= r;
		atomic_fetch_add(&c->bytes, (uint64_t)r);
		r = flush_maybe(c);
		if (r)
			return (int)r;
	}
	return 0;
}

/* A file's contents; its holes stay holes (SEEK_DATA/SEEK_HOLE). */
static int contents_copy(struct tc *c, int sfd, int dfd, const struct stat *st, char *buf)
{
	off_t size = st->st_size, pos = 0;
	bool sparse = (off_t)st->st_blocks * 512 < size;
	int ret = 0;

	if (!size)
		return 0;
	if (!sparse)
		return data_copy(c, sfd, dfd, 0, size, buf);
	if (ftruncate(dfd, size))
		return -errno;
	while (pos < size && !ret) {
		off_t data = lseek(sfd, pos, SEEK_DATA), end;

		if (data < 0)
			return errno == ENXIO ? 0 : data_copy(c, sfd, dfd, pos, size - pos, buf);
		end = lseek(sfd, data, SEEK_HOLE);
		if (end < 0 || end > size)
			end = size;
		ret = data_copy(c, sfd, dfd, data, end - data, buf);
		pos = end;
	}
	return ret;
}

static int attrs_fd(struct tc_xbuf *xb, int sfd, int dfd, const struct stat *st, bool times,
		    bool prune)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };

	if (fchown(dfd, st->st_uid, st->st_gid) || fchmod(dfd, st->st_mode & 07777))
		return -errno;
	{
		int ret = xattrs_copy(xb, sfd, dfd, NULL, NULL, prune);

		if (ret)
			return ret;
	}
	if (times && futimens(dfd, ts))
		return -errno;
	return 0;
}

/* A file's inode flags that say how it may be used (chattr +i, +a, +d, +A, +S): the last
 * thing set, since an immutable file takes no other change. A file system without them
 * (the ioctl not known on either side) keeps none; one that refuses them is an error. */
#define TC_FLAGS_KEPT (FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL | FS_SYNC_FL)
static int flags_fd(int sfd, int dfd)
{
	int sf = 0, df = 0;

	if (ioctl(sfd, FS_IOC_GETFLAGS, &sf) || !(sf & TC_FLAGS_KEPT))
		return 0;
	if (ioctl(dfd, FS_IOC_GETFLAGS, &df))
		return errno == ENOTTY || errno == EOPNOTSUPP ? 0 : -errno;
	df |= sf & TC_FLAGS_KEPT;
	return ioctl(dfd, FS_IOC_SETFLAGS, &df) ? -errno : 0;
}

static void job_run(struct tc *c, struct tc_job *j, char *buf, struct tc_xbuf *xb)
{
	int ret = 0;
	const char *what = "write";

	if (!tc_stopped(c)) {
		ret = contents_copy(c, j->sfd, j->dfd, &j->st, buf);
		if (!ret)
			ret = attrs_fd(xb, j->sfd, j->dfd, &j->st, true, j->prune);
		if (!ret) {
			ret = flags_fd(j->sfd, j->dfd);
			if (ret)
				what = "copy the flags (chattr) of";
		}
		if (ret == -EIO || ret == -EBADMSG)
			what = "read or write";
	}
	if (close(j->dfd) && !ret)
		ret = -errno;
	close(j->sfd);
	if (ret && ret != -EINTR)
		tc_fail(c, ret, what, j->rel);
	free(j);
}

static void *worker(void *arg)
{
	struct tc *c = arg;
	struct tc_xbuf *xb = malloc(sizeof(*xb));
	char *buf = malloc(TC_BUF);

	if (!xb || !buf)
		tc_fail(c, -ENOMEM, "copy", "");
	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct tc_job *j;

		while (!c->q_len && !c->closing)
			pthread_cond_wait(&c->can_take, &c->mu);
		if (!c->q_len)
			break;
		j = c->q[c->q_head];
		c->q_head = (c->q_head + 1) % TC_QUEUE;
		c->q_len--;
		c->busy++;
		pthread_cond_signal(&c->can_put);
		pthread_mutex_unlock(&c->mu);
		if (xb && buf) {
			job_run(c, j, buf, xb);
		} else {
			close(j->sfd);
			close(j->dfd);
			free(j);
		}
		pthread_mutex_lock(&c->mu);
		c->busy--;
		if (!c->q_len && !c->busy)
			pthread_cond_broadcast(&c->idle);
	}
	pthread_mutex_unlock(&c->mu);
	free(xb);
	free(buf);
	return NULL;
}

static void wait_timed(pthread_cond_t *cv, pthread_mutex_t *mu)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 200000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(cv, mu, &ts);
}

/* Queue a job; the walker waits (showing progress, watching for a stop) while it is full. */
static void job_put(struct tc *c, struct tc_job *j)
{
	pthread_mutex_lock(&c->mu);
	while (c->q_len == TC_QUEUE) {
		pthread_mutex_unlock(&c->mu);
		tc_progress(c, false);
		pthread_mutex_lock(&c->mu);
		if (c->q_len == TC_QUEUE)
			wait_timed(&c->can_put, &c->mu);
	}
	c->q[(c->q_head + c->q_len) % TC_QUEUE] = j;
	c->q_len++;
	pthread_cond_signal(&c->can_take);
	pthread_mutex_unlock(&c->mu);
}

/* Every queued file done (or dropped after a stop). */
static void jobs_drain(struct tc *c)
{
	pthread_mutex_lock(&c->mu);
	while (c->q_len || c->busy) {
		pthread_mutex_unlock(&c->mu);
		tc_progress(c, false);
		pthread_mutex_lock(&c->mu);
		if (c->q_len || c->busy)
			wait_timed(&c->idle, &c->mu);
	}
	pthread_mutex_unlock(&c->mu);
}

/* ---- the walker ---- */

static size_t link_slot(const struct tc *c, dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)dev;
	size_t i = (size_t)(h ^ (h >> 29)) & (c->cap_links - 1);

	while (c->links[i].rel && (c->links[i].dev != dev || c->links[i].ino != ino))
		i = (i + 1) & (c->cap_links - 1);
	return i;
}

/* The first name of (dev, ino) copied; NULL (and rel recorded) when this is the first. */
static const char *link_seen(struct tc *c, const struct stat *st, const char *rel, int *err)
{
	size_t i;

	*err = 0;
	if (c->n_links * 2 >= c->cap_links) {
		size_t cap = c->cap_links ? c->cap_links * 2 : 1024;
		struct tc_link *old = c->links, *nl = calloc(cap, sizeof(*nl));
		size_t oc = c->cap_links;

		if (!nl) {
			*err = -ENOMEM;
			return NULL;
		}
		c->links = nl;
		c->cap_links = cap;
		for (i = 0; i < oc; i++)
			if (old[i].rel)
				c->links[link_slot(c, old[i].dev, old[i].ino)] = old[i];
		free(old);
	}
	i = link_slot(c, st->st_dev, st->st_ino);
	if (c->links[i].rel)
		return c->links[i].rel;
	c->links[i].rel = strdup(rel);
	if (!c->links[i].rel) {
		*err = -ENOMEM;
		return NULL;
	}
	c->links[i].dev = st->st_dev;
	c->links[i].ino = st->st_ino;
	c->n_links++;
	return NULL;
}

static int dir_remember(struct tc *c, const struct stat *st)
{
	struct tc_dir *d;

	if (c->n_dirs == c->cap_dirs) {
		size_t cap = c->cap_dirs ? c->cap_dirs * 2 : 256;

		d = realloc(c->dirs, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		c->dirs = d;
		c->cap_dirs = cap;
	}
	d = &c->dirs[c->n_dirs];
	d->rel = strdup(c->rel[0] ? c->rel + 1 : ".");
	if (!d->rel)
		return -ENOMEM;
	d->times[0] = st->st_atim;
	d->times[1] = st->st_mtim;
	c->n_dirs++;
	return 0;
}

/* "mountpoint" + rel, for the l*xattr calls. */
static int full_path(char *buf, size_t cap, const char *root, const char *rel)
{
	return str_fmt(buf, cap, "%s%s", root, rel) ? -ENAMETOOLONG : 0;
}

/* name (and everything under it) removed from the target directory ddir. */
static int remove_tree(int ddir, const char *name, int depth)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	if (fstatat(ddir, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(ddir, name, 0) && errno != ENOENT ? -errno : 0;
	if (depth > TC_DEPTH_MAX)
		return -ELOOP;
	fd = openat(ddir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (!ret && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = remove_tree(dirfd(d), de->d_name, depth + 1);
	}
	closedir(d);
	if (!ret && unlinkat(ddir, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -errno;
	return ret;
}

int clone_remove_tree(int dirfd, const char *name)
{
	return remove_tree(dirfd, name, 0);
}

/* Second pass: is the target's entry (dt) still the source's (st)? */
static bool unchanged(const struct tc *c, const struct stat *st, const struct stat *dt)
{
	int64_t ct = (int64_t)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;

	if ((st->st_mode & S_IFMT) != (dt->st_mode & S_IFMT))
		return false;
	if (S_ISDIR(st->st_mode))
		return ct < c->t->since_ns;
	return ct < c->t->since_ns && st->st_size == dt->st_size &&
	       st->st_mtim.tv_sec == dt->st_mtim.tv_sec &&
	       st->st_mtim.tv_nsec == dt->st_mtim.tv_nsec &&
	       (!S_ISCHR(st->st_mode) && !S_ISBLK(st->st_mode) ? true
								 : st->st_rdev == dt->st_rdev);
}

static int walk_dir(struct tc *c, int sdir, int ddir, int depth, bool inherit);

/* A directory: made (or kept), its owner, mode and xattrs, then its contents unless it is
 * another file system's mount point (one file system only, rsync -x), its times at the end. */
/* Does the directory have a default ACL, which what is created in it inherits? */
static bool has_default_acl(int fd)
{
	return fgetxattr(fd, "system.posix_acl_default", NULL, 0) >= 0;
}

static int do_dir(struct tc *c, int sdir, int ddir, const char *name, const struct stat *st,
		  bool exists, int depth, bool inherit)
{
	int s = -1, d = -1, ret;

	if (!exists && mkdirat(ddir, name, 0700) && errno != EEXIST)
		return tc_fail(c, -errno, "create", c->rel);
	d = openat(ddir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0)
		return tc_fail(c, -errno, "open", c->rel);
	s = openat(sdir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (s < 0) {
		ret = errno == ENOENT ? 0 : tc_fail(c, -errno, "read", c->rel);
		goto out;
	}
	ret = attrs_fd(&c->xb, s, d, st, false, inherit || exists);
	if (ret) {
		tc_fail(c, ret, "set the attributes of", c->rel);
		goto out;
	}
	ret = dir_remember(c, st);
	if (ret) {
		tc_fail(c, ret, "copy", c->rel);
		goto out;
	}
	if (st->st_dev == c->dev)
		ret = walk_dir(c, s, d, depth + 1, has_default_acl(s));
out:
	if (s >= 0)
		close(s);
	close(d);
	return ret;
}

/* A regular file: made by the walker (so that its other names can be linked to it at
 * once), filled in by a worker. */
static int do_file(struct tc *c, const struct tc_file *f)
{
	size_t rl = strlen(f->rel);
	struct tc_job *j;
	int s, d;

	s = openat(c->sroot, f->rel + 1, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (s < 0 && errno == EPERM)
		s = openat(c->sroot, f->rel + 1, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (s < 0)
		return errno == ENOENT ? 0 : tc_fail(c, -errno, "read", f->rel);
	d = openat(c->droot, f->rel + 1, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		   0600);
	if (d < 0 && errno == EEXIST && remove_tree(c->droot, f->rel + 1, 0) == 0)
		d = openat(c->droot, f->rel + 1,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (d < 0) {
		int e = -errno;

		close(s);
		return tc_fail(c, e, "create", f->rel);
	}
	j = malloc(sizeof(*j) + rl + 1);
	if (!j) {
		close(s);
		close(d);
		return tc_fail(c, -ENOMEM, "copy", f->rel);
	}
	j->sfd = s;
	j->dfd = d;
	j->prune = f->prune;
	j->st = f->st;
	memcpy(j->rel, f->rel, rl + 1);
	job_put(c, j);
	return 0;
}

/* Another name of a file already copied: linked to it (*done). */
static int do_link(struct tc *c, const struct stat *st, const char *rel, bool *done)
{
	const char *first;
	int ret;

	*done = false;
	if (st->st_nlink < 2)
		return 0;
	first = link_seen(c, st, rel, &ret);
	if (ret)
		return tc_fail(c, ret, "copy", rel);
	if (!first)
		return 0;
	*done = true;
	if (!linkat(c->droot, first + 1, c->droot, rel + 1, 0))
		return 0;
	if (errno != EEXIST || remove_tree(c->droot, rel + 1, 0) ||
	    linkat(c->droot, first + 1, c->droot, rel + 1, 0))
		return tc_fail(c, -errno, "link", rel);
	return 0;
}

static int file_cmp(const void *a, const void *b)
{
	const struct tc_file *x = *(struct tc_file *const *)a, *y = *(struct tc_file *const *)b;

	return x->st.st_ino < y->st.st_ino ? -1 : x->st.st_ino > y->st.st_ino;
}

/* The regular files found so far, in the order of their inodes: on a disk that seeks, the
 * source is read mostly forward, not in the order of the names' hashes. */
static int files_flush(struct tc *c)
{
	int ret = 0;

	if (!c->n_files) /* c->files may be NULL, which qsort must not get */
		return 0;
	qsort(c->files, c->n_files, sizeof(*c->files), file_cmp);
	for (size_t i = 0; i < c->n_files; i++) {
		bool done;

		if (!ret && tc_stopped(c))
			ret = -EINTR;
		if (!ret)
			ret = do_link(c, &c->files[i]->st, c->files[i]->rel, &done);
		if (!ret && !done)
			ret = do_file(c, c->files[i]);
		free(c->files[i]);
		if (!ret)
			tc_progress(c, false);
	}
	c->n_files = 0;
	return ret;
}

static int file_add(struct tc *c, const struct stat *st, bool inherit)
{
	size_t rl = strlen(c->rel);
	struct tc_file *f;

	if (c->n_files == TC_BATCH) {
		int ret = files_flush(c);

		if (ret)
			return ret;
	}
	if (!c->files) {
		c->files = malloc(TC_BATCH * sizeof(*c->files));
		if (!c->files)
			return tc_fail(c, -ENOMEM, "copy", c->rel);
	}
	f = malloc(sizeof(*f) + rl + 1);
	if (!f)
		return tc_fail(c, -ENOMEM, "copy", c->rel);
	f->st = *st;
	f->prune = inherit;
	memcpy(f->rel, c->rel, rl + 1);
	c->files[c->n_files++] = f;
	return 0;
}

/* A symlink, device node, FIFO or socket: made, owned, moded, xattrs, times. */
static int do_special(struct tc *c, int sdir, int ddir, const char *name, const struct stat *st,
		      bool inherit)
{
	char sp[PATH_MAX * 2], dp[PATH_MAX * 2], target[PATH_MAX];
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	int ret;

	for (int tries = 0;; tries++) {
		if (S_ISLNK(st->st_mode)) {
			ssize_t n = readlinkat(sdir, name, target, sizeof(target) - 1);

			if (n < 0)
				return errno == ENOENT ? 0 : tc_fail(c, -errno, "read", c->rel);
			target[n] = '\0';
			ret = symlinkat(target, ddir, name);
		} else {
			ret = mknodat(ddir, name, (st->st_mode & S_IFMT) | 0600, st->st_rdev);
		}
		if (!ret)
			break;
		if (errno != EEXIST || tries || remove_tree(ddir, name, 0))
			return tc_fail(c, -errno, "create", c->rel);
	}
	if (fchownat(ddir, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW))
		return tc_fail(c, -errno, "set the owner of", c->rel);
	if (!S_ISLNK(st->st_mode) && fchmodat(ddir, name, st->st_mode & 07777, 0))
		return tc_fail(c, -errno, "set the mode of", c->rel);
	ret = full_path(sp, sizeof(sp), c->t->src, c->rel);
	if (!ret)
		ret = full_path(dp, sizeof(dp), c->t->dst, c->rel);
	if (!ret)
		ret = xattrs_copy(&c->xb, -1, -1, sp, dp, inherit && !S_ISLNK(st->st_mode));
	if (ret)
		return tc_fail(c, ret, "copy the xattrs of", c->rel);
	if (utimensat(ddir, name, ts, AT_SYMLINK_NOFOLLOW))
		return tc_fail(c, -errno, "set the times of", c->rel);
	return 0;
}

static int do_entry(struct tc *c, int sdir, int ddir, const char *name, int depth, bool inherit)
{
	struct stat st, dt;
	bool exists = false, linked;
	int ret;

	if (fstatat(sdir, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : tc_fail(c, -errno, "read", c->rel);
	if (c->t->pass && !fstatat(ddir, name, &dt, AT_SYMLINK_NOFOLLOW)) {
		exists = true;
		if (unchanged(c, &st, &dt)) {
			if (S_ISDIR(st.st_mode))
				return st.st_dev == c->dev ? do_dir(c, sdir, ddir, name, &st, true,
								    depth, inherit)
							   : dir_remember(c, &st);
			/* its other names, new or changed, are linked to this one */
			if (st.st_nlink > 1 && !link_seen(c, &st, c->rel, &ret) && ret)
				return tc_fail(c, ret, "copy", c->rel);
			return 0;
		}
		if (!S_ISDIR(st.st_mode) || !S_ISDIR(dt.st_mode)) {
			ret = remove_tree(ddir, name, 0);
			if (ret)
				return tc_fail(c, ret, "remove", c->rel);
			exists = false;
		}
	}
	if (S_ISDIR(st.st_mode))
		return do_dir(c, sdir, ddir, name, &st, exists, depth, inherit);
	if (S_ISREG(st.st_mode))
		return file_add(c, &st, inherit);
	ret = do_link(c, &st, c->rel, &linked);
	if (ret || linked)
		return ret;
	return do_special(c, sdir, ddir, name, &st, inherit);
}

/* Second pass: what the target has and the source no longer has goes. */
static int prune_dir(struct tc *c, int sdir, int ddir)
{
	struct dirent *de;
	struct stat st;
	int fd, ret = 0;
	DIR *d;

	fd = fcntl(ddir, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return tc_fail(c, -errno, "read", c->rel);
	}
	while (!ret && !tc_stopped(c) && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!fstatat(sdir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || errno != ENOENT)
			continue;
		ret = remove_tree(ddir, de->d_name, 0);
		if (ret)
			tc_fail(c, ret, "remove", c->rel);
	}
	closedir(d);
	return ret;
}

struct tc_ent {
	ino_t ino;
	char name[];
};

static int ent_cmp(const void *a, const void *b)
{
	const struct tc_ent *x = *(struct tc_ent *const *)a, *y = *(struct tc_ent *const *)b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* A directory's names, sorted by inode number (read in the order of the inode tables). */
static int dir_read(int sdir, struct tc_ent ***out, size_t *n)
{
	struct tc_ent **v = NULL, **nv;
	size_t cap = 0, len;
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	*n = 0;
	fd = openat(sdir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOATIME);
	if (fd < 0 || !(d = fdopendir(fd))) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			ret = -errno;
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
		}
		len = strlen(de->d_name);
		v[*n] = malloc(sizeof(**v) + len + 1);
		if (!v[*n]) {
			ret = -ENOMEM;
			break;
		}
		v[*n]->ino = de->d_ino;
		memcpy(v[*n]->name, de->d_name, len + 1);
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), ent_cmp);
	*out = v;
	return ret;
}

static int walk_dir(struct tc *c, int sdir, int ddir, int depth, bool inherit)
{
	size_t rl = strlen(c->rel), n = 0, i;
	struct tc_ent **v = NULL;
	int ret;

	if (depth > TC_DEPTH_MAX)
		return tc_fail(c, -ELOOP, "copy", c->rel);
	ret = dir_read(sdir, &v, &n);
	if (ret)
		tc_fail(c, ret, "read", c->rel);
	for (i = 0; !ret && i < n; i++) {
		if (tc_stopped(c)) {
			ret = -EINTR;
			break;
		}
		if (str_fmt(c->rel + rl, sizeof(c->rel) - rl, "/%s", v[i]->name)) {
			c->rel[rl] = '\0';
			ret = tc_fail(c, -ENAMETOOLONG, "copy", c->rel);
			break;
		}
		ret = do_entry(c, sdir, ddir, v[i]->name, depth, inherit);
		c->rel[rl] = '\0';
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	if (!ret && c->t->pass)
		ret = prune_dir(c, sdir, ddir);
	return ret;
}

static void tc_release(struct tc *c)
{
	for (size_t i = 0; i < c->cap_links; i++)
		free(c->links[i].rel);
	free(c->links);
	for (size_t i = 0; i < c->n_dirs; i++)
		free(c->dirs[i].rel);
	free(c->dirs);
	for (size_t i = 0; i < c->n_files; i++)
		free(c->files[i]);
	free(c->files);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->can_put);
	pthread_cond_destroy(&c->can_take);
	pthread_cond_destroy(&c->idle);
}

/* The walk, with the workers running; the directories' times once they are all done. */
static int tc_run(struct tc *c, pthread_t *th, unsigned *n_th)
{
	sigset_t all, old;
	pthread_attr_t at;
	struct stat st;
	int ret = 0;

	if (fstat(c->sroot, &st))
		return tc_fail(c, -errno, "read", "");
	c->dev = st.st_dev;
	/* signals go to the walker, which watches for the stop */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 256U << 10);
	for (*n_th = 0; *n_th < TC_WORKERS; (*n_th)++)
		if (pthread_create(&th[*n_th], &at, worker, c))
			break;
	pthread_attr_destroy(&at);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!*n_th)
		return tc_fail(c, -EAGAIN, "copy", "");
	ret = attrs_fd(&c->xb, c->sroot, c->droot, &st, false, true);
	if (ret)
		return tc_fail(c, ret, "set the attributes of", "");
	ret = dir_remember(c, &st);
	if (!ret)
		ret = walk_dir(c, c->sroot, c->droot, 0, has_default_acl(c->sroot));
	if (!ret)
		ret = files_flush(c);
	jobs_drain(c);
	for (size_t i = c->n_dirs; !ret && !tc_stopped(c) && i-- > 0;)
		if (utimensat(c->droot, c->dirs[i].rel, c->dirs[i].times, AT_SYMLINK_NOFOLLOW))
			ret = tc_fail(c, -errno, "set the times of", c->dirs[i].rel);
	return ret;
}

int clone_tree_copy(struct clone_tree *t, char *why, size_t whycap)
{
	struct tc *c = calloc(1, sizeof(*c));
	pthread_t th[TC_WORKERS];
	unsigned n_th = 0;
	int ret;

	if (!c)
		return -ENOMEM;
	c->t = t;
	c->sroot = c->droot = -1;
	c->flush_at = TC_FLUSH;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->can_put, NULL);
	pthread_cond_init(&c->can_take, NULL);
	pthread_cond_init(&c->idle, NULL);
	c->sroot = open(t->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c->droot = open(t->dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->sroot < 0 || c->droot < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open '%s': %s", c->sroot < 0 ? t->src : t->dst,
			strerror(-ret));
		goto out;
	}
	ret = tc_run(c, th, &n_th);
	pthread_mutex_lock(&c->mu);
	c->closing = true;
	pthread_cond_broadcast(&c->can_take);
	pthread_mutex_unlock(&c->mu);
	for (unsigned i = 0; i < n_th; i++)
		pthread_join(th[i], NULL);
	tc_progress(c, true);
	t->bytes = atomic_load(&c->bytes);
	if (t->stop && *t->stop) {
		ret = -EINTR;
	} else if (atomic_load(&c->err)) {
		ret = atomic_load(&c->err);
		str_fmt(why, whycap, "cannot %s '%s' on the target: %s", c->err_what, c->err_rel,
			strerror(-ret));
	}
out:
	if (c->sroot >= 0)
		close(c->sroot);
	if (c->droot >= 0)
		close(c->droot);
	tc_release(c);
	free(c);
	return ret;
}
