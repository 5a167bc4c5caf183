/* t-atomicfile.c - the atomic writer: what it refuses to replace (and leaves untouched), the
 * protected inode, long names, stale temporary files, the lock, and a process killed (KILL
 * and TERM) at every step of a commit with a backup: the original intact or fully replaced,
 * no temporary file and no backup of a change that did not happen after the next writer. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/atomicfile.h"
#include "common/util.h"
#include "t.h"
#include "t-tree.h"

static int dfd = -1;

static const char *slurp(const char *name, char *buf, size_t cap)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, cap - 1);

	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return n < 0 ? "(none)" : buf;
}

/* The number of temporary files (".sbcdisk-*") in the directory. */
static int temps(void)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY);
	struct dirent *de;
	DIR *d = fdopendir(fd);
	int n = 0;

	while (d && (de = readdir(d)))
		n += str_starts(de->d_name, AFILE_TMP_PREFIX);
	if (d)
		closedir(d);
	return n;
}

static void test_refused(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat before, after;
	static const char *const names[] = { "fifo", "link", "dir", "null", "sock" };
	static const int want[] = { -EINVAL, -ELOOP, -EISDIR, -EINVAL, -EINVAL };
	char path[PATH_MAX + 32], buf[64];
	size_t i;
	int s;

	T_EQ_INT(mkfifoat(dfd, "fifo", 0644), 0);
	t_tree_put("d/target", "keep\n");
	T_EQ_INT(symlinkat("target", dfd, "link"), 0);
	T_EQ_INT(mkdirat(dfd, "dir", 0755), 0);
	if (mknodat(dfd, "null", S_IFCHR | 0666, makedev(1, 3)))
		T_EQ_INT(mkfifoat(dfd, "null", 0644), 0); /* no CAP_MKNOD: a second FIFO */
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	str_fmt(sa.sun_path, sizeof(sa.sun_path), "%s", t_tree_path("d/sock", path, sizeof(path)));
	T_EQ_INT(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		T_EQ_INT(fstatat(dfd, names[i], &before, AT_SYMLINK_NOFOLLOW), 0);
		T_EQ_INT(afile_replace_at(dfd, names[i], "new\n", 4, NULL), want[i]);
		T_EQ_INT(fstatat(dfd, names[i], &after, AT_SYMLINK_NOFOLLOW), 0);
		T_CHECK(before.st_ino == after.st_ino && before.st_mode == after.st_mode);
	}
	close(s);
	T_EQ_STR(slurp("target", buf, sizeof(buf)), "keep\n");
	T_EQ_INT(afile_replace_at(dfd, "a/b", "x", 1, NULL), -EINVAL);
	T_EQ_INT(afile_replace_at(dfd, "..", "x", 1, NULL), -EINVAL);
	T_EQ_INT(temps(), 0);
}

static void test_protect(void)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	struct stat st;
	char buf[64];

	t_tree_put("d/r.db", "database\n");
	T_EQ_INT(linkat(dfd, "r.db", dfd, "same", 0), 0);
	T_EQ_INT(fstatat(dfd, "r.db", &st, 0), 0);
	o.protect = &st;
	o.n_protect = 1;
	T_EQ_INT(afile_replace_at(dfd, "r.db", "report\n", 7, &o), -ETXTBSY);
	T_EQ_INT(afile_replace_at(dfd, "same", "report\n", 7, &o), -ETXTBSY);
	T_EQ_STR(slurp("r.db", buf, sizeof(buf)), "database\n");
	T_EQ_INT(afile_replace_at(dfd, "other", "report\n", 7, &o), 0);
	T_EQ_STR(slurp("other", buf, sizeof(buf)), "report\n");
}

static void test_long_name(void)
{
	char name[300], buf[64];

	memset(name, 'n', 255);
	name[255] = '\0';
	T_EQ_INT(afile_replace_at(dfd, name, "1\n", 2, NULL), 0);
	T_EQ_INT(afile_replace_at(dfd, name, "2\n", 2, NULL), 0);
	T_EQ_STR(slurp(name, buf, sizeof(buf)), "2\n");
	name[255] = 'n';
	name[256] = '\0';
	T_EQ_INT(afile_replace_at(dfd, name, "1\n", 2, NULL), -ENAMETOOLONG);
	T_EQ_INT(temps(), 0);
}

static void test_stale(void)
{
	char dead[64], live[64], mine[64], other[64], rel[80], old[64];
	const char *const all[] = { dead, live, mine, other, old };
	pid_t pid = fork();
	size_t i;

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	str_fmt(dead, sizeof(dead), AFILE_TMP_PREFIX "%d-0a1b2c", (int)pid);
	str_fmt(live, sizeof(live), AFILE_TMP_PREFIX "1-0a1b2c"); /* init lives */
	str_fmt(mine, sizeof(mine), AFILE_TMP_PREFIX "%d-0a1b2c", (int)getpid());
	str_fmt(other, sizeof(other), AFILE_TMP_PREFIX "%d-notours", (int)pid);
	/* what the fix's writer before this one left after a kill -9 */
	str_fmt(old, sizeof(old), ".cmdline.txt.sbcdisk-tmp-%d-0", (int)pid);
	t_tree_put("d/.sbcdisk-x", "");
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		str_fmt(rel, sizeof(rel), "d/%s", all[i]);
		t_tree_put(rel, "x");
	}
	T_EQ_INT(afile_clean_stale(dfd), 2);
	T_CHECK(faccessat(dfd, dead, F_OK, 0) && errno == ENOENT);
	T_CHECK(faccessat(dfd, old, F_OK, 0) && errno == ENOENT);
	T_EQ_INT(faccessat(dfd, live, F_OK, 0), 0);
	T_EQ_INT(faccessat(dfd, mine, F_OK, 0), 0);
	T_EQ_INT(faccessat(dfd, other, F_OK, 0), 0);
	/* a writer in the directory removes them too */
	str_fmt(rel, sizeof(rel), "d/%s", dead);
	t_tree_put(rel, "x");
	T_EQ_INT(afile_replace_at(dfd, "f", "x", 1, NULL), 0);
	T_CHECK(faccessat(dfd, dead, F_OK, 0) && errno == ENOENT);
	unlinkat(dfd, live, 0);
	unlinkat(dfd, mine, 0);
	unlinkat(dfd, other, 0);
	unlinkat(dfd, ".sbcdisk-x", 0);
}

static void test_lock(void)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	int go[2], done[2], d2;
	char c = 0, buf[16];
	pid_t pid;

	T_EQ_INT(pipe(go), 0);
	T_EQ_INT(pipe(done), 0);
	pid = fork();
	if (pid == 0) { /* holds the lock until told */
		int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY);

		if (afile_lock(fd, true))
			_exit(1);
		if (write(go[1], "l", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	T_EQ_INT(read(go[0], &c, 1), 1);
	d2 = openat(dfd, ".", O_RDONLY | O_DIRECTORY);
	T_EQ_INT(afile_lock(d2, false), -EBUSY);
	o.locked = false;
	/* the holder's lock is released when it ends: the writer then goes through */
	T_EQ_INT(write(done[1], "u", 1), 1);
	waitpid(pid, NULL, 0);
	T_EQ_INT(afile_lock(d2, false), 0);
	afile_unlock(d2);
	T_EQ_INT(afile_replace_at(dfd, "locked", "y", 1, &o), 0);
	T_EQ_STR(slurp("locked", buf, sizeof(buf)), "y");
	close(d2);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

static int die_at, die_sig;

static void die_here(int step)
{
	if (step == die_at)
		raise(die_sig);
}

/* A child replaces "boot" ("old") with "new" and a backup, and dies at step at of signal
 * sig; then the checks, then what the next writer leaves. */
static void kill_at(int at, int sig)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	char buf[64], b2[64];
	int status = 0, failed = t_failures;
	bool replaced;
	pid_t pid;

	unlinkat(dfd, "boot.bak", 0);
	t_tree_put("d/boot", "old\n");
	pid = fork();
	if (pid == 0) {
		die_at = at;
		die_sig = sig;
		afile_test_step = die_here;
		o.backup = "boot.bak";
		o.backup_data = "old\n";
		o.backup_len = 4;
		_exit(afile_replace_at(dfd, "boot", "new\n", 4, &o) ? 2 : 0);
	}
	waitpid(pid, &status, 0);
	T_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	slurp("boot", buf, sizeof(buf));
	replaced = !strcmp(buf, "new\n");
	T_CHECK(replaced || !strcmp(buf, "old\n"));
	T_EQ_INT(replaced, at >= 4);
	/* a replacement has its backup; a signal the writer catches leaves nothing else */
	if (replaced)
		T_EQ_STR(slurp("boot.bak", b2, sizeof(b2)), "old\n");
	if (sig != SIGKILL) {
		T_EQ_INT(temps(), 0);
		if (!replaced)
			T_EQ_STR(slurp("boot.bak", b2, sizeof(b2)), "(none)");
	}
	/* the next writer in the directory: no temporary file, no backup without its change */
	T_EQ_INT(afile_lock(dfd, true), 0);
	if (!faccessat(dfd, "boot.bak", F_OK, 0))
		T_EQ_INT(afile_backup_settle(dfd, "boot", "boot.bak"), !replaced);
	afile_unlock(dfd);
	T_EQ_INT(temps(), 0);
	T_EQ_STR(slurp("boot.bak", b2, sizeof(b2)), replaced ? "old\n" : "(none)");
	if (t_failures > failed)
		fprintf(stderr, "  (after a signal %d at step %d)\n", sig, at);
}

static void test_backup(void)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	char buf[64];
	int at;

	t_tree_put("d/boot", "old\n");
	t_tree_put("d/boot.bak", "older\n");
	o.backup = "boot.bak";
	o.backup_data = "old\n";
	o.backup_len = 4;
	/* an existing backup name is never replaced, and then nothing changes */
	T_EQ_INT(afile_replace_at(dfd, "boot", "new\n", 4, &o), -EEXIST);
	T_EQ_STR(slurp("boot", buf, sizeof(buf)), "old\n");
	T_EQ_STR(slurp("boot.bak", buf, sizeof(buf)), "older\n");
	unlinkat(dfd, "boot.bak", 0);
	T_EQ_INT(afile_replace_at(dfd, "boot", "new\n", 4, &o), 0);
	T_EQ_STR(slurp("boot.bak", buf, sizeof(buf)), "old\n");
	T_EQ_INT(afile_backup_settle(dfd, "boot", "boot.bak"), 0);
	T_EQ_INT(temps(), 0);
	for (at = 1; at <= 4; at++) {
		kill_at(at, SIGKILL);
		kill_at(at, SIGTERM);
		kill_at(at, SIGINT);
	}
}

int main(void)
{
	char path[PATH_MAX + 32];

	t_tree_new("t-atomicfile");
	t_tree_mkdirs("d");
	dfd = open(t_tree_path("d", path, sizeof(path)), O_RDONLY | O_DIRECTORY);
	T_CHECK(dfd >= 0);
	if (dfd < 0)
		return t_done();
	test_refused();
	test_protect();
	test_long_name();
	test_stale();
	test_lock();
	test_backup();
	close(dfd);
	t_tree_remove();
	return t_done();
}
