// SPDX-License-Identifier: GPL-2.0-or-later
/* dlib.c - a library opened when a command first needs it: libsqlite3 for the result store,
 * libfdisk and libext2fs for clone. `list`, the health check and `bench` load none of them. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "common/banned.h"
#include "common/dlib.h"
#include "common/util.h"

static pthread_mutex_t dlib_lock = PTHREAD_MUTEX_INITIALIZER;

int dlib_open(struct dlib *l, char *why, size_t whycap)
{
	void *h, *f;
	size_t i;
	int ret = 0;

	pthread_mutex_lock(&dlib_lock);
	if (l->handle)
		goto out;
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		if (why)
			str_fmt(why, whycap, "cannot load %s: %s", l->soname, e ? e : "not found");
		ret = -ELIBACC;
		goto out;
	}
	for (i = 0; i < l->nsyms; i++) {
		f = dlsym(h, l->syms[i].name);
		if (!f) {
			if (why)
				str_fmt(why, whycap, "%s has no %s (an older version?)", l->soname,
					l->syms[i].name);
			dlclose(h);
			ret = -ELIBBAD;
			goto out;
		}
	}
	/* every symbol is there: only now are the slots written */
	for (i = 0; i < l->nsyms; i++)
		*l->syms[i].slot = dlsym(h, l->syms[i].name);
	l->handle = h;
out:
	pthread_mutex_unlock(&dlib_lock);
	return ret;
}
