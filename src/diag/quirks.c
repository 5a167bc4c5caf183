/* quirks.c - decode usb-storage quirk flags and look up the UAS quirk table.
 * Flag values are include/linux/usb_usual.h's; letters are kernel-parameters.txt's. */
#include <ctype.h>

#include "diag/quirks.h"
#include "common/util.h"

static const struct {
	uint64_t bit;
	const char *name;
	char letter; /* the usb-storage.quirks letter, 0 when there is none */
} usfl[] = {
	{ 0x1, "SINGLE_LUN", 's' },
	{ 0x2, "NEED_OVERRIDE", 0 },
	{ 0x4, "SCM_MULT_TARG", 0 },
	{ 0x8, "FIX_INQUIRY", 0 },
	{ 0x10, "FIX_CAPACITY", 'c' },
	{ 0x20, "IGNORE_RESIDUE", 'r' },
	{ 0x40, "BULK32", 0 },
	{ 0x80, "NOT_LOCKABLE", 'l' },
	{ 0x100, "GO_SLOW", 0 },
	{ 0x200, "NO_WP_DETECT", 'w' },
	{ 0x400, "MAX_SECTORS_64", 'm' },
	{ 0x800, "IGNORE_DEVICE", 'i' },
	{ 0x1000, "CAPACITY_HEURISTICS", 'h' },
	{ 0x2000, "MAX_SECTORS_MIN", 0 },
	{ 0x4000, "BULK_IGNORE_TAG", 0 },
	{ 0x8000, "SANE_SENSE", 'a' },
	{ 0x10000, "CAPACITY_OK", 'o' },
	{ 0x20000, "BAD_SENSE", 'b' },
	{ 0x40000, "NO_READ_DISC_INFO", 'd' },
	{ 0x80000, "NO_READ_CAPACITY_16", 'e' },
	{ 0x100000, "INITIAL_READ10", 'n' },
	{ 0x200000, "WRITE_CACHE", 'p' },
	{ 0x400000, "NEEDS_CAP16", 0 },
	{ 0x800000, "IGNORE_UAS", 'u' },
	{ 0x1000000, "BROKEN_FUA", 0 },
	{ 0x2000000, "NO_ATA_1X", 't' },
	{ 0x4000000, "NO_REPORT_OPCODES", 'f' },
	{ 0x8000000, "MAX_SECTORS_240", 'g' },
	{ 0x10000000, "NO_REPORT_LUNS", 'j' },
	{ 0x20000000, "ALWAYS_SYNC", 'y' },
	{ 0x40000000, "NO_SAME", 'k' },
	{ 0x80000000ULL, "SENSE_AFTER_SYNC", 0 },
};

int usfl_decode(uint64_t flags, char *buf, size_t cap)
{
	size_t i, len = 0;
	int ret = 0;

	if (!cap)
		return -E2BIG;
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(usfl); i++) {
		if (!(flags & usfl[i].bit))
			continue;
		flags &= ~usfl[i].bit;
		ret |= str_fmt(buf + len, cap - len, "%s%s", len ? "|" : "", usfl[i].name);
		len = strlen(buf);
	}
	if (flags)
		ret |= str_fmt(buf + len, cap - len, "%s0x%llx", len ? "|" : "",
			       (unsigned long long)flags);
	return ret ? -E2BIG : 0;
}

char usfl_letter(uint64_t flag)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usfl); i++)
		if (usfl[i].bit == flag)
			return usfl[i].letter;
	return 0;
}

const struct uas_quirk_entry *uas_quirk_find(unsigned vid, unsigned pid)
{
	const struct uas_quirk_entry *best = NULL;
	size_t i;

	for (i = 0; i < uas_quirk_table_len; i++) {
		const struct uas_quirk_entry *e = &uas_quirk_table[i];

		if (e->vid != vid || (!e->any_pid && e->pid != pid))
			continue;
		/* exact before vendor-wide, kernel's before history and proposals */
		if (!best || e->status < best->status ||
		    (e->status == best->status && best->any_pid && !e->any_pid))
			best = e;
	}
	return best;
}

const char *uas_quirk_status_name(enum uas_quirk_status s)
{
	switch (s) {
	case UASQ_MAINLINE:
		return "the kernel's UAS quirk table";
	case UASQ_RULE:
		return "a rule in the kernel's uas-detect.h";
	case UASQ_HISTORICAL:
		return "older kernels' UAS quirk table";
	case UASQ_FORK:
		return "a kernel fork's UAS quirk table";
	case UASQ_PROPOSED:
		return "a proposed kernel patch";
	}
	return "?";
}

static bool hex_field(const char **p)
{
	const char *s = *p;
	int n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (isxdigit((unsigned char)*s) && n < 5) {
		s++;
		n++;
	}
	if (!n || n > 4)
		return false;
	*p = s;
	return true;
}

enum quirks_param_problem diag_quirks_value_check(const char *value)
{
	const char *p = value;

	if (strlen(value) > 127)
		return QP_TOO_LONG;
	if (!*p)
		return QP_MALFORMED;
	for (;;) {
		if (!hex_field(&p) || *p++ != ':' || !hex_field(&p) || *p++ != ':')
			return QP_MALFORMED;
		if (!isalpha((unsigned char)*p))
			return QP_MALFORMED;
		while (isalpha((unsigned char)*p))
			p++;
		if (!*p)
			return QP_OK;
		if (*p++ != ',')
			return QP_MALFORMED;
	}
}

enum quirks_param_problem diag_quirks_cmdline_check(const char *cmdline, char *value, size_t cap)
{
	const char *p = cmdline;
	int seen = 0;
	enum quirks_param_problem last = QP_OK;

	if (value && cap)
		value[0] = '\0';
	while (*p) {
		const char *w, *e;
		char v[512];
		size_t n;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (strncmp(w, "usb-storage.quirks=", 19) && strncmp(w, "usb_storage.quirks=", 19))
			continue;
		seen++;
		e = w + 19;
		n = (size_t)(p - e);
		if (n >= sizeof(v))
			n = sizeof(v) - 1;
		memcpy(v, e, n);
		v[n] = '\0';
		if (value)
			str_copy(value, cap, v);
		last = diag_quirks_value_check(v);
	}
	if (last != QP_OK)
		return last;
	return seen > 1 ? QP_REPEATED : QP_OK;
}
