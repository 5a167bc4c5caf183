/* mmc.c - SD cards and eMMC: the card's CID facts, the SD Status register's speed classes and
 * the bus timing from debugfs (docs/research/sysfs-facts.md section 3). */
#include <ctype.h>
#include <limits.h>

#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

struct maker {
	enum probe_mmc_type type;
	unsigned id;
	const char *name;
};

/*
 * CID manufacturer ids. SD ids: mmc-utils lsmmc.c "database[]" and the Linux kernel's
 * drivers/mmc/core/card.h (CID_MANFID_KINGSTON_SD 0x9f). Where lsmmc.c names two makers for
 * one id, the one whose own cards carry it is named: 0x1b is Samsung (EVO/PRO cards, OEM id
 * "SM"), 0x1d is ADATA. eMMC ids: drivers/mmc/core/card.h CID_MANFID_* (SANDISK 0x2, TOSHIBA
 * 0x11, MICRON 0x13, SAMSUNG 0x15, KINGSTON 0x70, HYNIX 0x90, NUMONYX 0xfe) and mmc-utils
 * (0x44 SanDisk; 0x45 "SanDisk/WesternDigital", the id of SanDisk's iNAND eMMC parts). Ids
 * that the sources give to unrelated makers (0x02, 0x27) are left out.
 */
/* clang-format off */
static const struct maker makers[] = {
	{ PROBE_MMC_SD, 0x01, "Panasonic" },
	{ PROBE_MMC_SD, 0x03, "SanDisk" },
	{ PROBE_MMC_SD, 0x08, "Silicon Power" },
	{ PROBE_MMC_SD, 0x1b, "Samsung" },
	{ PROBE_MMC_SD, 0x1c, "Transcend" },
	{ PROBE_MMC_SD, 0x1d, "ADATA" },
	{ PROBE_MMC_SD, 0x1e, "Transcend" },
	{ PROBE_MMC_SD, 0x1f, "Kingston" },
	{ PROBE_MMC_SD, 0x28, "Lexar" },
	{ PROBE_MMC_SD, 0x30, "SanDisk" },
	{ PROBE_MMC_SD, 0x31, "Silicon Power" },
	{ PROBE_MMC_SD, 0x41, "Kingston" },
	{ PROBE_MMC_SD, 0x74, "Transcend" },
	{ PROBE_MMC_SD, 0x76, "Patriot" },
	{ PROBE_MMC_SD, 0x9f, "Kingston" },
	{ PROBE_MMC_MMC, 0x02, "SanDisk" },
	{ PROBE_MMC_MMC, 0x11, "Toshiba" },
	{ PROBE_MMC_MMC, 0x13, "Micron" },
	{ PROBE_MMC_MMC, 0x15, "Samsung" },
	{ PROBE_MMC_MMC, 0x44, "SanDisk" },
	{ PROBE_MMC_MMC, 0x45, "SanDisk" },
	{ PROBE_MMC_MMC, 0x70, "Kingston" },
	{ PROBE_MMC_MMC, 0x90, "SK hynix" },
	{ PROBE_MMC_MMC, 0xfe, "Micron" },
};
/* clang-format on */

const char *probe_mmc_maker_name(enum probe_mmc_type type, unsigned manfid)
{
	size_t i;

	if (type == PROBE_MMC_SDCOMBO)
		type = PROBE_MMC_SD;
	for (i = 0; i < ARRAY_SIZE(makers); i++)
		if (makers[i].type == type && makers[i].id == manfid)
			return makers[i].name;
	return NULL;
}

/* Bits [hi:lo] of a 512-bit register written as 128 hex digits, bit 511 first. */
static unsigned ssr_bits(const char *hex, unsigned hi, unsigned lo)
{
	unsigned v = 0, b;

	for (b = hi + 1; b-- > lo;) {
		unsigned pos = 511 - b, digit;
		char c = hex[pos / 4];

		digit = isdigit((unsigned char)c)
			    ? (unsigned)(c - '0')
			    : (unsigned)(tolower((unsigned char)c) - 'a' + 10);
		v = (v << 1) | ((digit >> (3 - pos % 4)) & 1);
	}
	return v;
}

int probe_mmc_ssr_decode(const char *ssr, struct probe_mmc *m)
{
	static const unsigned speed_classes[] = {0, 2, 4, 6, 10};
	char hex[129];
	size_t n = 0;
	bool nonzero = false;
	unsigned v;
	const char *p;

	/* the kernel prints 16 x "%08x"; accept them with or without separators */
	for (p = ssr; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (!isxdigit((unsigned char)*p) || n == 128)
			return -EINVAL;
		nonzero |= *p != '0';
		hex[n++] = *p;
	}
	hex[n] = '\0';
	if (n != 128)
		return -EINVAL;
	if (!nonzero)
		return -ENODATA; /* the host could not read it ("problem reading SD Status") */

	v = ssr_bits(hex, 447, 440);
	if (v < ARRAY_SIZE(speed_classes)) {
		m->has_speed_class = true;
		m->speed_class = speed_classes[v];
	}
	v = ssr_bits(hex, 399, 396);
	if (v == 0 || v == 1 || v == 3) {
		m->has_uhs_grade = true;
		m->uhs_grade = v;
	}
	v = ssr_bits(hex, 391, 384);
	if (v == 0 || v == 6 || v == 10 || v == 30 || v == 60 || v == 90) {
		m->has_video_class = true;
		m->video_class = v;
	}
	v = ssr_bits(hex, 339, 336);
	if (v <= 2) {
		m->has_app_class = true;
		m->app_class = v;
	}
	return 0;
}

int probe_mmc_ios_parse(const char *text, struct probe_mmc *m)
{
	const char *line = text;
	int found = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[256], *val;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			val = strchr(buf, ':');
			if (val) {
				*val++ = '\0';
				str_trim(buf);
				str_trim(val);
				if (!strcmp(buf, "timing spec")) {
					char *open = strchr(val, '('), *close = strrchr(val, ')');

					if (open && close && close > open + 1) {
						*close = '\0';
						str_copy(m->timing, sizeof(m->timing), open + 1);
						str_sanitize(m->timing);
						found++;
					}
				} else if (!strcmp(buf, "clock")) {
					unsigned long long hz;
					char unit[8];

					if (sscanf(val, "%llu %7s", &hz, unit) == 2 &&
					    !strcmp(unit, "Hz")) {
						m->has_clock = true;
						m->clock_hz = hz;
						found++;
					}
				} else if (!strcmp(buf, "bus width")) {
					unsigned code, bits;

					if (sscanf(val, "%u (%u bits)", &code, &bits) == 2 &&
					    (bits == 1 || bits == 4 || bits == 8)) {
						m->has_bus_width = true;
						m->bus_width = bits;
						found++;
					}
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return found ? 0 : -EINVAL;
}

static enum probe_mmc_type type_from_text(const char *s)
{
	if (!strcmp(s, "SD"))
		return PROBE_MMC_SD;
	if (!strcmp(s, "MMC"))
		return PROBE_MMC_MMC;
	if (!strcmp(s, "SDIO"))
		return PROBE_MMC_SDIO;
	if (!strcmp(s, "SDcombo"))
		return PROBE_MMC_SDCOMBO;
	return PROBE_MMC_UNKNOWN;
}

/* "mmc0:59b4": host name, ':', the card's relative address in hex. */
static bool is_card_name(const char *s)
{
	if (strncmp(s, "mmc", 3) || !isdigit((unsigned char)s[3]))
		return false;
	for (s += 3; isdigit((unsigned char)*s); s++)
		;
	if (*s++ != ':' || !*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

/* "0x" and 1 to digits hex digits, as the kernel prints oemid (4) and serial (8). */
static bool is_hex_field(const char *s, size_t digits)
{
	size_t n;

	if (strncmp(s, "0x", 2))
		return false;
	n = strspn(s + 2, "0123456789abcdefABCDEF");
	return n >= 1 && n <= digits && !s[2 + n];
}

/* "%02d/%04d": the CID's month and year; SD years start at 2000, eMMC's at 1997. */
static bool is_cid_date(const char *s)
{
	unsigned mon, year;
	char end;

	if (strlen(s) != 7 || sscanf(s, "%2u/%4u%c", &mon, &year, &end) != 2)
		return false;
	return mon >= 1 && mon <= 12 && year >= 1997 && year <= 2100;
}

/* A value that is not what the kernel prints there is unknown, not shown as found. */
static void keep_if(char *s, bool ok)
{
	if (!ok)
		s[0] = '\0';
}

void probe_mmc_fill(struct sysroot *sr, struct blkdev *d)
{
	char card[PATH_MAX], host[PATH_MAX], path[PATH_MAX], buf[SYSROOT_ATTR_MAX];
	struct probe_mmc *m;
	uint64_t v;
	bool found = false;

	if (!strstr(d->syspath, "/mmc_host/") || str_copy(card, sizeof(card), d->syspath))
		return;
	while (probe_path_up(card)) {
		if (is_card_name(probe_path_base(card))) {
			found = true;
			break;
		}
	}
	if (!found)
		return;
	m = calloc(1, sizeof(*m));
	if (!m)
		return;
	str_copy(m->card, sizeof(m->card), probe_path_base(card));
	str_copy(host, sizeof(host), card);
	if (probe_path_up(host))
		str_copy(m->host, sizeof(m->host), probe_path_base(host));
	probe_attr_str(sr, card, "type", m->type, sizeof(m->type));
	m->type_id = type_from_text(m->type);
	keep_if(m->type, m->type_id != PROBE_MMC_UNKNOWN);
	probe_attr_str(sr, card, "name", m->name, sizeof(m->name));
	probe_attr_str(sr, card, "oemid", m->oemid, sizeof(m->oemid));
	probe_attr_str(sr, card, "date", m->date, sizeof(m->date));
	probe_attr_str(sr, card, "serial", m->serial, sizeof(m->serial));
	keep_if(m->oemid, is_hex_field(m->oemid, 4));
	keep_if(m->date, is_cid_date(m->date));
	keep_if(m->serial, is_hex_field(m->serial, 8));
	if (probe_attr_str(sr, card, "manfid", m->manfid, sizeof(m->manfid)) > 0 &&
	    parse_u64_base(m->manfid, 16, &v) == 0 && v <= 0xffffff) {
		const char *maker = probe_mmc_maker_name(m->type_id, (unsigned)v);

		m->has_manfid = true;
		m->manfid_num = (unsigned)v;
		if (maker)
			str_copy(m->manufacturer, sizeof(m->manufacturer), maker);
	}
	if (probe_attr_str(sr, card, "ssr", buf, sizeof(buf)) > 0)
		probe_mmc_ssr_decode(buf, m);
	if (m->host[0] && str_fmt(path, sizeof(path), "%s/%s/ios", PATH_SYS_DEBUG, m->host) == 0 &&
	    sysroot_read(sr, path, buf, sizeof(buf)) > 0)
		probe_mmc_ios_parse(buf, m);
	/* the boot areas' "device" is mmcblk0, not the card: give them the card's identity */
	if (!d->model[0])
		str_copy(d->model, sizeof(d->model), m->name);
	/* device/serial of an SD/eMMC disk is the CID serial: keep only the checked value */
	str_copy(d->serial, sizeof(d->serial), m->serial);
	d->mmc = m;
}
