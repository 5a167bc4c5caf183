/* capacity-report.c - `sbcdisk verify`'s output: one JSON document (snake_case keys with units)
 * and a short summary table; both read the same struct capacity_run. */
#include <time.h>

#include "common/util.h"
#include "common/json.h"
#include "report/capacity-report.h"

static double bw_of(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s : 0;
}

void capacity_finding_text(const struct capacity_run *run, char *buf, size_t cap)
{
	char real[32], size[32], at[32], of[32];

	buf[0] = '\0';
	if (!run->finding)
		return;
	size_to_human(run->real_size, real, sizeof(real));
	size_to_human(run->size_bytes, size, sizeof(size));
	size_to_human(run->alias_at, at, sizeof(at));
	size_to_human(run->alias_of, of, sizeof(of));
	if (!strcmp(run->finding, CAPACITY_DATA_CORRUPT)) {
		str_fmt(buf, cap, "%s: %llu of %llu sectors did not read back as written",
			run->finding,
			(unsigned long long)(run->sectors.changed + run->sectors.corrupted),
			(unsigned long long)(run->sectors.ok + run->sectors.changed +
					     run->sectors.corrupted + run->sectors.overwritten));
		return;
	}
	if (run->mode != CAPACITY_MODE_DIR && run->has_refused && !run->has_alias) {
		char ra[32];

		size_to_human(run->refused_at, ra, sizeof(ra));
		if (run->refused_at < run->size_bytes)
			str_fmt(buf, cap, "%s: it holds %s, not the %s it reports; writes from %s "
				"on fail (%s)", run->finding, real, size, ra,
				strerror(-run->refused_err));
		else
			str_fmt(buf, cap, "%s: it holds %s, not the %s it reports; what was "
				"written past it was lost (the flush: %s)", run->finding, real, size,
				strerror(-run->refused_err));
	} else if (run->mode != CAPACITY_MODE_DIR)
		str_fmt(buf, cap, "%s: it holds %s, not the %s it reports%s%s%s%s", run->finding,
			real, size, run->has_alias ? "; offset " : "", run->has_alias ? at : "",
			run->has_alias ? " gives back the data written at " : "",
			run->has_alias ? of : "");
	else
		str_fmt(buf, cap, "%s: data written at %s came back at %s: writes wrap around, "
			"%s of %s read back intact", run->finding, of, at, real, size);
}

struct json_object *capacity_result_to_json(const struct capacity_run *run)
{
	struct json_object *o = json_object_new_object(), *t, *s;
	const struct bench_target *tg = &run->target;
	const struct capacity_counts *c = &run->sectors;
	char when[32], seed[20], text[400];
	struct tm tm;

	if (!o)
		return NULL;
	json_add_i64(o, "schema", true, CAPACITY_SCHEMA);
	t = json_object_new_object();
	json_add_str(t, "path", tg->shown);
	json_add_str(t, "kind", bench_target_kind_name(tg->kind));
	json_add_str(t, "device", tg->has_device ? tg->device : NULL);
	json_add_str(t, "disk", tg->has_device && tg->disk[0] ? tg->disk : NULL);
	json_add_str(t, "attachment", tg->attachment[0] ? tg->attachment : NULL);
	json_object_object_add(o, "target", t);
	json_add_str(o, "mode", capacity_mode_name(run->mode));
	str_fmt(seed, sizeof(seed), "%016llx", (unsigned long long)run->seed);
	json_add_str(o, "seed", seed);
	gmtime_r(&run->started_at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_add_str(o, "started_at", when);
	json_add_u64(o, "size_bytes", true, run->size_bytes);
	json_add_u64(o, "real_size_bytes", run->has_real_size, run->real_size);
	json_add_u64(o, "first_bad_offset_bytes", run->has_first_bad, run->first_bad);
	json_add_u64(o, "alias_offset_bytes", run->has_alias, run->alias_at);
	json_add_u64(o, "alias_of_offset_bytes", run->has_alias, run->alias_of);
	json_add_u64(o, "write_failed_offset_bytes", run->has_refused, run->refused_at);
	json_add_bool(o, "in_memory", run->mode == CAPACITY_MODE_DIR, run->in_memory);
	json_add_u64(o, "probe_blocks", run->mode != CAPACITY_MODE_DIR, run->probe_blocks);
	json_add_u64(o, "files", run->mode == CAPACITY_MODE_DIR, run->nfiles);
	json_add_u64(o, "written_bytes", true, run->written_bytes);
	json_add_u64(o, "read_bytes", true, run->read_bytes);
	json_add_double(o, "write_s", true, run->write_s);
	json_add_double(o, "read_s", true, run->read_s);
	json_add_u64(o, "write_bw_bytes_per_s", run->write_s > 0,
		     (uint64_t)bw_of(run->written_bytes, run->write_s));
	json_add_u64(o, "read_bw_bytes_per_s", run->read_s > 0,
		     (uint64_t)bw_of(run->read_bytes, run->read_s));
	s = json_object_new_object();
	json_add_u64(s, "sector_bytes", true, CAPACITY_SECTOR);
	json_add_u64(s, "ok", true, c->ok);
	json_add_u64(s, "corrupted", true, c->corrupted);
	json_add_u64(s, "changed", true, c->changed);
	json_add_u64(s, "overwritten", true, c->overwritten);
	json_add_u64(s, "read_errors", true, c->read_errors);
	json_object_object_add(o, "sectors", s);
	json_add_bool(o, "interrupted", true, run->interrupted);
	json_add_bool(o, "pass", run->done, run->done && !run->finding);
	json_add_str(o, "finding", run->finding);
	capacity_finding_text(run, text, sizeof(text));
	json_add_str(o, "finding_text", run->finding ? text : NULL);
	return o;
}

static void line_size(FILE *f, const char *label, bool has, uint64_t v)
{
	char h[32];

	if (!has) {
		fprintf(f, "  %-18s -\n", label);
		return;
	}
	size_to_human(v, h, sizeof(h));
	fprintf(f, "  %-18s %s (%llu bytes)\n", label, h, (unsigned long long)v);
}

static void line_speed(FILE *f, const char *label, uint64_t bytes, double s)
{
	char h[32];

	size_to_human(bytes, h, sizeof(h));
	if (s > 0)
		fprintf(f, "  %-18s %.1f MB/s (%s in %.1f s)\n", label, bw_of(bytes, s) / 1e6, h, s);
	else
		fprintf(f, "  %-18s -\n", label);
}

int capacity_table_print(const struct capacity_run *run, FILE *f)
{
	const struct capacity_counts *c = &run->sectors;
	char text[400];

	fprintf(f, "verify %s (%s%s%s, seed %016llx)%s\n", run->target.shown,
		capacity_mode_name(run->mode), run->target.has_device ? " on " : "",
		run->target.has_device ? run->target.device : "", (unsigned long long)run->seed,
		run->interrupted ? " - interrupted" : "");
	line_size(f, run->mode == CAPACITY_MODE_DIR ? "free space" : "reported size", true,
		  run->size_bytes);
	line_size(f, run->mode == CAPACITY_MODE_DIR ? "read back intact" : "real size",
		  run->has_real_size, run->real_size);
	line_size(f, "first bad offset", run->has_first_bad, run->first_bad);
	if (run->has_alias)
		fprintf(f, "  %-18s offset %llu gave back the data written at %llu\n", "wraps",
			(unsigned long long)run->alias_at, (unsigned long long)run->alias_of);
	if (run->mode == CAPACITY_MODE_PROBE)
		fprintf(f, "  %-18s %u blocks of %u bytes, spread over the device\n", "probe",
			run->probe_blocks, run->target.align);
	fprintf(f, "  %-18s ok %llu  corrupted %llu  changed %llu  overwritten %llu", "sectors",
		(unsigned long long)c->ok, (unsigned long long)c->corrupted,
		(unsigned long long)c->changed, (unsigned long long)c->overwritten);
	if (c->read_errors)
		fprintf(f, "  (read errors %llu)", (unsigned long long)c->read_errors);
	fputc('\n', f);
	line_speed(f, "write", run->written_bytes, run->write_s);
	line_speed(f, "read", run->read_bytes, run->read_s);
	capacity_finding_text(run, text, sizeof(text));
	if (run->finding)
		fprintf(f, "finding %s\n", text);
	else if (run->done && run->in_memory)
		fprintf(f, "pass, of RAM: every byte written read back, but the directory is on "
			"tmpfs or ramfs: no drive was tested\n");
	else if (run->done)
		fprintf(f, "pass: every byte written read back%s\n",
			run->mode == CAPACITY_MODE_PROBE ?
				" (the probe's blocks; --full checks all)" : "");
	return ferror(f) ? -EIO : 0;
}
