/* bench-step.c - a quick bench of one disk as a step of a journey. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flow/bench-step.h"

int flow_quick_bench(struct sysroot *sr, const char *path, const struct flow_bench_step *s,
		     struct bench_run *run, char *why, size_t cap)
{
	struct bench_opts *o = calloc(1, sizeof(*o)); /* BENCH_MAX_TESTS tests: not the stack */
	int ret;

	why[0] = '\0';
	if (!o) {
		memset(run, 0, sizeof(*run));
		return -ENOMEM;
	}
	o->target = path;
	o->profile = "quick";
	o->time_ns = s->time_ns;
	ret = bench_run_init(run, o, why, cap);
	if (!ret) {
		run->stop = s->stop;
		run->progress = s->progress;
		run->progress_arg = s->progress_arg;
		ret = bench_run_prepare(run, sr, o, why, cap);
	}
	if (!ret)
		ret = bench_run_execute(run, why, cap);
	free(o);
	return ret;
}
