/* cmdline.c - parse cmdline.txt into segments, edit the usb-storage quirks parameter, write
 * it back. Tokens end at white space outside double quotes, as the kernel's next_arg() reads. */
#include <stdarg.h>

#include "fix/cmdline.h"
#include "common/kcmdline.h"
#include "common/util.h"

static int seg_insert(struct cmdline *cl, size_t at, const char *s, size_t len, bool param)
{
	struct cmdline_seg *n;
	char *copy;

	if (cl->n == cl->alloc) {
		size_t a = cl->alloc ? cl->alloc * 2 : 16;

		n = realloc(cl->seg, a * sizeof(*n));
		if (!n)
			return -ENOMEM;
		cl->seg = n;
		cl->alloc = a;
	}
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	memmove(cl->seg + at + 1, cl->seg + at, (cl->n - at) * sizeof(*cl->seg));
	cl->seg[at] = (struct cmdline_seg){ .s = copy, .len = len, .param = param };
	cl->n++;
	return 0;
}

static void seg_delete(struct cmdline *cl, size_t at)
{
	free(cl->seg[at].s);
	memmove(cl->seg + at, cl->seg + at + 1, (cl->n - at - 1) * sizeof(*cl->seg));
	cl->n--;
}

static int seg_replace(struct cmdline_seg *seg, const char *s, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	free(seg->s);
	seg->s = copy;
	seg->len = len;
	return 0;
}

void cmdline_release(struct cmdline *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		free(cl->seg[i].s);
	free(cl->seg);
	cl->seg = NULL;
	cl->n = cl->alloc = 0;
}

int cmdline_parse(const char *buf, size_t len, struct cmdline *cl)
{
	size_t i = 0, j;
	int ret = 0;

	*cl = (struct cmdline){ 0 };
	while (i < len && !ret) {
		j = i;
		if (kcmdline_is_space(buf[i])) {
			while (j < len && kcmdline_is_space(buf[j]))
				j++;
			ret = seg_insert(cl, cl->n, buf + i, j - i, false);
		} else {
			j += kcmdline_arg_len(buf + i, len - i);
			ret = seg_insert(cl, cl->n, buf + i, j - i, true);
		}
		i = j;
	}
	return ret;
}

int cmdline_write(const struct cmdline *cl, struct sbuf *out)
{
	size_t i;
	int ret = 0;

	sbuf_reset(out);
	for (i = 0; i < cl->n && !ret; i++)
		ret = sbuf_add(out, cl->seg[i].s, cl->seg[i].len);
	return ret;
}

/* Printable start of a parameter for messages: at most 40 bytes, controls as '?'. */
static void param_show(const struct cmdline_seg *seg, char *out, size_t cap)
{
	size_t i, n = seg->len < 40 ? seg->len : 40;

	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		out[i] = (unsigned char)seg->s[i] < 0x20 || seg->s[i] == 0x7f ? '?' : seg->s[i];
	out[n] = '\0';
	if (n < seg->len && n >= 3)
		memcpy(out + n - 3, "...", 3);
}

size_t cmdline_line1_end(const struct cmdline *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (!cl->seg[i].param && memchr(cl->seg[i].s, '\n', cl->seg[i].len))
			return i;
	return cl->n;
}

size_t cmdline_kernel_end(const struct cmdline *cl)
{
	size_t i, end = cmdline_line1_end(cl);

	for (i = 0; i < end; i++)
		if (cl->seg[i].param && cl->seg[i].len == 2 && !memcmp(cl->seg[i].s, "--", 2))
			return i;
	return end;
}

int cmdline_check(const struct cmdline *cl, struct fix_msgs *m)
{
	size_t i, k, end = cmdline_line1_end(cl), params = 0, later = 0;
	char show[48];

	for (i = end; i < cl->n; i++)
		later += cl->seg[i].param;
	if (later) {
		for (i = end; !cl->seg[i].param; i++)
			;
		param_show(&cl->seg[i], show, sizeof(show));
		fix_note(m, "only the first line is the command line: the %zu parameter%s after "
			    "it (from '%s') are not read and stay as they are", later,
			 later == 1 ? "" : "s", show);
	}
	for (i = 0; i < end; i++) {
		const struct cmdline_seg *s = &cl->seg[i];

		if (!s->param)
			continue;
		params++;
		param_show(s, show, sizeof(show));
		if (memchr(s->s, '\0', s->len))
			return fix_refuse(m, -EINVAL,
					  "it holds a NUL byte (in '%s'), so what the firmware passes "
					  "on is unclear; repair the file by hand first", show);
		if (memchr(s->s, '"', s->len)) {
			size_t q = 0;

			for (k = 0; k < s->len; k++)
				q += s->s[k] == '"';
			if (q % 2)
				return fix_refuse(m, -EINVAL,
						  "'%s' opens a double quote it never closes: the "
						  "kernel would read the rest of the line as one "
						  "value; repair the file by hand first", show);
		}
	}
	if (!params)
		return fix_refuse(m, -EINVAL, "%s holds no kernel parameters (a working "
					      "cmdline.txt has at least root=...); refusing to guess",
				  later ? "its first line" : "it");
	return 0;
}

static bool is_quirks_param(const struct cmdline_seg *s)
{
	return s->param && kcmdline_param_is(s->s, s->len, USBQ_PARAM_NAME);
}

/* The value of a parameter without its quotes: [*v, *v + *vlen). */
static void param_value(const struct cmdline_seg *s, const char **v, size_t *vlen, bool *quoted)
{
	kcmdline_param_value(s->s, s->len, v, vlen, quoted);
}

/* The last quirks parameter the kernel reads (first line, before "--"); cl->n for none. */
static size_t last_quirks(const struct cmdline *cl, size_t *count)
{
	size_t i, last = cl->n, end = cmdline_kernel_end(cl);

	*count = 0;
	for (i = 0; i < end; i++)
		if (is_quirks_param(&cl->seg[i])) {
			last = i;
			(*count)++;
		}
	return last;
}

int cmdline_quirks_get(const struct cmdline *cl, struct sbuf *out)
{
	size_t count, at = last_quirks(cl, &count), vlen;
	const char *v;
	bool quoted;

	sbuf_reset(out);
	if (!count)
		return -ENOENT;
	param_value(&cl->seg[at], &v, &vlen, &quoted);
	return sbuf_add(out, v, vlen);
}

/* Remove the parameter at i with one neighbouring run of white space, so "a Q b" becomes
 * "a b", "Q a" becomes "a" and "a Q\n" becomes "a\n". */
static void param_remove(struct cmdline *cl, size_t i)
{
	bool later_param = false;
	size_t k;

	for (k = i + 1; k < cl->n; k++)
		later_param = later_param || cl->seg[k].param;
	if (later_param && i + 1 < cl->n && !cl->seg[i + 1].param) {
		seg_delete(cl, i + 1);
		seg_delete(cl, i);
	} else if (i > 0 && !cl->seg[i - 1].param) {
		seg_delete(cl, i);
		seg_delete(cl, i - 1);
	} else {
		seg_delete(cl, i);
	}
}

/* After the kernel's last parameter: before a "--" (what follows it goes to init) and
 * before the end of the first line (the only one read). */
static int quirks_append(struct cmdline *cl, struct usb_id id, char flag, struct fix_msgs *m)
{
	size_t i, at = 0, end = cmdline_kernel_end(cl);
	bool dashes = end < cl->n && cl->seg[end].param;
	char p[64];
	int ret;

	for (i = 0; i < end; i++)
		if (cl->seg[i].param)
			at = i + 1;
	str_fmt(p, sizeof(p), "usb-storage.quirks=%04x:%04x:%c", id.vid, id.pid, flag);
	if (!at && dashes) { /* "-- ..." alone: the parameter goes first */
		ret = seg_insert(cl, 0, p, strlen(p), true);
		if (!ret)
			ret = seg_insert(cl, 1, " ", 1, false);
	} else {
		ret = seg_insert(cl, at, " ", 1, false);
		if (!ret)
			ret = seg_insert(cl, at + 1, p, strlen(p), true);
	}
	if (!ret)
		fix_note(m, "adds the parameter '%s' %s", p,
			 dashes ? "before '--' (what follows it is handed to init, not read by "
				  "the kernel)" : "at the end of the line");
	return ret;
}

/* Drop the occurrences before the last one, saying what they held. */
static void quirks_drop_earlier(struct cmdline *cl, size_t *last, struct fix_msgs *m)
{
	size_t i;
	char show[48];

	for (i = *last; i-- > 0;) {
		if (!is_quirks_param(&cl->seg[i]))
			continue;
		param_show(&cl->seg[i], show, sizeof(show));
		fix_note(m, "removes the earlier '%s': with several quirks parameters the kernel "
			    "keeps only the last one, so this one never took effect (its entries "
			    "stay unused; add them with 'sbcdisk fix uas VID:PID' if you want them)",
			 show);
		param_remove(cl, i);
	}
	for (i = 0, *last = cl->n; i < cl->n; i++)
		if (is_quirks_param(&cl->seg[i]))
			*last = i;
}

int cmdline_quirks_add(struct cmdline *cl, struct usb_id id, char flag, struct fix_msgs *m,
		       bool *changed)
{
	struct sbuf nv = SBUF_INIT(CMDLINE_FILE_MAX), param = SBUF_INIT(CMDLINE_FILE_MAX);
	size_t count, at, vlen, nlen;
	struct usbq_merge res;
	const char *v;
	bool quoted;
	int ret;

	*changed = false;
	ret = cmdline_check(cl, m);
	if (ret)
		return ret;
	at = last_quirks(cl, &count);
	if (!count) {
		ret = quirks_append(cl, id, flag, m);
		*changed = !ret;
		return ret;
	}
	if (cl->seg[at].s[0] == '"')
		return fix_refuse(m, -EINVAL,
				  "the quirks parameter is quoted as a whole (\"usb-storage.quirks="
				  "...\"); the kernel reads it so, but this edit does not rewrite it: "
				  "write it as usb-storage.quirks=... by hand first");
	param_value(&cl->seg[at], &v, &vlen, &quoted);
	if (memchr(v, '"', vlen))
		return fix_refuse(m, -EINVAL,
				  "the quirks value has a double quote inside it, which the kernel "
				  "keeps as part of the list; repair it by hand first");
	if (vlen > USBQ_VALUE_MAX)
		return fix_refuse(m, -ENOSPC,
				  "the quirks list there is already %zu characters: the kernel takes "
				  "at most %d and ignores the whole list when it is longer (it logs "
				  "\"string doesn't fit in %d chars\"); shorten it by hand first",
				  vlen, USBQ_VALUE_MAX, USBQ_VALUE_MAX);
	ret = usbq_list_add(v, vlen, id, flag, &nv, &res);
	if (ret)
		goto out;
	if (nv.len > USBQ_VALUE_MAX) {
		ret = fix_refuse(m, -ENOSPC,
				 "with %04x:%04x:%c the quirks list would be %zu characters: the "
				 "kernel takes at most %d and would ignore the whole list, so this "
				 "fix would undo the entries already there; remove entries for "
				 "devices you no longer use, then run this again",
				 id.vid, id.pid, flag, nv.len, USBQ_VALUE_MAX);
		goto out;
	}
	if (res.change != USBQ_SAME || res.dups_removed) {
		nlen = kcmdline_param_name_len(cl->seg[at].s, cl->seg[at].len);
		ret = sbuf_add(&param, cl->seg[at].s, nlen + 1);
		if (!ret)
			ret = sbuf_addf(&param, "%s%s%s", quoted ? "\"" : "", sbuf_str(&nv),
					quoted ? "\"" : "");
		if (!ret)
			ret = seg_replace(&cl->seg[at], sbuf_str(&param), param.len);
		if (ret)
			goto out;
		*changed = true;
		if (res.change == USBQ_FLAG_ADDED)
			fix_note(m, "adds the flag '%c' to the existing entry for %04x:%04x",
				 flag, id.vid, id.pid);
		else if (res.change == USBQ_ENTRY_ADDED)
			fix_note(m, "adds %04x:%04x:%c to the existing quirks list", id.vid,
				 id.pid, flag);
		if (res.dups_removed)
			fix_note(m, "removes %u later entr%s for %04x:%04x: the kernel uses the "
				    "first entry that matches, so they never took effect",
				 res.dups_removed, res.dups_removed == 1 ? "y" : "ies", id.vid, id.pid);
	}
	if (count > 1) {
		quirks_drop_earlier(cl, &at, m);
		*changed = true;
	}
out:
	sbuf_release(&nv);
	sbuf_release(&param);
	return ret;
}

int cmdline_param_set(struct cmdline *cl, const char *name, const char *value,
		      struct fix_msgs *m, bool *changed)
{
	size_t i, at = cl->n, vlen;
	const char *v;
	bool quoted;
	char p[160];
	int ret;

	*changed = false;
	ret = cmdline_check(cl, m);
	if (ret)
		return ret;
	if (str_fmt(p, sizeof(p), "%s=%s", name, value))
		return fix_refuse(m, -EINVAL, "the parameter '%s' is too long", name);
	for (i = 0; i < cl->n; i++)
		if (cl->seg[i].param && kcmdline_param_is(cl->seg[i].s, cl->seg[i].len, name))
			at = i; /* the kernel takes the last one */
	if (at < cl->n) {
		param_value(&cl->seg[at], &v, &vlen, &quoted);
		if (vlen == strlen(value) && !memcmp(v, value, vlen)) {
			fix_note(m, "'%s' is already set", p);
			return 0;
		}
		ret = seg_replace(&cl->seg[at], p, strlen(p));
		if (!ret)
			fix_note(m, "sets the existing parameter to '%s' in place", p);
	} else {
		for (i = 0, at = 0; i < cl->n; i++)
			if (cl->seg[i].param)
				at = i + 1;
		ret = seg_insert(cl, at, " ", 1, false);
		if (!ret)
			ret = seg_insert(cl, at + 1, p, strlen(p), true);
		if (!ret)
			fix_note(m, "adds the parameter '%s' at the end of the line", p);
	}
	*changed = !ret;
	return ret;
}
