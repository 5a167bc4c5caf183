// SPDX-License-Identifier: GPL-2.0-or-later
/* order.c - the bootloader's words: boot modes, BOOT_ORDER, the EEPROM configuration text,
 * and the root= of extlinux.conf and grub.cfg. Parsers over buffers (fuzz/fuzz-eeprom.c). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "boot/boot.h"
#include "common/kcmdline.h"
#include "common/rootspec.h"
#include "common/util.h"

/* eeprom-bootloader.adoc, the BOOT_ORDER table (0x0-0x7, 0xe, 0xf). */
static const struct {
	const char *name, *words;
} modes[8] = {
	[BOOT_MODE_SD_DETECT] = { "sd-detect", "SD card (waiting for one to be inserted)" },
	[BOOT_MODE_SD] = { "sd", "SD card" },
	[BOOT_MODE_NETWORK] = { "network", "network" },
	[BOOT_MODE_RPIBOOT] = { "rpiboot", "rpiboot over USB" },
	[BOOT_MODE_USB_MSD] = { "usb-msd", "USB mass storage" },
	[BOOT_MODE_BCM_USB_MSD] = { "bcm-usb-msd", "USB 2.0 mass storage on the USB-C port" },
	[BOOT_MODE_NVME] = { "nvme", "NVMe" },
	[BOOT_MODE_HTTP] = { "http", "HTTP" },
};

const char *boot_mode_name(unsigned mode)
{
	return mode < ARRAY_SIZE(modes) ? modes[mode].name : NULL;
}

const char *boot_mode_words(unsigned mode)
{
	return mode < ARRAY_SIZE(modes) ? modes[mode].words : NULL;
}

enum boot_soc boot_soc_from_model(const char *model, bool *cm)
{
	static const struct {
		const char *prefix;
		enum boot_soc soc;
		bool cm;
	} boards[] = {
		{ "Raspberry Pi 400", BOOT_SOC_2711, false },
		{ "Raspberry Pi 4", BOOT_SOC_2711, false },
		{ "Raspberry Pi Compute Module 4", BOOT_SOC_2711, true },
		{ "Raspberry Pi 500", BOOT_SOC_2712, false },
		{ "Raspberry Pi 5", BOOT_SOC_2712, false },
		{ "Raspberry Pi Compute Module 5", BOOT_SOC_2712, true },
		{ "Raspberry Pi", BOOT_SOC_OLDER_PI, false },
	};
	size_t i;

	*cm = false;
	for (i = 0; i < ARRAY_SIZE(boards); i++) {
		if (str_starts(model, boards[i].prefix)) {
			*cm = boards[i].cm;
			return boards[i].soc;
		}
	}
	return BOOT_SOC_NONE;
}

void boot_order_decode(uint32_t value, struct boot_order *bo)
{
	unsigned digits = 0, i;

	for (i = 0; i < 8; i++)
		if ((value >> (4 * i)) & 0xf)
			digits = i + 1;
	memset(bo, 0, sizeof(*bo));
	bo->value = value;
	for (i = 0; i < digits; i++) {
		unsigned m = (value >> (4 * i)) & 0xf;

		if (m == BOOT_MODE_RESTART) {
			bo->then = BOOT_THEN_RESTART;
			break;
		}
		if (m == BOOT_MODE_STOP) {
			bo->then = BOOT_THEN_STOP;
			break;
		}
		if (!boot_mode_name(m)) {
			bo->has_unknown = true;
			continue;
		}
		bo->modes[bo->n++] = (unsigned char)m;
	}
}

int boot_order_parse(const char *text, struct boot_order *bo)
{
	char buf[32];
	uint32_t v = 0;
	size_t i, n;
	unsigned zeros = 0;
	const char *s, *rest;

	/* the number ends at a blank; a comment may follow it ("0xf14 # usb"): the bootloader
	 * reads a number's digits and stops there (inference: its parser is not published) */
	text += strspn(text, " \t\r");
	n = strcspn(text, " \t\r#");
	rest = text + n + strspn(text + n, " \t\r");
	if ((*rest && *rest != '#') || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	s = buf;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (!n || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v << 4 | (uint32_t)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
					 tolower((unsigned char)s[i]) - 'a' + 10);
	}
	boot_order_decode(v, bo);
	/* leading 0 digits that were written are SD-detect modes, tried after the others */
	for (i = 0; i < n && s[i] == '0'; i++)
		zeros++;
	while (zeros-- && bo->then == BOOT_THEN_NONE && bo->n < BOOT_ORDER_MODES_MAX)
		bo->modes[bo->n++] = BOOT_MODE_SD_DETECT;
	return 0;
}

void boot_order_describe(const struct boot_order *bo, char *buf, size_t cap)
{
	size_t i, off = 0;
	int w;

	if (!cap)
		return;
	buf[0] = '\0';
	for (i = 0; i < bo->n && off < cap; i++) {
		w = snprintf(buf + off, cap - off, "%s%s", i ? ", then " : "",
			     boot_mode_words(bo->modes[i]));
		if (w < 0)
			return;
		off += (size_t)w;
	}
	if (off >= cap)
		return;
	if (!bo->n)
		snprintf(buf + off, cap - off, "no boot mode");
	else if (bo->then == BOOT_THEN_RESTART)
		snprintf(buf + off, cap - off, ", then start again");
	else if (bo->then == BOOT_THEN_STOP)
		snprintf(buf + off, cap - off, ", then stop");
}

bool boot_order_unchanged(const struct boot_facts *f, uint32_t value)
{
	return f->has_eeprom && !f->eeprom.bad_order && f->eeprom.order.value == value;
}

const char *boot_cap_name(unsigned bit)
{
	static const char *const names[] = { "usb-vl805", "network", "tryboot-a-b", "tryboot",
					     "usb-bcm2711", "ramdisk", "nvme", "secure-boot" };

	return bit < ARRAY_SIZE(names) ? names[bit] : NULL;
}

static int name_to_mode(const char *s, size_t len)
{
	static const struct {
		const char *name;
		int mode;
	} names[] = {
		{ "sd", BOOT_MODE_SD },	      { "emmc", BOOT_MODE_SD },
		{ "usb", BOOT_MODE_USB_MSD }, { "usb-msd", BOOT_MODE_USB_MSD },
		{ "nvme", BOOT_MODE_NVME },   { "network", BOOT_MODE_NETWORK },
		{ "net", BOOT_MODE_NETWORK }, { "http", BOOT_MODE_HTTP },
		{ "rpiboot", BOOT_MODE_RPIBOOT }, { "bcm-usb", BOOT_MODE_BCM_USB_MSD },
		{ "bcm-usb-msd", BOOT_MODE_BCM_USB_MSD },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == len && !strncasecmp(s, names[i].name, len))
			return names[i].mode;
	return -1;
}

int boot_order_from_names(const char *list, enum boot_soc soc, bool cm, bool has_caps,
			  uint32_t caps, struct boot_order *bo, char *why, size_t cap)
{
	const char *p = list, *e;
	uint32_t v = 0;
	unsigned n = 0, seen = 0;

	why[0] = '\0';
	if (soc != BOOT_SOC_2711 && soc != BOOT_SOC_2712) {
		str_fmt(why, cap, "this board has no EEPROM bootloader (a Raspberry Pi 4, 400, 5, "
			"500 or Compute Module 4/5 has)");
		return -EINVAL;
	}
	for (;;) {
		int m;

		e = p + strcspn(p, ",");
		if (e == p) {
			str_fmt(why, cap, "an empty name in the list: e.g. nvme,usb,sd");
			return -EINVAL;
		}
		m = name_to_mode(p, (size_t)(e - p));
		if (m < 0) {
			str_fmt(why, cap, "unknown boot medium '%.*s': use sd, usb, nvme, network, "
				"http, rpiboot or bcm-usb", (int)(e - p) > 32 ? 32 : (int)(e - p), p);
			return -EINVAL;
		}
		if (seen & (1u << m)) {
			str_fmt(why, cap, "'%s' is named twice", boot_mode_name((unsigned)m));
			return -EINVAL;
		}
		if (m == BOOT_MODE_NVME && soc == BOOT_SOC_2711 &&
		    (!cm || (has_caps && !(caps & BOOT_CAP_NVME)))) {
			str_fmt(why, cap, "%s", !cm ? "a Raspberry Pi 4 or 400 cannot boot from NVMe "
				"(only the CM4, CM5 and Pi 5 can)" : "this bootloader's capabilities "
				"lack NVMe boot: update the bootloader first");
			return -EINVAL;
		}
		if (m == BOOT_MODE_BCM_USB_MSD && soc == BOOT_SOC_2712) {
			str_fmt(why, cap, "boot mode 5 (bcm-usb) does not exist on a Raspberry Pi 5");
			return -EINVAL;
		}
		if (++n > 7) {
			str_fmt(why, cap, "at most 7 boot media (the eighth digit is the restart)");
			return -EINVAL;
		}
		seen |= 1u << m;
		v |= (uint32_t)m << (4 * (n - 1));
		if (!*e)
			break;
		p = e + 1;
	}
	if (!n) {
		str_fmt(why, cap, "no boot medium given: e.g. nvme,usb,sd");
		return -EINVAL;
	}
	v |= (uint32_t)BOOT_MODE_RESTART << (4 * n);
	boot_order_decode(v, bo);
	return 0;
}

static bool section_applies(const char *name, size_t len)
{
	return len == 3 && !strncasecmp(name, "all", 3);
}

void boot_eeprom_parse(const char *text, size_t len, struct boot_eeprom *e)
{
	size_t pos = 0;
	bool applies = true;
	const char *order;

	memset(e, 0, sizeof(*e));
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos), *eq;
		size_t ll = nl ? (size_t)(nl - l) : len - pos, kl, vl;

		pos += ll + (nl ? 1 : 0);
		while (ll && isspace((unsigned char)*l)) {
			l++;
			ll--;
		}
		while (ll && isspace((unsigned char)l[ll - 1]))
			ll--;
		if (!ll || l[0] == '#')
			continue;
		if (l[0] == '[') {
			applies = l[ll - 1] == ']' && section_applies(l + 1, ll - 2);
			continue;
		}
		eq = memchr(l, '=', ll);
		if (!applies || !eq || eq == l)
			continue;
		kl = (size_t)(eq - l);
		while (kl && isspace((unsigned char)l[kl - 1]))
			kl--;
		vl = ll - (size_t)(eq + 1 - l);
		eq++;
		while (vl && isspace((unsigned char)*eq)) {
			eq++;
			vl--;
		}
		if (!kl || kl >= sizeof(e->keys[0].key) || vl >= sizeof(e->keys[0].value) ||
		    memchr(l, '\0', kl) || memchr(eq, '\0', vl))
			continue;
		{
			struct boot_eeprom_key *k = NULL;
			size_t i;

			/* a key given again replaces the earlier value, as the bootloader reads it */
			for (i = 0; i < e->n_keys; i++)
				if (strlen(e->keys[i].key) == kl && !memcmp(e->keys[i].key, l, kl))
					k = &e->keys[i];
			if (!k) {
				if (e->n_keys == BOOT_EEPROM_KEYS_MAX)
					continue;
				k = &e->keys[e->n_keys++];
			}
			memcpy(k->key, l, kl);
			k->key[kl] = '\0';
			memcpy(k->value, eq, vl);
			k->value[vl] = '\0';
			str_sanitize(k->key);
			str_sanitize(k->value);
		}
	}
	order = boot_eeprom_get(e, "BOOT_ORDER");
	if (order && !boot_order_parse(order, &e->order))
		return;
	e->bad_order = order != NULL;
	boot_order_decode(BOOT_ORDER_DEFAULT, &e->order);
	e->order.is_default = true;
}

const char *boot_eeprom_get(const struct boot_eeprom *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->n_keys; i++)
		if (!strcmp(e->keys[i].key, key))
			return e->keys[i].value;
	return NULL;
}

const char *boot_eeprom_key_help(const char *key)
{
	/* eeprom-bootloader.adoc and pcie.adoc */
	static const struct {
		const char *key, *help;
	} keys[] = {
		{ "BOOT_ORDER", "the boot media, tried from the rightmost digit leftwards" },
		{ "PCIE_PROBE", "when 1, look for an NVMe drive on PCIe even without a HAT+ "
				"(needed to boot a Pi 5 from a non-HAT+ NVMe adapter)" },
		{ "USB_MSD_DISCOVER_TIMEOUT", "how long (ms, default 20000) to wait for a USB "
					      "drive to appear before the next boot mode" },
		{ "USB_MSD_LUN_TIMEOUT", "how long (ms) to wait for each LUN of a USB drive "
					 "before the next one" },
		{ "USB_MSD_STARTUP_DELAY", "wait this long (ms, at most 30000) before the first "
					   "USB command: for hard disks that spin up slowly" },
		{ "USB_MSD_PWR_OFF_TIME", "Pi 4: how long (ms) the USB ports are powered off "
					  "before USB boot" },
		{ "USB_MSD_EXCLUDE_VID_PID", "USB drives (VID:PID pairs) the bootloader must not "
					     "boot from; not passed to Linux" },
		{ "SD_QUIRKS", "when 0x1, no SD high-speed modes (card clock 12.5 MHz)" },
		{ "SD_BOOT_MAX_RETRIES", "how often the SD card is retried before the next mode" },
		{ "NET_BOOT_MAX_RETRIES", "how often network boot is retried before the next "
					  "mode" },
		{ "PSU_MAX_CURRENT", "Pi 5: the supply's rating (mA) without asking it over USB-PD; "
				     "5000 allows 1.6 A on the USB ports (drives!), 3000 only "
				     "600 mA" },
		{ "XHCI_DEBUG", "USB boot debug messages on the UART (a bit field)" },
		{ "FREEZE_VERSION", "when 1, rpi-eeprom-update leaves the bootloader as it is" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].key, key))
			return keys[i].help;
	return NULL;
}

/* The root= value of a kernel command line in s[0..len) into root (capped). */
static int cmdline_root(const char *s, size_t len, char *root, size_t cap)
{
	size_t off, vlen;

	root[0] = '\0';
	if (rootspec_cmdline_root(s, len, &off, &vlen))
		return 0;
	if (vlen >= cap)
		vlen = cap - 1;
	memcpy(root, s + off, vlen);
	root[vlen] = '\0';
	str_sanitize(root);
	return 0;
}

/* The next line [*l, *l + *ll) without its blanks at both ends; false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, const char **l, size_t *ll)
{
	const char *s, *nl;
	size_t n;

	if (*pos >= len)
		return false;
	s = text + *pos;
	nl = memchr(s, '\n', len - *pos);
	n = nl ? (size_t)(nl - s) : len - *pos;
	*pos += n + (nl ? 1 : 0);
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*l = s;
	*ll = n;
	return true;
}

/* When line l starts with the keyword kw (any case) and a blank, the rest after blanks. */
static bool keyword(const char *l, size_t ll, const char *kw, const char **rest, size_t *rl)
{
	size_t n = strlen(kw);

	if (ll < n || strncasecmp(l, kw, n) || (ll > n && !isspace((unsigned char)l[n])))
		return false;
	l += n;
	ll -= n;
	while (ll && isspace((unsigned char)*l)) {
		l++;
		ll--;
	}
	*rest = l;
	*rl = ll;
	return true;
}

/* syslinux's config (as U-Boot's pxe_utils reads extlinux.conf): DEFAULT names a LABEL;
 * APPEND lines belong to the label above them. */
int boot_extlinux_next_append(const char *text, size_t len, struct boot_extlinux_iter *it,
			      size_t *off, size_t *alen)
{
	const char *l, *r;
	size_t ll, rl;

	while (next_line(text, len, &it->pos, &l, &ll)) {
		if (keyword(l, ll, "LABEL", &r, &rl)) {
			if (rl >= sizeof(it->label))
				rl = sizeof(it->label) - 1;
			memcpy(it->label, r, rl);
			it->label[rl] = '\0';
		} else if (keyword(l, ll, "APPEND", &r, &rl)) {
			*off = (size_t)(r - text);
			*alen = rl;
			return 0;
		}
	}
	return -ENOENT;
}

int boot_extlinux_root(const char *text, size_t len, char *root, size_t cap)
{
	struct boot_extlinux_iter it = { 0 };
	const char *l, *r;
	char def[64] = "";
	size_t pos = 0, ll, rl, off, alen, first = 0, first_len = 0, chosen = 0, chosen_len = 0;
	bool has_first = false, has_chosen = false;

	root[0] = '\0';
	while (next_line(text, len, &pos, &l, &ll)) {
		if (keyword(l, ll, "DEFAULT", &r, &rl) && rl < sizeof(def)) {
			memcpy(def, r, rl);
			def[rl] = '\0';
		}
	}
	while (!boot_extlinux_next_append(text, len, &it, &off, &alen)) {
		if (!has_first) {
			has_first = true;
			first = off;
			first_len = alen;
		}
		if (def[0] && !has_chosen && !strcmp(it.label, def)) {
			has_chosen = true;
			chosen = off;
			chosen_len = alen;
		}
	}
	if (!has_chosen) {
		if (!has_first)
			return -ENOENT;
		chosen = first;
		chosen_len = first_len;
	}
	return cmdline_root(text + chosen, chosen_len, root, cap);
}

int boot_grub_root(const char *text, size_t len, char *root, size_t cap)
{
	const char *l, *r;
	size_t pos = 0, ll, rl;

	root[0] = '\0';
	while (next_line(text, len, &pos, &l, &ll)) {
		if (keyword(l, ll, "linux", &r, &rl) || keyword(l, ll, "linux16", &r, &rl) ||
		    keyword(l, ll, "linuxefi", &r, &rl))
			return cmdline_root(r, rl, root, cap);
	}
	return -ENOENT;
}

const char *boot_loader_name(enum boot_loader l)
{
	switch (l) {
	case BOOT_LOADER_RPI_EEPROM:
		return "rpi-eeprom";
	case BOOT_LOADER_RPI_FIRMWARE:
		return "rpi-firmware";
	case BOOT_LOADER_EXTLINUX:
		return "extlinux";
	case BOOT_LOADER_GRUB:
		return "grub";
	default:
		return NULL;
	}
}

void boot_date(uint64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, cap, "%Y-%m-%d", &tm))
		str_copy(buf, cap, "?");
}

int boot_eeprom_set_order(const char *text, size_t len, uint32_t value, struct sbuf *out,
			  size_t *line, bool *replaced)
{
	size_t pos = 0, no = 0, at = SIZE_MAX, ins = SIZE_MAX;
	bool applies = true;
	char nl[32];
	int ret = 0;

	sbuf_reset(out);
	*replaced = false;
	str_fmt(nl, sizeof(nl), "BOOT_ORDER=0x%x\n", (unsigned)value);
	/* the last BOOT_ORDER that applies is the one the bootloader uses: replace that one;
	 * without one, add it at the end of the last region that applies to every board (the
	 * lines before the first section, or an [all] section) */
	while (pos < len) {
		const char *l = text + pos, *e = memchr(l, '\n', len - pos), *s = l;
		size_t ll = e ? (size_t)(e - l) : len - pos, sl;

		pos += ll + (e ? 1 : 0);
		while (s < l + ll && isspace((unsigned char)*s))
			s++;
		sl = (size_t)(l + ll - s);
		while (sl && isspace((unsigned char)s[sl - 1]))
			sl--;
		/* sections as boot_eeprom_parse() reads them */
		if (sl && *s == '[') {
			if (applies)
				ins = no;
			applies = s[sl - 1] == ']' && sl >= 2 && section_applies(s + 1, sl - 2);
		} else if (applies && sl > 10 && !strncmp(s, "BOOT_ORDER", 10) &&
			   (s[10] == '=' || isspace((unsigned char)s[10]))) {
			at = no;
		}
		no++;
	}
	if (applies)
		ins = no;
	pos = 0;
	no = 0;
	while (pos < len && !ret) {
		const char *l = text + pos, *e = memchr(l, '\n', len - pos);
		size_t ll = e ? (size_t)(e - l) : len - pos;

		pos += ll + (e ? 1 : 0);
		if (at == SIZE_MAX && no == ins)
			ret = sbuf_adds(out, nl);
		if (!ret && no == at) {
			ret = sbuf_adds(out, nl);
			*replaced = true;
		} else if (!ret) {
			ret = sbuf_add(out, l, ll);
			if (!ret)
				ret = sbuf_addch(out, '\n');
		}
		no++;
	}
	if (!ret && at == SIZE_MAX && ins >= no) {
		if (!len)
			ret = sbuf_adds(out, "[all]\n");
		if (!ret)
			ret = sbuf_adds(out, nl);
	}
	*line = at != SIZE_MAX ? at : ins;
	return ret;
}
