/* engine.c - the table of engines and the run-time choice between them.
 * io_uring can be missing (old kernel), disabled (sysctl, seccomp) or absent (qemu-user). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

const struct bench_engine_ops *bench_engine_pick(char *why, size_t whycap)
{
	int ret;

	*why = 0;
	if (getenv("SBCDISK_NO_IO_URING"))
		return &bench_engine_psync;
	ret = bench_engine_uring.probe();
	if (!ret)
		return &bench_engine_uring;
	bench_engine_why_not(&bench_engine_uring, ret, why, whycap);
	return &bench_engine_psync;
}

void bench_engine_why_not(const struct bench_engine_ops *ops, int err, char *why, size_t whycap)
{
	if (err == -ENOSYS)
		str_fmt(why, whycap, "%s is not there (an old kernel, or qemu-user)", ops->name);
	else if (err == -EPERM)
		str_fmt(why, whycap, "%s is refused here (kernel.io_uring_disabled or a seccomp "
			"filter)", ops->name);
	else
		str_fmt(why, whycap, "%s cannot start here: %s", ops->name, strerror(-err));
}

const struct bench_engine_ops *bench_engine_get(size_t i)
{
	return i < ARRAY_SIZE(engines) ? engines[i] : NULL;
}

const char *bench_engine_names(void)
{
	static char names[64];
	size_t i, len = 0;

	for (i = 0; !names[0] && i < ARRAY_SIZE(engines); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					engines[i]->name);
	return names;
}
