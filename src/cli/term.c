/* term.c - output on a terminal: the width it is fitted to (COLUMNS, then the tty's size),
 * stdout through a filter that folds a line longer than the terminal at a space, and the
 * width common/log.c folds the messages on stderr to. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/log.h"
#include "common/util.h"
#include "report/text.h"

#define TERM_LINE_MAX 65536

/* The width of the terminal on fd: COLUMNS when it is a sane number, else the tty's size;
 * 0 when neither says */
static size_t term_cols(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v;

	if (env && *env) {
		errno = 0;
		v = strtol(env, &end, 10);
		if (!errno && !*end && v >= 20 && v <= 10000)
			return (size_t)v;
	}
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}

static size_t cli_term_width(const struct cli_ctx *ctx)
{
	size_t cols;

	if (ctx->json || (ctx->cmd && (ctx->cmd->flags & CLI_RAW_OUT)) || !isatty(STDOUT_FILENO))
		return 0;
	cols = term_cols(STDOUT_FILENO);
	return cols ? cols : 80;
}

static FILE *term_real; /* stdout before the filter */

struct term_out {
	FILE *to;
	size_t cols, len;
	char line[TERM_LINE_MAX];
};

static ssize_t term_write(void *cookie, const char *buf, size_t n)
{
	struct term_out *t = cookie;
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || t->len + 1 >= sizeof(t->line)) {
			t->line[t->len] = '\0';
			str_fold(t->to, t->line, t->cols);
			t->len = 0;
			if (buf[i] == '\n')
				continue;
		}
		t->line[t->len++] = buf[i];
	}
	return (ssize_t)n;
}

static int term_close(void *cookie)
{
	struct term_out *t = cookie;
	int ret;

	if (t->len)
		fwrite(t->line, 1, t->len, t->to);
	ret = fflush(t->to);
	free(t);
	return ret ? EOF : 0;
}

static int cli_term_fit_stdout(size_t cols)
{
	static const cookie_io_functions_t io = { .write = term_write, .close = term_close };
	struct term_out *t;
	FILE *f;

	if (!cols)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	term_real = stdout;
	t->to = stdout;
	t->cols = cols;
	f = fopencookie(t, "w", io);
	if (!f) {
		free(t);
		return -ENOMEM;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	/* glibc lets a program set stdout: every print of cli/ and report/ goes through it */
	stdout = f;
	return 0;
}

void cli_term_setup(const struct cli_ctx *ctx)
{
	/* stderr's width, for the messages (common/log.c folds them): only where it is a
	 * terminal; unlike stdout's it does not change with --json */
	log_set_width(isatty(STDERR_FILENO) ? term_cols(STDERR_FILENO) : 0);
	text_set_width(cli_term_width(ctx));
	if (cli_term_fit_stdout(text_width()))
		text_set_width(0);
}

size_t cli_term_err_cols(void)
{
	return isatty(STDERR_FILENO) ? term_cols(STDERR_FILENO) : 0;
}

int cli_term_end(void)
{
	FILE *f = stdout;

	if (!term_real || f == term_real)
		return 0;
	stdout = term_real;
	return fclose(f) ? -EIO : 0;
}
