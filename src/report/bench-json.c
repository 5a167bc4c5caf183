/* bench-json.c - `sbcdisk bench --json`: the result document of the bench issue's contract.
 * The store keeps exactly this document, so it is built here once for both. */
#include <time.h>

#include "common/util.h"
#include "report/bench-report.h"
#include "store/verdict.h"
#include "common/json.h"

static struct json_object *test_to_json(const struct bench_test_result *r)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	if (!o)
		return NULL;
	json_add_str(o, "name", r->test.name);
	json_add_str(o, "rw", bench_rw_name(r->test.rw));
	json_add_u64(o, "block_bytes", true, r->test.bs);
	json_add_u64(o, "queue_depth", true, r->test.qd);
	json_add_u64(o, "threads", true, r->test.threads);
	json_add_u64(o, "runs", true, r->runs_done);
	json_add_u64(o, "ios", true, r->ios);
	for (i = 0; i < bench_ncols; i++) {
		const struct bench_col *c = &bench_cols[i];
		double v = 0;
		bool has;

		if (!c->key)
			continue;
		has = c->get(r, &v);
		if (c->integer)
			json_add_u64(o, c->key, has, (uint64_t)v);
		else
			json_add_double(o, c->key, has, v);
	}
	json_add_str(o, "engine", r->engine);
	json_add_str(o, "engine_detail", r->engine_detail[0] ? r->engine_detail : NULL);
	json_add_bool(o, "direct", !r->skipped, r->direct);
	json_add_bool(o, "stable", r->runs_done > 1, !r->unstable);
	json_add_bool(o, "until_known", !r->skipped, r->early);
	json_add_bool(o, "stopped_early", !r->skipped, r->stopped_early);
	json_add_str(o, "drift", r->drift < 0 ? "falling" : r->drift > 0 ? "rising" : NULL);
	json_add_double(o, "drift_change_pct", r->drift != 0, r->drift_change * 100);
	json_add_bool(o, "skipped", true, r->skipped);
	json_add_str(o, "skip_reason", r->skipped ? r->skip_reason : NULL);
	if (r->has_series) {
		struct json_object *a = json_object_new_array();

		for (i = 0; a && i < r->nseries; i++) {
			struct json_object *s = json_object_new_object();

			json_add_double(s, "t_s", true, r->series[i].t_s);
			json_add_u64(s, "bw_bytes_per_s", true, (uint64_t)r->series[i].bw);
			json_object_array_add(a, s);
		}
		json_object_object_add(o, "series", a);
		a = json_object_new_object();
		json_add_bool(a, "fell", true, r->fall.fell);
		json_add_bool(a, "settled", true, r->fall.settled);
		json_add_u64(a, "fast_bw_bytes_per_s", r->fall.fell, (uint64_t)r->fall.fast_bw);
		json_add_u64(a, "slow_bw_bytes_per_s", r->fall.fell, (uint64_t)r->fall.slow_bw);
		json_add_double(a, "end_s", r->fall.fell, r->fall.end_s);
		json_add_u64(a, "end_bytes", r->fall.fell, (uint64_t)r->fall.end_bytes);
		json_object_object_add(o, "cache", a);
	}
	return o;
}

struct json_object *bench_result_to_json(const struct bench_run *run)
{
	struct json_object *o = json_object_new_object(), *t, *a;
	const struct bench_target *tg = &run->target;
	char when[32];
	struct tm tm;
	unsigned i;

	if (!o)
		return NULL;
	json_add_i64(o, "schema", true, BENCH_SCHEMA);
	json_add_str(o, "engine", run->engine->name);
	t = json_object_new_object();
	json_add_str(t, "path", tg->shown); /* JSON is UTF-8; a path may hold any bytes */
	json_add_str(t, "kind", bench_target_kind_name(tg->kind));
	json_add_str(t, "device", tg->has_device ? tg->device : NULL);
	json_add_str(t, "disk", tg->has_device && tg->disk[0] ? tg->disk : NULL);
	json_add_str(t, "attachment", tg->attachment[0] ? tg->attachment : NULL);
	json_object_object_add(o, "target", t);
	json_add_str(o, "profile", run->profile_name);
	json_add_u64(o, "file_size_bytes", true, run->file_size);
	gmtime_r(&run->started_at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_add_str(o, "started_at", when);
	json_add_double(o, "time_s", true, (double)run->time_ns / 1e9);
	json_add_double(o, "interval_s", true, (double)run->interval_ns / 1e9);
	json_add_bool(o, "interrupted", true, run->interrupted);
	a = json_object_new_array();
	for (i = 0; i < run->ntests; i++)
		json_object_array_add(a, test_to_json(&run->tests[i]));
	json_object_object_add(o, "tests", a);
	a = json_object_new_array();
	for (i = 0; i < run->nchecks; i++) {
		const struct bench_check *c = &run->checks[i];
		struct json_object *co = json_object_new_object();

		json_add_str(co, "name", c->name);
		json_add_str(co, "unit", c->unit);
		json_add_double(co, "required", true, c->required);
		json_add_double(co, "measured", c->has_measured, c->measured);
		json_add_bool(co, "pass", c->has_measured, c->pass);
		json_object_array_add(a, co);
	}
	json_object_object_add(o, "checks", a);
	a = json_object_new_array();
	for (i = 0; i < run->nnotes; i++)
		json_object_array_add(a, json_object_new_string(run->notes[i]));
	json_object_object_add(o, "notes", a);
	return o;
}

void bench_json_add_verdicts(struct json_object *doc, const struct run *judged)
{
	struct json_object *tests = NULL;
	size_t i, n;

	if (!json_object_object_get_ex(doc, "tests", &tests) ||
	    !json_object_is_type(tests, json_type_array))
		return;
	n = json_object_array_length(tests);
	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(tests, i), *vo = NULL;
		struct verdict v;

		if (judged && i < judged->ntests &&
		    !verdict_test(judged, &judged->tests[i], &v)) {
			vo = json_object_new_object();
			verdict_json_add(vo, &v);
		}
		json_object_object_add(t, "verdict", vo);
	}
}
