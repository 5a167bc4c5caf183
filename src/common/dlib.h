/* dlib.h - a library opened when a command first needs it (dlopen), not by every command at
 * start: its functions resolved into pointers that the calling code names as the library does. */
#ifndef SBCDISK_DLIB_H
#define SBCDISK_DLIB_H

#include <stddef.h>

struct dlib_sym {
	const char *name;
	void **slot;
};

struct dlib {
	const char *soname;          /* e.g. "libsqlite3.so.0" */
	const struct dlib_sym *syms;
	size_t nsyms;
	void *handle;                /* set once every symbol is found */
};

/*
 * Open l->soname once and fill every slot (later calls: 0 at once). 0; -ELIBACC when the
 * library cannot be opened, -ELIBBAD when a symbol is missing (nothing kept: the slots stay as
 * they were); why says which (dlerror's text), when given.
 */
int dlib_open(struct dlib *l, char *why, size_t whycap);

/*
 * For a library's header of names (X-macro lists of its functions, FN(x) per function):
 * DLIB_DECLARE(x) declares the pointer dl_x of x's type, DLIB_DEFINE(x) defines it, and
 * DLIB_SYM(x) is its row of the table dlib_open fills. After them the header defines
 * `#define x (*dl_x)`, so the code calls x(...) as it would linked directly.
 */
#define DLIB_DECLARE(x) extern __typeof__(x) *dl_##x;
#define DLIB_DEFINE(x) __typeof__(x) *dl_##x;
#define DLIB_SYM(x) { #x, (void **)&dl_##x },

#endif
