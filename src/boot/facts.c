// SPDX-License-Identifier: GPL-2.0-or-later
/* facts.c - read the board's boot facts: /chosen/bootloader, the EEPROM configuration (the
 * blconfig nvmem, else vcgencmd), the root file system, extlinux.conf and grub.cfg. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "common/paths.h"
#include "common/rootspec.h"
#include "common/spawn.h"
#include "common/sbuf.h"
#include "common/util.h"

#define LOADER_CONF_MAX (256 * 1024)

static bool dt_u32(struct sysroot *sr, const char *name, unsigned *out)
{
	char path[128];
	uint32_t v;

	if (str_fmt(path, sizeof(path), PATH_DT_BOOTLOADER "/%s", name) ||
	    sysroot_read_dt_u32(sr, path, &v))
		return false;
	*out = v;
	return true;
}

static void read_chosen(struct sysroot *sr, struct boot_facts *f)
{
	unsigned v;

	f->has_mode = dt_u32(sr, "boot-mode", &f->mode);
	f->has_partition = dt_u32(sr, "partition", &f->partition);
	if (dt_u32(sr, "tryboot", &v)) {
		f->has_tryboot = true;
		f->tryboot = v != 0;
	}
	f->has_usb_version = dt_u32(sr, "usb/usb-version", &f->usb_version);
	if (dt_u32(sr, "capabilities", &v)) {
		f->has_caps = true;
		f->caps = v;
	}
	if (dt_u32(sr, "build-timestamp", &v) || dt_u32(sr, "build_timestamp", &v)) {
		f->has_build_time = true;
		f->build_time = v;
	}
	if (dt_u32(sr, "update-timestamp", &v) || dt_u32(sr, "update_timestamp", &v)) {
		f->has_update_time = true;
		f->update_time = v;
	}
	if (!sysroot_read_dt_string(sr, PATH_DT_BOOTLOADER "/version", f->version,
				    sizeof(f->version)))
		str_sanitize(f->version);
	else
		f->version[0] = '\0';
	f->has_hat = sysroot_exists(sr, PATH_DT_HAT);
}

/* The nvmem device whose of_node is the node aliases/blconfig names (rpi-eeprom-config's
 * read_current_config()); its contents are the configuration text, NUL-padded. */
static int read_nvmem_config(struct sysroot *sr, struct sbuf *text)
{
	char alias[256], want[PATH_MAX], node[PATH_MAX], path[PATH_MAX];
	struct dirent *de;
	DIR *d = NULL;
	int ret;

	ret = sysroot_read_dt_string(sr, PATH_DT_BLCONFIG, alias, sizeof(alias));
	if (ret)
		return ret;
	if (alias[0] != '/' || strstr(alias, "..") ||
	    str_fmt(path, sizeof(path), PATH_DT_BASE "%s", alias) ||
	    sysroot_realpath(sr, path, want, sizeof(want)))
		return -ENOENT;
	ret = sysroot_opendir(sr, PATH_SYS_BUS_NVMEM, &d);
	if (ret)
		return ret;
	ret = -ENOENT;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    str_fmt(path, sizeof(path), PATH_SYS_BUS_NVMEM "/%s/of_node", de->d_name) ||
		    sysroot_realpath(sr, path, node, sizeof(node)) || strcmp(node, want))
			continue;
		if (str_fmt(path, sizeof(path), PATH_SYS_BUS_NVMEM "/%s/nvmem", de->d_name))
			continue;
		ret = sysroot_read_file(sr, path, BOOT_EEPROM_TEXT_MAX, text);
		break;
	}
	closedir(d);
	return ret;
}

static int read_eeprom(struct sysroot *sr, struct boot_facts *f)
{
	struct sbuf text;
	const char *const argv[] = { "vcgencmd", "bootloader_config", NULL };
	char *out = NULL;
	size_t len = 0, n;
	int status, ret;

	ret = read_nvmem_config(sr, &text);
	if (!ret) {
		n = strnlen(sbuf_str(&text), text.len);
		out = malloc(n + 1);
		if (!out) {
			sbuf_release(&text);
			return -ENOMEM;
		}
		memcpy(out, sbuf_str(&text), n);
		out[n] = '\0';
		len = n;
		sbuf_release(&text);
		str_copy(f->eeprom_source, sizeof(f->eeprom_source), "nvmem");
	} else if (sysroot_is_live(sr)) {
		/* the firmware's own answer: only the running board has one */
		ret = spawn_capture(argv, BOOT_EEPROM_TEXT_MAX, &out, &len, &status);
		if (ret == -ENOMEM)
			return ret;
		if (ret || status != 0) {
			free(out);
			return 0;
		}
		len = strnlen(out, len);
		str_copy(f->eeprom_source, sizeof(f->eeprom_source), "vcgencmd");
	} else {
		return 0;
	}
	/* the text shown is sanitised; a change is made to the bytes as read, so that
	 * rpi-eeprom-config gets every other byte unchanged */
	f->eeprom_text = malloc(len + 1);
	if (!f->eeprom_text) {
		free(out);
		return -ENOMEM;
	}
	memcpy(f->eeprom_text, out, len + 1);
	str_sanitize_text(f->eeprom_text, len);
	f->eeprom_raw = out;
	f->has_eeprom = true;
	boot_eeprom_parse(out, len, &f->eeprom);
	return 0;
}

/* A boot loader configuration file: the root= it passes. */
static int read_loader_conf(struct sysroot *sr, struct boot_facts *f, const char *path,
			    enum boot_loader kind)
{
	struct sbuf buf;
	int ret;

	ret = sysroot_read_file(sr, path, LOADER_CONF_MAX, &buf);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return -ENOENT;
	f->loader = kind;
	str_copy(f->loader_config, sizeof(f->loader_config), path);
	if (kind == BOOT_LOADER_EXTLINUX)
		boot_extlinux_root(sbuf_str(&buf), buf.len, f->loader_root,
				   sizeof(f->loader_root));
	else
		boot_grub_root(sbuf_str(&buf), buf.len, f->loader_root, sizeof(f->loader_root));
	sbuf_release(&buf);
	return 0;
}

static void read_root(struct sysroot *sr, const struct inventory *inv, struct boot_facts *f)
{
	char cmdline[SYSROOT_ATTR_MAX];
	size_t off, len;
	int n;

	n = sysroot_read(sr, PATH_PROC_CMDLINE, cmdline, sizeof(cmdline));
	if (n > 0 && !rootspec_cmdline_root(cmdline, (size_t)n, &off, &len)) {
		if (len >= sizeof(f->cmdline_root))
			len = sizeof(f->cmdline_root) - 1;
		memcpy(f->cmdline_root, cmdline + off, len);
		f->cmdline_root[len] = '\0';
		str_sanitize(f->cmdline_root);
	}
	if (inv->root) {
		struct blkdev *disk = probe_blkdev_disk(inv->root);

		str_copy(f->root_device, sizeof(f->root_device), inv->root->kname);
		if (disk)
			str_copy(f->root_disk, sizeof(f->root_disk), disk->kname);
	}
}

int boot_started_read(struct sysroot *sr, int64_t *t)
{
	/* btime comes after the intr line, thousands of numbers long on a real system */
	struct sbuf b;
	const char *l, *nl;
	char *end;
	long long v;
	int ret;

	ret = sysroot_read_file(sr, PATH_PROC_STAT, 4 << 20, &b);
	if (ret)
		return ret;
	ret = -ENODATA;
	for (l = sbuf_str(&b); l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		if (strncmp(l, "btime ", 6))
			continue;
		errno = 0;
		v = strtoll(l + 6, &end, 10);
		ret = errno || end == l + 6 || (*end && *end != '\n') || v <= 0 ? -EINVAL : 0;
		if (!ret)
			*t = v;
		break;
	}
	sbuf_release(&b);
	return ret;
}

int boot_facts_read(struct sysroot *sr, const struct inventory *inv, struct boot_facts *f)
{
	int ret;

	memset(f, 0, sizeof(*f));
	str_copy(f->model, sizeof(f->model), inv->board.model);
	f->soc = boot_soc_from_model(f->model, &f->compute_module);
	read_chosen(sr, f);
	read_root(sr, inv, f);
	if (f->soc == BOOT_SOC_2711 || f->soc == BOOT_SOC_2712) {
		f->loader = BOOT_LOADER_RPI_EEPROM;
		ret = read_eeprom(sr, f);
		if (ret)
			return ret;
		return 0;
	}
	if (f->soc == BOOT_SOC_OLDER_PI) {
		f->loader = BOOT_LOADER_RPI_FIRMWARE;
		return 0;
	}
	ret = read_loader_conf(sr, f, PATH_EXTLINUX_CONF, BOOT_LOADER_EXTLINUX);
	if (ret == -ENOENT)
		ret = read_loader_conf(sr, f, PATH_GRUB_CFG, BOOT_LOADER_GRUB);
	return ret == -ENOENT ? 0 : ret;
}

void boot_facts_release(struct boot_facts *f)
{
	free(f->eeprom_text);
	free(f->eeprom_raw);
	f->eeprom_text = f->eeprom_raw = NULL;
}

int boot_eeprom_apply(const char *text, size_t len, char **output, int *status)
{
	char dir[] = PATH_TMP_EEPROM, file[64];
	const char *const argv[] = { "rpi-eeprom-config", "--apply", file, NULL };
	size_t n;
	int fd, ret;

	*output = NULL;
	if (!mkdtemp(dir))
		return -errno;
	if (str_fmt(file, sizeof(file), "%s/boot.conf", dir)) {
		ret = -ENAMETOOLONG;
		goto out_dir;
	}
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_dir;
	}
	ret = 0;
	for (n = 0; n < len && !ret;) {
		ssize_t w = write(fd, text + n, len - n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			ret = w < 0 ? -errno : -EIO;
		else
			n += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = spawn_capture(argv, 64 * 1024, output, &n, status);
	unlink(file);
out_dir:
	rmdir(dir);
	return ret;
}
