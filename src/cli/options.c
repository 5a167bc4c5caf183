/* options.c - a command's option table turned into getopt_long's array and option string, the
 * "Options:" part of its --help, the completion's option list and the usage errors. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "bench/profile.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/util.h"
#include "store/store.h"

#define OPTS_MAX 40
/* getopt_long's val of a long option without a letter: this plus its index in the table */
#define LONG_ONLY 0x100

static size_t opts_count(const struct cli_option *opts)
{
	size_t n = 0;

	while (opts && opts[n].type != CLI_OPT_END)
		n++;
	return n;
}

/* "-o, --output COLS" */
static void opt_words(const struct cli_option *o, char *buf, size_t size)
{
	char s[8] = "";

	if (o->short_name)
		str_fmt(s, sizeof(s), "-%c%s", o->short_name, o->long_name ? ", " : "");
	str_fmt(buf, size, "%s%s%s%s%s", s, o->long_name ? "--" : "",
		o->long_name ? o->long_name : "", o->argh ? " " : "", o->argh ? o->argh : "");
}

/* Every line of text fits from column col (the first after used columns)? */
static bool help_fits(const char *text, int col)
{
	const char *nl;

	for (;;) {
		nl = strchr(text, '\n');
		if ((nl ? nl - text : (long)strlen(text)) > CLI_HELP_COLS - col)
			return false;
		if (!nl)
			return true;
		text = nl + 1;
	}
}

void cli_help_para(FILE *f, const char *text, int col, int used)
{
	char fill[1024];
	const char *p = text, *nl;

	/* lines that fit stay as they are written; where one does not, the text's own line
	 * ends are spaces and it is broken anew at the width (cli_help_wrap) */
	if (!help_fits(text, col) && !str_copy(fill, sizeof(fill), text)) {
		for (char *c = fill; *c; c++)
			if (*c == '\n')
				*c = ' ';
		cli_help_wrap(fill, CLI_HELP_COLS - col);
		p = fill;
	}
	for (;;) {
		nl = strchr(p, '\n');
		fprintf(f, "%*s%.*s\n", col > used ? col - used : 0, "",
			nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl)
			return;
		p = nl + 1;
		used = 0;
	}
}

static void print_option(FILE *f, const struct cli_option *o, int col)
{
	char words[96];
	int len;

	opt_words(o, words, sizeof(words));
	len = fprintf(f, "  %s", words);
	if (len + 1 > col) {
		fputc('\n', f);
		len = 0;
	}
	cli_help_para(f, o->help, col, len);
}

void cli_options_help(FILE *f, const struct cli_option *opts, int col)
{
	const struct cli_option *o;

	for (o = opts; o && o->type != CLI_OPT_END; o++)
		if (o->help && !(o->flags & CLI_OPT_NOHELP))
			print_option(f, o, col);
}

void cli_help_wrap(char *s, int width)
{
	char *line = s, *sp = NULL, *p;

	for (p = s; *p; p++) {
		if (*p == '\n') {
			line = p + 1;
			sp = NULL;
			continue;
		}
		if (*p == ' ')
			sp = p;
		if (p - line >= width && sp) {
			*sp = '\n';
			line = sp + 1;
			sp = NULL;
		}
	}
}

void cli_spec_help(FILE *f, const struct cli_spec *spec)
{
	if (spec->prepare)
		spec->prepare();
	fputs(spec->usage, f);
	if (opts_count(spec->options))
		fputs(spec->options_title ? spec->options_title : "\nOptions:\n", f);
	cli_options_help(f, spec->options, spec->help_col);
	if (spec->after)
		fputs(spec->after, f);
	if (spec->after_fn)
		spec->after_fn(f);
}

void cli_options_list(FILE *f, const struct cli_option *opts, bool with_value)
{
	const struct cli_option *o;

	for (o = opts; o && o->type != CLI_OPT_END; o++) {
		if (!o->help || (with_value && !o->argh))
			continue;
		if (o->short_name)
			fprintf(f, "-%c\n", o->short_name);
		if (o->long_name)
			fprintf(f, "--%s\n", o->long_name);
	}
}

/*
 * getopt_long's opterr is 0, so getopt never prints (its messages would echo
 * argv raw); this says what it found. A short option is named by optopt: in a bundle ("-zb")
 * optind still points at the bundle, so argv[optind - 1] would be the wrong word.
 */
static int option_error(const char *cmd, int c, char **argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	size_t len = strcspn(word, "=");
	char shortopt[3] = { '-', (char)optopt, '\0' };
	bool is_long = word[0] == '-' && word[1] == '-';

	if (!is_long && optopt > 0 && optopt < 0x80) {
		word = shortopt;
		len = 2;
	} else if (!is_long) {
		len = strlen(word);
	}
	if (c == ':')
		return cli_usage_error(cmd, "option '%.*s' needs a value", (int)len, word);
	if (is_long && word[len] == '=' && optopt > 0)
		return cli_usage_error(cmd, "option '%.*s' takes no value", (int)len, word);
	return cli_usage_error(cmd, "unknown option '%.*s'", (int)len, word);
}

static int opt_take(const char *cmd, const struct cli_spec *spec, const struct cli_option *o,
		    const char *arg)
{
	if (o->argh && (o->flags & CLI_OPT_NONEMPTY) && !*arg)
		return cli_usage_error(cmd, "option '--%s' needs a value", o->long_name);
	switch (o->type) {
	case CLI_OPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_CALLBACK:
		return o->cb(cmd, o->value, arg);
	case CLI_OPT_HELP:
		cli_spec_help(stdout, spec);
		return CLI_DONE;
	default:
		return 0;
	}
}

int cli_options_parse(const char *cmd, const struct cli_spec *spec, int argc, char **argv,
		      int *first)
{
	struct option lo[OPTS_MAX + 1];
	char shorts[2 * OPTS_MAX + 2] = ":";
	const struct cli_option *opts = spec->options;
	size_t n = opts_count(opts), i, k = 0, s = 1;
	int c, ret;

	if (n > OPTS_MAX)
		return cli_usage_error(cmd, "too many options in the table");
	for (i = 0; i < n; i++) {
		const struct cli_option *o = &opts[i];
		int val = o->short_name ? o->short_name : LONG_ONLY + (int)i;

		if (o->type == CLI_OPT_GLOBAL)
			continue;
		if (o->long_name)
			lo[k++] = (struct option){ o->long_name, o->argh ? required_argument :
						   no_argument, NULL, val };
		if (o->short_name) {
			shorts[s++] = (char)o->short_name;
			if (o->argh)
				shorts[s++] = ':';
		}
	}
	lo[k] = (struct option){ NULL, 0, NULL, 0 };
	shorts[s] = '\0';

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_option *o = NULL;

		if (c >= LONG_ONLY && c < LONG_ONLY + (int)n)
			o = &opts[c - LONG_ONLY];
		for (i = 0; !o && c != '?' && c != ':' && i < n; i++)
			if (opts[i].short_name == c)
				o = &opts[i];
		if (!o)
			return option_error(cmd, c, argv);
		if (spec->given && o - opts < 32)
			*spec->given |= 1u << (o - opts);
		ret = opt_take(cmd, spec, o, optarg);
		if (ret)
			return ret;
	}
	*first = optind;
	return 0;
}

int cli_opt_device(const char *cmd, void *value, const char *arg)
{
	struct cli_filter *cf = value;

	(void)cmd;
	cf->f->device = arg;
	return 0;
}

int cli_filter_check(const char *cmd, const struct cli_filter *cf, int nids)
{
	if (nids > 0 && (cf->f->device || cf->f->limit))
		return cli_usage_error(cmd, "run ids exclude --device and --last");
	return 0;
}

int cli_opt_last(const char *cmd, void *value, const char *arg)
{
	struct cli_filter *cf = value;
	uint64_t n;

	if (parse_u64(arg, &n) || n == 0 || n > cf->last_max)
		return cli_usage_error(cmd, "'--last %s': a count from 1 to %zu", arg,
				       cf->last_max);
	cf->f->limit = (size_t)n;
	return 0;
}

int cli_opt_time(const char *cmd, void *value, const char *arg)
{
	uint64_t *ns = value;

	if (bench_parse_duration(arg, ns) || !*ns)
		return cli_usage_error(cmd, "bad time '%s': e.g. 5s, 500ms", arg);
	return 0;
}
