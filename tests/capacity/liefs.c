/* liefs.c - a FUSE file system for the tests that lies as counterfeit cards do: its one file,
 * "disk", reports --size bytes, but every offset wraps onto the first --real bytes; with
 * --flip one byte reads back with a bit flipped, as a failing card's might. */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct options {
	const char *size, *real, *backing, *flip;
} opts;

static uint64_t lie_size, lie_real;
static uint64_t lie_flip = UINT64_MAX; /* this byte reads back with its low bit flipped */
static int lie_fd = -1;

#define OPTION(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
	OPTION("--size=%s", size),
	OPTION("--real=%s", real),
	OPTION("--backing=%s", backing),
	OPTION("--flip=%s", flip),
	FUSE_OPT_END
};

static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s)
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int lie_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/disk"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (off_t)lie_size;
	st->st_blksize = 4096;
	return 0;
}

static int lie_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	return 0;
}

static int lie_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk"))
		return -ENOENT;
	fi->direct_io = 1; /* no page cache over the lie: every read asks us */
	return 0;
}

/* The lie: offset off lands on off % real, as on a card that ignores high address bits. */
static int lie_io(bool wr, char *buf, size_t len, off_t off)
{
	size_t done = 0;

	if ((uint64_t)off >= lie_size)
		return wr ? -ENOSPC : 0;
	if (len > lie_size - (uint64_t)off)
		len = lie_size - (uint64_t)off;
	while (done < len) {
		uint64_t pos = ((uint64_t)off + done) % lie_real;
		size_t n = len - done;
		ssize_t r;

		if (n > lie_real - pos)
			n = lie_real - pos;
		r = wr ? pwrite(lie_fd, buf + done, n, (off_t)pos)
		       : pread(lie_fd, buf + done, n, (off_t)pos);
		if (r < 0)
			return -errno;
		if (r == 0) { /* a hole past the backing file's end reads as zeros */
			memset(buf + done, 0, n);
			r = (ssize_t)n;
		}
		if (!wr && lie_flip >= pos && lie_flip < pos + (uint64_t)r)
			buf[done + (lie_flip - pos)] ^= 1;
		done += (size_t)r;
	}
	return (int)done;
}

static int lie_read(const char *path, char *buf, size_t len, off_t off,
		    struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return lie_io(false, buf, len, off);
}

static int lie_write(const char *path, const char *buf, size_t len, off_t off,
		     struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return lie_io(true, (char *)buf, len, off);
}

static int lie_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path, (void)size, (void)fi;
	return 0;
}

static int lie_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path, (void)datasync, (void)fi;
	return fdatasync(lie_fd) ? -errno : 0;
}

static const struct fuse_operations lie_ops = {
	.getattr = lie_getattr,
	.readdir = lie_readdir,
	.open = lie_open,
	.read = lie_read,
	.write = lie_write,
	.truncate = lie_truncate,
	.fsync = lie_fsync,
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int ret;

	if (fuse_opt_parse(&args, &opts, option_spec, NULL) == -1)
		return 1;
	if (parse_bytes(opts.size, &lie_size) || parse_bytes(opts.real, &lie_real) ||
	    !lie_real || lie_real > lie_size || !opts.backing ||
	    (opts.flip && parse_bytes(opts.flip, &lie_flip))) {
		fprintf(stderr, "usage: liefs MOUNTPOINT --size=64G --real=256M "
			"--backing=FILE [--flip=OFFSET] [fuse options]\n");
		return 2;
	}
	lie_fd = open(opts.backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lie_fd < 0 || ftruncate(lie_fd, (off_t)lie_real)) {
		perror(opts.backing);
		return 1;
	}
	ret = fuse_main(args.argc, args.argv, &lie_ops, NULL);
	fuse_opt_free_args(&args);
	close(lie_fd);
	return ret;
}
