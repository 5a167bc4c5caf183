/* t-klog.c - every real log in tests/diag/klog/ against EXPECT: the finding ids it must give
 * (with their severity), the ids it must not give, and the worst severity allowed. The
 * EXPECT parser is strict: an unknown key, id or severity, or a log without a line, fails
 * the test, so a typo cannot switch a check off. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>

#include "t.h"
#include "diag/diag.h"
#include "common/util.h"

#define LOGS_MAX 512

static const struct diag_finding *find_id(const struct diag_findings *fs, const char *id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id))
			return &fs->v[i];
	return NULL;
}

/* "152d:0578": four hex digits, a colon, four hex digits. */
static bool usb_id_form(const char *s)
{
	return strlen(s) == 9 && strspn(s, "0123456789abcdef") == 4 && s[4] == ':' &&
	       strspn(s + 5, "0123456789abcdef") == 4;
}

/* One item of one key; false (with a message) when the item itself is malformed. */
static bool check_item(const char *file, const char *key, char *item,
		       const struct diag_findings *fs, const struct diag_log *log)
{
	char *sev = strchr(item, ':');
	const struct diag_finding *x;
	enum diag_sev want = DIAG_INFO;
	size_t i;
	int k;

	if (!strcmp(key, "noid")) {
		if (!usb_id_form(item)) {
			fprintf(stderr, "%s: noid=%s is no VID:PID\n", file, item);
			return false;
		}
		/* no finding names this id, nor offers a command with it */
		for (i = 0; i < fs->n; i++) {
			bool named = !strcmp(fs->v[i].usb_id, item) || strstr(fs->v[i].title, item);

			for (k = 0; k < fs->v[i].n_fix_cmds; k++)
				named = named || strstr(fs->v[i].fix_cmds[k], item);
			if (named)
				fprintf(stderr, "%s: %s names %s\n", file, fs->v[i].id, item);
			T_CHECK(!named);
		}
		return true;
	}
	if (!strcmp(key, "skipped")) {
		uint64_t most;
		unsigned long nonblank, skipped = diag_log_unrecognised(log, &nonblank);

		if (parse_u64(item, &most)) {
			fprintf(stderr, "%s: skipped=%s is no number\n", file, item);
			return false;
		}
		/* the log's form is read: at most this many lines were not kernel messages */
		if (skipped > most)
			fprintf(stderr, "%s: %lu of %lu lines not recognised\n", file, skipped,
				nonblank);
		T_CHECK(skipped <= most);
		return true;
	}
	if (!strcmp(key, "max")) {
		if (diag_sev_parse(item, &want)) {
			fprintf(stderr, "%s: unknown severity '%s'\n", file, item);
			return false;
		}
		if (diag_findings_worst(fs) > (int)want)
			fprintf(stderr, "%s: worse than %s\n", file, item);
		T_CHECK(diag_findings_worst(fs) <= (int)want);
		return true;
	}
	if (sev)
		*sev++ = '\0';
	if (!diag_rule_known(item)) {
		fprintf(stderr, "%s: unknown finding id '%s' in %s=\n", file, item, key);
		return false;
	}
	if (sev && ((strcmp(key, "must") && strcmp(key, "earlier")) || diag_sev_parse(sev, &want))) {
		fprintf(stderr, "%s: unknown severity '%s' for %s\n", file, sev, item);
		return false;
	}
	x = find_id(fs, item);
	if (!strcmp(key, "must") || !strcmp(key, "earlier")) {
		if (!x)
			fprintf(stderr, "%s: missing %s\n", file, item);
		T_CHECK(x != NULL);
		if (x && sev && x->sev != want)
			fprintf(stderr, "%s: %s is %s, expected %s\n", file, item,
				diag_sev_name(x->sev), sev);
		T_CHECK(!x || !sev || x->sev == want);
		/* every finding carries evidence with line numbers */
		T_CHECK(!x || (x->n_evidence > 0 && x->evidence[0].line > 0));
		if (!strcmp(key, "earlier")) {
			/* from a boot before the last, labelled, and after the last boot's */
			if (x && !x->earlier_boot)
				fprintf(stderr, "%s: %s is not from an earlier boot\n", file, item);
			T_CHECK(!x || (x->earlier_boot && strstr(x->title, "in an earlier boot")));
			T_CHECK(!x || fs->v[fs->n - 1].earlier_boot);
		}
	} else {
		if (x)
			fprintf(stderr, "%s: false alarm %s\n", file, item);
		T_CHECK(x == NULL);
	}
	return true;
}

/* Line n (1-based) of the file at path into buf; false when there is none. */
static bool file_line(const char *path, unsigned long n, char *buf, size_t cap)
{
	unsigned long i = 0;
	bool ok = false;
	FILE *f = fopen(path, "r");

	while (f && fgets(buf, (int)cap, f))
		if (++i == n) {
			ok = true;
			break;
		}
	if (f)
		fclose(f);
	return ok;
}

/* Every evidence line of every finding points at the text it quotes: the text's start is
 * on its first line, and its end on its last (a message a mail client wrapped spans lines,
 * and the evidence cites them all). */
static void check_evidence_lines(const char *file, const char *path,
				 const struct diag_findings *fs)
{
	char buf[4096], piece[32];
	size_t i, n;
	int k;

	for (i = 0; i < fs->n; i++) {
		for (k = 0; k < fs->v[i].n_evidence; k++) {
			const struct diag_evidence *e = &fs->v[i].evidence[k];
			unsigned long last = e->last_line > e->line ? e->last_line : e->line;
			bool head, tail = true;

			if (!e->line)
				continue;
			n = strlen(e->text);
			str_copy(piece, n < 20 ? n + 1 : 21, e->text);
			head = file_line(path, e->line, buf, sizeof(buf)) && strstr(buf, piece);
			if (n > 12 && n + 1 < DIAG_EVID_TEXT) {
				/* the message's last characters; a wrapped line's join is a space */
				const char *end = e->text + n - 12;

				str_copy(piece, sizeof(piece), end);
				tail = file_line(path, last, buf, sizeof(buf)) && strstr(buf, piece);
			}
			if (!head || !tail)
				fprintf(stderr, "%s: %s evidence line %lu-%lu is not '%s'\n", file,
					fs->v[i].id, e->line, last, e->text);
			T_CHECK(head && tail);
		}
	}
}

/* One EXPECT line: FILE, then tab-separated KEY=ITEM,ITEM... fields. */
static int check_log(const char *dir, char *line, char *file_out, size_t cap)
{
	char *save = NULL, *file = strtok_r(line, "\t\n", &save), *field, path[4096];
	struct diag_findings fs = { 0 };
	struct diag_log *log = NULL;
	int bad = 0;
	FILE *f;

	str_copy(file_out, cap, file ? file : "");
	if (!file)
		return -EINVAL;
	str_fmt(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: no such log\n", file);
		return -ENOENT;
	}
	T_EQ_INT(diag_log_new(&log), 0);
	T_EQ_INT(diag_log_parse_file(log, f), 0);
	fclose(f);
	T_EQ_INT(diag_run(log, NULL, &fs), 0);
	check_evidence_lines(file, path, &fs);
	while ((field = strtok_r(NULL, "\t\n", &save))) {
		char *list = strchr(field, '='), *item, *isave = NULL;

		if (!list) {
			fprintf(stderr, "%s: field '%s' is no KEY=LIST\n", file, field);
			bad = -EINVAL;
			continue;
		}
		*list++ = '\0';
		if (strcmp(field, "must") && strcmp(field, "not") && strcmp(field, "max") &&
		    strcmp(field, "noid") && strcmp(field, "earlier") && strcmp(field, "skipped")) {
			fprintf(stderr, "%s: unknown key '%s'\n", file, field);
			bad = -EINVAL;
			continue;
		}
		for (item = strtok_r(list, ",", &isave); item; item = strtok_r(NULL, ",", &isave))
			if (!check_item(file, field, item, &fs, log))
				bad = -EINVAL;
	}
	diag_findings_release(&fs);
	diag_log_free(log);
	return bad;
}

/* Every line of every EXPECT file of expect-typos/ must be refused by the parser: a typo in
 * a key, an id, a severity or a file name cannot switch a check off. */
static void check_typos(const char *src, const char *dir)
{
	char tdir[4096], path[4096], line[2048], file[256];
	struct dirent *de;
	int n = 0;
	DIR *d;

	str_fmt(tdir, sizeof(tdir), "%s/tests/diag/expect-typos", src);
	d = opendir(tdir);
	T_CHECK(d != NULL);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		FILE *f;

		if (len < 8 || strcmp(de->d_name + len - 7, ".EXPECT"))
			continue;
		str_fmt(path, sizeof(path), "%s/%s", tdir, de->d_name);
		f = fopen(path, "r");
		T_CHECK(f != NULL);
		while (f && fgets(line, sizeof(line), f)) {
			if (line[0] == '#' || line[0] == '\n')
				continue;
			if (!check_log(dir, line, file, sizeof(file)))
				fprintf(stderr, "%s: the typo was not refused\n", de->d_name);
			else
				n++;
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	T_EQ_INT(n, 4);
}

int main(void)
{
	const char *src = getenv("SBCDISK_SRCDIR");
	static char listed[LOGS_MAX][256];
	char dir[4096], path[4096], line[2048];
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (!src)
		return T_SKIP;
	str_fmt(dir, sizeof(dir), "%s/tests/diag/klog", src);
	str_fmt(path, sizeof(path), "%s/EXPECT", dir);
	f = fopen(path, "r");
	T_CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		T_EQ_INT(check_log(dir, line, listed[n < LOGS_MAX ? n : LOGS_MAX - 1],
				   sizeof(listed[0])), 0);
		n++;
	}
	if (f)
		fclose(f);
	T_CHECK(n >= 16);
	/* every log of the directory has its line */
	d = opendir(dir);
	T_CHECK(d != NULL);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		bool have = false;

		if (len < 5 || strcmp(de->d_name + len - 4, ".log"))
			continue;
		for (i = 0; i < n && i < LOGS_MAX; i++)
			have = have || !strcmp(listed[i], de->d_name);
		if (!have)
			fprintf(stderr, "%s: no line in EXPECT\n", de->d_name);
		T_CHECK(have);
	}
	if (d)
		closedir(d);
	check_typos(src, dir);
	return t_done();
}
