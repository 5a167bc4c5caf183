// SPDX-License-Identifier: GPL-2.0-or-later
/* rootspec.c - root= and fstab names of a file system, and the partition they name. */
#include "common/rootspec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/banned.h"
#include "common/kcmdline.h"

static bool has_prefix(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);

	return len >= n && memcmp(s, p, n) == 0;
}

static int copy_value(struct rootspec *rs, const char *s, size_t len)
{
	/* LABEL="My Disk" in fstab: the tag's quotes are not part of the value */
	if (len >= 2 && (s[0] == '"' || s[0] == '\'') && s[len - 1] == s[0]) {
		s++;
		len -= 2;
	}
	if (len >= sizeof(rs->value))
		return -ENAMETOOLONG;
	memcpy(rs->value, s, len);
	rs->value[len] = '\0';
	return 0;
}

/* PARTUUID=X/PARTNROFF=N (the kernel's devt_from_partuuid()). */
static int parse_partuuid(struct rootspec *rs, const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	size_t idlen = slash ? (size_t)(slash - s) : len;
	char num[16], *end;
	size_t rest;
	long n;

	if (slash) {
		rest = len - idlen - 1;
		if (!has_prefix(slash + 1, rest, "PARTNROFF=") || rest - 10 == 0 ||
		    rest - 10 >= sizeof(num))
			return -EINVAL;
		memcpy(num, slash + 11, rest - 10);
		num[rest - 10] = '\0';
		errno = 0;
		n = strtol(num, &end, 10);
		if (errno || *end || n < -255 || n > 255)
			return -EINVAL;
		rs->has_partnroff = true;
		rs->partnroff = (int)n;
	}
	return copy_value(rs, s, idlen);
}

static bool all_xdigits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return len > 0;
}

/* MAJ:MIN, or the kernel's hex number (new_decode_dev()). */
static bool parse_devnum(struct rootspec *rs, const char *s, size_t len)
{
	char buf[24], *end;
	unsigned long a, b;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (isdigit((unsigned char)buf[0]) && strchr(buf, ':')) {
		errno = 0;
		a = strtoul(buf, &end, 10);
		if (errno || *end != ':' || !isdigit((unsigned char)end[1]))
			return false;
		b = strtoul(end + 1, &end, 10);
		if (errno || *end || a > 0xfff || b > 0xfffff)
			return false;
	} else if (all_xdigits(buf, len) && len <= 8) {
		unsigned long dev = strtoul(buf, NULL, 16);

		a = (dev & 0xfff00) >> 8;
		b = (dev & 0xff) | ((dev >> 12) & 0xfff00);
	} else {
		return false;
	}
	rs->major = (unsigned)a;
	rs->minor = (unsigned)b;
	return true;
}

int rootspec_parse(const char *s, size_t len, struct rootspec *rs)
{
	static const struct {
		const char *prefix;
		enum rootspec_kind kind;
	} tags[] = {
		{ "PARTUUID=", ROOTSPEC_PARTUUID },
		{ "PARTLABEL=", ROOTSPEC_PARTLABEL },
		{ "UUID=", ROOTSPEC_UUID },
		{ "LABEL=", ROOTSPEC_LABEL },
		{ "/dev/disk/by-partuuid/", ROOTSPEC_PARTUUID },
		{ "/dev/disk/by-partlabel/", ROOTSPEC_PARTLABEL },
		{ "/dev/disk/by-uuid/", ROOTSPEC_UUID },
		{ "/dev/disk/by-label/", ROOTSPEC_LABEL },
	};
	size_t n;

	memset(rs, 0, sizeof(*rs));
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (!has_prefix(s, len, tags[i].prefix))
			continue;
		n = strlen(tags[i].prefix);
		rs->kind = tags[i].kind;
		if (len == n)
			return -EINVAL;
		if (rs->kind == ROOTSPEC_PARTUUID && tags[i].prefix[0] == 'P')
			return parse_partuuid(rs, s + n, len - n);
		return copy_value(rs, s + n, len - n);
	}
	/* /dev/root is no device: it stands for whatever root= names (a Jetson's fstab) */
	if (len == 9 && has_prefix(s, len, "/dev/root")) {
		rs->kind = ROOTSPEC_OTHER;
		return copy_value(rs, s, len);
	}
	if (has_prefix(s, len, "/dev/") && len > 5 && !memchr(s + 5, '/', len - 5)) {
		rs->kind = ROOTSPEC_DEVNAME;
		return copy_value(rs, s + 5, len - 5);
	}
	rs->kind = parse_devnum(rs, s, len) ? ROOTSPEC_DEVNUM : ROOTSPEC_OTHER;
	return copy_value(rs, s, len);
}

const char *rootspec_kind_name(enum rootspec_kind kind)
{
	switch (kind) {
	case ROOTSPEC_PARTUUID:
		return "PARTUUID";
	case ROOTSPEC_UUID:
		return "UUID";
	case ROOTSPEC_LABEL:
		return "LABEL";
	case ROOTSPEC_PARTLABEL:
		return "PARTLABEL";
	case ROOTSPEC_DEVNAME:
		return "device";
	case ROOTSPEC_DEVNUM:
		return "device number";
	case ROOTSPEC_OTHER:
		break;
	}
	return "other";
}

static bool same_id(const char *want, const char *have)
{
	return have && *have && strcasecmp(want, have) == 0;
}

static bool same_text(const char *want, const char *have)
{
	return have && *have && strcmp(want, have) == 0;
}

bool rootspec_matches(const struct rootspec *rs, const struct rootspec_part *p)
{
	switch (rs->kind) {
	case ROOTSPEC_PARTUUID:
		return !rs->has_partnroff && same_id(rs->value, p->partuuid);
	case ROOTSPEC_UUID:
		return same_id(rs->value, p->uuid);
	case ROOTSPEC_LABEL:
		return same_text(rs->value, p->label);
	case ROOTSPEC_PARTLABEL:
		return same_text(rs->value, p->partlabel);
	case ROOTSPEC_DEVNAME:
		return same_text(rs->value, p->name);
	case ROOTSPEC_DEVNUM:
		return (p->major || p->minor) && rs->major == p->major && rs->minor == p->minor;
	case ROOTSPEC_OTHER:
		break;
	}
	return false;
}

int rootspec_cmdline_root(const char *text, size_t len, size_t *voff, size_t *vlen)
{
	size_t i = 0, alen;
	const char *v;
	bool quoted, found = false;

	/* the kernel's part: the first line (docs/config-txt.md), up to "--" (what follows
	 * is init's) */
	len = kcmdline_first_line(text, len);
	while (i < len) {
		if (kcmdline_is_space(text[i])) {
			i++;
			continue;
		}
		alen = kcmdline_arg_len(text + i, len - i);
		if (alen == 2 && !memcmp(text + i, "--", 2))
			break;
		if (kcmdline_param_is(text + i, alen, "root")) {
			kcmdline_param_value(text + i, alen, &v, vlen, &quoted);
			*voff = (size_t)(v - text);
			found = true;
		}
		i += alen ? alen : 1;
	}
	return found ? 0 : -ENOENT;
}

/* The next white-space separated field of a line; false at the end. */
static bool next_field(const char *line, size_t len, size_t *i, size_t *off, size_t *flen)
{
	while (*i < len && (line[*i] == ' ' || line[*i] == '\t'))
		(*i)++;
	if (*i >= len)
		return false;
	*off = *i;
	while (*i < len && line[*i] != ' ' && line[*i] != '\t')
		(*i)++;
	*flen = *i - *off;
	return true;
}

/* Copy a field, undoing fstab's octal escapes (\040 is a space); cut to fit. */
static void copy_unescaped(char *dst, size_t cap, const char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < cap; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			dst[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
					  (s[i + 3] - '0'));
			i += 3;
			continue;
		}
		dst[o++] = s[i];
	}
	dst[o] = '\0';
}

int rootspec_fstab_next(const char *text, size_t len, size_t *pos, struct fstab_entry *e)
{
	while (*pos < len) {
		const char *line = text + *pos;
		const char *nl = memchr(line, '\n', len - *pos);
		size_t llen = nl ? (size_t)(nl - line) : len - *pos;
		size_t i = 0, off, flen;

		memset(e, 0, sizeof(*e));
		e->line_off = *pos;
		e->line_len = llen;
		*pos += llen + (nl ? 1 : 0);
		if (llen && line[llen - 1] == '\r')
			llen--;
		if (!next_field(line, llen, &i, &off, &flen) || line[off] == '#')
			continue;
		e->spec_off = e->line_off + off;
		e->spec_len = flen;
		copy_unescaped(e->spec, sizeof(e->spec), line + off, flen);
		if (!next_field(line, llen, &i, &off, &flen))
			return -EINVAL;
		copy_unescaped(e->dir, sizeof(e->dir), line + off, flen);
		if (next_field(line, llen, &i, &off, &flen))
			copy_unescaped(e->type, sizeof(e->type), line + off, flen);
		if (next_field(line, llen, &i, &off, &flen))
			copy_unescaped(e->opts, sizeof(e->opts), line + off, flen);
		if (next_field(line, llen, &i, &off, &flen) &&
		    next_field(line, llen, &i, &off, &flen) && line[off] >= '0' && line[off] <= '9')
			e->passno = line[off] - '0';
		return 0;
	}
	return -ENOENT;
}
