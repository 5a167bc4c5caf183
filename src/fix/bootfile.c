/* bootfile.c - locate, read, back up and replace the boot files, every access through the
 * sysroot so that --sysroot DIR edits DIR/boot/firmware/cmdline.txt and nothing else. */
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "fix/bootfile.h"
#include "fix/atomic.h"
#include "fix/config.h"
#include "common/paths.h"
#include "common/util.h"

int boot_read_raw(struct sysroot *sr, const char *path, size_t cap, struct sbuf *out)
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

/* A file name from configuration (os_prefix, cmdline=) that stays in the boot directory. */
static bool name_is_safe(const char *s)
{
	const unsigned char *p;

	if (s[0] == '/' || strstr(s, ".."))
		return false;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x21 || *p == 0x7f || *p == '\\')
			return false;
	return true;
}

int boot_read_dt_string(struct sysroot *sr, const char *path, char *out, size_t cap)
{
	struct sbuf raw;
	size_t i, n = 0;
	int ret = boot_read_raw(sr, path, 256, &raw);

	if (ret)
		return ret;
	for (i = 0; i < raw.len && n + 1 < cap; i++)
		if (raw.buf[i])
			out[n++] = raw.buf[i];
	out[n] = '\0';
	sbuf_release(&raw);
	return 0;
}

int boot_locate(struct sysroot *sr, struct boot_loc *loc, struct fix_msgs *m)
{
	char prefix[128] = "", name[128] = "cmdline.txt", v[128];
	struct config cfg = { 0 };
	struct sbuf raw;
	int ret;

	*loc = (struct boot_loc){ 0 };
	/* raspi-config's rule: /boot/firmware when it has config.txt (Bookworm and later; the
	 * old /boot may still hold "DO NOT EDIT" placeholders), else /boot */
	str_copy(loc->fw_dir, sizeof(loc->fw_dir),
		 sysroot_exists(sr, PATH_BOOT_FIRMWARE "/config.txt") ? PATH_BOOT_FIRMWARE :
									PATH_BOOT);
	str_fmt(loc->config, sizeof(loc->config), "%s/config.txt", loc->fw_dir);
	ret = boot_read_raw(sr, loc->config, CONFIG_FILE_MAX, &raw);
	if (!ret) {
		loc->has_config = true;
		if (!config_parse(raw.buf ? raw.buf : "", raw.len, &cfg)) {
			if (!config_get(&cfg, "os_prefix", v, sizeof(v)))
				str_copy(prefix, sizeof(prefix), v);
			if (!config_get(&cfg, "cmdline", v, sizeof(v)) && v[0]) {
				str_copy(name, sizeof(name), v);
				fix_note(m, "config.txt names the command line file: cmdline=%s", v);
			}
		}
		config_release(&cfg);
		sbuf_release(&raw);
	}
	/* what the firmware actually used wins over what config.txt says */
	/* os_prefix as the firmware published it (NUL bytes removed, as raspi-config does) */
	if (!boot_read_dt_string(sr, PATH_DT_OS_PREFIX, v, sizeof(v)))
		str_copy(prefix, sizeof(prefix), v);
	if (prefix[0])
		fix_note(m, "os_prefix is '%s': the firmware reads %s%s", prefix, prefix, name);
	if (!name_is_safe(name) || (prefix[0] && !name_is_safe(prefix)))
		return fix_refuse(m, -EINVAL, "the command line file '%s%s' (os_prefix, cmdline=) "
					      "does not stay inside %s", prefix, name, loc->fw_dir);
	if (str_fmt(loc->cmdline, sizeof(loc->cmdline), "%s/%s%s", loc->fw_dir, prefix, name))
		return fix_refuse(m, -ENAMETOOLONG, "the command line file name is too long");
	return 0;
}

void boot_file_release(struct boot_file *bf)
{
	sbuf_release(&bf->data);
}

int boot_file_read(struct sysroot *sr, const char *path, size_t cap, struct boot_file *bf,
		   struct fix_msgs *m)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	int ret;

	*bf = (struct boot_file){ .data = SBUF_INIT(cap) };
	if (!slash || !slash[1] || str_copy(bf->path, sizeof(bf->path), path) ||
	    str_copy(bf->name, sizeof(bf->name), slash + 1))
		return fix_refuse(m, -EINVAL, "not a file path");
	str_fmt(bf->dir, sizeof(bf->dir), "%.*s", (int)(slash - path), path);
	if (!bf->dir[0])
		str_copy(bf->dir, sizeof(bf->dir), "/");
	ret = sysroot_stat(sr, path, &st, false);
	if (ret)
		return fix_refuse(m, ret, "%s", strerror(-ret));
	if (S_ISLNK(st.st_mode))
		/* the firmware reads the FAT partition, which has no links: an edit through a
		 * link would change some other file, and replacing the link would hide it */
		return fix_refuse(m, -ELOOP, "it is a symbolic link; edit the file the firmware "
					     "reads on the boot partition instead");
	if (!S_ISREG(st.st_mode))
		return fix_refuse(m, -EINVAL, "it is not a regular file");
	bf->mode = st.st_mode & 07777;
	bf->uid = st.st_uid;
	bf->gid = st.st_gid;
	ret = boot_read_raw(sr, path, cap, &bf->data);
	if (ret == -EFBIG)
		return fix_refuse(m, ret, "it is larger than %zu bytes: not a boot file", cap);
	if (ret)
		return fix_refuse(m, ret, "%s", strerror(-ret));
	return 0;
}

static int dir_open(struct sysroot *sr, const char *dir)
{
	return sysroot_open_fd(sr, dir, O_RDONLY | O_DIRECTORY);
}

/* The highest "-N" already used with stamp by any backup in the directory (1 for the plain
 * stamp, 0 when none), so that a second fix within the same second sorts after the first. */
static int stamp_used(struct sysroot *sr, const char *dir, const char *stamp)
{
	size_t slen = strlen(stamp);
	struct dirent *de;
	int used = 0;
	DIR *d;

	if (sysroot_opendir(sr, dir, &d))
		return 0;
	while ((de = readdir(d))) {
		const char *t = strstr(de->d_name, BOOT_BACKUP_TAG);

		if (!t || strncmp(t + strlen(BOOT_BACKUP_TAG), stamp, slen))
			continue;
		t += strlen(BOOT_BACKUP_TAG) + slen;
		if (!*t && used < 1)
			used = 1;
		else if (t[0] == '-' && t[1] >= '2' && t[1] <= '9' && !t[2] && t[1] - '0' > used)
			used = t[1] - '0';
	}
	closedir(d);
	return used;
}

int boot_file_backup(struct sysroot *sr, const struct boot_file *bf, char *backup, size_t cap)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int dfd, ret = -EEXIST, i;

	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	dfd = dir_open(sr, bf->dir);
	if (dfd < 0)
		return dfd;
	for (i = stamp_used(sr, bf->dir, stamp) + 1; i <= 9 && ret == -EEXIST; i++) {
		if (i == 1)
			ret = str_fmt(backup, cap, "%s" BOOT_BACKUP_TAG "%s", bf->name, stamp);
		else
			ret = str_fmt(backup, cap, "%s" BOOT_BACKUP_TAG "%s-%d", bf->name, stamp, i);
		if (!ret)
			ret = atomic_create_at(dfd, backup, bf->data.buf ? bf->data.buf : "",
					       bf->data.len, bf->mode);
	}
	close(dfd);
	if (ret)
		backup[0] = '\0';
	return ret;
}

int boot_file_replace(struct sysroot *sr, const struct boot_file *bf, const void *data,
		      size_t len)
{
	int dfd = dir_open(sr, bf->dir), ret;

	if (dfd < 0)
		return dfd;
	ret = atomic_replace_at(dfd, bf->name, data, len, bf->mode, bf->uid, bf->gid);
	close(dfd);
	return ret;
}

/* True when s is YYYYmmdd-HHMMSS with an optional -N: one of our backups. */
static bool is_stamp(const char *s)
{
	size_t i;

	for (i = 0; i < 15; i++)
		if (i == 8 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return false;
	return !s[15] || (s[15] == '-' && s[16] >= '2' && s[16] <= '9' && !s[17]);
}

int boot_backup_newest(struct sysroot *sr, const char *dir, const char *name, char *out,
		       size_t cap)
{
	size_t nlen = strlen(name), tlen = strlen(BOOT_BACKUP_TAG);
	struct dirent *de;
	DIR *d;
	int ret;

	out[0] = '\0';
	ret = sysroot_opendir(sr, dir, &d);
	if (ret)
		return ret;
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (strncmp(n, name, nlen) || strncmp(n + nlen, BOOT_BACKUP_TAG, tlen) ||
		    !is_stamp(n + nlen + tlen))
			continue;
		if (!out[0] || strcmp(n, out) > 0)
			str_copy(out, cap, n);
	}
	closedir(d);
	return 0;
}

int boot_file_remove(struct sysroot *sr, const char *dir, const char *name)
{
	int dfd = dir_open(sr, dir), ret = 0;

	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, name, 0))
		ret = -errno;
	else if (fsync(dfd) && errno != EINVAL && errno != EROFS)
		ret = -errno;
	close(dfd);
	return ret;
}
