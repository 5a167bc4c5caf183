/* bootloc.c - the one answer to "where are cmdline.txt and config.txt": probe shows it, fix
 * edits there. Every read goes through the sysroot. */
#include <stdlib.h>
#include <string.h>

#include "common/bootloc.h"
#include "common/bootcfg.h"
#include "common/paths.h"
#include "common/util.h"

/* config.txt read for board b through src: the names into loc, the message into why. */
static int config_names(const struct config_source *src, const struct config_board *b,
			struct boot_loc *loc, char *why, size_t wcap)
{
	struct config_eval *ev = calloc(1, sizeof(*ev));
	int ret;

	if (!ev)
		return -ENOMEM;
	ret = config_eval(src, b, ev);
	loc->has_config = ev->has_config;
	str_copy(loc->prefix, sizeof(loc->prefix), ev->os_prefix.value);
	str_copy(loc->cmdline_set, sizeof(loc->cmdline_set), ev->cmdline.value);
	if (ret)
		config_eval_explain(ev, ret, why, wcap);
	free(ev);
	return ret == -EXDEV ? -EINVAL : ret;
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

/* The command line file's name in the firmware directory: prefix and name applied. */
static int cmdline_join(const struct boot_loc *loc, const char *dir, char *out, size_t cap)
{
	const char *name = loc->cmdline_set[0] ? loc->cmdline_set : "cmdline.txt";

	if (!name_is_safe(name) || (loc->prefix[0] && !name_is_safe(loc->prefix)))
		return -EINVAL;
	if (str_fmt(out, cap, "%s%s%s%s", dir, dir[0] ? "/" : "", loc->prefix, name))
		return -ENAMETOOLONG;
	return 0;
}

int boot_loc_cmdline_name(const struct config_source *src, const struct config_board *b,
			  char *name, size_t cap, char *why, size_t wcap)
{
	struct boot_loc loc = { 0 };
	int ret;

	why[0] = '\0';
	ret = config_names(src, b, &loc, why, wcap);
	if (!ret)
		ret = cmdline_join(&loc, "", name, cap);
	if (ret == -EINVAL && !why[0])
		str_copy(why, wcap, "config.txt names a command line file outside the boot "
			 "partition (cmdline=, os_prefix)");
	return ret;
}

int boot_loc_find(struct sysroot *sr, struct boot_loc *loc)
{
	struct config_source_dir dir;
	struct config_source src;
	char v[128];
	int ret, err;

	*loc = (struct boot_loc){ 0 };
	/* raspi-config's rule: /boot/firmware when it has config.txt (Bookworm and later; the
	 * old /boot may still hold "DO NOT EDIT" placeholders), else /boot */
	str_copy(loc->fw_dir, sizeof(loc->fw_dir),
		 sysroot_exists(sr, PATH_BOOT_FW_CONFIG) ? PATH_BOOT_FIRMWARE : PATH_BOOT);
	str_fmt(loc->config, sizeof(loc->config), "%s/config.txt", loc->fw_dir);
	config_board_read(sr, &loc->board);
	config_source_dir_init(&src, &dir, sr, loc->fw_dir);
	err = config_names(&src, &loc->board, loc, loc->why, sizeof(loc->why));
	/* what the firmware actually used wins over what config.txt says */
	ret = sysroot_read_dt_string(sr, PATH_DT_OS_PREFIX, v, sizeof(v));
	if (!ret || ret == -ENODATA) /* published empty: the firmware used no prefix */
		str_copy(loc->prefix, sizeof(loc->prefix), v);
	if (err && err != -EINVAL)
		return err;
	ret = cmdline_join(loc, loc->fw_dir, loc->cmdline, sizeof(loc->cmdline));
	if (ret == -EINVAL)
		str_fmt(loc->why, sizeof(loc->why), "the command line file '%s%s' (os_prefix, "
			"cmdline=) does not stay inside %s", loc->prefix,
			loc->cmdline_set[0] ? loc->cmdline_set : "cmdline.txt", loc->fw_dir);
	return ret ? ret : err;
}
