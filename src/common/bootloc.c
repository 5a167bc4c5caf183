/* bootloc.c - the one answer to "where are cmdline.txt and config.txt": probe shows it, fix
 * edits there. Every read goes through the sysroot. */
#include <string.h>

#include "common/bootloc.h"
#include "common/bootcfg.h"
#include "common/paths.h"
#include "common/util.h"

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

/* os_prefix and cmdline= as config.txt's text sets them for every board. */
static void config_names(const char *text, size_t len, struct boot_loc *loc)
{
	struct config cfg = { 0 };
	char v[128];

	if (!config_parse(text, len, &cfg)) {
		if (!config_get(&cfg, "os_prefix", v, sizeof(v)))
			str_copy(loc->prefix, sizeof(loc->prefix), v);
		if (!config_get(&cfg, "cmdline", v, sizeof(v)) && v[0])
			str_copy(loc->cmdline_set, sizeof(loc->cmdline_set), v);
	}
	config_release(&cfg);
}

static void config_read(struct sysroot *sr, struct boot_loc *loc)
{
	struct sbuf raw;

	if (sysroot_read_file(sr, loc->config, CONFIG_FILE_MAX, &raw))
		return;
	loc->has_config = true;
	config_names(raw.buf ? raw.buf : "", raw.len, loc);
	sbuf_release(&raw);
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

int boot_loc_cmdline_name(const char *config, size_t len, char *name, size_t cap)
{
	struct boot_loc loc = { 0 };

	if (config)
		config_names(config, len, &loc);
	return cmdline_join(&loc, "", name, cap);
}

int boot_loc_find(struct sysroot *sr, struct boot_loc *loc)
{
	char v[128];
	int ret;

	*loc = (struct boot_loc){ 0 };
	/* raspi-config's rule: /boot/firmware when it has config.txt (Bookworm and later; the
	 * old /boot may still hold "DO NOT EDIT" placeholders), else /boot */
	str_copy(loc->fw_dir, sizeof(loc->fw_dir),
		 sysroot_exists(sr, PATH_BOOT_FW_CONFIG) ? PATH_BOOT_FIRMWARE : PATH_BOOT);
	str_fmt(loc->config, sizeof(loc->config), "%s/config.txt", loc->fw_dir);
	config_read(sr, loc);
	/* what the firmware actually used wins over what config.txt says */
	ret = sysroot_read_dt_string(sr, PATH_DT_OS_PREFIX, v, sizeof(v));
	if (!ret || ret == -ENODATA) /* published empty: the firmware used no prefix */
		str_copy(loc->prefix, sizeof(loc->prefix), v);
	return cmdline_join(loc, loc->fw_dir, loc->cmdline, sizeof(loc->cmdline));
}
