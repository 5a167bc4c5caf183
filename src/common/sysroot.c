/* sysroot.c - every read of the system goes through here (docs/design.md, "sysroot").
 * A sysroot is a directory fd; paths resolve inside it with openat2(RESOLVE_IN_ROOT) or, where
 * the kernel or qemu-user lacks it, with our own resolver that keeps symlinks inside the root. */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysroot.h"
#include "util.h"
#include "sbuf.h"

#ifndef RESOLVE_IN_ROOT
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_IN_ROOT 0x10
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#define MAX_LINKS 40

struct open_how_compat {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

struct sysroot {
	int fd;
	bool live;
	bool manual; /* openat2 unavailable or disabled: resolve by hand */
	char dir[PATH_MAX];
};

int sysroot_open(const char *dir, struct sysroot **out)
{
	struct sysroot *sr;
	struct stat st;
	int ret;

	*out = NULL;
	if (!dir || !*dir)
		dir = "/";
	sr = calloc(1, sizeof(*sr));
	if (!sr)
		return -ENOMEM;
	if (str_copy(sr->dir, sizeof(sr->dir), dir)) {
		ret = -ENAMETOOLONG;
		goto fail;
	}
	sr->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sr->fd < 0) {
		ret = -errno;
		goto fail;
	}
	if (fstat(sr->fd, &st)) {
		ret = -errno;
		close(sr->fd);
		goto fail;
	}
	/* "/" itself, or a directory that is the real root, is the running system */
	{
		struct stat rs;

		sr->live = stat("/", &rs) == 0 && rs.st_dev == st.st_dev && rs.st_ino == st.st_ino;
	}
	*out = sr;
	return 0;
fail:
	free(sr);
	return ret;
}

void sysroot_free(struct sysroot *sr)
{
	if (!sr)
		return;
	close(sr->fd);
	free(sr);
}

const char *sysroot_dir(const struct sysroot *sr)
{
	return sr->live ? "/" : sr->dir;
}

bool sysroot_is_live(const struct sysroot *sr)
{
	return sr->live;
}

void sysroot_set_manual_resolve(struct sysroot *sr, bool manual)
{
	sr->manual = manual;
}

/* Relative form of an absolute target path for the *at() calls on the root fd. */
static const char *rel(const char *canon)
{
	while (*canon == '/')
		canon++;
	return *canon ? canon : ".";
}

/* Drop the last component of a canonical path ("/a/b" -> "/a", "/a" -> "/"). */
static void canon_up(char *canon, size_t *len)
{
	while (*len > 1 && canon[*len - 1] != '/')
		(*len)--;
	if (*len > 1)
		(*len)--;
	canon[*len] = '\0';
}

static int resolve(struct sysroot *sr, const char *path, char *out, size_t cap, bool follow_last)
{
	char rest[2 * PATH_MAX], link[PATH_MAX], tmp[2 * PATH_MAX];
	size_t len = 1, clen;
	const char *p, *comp;
	int links = 0;
	ssize_t n;

	if (cap < 2)
		return -ENAMETOOLONG;
	if (str_copy(rest, sizeof(rest), path))
		return -ENAMETOOLONG;
	out[0] = '/';
	out[1] = '\0';
	p = rest;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = p;
		while (*p && *p != '/')
			p++;
		clen = (size_t)(p - comp);
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			canon_up(out, &len);
			continue;
		}
		if (len + (len > 1) + clen + 1 > cap)
			return -ENAMETOOLONG;
		if (len > 1)
			out[len++] = '/';
		memcpy(out + len, comp, clen);
		len += clen;
		out[len] = '\0';

		while (*p == '/')
			p++;
		if (!*p && !follow_last)
			break;
		n = readlinkat(sr->fd, rel(out), link, sizeof(link) - 1);
		if (n < 0) {
			if (errno == EINVAL)
				continue; /* not a symlink */
			return -errno;
		}
		link[n] = '\0';
		if (++links > MAX_LINKS)
			return -ELOOP;
		if (link[0] == '/') {
			len = 1;
			out[1] = '\0';
		} else {
			canon_up(out, &len);
		}
		if (str_fmt(tmp, sizeof(tmp), "%s/%s", link, p))
			return -ENAMETOOLONG;
		memcpy(rest, tmp, strlen(tmp) + 1);
		p = rest;
	}
	return 0;
}

int sysroot_realpath(struct sysroot *sr, const char *path, char *out, size_t cap)
{
	return resolve(sr, path, out, cap, true);
}

int sysroot_open_fd(struct sysroot *sr, const char *path, int flags)
{
	char canon[PATH_MAX];
	int fd, ret;

	flags |= O_CLOEXEC;
	if (sr->live) {
		fd = open(path, flags);
		return fd < 0 ? -errno : fd;
	}
	if (!sr->manual) {
		struct open_how_compat how = {
			.flags = (uint64_t)flags,
			.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
		};

		/* EAGAIN: a rename or mount anywhere on the system raced a ".." of the path
		 * (openat2(2)); it says to try again, and a busy system does that often. Still
		 * racing after many tries: this one path is resolved by hand below. */
		for (int tries = 0; tries < 64; tries++) {
			fd = (int)syscall(SYS_openat2, sr->fd, rel(path), &how, sizeof(how));
			if (fd >= 0)
				return fd;
			if (errno != EAGAIN)
				break;
		}
		if (errno != ENOSYS && errno != EPERM && errno != E2BIG && errno != EAGAIN)
			return -errno;
		if (errno != EAGAIN)
			sr->manual = true; /* qemu-user, old kernels, seccomp */
	}
	ret = resolve(sr, path, canon, sizeof(canon), !(flags & O_NOFOLLOW));
	if (ret)
		return ret;
	fd = openat(sr->fd, rel(canon), flags | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

int sysroot_read(struct sysroot *sr, const char *path, char *buf, size_t cap)
{
	struct stat st;
	size_t len = 0, i;
	ssize_t n;
	int fd, ret;

	if (!cap)
		return -E2BIG;
	buf[0] = '\0';
	fd = sysroot_open_fd(sr, path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto out;
	}
	for (;;) {
		if (len == cap - 1) {
			char extra;

			n = read(fd, &extra, 1);
			if (n < 0 && errno == EINTR)
				continue;
			ret = n > 0 ? -E2BIG : n < 0 ? -errno : (int)len;
			goto done;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	ret = (int)len;
done:
	buf[len] = '\0';
	for (i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = '?';
out:
	close(fd);
	if (ret < 0)
		buf[0] = '\0';
	return ret;
}

int sysroot_read_str(struct sysroot *sr, const char *path, char *buf, size_t cap)
{
	int ret = sysroot_read(sr, path, buf, cap);

	if (ret < 0)
		return ret;
	str_trim(buf);
	return buf[0] ? (int)strlen(buf) : -ENODATA;
}

int sysroot_read_strf(struct sysroot *sr, char *buf, size_t cap, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		if (cap)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return sysroot_read_str(sr, path, buf, cap);
}

int sysroot_read_u64_base(struct sysroot *sr, const char *path, int base, uint64_t *out)
{
	char buf[64];
	int ret = sysroot_read_str(sr, path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	return parse_u64_base(buf, base, out);
}

int sysroot_read_u64(struct sysroot *sr, const char *path, uint64_t *out)
{
	return sysroot_read_u64_base(sr, path, 10, out);
}

int sysroot_readlink(struct sysroot *sr, const char *path, char *buf, size_t cap)
{
	char canon[PATH_MAX];
	ssize_t n;
	int ret;

	if (!cap)
		return -E2BIG;
	buf[0] = '\0';
	if (sr->live) {
		n = readlink(path, buf, cap);
	} else {
		ret = resolve(sr, path, canon, sizeof(canon), false);
		if (ret)
			return ret;
		n = readlinkat(sr->fd, rel(canon), buf, cap);
	}
	if (n < 0)
		return -errno;
	if ((size_t)n >= cap) {
		buf[cap - 1] = '\0';
		return -E2BIG;
	}
	buf[n] = '\0';
	return (int)n;
}

int sysroot_link_basename(struct sysroot *sr, const char *path, char *buf, size_t cap)
{
	char link[PATH_MAX];
	const char *base;
	int ret = sysroot_readlink(sr, path, link, sizeof(link));

	if (ret < 0)
		return ret;
	while (ret > 1 && link[ret - 1] == '/')
		link[--ret] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!*base)
		return -ENOENT;
	ret = str_copy(buf, cap, base);
	return ret ? ret : (int)strlen(buf);
}

FILE *sysroot_fopen(struct sysroot *sr, const char *path)
{
	FILE *f;
	int fd = sysroot_open_fd(sr, path, O_RDONLY);

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

int sysroot_opendir(struct sysroot *sr, const char *path, DIR **out)
{
	int fd = sysroot_open_fd(sr, path, O_RDONLY | O_DIRECTORY);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopendir(fd);
	if (!*out) {
		int e = errno;

		close(fd);
		return -e;
	}
	return 0;
}

int sysroot_stat(struct sysroot *sr, const char *path, struct stat *st, bool follow)
{
	char canon[PATH_MAX];
	int ret;

	if (sr->live)
		return (follow ? stat(path, st) : lstat(path, st)) ? -errno : 0;
	ret = resolve(sr, path, canon, sizeof(canon), follow);
	if (ret)
		return ret;
	return fstatat(sr->fd, rel(canon), st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

bool sysroot_exists(struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st, true) == 0;
}

int sysroot_host_path(const struct sysroot *sr, const char *path, char *out, size_t cap)
{
	if (sr->live)
		return str_copy(out, cap, path);
	return str_fmt(out, cap, "%s%s%s", sr->dir, path[0] == '/' ? "" : "/", path);
}

int sysroot_read_file(struct sysroot *sr, const char *path, size_t cap, struct sbuf *out)
{
	struct stat st;
	int fd, ret;

	sbuf_init(out, cap);
	fd = sysroot_open_fd(sr, path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	else
		ret = sbuf_read_fd(out, fd); /* bytes as they are: NULs too */
	close(fd);
	if (ret)
		sbuf_release(out);
	return ret;
}

/* A device-tree property's bytes; its length or -errno (-E2BIG beyond SYSROOT_ATTR_MAX). */
static int dt_read(struct sysroot *sr, const char *path, struct sbuf *raw)
{
	int ret = sysroot_read_file(sr, path, SYSROOT_ATTR_MAX, raw);

	if (ret == -EFBIG)
		ret = -E2BIG;
	return ret ? ret : (int)raw->len;
}

int sysroot_read_dt_string(struct sysroot *sr, const char *path, char *out, size_t cap)
{
	struct sbuf raw;
	const char *end;
	size_t n;
	int ret;

	if (!cap)
		return -E2BIG;
	out[0] = '\0';
	ret = dt_read(sr, path, &raw);
	if (ret <= 0)
		return ret ? ret : -ENODATA;
	end = memchr(raw.buf, '\0', raw.len);
	n = end ? (size_t)(end - raw.buf) : raw.len;
	if (n >= cap) {
		ret = -E2BIG;
	} else {
		memcpy(out, raw.buf, n);
		out[n] = '\0';
		ret = n ? 0 : -ENODATA;
	}
	sbuf_release(&raw);
	return ret;
}

int sysroot_read_dt_cells(struct sysroot *sr, const char *path, uint32_t *cells, size_t max,
			  size_t *count)
{
	const unsigned char *p;
	struct sbuf raw;
	size_t i;
	int ret;

	*count = 0;
	ret = dt_read(sr, path, &raw);
	if (ret < 0)
		return ret;
	if (raw.len % 4)
		ret = -EINVAL;
	else if (raw.len / 4 > max)
		ret = -E2BIG;
	else
		ret = 0;
	for (i = 0, p = (const unsigned char *)raw.buf; !ret && i < raw.len / 4; i++, p += 4)
		cells[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	if (!ret)
		*count = raw.len / 4;
	sbuf_release(&raw);
	return ret;
}

int sysroot_read_dt_u32(struct sysroot *sr, const char *path, uint32_t *out)
{
	uint32_t c[1];
	size_t n;
	int ret = sysroot_read_dt_cells(sr, path, c, 1, &n);

	if (ret == -E2BIG || (!ret && n != 1))
		ret = -EINVAL;
	if (!ret)
		*out = c[0];
	return ret;
}

int sysroot_read_dt_u64(struct sysroot *sr, const char *path, uint64_t *out)
{
	uint32_t c[2];
	size_t n;
	int ret = sysroot_read_dt_cells(sr, path, c, 2, &n);

	if (ret == -E2BIG || (!ret && n != 2))
		ret = -EINVAL;
	if (!ret)
		*out = (uint64_t)c[0] << 32 | c[1];
	return ret;
}
