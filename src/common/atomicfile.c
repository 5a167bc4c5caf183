/* atomicfile.c - temporary file, fsync, rename, directory fsync; what a signal or a kill -9
 * leaves behind is removed by the signal handler or by the next writer in that directory. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/util.h"

void (*afile_test_step)(int step);

/* What a signal handler removes: the temporary files and a backup not yet matched by its
 * replacement. Only async-signal-safe calls touch it from the handler. */
struct afile_slot {
	volatile sig_atomic_t used;
	int dirfd;
	char name[256];
};

enum { SLOT_NEW, SLOT_OLD, SLOT_BACKUP, SLOT_N };
static struct afile_slot slots[SLOT_N];

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
static struct sigaction saved[ARRAY_SIZE(caught)];
static volatile sig_atomic_t handlers_on;

static void slots_remove(void)
{
	size_t i;

	for (i = 0; i < SLOT_N; i++)
		if (slots[i].used) {
			unlinkat(slots[i].dirfd, slots[i].name, 0);
			slots[i].used = 0;
		}
}

static void handlers_off(void)
{
	size_t i;

	if (!handlers_on)
		return;
	handlers_on = 0;
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &saved[i], NULL);
}

static void on_signal(int sig)
{
	int saved_errno = errno;

	slots_remove();
	handlers_off();
	raise(sig); /* the previous disposition decides now: usually the process dies */
	errno = saved_errno;
}

static void handlers_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	if (handlers_on)
		return;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &sa, &saved[i]);
	handlers_on = 1;
}

/* The caught signals wait while a name and its slot change together. */
static void sig_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void sig_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void slot_set(int i, int dirfd, const char *name)
{
	slots[i].used = 0;
	slots[i].dirfd = dirfd;
	str_copy(slots[i].name, sizeof(slots[i].name), name);
	slots[i].used = 1;
}

static void step(int n)
{
	if (afile_test_step)
		afile_test_step(n);
}

/* Versions before this writer named their temporary files ".NAME.sbcdisk-tmp-PID-N". */
#define LEGACY_TMP_TAG ".sbcdisk-tmp-"

/* ".sbcdisk-PID-XXXXXX" (or the older ".NAME.sbcdisk-tmp-PID-N"): the PID of a temporary
 * file, or 0 when name is not one. */
static pid_t tmp_pid(const char *name)
{
	const char *p = name + strlen(AFILE_TMP_PREFIX), *dash, *legacy;
	char num[16];
	uint64_t v;

	legacy = name[0] == '.' ? strstr(name + 1, LEGACY_TMP_TAG) : NULL;
	if (legacy) {
		p = legacy + strlen(LEGACY_TMP_TAG);
		dash = strchr(p, '-');
		if (!dash || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1))
			return 0;
	} else {
		if (!str_starts(name, AFILE_TMP_PREFIX))
			return 0;
		dash = strchr(p, '-');
		if (!dash || strlen(dash + 1) != 6 || strspn(dash + 1, "0123456789abcdef") != 6)
			return 0;
	}
	if (dash == p || (size_t)(dash - p) >= sizeof(num))
		return 0;
	memcpy(num, p, (size_t)(dash - p));
	num[dash - p] = '\0';
	if (parse_u64(num, &v) || !v || v > INT32_MAX)
		return 0;
	return (pid_t)v;
}

int afile_clean_stale(int dirfd)
{
	struct dirent *de;
	int fd, n = 0;
	pid_t pid;
	DIR *d;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		pid = tmp_pid(de->d_name);
		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		if (!unlinkat(dirfd, de->d_name, 0))
			n++;
	}
	closedir(d);
	return n;
}

int afile_lock(int dirfd, bool wait)
{
	int r;

	do
		r = flock(dirfd, LOCK_EX | (wait ? 0 : LOCK_NB));
	while (r && errno == EINTR);
	if (r && errno == EWOULDBLOCK)
		return -EBUSY;
	/* a file system without locks still gets the rest of the protection */
	if (r && errno != ENOLCK && errno != EOPNOTSUPP && errno != EINVAL)
		return -errno;
	afile_clean_stale(dirfd);
	return 0;
}

void afile_unlock(int dirfd)
{
	flock(dirfd, LOCK_UN);
}

static int name_ok(const char *name)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	return strlen(name) > 255 ? -ENAMETOOLONG : 0;
}

/* Whether dirfd/name may be replaced; its mode into *mode (0 when it does not exist). */
static int target_check(int dirfd, const char *name, const struct afile_opts *o, mode_t *mode)
{
	struct stat st;
	size_t i;

	*mode = 0;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	for (i = 0; i < o->n_protect; i++)
		if (st.st_dev == o->protect[i].st_dev && st.st_ino == o->protect[i].st_ino)
			return -ETXTBSY;
	*mode = st.st_mode & 07777;
	return 0;
}

/* A new temporary file in dirfd, registered in slot; its fd or -errno. */
static int tmp_open(int dirfd, int slot, mode_t mode)
{
	static unsigned seq;
	char name[64];
	sigset_t old;
	int fd, i, err;

	for (i = 0; i < 100; i++) {
		unsigned r = (unsigned)time_now_ns() ^ (unsigned)getpid() << 12 ^ ++seq * 2654435761u;

		str_fmt(name, sizeof(name), AFILE_TMP_PREFIX "%ld-%06x", (long)getpid(),
			r & 0xffffff);
		sig_block(&old);
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		err = errno;
		if (fd >= 0)
			slot_set(slot, dirfd, name);
		sig_unblock(&old);
		if (fd >= 0)
			return fd;
		if (err != EEXIST)
			return -err;
	}
	return -EEXIST;
}

/* Fill, flush, fsync and close the temporary file fd. 0 or -errno (fd closed either way). */
static int tmp_fill(int fd, mode_t mode, const struct afile_opts *o,
		    int (*fill)(FILE *f, void *arg), void *arg)
{
	FILE *f;
	int ret = 0;

	/* the umask must not narrow the mode; FAT ignores both calls */
	if (fchmod(fd, mode) && errno != EPERM && errno != ENOTSUP)
		ret = -errno;
	if (!ret && o->uid != (uid_t)-1 && fchown(fd, o->uid, o->gid) && errno != EPERM &&
	    errno != ENOTSUP)
		ret = -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return ret ? ret : -errno;
	}
	if (!ret) {
		errno = 0;
		ret = fill(f, arg);
		/* writers say -EIO for any stdio failure; the failed write left its reason in
		 * errno, and a full disk is what the user needs to hear */
		if (ret == -EIO && ferror(f) && (errno == ENOSPC || errno == EDQUOT))
			ret = -errno;
	}
	if (!ret && fflush(f))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

struct bytes {
	const void *data;
	size_t len;
};

static int fill_bytes(FILE *f, void *arg)
{
	const struct bytes *b = arg;

	if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
		return errno ? -errno : -EIO;
	return 0;
}

static mode_t default_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* Move the temporary file of slot to name; a name that exists already is never replaced. */
static int rename_noreplace(int dirfd, int slot, const char *name)
{
	if (!renameat2(dirfd, slots[slot].name, dirfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* no RENAME_NOREPLACE here: the directory lock keeps other writers of ours out */
	if (!faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW))
		return -EEXIST;
	return renameat(dirfd, slots[slot].name, dirfd, name) ? -errno : 0;
}

static int commit(int dirfd, const char *name, int (*fill)(FILE *f, void *arg), void *arg,
		  const struct afile_opts *o)
{
	struct bytes old = { o->backup_data, o->backup_len };
	sigset_t mask;
	mode_t mode;
	int fd, ret;

	ret = target_check(dirfd, name, o, &mode);
	if (ret)
		return ret;
	if (o->mode)
		mode = o->mode & 07777;
	else if (!mode)
		mode = default_mode();
	if (o->backup && !faccessat(dirfd, o->backup, F_OK, AT_SYMLINK_NOFOLLOW))
		return -EEXIST;
	handlers_install();
	if (o->backup) {
		fd = tmp_open(dirfd, SLOT_OLD, mode);
		ret = fd < 0 ? fd : tmp_fill(fd, mode, o, fill_bytes, &old);
		if (ret)
			goto out;
		step(1);
	}
	fd = tmp_open(dirfd, SLOT_NEW, mode);
	ret = fd < 0 ? fd : tmp_fill(fd, mode, o, fill, arg);
	if (ret)
		goto out;
	step(2);
	if (o->backup) {
		/* from here until the replacement, a signal removes the backup by its name */
		sig_block(&mask);
		ret = rename_noreplace(dirfd, SLOT_OLD, o->backup);
		if (!ret) {
			slots[SLOT_OLD].used = 0;
			slot_set(SLOT_BACKUP, dirfd, o->backup);
		}
		sig_unblock(&mask);
		if (ret)
			goto out;
		step(3);
	}
	sig_block(&mask);
	ret = renameat(dirfd, slots[SLOT_NEW].name, dirfd, name) ? -errno : 0;
	if (!ret) {
		slots[SLOT_NEW].used = 0;
		slots[SLOT_BACKUP].used = 0;
	}
	sig_unblock(&mask);
	if (ret)
		goto out;
	step(4);
	/* the new contents are in place: a failing directory fsync must not be reported as
	 * "unchanged" (the caller would drop the backup), so sync the whole file system */
	if (fsync(dirfd) && errno != EINVAL && errno != EROFS)
		syncfs(dirfd);
out:
	slots_remove();
	handlers_off();
	return ret;
}

int afile_commit_at(int dirfd, const char *name, int (*fill)(FILE *f, void *arg), void *arg,
		    const struct afile_opts *o)
{
	struct afile_opts none = AFILE_OPTS_INIT;
	int ret;

	if (!o)
		o = &none;
	ret = name_ok(name);
	if (!ret && o->backup)
		ret = name_ok(o->backup);
	if (ret)
		return ret;
	if (!o->locked) {
		ret = afile_lock(dirfd, true);
		if (ret)
			return ret;
	}
	ret = commit(dirfd, name, fill, arg, o);
	if (!o->locked)
		afile_unlock(dirfd);
	return ret;
}

int afile_replace_at(int dirfd, const char *name, const void *data, size_t len,
		     const struct afile_opts *o)
{
	struct bytes b = { data, len };

	return afile_commit_at(dirfd, name, fill_bytes, &b, o);
}

int afile_write_path(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
		     const struct afile_opts *o)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int dfd, ret;

	if (!*path || (slash && !slash[1]))
		return -EISDIR;
	if (!slash)
		str_copy(dir, sizeof(dir), ".");
	else if (slash == path)
		str_copy(dir, sizeof(dir), "/");
	else if (str_fmt(dir, sizeof(dir), "%.*s", (int)(slash - path), path))
		return -ENAMETOOLONG;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	ret = afile_commit_at(dfd, slash ? slash + 1 : path, fill, arg, o);
	close(dfd);
	return ret;
}

/* 1 when the two open files hold the same bytes, 0 when not, or -errno. */
static int same_bytes(int a, int b)
{
	char x[4096], y[4096];
	ssize_t n, m;

	for (;;) {
		n = read(a, x, sizeof(x));
		m = n > 0 ? read(b, y, (size_t)n) : read(b, y, 1);
		if (n < 0 || m < 0)
			return -errno;
		if (n != m || memcmp(x, y, (size_t)n))
			return 0;
		if (!n)
			return 1;
	}
}

int afile_backup_settle(int dirfd, const char *name, const char *backup)
{
	int a, b, ret;

	a = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (a < 0)
		return -errno;
	b = openat(dirfd, backup, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (b < 0) {
		ret = -errno;
		close(a);
		return ret;
	}
	ret = same_bytes(a, b);
	close(a);
	close(b);
	if (ret == 1 && unlinkat(dirfd, backup, 0))
		ret = -errno;
	return ret;
}
