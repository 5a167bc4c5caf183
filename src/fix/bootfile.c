/* bootfile.c - locate, read, back up and replace the boot files, every access through the
 * sysroot so that --sysroot DIR edits DIR/boot/firmware/cmdline.txt and nothing else. */
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "fix/bootfile.h"
#include "common/atomicfile.h"
#include "common/paths.h"
#include "common/util.h"

int boot_locate(struct sysroot *sr, struct boot_loc *loc, struct fix_msgs *m)
{
	int ret = boot_loc_find(sr, loc);

	if (loc->cmdline_set[0])
		fix_note(m, "config.txt names the command line file: cmdline=%s", loc->cmdline_set);
	if (loc->prefix[0])
		fix_note(m, "os_prefix is '%s': the firmware reads %s%s", loc->prefix, loc->prefix,
			 loc->cmdline_set[0] ? loc->cmdline_set : "cmdline.txt");
	if (ret == -ENAMETOOLONG)
		return fix_refuse(m, ret, "the command line file name is too long");
	if (ret)
		return fix_refuse(m, ret, "%s", loc->why);
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
	ret = sysroot_read_file(sr, path, cap, &bf->data);
	if (ret == -EFBIG)
		return fix_refuse(m, ret, "it is larger than %zu bytes: not a boot file", cap);
	if (ret)
		return fix_refuse(m, ret, "%s", strerror(-ret));
	return 0;
}

int boot_dir_open(struct sysroot *sr, const char *dir)
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

int boot_file_commit(int dfd, struct sysroot *sr, const struct boot_file *bf,
		     const void *data, size_t len, const void *old, size_t old_len, char *backup,
		     size_t cap)
{
	struct afile_opts o = { .mode = bf->mode, .uid = bf->uid, .gid = bf->gid,
				.locked = true };
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int ret = -EEXIST, i;

	backup[0] = '\0';
	if (!old) /* a plain replacement (mode 0 would mean "the file's own") */
		return afile_replace_at(dfd, bf->name, data, len, &o);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	o.backup = backup;
	o.backup_data = old;
	o.backup_len = old_len;
	for (i = stamp_used(sr, bf->dir, stamp) + 1; i <= 9 && ret == -EEXIST; i++) {
		if (i == 1)
			ret = str_fmt(backup, cap, "%s" BOOT_BACKUP_TAG "%s", bf->name, stamp);
		else
			ret = str_fmt(backup, cap, "%s" BOOT_BACKUP_TAG "%s-%d", bf->name, stamp, i);
		if (!ret)
			ret = afile_replace_at(dfd, bf->name, data, len, &o);
	}
	if (ret)
		backup[0] = '\0';
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
	int dfd = boot_dir_open(sr, dir), ret = 0;

	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, name, 0))
		ret = -errno;
	else if (fsync(dfd) && errno != EINVAL && errno != EROFS)
		ret = -errno;
	close(dfd);
	return ret;
}
