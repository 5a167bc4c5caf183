/* findings.c - the finding list: creation, merging by id and device, texts and order.
 * Texts are capped: a rule cannot overflow a finding, only shorten it. */
#include <errno.h>
#include <stdarg.h>

#include "diag/findings.h"
#include "common/util.h"

const char *diag_sev_name(enum diag_sev s)
{
	switch (s) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_INFO:
		return "info";
	}
	return "?";
}

int diag_sev_parse(const char *s, enum diag_sev *out)
{
	if (!strcmp(s, "error"))
		*out = DIAG_ERROR;
	else if (!strcmp(s, "warning"))
		*out = DIAG_WARNING;
	else if (!strcmp(s, "info"))
		*out = DIAG_INFO;
	else
		return -EINVAL;
	return 0;
}

void diag_findings_release(struct diag_findings *f)
{
	free(f->v);
	f->v = NULL;
	f->n = f->alloc = 0;
}

int diag_findings_worst(const struct diag_findings *f)
{
	int worst = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		if ((int)f->v[i].sev > worst)
			worst = (int)f->v[i].sev;
	return worst;
}

struct diag_finding *finding_get(struct diag_findings *out, const char *id, enum diag_sev sev,
				 const char *device, const char *usb_id, int boot)
{
	struct diag_finding *f;
	size_t i;

	device = device ? device : "";
	usb_id = usb_id ? usb_id : "";
	for (i = 0; i < out->n; i++) {
		f = &out->v[i];
		if (strcmp(f->id, id) || f->boot != boot)
			continue;
		if ((device[0] && !strcmp(f->device, device)) ||
		    (!device[0] && !f->device[0] && !strcmp(f->usb_id, usb_id))) {
			if (sev > f->sev)
				f->sev = sev;
			if (!f->usb_id[0] && usb_id[0])
				str_copy(f->usb_id, sizeof(f->usb_id), usb_id);
			return f;
		}
	}
	if (out->n == out->alloc) {
		size_t a = out->alloc ? out->alloc * 2 : 8;
		struct diag_finding *v = realloc(out->v, a * sizeof(*v));

		if (!v)
			return NULL;
		out->v = v;
		out->alloc = a;
	}
	f = &out->v[out->n++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->sev = sev;
	f->boot = boot;
	str_copy(f->device, sizeof(f->device), device);
	str_copy(f->usb_id, sizeof(f->usb_id), usb_id);
	return f;
}

void finding_title(struct diag_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void finding_explain(struct diag_finding *f, const char *fmt, ...)
{
	size_t len = strlen(f->explanation);
	char sentence[sizeof(f->explanation)];
	va_list ap;

	/* a finding extended twice (two devices, two passes) says each sentence once */
	va_start(ap, fmt);
	vsnprintf(sentence, sizeof(sentence), fmt, ap);
	va_end(ap);
	if (sentence[0] && strstr(f->explanation, sentence))
		return;

	if (len && len + 1 < sizeof(f->explanation)) {
		f->explanation[len++] = ' ';
		f->explanation[len] = '\0';
	}
	if (len + 1 >= sizeof(f->explanation))
		return;
	str_copy(f->explanation + len, sizeof(f->explanation) - len, sentence);
}

static bool has_line(const struct diag_finding *f, unsigned long line, const char *text)
{
	int i;

	for (i = 0; i < f->n_evidence; i++)
		if (f->evidence[i].line == line && !strcmp(f->evidence[i].text, text))
			return true;
	return false;
}

static int evid_cmp(const void *a, const void *b)
{
	const struct diag_evidence *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

void finding_evidence_cat(struct diag_finding *f, const struct cat_stat *c)
{
	int i, added = 0;

	for (i = 0; i < c->n; i++) {
		if (has_line(f, c->ev[i].line, c->ev[i].text))
			continue;
		if (f->n_evidence == DIAG_EVID_MAX) {
			f->more_evidence++;
			continue;
		}
		f->evidence[f->n_evidence++] = c->ev[i];
		added++;
	}
	if (c->count > (unsigned long)c->n)
		f->more_evidence += c->count - (unsigned long)c->n;
	if (added)
		qsort(f->evidence, (size_t)f->n_evidence, sizeof(f->evidence[0]), evid_cmp);
}

void finding_evidence_fact(struct diag_finding *f, const char *fmt, ...)
{
	struct diag_evidence *e;
	va_list ap;

	if (f->n_evidence == DIAG_EVID_MAX) {
		f->more_evidence++;
		return;
	}
	e = &f->evidence[f->n_evidence];
	e->line = 0;
	e->last_line = 0;
	e->msg_off = 0;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	str_sanitize(e->text);
	if (!has_line(f, 0, e->text))
		f->n_evidence++;
	qsort(f->evidence, (size_t)f->n_evidence, sizeof(f->evidence[0]), evid_cmp);
}

void finding_fix(struct diag_finding *f, const char *summary)
{
	f->has_fix = true;
	str_copy(f->fix_summary, sizeof(f->fix_summary), summary);
}

void finding_fix_cmd(struct diag_finding *f, const char *fmt, ...)
{
	va_list ap;
	int i;

	if (f->n_fix_cmds == DIAG_CMDS_MAX)
		return;
	f->has_fix = true;
	va_start(ap, fmt);
	vsnprintf(f->fix_cmds[f->n_fix_cmds], sizeof(f->fix_cmds[0]), fmt, ap);
	va_end(ap);
	for (i = 0; i < f->n_fix_cmds; i++)
		if (!strcmp(f->fix_cmds[i], f->fix_cmds[f->n_fix_cmds]))
			return;
	f->n_fix_cmds++;
}

static unsigned long first_line(const struct diag_finding *f)
{
	int i;

	for (i = 0; i < f->n_evidence; i++)
		if (f->evidence[i].line)
			return f->evidence[i].line;
	return 0;
}

static int finding_cmp(const void *a, const void *b)
{
	const struct diag_finding *x = a, *y = b;
	unsigned long lx = first_line(x), ly = first_line(y);
	int c;

	if (x->earlier_boot != y->earlier_boot)
		return x->earlier_boot ? 1 : -1;
	if (x->sev != y->sev)
		return x->sev > y->sev ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = strcmp(x->id, y->id);
	return c ? c : strcmp(x->device, y->device);
}

void findings_sort(struct diag_findings *out)
{
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(out->v[0]), finding_cmp);
}
