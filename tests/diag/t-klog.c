/* t-klog.c - every real log in tests/diag/klog/ against EXPECT: the finding ids it must give
 * (with their severity), the ids it must not give, and the worst severity allowed. */
#include <errno.h>
#include <stdio.h>

#include "t.h"
#include "diag/diag.h"
#include "common/util.h"

static const struct diag_finding *find_id(const struct diag_findings *fs, const char *id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].id, id))
			return &fs->v[i];
	return NULL;
}

static void check_log(const char *dir, char *line)
{
	char *file = strtok(line, "\t"), *field, path[4096];
	struct diag_findings fs = { 0 };
	struct diag_log *log = NULL;
	FILE *f;

	str_fmt(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	T_CHECK(f != NULL);
	if (!f)
		return;
	T_EQ_INT(diag_log_new(&log), 0);
	T_EQ_INT(diag_log_parse_file(log, f), 0);
	fclose(f);
	T_EQ_INT(diag_run(log, NULL, &fs), 0);
	while ((field = strtok(NULL, "\t\n"))) {
		char *list = strchr(field, '='), *item, *save = NULL;

		if (!list)
			continue;
		*list++ = '\0';
		for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
			char *sev = strchr(item, ':');
			const struct diag_finding *x;
			enum diag_sev want;

			if (sev)
				*sev++ = '\0';
			x = find_id(&fs, item);
			if (!strcmp(field, "must")) {
				if (!x)
					fprintf(stderr, "%s: missing %s\n", file, item);
				T_CHECK(x != NULL);
				if (x && sev && !diag_sev_parse(sev, &want)) {
					if (x->sev != want)
						fprintf(stderr, "%s: %s is %s, expected %s\n", file,
							item, diag_sev_name(x->sev), sev);
					T_CHECK(x->sev == want);
				}
				/* every finding carries evidence with line numbers */
				T_CHECK(!x || (x->n_evidence > 0 && x->evidence[0].line > 0));
			} else if (!strcmp(field, "not")) {
				if (x)
					fprintf(stderr, "%s: false alarm %s\n", file, item);
				T_CHECK(x == NULL);
			} else if (!strcmp(field, "max") && !diag_sev_parse(item, &want)) {
				if (diag_findings_worst(&fs) > (int)want)
					fprintf(stderr, "%s: worse than %s\n", file, item);
				T_CHECK(diag_findings_worst(&fs) <= (int)want);
			}
		}
	}
	diag_findings_release(&fs);
	diag_log_free(log);
}

int main(void)
{
	const char *src = getenv("SBCDISK_SRCDIR");
	char dir[4096], path[4096], line[1024];
	int n = 0;
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
		check_log(dir, line);
		n++;
	}
	if (f)
		fclose(f);
	T_CHECK(n >= 16);
	return t_done();
}
