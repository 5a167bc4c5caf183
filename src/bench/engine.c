/* engine.c - the table of engines and the run-time choice between them.
 * io_uring can be missing (old kernel), disabled (sysctl, seccomp) or absent (qemu-user). */
#include <string.h>

#include "bench/engine.h"
#include "common/util.h"

static const struct bench_engine_ops *const engines[] = {
	&bench_engine_uring,
	&bench_engine_psync,
	&bench_engine_null,
};

const struct bench_engine_ops *bench_engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct bench_engine_ops *bench_engine_pick(void)
{
	if (!getenv("SBCDISK_NO_IO_URING") && bench_engine_uring.probe() == 0)
		return &bench_engine_uring;
	return &bench_engine_psync;
}

const char *bench_engine_names(void)
{
	return "io_uring, psync, null";
}
