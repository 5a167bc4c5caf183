/* clone-report.c - the plan of `sbcdisk clone` and, after --apply, what it did: the table
 * for people and the JSON document, from clone's plan. */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "report/clone-report.h"
#include "report/text.h"

/* "about 3 min 20 s (source read 42 MB/s, measured now over 84 MiB; target write speed
 * unknown: no stored bench)" */
static void print_estimate(const struct clone_plan *p, FILE *f)
{
	const struct clone_speed *s = &p->speed;
	char t[32], a[32];
	unsigned long long secs;

	if (!s->has_time) {
		fprintf(f, "expected time: unknown (no stored bench of the source, and it could not "
			"be read now)\n");
		return;
	}
	secs = (unsigned long long)(s->time_s + 0.5);
	if (secs >= 60)
		str_fmt(t, sizeof(t), "%llu min %llu s", secs / 60, secs % 60);
	else if (s->time_s >= 1)
		str_fmt(t, sizeof(t), "%llu s", secs);
	else
		str_copy(t, sizeof(t), "a second or less");
	fprintf(f, "expected time: about %s (source read %.0f MB/s, ", t, s->read_bps / 1e6);
	if (!strcmp(s->read_from, "stored")) {
		fprintf(f, "its bench of %s", s->read_at);
	} else {
		size_to_human(s->measured_bytes, a, sizeof(a));
		fprintf(f, "measured now over %s", a);
	}
	if (s->has_write)
		fprintf(f, "; target write %.0f MB/s, its bench of %s)\n", s->write_bps / 1e6,
			s->write_at);
	else
		fprintf(f, "; target write speed unknown: no stored bench of it, so this assumes "
			"it keeps up)\n");
}

static const char *state_name(enum clone_check_state s)
{
	return s == CLONE_CHECK_PASS ? "PASS" : s == CLONE_CHECK_FAIL ? "FAIL" : "WARN";
}

/* The partitions of the plan: source, then target; on a terminal the source's columns go
 * first. */
static const struct text_col plan_cols[] = {
	{ "PART", 4, false, 1, 0 },   { "FS", 6, false, 2, 0 },     { "LABEL", 12, false, 6, 6 },
	{ "USED", 8, true, 5, 0 },    { "START", 8, true, 9, 0 },   { "SIZE", 8, true, 8, 0 },
	{ " ->", 4, false, 8, 0 },    { "START", 8, true, 10, 0 },  { "SIZE", 8, true, 3, 0 },
	{ " COPY", 13, false, 4, 0 }, { "NEW ID", 48, false, 7, 0 },
};

void clone_report_table(const struct clone_plan *p, FILE *f)
{
	char a[32], b[32], c[32], d[32], e[32], part[16], copy[32], label[16], ids[160];
	struct text_table t;
	size_t i;

	size_to_human(p->src_size, a, sizeof(a));
	size_to_human(p->dst_size, b, sizeof(b));
	if (p->whole) {
		fprintf(f, "source  %s  %s\ntarget  %s  %s%s\ncopy    every block as it is "
			"(--whole); the copy shares every id with the source\n", p->src_path, a,
			p->dst_path, b, p->dst_exists ? "" : " (new image file)");
	} else {
		fprintf(f, "source  %s  %s  %s %s\n", p->src_path, a, p->src_label, p->src_id);
		fprintf(f, "target  %s  %s  %s %s (new)%s\n", p->dst_path, b, p->dst_label,
			p->dst_id, p->dst_exists ? "" : "  (new image file)");
		if (p->sectors_note[0])
			fprintf(f, "sectors %s\n", p->sectors_note);
		fputc('\n', f);
		text_table_init(&t, plan_cols, ARRAY_SIZE(plan_cols), 1);
		text_table_header(&t, f);
		for (i = 0; i < p->n_parts; i++) {
			const struct clone_part *cp = &p->parts[i];

			if (cp->has_used)
				size_to_human(cp->used, a, sizeof(a));
			else
				str_copy(a, sizeof(a), "-");
			size_to_human(cp->start, b, sizeof(b));
			size_to_human(cp->size, c, sizeof(c));
			size_to_human(cp->t_start, d, sizeof(d));
			size_to_human(cp->t_size, e, sizeof(e));
			str_fmt(part, sizeof(part), "p%u", cp->partno);
			str_fmt(copy, sizeof(copy), " %s", clone_method_name(cp->method));
			str_fmt(ids, sizeof(ids), "%s%s%s", cp->t_partuuid, cp->t_uuid[0] ? " " : "",
				cp->t_uuid);
			{
				const char *cells[] = { part, cp->fstype[0] ? cp->fstype : "-",
							label, a, b, c, " ->", d, e, copy, ids };

				/* the label was cut at 12 without a mark before the columns fitted */
				str_fmt(label, 13, "%s", cp->label[0] ? cp->label : "-");
				text_table_row(&t, f, cells);
			}
		}
		/* a cut id is no use: on a terminal too narrow for the column, each whole */
		if (!t.w[ARRAY_SIZE(plan_cols) - 1]) {
			fprintf(f, "\nnew ids on the target:\n");
			for (i = 0; i < p->n_parts; i++) {
				const struct clone_part *cp = &p->parts[i];

				fprintf(f, "  p%u  %s%s%s\n", cp->partno, cp->t_partuuid,
					cp->t_uuid[0] ? "  " : "", cp->t_uuid);
			}
		}
	}
	if (p->n_rewrites) {
		fprintf(f, "\nrewritten on the target:\n");
		for (i = 0; i < p->n_rewrites; i++) {
			const struct clone_rewrite *r = &p->rewrites[i];

			fprintf(f, "  %s:%u%s\n    - %s\n    + %s\n", r->file, r->line,
				p->applied ? (r->done ? "  (done)" : "  (NOT done)") : "", r->before,
				r->after);
		}
	}
	for (i = 0; i < p->n_warnings; i++)
		fprintf(f, "warning: %s\n", p->warnings[i]);
	size_to_human(p->copy_bytes, a, sizeof(a));
	fprintf(f, "\nto copy: %s\n", a);
	if (!p->applied) {
		print_estimate(p, f);
		return;
	}
	fprintf(f, "copied in %.1f s (%.1f MB/s)\n", p->copy_s,
		p->copy_s > 0 ? (double)p->copy_bytes / p->copy_s / 1e6 : 0.0);
	if (p->has_window)
		fprintf(f, "window between the last file pass and the end: %.1f s (what changed "
			"on the source after it is not on the target)\n", p->window_s);
	if (p->n_checks)
		fprintf(f, "\nchecks:\n");
	for (i = 0; i < p->n_checks; i++) {
		fprintf(f, "  %s  %-16s %s\n", state_name(p->checks[i].state), p->checks[i].name,
			p->checks[i].detail);
		if (p->checks[i].fix[0] && p->checks[i].state != CLONE_CHECK_PASS)
			fprintf(f, "        %-16s fix: %s\n", "", p->checks[i].fix);
	}
	for (i = 0; i < p->n_diffs && i < CLONE_DIFFS_MAX; i++)
		fprintf(f, "  differs: %s\n", p->diffs[i]);
	if (p->n_diffs > CLONE_DIFFS_MAX)
		fprintf(f, "  ... and %zu more\n", p->n_diffs - CLONE_DIFFS_MAX);
}

struct json_object *clone_report_json(const struct clone_plan *p)
{
	struct json_object *doc = json_object_new_object(), *src, *dst, *arr, *o;
	size_t i;

	if (!doc)
		return NULL;
	json_add_u64(doc, "schema", true, 1);
	json_add_bool(doc, "applied", true, p->applied);
	json_add_bool(doc, "whole", true, p->whole);
	src = json_object_new_object();
	json_add_str(src, "path", p->src_path);
	json_add_u64(src, "size_bytes", true, p->src_size);
	json_add_str(src, "label", p->whole ? NULL : p->src_label);
	json_add_str(src, "disk_id", p->whole ? NULL : p->src_id);
	json_object_object_add(doc, "source", src);
	dst = json_object_new_object();
	json_add_str(dst, "path", p->dst_path);
	json_add_u64(dst, "size_bytes", true, p->dst_size);
	json_add_bool(dst, "image_file", true, p->dst_is_file);
	json_add_str(dst, "label", p->whole ? NULL : p->dst_label);
	json_add_str(dst, "disk_id", p->whole ? NULL : p->dst_id);
	json_add_bool(dst, "label_changed", true, p->label_changed);
	json_object_object_add(doc, "target", dst);
	arr = json_object_new_array();
	for (i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];

		o = json_object_new_object();
		json_add_u64(o, "partno", true, cp->partno);
		json_add_str(o, "fstype", cp->fstype[0] ? cp->fstype : NULL);
		json_add_str(o, "label", cp->label[0] ? cp->label : NULL);
		json_add_str(o, "uuid", cp->uuid[0] ? cp->uuid : NULL);
		json_add_str(o, "partuuid", cp->partuuid[0] ? cp->partuuid : NULL);
		json_add_u64(o, "used_bytes", cp->has_used, cp->used);
		json_add_u64(o, "start_bytes", true, cp->start);
		json_add_u64(o, "size_bytes", true, cp->size);
		json_add_bool(o, "mounted", true, cp->mounted);
		json_add_bool(o, "root", true, (int)i == p->root);
		json_add_bool(o, "boot", true, (int)i == p->boot);
		json_add_str(o, "method", clone_method_name(cp->method));
		json_add_u64(o, "copy_bytes", true, cp->copy_bytes);
		json_add_u64(o, "target_start_bytes", true, cp->t_start);
		json_add_u64(o, "target_size_bytes", true, cp->t_size);
		json_add_str(o, "target_partuuid", cp->t_partuuid);
		json_add_str(o, "target_uuid", cp->t_uuid[0] ? cp->t_uuid : NULL);
		json_add_u64(o, "copied_bytes", p->applied, cp->copied);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "partitions", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_rewrites; i++) {
		o = json_object_new_object();
		json_add_str(o, "file", p->rewrites[i].file);
		json_add_u64(o, "line", true, p->rewrites[i].line);
		json_add_str(o, "before", p->rewrites[i].before);
		json_add_str(o, "after", p->rewrites[i].after);
		json_add_bool(o, "done", p->applied, p->rewrites[i].done);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "rewrites", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_warnings; i++)
		json_object_array_add(arr, json_object_new_string(p->warnings[i]));
	json_object_object_add(doc, "warnings", arr);
	json_add_u64(doc, "copy_bytes", true, p->copy_bytes);
	o = json_object_new_object();
	json_add_double(o, "time_s", p->speed.has_time, p->speed.time_s);
	json_add_double(o, "source_read_bw_bytes_per_s", p->speed.has_read, p->speed.read_bps);
	json_add_str(o, "source_read_from", p->speed.read_from[0] ? p->speed.read_from : NULL);
	json_add_str(o, "source_read_bench_at", p->speed.read_at[0] ? p->speed.read_at : NULL);
	json_add_u64(o, "source_read_measured_bytes", !strcmp(p->speed.read_from, "measured"),
		     p->speed.measured_bytes);
	json_add_double(o, "target_write_bw_bytes_per_s", p->speed.has_write,
			p->speed.write_bps);
	json_add_str(o, "target_write_from", p->speed.write_from[0] ? p->speed.write_from : NULL);
	json_add_str(o, "target_write_bench_at", p->speed.write_at[0] ? p->speed.write_at : NULL);
	json_object_object_add(doc, "expected", o);
	json_add_double(doc, "copy_s", p->applied, p->copy_s);
	json_add_double(doc, "window_s", p->has_window, p->window_s);
	arr = json_object_new_array();
	for (i = 0; i < p->n_checks; i++) {
		o = json_object_new_object();
		json_add_str(o, "name", p->checks[i].name);
		json_add_str(o, "state", state_name(p->checks[i].state));
		json_add_str(o, "detail", p->checks[i].detail);
		json_add_str(o, "fix", p->checks[i].fix[0] ? p->checks[i].fix : NULL);
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "checks", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->n_diffs && i < CLONE_DIFFS_MAX; i++)
		json_object_array_add(arr, json_object_new_string(p->diffs[i]));
	json_object_object_add(doc, "differences", arr);
	json_add_u64(doc, "differences_count", p->applied, p->n_diffs);
	json_add_bool(doc, "target_wiped", true, p->wiped);
	return doc;
}
