/* kcmdline.c - split a kernel command line the way lib/cmdline.c next_arg() does, so that
 * doctor and fix read the same parameters from the same bytes. */
#include <string.h>

#include "common/kcmdline.h"

size_t kcmdline_first_line(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);

	return nl ? (size_t)(nl - text) : len;
}

bool kcmdline_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

size_t kcmdline_arg_len(const char *s, size_t len)
{
	bool quote = false;
	size_t j;

	for (j = 0; j < len && s[j] != '\n'; j++) {
		if (s[j] == '"')
			quote = !quote;
		else if (!quote && kcmdline_is_space(s[j]))
			break;
	}
	return j;
}

size_t kcmdline_param_name_len(const char *arg, size_t len)
{
	const char *eq = memchr(arg, '=', len);

	return eq ? (size_t)(eq - arg) : 0;
}

/* next_arg() strips a quote that opens the whole argument ("name=value with spaces") and
 * the one that closes it: the parameter is name, its value the rest. */
static void arg_unquote(const char **arg, size_t *len)
{
	if (!*len || (*arg)[0] != '"')
		return;
	(*arg)++;
	(*len)--;
	if (*len && (*arg)[*len - 1] == '"')
		(*len)--;
}

bool kcmdline_param_is(const char *arg, size_t len, const char *name)
{
	size_t i, n;

	arg_unquote(&arg, &len);
	n = kcmdline_param_name_len(arg, len);

	if (n != strlen(name))
		return false;
	for (i = 0; i < n; i++) {
		char a = arg[i] == '-' ? '_' : arg[i], b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return false;
	}
	return true;
}

void kcmdline_param_value(const char *arg, size_t len, const char **v, size_t *vlen,
			  bool *quoted)
{
	bool whole = len && arg[0] == '"';
	size_t n;

	arg_unquote(&arg, &len);
	n = kcmdline_param_name_len(arg, len);
	n = n ? n + 1 : len;
	*v = arg + n;
	*vlen = len - n;
	*quoted = whole || (*vlen && (*v)[0] == '"');
	if (*quoted && !whole) {
		(*v)++;
		(*vlen)--;
		if (*vlen && (*v)[*vlen - 1] == '"')
			(*vlen)--;
	}
}
