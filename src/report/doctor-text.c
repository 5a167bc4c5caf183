/* doctor-text.c - the doctor's readable report: worst first, the explanation wrapped, the
 * evidence indented with its line numbers, the fix and its exact commands last. */
#include <errno.h>

#include "report/doctor.h"
#include "common/util.h"
#include "report/text.h"


static const char *sev_color(enum diag_sev s)
{
	return s == DIAG_ERROR ? "\033[1;31m" : s == DIAG_WARNING ? "\033[1;33m" : "\033[1;36m";
}

/* Print text wrapped at TEXT_WRAP_COLS columns (or the terminal's width), every line indented by
 * indent spaces. */
static void wrap(FILE *f, const char *text, int indent)
{
	const char *p = text;

	while (*p) {
		int width = (int)text_cols(TEXT_WRAP_COLS) - indent, n = 0, last_space = -1;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		while (p[n] && n < width) {
			if (p[n] == ' ')
				last_space = n;
			n++;
		}
		if (p[n] && last_space > 0)
			n = last_space;
		fprintf(f, "%*s%.*s\n", indent, "", n, p);
		p += n;
	}
}

static void finding_print(FILE *f, const struct diag_finding *x, bool color)
{
	char sev[16], line[2048];
	int i;

	str_fmt(sev, sizeof(sev), "%s", diag_sev_name(x->sev));
	for (i = 0; sev[i]; i++)
		sev[i] = (char)(sev[i] >= 'a' && sev[i] <= 'z' ? sev[i] - 32 : sev[i]);
	fprintf(f, "%s%-7s%s ", color ? sev_color(x->sev) : "", sev, color ? "\033[0m" : "");
	str_fmt(line, sizeof(line), "[%s] %s", x->id, x->title);
	text_wrap(f, "  ", "", line, text_width() ? text_width() - 8 : SIZE_MAX);
	wrap(f, x->explanation, 2);
	if (x->n_evidence) {
		fprintf(f, "  Evidence:\n");
		for (i = 0; i < x->n_evidence; i++) {
			/* the kernel's message first: its time and syslog prefix stay in JSON */
			const char *msg = x->evidence[i].text + x->evidence[i].msg_off;

			if (x->evidence[i].last_line > x->evidence[i].line)
				str_fmt(line, sizeof(line), "lines %lu-%lu: %s", x->evidence[i].line,
					x->evidence[i].last_line, msg);
			else if (x->evidence[i].line)
				str_fmt(line, sizeof(line), "line %lu: %s", x->evidence[i].line, msg);
			else
				str_fmt(line, sizeof(line), "%s", x->evidence[i].text);
			/* a log line is cut on a terminal, never wrapped into the next */
			if (text_width())
				text_cut(line, sizeof(line), line, text_width() - 4);
			fprintf(f, "    %s\n", line);
		}
		if (x->more_evidence)
			fprintf(f, "    ... and %lu more line%s like these\n", x->more_evidence,
				x->more_evidence == 1 ? "" : "s");
	}
	if (x->has_fix) {
		fprintf(f, "  Fix:\n");
		wrap(f, x->fix_summary, 4);
		for (i = 0; i < x->n_fix_cmds; i++)
			fprintf(f, "    $ %s\n", x->fix_cmds[i]);
	}
}

void doctor_text_findings(FILE *f, const struct diag_findings *fs, bool color)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		if (i)
			fputc('\n', f);
		finding_print(f, &fs->v[i], color);
	}
}

int doctor_text_print(FILE *f, const struct diag_findings *fs, const struct doctor_sources *src,
		      bool color)
{
	size_t i, n[4] = { 0 };
	bool unread = false;
	char line[2048];

	for (i = 0; i < fs->n; i++)
		n[fs->v[i].sev]++;
	if (src->log_name) {
		str_fmt(line, sizeof(line), "%s, %lu line%s read.", src->log_name,
			src->log_lines, src->log_lines == 1 ? "" : "s");
		text_wrap(f, "  ", "Kernel log: ", line, text_cols(SIZE_MAX));
	}
	/* most of the file was no kernel log: its silence proves nothing */
	if (src->log_name && src->log_nonblank >= 4 &&
	    src->log_unrecognised * 2 > src->log_nonblank) {
		unread = true;
		fprintf(f, "%lu of %lu lines were not recognised as kernel messages (save the log "
			   "with dmesg or journalctl -k).\n", src->log_unrecognised,
			src->log_nonblank);
	}
	else if (src->log_problem) {
		str_fmt(line, sizeof(line), "not read (%s).", src->log_problem);
		text_wrap(f, "  ", "Kernel log: ", line, text_cols(SIZE_MAX));
	}
	if (src->have_inventory)
		fprintf(f, "Devices: %zu looked at.\n", src->n_devices);
	fprintf(f, "Findings: %zu error%s, %zu warning%s, %zu info.\n", n[DIAG_ERROR],
		n[DIAG_ERROR] == 1 ? "" : "s", n[DIAG_WARNING], n[DIAG_WARNING] == 1 ? "" : "s",
		n[DIAG_INFO]);
	if (fs->n) {
		fputc('\n', f);
		doctor_text_findings(f, fs, color);
	} else if (unread) {
		fprintf(f, "No problems found in the lines that were kernel messages.\n");
	} else {
		doctor_text_all_clear(f, src);
	}
	return ferror(f) ? -EIO : 0;
}

void doctor_text_all_clear(FILE *f, const struct doctor_sources *src)
{
	char devs[64] = "", line[256];

	if (src->have_inventory)
		str_fmt(devs, sizeof(devs), "%zu device%s", src->n_devices,
			src->n_devices == 1 ? "" : "s");
	if (src->log_name)
		str_fmt(line, sizeof(line), "No problems found in %s%sthe kernel log (%lu line%s).",
			devs, devs[0] ? " and " : "", src->log_lines,
			src->log_lines == 1 ? "" : "s");
	else if (devs[0])
		str_fmt(line, sizeof(line), "No problems found in %s; the kernel log was not read, "
			"so its errors are not covered.", devs);
	else
		str_copy(line, sizeof(line), "No problems found; the kernel log was not read, so "
			 "its errors are not covered.");
	text_wrap(f, "  ", "", line, text_cols(TEXT_WRAP_COLS));
}
