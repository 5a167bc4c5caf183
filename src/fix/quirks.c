/* quirks.c - merge an entry into a usb-storage quirks list without disturbing the others.
 * An entry matches the way the kernel matches: hex VID (0x allowed), ':', hex PID, ':'. */
#include <ctype.h>

#include "fix/quirks.h"
#include "common/util.h"

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

int quirks_id_parse(const char *s, struct usb_id *id)
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

int quirks_list_has(const char *val, size_t len, struct usb_id id, char flag)
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

int quirks_list_add(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out,
		    struct quirks_merge *res)
{
	const char *p = val, *end = val + len, *e, *f;
	bool matched = false, first = true;
	int ret = 0;

	sbuf_reset(out);
	res->change = QUIRKS_SAME;
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
				res->change = QUIRKS_FLAG_ADDED;
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
		res->change = QUIRKS_ENTRY_ADDED;
	}
	return ret;
}
