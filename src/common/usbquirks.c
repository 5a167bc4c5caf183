/* usbquirks.c - the one reader of the usb-storage quirks format: flag letters, the value
 * check doctor makes, and the list edit fix makes. Entries match as the kernel matches them. */
#include <ctype.h>

#include "common/usbquirks.h"
#include "common/kcmdline.h"
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

int usbq_flags_decode(uint64_t flags, char *buf, size_t cap)
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

/* what the flags people meet in a log do, in words */
static const struct {
	uint64_t bit;
	const char *words;
} usfl_words[] = {
	{ 0x800000, "use usb-storage instead of uas" },
	{ 0x1000000, "the bridge does not honour forced-unit-access writes" },
	{ 0x2000000, "no ATA pass-through (SMART) commands" },
	{ 0x4000000, "no REPORT OPCODES command" },
	{ 0x200000, "the write cache is reported as on" },
	{ 0x80000, "no READ CAPACITY(16)" },
	{ 0x20, "the residue field is ignored" },
	{ 0x10, "the reported capacity is one sector too many" },
};

int usbq_flags_explain(uint64_t flags, char *buf, size_t cap)
{
	char names[256], words[512] = "";
	size_t i, len = 0;
	int ret = usbq_flags_decode(flags, names, sizeof(names));

	for (i = 0; i < ARRAY_SIZE(usfl_words); i++) {
		if (!(flags & usfl_words[i].bit))
			continue;
		ret |= str_fmt(words + len, sizeof(words) - len, "%s%s", len ? "; " : "",
			       usfl_words[i].words);
		len = strlen(words);
	}
	ret |= str_fmt(buf, cap, "quirk flags 0x%llx: %s%s%s%s", (unsigned long long)flags,
		       names, len ? " (" : "", words, len ? ")" : "");
	return ret ? -E2BIG : 0;
}

char usbq_flag_letter(uint64_t flag)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usfl); i++)
		if (usfl[i].bit == flag)
			return usfl[i].letter;
	return 0;
}

/* One VID or PID field of a value check: 1 to 4 hex digits after an optional 0x. */
static bool hex_field(const char **p, const char *end)
{
	const char *s = *p;
	int n = 0;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (s < end && isxdigit((unsigned char)*s) && n < 5) {
		s++;
		n++;
	}
	if (!n || n > 4)
		return false;
	*p = s;
	return true;
}

enum usbq_problem usbq_value_check(const char *value, size_t len)
{
	const char *p = value, *end = value + len;

	if (len > USBQ_VALUE_MAX)
		return USBQ_TOO_LONG;
	if (!len)
		return USBQ_MALFORMED;
	for (;;) {
		if (!hex_field(&p, end) || p >= end || *p++ != ':' || !hex_field(&p, end) ||
		    p >= end || *p++ != ':')
			return USBQ_MALFORMED;
		if (p >= end || !isalpha((unsigned char)*p))
			return USBQ_MALFORMED;
		while (p < end && isalpha((unsigned char)*p))
			p++;
		if (p == end)
			return USBQ_OK;
		if (*p++ != ',')
			return USBQ_MALFORMED;
	}
}

enum usbq_problem usbq_cmdline_check(const char *cmdline, char *value, size_t cap)
{
	size_t len = strlen(cmdline), i = 0, n, vlen;
	enum usbq_problem last = USBQ_OK;
	const char *v;
	bool quoted;
	int seen = 0;

	if (value && cap)
		value[0] = '\0';
	while (i < len) {
		/* the kernel reads one line (the firmware passes on only cmdline.txt's first) and
		 * hands what follows a "--" to init: fix edits the same part (fix/cmdline.c) */
		if (cmdline[i] == '\n')
			break;
		if (kcmdline_is_space(cmdline[i])) {
			i++;
			continue;
		}
		n = kcmdline_arg_len(cmdline + i, len - i);
		if (!n)
			break;
		if (n == 2 && !memcmp(cmdline + i, "--", 2))
			break;
		if (kcmdline_param_is(cmdline + i, n, USBQ_PARAM_NAME)) {
			seen++;
			kcmdline_param_value(cmdline + i, n, &v, &vlen, &quoted);
			if (value && cap)
				str_fmt(value, cap, "%.*s", (int)(vlen < cap ? vlen : cap - 1), v);
			last = usbq_value_check(v, vlen);
		}
		i += n;
	}
	if (last != USBQ_OK)
		return last;
	return seen > 1 ? USBQ_REPEATED : USBQ_OK;
}

/* simple_strtoul(p, &end, 16) for at most 8 digits; -1 when no digit was read. */
static int64_t hex_at(const char *p, const char *end, const char **stop)
{
	uint64_t v = 0;
	int digits = 0;

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && end - p > 2 &&
	    isxdigit((unsigned char)p[2]))
		p += 2;
	while (p < end && isxdigit((unsigned char)*p)) {
		if (digits++ < 8)
			v = v * 16 + (uint64_t)(isdigit((unsigned char)*p) ?
				*p - '0' : tolower((unsigned char)*p) - 'a' + 10);
		else
			v = 0x100000000ull; /* too long: matches no 16-bit id */
		p++;
	}
	*stop = p;
	return digits ? (int64_t)(v > 0xffffffffull ? 0x100000000ull : v) : -1;
}

/* If the entry [p, end) is for id, return where its flags start; else NULL. */
static const char *entry_flags(const char *p, const char *end, struct usb_id id)
{
	const char *q;
	int64_t v;

	v = hex_at(p, end, &q);
	if (v != id.vid || q >= end || *q != ':')
		return NULL;
	v = hex_at(q + 1, end, &q);
	if (v != id.pid || q >= end || *q != ':')
		return NULL;
	return q + 1;
}

static bool flags_have(const char *f, const char *end, char flag)
{
	for (; f < end; f++)
		if (tolower((unsigned char)*f) == tolower((unsigned char)flag))
			return true;
	return false;
}

int usbq_id_parse(const char *s, struct usb_id *id)
{
	const char *end = s + strlen(s), *q;
	int64_t vid, pid;

	if (end - s > 13)
		return -EINVAL;
	vid = hex_at(s, end, &q);
	if (vid < 0 || vid > 0xffff || q - s > 6 || q >= end || *q != ':')
		return -EINVAL;
	s = q + 1;
	pid = hex_at(s, end, &q);
	if (pid < 0 || pid > 0xffff || q != end || q - s > 6)
		return -EINVAL;
	id->vid = (uint16_t)vid;
	id->pid = (uint16_t)pid;
	return 0;
}

bool usbq_list_has(const char *val, size_t len, struct usb_id id, char flag)
{
	const char *p = val, *end = val + len, *e, *f;

	while (p < end) {
		e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		f = entry_flags(p, e, id);
		if (f)
			return flags_have(f, e, flag); /* the first match is the one used */
		p = e + 1;
	}
	return false;
}

int usbq_list_add(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out,
		  struct usbq_merge *res)
{
	const char *p = val, *end = val + len, *e, *f;
	bool matched = false, first = true;
	int ret = 0;

	sbuf_reset(out);
	res->change = USBQ_SAME;
	res->dups_removed = 0;
	while (!ret && p <= end) {
		e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		f = entry_flags(p, e, id);
		if (f && matched) {
			res->dups_removed++; /* first match wins: this one was dead */
		} else {
			if (!first)
				ret = sbuf_addch(out, ',');
			first = false;
			if (!ret)
				ret = sbuf_add(out, p, (size_t)(e - p));
			if (f && !ret && !flags_have(f, e, flag)) {
				ret = sbuf_addch(out, flag);
				res->change = USBQ_FLAG_ADDED;
			}
			matched = matched || f;
		}
		if (e == end)
			break;
		p = e + 1;
	}
	if (!ret && !matched) {
		if (out->len && sbuf_str(out)[out->len - 1] != ',')
			ret = sbuf_addch(out, ',');
		if (!ret)
			ret = sbuf_addf(out, "%04x:%04x:%c", id.vid, id.pid, flag);
		res->change = USBQ_ENTRY_ADDED;
	}
	return ret;
}

int usbq_list_drop(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out)
{
	const char *p = val, *end = val + len, *e, *f, *c;
	bool first = true;
	size_t mark;
	int ret = 0;

	sbuf_reset(out);
	while (!ret && p < end) {
		e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		f = entry_flags(p, e, id);
		mark = out->len;
		if (!first)
			ret = sbuf_addch(out, ',');
		if (!f) {
			if (!ret)
				ret = sbuf_add(out, p, (size_t)(e - p));
			first = false;
		} else {
			bool kept = false;

			if (!ret)
				ret = sbuf_add(out, p, (size_t)(f - p));
			for (c = f; !ret && c < e; c++)
				if (tolower((unsigned char)*c) != tolower((unsigned char)flag)) {
					ret = sbuf_addch(out, *c);
					kept = true;
				}
			if (!kept) {
				out->len = mark; /* no flags left: the entry goes */
				if (out->buf)
					out->buf[mark] = '\0';
			} else {
				first = false;
			}
		}
		p = e + 1;
	}
	return ret;
}
