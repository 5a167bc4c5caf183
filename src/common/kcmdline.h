/* kcmdline.h - the kernel command line as the kernel splits it (lib/cmdline.c next_arg()):
 * arguments end at white space outside double quotes; a value's surrounding quotes go. */
#ifndef SBCDISK_COMMON_KCMDLINE_H
#define SBCDISK_COMMON_KCMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the first line of a cmdline.txt (without its newline): the Raspberry Pi
 * firmware passes that line to the kernel and ignores the others. */
size_t kcmdline_first_line(const char *text, size_t len);

/* The kernel's isspace() on the command line. */
bool kcmdline_is_space(char c);

/* Length of the argument starting at s[0] (not white space): up to white space outside
 * double quotes; a quote never runs past the end of a line. */
size_t kcmdline_arg_len(const char *s, size_t len);

/* Length of the name of an argument ("usb-storage.quirks" in "usb-storage.quirks=x"), or 0
 * when it has no '='. */
size_t kcmdline_param_name_len(const char *arg, size_t len);

/* True when the argument's name is name, '-' and '_' being the same (the kernel's
 * parameqn()). */
bool kcmdline_param_is(const char *arg, size_t len, const char *name);

/* The value of a name=value argument without its surrounding quotes: [*v, *v + *vlen);
 * *quoted when it had them. */
void kcmdline_param_value(const char *arg, size_t len, const char **v, size_t *vlen,
			  bool *quoted);

#endif
