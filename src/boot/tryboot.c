// SPDX-License-Identifier: GPL-2.0-or-later
/* tryboot.c - the firmware's one-shot trial boot for a move: whether this bootloader has it,
 * and the two files on the running boot partition that make one boot start the copy's root. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "boot/boot.h"
#include "common/rootspec.h"
#include "common/util.h"

bool boot_tryboot_offered(const struct boot_facts *f, char *why, size_t cap)
{
	const char *no = NULL;

	if (f->soc != BOOT_SOC_2711 && f->soc != BOOT_SOC_2712)
		no = "not a Raspberry Pi 4 or 5: only their EEPROM bootloader is known here to keep "
		     "the tryboot flag";
	else if (!f->has_caps)
		no = "the bootloader publishes no capabilities (/chosen/bootloader/capabilities): "
		     "too old to tell whether it has tryboot";
	else if (!(f->caps & BOOT_CAP_TRYBOOT))
		no = "the bootloader's capabilities lack tryboot (bit 3)";
	if (no)
		str_copy(why, cap, no);
	return !no;
}

/* Append text[0..n) to out with a bare "rootwait" word made "rootwait=wait_s" (wait_s > 0). */
static int add_rootwait(struct sbuf *out, const char *text, size_t n, unsigned wait_s)
{
	size_t i = 0, w;
	int ret = 0;

	while (i < n && !ret) {
		for (w = i; w < n && text[w] != ' '; w++)
			;
		if (wait_s && w - i == 8 && !memcmp(text + i, "rootwait", 8))
			ret = sbuf_addf(out, "rootwait=%u", wait_s);
		else
			ret = sbuf_add(out, text + i, w - i);
		if (!ret && w < n)
			ret = sbuf_addch(out, ' ');
		i = w + 1;
	}
	return ret;
}

/* Whether a line added at the end of config applies to every board: the last section header
 * is [all] (or there is none), and no include after it could change the section in force. */
static bool ends_in_all(const char *config, size_t clen)
{
	bool all = true;
	size_t i = 0;

	while (i < clen) {
		const char *l = config + i, *nl = memchr(l, '\n', clen - i);
		size_t n = nl ? (size_t)(nl - l) : clen - i;

		while (n && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		while (n && (l[n - 1] == '\r' || l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		if (n && *l == '[')
			all = n == 5 && !memcmp(l, "[all]", 5);
		else if (n >= 8 && !memcmp(l, "include", 7) && (l[7] == ' ' || l[7] == '\t'))
			all = false;
		i = nl ? (size_t)(nl - config) + 1 : clen;
	}
	return all;
}

int boot_tryboot_files(const char *cmdline, size_t len, const char *config, size_t clen,
		       const char *root, unsigned wait_s, struct sbuf *tryboot, struct sbuf *trial)
{
	size_t off, vlen, end = strnlen(cmdline, len);
	int ret;

	while (end && (cmdline[end - 1] == '\n' || cmdline[end - 1] == '\r' ||
		       cmdline[end - 1] == ' '))
		end--;
	if (memchr(cmdline, '\n', end) || !root[0] || strpbrk(root, " \t\n\"") ||
	    rootspec_cmdline_root(cmdline, end, &off, &vlen))
		return -EINVAL;
	/* root= given in quotes: the quotes go with the old value */
	if (off && cmdline[off - 1] == '"' && off + vlen < end && cmdline[off + vlen] == '"') {
		off--;
		vlen += 2;
	}
	sbuf_reset(tryboot);
	sbuf_reset(trial);
	ret = add_rootwait(trial, cmdline, off, wait_s);
	if (!ret)
		ret = sbuf_adds(trial, root);
	if (!ret)
		ret = add_rootwait(trial, cmdline + off + vlen, end - off - vlen, wait_s);
	/* a root that does not come up stops the kernel: it restarts, and the flag is gone */
	if (!ret && !strstr(sbuf_str(trial), "panic="))
		ret = sbuf_adds(trial, " panic=10");
	if (!ret)
		ret = sbuf_addch(trial, '\n');
	/* config.txt copied, not included: the EEPROM bootloader, which reads the file itself
	 * on a Pi 5, has no include */
	if (!ret)
		ret = sbuf_adds(tryboot,
				"# sbcdisk move: one trial boot with the root file system on the copy.\n"
				"# The firmware reads this file instead of config.txt only on the boot\n"
				"# after reboot '0 tryboot'; any later boot reads config.txt again.\n"
				"# Below: config.txt as it was, then the trial's command line.\n");
	if (!ret)
		ret = sbuf_add(tryboot, config, clen);
	if (!ret && clen && config[clen - 1] != '\n')
		ret = sbuf_addch(tryboot, '\n');
	/* a second [all] right after config.txt's own would be one too many */
	if (!ret && !ends_in_all(config, clen))
		ret = sbuf_adds(tryboot, "[all]\n");
	if (!ret)
		ret = sbuf_addf(tryboot, "cmdline=%s\n", BOOT_TRYBOOT_CMDLINE);
	return ret;
}

unsigned boot_tryboot_rootwait(const char *osrelease)
{
	unsigned major, minor;

	if (sscanf(osrelease, "%u.%u", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 6) ? 30 : 0;
}
