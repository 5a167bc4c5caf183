/* options.h - a command's options as one table (the idea is git's parse-options): each entry
 * the option, whether it takes a value, its help line and where it is stored. One helper
 * builds getopt_long's array from it, prints the "Options:" part of --help, lists the
 * options for the shell completions and says the usage errors. */
#ifndef SBCDISK_CLI_OPTIONS_H
#define SBCDISK_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct store_filter;

enum cli_opt_type {
	CLI_OPT_END = 0,
	CLI_OPT_BOOL,     /* *(bool *)value = true */
	CLI_OPT_STRING,   /* *(const char **)value = the value */
	CLI_OPT_CALLBACK, /* cb(cmd, value, the value or NULL) */
	CLI_OPT_GLOBAL,   /* one main.c takes (--json): in the help and the completion only */
	CLI_OPT_HELP,     /* -h, --help: the command's help, exit 0 */
};

enum cli_opt_flags {
	CLI_OPT_NONEMPTY = 1 << 0, /* an empty value is the missing-value usage error */
	CLI_OPT_NOHELP = 1 << 1,   /* in the help's usage lines only, not in the option list */
};

struct cli_option {
	enum cli_opt_type type;
	int short_name;   /* a letter, or 0 */
	const char *long_name;
	const char *argh; /* the value's name in the help ("PATH"); NULL: takes no value */
	void *value;
	/* 0, CLI_DONE (it printed what was asked: exit 0) or an exit code after a message */
	int (*cb)(const char *cmd, void *value, const char *arg);
	const char *help; /* lines separated by '\n', each indented to the help column */
	unsigned flags;
};

/* A number's digits in a help string: CLI_STR(COMPARE_RUNS_MAX) */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

#define OPT_BOOL(s, l, v, h) { CLI_OPT_BOOL, (s), (l), NULL, (v), NULL, (h), 0 }
#define OPT_STRING(s, l, a, v, h) { CLI_OPT_STRING, (s), (l), (a), (v), NULL, (h), 0 }
#define OPT_CALLBACK(s, l, a, v, cb, h) { CLI_OPT_CALLBACK, (s), (l), (a), (v), (cb), (h), 0 }
#define OPT_HELP() { CLI_OPT_HELP, 'h', "help", NULL, NULL, NULL, "this help", 0 }
#define OPT_END() { CLI_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 }

/* The shared entries: --db PATH (never empty), --json (main.c's), and the run filters
 * --device TEXT and -n/--last N, stored in a struct cli_filter. */
#define OPT_DB(v, h) { CLI_OPT_STRING, 0, "db", "PATH", (v), NULL, (h), CLI_OPT_NONEMPTY }
#define OPT_JSON(h) { CLI_OPT_GLOBAL, 0, "json", NULL, NULL, NULL, (h), 0 }
#define OPT_DEVICE(f, h) { CLI_OPT_CALLBACK, 0, "device", "TEXT", (f), cli_opt_device, (h), 0 }
#define OPT_LAST(f, h) { CLI_OPT_CALLBACK, 'n', "last", "N", (f), cli_opt_last, (h), 0 }
/* --time DUR into a uint64_t of nanoseconds (v), more than 0: a bad one is a usage error
 * before the command does anything (bench's own --time is parsed with the profile's). */
#define OPT_TIME(v, h) { CLI_OPT_CALLBACK, 0, "time", "DUR", (v), cli_opt_time, (h), 0 }
int cli_opt_time(const char *cmd, void *value, const char *arg);

/* Where --device and --last go: f's device and limit; --last counts from 1 to last_max. */
struct cli_filter {
	struct store_filter *f;
	size_t last_max;
};
int cli_opt_device(const char *cmd, void *value, const char *arg);
/* Run ids (nids of them) and --device or --last exclude each other: 0 or EXIT_USAGE. */
int cli_filter_check(const char *cmd, const struct cli_filter *cf, int nids);
int cli_opt_last(const char *cmd, void *value, const char *arg);

/* A command's help and options: the text before "Options:", the table (printed with the
 * help lines at column help_col), the text after it. */
struct cli_spec {
	const char *usage;   /* "Usage: ...\n\nWhat it does.\n" */
	const struct cli_option *options;
	const char *options_title; /* before the option list; NULL: "\nOptions:\n" */
	int help_col;        /* the column of the help lines */
	const char *after;   /* after the option list ("\nWith the global --json: ...\n"), or NULL */
	void (*after_fn)(FILE *f); /* printed after that, or NULL */
	int args_max;        /* operands at most; more: "unexpected argument"; -1: any number */
	/* After the options, before the system is opened: the operands argv[1..argc) (argv[0]
	 * the command). 0 or an exit code after a message; NULL: none. */
	int (*check)(const char *cmd, int argc, char **argv);
	unsigned *given;     /* when set: bit i for the table's entry i that was given */
	void (*prepare)(void); /* fills help lines made from other tables, before the help */
	void (*reset)(void);   /* the options' defaults again, before a parse (move runs a
				* command more than once) */
};

/* The width of a help text; cli_help_wrap() breaks s at spaces into lines of width at most
 * (a word longer than that stays whole). */
#define CLI_HELP_COLS 80
void cli_help_wrap(char *s, int width);

/* text from column col, its lines as written where each fits in CLI_HELP_COLS, else filled
 * anew to the width (its line ends taken as spaces); the first line's used columns are
 * already on the line. */
void cli_help_para(FILE *f, const char *text, int col, int used);
/* The global options, for the help and the completion (main.c parses them). */
extern const struct cli_option cli_global_options[];

/* The option lines of a help: each option's words, then its help at column col. */
void cli_options_help(FILE *f, const struct cli_option *opts, int col);
/* The whole --help of a command. */
void cli_spec_help(FILE *f, const struct cli_spec *spec);
/* Every option name of the table ("-o", "--output", "--json"), one a line; with_value: only
 * those that take a value. */
void cli_options_list(FILE *f, const struct cli_option *opts, bool with_value);
/*
 * Parse argv by the table: the operands end up at argv[*first..argc) (getopt_long permutes),
 * in their order. 0, CLI_DONE (the help or what a callback printed: exit 0) or EXIT_USAGE after
 * "sbcdisk: CMD: unknown option '-x'", "option '--db' needs a value" or "option '--bytes'
 * takes no value".
 */
int cli_options_parse(const char *cmd, const struct cli_spec *spec, int argc, char **argv,
		      int *first);

#endif
